// OpenCL C twin of benchmarks/cuda/histogram.cu (the kernel of
// benchmarks/amp/histogram_bench.cpp): 64 groups of 256 striding over words
// of four bytes, atomic_add on a __local histogram of 256 bins, one global
// atomic_add per bin and group.
#include "twin.h"
#define BINS 256
#define TS 256
#define TILES 64

__kernel void histogram(__global const uint *data, __global uint *global_hist, int words) {
  __local uint local_hist[BINS];
  const int tid = get_local_id(0);
  local_hist[tid] = 0;
  barrier(SOURCE_FENCE);

  for (int i = (uint)get_group_id(0) * TS + tid; i < words; i += TILES * TS) {
    uint w = data[i];
    atomic_add(&local_hist[w & 0xFF], 1u);
    atomic_add(&local_hist[(w >> 8) & 0xFF], 1u);
    atomic_add(&local_hist[(w >> 16) & 0xFF], 1u);
    atomic_add(&local_hist[w >> 24], 1u);
  }
  barrier(SOURCE_FENCE);

  if (local_hist[tid] != 0)
    atomic_add(&global_hist[tid], local_hist[tid]);
}
