// Tiled matrix multiply in C++ AMP: each 16x16 tile of C is computed by one
// tile of threads that stages 16x16 blocks of A and B in tile_static memory.
// Checks the result against a host computation. The kernel is in
// matmul_kernel.h, which benchmarks/amp/matmul_bench.cpp times.
#include "matmul_kernel.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 256;
  if (n <= 0 || n % TS != 0) {
    std::fprintf(stderr, "matmul: size must be a positive multiple of %d\n", TS);
    return 2;
  }
  const int M = n, N = n, W = n;
  std::vector<float> A(M * W), B(W * N), C(M * N, 0.0f);
  for (int i = 0; i < M * W; ++i) A[i] = float((i * 7) % 13) - 6.0f;
  for (int i = 0; i < W * N; ++i) B[i] = float((i * 5) % 11) - 5.0f;

  try {
    array_view<const float, 2> a(M, W, A), b(W, N, B);
    array_view<float, 2> c(M, N, C);
    c.discard_data();
    MatrixMultiplyTiled(a, b, c, W);
    c.synchronize();
  } catch (const runtime_exception &e) {
    std::fprintf(stderr, "matmul: %s\n", e.what());
    return 1;
  }

  int errors = 0;
  for (int r = 0; r < M; ++r)
    for (int c = 0; c < N; ++c) {
      float ref = 0.0f;
      for (int k = 0; k < W; ++k) ref += A[r * W + k] * B[k * N + c];
      if (std::fabs(ref - C[r * N + c]) > 1e-3f * (1.0f + std::fabs(ref))) {
        if (errors < 5)
          std::printf("mismatch at (%d,%d): got %f, expected %f\n", r, c,
                      C[r * N + c], ref);
        ++errors;
      }
    }
  std::printf("matmul %dx%d: %s (%d mismatches)\n", n, n,
              errors ? "FAILED" : "PASSED", errors);
  return errors ? 1 : 0;
}
