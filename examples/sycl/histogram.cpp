// Histogram with group-local atomics: each work-group counts its part of the
// input in a group-local array of bins (group_local_memory, zeroed), with
// atomic_ref on local memory, then adds its bins to the global histogram
// with atomic_ref on global memory. The same kernel tracks the input's
// minimum and maximum (fetch_min/fetch_max) and elects one group with
// compare_exchange_strong. Checked against a host histogram. The kernel is
// in histogram_kernel.h, which benchmarks/sycl/histogram_bench.cpp times.
#include "histogram_kernel.h"

#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv) {
  const size_t n = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 128 * 1024;
  if (n == 0 || n % WG != 0) {
    std::fprintf(stderr, "histogram: size must be a positive multiple of %zu\n", WG);
    return 2;
  }
  const HistogramProblem problem(n);

  std::vector<unsigned> hist(BINS, 0);
  int stats[3] = {0, 0, 0}; // min, max, elected group
  try {
    sycl::queue q;
    HistogramMemory mem(q, problem.input);
    Histogram(q, mem.in, mem.bins, mem.st, n);
    q.wait();
    mem.read(hist, stats);
  } catch (const sycl::exception &e) {
    std::fprintf(stderr, "histogram: SYCL exception: %s\n", e.what());
    return 1;
  }

  const size_t groups = n / WG;
  int errors = 0;
  for (unsigned b = 0; b < BINS; ++b)
    if (hist[b] != problem.expected[b]) {
      if (errors < 5)
        std::printf("bin %u: got %u, expected %u\n", b, hist[b], problem.expected[b]);
      ++errors;
    }
  if (stats[0] != problem.expected_min || stats[1] != problem.expected_max) {
    std::printf("min/max: got %d/%d, expected %d/%d\n", stats[0], stats[1],
                problem.expected_min, problem.expected_max);
    ++errors;
  }
  if (stats[2] < 0 || size_t(stats[2]) >= groups) {
    std::printf("elected group: got %d, expected one of 0..%zu\n", stats[2], groups - 1);
    ++errors;
  }
  std::printf("histogram of %zu values in %u bins: %s (%d mismatches)\n", n, BINS,
              errors ? "FAILED" : "PASSED", errors);
  return errors ? 1 : 0;
}
