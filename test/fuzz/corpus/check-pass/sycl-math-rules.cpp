1// Misuse of the SYCL math built-ins the specification makes ill-formed:
// any/all of a vec need signed integer elements (the sign bit is the truth
// value); native:: functions are float-only; geometric functions take at
// most 4 elements.
// RUN: %slmcxx -fsyntax-only -Xclang -verify %s
// RUN: %clangxx -std=c++17 %plugin -fsyntax-only -Xclang -verify %s

#include <sycl/sycl.hpp>
using namespace sycl;

void rules(queue &q, float *out) {
  q.parallel_for(nd_range<1>(range<1>(64), range<1>(32)), [=](nd_item<1> it) {
    uint4 u(1u);
    out[0] = any(u);
    out[1] = native::sin(1.0);
    float8 f8(1.0f);
    out[2] = dot(f8, f8); // expected-error {{no matching function for call to 'dot'}}
  });
}
// expected-error@*:* {{sycl::any: needs signed integer elements (a vec) or bool elements (an marray)}}
// expected-error@*:* {{sycl::native::sin: takes float (and vec/marray of float) only}}
// expected-note@*:* 0+ {{in instantiation of}}
// expected-note@*:* 0+ {{candidate}}
