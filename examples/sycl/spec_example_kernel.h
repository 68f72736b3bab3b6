// The kernel of spec_example.cpp (and of
// benchmarks/sycl/spec_example_bench.cpp), the example of the
// sycl_ext_oneapi_local_memory specification: work-groups of 32 work-items,
// each group with one int[64] in group-local memory. Every work-item writes
// 42 to element 2*i; the array is value-initialised, so the odd elements stay
// 0. The kernel then copies each group's array out.
#ifndef SLMC_EXAMPLES_SYCL_SPEC_EXAMPLE_KERNEL_H
#define SLMC_EXAMPLES_SYCL_SPEC_EXAMPLE_KERNEL_H

#include <sycl/sycl.hpp>

#include <cstddef>

#if !defined(SYCL_EXT_ONEAPI_LOCAL_MEMORY) || SYCL_EXT_ONEAPI_LOCAL_MEMORY < 1
#error "sycl_ext_oneapi_local_memory is not supported"
#endif

using namespace sycl;
using namespace sycl::ext::oneapi;

constexpr size_t group_size = 32, elems = 64;

// One launch of `groups` work-groups; group g's array goes to elements
// [64 g, 64 g + 64) of out_buf.
void SpecExample(queue &myQueue, buffer<int, 1> &out_buf, size_t groups) {
  myQueue.submit([&](handler &h) {
    accessor result(out_buf, h, write_only, no_init);
    h.parallel_for(
        nd_range<1>(range<1>(groups * group_size), range<1>(group_size)),
        [=](nd_item<1> item) {
          multi_ptr<int[64], access::address_space::local_space> ptr =
              group_local_memory<int[64]>(item.get_group());
          auto &ref = *ptr;
          ref[2 * item.get_local_linear_id()] = 42;

          // Publish the writes, then copy the group's array out.
          group_barrier(item.get_group());
          size_t base = item.get_group_linear_id() * elems;
          size_t i = item.get_local_linear_id();
          result[base + 2 * i] = ref[2 * i];
          result[base + 2 * i + 1] = ref[2 * i + 1];
        });
  });
}

#endif
