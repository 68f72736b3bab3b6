// Matrix multiply with shared local memory, in the style of Intel's Cilk
// Plus graphics-offload sample (ICC 15-18; also oneTBB's
// examples/graph/matmult): a gfx_kernel function with a two-dimensional
// `_Cilk_for _Thread_group` nest, three __thread_group_local "supertiles",
// array-notation copies into SLM (second-level nests), a second-level nest
// of TILE_Y x TILE_X register tiles, and barriers between the phases.
// The GPU result (through _GFX_offload) is checked against the host version
// of the same function, called directly, and against a plain triple loop.
// The kernel is in matmul_kernel.h, which benchmarks/cilk/matmul_bench.cpp
// times.
//
//   slmc++ -O2 matmul.cpp -o matmul && ./matmul [repetitions]
//   (-DMATMUL_N=<multiple of 64> sets the matrix size, default 256)
#include "matmul_kernel.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 1;
  if (reps <= 0) {
    fprintf(stderr, "usage: %s [repetitions > 0]\n", argv[0]);
    return 2;
  }
  static_assert(N % SLM_TILE_Y == 0 && N % SLM_TILE_X == 0 && N % SLM_TILE_K == 0,
                "MATMUL_N must be a multiple of the supertile sizes");
  std::vector<float> a(N * N), b(N * N), c(N * N), host(N * N);
  for (int i = 0; i < N * N; i++) {
    a[i] = (float)((i * 37) % 17) / 16.0f - 0.5f;
    b[i] = (float)((i * 11) % 13) / 12.0f - 0.5f;
  }
  auto *A = reinterpret_cast<const float(*)[N]>(a.data());
  auto *B = reinterpret_cast<const float(*)[N]>(b.data());
  auto *C = reinterpret_cast<float(*)[N]>(c.data());

  _GFX_share(a.data(), a.size() * sizeof(float));
  _GFX_share(b.data(), b.size() * sizeof(float));
  _GFX_share(c.data(), c.size() * sizeof(float));
  // The first run includes building the kernel for the device.
  if (!_GFX_offload(matmul_slm, A, B, C) || _GFX_wait() != GFX_SUCCESS) {
    fprintf(stderr, "matmul: offload failed (%d)\n", _GFX_get_last_error());
    return 1;
  }
  auto t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < reps; r++)
    _GFX_offload(matmul_slm, A, B, C);
  int status = _GFX_wait();
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                  .count() / reps;
  _GFX_unshare(a.data());
  _GFX_unshare(b.data());
  _GFX_unshare(c.data());

  // The host version: the same function called directly.
  matmul_slm(A, B, reinterpret_cast<float(*)[N]>(host.data()));

  int bad = 0;
  double worst = 0;
  for (int i = 0; i < N; i += (N > 256 ? 7 : 1))
    for (int j = 0; j < N; j++) {
      double ref = 0;
      for (int k = 0; k < N; k++)
        ref += (double)a[i * N + k] * b[k * N + j];
      double err = std::fabs(c[i * N + j] - ref), herr = std::fabs(host[i * N + j] - ref);
      worst = std::fmax(worst, err);
      bad += err > 1e-3 * (1 + std::fabs(ref)) || herr > 1e-3 * (1 + std::fabs(ref));
    }
  printf("matmul %dx%d: %s (%d wrong, max error %.2e); %.3f ms per multiply, %.1f GFLOP/s\n", N,
         N, bad || status != GFX_SUCCESS ? "FAILED" : "PASSED", bad, worst, ms,
         2.0 * N * N * (double)N / (ms * 1e6));
  return bad || status != GFX_SUCCESS ? 1 : 0;
}
