// Benchmark: the SYCL tiled matrix multiply of examples/sycl/matmul.cpp (16x16
// work-groups, two float[16][16] tiles from group_local_memory_for_overwrite,
// buffers and 2-D accessors, size_t indices; examples/sycl/matmul_kernel.h),
// timed on whatever device slmc's runtime picks: kernel submissions only,
// after a warm-up, waiting with q.wait(). Spot-checks the result against the host.
// Prints one line: "sycl matmul N=<n> <ms> ms <gflops> GFLOP/s verified".
// Usage: matmul_bench [N=2048] [repetitions=10]
#include "../../examples/sycl/matmul_kernel.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv) {
  const size_t n = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 2048;
  const int reps = argc > 2 ? std::atoi(argv[2]) : 10;
  if (n == 0 || n % TS != 0 || reps <= 0) {
    std::fprintf(stderr, "usage: matmul_bench [N (multiple of %zu)] [repetitions]\n", TS);
    return 2;
  }
  std::vector<float> A(n * n), B(n * n), C(n * n, 0.0f);
  for (size_t i = 0; i < A.size(); ++i) A[i] = float(i % 17) * 0.25f - 2.0f;
  for (size_t i = 0; i < B.size(); ++i) B[i] = float(i % 13) * 0.5f - 3.0f;

  double ms = 0;
  try {
    queue q;
    const std::vector<float> &cA = A, &cB = B;
    buffer<float, 2> a(cA.data(), range<2>(n, n));
    buffer<float, 2> b(cB.data(), range<2>(n, n));
    buffer<float, 2> c(C.data(), range<2>(n, n));
    MultiplyTiled(q, a, b, c, n, n, n); // warm-up: module build / JIT
    q.wait();
    auto t0 = std::chrono::steady_clock::now();
    for (int r = 0; r < reps; ++r)
      MultiplyTiled(q, a, b, c, n, n, n);
    q.wait();
    auto t1 = std::chrono::steady_clock::now();
    ms = std::chrono::duration<double, std::milli>(t1 - t0).count() / reps;
    // Leaving the block destroys c, which copies the result into C.
  } catch (const sycl::exception &e) {
    std::fprintf(stderr, "matmul_bench: SYCL exception: %s\n", e.what());
    return 1;
  }

  int bad = 0;
  for (int s = 0; s < 16; ++s) {
    size_t i = (s * 977) % n, j = (s * 613) % n;
    double ref = 0;
    for (size_t k = 0; k < n; ++k) ref += double(A[i * n + k]) * B[k * n + j];
    if (std::fabs(ref - C[i * n + j]) > 1e-3 * (1 + std::fabs(ref))) ++bad;
  }
  std::printf("sycl matmul N=%zu %.4f ms %.1f GFLOP/s %s\n", n, ms,
              2.0 * n * n * double(n) / (ms * 1e6), bad ? "WRONG" : "verified");
  return bad ? 1 : 0;
}
