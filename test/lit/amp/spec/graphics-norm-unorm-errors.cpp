// C++ AMP v1.2, chapter 10 "Graphics", "norm and unorm": the constructors
// from other scalar types are explicit (so is unorm from norm, which may
// lose the sign); unary minus is defined for norm only.
// RUN: %slmcxx -fsyntax-only -Xclang -verify %s
// RUN: %clangxx -std=c++17 %plugin -fsyntax-only -Xclang -verify %s

#include <amp.h>
#include <amp_short_vectors.h>
using namespace concurrency::graphics;

void f(norm n) {
  unorm a = 0.5f; // expected-error {{no viable conversion from 'float' to 'unorm'}}
  norm b = 1;     // expected-error {{no viable conversion from 'int' to 'norm'}}
  unorm c = n;    // expected-error {{no viable conversion from 'norm' to 'unorm'}}
  unorm d(n);     // explicit: fine
  float e = -d;   // converts to float first: fine
  (void)e;
}
// expected-note@*:* 0+ {{}}
