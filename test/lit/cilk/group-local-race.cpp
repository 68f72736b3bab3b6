// Missing _gfx_gpgpu_thread_barrier() calls over __thread_group_local data:
// second-level nests whose iterations (dealt out to the group's threads,
// iteration k to thread k mod T) touch an element another iteration wrote
// since the last barrier. The group's size T is known only at run time, so
// a pair is reported only when it races for every T >= 2; nests with
// non-constant loops and serial code are left alone.
// RUN: %slmcxx -fsyntax-only -Xclang -verify %s
// RUN: %clangxx -std=c++17 %plugin -fsyntax-only -Xclang -verify %s
// RUN: %slmcxx -fsyntax-only -Wno-slmc-group-local-race -Xclang -verify=off %s
// RUN: %slmcxx -fsyntax-only -fdiagnostics-parseable-fixits %s 2>&1 | FileCheck %s
// off-no-diagnostics

#include <gfx/gfx_intrin.h>

__declspec(target(gfx_kernel)) void races(const float *in, float *out, int blocks) {
  // The barrier between the nests was forgotten: iteration t reads the
  // element iteration t + 1 wrote.
  _Cilk_for _Thread_group (int b = 0; b < blocks; b++) {
    __thread_group_local float part[64];
    _Cilk_for (int t = 0; t < 64; t++)
      part[t] = in[b * 64 + t]; // expected-note {{work-item (t = 1) writes part[1] here}}
    // CHECK: fix-it:"{{.*}}group-local-race.cpp":{[[@LINE+1]]:5-[[@LINE+1]]:5}:"_gfx_gpgpu_thread_barrier();\n    "
    _Cilk_for (int t = 0; t < 64; t++) // expected-note {{a barrier before this statement would order the accesses}}
      out[b * 64 + t] = part[(t + 1) % 64]; // expected-warning {{read of group-local part[1] by work-item (t = 0) races with a write by work-item (t = 1); no barrier separates them}}
  }

  // Write-write: every iteration writes the same element; two nests of a
  // 2-D shape write overlapping rows.
  _Cilk_for _Thread_group (int b = 0; b < blocks; b++) {
    __thread_group_local int flag;
    __thread_group_local float tile[8][16];
    _Cilk_for (int t = 0; t < 32; t++)
      flag = t; // expected-warning {{write of group-local flag by work-item (t = 0) races with a write by work-item (t = 1)}}
    _gfx_gpgpu_thread_barrier();
    _Cilk_for (int y = 0; y < 8; y++)
      _Cilk_for (int x = 0; x < 16; x++)
        tile[y][x] = 0; // expected-note {{work-item (y = 0, x = 1) writes tile[0][1] here}}
    _Cilk_for (int y = 0; y < 8; y++) // expected-note {{a barrier before this statement}}
      _Cilk_for (int x = 0; x < 16; x++)
        tile[y][(x + 1) % 16] = 1; // expected-warning {{write of group-local tile[0][1] by work-item (y = 0, x = 0) races with a write by work-item (y = 0, x = 1)}}
    _gfx_gpgpu_thread_barrier();
    _Cilk_for (int t = 0; t < 1; t++)
      out[b] = tile[0][0] + flag;
  }

  // Inside one nest: iteration t reads what iteration t - 1 wrote (no
  // barrier can go there; the note is left out), and a strided nest.
  _Cilk_for _Thread_group (int b = 0; b < blocks; b++) {
    __thread_group_local float s[128];
    _Cilk_for (int t = 0; t < 128; t += 2) {
      s[t] = in[t];     // expected-note {{work-item (t = 2) writes s[2] here}}
      s[t + 1] = s[t + 2]; // expected-warning {{read of group-local s[2] by work-item (t = 0) races with a write by work-item (t = 2)}}
    }
    _gfx_gpgpu_thread_barrier();
    _Cilk_for (int t = 0; t < 64; t++)
      out[t] = s[t];
  }
}

__declspec(target(gfx_kernel)) void fine(const float *in, float *out, int blocks, int n) {
  _Cilk_for _Thread_group (int b = 0; b < blocks; b++) {
    __thread_group_local float part[64];
    __thread_group_local float other[64];
    _Cilk_for (int t = 0; t < 64; t++)
      part[t] = in[t];
    _gfx_gpgpu_thread_barrier();
    // After the barrier; each iteration reads its own element; iterations
    // two apart run in the same thread when the group has two threads.
    _Cilk_for (int t = 0; t < 64; t++)
      other[t] = part[(t + 1) % 64] + part[t];
    _Cilk_for (int t = 0; t < 64; t++)
      other[t] += 1;
    _Cilk_for (int t = 0; t < 64; t++)
      out[t] = other[(t + 2) % 64];
    _gfx_gpgpu_thread_barrier();
    // A loop bound known only at run time: not analysed.
    _Cilk_for (int t = 0; t < n; t++)
      part[0] = other[t];
    // A single iteration writes.
    _Cilk_for (int t = 0; t < 1; t++)
      other[0] = 2;
    _gfx_gpgpu_thread_barrier();
    // A serial loop around a nest and its barrier (the reduction example).
    for (int width = 32; width > 0; width /= 2) {
      _Cilk_for (int t = 0; t < width; t++)
        part[t] += part[t + width];
      _gfx_gpgpu_thread_barrier();
    }
    _Cilk_for (int t = 0; t < 1; t++)
      out[b] = part[0] + other[0];
  }

  // The row below is written by the iteration 16 further on, which runs
  // in the same thread when the group has 2, 4, 8 or 16 threads: not
  // provable.
  _Cilk_for _Thread_group (int b = 0; b < blocks; b++) {
    __thread_group_local float tile[8][16];
    _Cilk_for (int y = 0; y < 8; y++)
      _Cilk_for (int x = 0; x < 16; x++)
        tile[y][x] = 1;
    _Cilk_for (int y = 0; y < 8; y++)
      _Cilk_for (int x = 0; x < 16; x++)
        tile[(y + 1) % 8][x] = 2;
    _gfx_gpgpu_thread_barrier();
    _Cilk_for (int t = 0; t < 1; t++)
      out[b] = tile[0][0];
  }
}
