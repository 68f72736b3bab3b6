// Array notation in an offloaded thread-group nest: section statements
// directly in the nest are second-level nests (shared by the group's
// threads), a reduction inside a _Cilk_for works on that thread's data; the
// GNU spelling __attribute__((target(gfx))) marks a device function. Runs
// on the CPU fallback.
// RUN: %slmcxx -O2 %s -o %t
// RUN: %t | FileCheck %s
// CHECK: array notation offload: ok

#include <gfx/gfx_intrin.h>
#include <gfx/gfx_rt.h>

#include <cstdio>

#define N 256
#define TILE 32

__attribute__((target(gfx))) static float twice(float x) { return 2.0f * x; }

__declspec(target(gfx_kernel)) void scale(const float *in, float *out, float *sums) {
  _Cilk_for _Thread_group (int g = 0; g < N; g += TILE) {
    __thread_group_local float t[TILE];
    t[:] = twice(in[g:TILE]);
    _gfx_gpgpu_thread_barrier();
    out[g:TILE] = t[:] + 1.0f;
    _Cilk_for (int i = 0; i < 1; i++)
      sums[g / TILE] = __sec_reduce_add(t[0:TILE]);
  }
}

int main() {
  static float in[N], out[N], sums[N / TILE];
  for (int i = 0; i < N; i++)
    in[i] = (float)(i % 7);
  _GFX_offload(scale, (const float *)in, out, sums);
  _GFX_wait();
  int bad = 0;
  for (int i = 0; i < N; i++)
    bad += out[i] != 2.0f * in[i] + 1.0f;
  for (int g = 0; g < N / TILE; g++) {
    float s = 0;
    for (int i = 0; i < TILE; i++)
      s += 2.0f * in[g * TILE + i];
    bad += sums[g] != s;
  }
  printf("array notation offload: %s (%d wrong)\n", bad ? "FAILED" : "ok", bad);
  return bad != 0;
}
