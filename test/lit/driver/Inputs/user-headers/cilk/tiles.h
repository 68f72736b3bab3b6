// Cilk Plus graphics offload code in a user header: a target(gfx) helper
// and a gfx_kernel function with a thread-group nest, __thread_group_local
// data and a barrier.
#pragma once
#include <gfx/gfx_intrin.h>

__declspec(target(gfx)) inline float twice(float x) { return 2 * x; }

#define TILE 64

// Reverses each TILE-element tile of `a` (n a multiple of TILE) and doubles it.
__declspec(target(gfx_kernel)) void reverse_tiles(float *a, int n) {
  _Cilk_for _Thread_group (int t = 0; t < n / TILE; t++) {
    __thread_group_local float buf[TILE];
    _Cilk_for (int i = 0; i < TILE; i++)
      buf[i] = a[t * TILE + i];
    _gfx_gpgpu_thread_barrier();
    _Cilk_for (int i = 0; i < TILE; i++)
      a[t * TILE + i] = twice(buf[TILE - 1 - i]);
  }
}
