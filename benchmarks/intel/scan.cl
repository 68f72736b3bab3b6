// OpenCL C twin of benchmarks/cuda/scan.cu (the kernels of
// benchmarks/amp/scan_bench.cpp): groups of 256 scanning 512 elements in
// __local memory (Blelloch up- and down-sweeps, a barrier per level), and
// the add of the scanned block sums, one element per work-item in groups of
// 256.
#include "twin.h"
#define TS 256
#define BLOCK (2 * TS)

__kernel void scan_blocks(__global const int *input, __global int *output, __global int *sums,
                          int n) {
  __local int temp[BLOCK];
  const int tid = get_local_id(0);
  const int base = (uint)get_group_id(0) * BLOCK;
  temp[2 * tid] = base + 2 * tid < n ? input[base + 2 * tid] : 0;
  temp[2 * tid + 1] = base + 2 * tid + 1 < n ? input[base + 2 * tid + 1] : 0;

  int offset = 1;
  for (int d = BLOCK / 2; d > 0; d /= 2) {
    barrier(SOURCE_FENCE);
    if (tid < d) {
      int ai = offset * (2 * tid + 1) - 1;
      int bi = offset * (2 * tid + 2) - 1;
      temp[bi] += temp[ai];
    }
    offset *= 2;
  }
  if (tid == 0) {
    sums[(uint)get_group_id(0)] = temp[BLOCK - 1];
    temp[BLOCK - 1] = 0;
  }
  for (int d = 1; d < BLOCK; d *= 2) {
    offset /= 2;
    barrier(SOURCE_FENCE);
    if (tid < d) {
      int ai = offset * (2 * tid + 1) - 1;
      int bi = offset * (2 * tid + 2) - 1;
      int left = temp[ai];
      temp[ai] = temp[bi];
      temp[bi] += left;
    }
  }
  barrier(SOURCE_FENCE);
  if (base + 2 * tid < n) output[base + 2 * tid] = temp[2 * tid];
  if (base + 2 * tid + 1 < n) output[base + 2 * tid + 1] = temp[2 * tid + 1];
}

__kernel void add_offsets(__global int *output, __global const int *offsets, int n) {
  int i = (uint)get_group_id(0) * 256 + (uint)get_local_id(0);
  if (i >= n) return;
  output[i] += offsets[i / BLOCK];
}
