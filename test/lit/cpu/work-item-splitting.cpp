// Index-set splitting of the work-item loops (lib/CpuFallback/
// WorkItemLoops.cpp, splitAtEdges): a region whose items test their id
// against points and bounds (a tile's first and last item, the grid's edge,
// clamps `g < n ? g : n - 1`, `switch (l)`, tests of the row) runs the middle
// of each row through a copy free of those tests and the rest through the
// full body. Every kind of test, at grid sizes that cut tiles anywhere and
// with bounds inside, before and after them, checked against a serial
// computation on the loops, on fibers and unoptimised.
// RUN: %slmcxx -O2 %s -o %t
// RUN: env SLMC_VERBOSE=1 %t 2>&1 | FileCheck %s --check-prefixes=CHECK,LOOPS
// RUN: env SLMC_CPU_WORK_ITEM_LOOPS=0 %t 2>&1 | FileCheck %s
// RUN: %slmcxx -O0 %s -o %t.O0
// RUN: %t.O0 2>&1 | FileCheck %s
// LOOPS-NOT: runs as fibers
// LOOPS: runs as work-item loops
// CHECK: 1-D: 210 cases ok
// CHECK: 2-D: 72 cases ok
// CHECK-NOT: FAILED

#include <amp.h>
#include <cstdio>
#include <vector>

using namespace concurrency;

static const int T = 16;

// out[g] from the tile's neighbours (halo items and clamps at the edges)
// and a test of each kind against g, l, and the captures k and m.
static void Kernel1D(array_view<const int, 1> in, array_view<int, 1> out, int k, int m) {
  const int n = in.extent[0];
  parallel_for_each(in.extent.tile<T>().pad(), [=](tiled_index<T> t) restrict(amp) {
    tile_static int tile[T + 2];
    const int l = t.local[0], g = t.global[0];
    const int gc = g < n ? g : n - 1;
    tile[l + 1] = in[gc];
    if (l == 0)
      tile[0] = in[gc > 0 ? gc - 1 : 0];
    if (l == T - 1)
      tile[T + 1] = in[gc + 1 < n ? gc + 1 : gc];
    t.barrier.wait();
    if (g >= n)
      return;
    int v = tile[l] + 2 * tile[l + 1] + 3 * tile[l + 2];
    if (g == 0 || g == n - 1)
      v = -tile[l + 1];
    if (g != k)
      v += 1;
    if (g > 2)
      v += 10;
    if (g < m)
      v += 100;
    if (unsigned(l) < unsigned(m))
      v += 1000;
    if (l < 3)
      v += 5000;
    switch (l) {
    case 3:
      v += 7;
      break;
    case 9:
      v -= 7;
      break;
    }
    v += (g - 5 > 0 ? g - 5 : 0) + (g < m ? g : m);
    out[g] = v;
  });
}

static std::vector<int> Serial1D(const std::vector<int> &in, int k, int m) {
  const int n = int(in.size());
  std::vector<int> out(n);
  auto at = [&](int i) { return in[i < 0 ? 0 : i >= n ? n - 1 : i]; };
  for (int g = 0; g < n; ++g) {
    const int l = g % T;
    int v = at(g - 1) + 2 * at(g) + 3 * at(g + 1);
    if (g == 0 || g == n - 1)
      v = -at(g);
    v += (g != k) + (g > 2 ? 10 : 0) + (g < m ? 100 : 0) +
         (unsigned(l) < unsigned(m) ? 1000 : 0) + (l < 3 ? 5000 : 0) +
         (l == 3 ? 7 : l == 9 ? -7 : 0);
    v += (g - 5 > 0 ? g - 5 : 0) + (g < m ? g : m);
    out[g] = v;
  }
  return out;
}

// 2-D tiles of 4x8: the rows' tests (`r == 0`, `i == rows - 1`) and the
// columns' (`c == 0`, `j == cols - 1`, a clamp of j) together.
static void Kernel2D(array_view<const int, 2> in, array_view<int, 2> out) {
  const int rows = in.extent[0], cols = in.extent[1];
  parallel_for_each(in.extent.tile<4, 8>().pad(), [=](tiled_index<4, 8> t) restrict(amp) {
    tile_static int tile[4][8];
    const int r = t.local[0], c = t.local[1];
    const int i = t.global[0] < rows ? t.global[0] : rows - 1;
    const int j = t.global[1] < cols ? t.global[1] : cols - 1;
    tile[r][c] = in(i, j);
    if (r == 0)
      tile[r][c] += 1000;
    if (c == 7)
      tile[r][c] += 100;
    t.barrier.wait();
    const int gi = t.global[0], gj = t.global[1];
    if (gi >= rows || gj >= cols)
      return;
    int v = tile[r][c] + tile[3 - r][7 - c];
    if (gi == rows - 1 || gj == 0 || gj == cols - 1)
      v = -v;
    out(gi, gj) = v;
  });
}

static std::vector<int> Serial2D(const std::vector<int> &in, int rows, int cols) {
  const int prows = (rows + 3) / 4 * 4, pcols = (cols + 7) / 8 * 8;
  std::vector<int> tiled(size_t(prows) * pcols), out(size_t(rows) * cols);
  for (int gi = 0; gi < prows; ++gi)
    for (int gj = 0; gj < pcols; ++gj) {
      const int i = gi < rows ? gi : rows - 1, j = gj < cols ? gj : cols - 1;
      int v = in[size_t(i) * cols + j];
      v += (gi % 4 == 0 ? 1000 : 0) + (gj % 8 == 7 ? 100 : 0);
      tiled[size_t(gi) * pcols + gj] = v;
    }
  for (int gi = 0; gi < rows; ++gi)
    for (int gj = 0; gj < cols; ++gj) {
      const int r = gi % 4, c = gj % 8;
      int v = tiled[size_t(gi) * pcols + gj] +
              tiled[size_t(gi - r + 3 - r) * pcols + (gj - c + 7 - c)];
      if (gi == rows - 1 || gj == 0 || gj == cols - 1)
        v = -v;
      out[size_t(gi) * cols + gj] = v;
    }
  return out;
}

int main() {
  int cases = 0, failures = 0;
  for (int n = 1; n <= 70; ++n)
    for (int pick = 0; pick < 3; ++pick) {
      // k and m before, inside and past the grid.
      const int k = pick == 0 ? -3 : pick == 1 ? n / 2 : n + 4;
      const int m = pick == 0 ? n / 3 : pick == 1 ? 7 : n + 20;
      std::vector<int> in(n), out(n, 0);
      for (int i = 0; i < n; ++i)
        in[i] = (i * 37 + 11) % 23;
      array_view<const int, 1> iv(n, in);
      array_view<int, 1> ov(n, out);
      Kernel1D(iv, ov, k, m);
      ov.synchronize();
      ++cases;
      if (out != Serial1D(in, k, m)) {
        std::printf("1-D n=%d k=%d m=%d: FAILED\n", n, k, m);
        ++failures;
      }
    }
  std::printf("1-D: %d cases %s\n", cases, failures ? "FAILED" : "ok");
  int cases2 = 0, failures2 = 0;
  for (int rows = 1; rows <= 9; ++rows)
    for (int cols = 1; cols <= 24; cols += 3) {
      std::vector<int> in(size_t(rows) * cols), out(in.size(), 0);
      for (size_t i = 0; i < in.size(); ++i)
        in[i] = int(i * 13 + 5) % 31;
      array_view<const int, 2> iv(rows, cols, in);
      array_view<int, 2> ov(rows, cols, out);
      Kernel2D(iv, ov);
      ov.synchronize();
      ++cases2;
      if (out != Serial2D(in, rows, cols)) {
        std::printf("2-D %dx%d: FAILED\n", rows, cols);
        ++failures2;
      }
    }
  std::printf("2-D: %d cases %s\n", cases2, failures2 ? "FAILED" : "ok");
  return failures + failures2 ? 1 : 0;
}
