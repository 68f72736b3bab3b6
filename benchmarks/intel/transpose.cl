// OpenCL C twin of benchmarks/cuda/transpose.cu (the kernel of
// benchmarks/amp/transpose_bench.cpp): 16x16 groups, one __local 16x17 tile,
// bounds checks for a grid rounded up to whole tiles.
#include "twin.h"
#define TS 16

__kernel void transpose(__global const float *in, __global float *out, int rows, int cols) {
  __local float block[TS][TS + 1];
  int r = get_local_id(1), c = get_local_id(0);
  int gr = (uint)get_group_id(1) * TS + r, gc = (uint)get_group_id(0) * TS + c;
  if (gr < rows && gc < cols)
    block[r][c] = in[gr * cols + gc];
  barrier(SOURCE_FENCE);
  // Tile (y, x) of the input becomes tile (x, y) of the output.
  int dr = (uint)get_group_id(0) * TS + r, dc = (uint)get_group_id(1) * TS + c;
  if (dr < cols && dc < rows)
    out[dr * rows + dc] = block[c][r];
}
