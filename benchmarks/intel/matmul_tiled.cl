// OpenCL C twin of benchmarks/cuda/matmul_tiled.cu (the kernel of
// benchmarks/amp/matmul_bench.cpp): 16x16 tiles, two __local blocks, two
// barriers per step. CUDA's threadIdx/blockIdx are 32-bit unsigned, hence
// the (uint) casts. Built by benchmarks/intel/isa-report.sh.
#include "twin.h"
#define TS 16

__kernel void matmul(__global const float *a, __global const float *b, __global float *c,
                     int n, int w) {
  __local float locA[TS][TS];
  __local float locB[TS][TS];
  int row = get_local_id(1), col = get_local_id(0);
  int grow = (uint)get_group_id(1) * TS + row, gcol = (uint)get_group_id(0) * TS + col;
  float sum = 0.0f;
  for (int i = 0; i < w; i += TS) {
    locA[row][col] = a[grow * w + col + i];
    locB[row][col] = b[(row + i) * n + gcol];
    barrier(SOURCE_FENCE);
    for (int k = 0; k < TS; k++)
      sum += locA[row][k] * locB[k][col];
    barrier(SOURCE_FENCE);
  }
  c[grow * n + gcol] = sum;
}
