// The reduction of benchmarks/sycl/reduction_bench.cpp written by hand in
// CUDA: blocks of 256 summing long longs in a __shared__ tree (a barrier
// before each level), one partial sum per block, then one block folding the
// partial sums into a zeroed __shared__ array. Index arithmetic in size_t as
// in the SYCL source. Device memory for the input, managed memory for the
// partial sums and the total (malloc_device / malloc_shared in the SYCL
// program); kernel time only after a warm-up.
// Prints one line: "cuda reduction N=<n> <ms> ms <GB/s> GB/s verified", and
// the same time as "cuda builtin-reduction ...": the SYCL benchmark's
// sycl::reduction of the same sum is held against this hand-written CUDA.
// Usage: sycl_reduction [N=33554432] [repetitions=100]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define WG 256

__global__ void partial_sums(const int *data, long long *partial) {
  __shared__ long long s[WG];
  const size_t lid = threadIdx.x;
  s[lid] = data[size_t(blockIdx.x) * WG + lid];
  for (size_t stride = WG / 2; stride > 0; stride /= 2) {
    __syncthreads();
    if (lid < stride)
      s[lid] += s[lid + stride];
  }
  if (lid == 0)
    partial[blockIdx.x] = s[0];
}

__global__ void fold(const long long *partial, long long *total, size_t groups) {
  __shared__ long long s[WG];
  const size_t lid = threadIdx.x;
  s[lid] = 0; // group_local_memory<long long[WG]> is value-initialised
  __syncthreads();
  for (size_t g = lid; g < groups; g += WG)
    s[lid] += partial[g];
  for (size_t stride = WG / 2; stride > 0; stride /= 2) {
    __syncthreads();
    if (lid < stride)
      s[lid] += s[lid + stride];
  }
  if (lid == 0)
    *total = s[0];
}

static void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

int main(int argc, char **argv) {
  const size_t n = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : size_t(1) << 25;
  const int reps = argc > 2 ? std::atoi(argv[2]) : 100;
  if (n == 0 || n % WG != 0 || reps <= 0) {
    std::fprintf(stderr, "usage: sycl_reduction [N (multiple of %d)] [repetitions]\n", WG);
    return 2;
  }
  const size_t groups = n / WG;
  std::vector<int> host(n);
  long long expected = 0;
  for (size_t i = 0; i < n; ++i) {
    host[i] = int((i * 7919) % 1000) - 300;
    expected += host[i];
  }

  int *data;
  long long *partial, *total;
  check(cudaMalloc(&data, n * sizeof(int)), "cudaMalloc");
  check(cudaMallocManaged(&partial, groups * sizeof(long long)), "cudaMallocManaged");
  check(cudaMallocManaged(&total, sizeof(long long)), "cudaMallocManaged");
  check(cudaMemcpy(data, host.data(), n * sizeof(int), cudaMemcpyDefault), "copy");

  auto run = [&] {
    partial_sums<<<unsigned(groups), WG>>>(data, partial);
    fold<<<1, WG>>>(partial, total, groups);
  };
  run();
  check(cudaDeviceSynchronize(), "warm-up");
  auto t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < reps; ++r)
    run();
  check(cudaDeviceSynchronize(), "kernels");
  auto t1 = std::chrono::steady_clock::now();
  double ms = std::chrono::duration<double, std::milli>(t1 - t0).count() / reps;
  long long result = *total;

  bool ok = result == expected;
  for (const char *name : {"reduction", "builtin-reduction"})
    std::printf("cuda %s N=%zu %.4f ms %.1f GB/s %s\n", name, n, ms,
                sizeof(int) * double(n) / (ms * 1e6), ok ? "verified" : "WRONG");
  return ok ? 0 : 1;
}
