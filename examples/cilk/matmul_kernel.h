// The Cilk Plus SLM matrix multiply of matmul.cpp (and of
// benchmarks/cilk/matmul_bench.cpp), in the style of Intel's graphics-offload
// sample: a gfx_kernel function with a two-dimensional `_Cilk_for
// _Thread_group` nest, three __thread_group_local "supertiles", array-notation
// copies into SLM, a second-level nest of TILE_Y x TILE_X register tiles, and
// barriers between the phases. The matrices are MATMUL_N x MATMUL_N (define
// it before including this header; 256 by default).
#ifndef SLMC_EXAMPLES_CILK_MATMUL_KERNEL_H
#define SLMC_EXAMPLES_CILK_MATMUL_KERNEL_H

#include <gfx/gfx_intrin.h>
#include <gfx/gfx_rt.h>

#ifndef MATMUL_N
#define MATMUL_N 256
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
      // "supertiles" of each matrix, in SLM
      __thread_group_local float slm_atile[SLM_TILE_Y][SLM_TILE_K];
      __thread_group_local float slm_btile[SLM_TILE_K][SLM_TILE_X];
      __thread_group_local float slm_ctile[SLM_TILE_Y][SLM_TILE_X];

      // initialize the result supertile (in parallel)
      _Cilk_for (int i = 0; i < SLM_TILE_Y; i++)
        _Cilk_for (int j = 0; j < SLM_TILE_X; j++)
          slm_ctile[i][j] = 0.0f;

      // the dot product of A's supertile row and B's supertile column
      for (int super_k = 0; super_k < N; super_k += SLM_TILE_K) {
        // cache A's and B's supertiles in SLM (in parallel)
        slm_atile[:][:] = A[tg_y:SLM_TILE_Y][super_k:SLM_TILE_K];
        slm_btile[:][:] = B[super_k:SLM_TILE_K][tg_x:SLM_TILE_X];

        // all threads wait till the copy is done
        _gfx_gpgpu_thread_barrier();

        // multiply the supertiles as ordinary matrices, TILE_Y x TILE_X
        // elements per thread, accumulating in registers
        _Cilk_for (int t_y = 0; t_y < SLM_TILE_Y; t_y += TILE_Y)
          _Cilk_for (int t_x = 0; t_x < SLM_TILE_X; t_x += TILE_X) {
            float c[TILE_Y][TILE_X];
            c[:][:] = slm_ctile[t_y:TILE_Y][t_x:TILE_X];
            for (int k = 0; k < SLM_TILE_K; k++)
              for (int y = 0; y < TILE_Y; y++)
                c[y][:] += slm_atile[t_y + y][k] * slm_btile[k][t_x:TILE_X];
            slm_ctile[t_y:TILE_Y][t_x:TILE_X] = c[:][:];
          }

        // the supertiles are overwritten next
        _gfx_gpgpu_thread_barrier();
      }

      // write the result supertile back (in parallel)
      C[tg_y:SLM_TILE_Y][tg_x:SLM_TILE_X] = slm_ctile[:][:];
    }
}

#endif
