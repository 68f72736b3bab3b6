// The tiled C++ AMP transpose of transpose.cpp (and of
// benchmarks/amp/transpose_bench.cpp): 16x16 tiles through a 16x17
// tile_static block, the extent padded to whole tiles.
#ifndef SLMC_EXAMPLES_AMP_TRANSPOSE_KERNEL_H
#define SLMC_EXAMPLES_AMP_TRANSPOSE_KERNEL_H

#include <amp.h>
#include <vector>

using namespace concurrency;

static const int TS = 16;

// out = the transpose of in (rows x cols; out is cols x rows).
void TransposeTiled(array_view<const float, 2> in, array_view<float, 2> out) {
  parallel_for_each(in.extent.tile<TS, TS>().pad(),
                    [=](tiled_index<TS, TS> t_idx) restrict(amp) {
    tile_static float block[TS][TS + 1];
    int r = t_idx.local[0];
    int c = t_idx.local[1];
    if (in.extent.contains(t_idx.global))
      block[r][c] = in[t_idx.global];
    t_idx.barrier.wait();

    // Tile (i, j) of the input becomes tile (j, i) of the output; thread
    // (r, c) writes element (r, c) of that tile, read from column r.
    index<2> dst(t_idx.tile_origin[1] + r, t_idx.tile_origin[0] + c);
    if (out.extent.contains(dst))
      out[dst] = block[c][r];
  });
}

#endif
