// Stock clang with the plugin cannot run the array-notation pre-pass (a
// plugin cannot change the text clang parses): one error at the first array
// notation of the translation unit says so, and no parse errors follow.
// RUN: not %clangxx -std=c++17 %plugin -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
// In a header, where the source has none:
// RUN: printf '#include "%S/Inputs/array-notation.h"\nfloat f(float x) { return sq(x); }\n' > %t.cpp
// RUN: not %clangxx -std=c++17 %plugin -fsyntax-only %t.cpp 2>&1 | FileCheck %s --check-prefix=HEADER --implicit-check-not=error: --implicit-check-not=warning:
// HEADER: array-notation.h:6:57: error: Cilk Plus array notation is rewritten by slmc's pre-pass, which the clang plugin cannot run; compile this file with slmc++ (in an editor, slmc-clangd)
// HEADER: 1 error generated.
// slmc++ compiles both.
// RUN: %slmcxx -fsyntax-only -Wall -Werror %s
// RUN: %slmcxx -fsyntax-only -Wall -Werror %t.cpp

// Not array notation: a conditional in a subscript, a lambda, an attribute.
int pick(int *v, bool c) {
  [[maybe_unused]] auto f = [&](int i) { return v[c ? i : 0]; };
  return v[c ? 1 : 0];
}

void scale(float *a, float *b, int n) {
  a[0:n] = b[0:n] * 2.0f;
// CHECK: array-notation-plugin.cpp:[[@LINE-1]]:4: error: Cilk Plus array notation is rewritten by slmc's pre-pass, which the clang plugin cannot run; compile this file with slmc++ (in an editor, slmc-clangd)
// CHECK-NEXT: [[@LINE-2]] |   a[0:n] = b[0:n] * 2.0f;
// CHECK: 1 error generated.
  b[0:n] = 0;
}
