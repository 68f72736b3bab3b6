// The SYCL and Cilk Plus rows of benchmarks/cpu: each dialect's example
// kernel, in its own source built by slmc++ (sycl_kernels.cpp,
// cilk_kernels.cpp), run on the CPU fallback. Each returns the best time in
// ms of `reps` runs after a warm-up (submission and wait included, host
// memory used in place).
#ifndef SLMC_BENCHMARKS_CPU_DIALECT_KERNELS_H
#define SLMC_BENCHMARKS_CPU_DIALECT_KERNELS_H

namespace dialects {

/// examples/sycl/matmul_kernel.h: c = a * b, n x n (n a multiple of 16).
double sycl_matmul(const float *a, const float *b, float *c, int n, int reps);

/// examples/cilk/matmul_kernel.h (Intel's SLM matrix multiply sample),
/// started with _GFX_offload on shared host arrays. Its size is fixed when
/// it is compiled: cilk_matmul_n.
extern const int cilk_matmul_n;
double cilk_matmul(const float *a, const float *b, float *c, int reps);

} // namespace dialects

#endif
