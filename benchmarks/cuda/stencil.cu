// The five-point Jacobi sweep of benchmarks/amp/stencil_bench.cpp written by
// hand in CUDA: 16x16 blocks, an 18x18 __shared__ tile whose halo the edge
// threads load, a grid rounded up to whole tiles with clamped reads, every
// launch sweeping the same input. Managed memory filled as slmc's C++ AMP
// arrays are, kernel time only after a warm-up.
// Prints one line: "cuda stencil N=<rows>x<cols> <ms> ms <GB/s> GB/s verified".
// Usage: stencil [n=4608 (rows n, columns n + n/3)] [repetitions=200]
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define TS 16

__global__ void jacobi(const float *in, float *out, int rows, int cols) {
  __shared__ float tile[TS + 2][TS + 2];
  const int r = threadIdx.y, c = threadIdx.x;
  const int i = blockIdx.y * TS + r, j = blockIdx.x * TS + c;
  const int gr = i < rows ? i : rows - 1;
  const int gc = j < cols ? j : cols - 1;
  const int up = gr > 0 ? gr - 1 : 0, down = gr + 1 < rows ? gr + 1 : gr;
  const int left = gc > 0 ? gc - 1 : 0, right = gc + 1 < cols ? gc + 1 : gc;

  tile[r + 1][c + 1] = in[gr * cols + gc];
  if (r == 0) tile[0][c + 1] = in[up * cols + gc];
  if (r == TS - 1) tile[TS + 1][c + 1] = in[down * cols + gc];
  if (c == 0) tile[r + 1][0] = in[gr * cols + left];
  if (c == TS - 1) tile[r + 1][TS + 1] = in[gr * cols + right];
  __syncthreads();

  if (i >= rows || j >= cols)
    return;
  if (i == 0 || j == 0 || i == rows - 1 || j == cols - 1)
    out[i * cols + j] = tile[r + 1][c + 1];
  else
    out[i * cols + j] = 0.25f * (tile[r][c + 1] + tile[r + 2][c + 1] + tile[r + 1][c] +
                                 tile[r + 1][c + 2]);
}

static void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

// Fills managed memory the way slmc's C++ AMP runtime fills an array made
// from host data (array(extent, iterator)): zeroed by the device (the array
// is zero-initialised first), then written by the host.
static void fill_like_amp_array(void *dst, const void *src, size_t bytes) {
  check(cudaMemset(dst, 0, bytes), "memset");
  check(cudaDeviceSynchronize(), "memset");
  std::memcpy(dst, src, bytes);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 4608;
  int reps = argc > 2 ? std::atoi(argv[2]) : 200;
  if (n < 3 || reps <= 0) {
    std::fprintf(stderr, "usage: stencil [n >= 3] [repetitions]\n");
    return 2;
  }
  const int rows = n, cols = n + n / 3;
  size_t count = size_t(rows) * cols, bytes = count * sizeof(float);
  std::vector<float> grid(count, 0.0f);
  for (int i = 0; i < rows; ++i) grid[size_t(i) * cols] = 100.0f;
  for (int i = rows / 3; i < rows / 2; ++i)
    for (int j = cols / 3; j < cols / 2; ++j) grid[size_t(i) * cols + j] = 50.0f;
  for (size_t k = 0; k < count; ++k) grid[k] += float(k % 7); // no flat regions
  std::vector<float> result(count);

  float *a, *b;
  check(cudaMallocManaged(&a, bytes), "cudaMallocManaged");
  check(cudaMallocManaged(&b, bytes), "cudaMallocManaged");
  fill_like_amp_array(a, grid.data(), bytes);
  check(cudaMemset(b, 0, bytes), "memset");

  dim3 block(TS, TS), tiles((cols + TS - 1) / TS, (rows + TS - 1) / TS);
  jacobi<<<tiles, block>>>(a, b, rows, cols);
  check(cudaDeviceSynchronize(), "warm-up");
  auto t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < reps; ++r)
    jacobi<<<tiles, block>>>(a, b, rows, cols);
  check(cudaDeviceSynchronize(), "kernels");
  auto t1 = std::chrono::steady_clock::now();
  double ms = std::chrono::duration<double, std::milli>(t1 - t0).count() / reps;
  check(cudaMemcpy(result.data(), b, bytes, cudaMemcpyDefault), "copy back");

  long bad = 0;
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) {
      size_t k = size_t(i) * cols + j;
      float want = i == 0 || j == 0 || i == rows - 1 || j == cols - 1
                       ? grid[k]
                       : 0.25f * (grid[k - cols] + grid[k + cols] + grid[k - 1] + grid[k + 1]);
      bad += std::fabs(result[k] - want) > 1e-5f * (1.0f + std::fabs(want));
    }
  std::printf("cuda stencil N=%dx%d %.4f ms %.1f GB/s %s\n", rows, cols, ms,
              2.0 * sizeof(float) * rows * double(cols) / (ms * 1e6),
              bad ? "WRONG" : "verified");
  return bad ? 1 : 0;
}
