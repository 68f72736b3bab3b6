// Benchmark: the Cilk Plus SLM matrix multiply of examples/cilk/matmul.cpp
// (the same kernel: 64x64 supertiles of C, 64x16 / 16x64 supertiles of A
// and B in __thread_group_local memory copied with array notation, 4x4
// register tiles per thread), started with _GFX_offload on host arrays
// shared with _GFX_share, as Intel's sample does. On a discrete GPU a task
// copies the shared arrays to the device when it first uses them and C back
// when it ends (the runtime's mirrors). The kernel time is measured as the
// difference between a task of 1+R multiplies and a task of one, divided
// by R; the time of a one-multiply task (copies included) is printed too.
// The CUDA twin is benchmarks/cuda/cilk_matmul.cu.
// Prints "cilk matmul N=<n> <ms> ms <gflops> GFLOP/s verified" (kernel) and
// a second line with the whole task.
// Usage: matmul_bench [repetitions=5]   (N is MATMUL_N, default 4096)
// The kernel is a copy of the example's: array notation is rewritten only in
// the file slmc++ compiles, not in included files, so it cannot be shared
// through a header.
#include <gfx/gfx_intrin.h>
#include <gfx/gfx_rt.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#ifndef MATMUL_N
#define MATMUL_N 4096
#endif
#define N MATMUL_N
#define SLM_TILE_Y 64
#define SLM_TILE_X 64
#define SLM_TILE_K 16
#define TILE_Y 4
#define TILE_X 4

__declspec(target(gfx_kernel)) void matmul_slm(const float (*A)[N], const float (*B)[N],
                                               float (*C)[N]) {
  _Cilk_for _Thread_group (int tg_y = 0; tg_y < N; tg_y += SLM_TILE_Y)
    _Cilk_for _Thread_group (int tg_x = 0; tg_x < N; tg_x += SLM_TILE_X) {
      __thread_group_local float slm_atile[SLM_TILE_Y][SLM_TILE_K];
      __thread_group_local float slm_btile[SLM_TILE_K][SLM_TILE_X];
      __thread_group_local float slm_ctile[SLM_TILE_Y][SLM_TILE_X];
      _Cilk_for (int i = 0; i < SLM_TILE_Y; i++)
        _Cilk_for (int j = 0; j < SLM_TILE_X; j++)
          slm_ctile[i][j] = 0.0f;
      for (int super_k = 0; super_k < N; super_k += SLM_TILE_K) {
        slm_atile[:][:] = A[tg_y:SLM_TILE_Y][super_k:SLM_TILE_K];
        slm_btile[:][:] = B[super_k:SLM_TILE_K][tg_x:SLM_TILE_X];
        _gfx_gpgpu_thread_barrier();
        _Cilk_for (int t_y = 0; t_y < SLM_TILE_Y; t_y += TILE_Y)
          _Cilk_for (int t_x = 0; t_x < SLM_TILE_X; t_x += TILE_X) {
            float c[TILE_Y][TILE_X];
            c[:][:] = slm_ctile[t_y:TILE_Y][t_x:TILE_X];
            for (int k = 0; k < SLM_TILE_K; k++)
              for (int y = 0; y < TILE_Y; y++)
                c[y][:] += slm_atile[t_y + y][k] * slm_btile[k][t_x:TILE_X];
            slm_ctile[t_y:TILE_Y][t_x:TILE_X] = c[:][:];
          }
        _gfx_gpgpu_thread_barrier();
      }
      C[tg_y:SLM_TILE_Y][tg_x:SLM_TILE_X] = slm_ctile[:][:];
    }
}

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
