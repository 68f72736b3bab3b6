// C++ AMP v1.2 §2.3.2: a call in a template that depends on the template's
// parameters (`factory<T>::create()`) resolves to its restriction overload
// in each instantiation, as a call that does not: the amp overload in
// kernels, the cpu one in host code, from a constructor's member
// initializer and from a body. The C++ AMP Algorithms Library's
// array_view_iterator makes its empty view this way (a static create() per
// restriction, called from a restrict(cpu, amp) constructor).
// RUN: %slmcxx -O1 %s -o %t
// RUN: env SLMC_DEVICE=cpu %t | FileCheck %s
// REQUIRES: spirv-tools
// RUN: %slmcxx -O1 --emit=spirv %s -o %t.spv
// RUN: %spirv-val %t.spv
// CHECK: host: 1 1 10 1
// CHECK-NEXT: kernel: 2 2 20 2

#include <amp.h>

#include <cstdio>
#include <vector>

using namespace concurrency;

template <class T> struct factory {
  static T create() restrict(cpu) { return T(1); }
  static T create() restrict(amp) { return T(2); }
};

template <class T> struct from_initializer {
  T v;
  from_initializer() restrict(cpu, amp) : v(factory<T>::create()) {}
};

template <class T> struct from_body {
  T v;
  from_body() restrict(cpu, amp) { v = factory<T>::create(); }
};

struct scaled {
  int value() const restrict(cpu) { return 10; }
  int value() const restrict(amp) { return 20; }
};

// A member of a dependent object, and a function template's dependent call.
template <class S> int value_of(const S &s) restrict(cpu, amp) { return s.value(); }
template <class T> T make() restrict(cpu, amp) { return factory<T>::create(); }

int main() {
  std::vector<int> out(4);
  array_view<int, 1> o(4, out);
  parallel_for_each(o.extent, [=](index<1> i) restrict(amp) {
    if (i[0] == 0) o[i] = from_initializer<int>().v;
    if (i[0] == 1) o[i] = from_body<int>().v;
    if (i[0] == 2) o[i] = value_of(scaled());
    if (i[0] == 3) o[i] = make<int>();
  });
  o.synchronize();
  std::printf("host: %d %d %d %d\n", from_initializer<int>().v, from_body<int>().v,
              value_of(scaled()), make<int>());
  std::printf("kernel: %d %d %d %d\n", out[0], out[1], out[2], out[3]);
  return 0;
}
