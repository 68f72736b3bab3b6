// The tiled C++ AMP matrix multiply of matmul.cpp (and of
// benchmarks/amp/matmul_bench.cpp): each 16x16 tile of C is computed by one
// tile of threads that stages 16x16 blocks of A and B in tile_static memory.
#ifndef SLMC_EXAMPLES_AMP_MATMUL_KERNEL_H
#define SLMC_EXAMPLES_AMP_MATMUL_KERNEL_H

#include <amp.h>
#include <vector>

using namespace concurrency;

static const int TS = 16;

// c = a * b, where a is M x W and b is W x N (all multiples of 16).
void MatrixMultiplyTiled(array_view<const float, 2> a, array_view<const float, 2> b,
                         array_view<float, 2> c, int W) {
  parallel_for_each(c.extent.tile<TS, TS>(),
                    [=](tiled_index<TS, TS> t_idx) restrict(amp) {
    int row = t_idx.local[0];
    int col = t_idx.local[1];
    float sum = 0.0f;
    for (int i = 0; i < W; i += TS) {
      tile_static float locA[TS][TS];
      tile_static float locB[TS][TS];
      locA[row][col] = a(t_idx.global[0], col + i);
      locB[row][col] = b(row + i, t_idx.global[1]);
      t_idx.barrier.wait();
      for (int k = 0; k < TS; k++)
        sum += locA[row][k] * locB[k][col];
      t_idx.barrier.wait();
    }
    c[t_idx.global] = sum;
  });
}

#endif
