// 2-D five-point stencil (Jacobi relaxation of the heat equation) in C++ AMP.
// Each 16x16 tile copies its block of the grid plus a one-cell halo on every
// side into an 18x18 tile_static array: every thread loads its own cell, the
// threads on the edges of the tile also load the neighbouring halo cells.
// After the barrier each thread computes its new value from tile_static memory
// only. The boundary of the grid stays fixed. Runs several sweeps, alternating
// between two arrays, and checks the result against the same sweeps on the
// host. The kernel is in stencil_kernel.h, which
// benchmarks/amp/stencil_bench.cpp times.
#include "stencil_kernel.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 500;
  int sweeps = argc > 2 ? std::atoi(argv[2]) : 10;
  if (n < 3 || sweeps <= 0) {
    std::fprintf(stderr, "stencil: the grid must be at least 3x3\n");
    return 2;
  }
  const int rows = n, cols = n + n / 3;
  std::vector<float> grid = InitialGrid(rows, cols);
  std::vector<float> result(grid.size());

  try {
    array<float, 2> a(rows, cols, grid.begin()), b(rows, cols);
    array_view<float, 2> av(a), bv(b);
    for (int s = 0; s < sweeps; ++s)
      JacobiSweep(s % 2 ? bv : av, s % 2 ? av : bv);
    copy(sweeps % 2 ? b : a, result.begin());
  } catch (const runtime_exception &e) {
    std::fprintf(stderr, "stencil: %s\n", e.what());
    return 1;
  }

  std::vector<float> ref(grid), next(grid.size());
  for (int s = 0; s < sweeps; ++s) {
    for (int i = 0; i < rows; ++i)
      for (int j = 0; j < cols; ++j) {
        size_t k = size_t(i) * cols + j;
        if (i == 0 || j == 0 || i == rows - 1 || j == cols - 1)
          next[k] = ref[k];
        else
          next[k] = 0.25f * (ref[k - cols] + ref[k + cols] + ref[k - 1] + ref[k + 1]);
      }
    ref.swap(next);
  }

  int errors = 0;
  for (size_t k = 0; k < ref.size(); ++k)
    if (std::fabs(result[k] - ref[k]) > 1e-4f * (1.0f + std::fabs(ref[k]))) {
      if (errors < 5)
        std::printf("mismatch at (%zu,%zu): got %f, expected %f\n", k / cols, k % cols,
                    result[k], ref[k]);
      ++errors;
    }
  std::printf("stencil %dx%d, %d sweeps: %s (%d mismatches)\n", rows, cols, sweeps,
              errors ? "FAILED" : "PASSED", errors);
  return errors ? 1 : 0;
}
