// OpenCL C twin of benchmarks/cuda/sycl_histogram.cu (the kernel of
// benchmarks/sycl/histogram_bench.cpp): groups of 128, 64 zeroed __local
// bins counted with atomic_add, global atomic_min/atomic_max per work-item,
// one global atomic_add per bin and group, atomic_cmpxchg by each group's
// first work-item; size_t indices as in the SYCL source.
#include "twin.h"
#define BINS 64u
#define WG 128

__kernel void histogram(__global const int *in, __global uint *bins, __global int *st) {
  __local uint local_bins[BINS];
  const size_t lid = (uint)get_local_id(0);
  // group_local_memory<unsigned[BINS]> is value-initialised: zeroed, then a barrier.
  for (size_t b = lid; b < BINS; b += WG)
    local_bins[b] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);

  const int v = in[(size_t)(uint)get_group_id(0) * WG + lid];
  atomic_add(&local_bins[(uint)v % BINS], 1u);
  atomic_min(&st[0], v);
  atomic_max(&st[1], v);
  barrier(SOURCE_FENCE);

  for (size_t b = lid; b < BINS; b += WG) {
    uint count = local_bins[b];
    if (count)
      atomic_add(&bins[b], count);
  }
  if (lid == 0)
    atomic_cmpxchg(&st[2], -1, (int)(uint)get_group_id(0));
}
