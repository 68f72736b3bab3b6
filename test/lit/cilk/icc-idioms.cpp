// ICC's host idioms around offloaded code: <mathimf.h>, SIMD-enabled
// functions under `#ifdef __GFX__`, `_Cilk_for _Simd`, `#pragma simd` and
// `#pragma novector` (hints), a `char *` parameter given a string literal
// (a warning, as in ICC and GCC, reported once).
// RUN: %slmcxx -O2 %s -o %t 2>&1 | FileCheck %s --check-prefix=WARN
// WARN: warning: ISO C++11 does not allow conversion from string literal to 'char *'
// WARN-NOT: warning
// WARN: 1 warning generated.
// No more from the compiler (the linker may warn about a sanitizer build's
// runtime).
// WARN-NOT: {{^.*\.(cpp|h):[0-9]+:[0-9]+: warning}}
// ICC's loop hints draw no unknown-pragma warning, even under -Wall; an
// unknown pragma still does.
// RUN: %slmcxx -Wall -fsyntax-only %s 2>&1 | FileCheck %s --check-prefix=WALL
// WALL-NOT: unknown pragma ignored
// WALL: icc-idioms.cpp:[[@LINE+39]]:{{[0-9]+}}: warning: unknown pragma ignored
// WALL-NOT: unknown pragma ignored
// RUN: %t | FileCheck %s
// CHECK: idioms
// CHECK: PASSED 0.500000 0.500000
// RUN: %slmcxx --emit=spirv %s -o %t.spv
// RUN: %spirv-val %t.spv
#include <stdio.h>
#include <mathimf.h>
#include "gfx/gfx_rt.h"
#include "cilk/cilk.h"

#ifdef __GFX__
__declspec(vector(linear(i), uniform(a)))
#endif
__declspec(target(gfx)) float scale(float *a, int i) { return a[i] * 2.0f; }

void show(char *label) { printf("%s\n", label); }

__declspec(target(gfx_kernel)) void twice(float *a, float *b, int n) {
  _Cilk_for _Simd (int i = 0; i < n; i++)
    b[i] = scale(a, i);
}

int main() {
  float a[64], b[64];
  for (int i = 0; i < 64; i++) a[i] = i;
  show("idioms");
  #pragma simd
  for (int i = 0; i < 4; i++) b[i] = 0;
  #pragma novector
  for (int i = 0; i < 4; i++) b[i] = 0;
  float sum = 0;
  #pragma simd reduction(+:sum) vectorlength(4)
  for (int i = 0; i < 4; i++) sum += a[i];
  #pragma ivdep
  #pragma vector always
  #pragma loop_count(4)
  for (int i = 0; i < 4; i++) b[i] = sum;
  #pragma not_an_intel_pragma
  #pragma offload target(gfx) pin(a, b : length(64))
  _Cilk_for _Simd (int i = 0; i < 64; i++)
    b[i] = scale(a, i);
  int bad = 0;
  for (int i = 0; i < 64; i++) bad += b[i] != 2.0f * i;
  printf("%s %f %f\n", bad ? "FAILED" : "PASSED", invsqrtf(4.0f), sind(30.0));
}
