// Benchmark: the SYCL work-group reduction of examples/sycl/reduction.cpp
// (groups of 256 summing into a group_local_memory_for_overwrite array of
// long long, one partial sum per group, then one group folding the partial
// sums in a zeroed group_local_memory array; the example's kernels, from
// examples/sycl/reduction_kernel.h), timed on whatever device slmc's runtime
// picks: kernel submissions only, after a warm-up, waiting with q.wait().
// USM as in the example: device input, shared partial sums.
// Then the same sum written with SYCL 2020's sycl::reduction (an nd_range of
// the same groups, `s += data[i]` into a reducer of long long), as a SYCL
// programmer would write it without the hand-made tree: slmc's reduction
// kernels (sycl/detail/reduction.hpp) against the example's, in one run.
// Prints two lines: "sycl reduction N=<n> <ms> ms <GB/s> GB/s verified" and
// "sycl builtin-reduction N=<n> <ms> ms <GB/s> GB/s verified".
// Usage: reduction_bench [N=33554432] [repetitions=100]
#include "../../examples/sycl/reduction_kernel.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv) {
  const size_t n = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : size_t(1) << 25;
  const int reps = argc > 2 ? std::atoi(argv[2]) : 100;
  if (n == 0 || n % WG != 0 || reps <= 0) {
    std::fprintf(stderr, "usage: reduction_bench [N (multiple of %zu)] [repetitions]\n", WG);
    return 2;
  }
  const std::vector<int> host = ReductionInput(n);
  long long expected = 0;
  for (int v : host)
    expected += v;

  double ms = 0, builtin_ms = 0;
  long long result = 0, builtin_result = 0;
  try {
    sycl::queue q;
    int *data = sycl::malloc_device<int>(n, q);
    long long *partial = sycl::malloc_shared<long long>(n / WG, q);
    long long *total = sycl::malloc_shared<long long>(1, q);
    if (!data || !partial || !total) {
      std::fprintf(stderr, "reduction_bench: out of memory\n");
      return 1;
    }
    q.memcpy(data, host.data(), n * sizeof(int)).wait();

    Reduce(q, data, partial, total, n); // warm-up: module build / JIT
    q.wait();
    auto t0 = std::chrono::steady_clock::now();
    for (int r = 0; r < reps; ++r)
      Reduce(q, data, partial, total, n);
    q.wait();
    auto t1 = std::chrono::steady_clock::now();
    ms = std::chrono::duration<double, std::milli>(t1 - t0).count() / reps;
    result = *total;

    auto builtin = [&] {
      q.parallel_for(sycl::nd_range<1>{n, WG},
                     sycl::reduction(total, sycl::plus<long long>(),
                                     sycl::property::reduction::initialize_to_identity{}),
                     [=](sycl::nd_item<1> it, auto &sum) { sum += data[it.get_global_id(0)]; });
    };
    builtin(); // warm-up
    q.wait();
    t0 = std::chrono::steady_clock::now();
    for (int r = 0; r < reps; ++r)
      builtin();
    q.wait();
    t1 = std::chrono::steady_clock::now();
    builtin_ms = std::chrono::duration<double, std::milli>(t1 - t0).count() / reps;
    builtin_result = *total;
    sycl::free(data, q);
    sycl::free(partial, q);
    sycl::free(total, q);
  } catch (const sycl::exception &e) {
    std::fprintf(stderr, "reduction_bench: SYCL exception: %s\n", e.what());
    return 1;
  }
  bool ok = result == expected, builtin_ok = builtin_result == expected;
  std::printf("sycl reduction N=%zu %.4f ms %.1f GB/s %s\n", n, ms,
              sizeof(int) * double(n) / (ms * 1e6), ok ? "verified" : "WRONG");
  std::printf("sycl builtin-reduction N=%zu %.4f ms %.1f GB/s %s\n", n, builtin_ms,
              sizeof(int) * double(n) / (builtin_ms * 1e6), builtin_ok ? "verified" : "WRONG");
  return ok && builtin_ok ? 0 : 1;
}
