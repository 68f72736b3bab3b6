// Tiled matrix multiply in SYCL: each 16x16 block of C is computed by one
// work-group, which stages 16x16 tiles of A and B in group-local memory made
// by group_local_memory_for_overwrite (two calls of the same type: each call
// site has its own storage). Buffers and 2-D accessors; the result is checked
// against a host computation. The kernel is in matmul_kernel.h, which
// benchmarks/sycl/matmul_bench.cpp times.
#include "matmul_kernel.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

void matmul(queue &q, std::vector<float> &C, const std::vector<float> &A,
            const std::vector<float> &B, size_t M, size_t N, size_t W) {
  buffer<float, 2> a(A.data(), range<2>(M, W));
  buffer<float, 2> b(B.data(), range<2>(W, N));
  buffer<float, 2> c(C.data(), range<2>(M, N));

  MultiplyTiled(q, a, b, c, M, N, W);
  // c's destruction waits for the kernel and copies the result into C.
}

int main(int argc, char **argv) {
  const size_t n = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 128;
  if (n == 0 || n % TS != 0) {
    std::fprintf(stderr, "matmul: size must be a positive multiple of %zu\n", TS);
    return 2;
  }
  const size_t M = n, N = n, W = n;
  std::vector<float> A(M * W), B(W * N), C(M * N, 0.0f);
  for (size_t i = 0; i < M * W; ++i) A[i] = float((i * 7) % 13) - 6.0f;
  for (size_t i = 0; i < W * N; ++i) B[i] = float((i * 5) % 11) - 5.0f;

  try {
    queue q;
    matmul(q, C, A, B, M, N, W);
  } catch (const sycl::exception &e) {
    std::fprintf(stderr, "matmul: SYCL exception: %s\n", e.what());
    return 1;
  }

  int errors = 0;
  for (size_t r = 0; r < M; ++r)
    for (size_t c = 0; c < N; ++c) {
      float ref = 0.0f;
      for (size_t k = 0; k < W; ++k) ref += A[r * W + k] * B[k * N + c];
      if (std::fabs(ref - C[r * N + c]) > 1e-3f * (1.0f + std::fabs(ref))) {
        if (errors < 5)
          std::printf("mismatch at (%zu,%zu): got %f, expected %f\n", r, c, C[r * N + c], ref);
        ++errors;
      }
    }
  std::printf("matmul %zux%zu: %s (%d mismatches)\n", n, n, errors ? "FAILED" : "PASSED",
              errors);
  return errors ? 1 : 0;
}
