// The kernel of benchmarks/sycl/spec_example_bench.cpp written by hand in
// CUDA: blocks of 32, one __shared__ int[64] per block, zeroed by the block
// (group_local_memory<int[64]> is value-initialised: each work-item clears a
// strided part, then a barrier), 42 written to element 2*i, a barrier, then
// each thread copies its two elements out; size_t indices as in the SYCL
// source. Managed memory (SYCL buffers are shared allocations), filled from
// the host data as the buffer is; kernel time only after a warm-up.
// Prints one line: "cuda spec_example N=<groups> <ms> ms <GB/s> GB/s verified".
// Usage: sycl_spec_example [groups=2097152] [repetitions=100]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define GROUP_SIZE 32
#define ELEMS 64

__global__ void spec_example(int *result) {
  __shared__ int ref[ELEMS];
  const size_t lid = threadIdx.x;
  for (size_t k = lid; k < ELEMS; k += GROUP_SIZE)
    ref[k] = 0;
  __syncthreads();
  ref[2 * lid] = 42;

  __syncthreads();
  size_t base = size_t(blockIdx.x) * ELEMS;
  size_t i = lid;
  result[base + 2 * i] = ref[2 * i];
  result[base + 2 * i + 1] = ref[2 * i + 1];
}

static void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

int main(int argc, char **argv) {
  const size_t groups = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : size_t(1) << 21;
  const int reps = argc > 2 ? std::atoi(argv[2]) : 100;
  if (groups == 0 || reps <= 0) {
    std::fprintf(stderr, "usage: sycl_spec_example [groups] [repetitions]\n");
    return 2;
  }
  std::vector<int> out(groups * ELEMS, -1);
  const size_t bytes = out.size() * sizeof(int);
  int *result;
  check(cudaMallocManaged(&result, bytes), "cudaMallocManaged");
  check(cudaMemcpy(result, out.data(), bytes, cudaMemcpyDefault), "copy");

  spec_example<<<unsigned(groups), GROUP_SIZE>>>(result);
  check(cudaDeviceSynchronize(), "warm-up");
  auto t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < reps; ++r)
    spec_example<<<unsigned(groups), GROUP_SIZE>>>(result);
  check(cudaDeviceSynchronize(), "kernels");
  auto t1 = std::chrono::steady_clock::now();
  double ms = std::chrono::duration<double, std::milli>(t1 - t0).count() / reps;
  check(cudaMemcpy(out.data(), result, bytes, cudaMemcpyDefault), "copy back");

  size_t bad = 0;
  for (size_t k = 0; k < out.size(); ++k)
    bad += out[k] != (k % 2 == 0 ? 42 : 0);
  std::printf("cuda spec_example N=%zu %.4f ms %.1f GB/s %s\n", groups, ms,
              sizeof(int) * double(out.size()) / (ms * 1e6), bad ? "WRONG" : "verified");
  return bad ? 1 : 0;
}
