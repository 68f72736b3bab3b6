// The example of the sycl_ext_oneapi_local_memory specification: four
// work-groups of 32 work-items, each group with one int[64] in group-local
// memory. Every work-item writes 42 to element 2*i; the array is value-
// initialised, so the odd elements stay 0. The kernel then copies each
// group's array out so that the host can check all of it.
#include <sycl/sycl.hpp>

#include <cstdio>
#include <vector>

#if !defined(SYCL_EXT_ONEAPI_LOCAL_MEMORY) || SYCL_EXT_ONEAPI_LOCAL_MEMORY < 1
#error "sycl_ext_oneapi_local_memory is not supported"
#endif

using namespace sycl;
using namespace sycl::ext::oneapi;

int main() {
  constexpr size_t groups = 4, group_size = 32, elems = 64;
  std::vector<int> out(groups * elems, -1);

  try {
    queue myQueue;
    {
      buffer<int, 1> out_buf(out.data(), range<1>(out.size()));
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
      myQueue.wait_and_throw();
    } // the buffer writes the results back to `out`
  } catch (const sycl::exception &e) {
    std::fprintf(stderr, "spec_example: SYCL exception: %s\n", e.what());
    return 1;
  }

  int errors = 0;
  for (size_t g = 0; g < groups; ++g)
    for (size_t i = 0; i < elems; ++i) {
      int want = i % 2 == 0 ? 42 : 0;
      int got = out[g * elems + i];
      if (got != want) {
        if (errors < 5)
          std::printf("group %zu element %zu: got %d, expected %d\n", g, i, got, want);
        ++errors;
      }
    }
  std::printf("spec_example %zu groups of %zu: %s (%d mismatches)\n", groups, group_size,
              errors ? "FAILED" : "PASSED", errors);
  return errors ? 1 : 0;
}
