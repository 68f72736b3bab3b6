// The OpenCL C twins of the benchmark kernels (benchmarks/intel/*.cl, the
// same tiles, types and algorithms as the C++ AMP examples) run on an OpenCL
// CPU device, PoCL in practice, for the CPU table's PoCL column. Built by
// the host compiler against the OpenCL ICD loader; every function returns
// the best time in ms of `reps` runs after a warm-up, kernels only (buffers
// use the host's memory), or a negative number when no CPU device is there.
#ifndef SLMC_BENCHMARKS_CPU_OPENCL_TWINS_H
#define SLMC_BENCHMARKS_CPU_OPENCL_TWINS_H

#include <string>

namespace ocl {

/// Finds an OpenCL CPU device and builds the twins from `cl_dir`. False
/// (with the reason in `why`) when there is none or a build fails.
bool init(const std::string &cl_dir, int reps, std::string &device,
          std::string &why);

double matmul(const float *a, const float *b, float *c, int n);
double transpose(const float *in, float *out, int rows, int cols);
double reduce_cascade(const float *in, int n, float &sum);
double reduce_tree(const float *in, int n, float &sum);
double stencil(const float *grid, float *result, int rows, int cols,
               int sweeps);
double scan(const int *in, int *out, int n);
double histogram(const unsigned *words, int count, unsigned *bins);
double sycl_matmul(const float *a, const float *b, float *c, int n);
double cilk_matmul(const float *a, const float *b, float *c, int n);
double cm_nbody(const float *pos, const float *vel, float *new_pos, float *new_vel, int n,
                int group, float delta_time, float damping, float softening_squared);

} // namespace ocl

#endif
