// OpenCL C twin of benchmarks/cuda/sycl_spec_example.cu (the kernel of
// benchmarks/sycl/spec_example_bench.cpp): groups of 32, one __local int[64]
// per group, zeroed by the group (each work-item a strided part, then a
// barrier), 42 written to element 2*i, a barrier, then each work-item
// copies its two elements out; size_t indices as in the SYCL source.
#include "twin.h"
#define GROUP_SIZE 32
#define ELEMS 64

__kernel void spec_example(__global int *result) {
  __local int ref[ELEMS];
  const size_t lid = (uint)get_local_id(0);
  for (size_t k = lid; k < ELEMS; k += GROUP_SIZE)
    ref[k] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  ref[2 * lid] = 42;

  barrier(SOURCE_FENCE);
  size_t base = (size_t)(uint)get_group_id(0) * ELEMS;
  size_t i = lid;
  result[base + 2 * i] = ref[2 * i];
  result[base + 2 * i + 1] = ref[2 * i + 1];
}
