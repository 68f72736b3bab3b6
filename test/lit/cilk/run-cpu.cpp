// Offloaded nests run on the CPU fallback as real work-groups (threads per
// group derived from the second-level nests); a direct call of a gfx_kernel
// function, and `if(false)`, run the same nest on the host as one-thread
// groups. Results agree.
// RUN: %slmcxx -O2 %s -o %t
// RUN: %t | FileCheck %s
// CHECK: host call: threads 1, sums ok
// CHECK: offload: threads 64, sums ok
// CHECK: if(false): threads 1, sums ok
// CHECK: offload 1000 items: ok
// CHECK: initialised group data: ok
// RUN: %slmcxx -O2 --cilk-group-size=32 %s -o %t.32
// RUN: %t.32 | FileCheck %s --check-prefix=OVERRIDE
// OVERRIDE: offload: threads 32, sums ok

#include <gfx/gfx_intrin.h>
#include <cstdio>

// Sums each 100-element block of `in` in thread-group-local memory.
__declspec(target(gfx_kernel)) void block_sums(const float *in, float *sums, unsigned *threads,
                                               int blocks) {
  _Cilk_for _Thread_group (int b = 0; b < blocks; b++) {
    __thread_group_local float part[64];
    _Cilk_for (int t = 0; t < 64; t++) {
      float acc = 0;
      for (int i = t; i < 100; i += 64)
        acc += in[b * 100 + i];
      part[t] = acc;
    }
    _gfx_gpgpu_thread_barrier();
    for (int w = 32; w > 0; w /= 2) {
      _Cilk_for (int t = 0; t < w; t++)
        part[t] += part[t + w];
      _gfx_gpgpu_thread_barrier();
    }
    _Cilk_for (int t = 0; t < 1; t++) {
      sums[b] = part[0];
      threads[b] = _gfx_gpgpu_local_size(0);
    }
  }
}

static bool check(const float *in, const float *sums, int blocks) {
  for (int b = 0; b < blocks; b++) {
    float e = 0;
    for (int i = 0; i < 100; i++)
      e += in[b * 100 + i];
    if (e != sums[b])
      return false;
  }
  return true;
}

int main() {
  const int blocks = 10;
  static float in[blocks * 100], sums[blocks];
  static unsigned threads[blocks];
  for (int i = 0; i < blocks * 100; i++)
    in[i] = (float)(i % 13);
  const float *pin_in = in;
  float *pin_sums = sums;
  unsigned *pin_threads = threads;

  block_sums(in, sums, threads, blocks);
  printf("host call: threads %u, sums %s\n", threads[0], check(in, sums, blocks) ? "ok" : "WRONG");

  for (int pass = 0; pass < 2; pass++) {
    bool enabled = pass == 0;
    for (int b = 0; b < blocks; b++)
      sums[b] = -1;
#pragma offload target(gfx) if(enabled) in(pin_in : length(blocks * 100)) out(pin_sums, pin_threads : length(blocks))
    _Cilk_for _Thread_group (int b = 0; b < blocks; b++) {
      __thread_group_local float part[64];
      _Cilk_for (int t = 0; t < 64; t++) {
        float acc = 0;
        for (int i = t; i < 100; i += 64)
          acc += pin_in[b * 100 + i];
        part[t] = acc;
      }
      _gfx_gpgpu_thread_barrier();
      for (int w = 32; w > 0; w /= 2) {
        _Cilk_for (int t = 0; t < w; t++)
          part[t] += part[t + w];
        _gfx_gpgpu_thread_barrier();
      }
      _Cilk_for (int t = 0; t < 1; t++) {
        pin_sums[b] = part[0];
        pin_threads[b] = _gfx_gpgpu_local_size(0);
      }
    }
    printf("%s: threads %u, sums %s\n", enabled ? "offload" : "if(false)", threads[0],
           check(in, sums, blocks) ? "ok" : "WRONG");
  }

  // A plain offloaded _Cilk_for: one work-item per iteration.
  static float out[1000];
  float *o = out;
#pragma offload target(gfx) pin(o : length(1000))
  _Cilk_for (int i = 0; i < 1000; i++)
    o[i] = 2.0f * i;
  bool ok = true;
  for (int i = 0; i < 1000; i++)
    ok &= out[i] == 2.0f * i;
  printf("offload 1000 items: %s\n", ok ? "ok" : "WRONG");

  // Initialised thread-group-local data: set once by the master thread,
  // visible to every thread afterwards.
  static int seen[4 * 64];
  int *s = seen;
#pragma offload target(gfx) pin(s : length(4 * 64))
  _Cilk_for _Thread_group (int g = 0; g < 4; g++) {
    __thread_group_local int base[2] = {100, 7};
    _Cilk_for (int t = 0; t < 64; t++)
      s[g * 64 + t] = base[0] + base[1] * g;
  }
  ok = true;
  for (int i = 0; i < 4 * 64; i++)
    ok &= seen[i] == 100 + 7 * (i / 64);
  printf("initialised group data: %s\n", ok ? "ok" : "WRONG");
  return 0;
}
