// The CPU fallback's work-group entries of a program built for baseline
// x86-64 come in versions for x86-64-v3 (AVX2, FMA) and x86-64-v4
// (AVX-512); the runtime runs the host's, and SLMC_CPU_ISA caps it. Every
// version computes the same results (a tiled matrix multiply with a
// reduction whose sums are exact in float, a stencil with halo rows and
// clamps), and SLMC_VERBOSE names the version that ran.
// REQUIRES: x86_64-host
// RUN: %slmcxx -O2 %s -o %t
// RUN: env SLMC_VERBOSE=1 SLMC_CPU_ISA=x86-64 %t 2>&1 | FileCheck %s --check-prefixes=CHECK,BASE
// RUN: env SLMC_VERBOSE=1 SLMC_CPU_ISA=x86-64-v3 %t 2>&1 | FileCheck %s --check-prefixes=CHECK,UPTO3
// RUN: env SLMC_VERBOSE=1 SLMC_CPU_ISA=x86-64-v4 %t 2>&1 | FileCheck %s --check-prefixes=CHECK,ANY
// RUN: env SLMC_VERBOSE=1 %t 2>&1 | FileCheck %s --check-prefixes=CHECK,ANY
// A level the runtime does not know is an error, not a silent default (the
// C++ AMP program gets runtime_exception "no accelerator").
// RUN: env SLMC_CPU_ISA=avx2 not --crash %t 2>&1 | FileCheck %s --check-prefix=BAD
// Built for a chosen CPU: one version, no dispatch.
// RUN: %slmcxx -O2 -march=x86-64-v2 %s -o %t.v2
// RUN: env SLMC_VERBOSE=1 %t.v2 2>&1 | FileCheck %s --check-prefixes=CHECK,CHOSEN
// BASE: runs as work-item loops (x86-64 version)
// UPTO3: runs as work-item loops (x86-64{{(-v2|-v3)?}} version)
// ANY: runs as work-item loops (x86-64{{(-v[234])?}} version)
// CHOSEN-NOT: version)
// CHECK: matmul ok
// CHECK: stencil ok
// CHECK-NOT: FAILED
// BAD: SLMC_CPU_ISA='avx2' is not an x86-64 level

#include <amp.h>
#include <cstdio>
#include <vector>

using namespace concurrency;

static const int T = 16;

static void MatMul(array_view<const float, 2> a, array_view<const float, 2> b,
                   array_view<float, 2> c) {
  const int n = a.extent[1];
  parallel_for_each(c.extent.tile<T, T>(), [=](tiled_index<T, T> t) restrict(amp) {
    tile_static float ta[T][T], tb[T][T];
    const int r = t.local[0], k = t.local[1];
    float sum = 0;
    for (int base = 0; base < n; base += T) {
      ta[r][k] = a(t.global[0], base + k);
      tb[r][k] = b(base + r, t.global[1]);
      t.barrier.wait();
      for (int i = 0; i < T; ++i)
        sum += ta[r][i] * tb[i][k];
      t.barrier.wait();
    }
    c[t.global] = sum;
  });
}

static void Stencil(array_view<const float, 2> in, array_view<float, 2> out) {
  const int rows = in.extent[0], cols = in.extent[1];
  parallel_for_each(in.extent.tile<T, T>().pad(), [=](tiled_index<T, T> t) restrict(amp) {
    tile_static float tile[T + 2][T + 2];
    const int r = t.local[0], c = t.local[1];
    const int gr = t.global[0] < rows ? t.global[0] : rows - 1;
    const int gc = t.global[1] < cols ? t.global[1] : cols - 1;
    tile[r + 1][c + 1] = in(gr, gc);
    if (r == 0) tile[0][c + 1] = in(gr > 0 ? gr - 1 : 0, gc);
    if (r == T - 1) tile[T + 1][c + 1] = in(gr + 1 < rows ? gr + 1 : gr, gc);
    if (c == 0) tile[r + 1][0] = in(gr, gc > 0 ? gc - 1 : 0);
    if (c == T - 1) tile[r + 1][T + 1] = in(gr, gc + 1 < cols ? gc + 1 : gc);
    t.barrier.wait();
    const int i = t.global[0], j = t.global[1];
    if (i >= rows || j >= cols)
      return;
    out(i, j) = tile[r][c + 1] + tile[r + 2][c + 1] + tile[r + 1][c] + tile[r + 1][c + 2];
  });
}

int main() {
  bool ok = true;
  {
    // Small integers: every partial sum is exact, so fused and separate
    // multiply-adds give the same bits.
    const int n = 48;
    std::vector<float> a(n * n), b(n * n), c(n * n);
    for (int i = 0; i < n * n; ++i) {
      a[i] = float(i % 7) - 3;
      b[i] = float(i % 5) - 2;
    }
    array_view<const float, 2> av(n, n, a), bv(n, n, b);
    array_view<float, 2> cv(n, n, c);
    MatMul(av, bv, cv);
    cv.synchronize();
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        float want = 0;
        for (int k = 0; k < n; ++k)
          want += a[i * n + k] * b[k * n + j];
        if (c[i * n + j] != want) {
          std::printf("matmul FAILED at (%d,%d): %g, want %g\n", i, j, c[i * n + j], want);
          ok = false;
          i = n;
          break;
        }
      }
    if (ok)
      std::printf("matmul ok\n");
  }
  {
    const int rows = 37, cols = 53; // tiles cut on both axes
    std::vector<float> in(rows * cols), out(rows * cols);
    for (int i = 0; i < rows * cols; ++i)
      in[i] = float(i % 11);
    array_view<const float, 2> iv(rows, cols, in);
    array_view<float, 2> ov(rows, cols, out);
    Stencil(iv, ov);
    ov.synchronize();
    auto at = [&](int i, int j) {
      i = i < 0 ? 0 : i >= rows ? rows - 1 : i;
      j = j < 0 ? 0 : j >= cols ? cols - 1 : j;
      return in[i * cols + j];
    };
    bool good = true;
    for (int i = 0; i < rows && good; ++i)
      for (int j = 0; j < cols && good; ++j) {
        const float want = at(i - 1, j) + at(i + 1, j) + at(i, j - 1) + at(i, j + 1);
        if (out[i * cols + j] != want) {
          std::printf("stencil FAILED at (%d,%d): %g, want %g\n", i, j, out[i * cols + j], want);
          good = false;
        }
      }
    if (good)
      std::printf("stencil ok\n");
    ok = ok && good;
  }
  return ok ? 0 : 1;
}
