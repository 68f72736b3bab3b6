// OpenCL C twin of benchmarks/cuda/reduction.cu (the kernels of
// benchmarks/amp/reduction_bench.cpp): the tree pass (groups of 256), the
// cascade (64 groups of 512 striding over the input) and its final group
// of 64.
#include "twin.h"
#define TREE_TILE 256
#define CASCADE_TILE 512
#define CASCADE_TILES 64

__kernel void tree_pass(__global const float *in, __global float *out, int len) {
  __local float sums[TREE_TILE];
  int tid = get_local_id(0);
  int gid = (uint)get_group_id(0) * TREE_TILE + tid;
  sums[tid] = gid < len ? in[gid] : 0.0f;
  barrier(SOURCE_FENCE);
  for (int stride = TREE_TILE / 2; stride > 0; stride /= 2) {
    if (tid < stride)
      sums[tid] += sums[tid + stride];
    barrier(SOURCE_FENCE);
  }
  if (tid == 0)
    out[(uint)get_group_id(0)] = sums[0];
}

__kernel void cascade(__global const float *in, __global float *partial, int n) {
  __local float sums[CASCADE_TILE];
  int tid = get_local_id(0);
  float sum = 0.0f;
  for (int i = (uint)get_group_id(0) * CASCADE_TILE + tid; i < n;
       i += CASCADE_TILES * CASCADE_TILE)
    sum += in[i];
  sums[tid] = sum;
  barrier(SOURCE_FENCE);
  for (int stride = CASCADE_TILE / 2; stride > 0; stride /= 2) {
    if (tid < stride)
      sums[tid] += sums[tid + stride];
    barrier(SOURCE_FENCE);
  }
  if (tid == 0)
    partial[(uint)get_group_id(0)] = sums[0];
}

__kernel void cascade_final(__global const float *partial, __global float *total) {
  __local float sums[CASCADE_TILES];
  int tid = get_local_id(0);
  sums[tid] = partial[tid];
  barrier(SOURCE_FENCE);
  for (int stride = CASCADE_TILES / 2; stride > 0; stride /= 2) {
    if (tid < stride)
      sums[tid] += sums[tid + stride];
    barrier(SOURCE_FENCE);
  }
  if (tid == 0)
    total[0] = sums[0];
}
