// Benchmark: the C++ AMP five-point Jacobi sweep of examples/amp/stencil.cpp
// (16x16 tiles, an 18x18 tile_static block with a one-cell halo loaded by the
// edge threads, padded extent), timed on whatever device slmc's runtime
// picks: kernel launches only, after a warm-up launch. Every launch sweeps
// the same input grid (the example alternates between two grids), so the
// result is checked in full against one host sweep.
// Prints one line: "amp stencil N=<rows>x<cols> <ms> ms <GB/s> GB/s verified".
// Usage: stencil_bench [n=4608 (rows n, columns n + n/3)] [repetitions=200]
#include <amp.h>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace concurrency;

static const int TS = 16;

void JacobiSweep(array_view<const float, 2> in, array_view<float, 2> out) {
  const int rows = in.extent[0], cols = in.extent[1];
  parallel_for_each(in.extent.tile<TS, TS>().pad(),
                    [=](tiled_index<TS, TS> t_idx) restrict(amp) {
    tile_static float tile[TS + 2][TS + 2];
    const int r = t_idx.local[0], c = t_idx.local[1];
    const int gr = t_idx.global[0] < rows ? t_idx.global[0] : rows - 1;
    const int gc = t_idx.global[1] < cols ? t_idx.global[1] : cols - 1;
    const int up = gr > 0 ? gr - 1 : 0, down = gr + 1 < rows ? gr + 1 : gr;
    const int left = gc > 0 ? gc - 1 : 0, right = gc + 1 < cols ? gc + 1 : gc;

    tile[r + 1][c + 1] = in(gr, gc);
    if (r == 0) tile[0][c + 1] = in(up, gc);
    if (r == TS - 1) tile[TS + 1][c + 1] = in(down, gc);
    if (c == 0) tile[r + 1][0] = in(gr, left);
    if (c == TS - 1) tile[r + 1][TS + 1] = in(gr, right);
    t_idx.barrier.wait();

    const int i = t_idx.global[0], j = t_idx.global[1];
    if (i >= rows || j >= cols)
      return;
    if (i == 0 || j == 0 || i == rows - 1 || j == cols - 1)
      out(i, j) = tile[r + 1][c + 1];
    else
      out(i, j) = 0.25f * (tile[r][c + 1] + tile[r + 2][c + 1] + tile[r + 1][c] +
                           tile[r + 1][c + 2]);
  });
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 4608;
  int reps = argc > 2 ? std::atoi(argv[2]) : 200;
  if (n < 3 || reps <= 0) {
    std::fprintf(stderr, "usage: stencil_bench [n >= 3] [repetitions]\n");
    return 2;
  }
  const int rows = n, cols = n + n / 3;
  std::vector<float> grid(size_t(rows) * cols, 0.0f);
  for (int i = 0; i < rows; ++i) grid[size_t(i) * cols] = 100.0f;
  for (int i = rows / 3; i < rows / 2; ++i)
    for (int j = cols / 3; j < cols / 2; ++j) grid[size_t(i) * cols + j] = 50.0f;
  for (size_t k = 0; k < grid.size(); ++k) grid[k] += float(k % 7); // no flat regions
  std::vector<float> result(grid.size());

  accelerator acc;
  array<float, 2> a(rows, cols, grid.begin()), b(rows, cols);
  array_view<float, 2> av(a), bv(b);

  JacobiSweep(av, bv); // warm-up: module build / JIT
  acc.default_view.wait();
  auto t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < reps; ++r)
    JacobiSweep(av, bv);
  acc.default_view.wait();
  auto t1 = std::chrono::steady_clock::now();
  double ms = std::chrono::duration<double, std::milli>(t1 - t0).count() / reps;
  copy(b, result.begin());

  long bad = 0;
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) {
      size_t k = size_t(i) * cols + j;
      float want = i == 0 || j == 0 || i == rows - 1 || j == cols - 1
                       ? grid[k]
                       : 0.25f * (grid[k - cols] + grid[k + cols] + grid[k - 1] + grid[k + 1]);
      bad += std::fabs(result[k] - want) > 1e-5f * (1.0f + std::fabs(want));
    }
  std::printf("amp stencil N=%dx%d %.4f ms %.1f GB/s %s\n", rows, cols, ms,
              2.0 * sizeof(float) * rows * double(cols) / (ms * 1e6),
              bad ? "WRONG" : "verified");
  return bad ? 1 : 0;
}
