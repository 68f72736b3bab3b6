// A SYCL kernel functor in a user header: group_local_memory at kernel
// scope, and plain helper functions the kernel calls.
#pragma once
#include <sycl/sycl.hpp>

inline int weight(int x) { return 2 * x + 1; }

template <size_t WG> struct block_sum {
  const int *in;
  int *out;
  void operator()(sycl::nd_item<1> it) const {
    auto tile = sycl::ext::oneapi::group_local_memory_for_overwrite<int[WG]>(it.get_group());
    int *s = *tile;
    const size_t lid = it.get_local_id(0);
    s[lid] = weight(in[it.get_global_id(0)]);
    for (size_t stride = WG / 2; stride > 0; stride /= 2) {
      sycl::group_barrier(it.get_group());
      if (lid < stride)
        s[lid] += s[lid + stride];
    }
    if (lid == 0)
      out[it.get_group_linear_id()] = s[0];
  }
};
