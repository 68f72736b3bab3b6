// The exclusive scan of benchmarks/amp/scan_bench.cpp written by hand in CUDA:
// blocks of 256 threads scanning 512 elements in __shared__ memory (Blelloch
// up- and down-sweeps, a barrier per level), block sums scanned recursively,
// then one add per element in blocks of 256 (the grid of a non-tiled
// C++ AMP kernel). Scratch arrays allocated before timing; managed memory,
// kernel time only after a warm-up.
// Prints one line: "cuda scan N=<n> <ms> ms <G elements/s> Gelem/s verified".
// Usage: scan [N=33554432] [repetitions=100]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define TS 256
#define BLOCK (2 * TS)

__global__ void scan_blocks(const int *input, int *output, int *sums, int n) {
  __shared__ int temp[BLOCK];
  const int tid = threadIdx.x;
  const int base = blockIdx.x * BLOCK;
  temp[2 * tid] = base + 2 * tid < n ? input[base + 2 * tid] : 0;
  temp[2 * tid + 1] = base + 2 * tid + 1 < n ? input[base + 2 * tid + 1] : 0;

  int offset = 1;
  for (int d = BLOCK / 2; d > 0; d /= 2) {
    __syncthreads();
    if (tid < d) {
      int ai = offset * (2 * tid + 1) - 1;
      int bi = offset * (2 * tid + 2) - 1;
      temp[bi] += temp[ai];
    }
    offset *= 2;
  }
  if (tid == 0) {
    sums[blockIdx.x] = temp[BLOCK - 1];
    temp[BLOCK - 1] = 0;
  }
  for (int d = 1; d < BLOCK; d *= 2) {
    offset /= 2;
    __syncthreads();
    if (tid < d) {
      int ai = offset * (2 * tid + 1) - 1;
      int bi = offset * (2 * tid + 2) - 1;
      int left = temp[ai];
      temp[ai] = temp[bi];
      temp[bi] += left;
    }
  }
  __syncthreads();
  if (base + 2 * tid < n) output[base + 2 * tid] = temp[2 * tid];
  if (base + 2 * tid + 1 < n) output[base + 2 * tid + 1] = temp[2 * tid + 1];
}

__global__ void add_offsets(int *output, const int *offsets, int n) {
  int i = blockIdx.x * 256 + threadIdx.x;
  if (i >= n) return;
  output[i] += offsets[i / BLOCK];
}

static void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

struct Scratch {
  std::vector<int *> sums, offsets;
  explicit Scratch(int n) {
    for (int blocks = (n + BLOCK - 1) / BLOCK;; blocks = (blocks + BLOCK - 1) / BLOCK) {
      int *s, *o;
      check(cudaMallocManaged(&s, blocks * sizeof(int)), "cudaMallocManaged");
      check(cudaMallocManaged(&o, blocks * sizeof(int)), "cudaMallocManaged");
      sums.push_back(s);
      offsets.push_back(o);
      if (blocks == 1) break;
    }
  }
};

static void scan_exclusive(const int *input, int *output, int n, Scratch &scratch,
                           int level = 0) {
  const int blocks = (n + BLOCK - 1) / BLOCK;
  scan_blocks<<<blocks, TS>>>(input, output, scratch.sums[level], n);
  if (blocks == 1)
    return;
  scan_exclusive(scratch.sums[level], scratch.offsets[level], blocks, scratch, level + 1);
  add_offsets<<<(n + 255) / 256, 256>>>(output, scratch.offsets[level], n);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 1 << 25;
  int reps = argc > 2 ? std::atoi(argv[2]) : 100;
  if (n <= 0 || reps <= 0) {
    std::fprintf(stderr, "usage: scan [N] [repetitions]\n");
    return 2;
  }
  std::vector<int> in(n), out(n, -1);
  for (int i = 0; i < n; ++i) in[i] = (i * 7 + 3) % 10;

  int *input, *output;
  check(cudaMallocManaged(&input, n * sizeof(int)), "cudaMallocManaged");
  check(cudaMallocManaged(&output, n * sizeof(int)), "cudaMallocManaged");
  check(cudaMemcpy(input, in.data(), n * sizeof(int), cudaMemcpyDefault), "copy");
  check(cudaMemcpy(output, out.data(), n * sizeof(int), cudaMemcpyDefault), "copy");
  Scratch scratch(n);

  scan_exclusive(input, output, n, scratch);
  check(cudaDeviceSynchronize(), "warm-up");
  auto t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < reps; ++r)
    scan_exclusive(input, output, n, scratch);
  check(cudaDeviceSynchronize(), "kernels");
  auto t1 = std::chrono::steady_clock::now();
  double ms = std::chrono::duration<double, std::milli>(t1 - t0).count() / reps;
  check(cudaMemcpy(out.data(), output, n * sizeof(int), cudaMemcpyDefault), "copy back");

  long bad = 0;
  long long running = 0;
  for (int i = 0; i < n; ++i) {
    bad += out[i] != running;
    running += in[i];
  }
  std::printf("cuda scan N=%d %.4f ms %.2f Gelem/s %s\n", n, ms, double(n) / (ms * 1e6),
              bad ? "WRONG" : "verified");
  return bad ? 1 : 0;
}
