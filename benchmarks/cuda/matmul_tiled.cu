// The same tiled matrix multiply written by hand in CUDA (16x16 tiles, two
// __shared__ blocks, two __syncthreads per step), built by nvcc, timed the
// same way as benchmarks/amp/matmul_bench.cpp (kernel only, after a warm-up).
// Prints one line: "cuda matmul N=<n> <ms> ms <gflops> GFLOP/s".
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define TS 16

__global__ void matmul(const float *a, const float *b, float *c, int n, int w) {
  __shared__ float locA[TS][TS];
  __shared__ float locB[TS][TS];
  int row = threadIdx.y, col = threadIdx.x;
  int grow = blockIdx.y * TS + row, gcol = blockIdx.x * TS + col;
  float sum = 0.0f;
  for (int i = 0; i < w; i += TS) {
    locA[row][col] = a[grow * w + col + i];
    locB[row][col] = b[(row + i) * n + gcol];
    __syncthreads();
    for (int k = 0; k < TS; k++)
      sum += locA[row][k] * locB[k][col];
    __syncthreads();
  }
  c[grow * n + gcol] = sum;
}

static void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 4096;
  int reps = argc > 2 ? std::atoi(argv[2]) : 10;
  size_t count = size_t(n) * n;
  std::vector<float> A(count), B(count), C(count);
  for (size_t i = 0; i < count; ++i) A[i] = float(i % 17) * 0.25f - 2.0f;
  for (size_t i = 0; i < count; ++i) B[i] = float(i % 13) * 0.5f - 3.0f;
  float *a, *b, *c;
  check(cudaMallocManaged(&a, count * sizeof(float)), "cudaMallocManaged");
  check(cudaMallocManaged(&b, count * sizeof(float)), "cudaMallocManaged");
  check(cudaMallocManaged(&c, count * sizeof(float)), "cudaMallocManaged");
  check(cudaMemcpy(a, A.data(), count * sizeof(float), cudaMemcpyDefault), "copy");
  check(cudaMemcpy(b, B.data(), count * sizeof(float), cudaMemcpyDefault), "copy");
  dim3 block(TS, TS), grid(n / TS, n / TS);
  matmul<<<grid, block>>>(a, b, c, n, n);
  check(cudaDeviceSynchronize(), "warm-up");
  auto t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < reps; ++r)
    matmul<<<grid, block>>>(a, b, c, n, n);
  check(cudaDeviceSynchronize(), "kernels");
  auto t1 = std::chrono::steady_clock::now();
  double ms = std::chrono::duration<double, std::milli>(t1 - t0).count() / reps;
  check(cudaMemcpy(C.data(), c, count * sizeof(float), cudaMemcpyDefault), "copy back");
  int bad = 0;
  for (int s = 0; s < 16; ++s) {
    int i = (s * 977) % n, j = (s * 613) % n;
    double ref = 0;
    for (int k = 0; k < n; ++k) ref += double(A[size_t(i) * n + k]) * B[size_t(k) * n + j];
    if (std::fabs(ref - C[size_t(i) * n + j]) > 1e-3 * (1 + std::fabs(ref))) ++bad;
  }
  std::printf("cuda matmul N=%d %.3f ms %.1f GFLOP/s %s\n", n, ms,
              2.0 * n * n * double(n) / (ms * 1e6), bad ? "WRONG" : "verified");
  return bad ? 1 : 0;
}
