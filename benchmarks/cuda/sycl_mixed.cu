// The kernel of benchmarks/sycl/mixed_bench.cpp written by hand in CUDA:
// blocks of 64, the input tile with its one-element halo in dynamic shared
// memory sized at launch (local_accessor memory is the launch's dynamic
// group-local memory), the block's statistics in a __shared__ struct that
// the first thread initialises before a barrier (group_local_memory made
// from constructor arguments: the leader constructs, a barrier publishes),
// atomicAdd / atomicMax on it, and the first thread writing them out;
// size_t indices as in the SYCL source. Managed memory (SYCL buffers are
// shared allocations), filled from the host data as the buffers are; kernel
// time only after a warm-up.
// Prints one line: "cuda mixed N=<n> <ms> ms <GB/s> GB/s verified".
// Usage: sycl_mixed [N=67108864] [repetitions=100]
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define WG 64
#define THRESHOLD 0.5f

struct group_stats {
  unsigned above; // outputs above the threshold
  int max_scaled; // largest output * 1000, rounded down
};

__global__ void mixed(const float *in, float *out, unsigned *count_out, int *max_out,
                      size_t n) {
  extern __shared__ float tile[]; // WG + 2 floats
  __shared__ group_stats stats;
  const size_t i = size_t(blockIdx.x) * WG + threadIdx.x, l = threadIdx.x;
  if (l == 0) {
    stats.above = 0u;
    stats.max_scaled = 0;
  }
  __syncthreads();

  // The tile, with the neighbours of the group's first and last item.
  tile[l + 1] = in[i];
  if (l == 0)
    tile[0] = i > 0 ? in[i - 1] : in[i];
  if (l == WG - 1)
    tile[WG + 1] = i + 1 < n ? in[i + 1] : in[i];
  __syncthreads();

  const float v = (tile[l] + tile[l + 1] + tile[l + 2]) / 3.0f;
  out[i] = v;
  if (v > THRESHOLD)
    atomicAdd(&stats.above, 1u);
  atomicMax(&stats.max_scaled, int(v * 1000.0f));
  __syncthreads();

  if (l == 0) {
    count_out[blockIdx.x] = stats.above;
    max_out[blockIdx.x] = stats.max_scaled;
  }
}

static void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

int main(int argc, char **argv) {
  const size_t n = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : size_t(1) << 26;
  const int reps = argc > 2 ? std::atoi(argv[2]) : 100;
  if (n == 0 || n % WG != 0 || reps <= 0) {
    std::fprintf(stderr, "usage: sycl_mixed [N (multiple of %d)] [repetitions]\n", WG);
    return 2;
  }
  const size_t groups = n / WG;
  std::vector<float> x(n), y(n, -1.0f);
  for (size_t i = 0; i < n; ++i) x[i] = float((i * 37) % 101) / 100.0f;
  std::vector<unsigned> above(groups, 0);
  std::vector<int> maxima(groups, 0);

  float *in, *out;
  unsigned *count_out;
  int *max_out;
  check(cudaMallocManaged(&in, n * sizeof(float)), "cudaMallocManaged");
  check(cudaMallocManaged(&out, n * sizeof(float)), "cudaMallocManaged");
  check(cudaMallocManaged(&count_out, groups * sizeof(unsigned)), "cudaMallocManaged");
  check(cudaMallocManaged(&max_out, groups * sizeof(int)), "cudaMallocManaged");
  check(cudaMemcpy(in, x.data(), n * sizeof(float), cudaMemcpyDefault), "copy");
  check(cudaMemcpy(out, y.data(), n * sizeof(float), cudaMemcpyDefault), "copy");
  check(cudaMemcpy(count_out, above.data(), groups * sizeof(unsigned), cudaMemcpyDefault),
        "copy");
  check(cudaMemcpy(max_out, maxima.data(), groups * sizeof(int), cudaMemcpyDefault), "copy");

  const size_t dynamic = (WG + 2) * sizeof(float);
  mixed<<<unsigned(groups), WG, dynamic>>>(in, out, count_out, max_out, n);
  check(cudaDeviceSynchronize(), "warm-up");
  auto t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < reps; ++r)
    mixed<<<unsigned(groups), WG, dynamic>>>(in, out, count_out, max_out, n);
  check(cudaDeviceSynchronize(), "kernels");
  auto t1 = std::chrono::steady_clock::now();
  double ms = std::chrono::duration<double, std::milli>(t1 - t0).count() / reps;
  check(cudaMemcpy(y.data(), out, n * sizeof(float), cudaMemcpyDefault), "copy back");
  check(cudaMemcpy(above.data(), count_out, groups * sizeof(unsigned), cudaMemcpyDefault),
        "copy back");
  check(cudaMemcpy(maxima.data(), max_out, groups * sizeof(int), cudaMemcpyDefault),
        "copy back");

  size_t bad = 0;
  for (size_t g = 0; g < groups; ++g) {
    unsigned want_above = 0;
    int want_max = 0;
    for (size_t l = 0; l < WG; ++l) {
      size_t i = g * WG + l;
      float left = i > 0 ? x[i - 1] : x[i], right = i + 1 < n ? x[i + 1] : x[i];
      float v = (left + x[i] + right) / 3.0f;
      bad += std::fabs(v - y[i]) > 1e-6f;
      want_above += v > THRESHOLD;
      int s = int(v * 1000.0f);
      want_max = s > want_max ? s : want_max;
    }
    bad += above[g] != want_above || maxima[g] != want_max;
  }
  const double bytes = 2.0 * sizeof(float) * double(n) + 8.0 * double(groups);
  std::printf("cuda mixed N=%zu %.4f ms %.1f GB/s %s\n", n, ms, bytes / (ms * 1e6),
              bad ? "WRONG" : "verified");
  return bad ? 1 : 0;
}
