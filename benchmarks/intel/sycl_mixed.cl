// OpenCL C twin of benchmarks/cuda/sycl_mixed.cu (the kernel of
// benchmarks/sycl/mixed_bench.cpp): groups of 64, the input tile with its
// one-element halo in a __local kernel argument sized at launch (CUDA's
// dynamic shared memory; SYCL's local_accessor), the group's statistics in
// a __local struct that the first work-item initialises before a barrier,
// local atomic_add / atomic_max on it; size_t indices as in the SYCL source.
#include "twin.h"
#define WG 64
#define THRESHOLD 0.5f

typedef struct {
  uint above;     // outputs above the threshold
  int max_scaled; // largest output * 1000, rounded down
} group_stats;

__kernel void mixed(__global const float *in, __global float *out, __global uint *count_out,
                    __global int *max_out, ulong n, __local float *tile /* WG + 2 floats */) {
  __local group_stats stats;
  const size_t i = (size_t)(uint)get_group_id(0) * WG + (uint)get_local_id(0),
               l = (uint)get_local_id(0);
  if (l == 0) {
    stats.above = 0u;
    stats.max_scaled = 0;
  }
  barrier(CLK_LOCAL_MEM_FENCE);

  // The tile, with the neighbours of the group's first and last item.
  tile[l + 1] = in[i];
  if (l == 0)
    tile[0] = i > 0 ? in[i - 1] : in[i];
  if (l == WG - 1)
    tile[WG + 1] = i + 1 < n ? in[i + 1] : in[i];
  barrier(CLK_LOCAL_MEM_FENCE);

  const float v = (tile[l] + tile[l + 1] + tile[l + 2]) / 3.0f;
  out[i] = v;
  if (v > THRESHOLD)
    atomic_add(&stats.above, 1u);
  atomic_max(&stats.max_scaled, (int)(v * 1000.0f));
  barrier(SOURCE_FENCE);

  if (l == 0) {
    count_out[(uint)get_group_id(0)] = stats.above;
    max_out[(uint)get_group_id(0)] = stats.max_scaled;
  }
}
