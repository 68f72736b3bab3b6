// Benchmark: the Cilk Plus SLM matrix multiply of examples/cilk/matmul.cpp
// (its kernel, from examples/cilk/matmul_kernel.h: 64x64 supertiles of C,
// 64x16 / 16x64 supertiles of A and B in __thread_group_local memory copied
// with array notation, 4x4 register tiles per thread), started with _GFX_offload on host arrays
// shared with _GFX_share, as Intel's sample does. On a discrete GPU a task
// copies the shared arrays to the device when it first uses them and C back
// when it ends (the runtime's mirrors). The kernel time is measured as the
// difference between a task of 1+R multiplies and a task of one, divided
// by R; the time of a one-multiply task (copies included) is printed too.
// The CUDA twin is benchmarks/cuda/cilk_matmul.cu.
// Prints "cilk matmul N=<n> <ms> ms <gflops> GFLOP/s verified" (kernel) and
// a second line with the whole task.
// Usage: matmul_bench [repetitions=5]   (N is MATMUL_N, default 4096)
#ifndef MATMUL_N
#define MATMUL_N 4096
#endif
#include "../../examples/cilk/matmul_kernel.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

// Host code run as one task: the multiplies share the task's copies.
static void multiply_times(const float (*A)[N], const float (*B)[N], float (*C)[N], int times) {
  for (int t = 0; t < times; t++)
    matmul_slm(A, B, C);
}

static double task_ms(const float (*A)[N], const float (*B)[N], float (*C)[N], int times) {
  auto t0 = std::chrono::steady_clock::now();
  if (!_GFX_offload(multiply_times, A, B, C, times) || _GFX_wait() != GFX_SUCCESS) {
    fprintf(stderr, "offload failed (%d)\n", _GFX_get_last_error());
    exit(1);
  }
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

int main(int argc, char **argv) {
  const int reps = argc > 1 ? atoi(argv[1]) : 5;
  if (reps <= 0) {
    fprintf(stderr, "usage: matmul_bench [repetitions]\n");
    return 2;
  }
  std::vector<float> a((size_t)N * N), b((size_t)N * N), c((size_t)N * N);
  for (size_t i = 0; i < a.size(); i++) {
    a[i] = float(i % 17) * 0.25f - 2.0f;
    b[i] = float(i % 13) * 0.5f - 3.0f;
  }
  auto *A = reinterpret_cast<const float(*)[N]>(a.data());
  auto *B = reinterpret_cast<const float(*)[N]>(b.data());
  auto *C = reinterpret_cast<float(*)[N]>(c.data());
  const size_t bytes = a.size() * sizeof(float);
  _GFX_share(a.data(), bytes);
  _GFX_share(b.data(), bytes);
  _GFX_share(c.data(), bytes);
  task_ms(A, B, C, 1); // warm-up: builds the kernel for the device
  double one = 1e300, many = 1e300;
  for (int round = 0; round < 3; round++) {
    one = std::fmin(one, task_ms(A, B, C, 1));
    many = std::fmin(many, task_ms(A, B, C, 1 + reps));
  }
  double ms = (many - one) / reps;
  for (int i = 0; i < N; i += 61)
    for (int j = 0; j < N; j += 3) {
      double ref = 0;
      for (int k = 0; k < N; k++)
        ref += (double)a[(size_t)i * N + k] * b[(size_t)k * N + j];
      if (std::fabs(c[(size_t)i * N + j] - ref) > 1e-3 * (1 + std::fabs(ref))) {
        printf("cilk matmul N=%d: wrong at %d,%d: %f vs %f\n", N, i, j, c[(size_t)i * N + j], ref);
        return 1;
      }
    }
  printf("cilk matmul N=%d %.3f ms %.1f GFLOP/s verified\n", N, ms,
         2.0 * N * (double)N * N / (ms * 1e6));
  printf("  (one multiply as a task, copies included: %.3f ms)\n", one);
  return 0;
}
