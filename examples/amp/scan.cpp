// Exclusive prefix sum (scan) in C++ AMP, work-efficient and tiled.
//
//  1. Every tile of 256 threads scans a block of 512 elements in tile_static
//     memory with the two sweeps of the work-efficient (Blelloch) scan: an
//     up-sweep that builds partial sums in a balanced tree (n - 1 additions)
//     and a down-sweep that turns them into the exclusive prefix sums (another
//     n - 1 additions), a barrier between levels. The block's total goes to an
//     array of block sums.
//  2. The block sums are scanned the same way (recursively, if there are more
//     than 512 of them).
//  3. Every element adds the scanned sum of the blocks before its own.
//
// Checks the result against a host scan. The kernels are in scan_kernel.h,
// which benchmarks/amp/scan_bench.cpp times.
#include "scan_kernel.h"

#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 1 << 19;
  if (n <= 0) {
    std::fprintf(stderr, "scan: size must be positive\n");
    return 2;
  }
  std::vector<int> in(n), out(n, -1);
  for (int i = 0; i < n; ++i) in[i] = (i * 7 + 3) % 10;

  try {
    array_view<const int, 1> input(n, in);
    array_view<int, 1> output(n, out);
    ScanScratch scratch(n);
    ScanExclusive(input, output, scratch);
    output.synchronize();
  } catch (const runtime_exception &e) {
    std::fprintf(stderr, "scan: %s\n", e.what());
    return 1;
  }

  int errors = 0;
  long long running = 0;
  for (int i = 0; i < n; ++i) {
    if (out[i] != running) {
      if (errors < 5)
        std::printf("mismatch at %d: got %d, expected %lld\n", i, out[i], running);
      ++errors;
    }
    running += in[i];
  }
  std::printf("scan %d: %s (%d mismatches)\n", n, errors ? "FAILED" : "PASSED", errors);
  return errors ? 1 : 0;
}
