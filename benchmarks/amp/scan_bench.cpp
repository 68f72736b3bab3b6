// Benchmark: the C++ AMP exclusive scan of examples/amp/scan.cpp (tiles of 256
// threads scanning 512 elements in tile_static memory with the Blelloch up-
// and down-sweeps, the block sums scanned recursively, then one add per
// element; the example's kernels, from examples/amp/scan_kernel.h), timed on
// whatever device slmc's runtime picks: kernel launches only, after a
// warm-up. The block-sum arrays are allocated once, before timing.
// Prints one line: "amp scan N=<n> <ms> ms <G elements/s> Gelem/s verified".
// Usage: scan_bench [N=33554432] [repetitions=100]
#include "../../examples/amp/scan_kernel.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 1 << 25;
  int reps = argc > 2 ? std::atoi(argv[2]) : 100;
  if (n <= 0 || reps <= 0) {
    std::fprintf(stderr, "usage: scan_bench [N] [repetitions]\n");
    return 2;
  }
  std::vector<int> in(n), out(n, -1);
  for (int i = 0; i < n; ++i) in[i] = (i * 7 + 3) % 10;

  accelerator acc;
  ScanScratch scratch(n);
  array_view<const int, 1> input(n, in);
  array_view<int, 1> output(n, out);

  ScanExclusive(input, output, scratch); // warm-up: module build / JIT
  acc.default_view.wait();
  auto t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < reps; ++r)
    ScanExclusive(input, output, scratch);
  acc.default_view.wait();
  auto t1 = std::chrono::steady_clock::now();
  double ms = std::chrono::duration<double, std::milli>(t1 - t0).count() / reps;
  output.synchronize();

  long bad = 0;
  long long running = 0;
  for (int i = 0; i < n; ++i) {
    bad += out[i] != running;
    running += in[i];
  }
  std::printf("amp scan N=%d %.4f ms %.2f Gelem/s %s\n", n, ms, double(n) / (ms * 1e6),
              bad ? "WRONG" : "verified");
  return bad ? 1 : 0;
}
