// Benchmark: the C++ AMP five-point Jacobi sweep of examples/amp/stencil.cpp
// (its kernel, from examples/amp/stencil_kernel.h;
// 16x16 tiles, an 18x18 tile_static block with a one-cell halo loaded by the
// edge threads, padded extent), timed on whatever device slmc's runtime
// picks: kernel launches only, after a warm-up launch. Every launch sweeps
// the same input grid (the example alternates between two grids), so the
// result is checked in full against one host sweep.
// Prints one line: "amp stencil N=<rows>x<cols> <ms> ms <GB/s> GB/s verified".
// Usage: stencil_bench [n=4608 (rows n, columns n + n/3)] [repetitions=200]
#include "../../examples/amp/stencil_kernel.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 4608;
  int reps = argc > 2 ? std::atoi(argv[2]) : 200;
  if (n < 3 || reps <= 0) {
    std::fprintf(stderr, "usage: stencil_bench [n >= 3] [repetitions]\n");
    return 2;
  }
  const int rows = n, cols = n + n / 3;
  std::vector<float> grid = InitialGrid(rows, cols);
  for (size_t k = 0; k < grid.size(); ++k) grid[k] += float(k % 7); // no flat regions
  std::vector<float> result(grid.size());

  accelerator acc;
  array<float, 2> a(rows, cols, grid.begin()), b(rows, cols);
  array_view<float, 2> av(a), bv(b);

  JacobiSweep(av, bv); // warm-up: module build / JIT
  acc.default_view.wait();
  auto t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < reps; ++r)
    JacobiSweep(av, bv);
  acc.default_view.wait();
  auto t1 = std::chrono::steady_clock::now();
  double ms = std::chrono::duration<double, std::milli>(t1 - t0).count() / reps;
  copy(b, result.begin());

  long bad = 0;
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) {
      size_t k = size_t(i) * cols + j;
      float want = i == 0 || j == 0 || i == rows - 1 || j == cols - 1
                       ? grid[k]
                       : 0.25f * (grid[k - cols] + grid[k + cols] + grid[k - 1] + grid[k + 1]);
      bad += std::fabs(result[k] - want) > 1e-5f * (1.0f + std::fabs(want));
    }
  std::printf("amp stencil N=%dx%d %.4f ms %.1f GB/s %s\n", rows, cols, ms,
              2.0 * sizeof(float) * rows * double(cols) / (ms * 1e6),
              bad ? "WRONG" : "verified");
  return bad ? 1 : 0;
}
