// C++ AMP v1.2 §2 "C++ Language Extensions for Accelerated Computing":
//   §2.1 syntax: a restriction specifier list names 'amp' and 'cpu' only and
//        is not empty; restrict(amp, cpu) and restrict(amp) restrict(cpu)
//        are both accepted.
//   §2.2.1 an amp-restricted function may call only functions that are
//        amp-restricted (restrict(amp) or restrict(amp, cpu)); a function
//        without a restriction specifier is restrict(cpu).
//   §2.2.2 constructors: a class constructed in amp code needs an
//        amp-restricted constructor (implicit ones are).
//   §7 (parallel_for_each): the kernel must be amp-restricted.
// slmc checks the calls reachable from a kernel (see
// docs/amp-spec-coverage.md for what is not checked).
// RUN: %slmcxx -fsyntax-only -Xclang -verify %s
// RUN: %clangxx -std=c++17 %plugin -fsyntax-only -Xclang -verify %s

#include <amp.h>
using namespace concurrency;

void unknown() restrict(gpu) {} // expected-error {{unknown restriction specifier 'gpu'; expected 'amp' or 'cpu'}}
void empty() restrict() {}      // expected-error {{restriction specifier list cannot be empty}}

int unrestricted(int x) { return x; } // expected-note {{'unrestricted' declared here; add 'restrict(amp)' or 'restrict(amp, cpu)' to call it from a kernel}}
int cpu_only(int x) restrict(cpu) { return x; } // expected-note {{'cpu_only' declared here}}
int amp_only(int x) restrict(amp) { return x + 1; }
int both(int x) restrict(amp, cpu) { return x * 2; }
int both_split(int x) restrict(amp) restrict(cpu) { return x * 3; }

struct AmpCtor {
  AmpCtor(int v) restrict(amp, cpu) : v(v) {}
  int v;
};
struct CpuCtor {
  CpuCtor(int v) : v(v) {} // expected-note {{'CpuCtor' declared here}}
  int v;
};
struct Implicit { int a; float b; };

void kernels(array_view<int, 1> av) {
  parallel_for_each(av.extent, [=](index<1> i) restrict(amp) {
    int x = av[i];
    x = amp_only(x) + both(x) + both_split(x);
    AmpCtor a(x);
    Implicit im = {x, 1.0f};
    Implicit copy = im;
    x += a.v + copy.a;
    // §2.2.3: a lambda in amp code without a restriction specifier takes
    // the amp restriction; one that names restrict(cpu) does not.
    auto inherits = [](int y) { return y + 1; };
    auto amp_lambda = [](int y) restrict(amp) { return y + 2; };
    auto cpu_lambda = [](int y) restrict(cpu) { return y + 3; }; // expected-note {{'operator()' declared here}}
    x += inherits(x) + amp_lambda(x);
    x += cpu_lambda(x); // expected-error {{call to 'operator()', which is not restricted to 'amp', from amp-restricted code}}
    x += unrestricted(x); // expected-error {{call to 'unrestricted', which is not restricted to 'amp', from amp-restricted code}}
    x += cpu_only(x);     // expected-error {{call to 'cpu_only', which is not restricted to 'amp', from amp-restricted code}}
    CpuCtor c(x);         // expected-error {{call to 'CpuCtor', which is not restricted to 'amp', from amp-restricted code}}
    av[i] = x + c.v;
  });
  parallel_for_each(av.extent, [=](index<1> i) { // expected-error {{the kernel passed to 'parallel_for_each' must be restricted to 'amp'}}
    av[i] = 0;
  });
  // restrict(amp, cpu) functions run on the host too.
  av[0] = both(1) + both_split(1) + AmpCtor(2).v;
}
