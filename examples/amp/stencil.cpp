// 2-D five-point stencil (Jacobi relaxation of the heat equation) in C++ AMP.
// Each 16x16 tile copies its block of the grid plus a one-cell halo on every
// side into an 18x18 tile_static array: every thread loads its own cell, the
// threads on the edges of the tile also load the neighbouring halo cells.
// After the barrier each thread computes its new value from tile_static memory
// only. The boundary of the grid stays fixed. Runs several sweeps, alternating
// between two arrays, and checks the result against the same sweeps on the
// host.
#include <amp.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace concurrency;

static const int TS = 16;

void JacobiSweep(array_view<const float, 2> in, array_view<float, 2> out) {
  const int rows = in.extent[0], cols = in.extent[1];
  parallel_for_each(in.extent.tile<TS, TS>().pad(),
                    [=](tiled_index<TS, TS> t_idx) restrict(amp) {
    tile_static float tile[TS + 2][TS + 2];
    const int r = t_idx.local[0], c = t_idx.local[1];
    // Clamp to the grid: the padding threads and the halo beyond the grid's
    // edge read the nearest cell (only cells inside the boundary use them).
    const int gr = t_idx.global[0] < rows ? t_idx.global[0] : rows - 1;
    const int gc = t_idx.global[1] < cols ? t_idx.global[1] : cols - 1;
    const int up = gr > 0 ? gr - 1 : 0, down = gr + 1 < rows ? gr + 1 : gr;
    const int left = gc > 0 ? gc - 1 : 0, right = gc + 1 < cols ? gc + 1 : gc;

    tile[r + 1][c + 1] = in(gr, gc);
    if (r == 0) tile[0][c + 1] = in(up, gc);
    if (r == TS - 1) tile[TS + 1][c + 1] = in(down, gc);
    if (c == 0) tile[r + 1][0] = in(gr, left);
    if (c == TS - 1) tile[r + 1][TS + 1] = in(gr, right);
    t_idx.barrier.wait();

    const int i = t_idx.global[0], j = t_idx.global[1];
    if (i >= rows || j >= cols)
      return;
    if (i == 0 || j == 0 || i == rows - 1 || j == cols - 1)
      out(i, j) = tile[r + 1][c + 1];
    else
      out(i, j) = 0.25f * (tile[r][c + 1] + tile[r + 2][c + 1] + tile[r + 1][c] +
                           tile[r + 1][c + 2]);
  });
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 500;
  int sweeps = argc > 2 ? std::atoi(argv[2]) : 10;
  if (n < 3 || sweeps <= 0) {
    std::fprintf(stderr, "stencil: the grid must be at least 3x3\n");
    return 2;
  }
  const int rows = n, cols = n + n / 3;
  // A hot left edge, a warm spot in the middle, the rest cold.
  std::vector<float> grid(size_t(rows) * cols, 0.0f);
  for (int i = 0; i < rows; ++i) grid[size_t(i) * cols] = 100.0f;
  for (int i = rows / 3; i < rows / 2; ++i)
    for (int j = cols / 3; j < cols / 2; ++j) grid[size_t(i) * cols + j] = 50.0f;
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
