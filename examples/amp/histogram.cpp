// 256-bin histogram of a byte stream in C++ AMP. The bytes are packed four to
// an unsigned int (C++ AMP has no 8-bit element type). A fixed number of tiles
// of 256 threads stride over the data; each tile first counts into its own
// tile_static histogram with atomic increments on tile_static memory (cheap,
// contended only within the tile), then, after the barrier, each thread adds
// one bin of the tile's histogram to the global histogram with one global
// atomic add. Checks the counts against a host histogram. The kernel is in
// histogram_kernel.h, which benchmarks/amp/histogram_bench.cpp times.
#include "histogram_kernel.h"

#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv) {
  int bytes = argc > 1 ? std::atoi(argv[1]) : 1 << 23;
  if (bytes <= 0 || bytes % 4 != 0) {
    std::fprintf(stderr, "histogram: the byte count must be a positive multiple of 4\n");
    return 2;
  }
  std::vector<unsigned int> ref, hist(BINS, 0);
  std::vector<unsigned int> packed = HistogramInput(bytes, ref);

  try {
    array_view<const unsigned int, 1> data(int(packed.size()), packed);
    array<unsigned int, 1> bins(BINS); // zero-initialised
    Histogram(data, array_view<unsigned int, 1>(bins));
    copy(bins, hist.begin());
  } catch (const runtime_exception &e) {
    std::fprintf(stderr, "histogram: %s\n", e.what());
    return 1;
  }

  int errors = 0;
  unsigned long long total = 0;
  for (int b = 0; b < BINS; ++b) {
    total += hist[b];
    if (hist[b] != ref[b]) {
      if (errors < 5)
        std::printf("mismatch in bin %d: got %u, expected %u\n", b, hist[b], ref[b]);
      ++errors;
    }
  }
  std::printf("histogram %d bytes: %s (%d mismatched bins, %llu counted)\n", bytes,
              errors ? "FAILED" : "PASSED", errors, total);
  return errors ? 1 : 0;
}
