// OpenCL C twin of benchmarks/cuda/sycl_reduction.cu (the kernels of
// benchmarks/sycl/reduction_bench.cpp): groups of 256 summing longs in a
// __local tree (a barrier before each level), one partial sum per group,
// then one group folding the partial sums into a zeroed __local array;
// index arithmetic in size_t as in the SYCL source.
#include "twin.h"
#define WG 256

__kernel void partial_sums(__global const int *data, __global long *partial) {
  __local long s[WG];
  const size_t lid = (uint)get_local_id(0);
  s[lid] = data[(size_t)(uint)get_group_id(0) * WG + lid];
  for (size_t stride = WG / 2; stride > 0; stride /= 2) {
    barrier(SOURCE_FENCE);
    if (lid < stride)
      s[lid] += s[lid + stride];
  }
  if (lid == 0)
    partial[(uint)get_group_id(0)] = s[0];
}

__kernel void fold(__global const long *partial, __global long *total, ulong groups) {
  __local long s[WG];
  const size_t lid = (uint)get_local_id(0);
  s[lid] = 0; // group_local_memory<long long[WG]> is value-initialised
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t g = lid; g < groups; g += WG)
    s[lid] += partial[g];
  for (size_t stride = WG / 2; stride > 0; stride /= 2) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < stride)
      s[lid] += s[lid + stride];
  }
  if (lid == 0)
    *total = s[0];
}

// The same sum written with sycl::reduction (reduction_bench.cpp's second
// measurement), as an OpenCL C programmer writes it with OpenCL 2.0's
// work-group functions: each group's sum, then one group (of any size)
// combining the partial sums with the variable's old value unless told
// not to.
__kernel void builtin_partial(__global const int *data, __global long *partial) {
  long s = work_group_reduce_add((long)data[get_global_id(0)]);
  if (get_local_id(0) == 0)
    partial[get_group_id(0)] = s;
}

__kernel void builtin_finish(__global const long *partial, __global long *total, ulong groups,
                             int initialize_to_identity) {
  long acc = 0;
  for (size_t k = get_local_id(0); k < groups; k += get_local_size(0))
    acc += partial[k];
  long s = work_group_reduce_add(acc);
  if (get_local_id(0) == 0)
    *total = initialize_to_identity ? s : *total + s;
}
