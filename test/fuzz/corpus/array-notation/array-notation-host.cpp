// Cilk Plus array notation in plain host code (no Cilk header, no offload):
// slmc++'s pre-pass rewrites each statement into a loop nest on the same
// lines and each __sec_reduce_* into a lambda; the program runs on the host.
// RUN: %slmcxx -fcilkplus -fsyntax-only -Wall -Wextra -Werror %s
// RUN: %slmcxx -O2 %s -o %t
// RUN: %t | FileCheck %s --check-prefix=OUT
// RUN: %slmcxx --emit=offload-cpp %s -o - | grep -v CHECK | FileCheck %s
// RUN: rm -rf %t.dir && mkdir %t.dir && cd %t.dir && %slmcxx -save-temps -c %s -o %t.o
// RUN: FileCheck %s --check-prefix=TEMP < %t.dir/array-notation-host.slmc.cpp

// The lowered copy: extent_of's header in the prologue, then a #line back here.
// TEMP: #include <slmc/detail/array_notation.h>
// TEMP: #line 1 "{{.*}}array-notation-host.cpp"
// TEMP-NEXT: // Cilk Plus array notation in plain host code

#include <cstdio>

#include "Inputs/array-notation.h" // sq(x)

struct Pixel {
  float c[3];
};

int main() {
  float a[8], b[8], c[8], m[4][6], t[2][3];
  int n = 8;
  // CHECK: #line 1 "{{.*}}array-notation-host.cpp"
  // CHECK: [[SEC:\[\[clang::annotate\("slmc.cilk.section"\)\]\]]] for (long __sec_i0 = 0; __sec_i0 < (::slmc::cilk::extent_of(a)); ++__sec_i0) { a[__sec_i0] = 1; }
  a[:] = 1;
  // CHECK-NEXT: [[SEC]] for (long __sec_i0 = 0; __sec_i0 < (n); ++__sec_i0) { b[(0) + __sec_i0] = 2; }
  b[0:n] = 2;
  for (int i = 0; i < 8; i++) c[i] = i;
  // CHECK: { a[(0) + __sec_i0 * (2)] += c[(0) + __sec_i0]; }
  a[0:4:2] += c[0:4];          // a: 1 1 2 1 3 1 4 1
  b[1:3] = sq(c[5:3]);         // b: 2 25 36 49 2 2 2 2
  // A statement over two lines stays on two lines.
  // CHECK: [[SEC]] for (long __sec_i0 = 0; __sec_i0 < (n); ++__sec_i0) { c[(0) + __sec_i0] = c[(0) + __sec_i0] +
  // CHECK-NEXT: {{^}}      0; }
  c[0:n] = c[0:n] +
      0;
  // CHECK: float s = [&]() { auto __sec_e = [&](long __sec_i0) { return a[__sec_i0] * b[__sec_i0]; };
  float s = __sec_reduce_add(a[:] * b[:]);
  float mn = __sec_reduce_min(c[2:6]), mx = __sec_reduce_max(b[:]);
  float p = __sec_reduce_mul(c[1:3]);
  int allz = __sec_reduce_all_zero(c[0:1]), anynz = __sec_reduce_any_nonzero(c[0:2]);
  m[:][:] = 0;
  m[0:4][2:3] = __sec_implicit_index(0) * 10 + __sec_implicit_index(1);
  t[:][:] = m[1:2][2:3];
  float tot = __sec_reduce_add(t[:][:]);
  Pixel px;
  px.c[:] = c[4:3];
  float ratio = __sec_reduce_add(px.c[:]) / __sec_reduce_add(a[0:2]);
  float centred[8];
  centred[0:n] = c[0:n] - __sec_reduce_add(c[0:n]) / n;
  const char *text = "a[0:n] = 0;"; // strings and comments: b[:] = 1;
  // OUT: 166 2 49 6 1 1 96 7.5 -3.5 3.5 a[0:n] = 0;
  printf("%g %g %g %g %d %d %g %g %g %g %s\n", s, mn, mx, p, allz, anynz, tot, ratio,
         centred[0], centred[7], text);
  // OUT-NEXT: 1 1 2 1 3 1 4 1
  for (int i = 0; i < 8; i++)
    printf("%g ", a[i]);
  printf("\n");
  // OUT-NEXT: 1.5 4.5
  float h[4] = {1, 2, 3, 4};
  add_all(h, 4, 0.5f);
  printf("%g %g\n", h[0], h[3]);
  return 0;
}

// The header, rewritten after the main file (`-o -`):
// CHECK: // ---- slmc: lowered header {{.*}}Inputs{{/|\\}}array-notation.h
// CHECK: static inline void add_all(float *v, int n, float d) { [[SEC]] for (long __sec_i0 = 0; __sec_i0 < (n); ++__sec_i0) { v[(0) + __sec_i0] += d; } }
