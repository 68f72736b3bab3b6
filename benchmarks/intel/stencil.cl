// OpenCL C twin of benchmarks/cuda/stencil.cu (the kernel of
// benchmarks/amp/stencil_bench.cpp): five-point Jacobi sweep, 16x16 groups,
// an 18x18 __local tile whose halo the edge work-items load, clamped reads.
#include "twin.h"
#define TS 16

__kernel void jacobi(__global const float *in, __global float *out, int rows, int cols) {
  __local float tile[TS + 2][TS + 2];
  const int r = get_local_id(1), c = get_local_id(0);
  const int i = (uint)get_group_id(1) * TS + r, j = (uint)get_group_id(0) * TS + c;
  const int gr = i < rows ? i : rows - 1;
  const int gc = j < cols ? j : cols - 1;
  const int up = gr > 0 ? gr - 1 : 0, down = gr + 1 < rows ? gr + 1 : gr;
  const int left = gc > 0 ? gc - 1 : 0, right = gc + 1 < cols ? gc + 1 : gc;

  tile[r + 1][c + 1] = in[gr * cols + gc];
  if (r == 0) tile[0][c + 1] = in[up * cols + gc];
  if (r == TS - 1) tile[TS + 1][c + 1] = in[down * cols + gc];
  if (c == 0) tile[r + 1][0] = in[gr * cols + left];
  if (c == TS - 1) tile[r + 1][TS + 1] = in[gr * cols + right];
  barrier(SOURCE_FENCE);

  if (i >= rows || j >= cols)
    return;
  if (i == 0 || j == 0 || i == rows - 1 || j == cols - 1)
    out[i * cols + j] = tile[r + 1][c + 1];
  else
    out[i * cols + j] = 0.25f * (tile[r][c + 1] + tile[r + 2][c + 1] + tile[r + 1][c] +
                                 tile[r + 1][c + 2]);
}
