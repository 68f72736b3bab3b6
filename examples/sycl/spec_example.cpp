// The example of the sycl_ext_oneapi_local_memory specification: four
// work-groups of 32 work-items, each group with one int[64] in group-local
// memory. Every work-item writes 42 to element 2*i; the array is value-
// initialised, so the odd elements stay 0. The kernel then copies each
// group's array out so that the host can check all of it. The kernel is in
// spec_example_kernel.h, which benchmarks/sycl/spec_example_bench.cpp times.
#include "spec_example_kernel.h"

#include <cstdio>
#include <vector>

int main() {
  constexpr size_t groups = 4;
  std::vector<int> out(groups * elems, -1);

  try {
    queue myQueue;
    {
      buffer<int, 1> out_buf(out.data(), range<1>(out.size()));
      SpecExample(myQueue, out_buf, groups);
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
