// Benchmark: the C++ AMP tiled matrix multiply of examples/amp/matmul.cpp
// (16x16 tiles, two tile_static blocks; the example's kernel, from
// examples/amp/matmul_kernel.h), timed on whatever device slmc's runtime
// picks. Prints one line: "amp matmul N=<n> <ms> ms <gflops> GFLOP/s".
// Usage: matmul_bench [N=4096] [repetitions=10]
#include "../../examples/amp/matmul_kernel.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 4096;
  int reps = argc > 2 ? std::atoi(argv[2]) : 10;
  if (n <= 0 || n % TS || reps <= 0) {
    std::fprintf(stderr, "usage: matmul_bench [N (multiple of %d)] [repetitions]\n", TS);
    return 2;
  }
  std::vector<float> A(size_t(n) * n), B(size_t(n) * n), C(size_t(n) * n);
  for (size_t i = 0; i < A.size(); ++i) A[i] = float(i % 17) * 0.25f - 2.0f;
  for (size_t i = 0; i < B.size(); ++i) B[i] = float(i % 13) * 0.5f - 3.0f;
  accelerator acc;
  array_view<const float, 2> a(n, n, A), b(n, n, B);
  array_view<float, 2> c(n, n, C);

  MatrixMultiplyTiled(a, b, c, n); // warm-up: module build / JIT
  acc.default_view.wait();
  auto t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < reps; ++r)
    MatrixMultiplyTiled(a, b, c, n);
  acc.default_view.wait();
  auto t1 = std::chrono::steady_clock::now();
  double ms = std::chrono::duration<double, std::milli>(t1 - t0).count() / reps;
  c.synchronize();

  // Spot-check a few elements against the host.
  int bad = 0;
  for (int s = 0; s < 16; ++s) {
    int i = (s * 977) % n, j = (s * 613) % n;
    double ref = 0;
    for (int k = 0; k < n; ++k) ref += double(A[size_t(i) * n + k]) * B[size_t(k) * n + j];
    if (std::fabs(ref - C[size_t(i) * n + j]) > 1e-3 * (1 + std::fabs(ref))) ++bad;
  }
  std::printf("amp matmul N=%d %.3f ms %.1f GFLOP/s %s\n", n, ms,
              2.0 * n * n * double(n) / (ms * 1e6), bad ? "WRONG" : "verified");
  return bad ? 1 : 0;
}
