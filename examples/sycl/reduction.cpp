// Work-group reduction with group_local_memory: every group of 256 work-items
// sums its part of the input in a group-local array (a tree of additions
// separated by barriers) and writes one partial sum; a second kernel, one
// group, reduces the partial sums the same way. USM memory and the queue's
// kernel shortcuts; the result is checked against the host's sum.
#include <sycl/sycl.hpp>

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace syclex = sycl::ext::oneapi;

constexpr size_t WG = 256; // work-group size: the group-local array's extent

int main(int argc, char **argv) {
  const size_t n = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 64 * 1024;
  if (n == 0 || n % WG != 0) {
    std::fprintf(stderr, "reduction: size must be a positive multiple of %zu\n", WG);
    return 2;
  }
  const size_t groups = n / WG;

  std::vector<int> host(n);
  long long expected = 0;
  for (size_t i = 0; i < n; ++i) {
    host[i] = int((i * 7919) % 1000) - 300;
    expected += host[i];
  }

  long long result = 0;
  try {
    sycl::queue q{sycl::default_selector_v, [](sycl::exception_list errors) {
                    for (const std::exception_ptr &e : errors) std::rethrow_exception(e);
                  }};
    int *data = sycl::malloc_device<int>(n, q);
    long long *partial = sycl::malloc_shared<long long>(groups, q);
    long long *total = sycl::malloc_shared<long long>(1, q);
    if (!data || !partial || !total)
      throw sycl::exception(sycl::make_error_code(sycl::errc::memory_allocation),
                            "reduction: out of device memory");
    q.memcpy(data, host.data(), n * sizeof(int)).wait();

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
    q.wait_and_throw();
    result = *total;

    sycl::free(data, q);
    sycl::free(partial, q);
    sycl::free(total, q);
  } catch (const sycl::exception &e) {
    std::fprintf(stderr, "reduction: SYCL exception: %s\n", e.what());
    return 1;
  }

  bool ok = result == expected;
  std::printf("reduction of %zu ints: %s (got %lld, expected %lld)\n", n,
              ok ? "PASSED" : "FAILED", result, expected);
  return ok ? 0 : 1;
}
