// The SYCL, Cilk Plus and C for Metal rows of benchmarks/cpu: each dialect's
// example kernel, in its own source built by slmc++ (sycl_kernels.cpp,
// cilk_kernels.cpp, cm_kernels.cpp), run on the CPU fallback. Each returns the best time in
// ms of `reps` runs after a warm-up (submission and wait included, host
// memory used in place).
#ifndef SLMC_BENCHMARKS_CPU_DIALECT_KERNELS_H
#define SLMC_BENCHMARKS_CPU_DIALECT_KERNELS_H

#include <vector>

namespace dialects {

/// examples/sycl/matmul_kernel.h: c = a * b, n x n (n a multiple of 16).
double sycl_matmul(const float *a, const float *b, float *c, int n, int reps);

/// examples/cilk/matmul_kernel.h (Intel's SLM matrix multiply sample),
/// started with _GFX_offload on shared host arrays. Its size is fixed when
/// it is compiled: cilk_matmul_n.
extern const int cilk_matmul_n;
double cilk_matmul(const float *a, const float *b, float *c, int reps);

/// examples/cm/nbody_genx.cpp, one step of `bodies` bodies in thread groups
/// of `group_threads` threads, through the example's host code
/// (examples/cm/nbody_host.h) with the kernel program at `isa`. `pos` and
/// `vel` receive the example's bodies, `new_pos`/`new_vel` the step; the
/// constants of the step go to delta_time, damping and softening_squared.
struct cm_nbody_result {
  double ms = -1;
  std::vector<float> pos, vel, new_pos, new_vel;
  float delta_time = 0, damping = 0, softening_squared = 0;
};
cm_nbody_result cm_nbody(const char *isa, int bodies, int group_threads, int reps);

} // namespace dialects

#endif
