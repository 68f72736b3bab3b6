// Benchmark: the two C++ AMP reductions of examples/amp/reduction.cpp (its
// kernels, from examples/amp/reduction_kernel.h), timed on whatever device
// slmc's runtime picks: kernel launches only, after a warm-up.
//
//  * tree: tiles of 256 threads, a tile_static tree per tile, passes until
//    one value is left; the first pass reads the input and the later ones
//    ping-pong between two scratch arrays, so that every repetition reduces
//    the same input.
//  * cascade: 64 tiles of 512 threads striding over the input, a tree of 512
//    in tile_static memory, then one tile of 64 adds the per-tile sums.
//
// Prints two lines: "amp reduction-tree N=<n> <ms> ms <GB/s> GB/s verified"
// and the same for reduction-cascade.
// Usage: reduction_bench [N=33554432] [repetitions=200]
#include "../../examples/amp/reduction_kernel.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

template <class F> static double time_ms(const accelerator &acc, int reps, F run) {
  run(); // warm-up: module build / JIT, first touch of the data
  acc.default_view.wait();
  auto t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < reps; ++r)
    run();
  acc.default_view.wait();
  auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::milli>(t1 - t0).count() / reps;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 1 << 25;
  int reps = argc > 2 ? std::atoi(argv[2]) : 200;
  if (n <= 1 || reps <= 0) {
    std::fprintf(stderr, "usage: reduction_bench [N > 1] [repetitions]\n");
    return 2;
  }
  std::vector<float> data = ReductionInput(n);
  const double ref = HostSum(data);
  double tol = 1e-6 * std::sqrt(double(n)) * (1.0 + std::fabs(ref)) + 1e-3;
  accelerator acc;
  int status = 0;

  {
    array<float, 1> a(n, data.begin());
    array<float, 1> b((n + TREE_TILE - 1) / TREE_TILE), c((n + TREE_TILE - 1) / TREE_TILE);
    array<float, 1> *result = nullptr;
    double ms = time_ms(acc, reps, [&] { result = ReduceTree(a, b, c); });
    std::vector<float> sum(1);
    copy(result->section(index<1>(0), extent<1>(1)), sum.begin());
    bool ok = std::fabs(sum[0] - ref) <= tol;
    std::printf("amp reduction-tree N=%d %.4f ms %.1f GB/s %s\n", n, ms,
                sizeof(float) * double(n) / (ms * 1e6), ok ? "verified" : "WRONG");
    status |= !ok;
  }
  {
    array_view<const float, 1> in(n, data);
    CascadeBuffers buffers;
    double ms = time_ms(acc, reps, [&] { ReduceCascade(in, buffers.partial_v, buffers.total_v); });
    bool ok = std::fabs(buffers.sum() - ref) <= tol;
    std::printf("amp reduction-cascade N=%d %.4f ms %.1f GB/s %s\n", n, ms,
                sizeof(float) * double(n) / (ms * 1e6), ok ? "verified" : "WRONG");
    status |= !ok;
  }
  return status;
}
