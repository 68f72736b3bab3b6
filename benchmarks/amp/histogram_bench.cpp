// Benchmark: the C++ AMP 256-bin byte histogram of examples/amp/histogram.cpp
// (64 tiles of 256 threads striding over words of four bytes, atomic
// increments on a tile_static histogram, one global atomic add per bin and
// tile; the example's kernel, from examples/amp/histogram_kernel.h), timed
// on whatever device slmc's runtime picks: kernel launches only, after a
// warm-up launch. The global bins are not cleared between
// launches, so after k launches each holds k times the byte counts.
// Prints one line: "amp histogram N=<bytes> <ms> ms <GB/s> GB/s verified".
// Usage: histogram_bench [bytes=134217728] [repetitions=50]
#include "../../examples/amp/histogram_kernel.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv) {
  int bytes = argc > 1 ? std::atoi(argv[1]) : 1 << 27;
  int reps = argc > 2 ? std::atoi(argv[2]) : 50;
  if (bytes <= 0 || bytes % 4 != 0 || reps <= 0) {
    std::fprintf(stderr, "usage: histogram_bench [bytes (multiple of 4)] [repetitions]\n");
    return 2;
  }
  std::vector<unsigned int> ref, hist(BINS, 0);
  std::vector<unsigned int> packed = HistogramInput(bytes, ref);

  accelerator acc;
  array_view<const unsigned int, 1> data(int(packed.size()), packed);
  array<unsigned int, 1> bins(BINS); // zero-initialised
  array_view<unsigned int, 1> global_hist(bins);

  Histogram(data, global_hist); // warm-up: module build / JIT
  acc.default_view.wait();
  auto t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < reps; ++r)
    Histogram(data, global_hist);
  acc.default_view.wait();
  auto t1 = std::chrono::steady_clock::now();
  double ms = std::chrono::duration<double, std::milli>(t1 - t0).count() / reps;
  copy(bins, hist.begin());

  int bad = 0;
  for (int b = 0; b < BINS; ++b)
    bad += hist[b] != ref[b] * unsigned(reps + 1);
  std::printf("amp histogram N=%d %.4f ms %.1f GB/s %s\n", bytes, ms,
              double(bytes) / (ms * 1e6), bad ? "WRONG" : "verified");
  return bad ? 1 : 0;
}
