// C++ AMP v1.2, chapter 10 "Graphics", short vector types: %, the bitwise
// operators and ~ exist for int and uint components only, unary minus not
// for uint or unorm; conversions between component types are explicit.
// RUN: %slmcxx -fsyntax-only -Xclang -verify %s

#include <amp.h>
#include <amp_short_vectors.h>
using namespace concurrency::graphics;

void f(float_2 a, uint_2 u, unorm_2 n, int_2 i) {
  a %= a;        // expected-error@*:* {{operator% needs int or uint components}}
  a = ~a;        // expected-error@*:* {{operator~ needs int or uint components}}
  u = -u;        // expected-error@*:* {{no unary minus on unsigned or unorm vectors}}
  float_2 b = i; // expected-error {{no viable conversion from 'short_vec<int, [...]>' to 'short_vec<float, [...]>'}}
  float_2 c(i);  // explicit: fine
  i = i % int_2(3) | int_2(1);
  (void)b; (void)c; (void)n;
}
// expected-note@*:* 0+ {{}}
