// `__GFX__` is defined where ICC defined it: in offloaded code (device code,
// and the CPU fallback's kernels, which are offloaded code run on the host),
// not in host code or in the host version of a gfx_kernel function. A
// source that tests the macro is compiled as ICC compiled it, twice.
// RUN: %slmcxx -O2 %s -o %t
// RUN: %t | FileCheck %s
// RUN: %slmcxx -O0 %s -o %t.O0
// RUN: %t.O0 | FileCheck %s
// RUN: %slmcxx -O2 -fslmc-check %s -o %t.check
// RUN: %t.check | FileCheck %s
// RUN: env SLMC_CPU_WORK_ITEM_LOOPS=0 %t | FileCheck %s
// CHECK: host-only code: 42
// CHECK-NEXT: direct call: 20, offload: 10, nest: 63 31
//
// The host pass is joined with the offload compilation's kernels.
// RUN: %slmcxx -O2 -v %s -o %t.v 2>&1 | FileCheck %s --check-prefix=PASSES
// PASSES: -disable-llvm-passes{{.*}}-emit-llvm
// PASSES: slmcOffloadedCopy.so{{.*}}-slmc-offloaded-copy=
// A source that never tests the macro is compiled once.
// RUN: %slmcxx -O2 -v %examples/cilk/vadd.cpp -o %t.vadd 2>&1 | FileCheck %s --check-prefix=ONCE
// ONCE-NOT: slmcOffloadedCopy
//
// Device code is offloaded code.
// RUN: %slmcxx --emit=spirv %s -o %t.spv
// RUN: %spirv-val %t.spv
// RUN: %spirv-dis %t.spv | FileCheck %s --check-prefix=SPIRV
// SPIRV: OpConstant %uint 10
// SPIRV-NOT: OpConstant %uint 20
// SPIRV: OpControlBarrier
//
// -E prints the offload compilation's text and ends with a digest of the
// host compilation's, so that ccache's preprocessor mode sees a change in
// host-only code.
// RUN: rm -rf %t.dir && mkdir %t.dir && cp %s %t.dir/a.cpp
// RUN: cd %t.dir && %slmcxx -E a.cpp -o first.ii
// RUN: FileCheck %s --check-prefix=PP < %t.dir/first.ii
// PP-NOT: host-only code
// PP: offload: %d
// PP: // slmc: host compilation (__GFX__ undefined) digest {{[0-9A-F]+}}
// RUN: cd %t.dir && sed -i 's/twice(21)/twice(20)/' a.cpp && %slmcxx -E a.cpp -o second.ii
// RUN: not cmp %t.dir/first.ii %t.dir/second.ii
//
// The joining plugin's own errors.
// RUN: echo 'int main() { return 0; }' > %t.plain.cpp
// RUN: not %clangxx -fpass-plugin=%slmc-libdir/slmcOffloadedCopy.so -mllvm -slmc-offloaded-copy=%t.missing.bc -c %t.plain.cpp -o %t.plain.o 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: slmc: cannot read the offload compilation '{{.*}}missing.bc'
// RUN: not %clangxx -fpass-plugin=%slmc-libdir/slmcOffloadedCopy.so -mllvm -slmc-offloaded-copy=%t.plain.cpp -c %t.plain.cpp -o %t.plain.o 2>&1 | FileCheck %s --check-prefix=NOTBC
// NOTBC: error: slmc: the offload compilation '{{.*}}plain.cpp' is not LLVM bitcode
#include <stdio.h>
#include "gfx/gfx_rt.h"
#include "cilk/cilk.h"

#ifdef __GFX__
#define BARRIER _gfx_gpgpu_thread_barrier()
#define WHERE 1
#else
#define BARRIER
#define WHERE 2
#endif

__declspec(target(gfx_kernel)) void mark(int *v, int n) {
  _Cilk_for (int i = 0; i < n; i++)
    v[i] = WHERE * 10;
}

int main() {
  int a[8], b[8], out[64];
  int *o = out;
#ifndef __GFX__
  auto twice = [](int x) { return 2 * x; };
  printf("host-only code: %d\n", twice(21));
#endif
  mark(a, 8); // the host version
  _GFX_share(b, sizeof(b));
  _GFX_offload(mark, b, 8);
  _GFX_wait();
  _GFX_unshare(b);
  // A barrier that exists only under __GFX__: the tile is reversed through
  // group-local memory, which needs it.
#pragma offload target(gfx) pin(o : length(64))
  _Cilk_for _Thread_group (int g = 0; g < 1; g++) {
    __thread_group_local int tile[64];
    _Cilk_for (int i = 0; i < 64; i++)
      tile[i] = i;
    BARRIER;
    _Cilk_for (int i = 0; i < 64; i++)
      o[i] = tile[63 - i];
  }
  printf("direct call: %d, offload: %d, nest: %d %d\n", a[0], b[7], out[0], out[32]);
  return 0;
}
