// Benchmark: the C++ AMP tiled transpose of examples/amp/transpose.cpp (16x16
// tiles, one tile_static 16x17 block, padded extent; the example's kernel,
// from examples/amp/transpose_kernel.h), timed on whatever device slmc's
// runtime picks: kernel launches only, after a warm-up launch.
// Every launch transposes the same input, so the result is checked in full.
// Prints one line: "amp transpose N=<rows>x<cols> <ms> ms <GB/s> GB/s verified".
// Usage: transpose_bench [rows=4096] [cols=8192] [repetitions=200]
#include "../../examples/amp/transpose_kernel.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv) {
  int rows = argc > 1 ? std::atoi(argv[1]) : 4096;
  int cols = argc > 2 ? std::atoi(argv[2]) : 8192;
  int reps = argc > 3 ? std::atoi(argv[3]) : 200;
  if (rows <= 0 || cols <= 0 || reps <= 0) {
    std::fprintf(stderr, "usage: transpose_bench [rows] [cols] [repetitions]\n");
    return 2;
  }
  std::vector<float> in(size_t(rows) * cols), out(size_t(rows) * cols, -1.0f);
  for (size_t i = 0; i < in.size(); ++i) in[i] = float(i % 9973) * 0.5f;

  accelerator acc;
  array_view<const float, 2> a(rows, cols, in);
  array_view<float, 2> b(cols, rows, out);
  b.discard_data();

  TransposeTiled(a, b); // warm-up: module build / JIT, first touch of the data
  acc.default_view.wait();
  auto t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < reps; ++r)
    TransposeTiled(a, b);
  acc.default_view.wait();
  auto t1 = std::chrono::steady_clock::now();
  double ms = std::chrono::duration<double, std::milli>(t1 - t0).count() / reps;
  b.synchronize();

  long bad = 0;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      bad += out[size_t(c) * rows + r] != in[size_t(r) * cols + c];
  std::printf("amp transpose N=%dx%d %.4f ms %.1f GB/s %s\n", rows, cols, ms,
              2.0 * sizeof(float) * rows * double(cols) / (ms * 1e6),
              bad ? "WRONG" : "verified");
  return bad ? 1 : 0;
}
