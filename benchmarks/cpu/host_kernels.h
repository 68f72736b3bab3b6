// Serial and OpenMP versions of the algorithms of examples/amp, for the CPU
// benchmark (cpu_bench.cpp). Built by the system compiler with -fopenmp into
// an object that the slmc++-built benchmark links.
#ifndef SLMC_BENCH_HOST_KERNELS_H
#define SLMC_BENCH_HOST_KERNELS_H

#include <cstddef>

namespace host {

/// Threads an OpenMP parallel region uses.
int omp_threads();

// C = A * B, all n x n, row-major.
void matmul_serial(const float *a, const float *b, float *c, int n);
void matmul_omp(const float *a, const float *b, float *c, int n);

// out (cols x rows) = transpose of in (rows x cols), in cache blocks.
void transpose_serial(const float *in, float *out, int rows, int cols);
void transpose_omp(const float *in, float *out, int rows, int cols);

// Sum of n floats.
float reduce_serial(const float *v, int n);
float reduce_omp(const float *v, int n);

// One Jacobi sweep of the five-point stencil; the boundary is copied.
void stencil_serial(const float *in, float *out, int rows, int cols);
void stencil_omp(const float *in, float *out, int rows, int cols);

// Exclusive prefix sum of n ints.
void scan_serial(const int *in, int *out, int n);
void scan_omp(const int *in, int *out, int n);

// 256-bin histogram of the bytes of `words` packed unsigned ints.
void histogram_serial(const unsigned *packed, int words, unsigned *bins);
void histogram_omp(const unsigned *packed, int words, unsigned *bins);

// One N-body step of n bodies (float4 each: x, y, z, mass; velocities vx,
// vy, vz, 0), as the C for Metal example computes it: every body pulls on
// every other, softened.
struct nbody_params {
  float delta_time, damping, softening_squared;
};
void nbody_serial(const float *pos, const float *vel, float *new_pos, float *new_vel, int n,
                  nbody_params p);
void nbody_omp(const float *pos, const float *vel, float *new_pos, float *new_vel, int n,
               nbody_params p);

} // namespace host

#endif
