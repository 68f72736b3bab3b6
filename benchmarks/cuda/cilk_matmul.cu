// The Cilk Plus SLM matrix multiply of benchmarks/cilk/matmul_bench.cpp
// written by hand in CUDA: 256-thread blocks, one per 64x64 supertile of C;
// __shared__ supertiles of A (64x16), B (16x64) and C (64x64); copies and
// the 16x16 grid of 4x4 register tiles dealt to threads in the same order;
// two __syncthreads per step. Kernel time with events; the time of one
// multiply with the copies the Cilk program's task makes (A, B, C in from
// pageable host memory, C back) is printed too.
// Prints "cuda matmul N=<n> <ms> ms <gflops> GFLOP/s verified" (kernel) and
// a second line with the copies included.
// Usage: cilk_matmul [repetitions=5]   (N is MATMUL_N, default 4096)
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#ifndef MATMUL_N
#define MATMUL_N 4096
#endif
#define N MATMUL_N
#define SY 64
#define SX 64
#define SK 16
#define TY 4
#define TX 4
#define THREADS 256

__global__ void matmul_slm(const float *A, const float *B, float *C) {
  __shared__ float at[SY][SK], bt[SK][SX], ct[SY][SX];
  const int tg_y = blockIdx.y * SY, tg_x = blockIdx.x * SX, t = threadIdx.x;
  for (int k = t; k < SY * SX; k += THREADS)
    ct[k / SX][k % SX] = 0.0f;
  for (int super_k = 0; super_k < N; super_k += SK) {
    for (int k = t; k < SY * SK; k += THREADS)
      at[k / SK][k % SK] = A[(size_t)(tg_y + k / SK) * N + super_k + k % SK];
    for (int k = t; k < SK * SX; k += THREADS)
      bt[k / SX][k % SX] = B[(size_t)(super_k + k / SX) * N + tg_x + k % SX];
    __syncthreads();
    for (int k = t; k < (SY / TY) * (SX / TX); k += THREADS) {
      const int ty = k / (SX / TX) * TY, tx = k % (SX / TX) * TX;
      float c[TY][TX];
      for (int y = 0; y < TY; y++)
        for (int x = 0; x < TX; x++)
          c[y][x] = ct[ty + y][tx + x];
      for (int kk = 0; kk < SK; kk++)
        for (int y = 0; y < TY; y++)
          for (int x = 0; x < TX; x++)
            c[y][x] += at[ty + y][kk] * bt[kk][tx + x];
      for (int y = 0; y < TY; y++)
        for (int x = 0; x < TX; x++)
          ct[ty + y][tx + x] = c[y][x];
    }
    __syncthreads();
  }
  for (int k = t; k < SY * SX; k += THREADS)
    C[(size_t)(tg_y + k / SX) * N + tg_x + k % SX] = ct[k / SX][k % SX];
}

static void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    exit(1);
  }
}

int main(int argc, char **argv) {
  const int reps = argc > 1 ? atoi(argv[1]) : 5;
  if (reps <= 0) {
    fprintf(stderr, "usage: cilk_matmul [repetitions]\n");
    return 2;
  }
  const size_t count = (size_t)N * N, bytes = count * sizeof(float);
  std::vector<float> a(count), b(count), c(count);
  for (size_t i = 0; i < count; i++) {
    a[i] = float(i % 17) * 0.25f - 2.0f;
    b[i] = float(i % 13) * 0.5f - 3.0f;
  }
  float *da, *db, *dc;
  check(cudaMalloc(&da, bytes), "cudaMalloc");
  check(cudaMalloc(&db, bytes), "cudaMalloc");
  check(cudaMalloc(&dc, bytes), "cudaMalloc");
  dim3 grid(N / SX, N / SY);
  auto multiply = [&] {
    check(cudaMemcpy(da, a.data(), bytes, cudaMemcpyHostToDevice), "copy");
    check(cudaMemcpy(db, b.data(), bytes, cudaMemcpyHostToDevice), "copy");
    check(cudaMemcpy(dc, c.data(), bytes, cudaMemcpyHostToDevice), "copy");
    matmul_slm<<<grid, THREADS>>>(da, db, dc);
    check(cudaGetLastError(), "launch");
    check(cudaMemcpy(c.data(), dc, bytes, cudaMemcpyDeviceToHost), "copy back");
  };
  multiply(); // warm-up
  auto t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < reps; r++)
    multiply();
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                  .count() / reps;
  // Kernel alone, for reference.
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  cudaEventRecord(e0);
  for (int r = 0; r < reps; r++)
    matmul_slm<<<grid, THREADS>>>(da, db, dc);
  cudaEventRecord(e1);
  check(cudaEventSynchronize(e1), "kernel");
  float kms = 0;
  cudaEventElapsedTime(&kms, e0, e1);
  for (int i = 0; i < N; i += 61)
    for (int j = 0; j < N; j += 3) {
      double ref = 0;
      for (int k = 0; k < N; k++)
        ref += (double)a[(size_t)i * N + k] * b[(size_t)k * N + j];
      if (std::fabs(c[(size_t)i * N + j] - ref) > 1e-3 * (1 + std::fabs(ref))) {
        printf("cuda matmul N=%d: wrong at %d,%d\n", N, i, j);
        return 1;
      }
    }
  printf("cuda matmul N=%d %.3f ms %.1f GFLOP/s verified\n", N, kms / reps,
         2.0 * N * (double)N * N / (kms / reps * 1e6));
  printf("  (one multiply with the copies: %.3f ms)\n", ms);
  return 0;
}
