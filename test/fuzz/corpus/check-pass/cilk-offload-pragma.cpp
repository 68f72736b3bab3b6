3// #pragma offload and #pragma offload_attribute: clauses checked, functions
// between push and pop callable from offloaded code.
// RUN: %slmcxx -fsyntax-only -Xclang -verify %s
// RUN: %clangxx -std=c++17 %plugin -fsyntax-only -Xclang -verify %s

#pragma offload_attribute(push, target(gfx))
float scale(float x) { return 3 * x; }
#pragma offload_attribute(pop)
float not_offloaded(float x) { return x; } // expected-note {{'not_offloaded' declared here}}

#pragma offload_attribute(pop) // expected-warning {{'#pragma offload_attribute(pop)' without a matching push}}

void clauses(float *a, float *b, int n, bool big) {
#pragma offload target(gfx) if(big) in(a : length(n)) out(b : length(n))
  _Cilk_for (int i = 0; i < n; i++)
    b[i] = scale(a[i]);

#pragma offload target(gfx) pin(a, b : length(n))
  _Cilk_for (int i = 0; i < n; i++)
    b[i] = not_offloaded(a[i]); // expected-error {{call to 'not_offloaded', which is not declared '__declspec(target(gfx))', from offloaded code}}

#pragma offload target(mic) in(a : length(n)) // expected-error {{'#pragma offload': only 'target(gfx)' is supported, not 'target(mic)'}}
  _Cilk_for (int i = 0; i < n; i++)
    b[i] = a[i];

#pragma offload in(a : length(n)) // expected-error {{'#pragma offload': missing 'target(gfx)'}}
  _Cilk_for (int i = 0; i < n; i++)
    b[i] = a[i];

#pragma offload target(gfx) signal(a) pin(a, b : length(n)) // expected-warning {{'#pragma offload' clause 'signal' has no effect with target(gfx) and is ignored}}
  _Cilk_for (int i = 0; i < n; i++)
    b[i] = a[i];

#pragma offload target(gfx) in(a : length(n) // expected-error {{'#pragma offload': unbalanced parentheses in clause 'in'}}
  _Cilk_for (int i = 0; i < n; i++)
    b[i] = a[i];
}
