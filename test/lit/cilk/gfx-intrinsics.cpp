// ICC's graphics intrinsics without an include: _gfx_atomic_write_i32 with
// every __GfxAtomicOpType (on host-shared and group-local memory, from many
// threads at once), on the CPU fallback as work-item loops and as fibers,
// and as SPIR-V and PTX atomics. The 2D-image intrinsics and image API,
// which slmc cannot honour, are errors that name them (gfx-images.cpp).
// RUN: %slmcxx -O2 %s -o %t
// RUN: %t | FileCheck %s
// RUN: env SLMC_CPU_WORK_ITEM_LOOPS=0 %t | FileCheck %s
// RUN: %slmcxx -O0 %s -o %t.O0
// RUN: %t.O0 | FileCheck %s
// RUN: %slmcxx -O2 -fslmc-check %s -o %t.check
// RUN: env SLMC_CHECK=races %t.check | FileCheck %s
// CHECK: add 2016 sub -2016 inc 64 dec -64
// CHECK-NEXT: umin 3 umax 4294967295 smin -40 smax 63
// CHECK-NEXT: xchg seen 64 cmpxchg winners 1
// CHECK-NEXT: and 0x0 or 0xffffffff xor 0x0
// CHECK-NEXT: group-local count 256 (4 groups of 64)
// CHECK-NEXT: returned old values ok
// RUN: %slmcxx --emit=spirv %s -o %t.spv
// RUN: %spirv-val %t.spv
// RUN: %spirv-dis %t.spv | FileCheck %s --check-prefix=SPIRV
// SPIRV-DAG: OpAtomicIAdd
// SPIRV-DAG: OpAtomicUMin
// SPIRV-DAG: OpAtomicSMax
// SPIRV-DAG: OpAtomicCompareExchange
// SPIRV-DAG: OpAtomicExchange
// RUN: %slmcxx --emit=ptx %s -o - | FileCheck %s --check-prefix=PTX
// PTX-DAG: atom{{.*}}.add
// PTX-DAG: atom{{.*}}.min.u32
// PTX-DAG: atom{{.*}}.max.s32
// PTX-DAG: atom{{.*}}.cas.b32
#include <stdio.h>
#include "gfx/gfx_rt.h"

enum { ADD, SUB, INC, DEC, UMIN, UMAX, SMIN, SMAX, XCHG, CAS, AND, OR, XOR, N };

__declspec(target(gfx_kernel)) void atomics(int *r, int *old, int *counts) {
  _Cilk_for _Thread_group (int g = 0; g < 4; g++) {
    __thread_group_local int count[1];
    count[0] = 0;
    _gfx_gpgpu_thread_barrier();
    _Cilk_for (int i = 0; i < 64; i++) {
      if (g == 0) {
        old[i] = _gfx_atomic_write_i32(GFX_ATOMIC_ADD, r, ADD, i, 0);
        _gfx_atomic_write_i32(GFX_ATOMIC_SUB, r, SUB, i, 0);
        _gfx_atomic_write_i32(GFX_ATOMIC_INC, r, INC, 12345, 0);
        _gfx_atomic_write_i32(GFX_ATOMIC_DEC, r, DEC, 12345, 0);
        _gfx_atomic_write_i32(GFX_ATOMIC_MIN, r, UMIN, i + 3, 0);
        _gfx_atomic_write_i32(GFX_ATOMIC_MAX, r, UMAX, i == 7 ? -1 : i, 0);
        _gfx_atomic_write_i32(GFX_ATOMIC_MINSINT, r, SMIN, i == 9 ? -40 : i, 0);
        _gfx_atomic_write_i32(GFX_ATOMIC_MAXSINT, r, SMAX, i, 0);
        _gfx_atomic_write_i32(GFX_ATOMIC_XCHG, r, XCHG, i + 1, 0);
        // Only the first to find 0 installs its id.
        _gfx_atomic_write_i32(GFX_ATOMIC_CMPXCHG, r, CAS, 0, i + 100);
        _gfx_atomic_write_i32(GFX_ATOMIC_AND, r, AND, ~(1 << (i % 32)), 0);
        _gfx_atomic_write_i32(GFX_ATOMIC_OR, r, OR, 1 << (i % 32), 0);
        _gfx_atomic_write_i32(GFX_ATOMIC_XOR, r, XOR, 1 << (i % 32), 0);
      }
      _gfx_atomic_write_i32(GFX_ATOMIC_INC, count, 0, 0, 0);
    }
    _gfx_gpgpu_thread_barrier();
    _Cilk_for (int i = 0; i < 1; i++)
      counts[g] = count[0];
  }
}

int main() {
  int r[N] = {0}, old[64], counts[4];
  r[UMIN] = 1000;
  r[UMAX] = 0;
  r[SMIN] = 0;
  r[SMAX] = -5;
  r[AND] = -1;
  _GFX_share(r, sizeof(r));
  _GFX_share(old, sizeof(old));
  _GFX_share(counts, sizeof(counts));
  _GFX_offload(atomics, r, old, counts);
  _GFX_wait();
  printf("add %d sub %d inc %d dec %d\n", r[ADD], r[SUB], r[INC], r[DEC]);
  printf("umin %u umax %u smin %d smax %d\n", (unsigned)r[UMIN], (unsigned)r[UMAX],
         r[SMIN], r[SMAX]);
  int winner = r[CAS] - 100;
  printf("xchg seen %d cmpxchg winners %d\n", r[XCHG] >= 1 && r[XCHG] <= 64 ? 64 : 0,
         winner >= 0 && winner < 64 ? 1 : 0);
  printf("and 0x%x or 0x%x xor 0x%x\n", (unsigned)r[AND], (unsigned)r[OR], (unsigned)r[XOR]);
  printf("group-local count %d (4 groups of %d)\n",
         counts[0] + counts[1] + counts[2] + counts[3], counts[0]);
  // The old values of the adds are distinct partial sums: each in range,
  // and their maximum plus its addend is the total.
  bool ok = true;
  for (int i = 0; i < 64; i++)
    ok = ok && old[i] >= 0 && old[i] <= 2016 - i;
  printf("returned old values %s\n", ok ? "ok" : "WRONG");
  return 0;
}
