// The histogram of benchmarks/sycl/histogram_bench.cpp written by hand in
// CUDA: blocks of 128, 64 zeroed __shared__ bins counted with atomicAdd,
// global atomicMin/atomicMax per thread, one global atomicAdd per bin and
// block, atomicCAS by each block's first thread; size_t indices as in the
// SYCL source. Device memory (malloc_device in the SYCL program), kernel
// time only after a warm-up.
// Prints one line: "cuda histogram N=<n> <ms> ms <G values/s> Gval/s verified".
// Usage: sycl_histogram [N=16777216] [repetitions=10]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define BINS 64u
#define WG 128

__global__ void histogram(const int *in, unsigned *bins, int *st) {
  __shared__ unsigned local_bins[BINS];
  const size_t lid = threadIdx.x;
  // group_local_memory<unsigned[BINS]> is value-initialised: zeroed, then a barrier.
  for (size_t b = lid; b < BINS; b += WG)
    local_bins[b] = 0;
  __syncthreads();

  const int v = in[size_t(blockIdx.x) * WG + lid];
  atomicAdd(&local_bins[unsigned(v) % BINS], 1u);
  atomicMin(&st[0], v);
  atomicMax(&st[1], v);
  __syncthreads();

  for (size_t b = lid; b < BINS; b += WG) {
    unsigned count = local_bins[b];
    if (count)
      atomicAdd(&bins[b], count);
  }
  if (lid == 0)
    atomicCAS(&st[2], -1, int(blockIdx.x));
}

static void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

int main(int argc, char **argv) {
  const size_t n = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : size_t(1) << 24;
  const int reps = argc > 2 ? std::atoi(argv[2]) : 10;
  if (n == 0 || n % WG != 0 || reps <= 0) {
    std::fprintf(stderr, "usage: sycl_histogram [N (multiple of %d)] [repetitions]\n", WG);
    return 2;
  }
  const size_t groups = n / WG;
  std::vector<int> input(n);
  for (size_t i = 0; i < n; ++i) input[i] = int((i * i * 31 + 7 * i) % 1000);
  std::vector<unsigned> expected(BINS, 0);
  int expected_min = 1 << 30, expected_max = -1;
  for (int v : input) {
    ++expected[unsigned(v) % BINS];
    expected_min = v < expected_min ? v : expected_min;
    expected_max = v > expected_max ? v : expected_max;
  }

  std::vector<unsigned> hist(BINS, 0);
  int stats[3] = {1 << 30, -1, -1}; // min, max, elected group
  int *in, *st;
  unsigned *bins;
  check(cudaMalloc(&in, n * sizeof(int)), "cudaMalloc");
  check(cudaMalloc(&bins, BINS * sizeof(unsigned)), "cudaMalloc");
  check(cudaMalloc(&st, sizeof(stats)), "cudaMalloc");
  check(cudaMemcpy(in, input.data(), n * sizeof(int), cudaMemcpyDefault), "copy");
  check(cudaMemset(bins, 0, BINS * sizeof(unsigned)), "memset");
  check(cudaMemcpy(st, stats, sizeof(stats), cudaMemcpyDefault), "copy");

  histogram<<<unsigned(groups), WG>>>(in, bins, st);
  check(cudaDeviceSynchronize(), "warm-up");
  auto t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < reps; ++r)
    histogram<<<unsigned(groups), WG>>>(in, bins, st);
  check(cudaDeviceSynchronize(), "kernels");
  auto t1 = std::chrono::steady_clock::now();
  double ms = std::chrono::duration<double, std::milli>(t1 - t0).count() / reps;
  check(cudaMemcpy(hist.data(), bins, BINS * sizeof(unsigned), cudaMemcpyDefault), "copy back");
  check(cudaMemcpy(stats, st, sizeof(stats), cudaMemcpyDefault), "copy back");

  int bad = 0;
  for (unsigned b = 0; b < BINS; ++b)
    bad += hist[b] != expected[b] * unsigned(reps + 1);
  bad += stats[0] != expected_min || stats[1] != expected_max;
  bad += stats[2] < 0 || size_t(stats[2]) >= groups;
  std::printf("cuda histogram N=%zu %.4f ms %.2f Gval/s %s\n", n, ms, double(n) / (ms * 1e6),
              bad ? "WRONG" : "verified");
  return bad ? 1 : 0;
}
