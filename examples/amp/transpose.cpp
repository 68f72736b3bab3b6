// Matrix transpose in C++ AMP. Each 16x16 tile of threads reads a block of the
// input row by row into tile_static memory and writes it back column by
// column, so both the reads and the writes of global memory are contiguous.
// The block has one padding column, which keeps the threads of a column on
// different banks of the shared local memory. The extent is padded to whole
// tiles; threads of the padding take part in the barrier but touch no data.
// Checks the result against a host computation. The kernel is in
// transpose_kernel.h, which benchmarks/amp/transpose_bench.cpp times.
#include "transpose_kernel.h"

#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv) {
  int rows = argc > 1 ? std::atoi(argv[1]) : 1000;
  int cols = argc > 2 ? std::atoi(argv[2]) : rows + rows / 2 + 7;
  if (rows <= 0 || cols <= 0) {
    std::fprintf(stderr, "transpose: sizes must be positive\n");
    return 2;
  }
  std::vector<float> in(size_t(rows) * cols), out(size_t(rows) * cols, -1.0f);
  for (size_t i = 0; i < in.size(); ++i) in[i] = float(i % 9973) * 0.5f;

  try {
    array_view<const float, 2> a(rows, cols, in);
    array_view<float, 2> b(cols, rows, out);
    b.discard_data();
    TransposeTiled(a, b);
    b.synchronize();
  } catch (const runtime_exception &e) {
    std::fprintf(stderr, "transpose: %s\n", e.what());
    return 1;
  }

  int errors = 0;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      float want = in[size_t(r) * cols + c], got = out[size_t(c) * rows + r];
      if (got != want) {
        if (errors < 5)
          std::printf("mismatch at (%d,%d): got %f, expected %f\n", c, r, got, want);
        ++errors;
      }
    }
  std::printf("transpose %dx%d: %s (%d mismatches)\n", rows, cols,
              errors ? "FAILED" : "PASSED", errors);
  return errors ? 1 : 0;
}
