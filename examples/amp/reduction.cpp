// Sum of a large vector in C++ AMP, two ways.
//
//  * Tree reduction: every tile of 256 threads loads 256 elements into
//    tile_static memory and adds them pairwise in log2(256) = 8 steps, halving
//    the number of active threads at each step (sequential addressing: the
//    active threads stay contiguous). The tile's sum goes to an array of
//    partial sums, which the next pass reduces again, until one value is left.
//
//  * Cascading reduction: a fixed number of tiles of 512 threads; each thread
//    first adds up many elements on its own, striding over the whole input by
//    the total number of threads (so the reads stay contiguous across the
//    threads), then the tile reduces the 512 sums in tile_static memory, and a
//    final single-tile pass adds the per-tile results.
//
// Both are checked against a host sum computed in double precision. The
// kernels are in reduction_kernel.h, which benchmarks/amp/reduction_bench.cpp
// times.
#include "reduction_kernel.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

float TreeSum(const std::vector<float> &data) {
  const int n = int(data.size()), partials = (n + TREE_TILE - 1) / TREE_TILE;
  array<float, 1> a(n, data.begin()), b(partials), c(partials);
  std::vector<float> result(1);
  copy(ReduceTree(a, b, c)->section(index<1>(0), extent<1>(1)), result.begin());
  return result[0];
}

float CascadeSum(const std::vector<float> &data) {
  array_view<const float, 1> in(int(data.size()), data);
  CascadeBuffers buffers;
  ReduceCascade(in, buffers.partial_v, buffers.total_v);
  return buffers.sum();
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 1 << 20;
  if (n <= 0) {
    std::fprintf(stderr, "reduction: size must be positive\n");
    return 2;
  }
  std::vector<float> data = ReductionInput(n);
  const double ref = HostSum(data);

  float tree, cascade;
  try {
    tree = TreeSum(data);
    cascade = CascadeSum(data);
  } catch (const runtime_exception &e) {
    std::fprintf(stderr, "reduction: %s\n", e.what());
    return 1;
  }

  // Float sums in another order: allow the rounding of n additions.
  double tol = 1e-6 * std::sqrt(double(n)) * (1.0 + std::fabs(ref)) + 1e-3;
  bool tree_ok = std::fabs(tree - ref) <= tol;
  bool cascade_ok = std::fabs(cascade - ref) <= tol;
  std::printf("reduction tree %d: %s (sum %.3f, expected %.3f)\n", n,
              tree_ok ? "PASSED" : "FAILED", tree, ref);
  std::printf("reduction cascade %d: %s (sum %.3f, expected %.3f)\n", n,
              cascade_ok ? "PASSED" : "FAILED", cascade, ref);
  return tree_ok && cascade_ok ? 0 : 1;
}
