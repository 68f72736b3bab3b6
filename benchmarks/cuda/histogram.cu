// The 256-bin byte histogram of benchmarks/amp/histogram_bench.cpp written by
// hand in CUDA: 64 blocks of 256 threads striding over words of four bytes,
// atomicAdd on a __shared__ histogram, one global atomicAdd per bin and
// block, bins accumulating over the launches. Managed memory, kernel time
// only after a warm-up.
// Prints one line: "cuda histogram N=<bytes> <ms> ms <GB/s> GB/s verified".
// Usage: histogram [bytes=134217728] [repetitions=50]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define BINS 256
#define TS 256
#define TILES 64

__global__ void histogram(const unsigned *data, unsigned *global_hist, int words) {
  __shared__ unsigned local_hist[BINS];
  const int tid = threadIdx.x;
  local_hist[tid] = 0;
  __syncthreads();

  for (int i = blockIdx.x * TS + tid; i < words; i += TILES * TS) {
    unsigned w = data[i];
    atomicAdd(&local_hist[w & 0xFF], 1u);
    atomicAdd(&local_hist[(w >> 8) & 0xFF], 1u);
    atomicAdd(&local_hist[(w >> 16) & 0xFF], 1u);
    atomicAdd(&local_hist[w >> 24], 1u);
  }
  __syncthreads();

  if (local_hist[tid] != 0)
    atomicAdd(&global_hist[tid], local_hist[tid]);
}

static void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

int main(int argc, char **argv) {
  int bytes = argc > 1 ? std::atoi(argv[1]) : 1 << 27;
  int reps = argc > 2 ? std::atoi(argv[2]) : 50;
  if (bytes <= 0 || bytes % 4 != 0 || reps <= 0) {
    std::fprintf(stderr, "usage: histogram [bytes (multiple of 4)] [repetitions]\n");
    return 2;
  }
  int words = bytes / 4;
  std::vector<unsigned> packed(words);
  std::vector<unsigned> ref(BINS, 0), hist(BINS, 0);
  unsigned seed = 2024;
  for (int i = 0; i < words; ++i) {
    unsigned w = 0;
    for (int k = 0; k < 4; ++k) {
      seed = seed * 1103515245u + 12345u;
      unsigned b = (((seed >> 16) & 0xFF) + ((seed >> 24) & 0xFF)) / 2;
      w |= b << (8 * k);
      ++ref[b];
    }
    packed[i] = w;
  }

  unsigned *data, *bins;
  check(cudaMallocManaged(&data, words * sizeof(unsigned)), "cudaMallocManaged");
  check(cudaMallocManaged(&bins, BINS * sizeof(unsigned)), "cudaMallocManaged");
  check(cudaMemcpy(data, packed.data(), words * sizeof(unsigned), cudaMemcpyDefault), "copy");
  check(cudaMemset(bins, 0, BINS * sizeof(unsigned)), "memset");

  histogram<<<TILES, TS>>>(data, bins, words);
  check(cudaDeviceSynchronize(), "warm-up");
  auto t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < reps; ++r)
    histogram<<<TILES, TS>>>(data, bins, words);
  check(cudaDeviceSynchronize(), "kernels");
  auto t1 = std::chrono::steady_clock::now();
  double ms = std::chrono::duration<double, std::milli>(t1 - t0).count() / reps;
  check(cudaMemcpy(hist.data(), bins, BINS * sizeof(unsigned), cudaMemcpyDefault), "copy back");

  int bad = 0;
  for (int b = 0; b < BINS; ++b)
    bad += hist[b] != ref[b] * unsigned(reps + 1);
  std::printf("cuda histogram N=%d %.4f ms %.1f GB/s %s\n", bytes, ms,
              double(bytes) / (ms * 1e6), bad ? "WRONG" : "verified");
  return bad ? 1 : 0;
}
