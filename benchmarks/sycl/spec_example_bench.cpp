// Benchmark: the kernel of examples/sycl/spec_example.cpp (the example of the
// sycl_ext_oneapi_local_memory specification: work-groups of 32, each with
// one value-initialised int[64] from group_local_memory; every work-item
// writes 42 to element 2*i, then, after a group barrier, copies its two
// elements of the group's array out; examples/sycl/spec_example_kernel.h),
// with many more groups than the example's four so that a launch does
// measurable work. Timed on whatever
// device slmc's runtime picks: kernel submissions only, after a warm-up,
// waiting with q.wait(). A buffer and a write-only accessor as in the
// example; every element is checked afterwards.
// Prints one line: "sycl spec_example N=<groups> <ms> ms <GB/s> GB/s verified".
// Usage: spec_example_bench [groups=2097152] [repetitions=100]
#include "../../examples/sycl/spec_example_kernel.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv) {
  const size_t groups = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : size_t(1) << 21;
  const int reps = argc > 2 ? std::atoi(argv[2]) : 100;
  if (groups == 0 || reps <= 0) {
    std::fprintf(stderr, "usage: spec_example_bench [groups] [repetitions]\n");
    return 2;
  }
  std::vector<int> out(groups * elems, -1);

  double ms = 0;
  try {
    queue q;
    buffer<int, 1> out_buf(out.data(), range<1>(out.size()));
    SpecExample(q, out_buf, groups); // warm-up: module build / JIT
    q.wait();
    auto t0 = std::chrono::steady_clock::now();
    for (int r = 0; r < reps; ++r)
      SpecExample(q, out_buf, groups);
    q.wait();
    auto t1 = std::chrono::steady_clock::now();
    ms = std::chrono::duration<double, std::milli>(t1 - t0).count() / reps;
    // Leaving the block destroys the buffer, which writes the results to `out`.
  } catch (const sycl::exception &e) {
    std::fprintf(stderr, "spec_example_bench: SYCL exception: %s\n", e.what());
    return 1;
  }

  size_t bad = 0;
  for (size_t k = 0; k < out.size(); ++k)
    bad += out[k] != (k % 2 == 0 ? 42 : 0);
  std::printf("sycl spec_example N=%zu %.4f ms %.1f GB/s %s\n", groups, ms,
              sizeof(int) * double(out.size()) / (ms * 1e6), bad ? "WRONG" : "verified");
  return bad ? 1 : 0;
}
