// Cilk Plus array notation in the editor: slmc-clangd reads the main file
// (the editor's text) and every user header with the array notation
// rewritten, as slmc++ does, so valid notation shows no error and the
// rules' diagnostics keep their lines (and their columns on lines without
// notation).
// RUN: %slmcxx -fsyntax-only -Xclang -verify %s
// RUN: rm -rf %t && mkdir -p %t/plain %t/header %t/prepass
// RUN: %slmc-cdb %t/plain %s %slmcxx -O2
// RUN: not %slmc-clangd --check=%s --compile-commands-dir=%t/plain | FileCheck %s --implicit-check-not=error:
//
// An error in the header, after its array notation: at the #include line,
// with its place in the header (line kept) as a note.
// RUN: %slmc-cdb %t/header %s %slmcxx -O2 -DHEADER_ERROR
// RUN: not %slmc-clangd --check=%s --compile-commands-dir=%t/header | FileCheck %s --check-prefixes=CHECK,HEADER
//
// Array notation the pre-pass rejects: its error, not a cascade of parse
// errors.
// RUN: printf 'void f(float *a) {\n  a[0:4] = 1.0f;\n  a[1:] = 0.0f;\n}\n' > %t/prepass/bad.cpp
// RUN: %slmc-cdb %t/prepass %t/prepass/bad.cpp %slmcxx -O2
// RUN: not %slmc-clangd --check=%t/prepass/bad.cpp --compile-commands-dir=%t/prepass | FileCheck %s --check-prefix=PREPASS --implicit-check-not=error:
// PREPASS: bad.cpp:3:4: error: Array section needs both a lower bound and a length ('[lower:length]'), or '[:]' for a whole dimension

#include <gfx/gfx_intrin.h>
// The GNU spelling, in the leading directives clangd keeps in its preamble.
#define GFX __attribute__((target(gfx)))
#include "Inputs/array-notation.h"
// HEADER: array-notation.cpp:[[@LINE-1]]:10: error: In included file: '__thread_group_local' variable 'outside' must be declared immediately inside a '_Thread_group' nest
// HEADER-NEXT: Inputs{{/|\\}}array-notation.h:12:3: note: Error occurred here

#define N 64

GFX static float twice(float x) { return 2.0f * x; }

__declspec(target(gfx_kernel)) void kernel(float *out) {
  _Cilk_for _Thread_group (int g = 0; g < N; g += 16) {
    __thread_group_local float t[16];
    t[:] = twice(out[g:16]);
    _gfx_gpgpu_thread_barrier();
    out[g:16] = t[:] + __sec_reduce_add(t[0:16]);
  }
  __thread_group_local float outside[4]; // expected-error {{'__thread_group_local' variable 'outside' must be declared immediately inside a '_Thread_group' nest}}
// CHECK: array-notation.cpp:[[@LINE-1]]:3: error: '__thread_group_local' variable 'outside' must be declared immediately inside a '_Thread_group' nest
}

float host(float *a) {
  a[0:N] = 1.0f;
  scale_all(a, N, 2.0f);
  return total(a, N);
}
