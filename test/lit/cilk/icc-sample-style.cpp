// A program in the style of Intel's Cilk Plus graphics samples (ICC 15-18):
// the barrier of the offloaded nest exists only under `#ifdef __GFX__` and
// is spelled without including <gfx/gfx_intrin.h>; memory comes from
// _mm_malloc (through _aligned_malloc) with only <memory.h> and gfx_rt.h
// included; _Cilk_spawn/_Cilk_sync share work with the host; a
// `_Cilk_for _Simd` under `#pragma offload ... if(...) pin(...)` calls a
// SIMD-enabled function;
// __INTEL_OFFLOAD tells an offload build. slmc defines __GFX__ in offloaded
// code (device code and the CPU fallback's kernels; gfx-macro.cpp has the
// host side) and declares the _gfx_ intrinsics, so the barrier is there on
// every backend.
// RUN: %slmcxx -O2 %s -o %t
// RUN: %t | FileCheck %s
// CHECK: offload build: 1, wrong: 0: PASSED
// ICC's GFX_CPU_BACKUP=0: offloaded work must not run on the CPU.
// RUN: env GFX_CPU_BACKUP=1 %t | FileCheck %s
// RUN: not env GFX_CPU_BACKUP=0 %t 2>&1 | FileCheck %s --check-prefix=NOBACKUP
// NOBACKUP: slmc: offload of the loop nest at icc-sample-style.cpp:{{[0-9]+}} failed (no graphics device: the CPU fallback is in use) and GFX_CPU_BACKUP=0 forbids running it on the CPU
// NOBACKUP-NOT: PASSED
// RUN: %clangxx %plugin -fsyntax-only %s
// RUN: %slmcxx --emit=spirv %s -o %t.spv
// RUN: %spirv-val %t.spv
// RUN: %spirv-dis %t.spv | FileCheck %s --check-prefix=SPIRV
// SPIRV: OpControlBarrier
// RUN: %slmcxx --emit=ptx %s -o - | FileCheck %s --check-prefix=PTX
// PTX: barrier.sync
// RUN: %slmcxx -E -dD %s | FileCheck %s --check-prefix=PP
// PP: #define __GFX__ 1
// PP: #define BARRIER _gfx_gpgpu_thread_barrier()
// PP-NOT: #define BARRIER{{$}}
// A source without Cilk Plus offload is left alone.
// RUN: %slmcxx -E -dM -x c++ %examples/amp/matmul.cpp | FileCheck %s --check-prefix=AMP
// AMP-NOT: __GFX__
// AMP-NOT: __INTEL_OFFLOAD
#include <memory.h>
#include <stdio.h>
#include "gfx/gfx_rt.h"
#include "cilk/cilk.h"

#ifdef __GFX__
#define BARRIER _gfx_gpgpu_thread_barrier()
#else
#define BARRIER
#endif

#define _aligned_malloc _mm_malloc
#define _aligned_free _mm_free

#define TILE 64

__declspec(target(gfx_kernel)) void reverse_tiles(int *data, int tiles) {
  _Cilk_for _Thread_group (int t = 0; t < tiles; t++) {
    __thread_group_local int tile[TILE];
    _Cilk_for (int i = 0; i < TILE; i++)
      tile[i] = data[t * TILE + i];
    BARRIER;
    _Cilk_for (int i = 0; i < TILE; i++)
      data[t * TILE + i] = tile[TILE - 1 - i];
  }
}

// A SIMD-enabled function, vector only where ICC's offload compilation
// saw it.
#ifdef __GFX__
__declspec(vector(linear(i), uniform(v)))
#endif
__declspec(target(gfx)) int plus_one(const int *v, int i) { return v[i] + 1; }

static void host_part(int *v, int n) {
  for (int i = 0; i < n; i++)
    v[i] += 1;
}

int main() {
  const int tiles = 16, n = tiles * TILE;
  int *data = (int *)_aligned_malloc(n * sizeof(int), 64);
  int *ref = (int *)_aligned_malloc(n * sizeof(int), 64);
  int *other = (int *)_aligned_malloc(n * sizeof(int), 64);
  for (int i = 0; i < n; i++)
    data[i] = ref[i] = other[i] = i;
#ifdef __INTEL_OFFLOAD
  int offload = 1;
#else
  int offload = 0;
#endif
  _Cilk_spawn host_part(other, n);
  _GFX_share(data, n * sizeof(int));
  _GFX_offload(reverse_tiles, data, tiles);
  _GFX_wait();
  _GFX_unshare(data);
  _Cilk_sync;
  reverse_tiles(ref, tiles); // the host version
  // Offloaded only when worth it, as the samples decide.
  int use_gpu = n >= 256;
#pragma offload target(gfx) if(use_gpu) pin(other : length(n))
  _Cilk_for _Simd (int i = 0; i < n; i++)
    other[i] = plus_one(other, i);
  int bad = 0;
  for (int i = 0; i < n; i++) {
    int t = i / TILE, l = i % TILE;
    bad += data[i] != t * TILE + TILE - 1 - l;
    bad += ref[i] != data[i];
    bad += other[i] != i + 2;
  }
  printf("offload build: %d, wrong: %d: %s\n", offload, bad, bad ? "FAILED" : "PASSED");
  _aligned_free(data);
  _aligned_free(ref);
  _aligned_free(other);
  return bad != 0;
}
