// The two reductions of benchmarks/amp/reduction_bench.cpp written by hand in
// CUDA: the multi-pass tree (blocks of 256, a __shared__ tree per block; the
// first pass reads the input, later passes ping-pong between two scratch
// arrays) and the cascade (64 blocks of 512 striding over the input, then one
// block of 64). Managed memory filled as slmc's C++ AMP arrays are, kernel
// time only after a warm-up.
// Prints two lines: "cuda reduction-tree N=<n> <ms> ms <GB/s> GB/s verified"
// and the same for reduction-cascade.
// Usage: reduction [N=33554432] [repetitions=200]
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define TREE_TILE 256
#define CASCADE_TILE 512
#define CASCADE_TILES 64

__global__ void tree_pass(const float *in, float *out, int len) {
  __shared__ float sums[TREE_TILE];
  int tid = threadIdx.x;
  int gid = blockIdx.x * TREE_TILE + tid;
  sums[tid] = gid < len ? in[gid] : 0.0f;
  __syncthreads();
  for (int stride = TREE_TILE / 2; stride > 0; stride /= 2) {
    if (tid < stride)
      sums[tid] += sums[tid + stride];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sums[0];
}

__global__ void cascade(const float *in, float *partial, int n) {
  __shared__ float sums[CASCADE_TILE];
  int tid = threadIdx.x;
  float sum = 0.0f;
  for (int i = blockIdx.x * CASCADE_TILE + tid; i < n; i += CASCADE_TILES * CASCADE_TILE)
    sum += in[i];
  sums[tid] = sum;
  __syncthreads();
  for (int stride = CASCADE_TILE / 2; stride > 0; stride /= 2) {
    if (tid < stride)
      sums[tid] += sums[tid + stride];
    __syncthreads();
  }
  if (tid == 0)
    partial[blockIdx.x] = sums[0];
}

__global__ void cascade_final(const float *partial, float *total) {
  __shared__ float sums[CASCADE_TILES];
  int tid = threadIdx.x;
  sums[tid] = partial[tid];
  __syncthreads();
  for (int stride = CASCADE_TILES / 2; stride > 0; stride /= 2) {
    if (tid < stride)
      sums[tid] += sums[tid + stride];
    __syncthreads();
  }
  if (tid == 0)
    total[0] = sums[0];
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

// All passes of the tree; returns the array whose element 0 holds the sum.
static const float *reduce_tree(const float *data, float *b, float *c, int n) {
  const float *src = data;
  float *dst = b;
  while (n > 1) {
    int partials = (n + TREE_TILE - 1) / TREE_TILE;
    tree_pass<<<partials, TREE_TILE>>>(src, dst, n);
    n = partials;
    src = dst;
    dst = dst == b ? c : b;
  }
  return src;
}

template <class F> static double time_ms(int reps, F run) {
  run(); // warm-up
  check(cudaDeviceSynchronize(), "warm-up");
  auto t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < reps; ++r)
    run();
  check(cudaDeviceSynchronize(), "kernels");
  auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::milli>(t1 - t0).count() / reps;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 1 << 25;
  int reps = argc > 2 ? std::atoi(argv[2]) : 200;
  if (n <= 1 || reps <= 0) {
    std::fprintf(stderr, "usage: reduction [N > 1] [repetitions]\n");
    return 2;
  }
  std::vector<float> data(n);
  double ref = 0.0;
  for (int i = 0; i < n; ++i) {
    data[i] = float((i * 37) % 101) * 0.125f - 6.0f;
    ref += data[i];
  }
  double tol = 1e-6 * std::sqrt(double(n)) * (1.0 + std::fabs(ref)) + 1e-3;
  int status = 0;

  // The tree reads an array (a), the cascade an array_view of the host data (in).
  float *a, *b, *c, *in, *partial, *total;
  int partials = (n + TREE_TILE - 1) / TREE_TILE;
  check(cudaMallocManaged(&a, n * sizeof(float)), "cudaMallocManaged");
  check(cudaMallocManaged(&b, partials * sizeof(float)), "cudaMallocManaged");
  check(cudaMallocManaged(&c, partials * sizeof(float)), "cudaMallocManaged");
  check(cudaMallocManaged(&in, n * sizeof(float)), "cudaMallocManaged");
  check(cudaMallocManaged(&partial, CASCADE_TILES * sizeof(float)), "cudaMallocManaged");
  check(cudaMallocManaged(&total, sizeof(float)), "cudaMallocManaged");
  fill_like_amp_array(a, data.data(), n * sizeof(float));
  check(cudaMemset(b, 0, partials * sizeof(float)), "memset");
  check(cudaMemset(c, 0, partials * sizeof(float)), "memset");
  check(cudaMemcpy(in, data.data(), n * sizeof(float), cudaMemcpyDefault), "copy");
  check(cudaMemset(partial, 0, CASCADE_TILES * sizeof(float)), "memset");
  check(cudaMemset(total, 0, sizeof(float)), "memset");

  const float *result = nullptr;
  double ms = time_ms(reps, [&] { result = reduce_tree(a, b, c, n); });
  float sum;
  check(cudaMemcpy(&sum, result, sizeof(float), cudaMemcpyDefault), "copy back");
  bool ok = std::fabs(sum - ref) <= tol;
  std::printf("cuda reduction-tree N=%d %.4f ms %.1f GB/s %s\n", n, ms,
              sizeof(float) * double(n) / (ms * 1e6), ok ? "verified" : "WRONG");
  status |= !ok;

  ms = time_ms(reps, [&] {
    cascade<<<CASCADE_TILES, CASCADE_TILE>>>(in, partial, n);
    cascade_final<<<1, CASCADE_TILES>>>(partial, total);
  });
  check(cudaMemcpy(&sum, total, sizeof(float), cudaMemcpyDefault), "copy back");
  ok = std::fabs(sum - ref) <= tol;
  std::printf("cuda reduction-cascade N=%d %.4f ms %.1f GB/s %s\n", n, ms,
              sizeof(float) * double(n) / (ms * 1e6), ok ? "verified" : "WRONG");
  status |= !ok;
  return status;
}
