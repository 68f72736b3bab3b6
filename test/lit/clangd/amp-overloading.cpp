// C++ AMP overloads on the restriction (v1.2 §2.3.2) in the editor: the
// overloads (functions, members, templates, constructors, conversion
// functions) are distinct (no redefinition), calls resolve per context, and
// the one ill-formed call is reported at its line.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %slmc-cdb %t %s %slmcxx -O2
// RUN: not %slmc-clangd --check=%s --compile-commands-dir=%t | FileCheck %s --implicit-check-not=error:

#include <amp.h>
using namespace concurrency;

int which() restrict(cpu) { return 1; }
int which() restrict(amp) { return 2; }
struct Probe {
  int get() const restrict(cpu) { return 1; }
  int get() const restrict(amp) { return 2; }
};
template <class T> T twice(T x) restrict(cpu) { return x + x; }
template <class T> T twice(T x) restrict(amp) { return 2 * x; }
int amb() restrict(amp) { return 1; }
int amb() restrict(cpu, amp) { return 2; }

// Constructors and conversion functions overloaded the same way.
struct Temp {
  float d;
  Temp() restrict(cpu) : d(1) {}
  Temp() restrict(amp) : d(2) {}
  operator float() const restrict(cpu) { return d; }
  operator float() const restrict(amp) { return d + 1; }
};
float host_temp() { return Temp(); }
float amp_temp() restrict(amp) { return Temp(); }

int host() { return which() + Probe().get() + twice(1) + amb(); }

void kernels(array_view<int, 1> av) {
  parallel_for_each(av.extent, [=](index<1> i) restrict(amp) {
    av[i] = which() + Probe().get() + twice(1) + amb();
// CHECK: amp-overloading.cpp:[[@LINE-1]]:50: error: {{[Cc]}}all to 'amb' from amp code is ambiguous
// CHECK: amp-overloading.cpp:20:5: note: {{[Oo]}}verload of 'amb' declared here, restrict(amp)
// CHECK: amp-overloading.cpp:21:5: note: {{[Oo]}}verload of 'amb' declared here, restrict(cpu, amp)
  });
}
