// Cilk Plus array notation under clang-tidy with the slmc-* checks: the
// module has the file and its headers read rewritten by slmc's pre-pass, as
// slmc++ does, and hands clang-tidy every place in the text as written, so
// diagnostics after rewritten lines keep their line and column and fix-its
// edit the user's text (its array notation left as written).
// RUN: %slmcxx -fsyntax-only -Xclang -verify %s
// RUN: not %slmc-tidy --checks='-*,slmc-*,clang-diagnostic-unused-variable' %s -- -Wunused-variable 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
// RUN: rm -rf %t && mkdir %t && cp %s %t/fix.cpp
// RUN: %slmc-tidy --checks='-*,slmc-rules' --fix-errors %t/fix.cpp -- -I%S
// RUN: FileCheck %s --check-prefix=FIXED --input-file=%t/fix.cpp
//
// A header's error, after its array notation (clang-tidy shows it with
// --header-filter):
// RUN: not %slmc-tidy --checks='-*,slmc-*' --header-filter='.*' %s -- -DHEADER_ERROR 2>&1 | FileCheck %s --check-prefix=HEADER
// HEADER: array-notation.h:12:3: error: '__thread_group_local' variable 'outside' must be declared immediately inside a '_Thread_group' nest [slmc-rules]
//
// The pre-pass's own errors, at their place:
// RUN: printf 'void f(float *a) {\n  a[0:4] = 1.0f;\n  a[1:] = 0.0f;\n}\n' > %t/bad.cpp
// RUN: not %slmc-tidy --checks='-*,slmc-*' %t/bad.cpp -- 2>&1 | FileCheck %s --check-prefix=PREPASS --implicit-check-not=error:
// PREPASS: bad.cpp:3:4: error: array section needs both a lower bound and a length ('[lower:length]'), or '[:]' for a whole dimension [slmc-rules]

#include <amp.h>
#include "../clangd/Inputs/array-notation.h"
using namespace concurrency;

float host(float *a, int n) {
  a[0:n] = 1.0f;
  scale_all(a, n, 2.0f);
  a[0:n] = a[0:n] * 2.0f + __sec_reduce_max(a[0:n]);
// FIXED: {{^}}  a[0:n] = a[0:n] * 2.0f + __sec_reduce_max(a[0:n]);{{$}}
  int unused = 0;
// CHECK: array-notation.cpp:[[@LINE-1]]:7: warning: unused variable 'unused' [clang-diagnostic-unused-variable]
  return total(a, n);
}

void kernel(array_view<int, 1> av) {
  parallel_for_each(av.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) {
    tile_static int x = 42; // expected-error {{'tile_static' variable 'x' cannot have an initializer}}
// CHECK: array-notation.cpp:[[@LINE-1]]:21: error: 'tile_static' variable 'x' cannot have an initializer [slmc-rules]
// CHECK-NEXT: {{^}}   [[@LINE-2]] |     tile_static int x = 42;
// FIXED: {{^}}    tile_static int x; //
    av[t.global] = x;
  });
}
