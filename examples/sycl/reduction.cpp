// Work-group reduction with group_local_memory: every group of 256 work-items
// sums its part of the input in a group-local array (a tree of additions
// separated by barriers) and writes one partial sum; a second kernel, one
// group, reduces the partial sums the same way. USM memory and the queue's
// kernel shortcuts; the result is checked against the host's sum. The
// kernels are in reduction_kernel.h, which benchmarks/sycl/reduction_bench.cpp
// times.
#include "reduction_kernel.h"

#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv) {
  const size_t n = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 64 * 1024;
  if (n == 0 || n % WG != 0) {
    std::fprintf(stderr, "reduction: size must be a positive multiple of %zu\n", WG);
    return 2;
  }
  const size_t groups = n / WG;

  const std::vector<int> host = ReductionInput(n);
  long long expected = 0;
  for (int v : host)
    expected += v;

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

    Reduce(q, data, partial, total, n);
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
