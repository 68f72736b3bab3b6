// OpenCL C twin of benchmarks/cuda/sycl_matmul.cu (the kernel of
// benchmarks/sycl/matmul_bench.cpp): 16x16 groups, two __local float[16][16]
// tiles, two barriers per step, index arithmetic in size_t as in the SYCL
// source.
#include "twin.h"
#define TS 16

__kernel void matmul(__global const float *a, __global const float *b, __global float *c,
                     ulong N, ulong W) {
  __local float tileA[TS][TS];
  __local float tileB[TS][TS];
  const size_t row = (uint)get_local_id(1), col = (uint)get_local_id(0);
  const size_t gr = (size_t)(uint)get_group_id(1) * TS + row,
               gc = (size_t)(uint)get_group_id(0) * TS + col;
  float sum = 0.0f;
  for (size_t k0 = 0; k0 < W; k0 += TS) {
    tileA[row][col] = a[gr * W + k0 + col];
    tileB[row][col] = b[(k0 + row) * N + gc];
    barrier(SOURCE_FENCE);
    for (size_t k = 0; k < TS; ++k)
      sum += tileA[row][k] * tileB[k][col];
    barrier(SOURCE_FENCE);
  }
  c[gr * N + gc] = sum;
}
