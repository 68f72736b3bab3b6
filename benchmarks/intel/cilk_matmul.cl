// OpenCL C twin of benchmarks/cuda/cilk_matmul.cu (the kernel of
// benchmarks/cilk/matmul_bench.cpp, Intel's SLM matrix multiply sample):
// 256 work-items per group, one group per 64x64 supertile of C; __local
// supertiles of A (64x16), B (16x64) and C (64x64); the 16x16 grid of 4x4
// register tiles dealt to work-items; two barriers per step.
#include "twin.h"
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

__kernel void matmul_slm(__global const float *A, __global const float *B, __global float *C) {
  __local float at[SY][SK], bt[SK][SX], ct[SY][SX];
  const int tg_y = (uint)get_group_id(1) * SY, tg_x = (uint)get_group_id(0) * SX,
            t = get_local_id(0);
  for (int k = t; k < SY * SX; k += THREADS)
    ct[k / SX][k % SX] = 0.0f;
  for (int super_k = 0; super_k < N; super_k += SK) {
    for (int k = t; k < SY * SK; k += THREADS)
      at[k / SK][k % SK] = A[(size_t)(tg_y + k / SK) * N + super_k + k % SK];
    for (int k = t; k < SK * SX; k += THREADS)
      bt[k / SX][k % SX] = B[(size_t)(super_k + k / SX) * N + tg_x + k % SX];
    barrier(SOURCE_FENCE);
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
    barrier(SOURCE_FENCE);
  }
  for (int k = t; k < SY * SX; k += THREADS)
    C[(size_t)(tg_y + k / SX) * N + tg_x + k % SX] = ct[k / SX][k % SX];
}
