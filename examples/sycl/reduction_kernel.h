// The SYCL work-group reduction of reduction.cpp (and of
// benchmarks/sycl/reduction_bench.cpp): every group of 256 work-items sums
// its part of the input in a group-local array (a tree of additions
// separated by barriers) and writes one partial sum; a second kernel, one
// group, reduces the partial sums the same way. Also the input both programs
// sum.
#ifndef SLMC_EXAMPLES_SYCL_REDUCTION_KERNEL_H
#define SLMC_EXAMPLES_SYCL_REDUCTION_KERNEL_H

#include <sycl/sycl.hpp>

#include <cstddef>
#include <vector>

namespace syclex = sycl::ext::oneapi;

constexpr size_t WG = 256; // work-group size: the group-local array's extent

// Sums the n ints of `data` (device memory; n a multiple of WG) into *total,
// through one partial sum per group in `partial` (n / WG of them).
void Reduce(sycl::queue &q, const int *data, long long *partial, long long *total,
                   size_t n) {
  const size_t groups = n / WG;
  // Pass 1: one partial sum per work-group.
  q.parallel_for(sycl::nd_range<1>{n, WG}, [=](sycl::nd_item<1> it) {
    auto scratch = syclex::group_local_memory_for_overwrite<long long[WG]>(it.get_group());
    long long *s = *scratch;
    const size_t lid = it.get_local_id(0);
    s[lid] = data[it.get_global_id(0)];
    for (size_t stride = WG / 2; stride > 0; stride /= 2) {
      sycl::group_barrier(it.get_group());
      if (lid < stride)
        s[lid] += s[lid + stride];
    }
    if (lid == 0)
      partial[it.get_group_linear_id()] = s[0];
  });

  // Pass 2: one group folds the partial sums.
  q.parallel_for(sycl::nd_range<1>{WG, WG}, [=](sycl::nd_item<1> it) {
    auto scratch = syclex::group_local_memory<long long[WG]>(it.get_group());
    long long *s = *scratch;
    const size_t lid = it.get_local_id(0);
    for (size_t g = lid; g < groups; g += WG)
      s[lid] += partial[g];
    for (size_t stride = WG / 2; stride > 0; stride /= 2) {
      it.barrier(sycl::access::fence_space::local_space);
      if (lid < stride)
        s[lid] += s[lid + stride];
    }
    if (lid == 0)
      *total = s[0];
  });
}

// The input both programs sum.
std::vector<int> ReductionInput(size_t n) {
  std::vector<int> host(n);
  for (size_t i = 0; i < n; ++i)
    host[i] = int((i * 7919) % 1000) - 300;
  return host;
}

#endif
