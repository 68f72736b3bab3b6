// The tiled matrix multiply of benchmarks/sycl/matmul_bench.cpp written by
// hand in CUDA: 16x16 blocks, two __shared__ float[16][16] tiles, two
// __syncthreads per step, index arithmetic in size_t as in the SYCL source
// (SYCL ids are size_t). Managed memory (SYCL buffers are shared
// allocations), kernel time only after a warm-up.
// Prints one line: "cuda matmul N=<n> <ms> ms <gflops> GFLOP/s verified".
// Usage: sycl_matmul [N=2048] [repetitions=10]
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define TS 16

__global__ void matmul(const float *a, const float *b, float *c, size_t N, size_t W) {
  __shared__ float tileA[TS][TS];
  __shared__ float tileB[TS][TS];
  const size_t row = threadIdx.y, col = threadIdx.x;
  const size_t gr = size_t(blockIdx.y) * TS + row, gc = size_t(blockIdx.x) * TS + col;
  float sum = 0.0f;
  for (size_t k0 = 0; k0 < W; k0 += TS) {
    tileA[row][col] = a[gr * W + k0 + col];
    tileB[row][col] = b[(k0 + row) * N + gc];
    __syncthreads();
    for (size_t k = 0; k < TS; ++k)
      sum += tileA[row][k] * tileB[k][col];
    __syncthreads();
  }
  c[gr * N + gc] = sum;
}

static void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

int main(int argc, char **argv) {
  const size_t n = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 2048;
  const int reps = argc > 2 ? std::atoi(argv[2]) : 10;
  if (n == 0 || n % TS != 0 || reps <= 0) {
    std::fprintf(stderr, "usage: sycl_matmul [N (multiple of %d)] [repetitions]\n", TS);
    return 2;
  }
  size_t count = n * n, bytes = count * sizeof(float);
  std::vector<float> A(count), B(count), C(count, 0.0f);
  for (size_t i = 0; i < count; ++i) A[i] = float(i % 17) * 0.25f - 2.0f;
  for (size_t i = 0; i < count; ++i) B[i] = float(i % 13) * 0.5f - 3.0f;
  float *a, *b, *c;
  check(cudaMallocManaged(&a, bytes), "cudaMallocManaged");
  check(cudaMallocManaged(&b, bytes), "cudaMallocManaged");
  check(cudaMallocManaged(&c, bytes), "cudaMallocManaged");
  check(cudaMemcpy(a, A.data(), bytes, cudaMemcpyDefault), "copy");
  check(cudaMemcpy(b, B.data(), bytes, cudaMemcpyDefault), "copy");
  check(cudaMemcpy(c, C.data(), bytes, cudaMemcpyDefault), "copy");

  dim3 block(TS, TS), grid(unsigned(n / TS), unsigned(n / TS));
  matmul<<<grid, block>>>(a, b, c, n, n);
  check(cudaDeviceSynchronize(), "warm-up");
  auto t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < reps; ++r)
    matmul<<<grid, block>>>(a, b, c, n, n);
  check(cudaDeviceSynchronize(), "kernels");
  auto t1 = std::chrono::steady_clock::now();
  double ms = std::chrono::duration<double, std::milli>(t1 - t0).count() / reps;
  check(cudaMemcpy(C.data(), c, bytes, cudaMemcpyDefault), "copy back");

  int bad = 0;
  for (int s = 0; s < 16; ++s) {
    size_t i = (s * 977) % n, j = (s * 613) % n;
    double ref = 0;
    for (size_t k = 0; k < n; ++k) ref += double(A[i * n + k]) * B[k * n + j];
    if (std::fabs(ref - C[i * n + j]) > 1e-3 * (1 + std::fabs(ref))) ++bad;
  }
  std::printf("cuda matmul N=%zu %.4f ms %.1f GFLOP/s %s\n", n, ms,
              2.0 * n * n * double(n) / (ms * 1e6), bad ? "WRONG" : "verified");
  return bad ? 1 : 0;
}
