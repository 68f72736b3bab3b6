// Benchmark: the kernel of examples/sycl/mixed.cpp (both kinds of group-local
// memory in one kernel: groups of 64, a local_accessor sized at submission
// holding the group's input with a one-element halo for a 3-point average,
// and a group_local_memory<group_stats> made from constructor arguments,
// updated with local atomic_ref fetch_add / fetch_max; the group's leader
// writes its statistics out; examples/sycl/mixed_kernel.h), timed on
// whatever device slmc's runtime picks: kernel submissions only, after a
// warm-up, waiting with q.wait(). Buffers and accessors as in the example;
// every launch computes the same results, all of which are checked
// afterwards.
// Prints one line: "sycl mixed N=<n> <ms> ms <GB/s> GB/s verified".
// Usage: mixed_bench [N=67108864] [repetitions=100]
#include "../../examples/sycl/mixed_kernel.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv) {
  const size_t n = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : size_t(1) << 26;
  const int reps = argc > 2 ? std::atoi(argv[2]) : 100;
  if (n == 0 || n % wg != 0 || reps <= 0) {
    std::fprintf(stderr, "usage: mixed_bench [N (multiple of %zu)] [repetitions]\n", wg);
    return 2;
  }
  const size_t groups = n / wg;
  MixedData data(n);

  double ms = 0;
  try {
    queue q;
    MixedBuffers buffers(data);
    Mixed(q, buffers, n); // warm-up: module build / JIT
    q.wait();
    auto t0 = std::chrono::steady_clock::now();
    for (int r = 0; r < reps; ++r)
      Mixed(q, buffers, n);
    q.wait();
    auto t1 = std::chrono::steady_clock::now();
    ms = std::chrono::duration<double, std::milli>(t1 - t0).count() / reps;
    // Leaving the block destroys the buffers, which write the results back.
  } catch (const sycl::exception &e) {
    std::fprintf(stderr, "mixed_bench: SYCL exception: %s\n", e.what());
    return 1;
  }

  size_t bad = 0;
  const MixedReference want(data.x);
  for (size_t i = 0; i < n; ++i)
    bad += std::fabs(want.y[i] - data.y[i]) > 1e-6f;
  for (size_t g = 0; g < groups; ++g)
    bad += data.above[g] != want.above[g] || data.maxima[g] != want.maxima[g];
  // Bytes moved per launch: the input and the output, plus two words per group.
  const double bytes = 2.0 * sizeof(float) * double(n) + 8.0 * double(groups);
  std::printf("sycl mixed N=%zu %.4f ms %.1f GB/s %s\n", n, ms, bytes / (ms * 1e6),
              bad ? "WRONG" : "verified");
  return bad ? 1 : 0;
}
