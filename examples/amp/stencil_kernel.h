// The C++ AMP five-point Jacobi sweep of stencil.cpp (and of
// benchmarks/amp/stencil_bench.cpp): 16x16 tiles, each staging its block and
// a one-cell halo in an 18x18 tile_static array. Also the grid both programs
// start from.
#ifndef SLMC_EXAMPLES_AMP_STENCIL_KERNEL_H
#define SLMC_EXAMPLES_AMP_STENCIL_KERNEL_H

#include <amp.h>
#include <cstddef>
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

// A hot left edge, a warm spot in the middle, the rest cold.
std::vector<float> InitialGrid(int rows, int cols) {
  std::vector<float> grid(size_t(rows) * cols, 0.0f);
  for (int i = 0; i < rows; ++i) grid[size_t(i) * cols] = 100.0f;
  for (int i = rows / 3; i < rows / 2; ++i)
    for (int j = cols / 3; j < cols / 2; ++j) grid[size_t(i) * cols + j] = 50.0f;
  return grid;
}

#endif
