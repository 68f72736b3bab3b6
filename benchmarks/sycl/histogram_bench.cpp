// Benchmark: the SYCL histogram of examples/sycl/histogram.cpp (groups of 128,
// 64 group-local bins from group_local_memory counted with local atomic_ref,
// global fetch_min/fetch_max per work-item, one global fetch_add per bin and
// group, compare_exchange_strong by each group's leader; the example's
// kernel, from examples/sycl/histogram_kernel.h), timed on whatever
// device slmc's runtime picks: kernel submissions only, after a warm-up,
// waiting with q.wait(). Device USM as in the example. The global bins are
// not cleared between launches, so after k launches each holds k times the
// counts; minimum and maximum are the same after every launch.
// Prints one line: "sycl histogram N=<n> <ms> ms <G values/s> Gval/s verified".
// Usage: histogram_bench [N=16777216] [repetitions=10]
#include "../../examples/sycl/histogram_kernel.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv) {
  const size_t n = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : size_t(1) << 24;
  const int reps = argc > 2 ? std::atoi(argv[2]) : 10;
  if (n == 0 || n % WG != 0 || reps <= 0) {
    std::fprintf(stderr, "usage: histogram_bench [N (multiple of %zu)] [repetitions]\n", WG);
    return 2;
  }
  const HistogramProblem problem(n);

  std::vector<unsigned> hist(BINS, 0);
  int stats[3] = {0, 0, 0}; // min, max, elected group
  double ms = 0;
  try {
    sycl::queue q;
    HistogramMemory mem(q, problem.input);
    Histogram(q, mem.in, mem.bins, mem.st, n); // warm-up: module build / JIT
    q.wait();
    auto t0 = std::chrono::steady_clock::now();
    for (int r = 0; r < reps; ++r)
      Histogram(q, mem.in, mem.bins, mem.st, n);
    q.wait();
    auto t1 = std::chrono::steady_clock::now();
    ms = std::chrono::duration<double, std::milli>(t1 - t0).count() / reps;
    mem.read(hist, stats);
  } catch (const sycl::exception &e) {
    std::fprintf(stderr, "histogram_bench: SYCL exception: %s\n", e.what());
    return 1;
  }

  const size_t groups = n / WG;
  int bad = 0;
  for (unsigned b = 0; b < BINS; ++b)
    bad += hist[b] != problem.expected[b] * unsigned(reps + 1);
  bad += stats[0] != problem.expected_min || stats[1] != problem.expected_max;
  bad += stats[2] < 0 || size_t(stats[2]) >= groups;
  std::printf("sycl histogram N=%zu %.4f ms %.2f Gval/s %s\n", n, ms, double(n) / (ms * 1e6),
              bad ? "WRONG" : "verified");
  return bad ? 1 : 0;
}
