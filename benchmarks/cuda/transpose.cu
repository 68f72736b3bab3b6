// The tiled transpose of benchmarks/amp/transpose_bench.cpp written by hand in
// CUDA: 16x16 blocks, one __shared__ 16x17 tile, a grid rounded up to whole
// tiles with bounds checks, managed memory, kernel time only after a warm-up.
// Prints one line: "cuda transpose N=<rows>x<cols> <ms> ms <GB/s> GB/s verified".
// Usage: transpose [rows=4096] [cols=8192] [repetitions=200]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define TS 16

__global__ void transpose(const float *in, float *out, int rows, int cols) {
  __shared__ float block[TS][TS + 1];
  int r = threadIdx.y, c = threadIdx.x;
  int gr = blockIdx.y * TS + r, gc = blockIdx.x * TS + c;
  if (gr < rows && gc < cols)
    block[r][c] = in[gr * cols + gc];
  __syncthreads();
  // Tile (y, x) of the input becomes tile (x, y) of the output.
  int dr = blockIdx.x * TS + r, dc = blockIdx.y * TS + c;
  if (dr < cols && dc < rows)
    out[dr * rows + dc] = block[c][r];
}

static void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

int main(int argc, char **argv) {
  int rows = argc > 1 ? std::atoi(argv[1]) : 4096;
  int cols = argc > 2 ? std::atoi(argv[2]) : 8192;
  int reps = argc > 3 ? std::atoi(argv[3]) : 200;
  if (rows <= 0 || cols <= 0 || reps <= 0) {
    std::fprintf(stderr, "usage: transpose [rows] [cols] [repetitions]\n");
    return 2;
  }
  size_t count = size_t(rows) * cols, bytes = count * sizeof(float);
  std::vector<float> in(count), out(count, -1.0f);
  for (size_t i = 0; i < count; ++i) in[i] = float(i % 9973) * 0.5f;
  float *a, *b;
  check(cudaMallocManaged(&a, bytes), "cudaMallocManaged");
  check(cudaMallocManaged(&b, bytes), "cudaMallocManaged");
  check(cudaMemcpy(a, in.data(), bytes, cudaMemcpyDefault), "copy");
  check(cudaMemcpy(b, out.data(), bytes, cudaMemcpyDefault), "copy");

  dim3 block(TS, TS), grid((cols + TS - 1) / TS, (rows + TS - 1) / TS);
  transpose<<<grid, block>>>(a, b, rows, cols);
  check(cudaDeviceSynchronize(), "warm-up");
  auto t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < reps; ++r)
    transpose<<<grid, block>>>(a, b, rows, cols);
  check(cudaDeviceSynchronize(), "kernels");
  auto t1 = std::chrono::steady_clock::now();
  double ms = std::chrono::duration<double, std::milli>(t1 - t0).count() / reps;
  check(cudaMemcpy(out.data(), b, bytes, cudaMemcpyDefault), "copy back");

  long bad = 0;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      bad += out[size_t(c) * rows + r] != in[size_t(r) * cols + c];
  std::printf("cuda transpose N=%dx%d %.4f ms %.1f GB/s %s\n", rows, cols, ms,
              2.0 * sizeof(float) * rows * double(cols) / (ms * 1e6),
              bad ? "WRONG" : "verified");
  return bad ? 1 : 0;
}
