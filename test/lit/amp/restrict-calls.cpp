// amp-restricted code may call only amp-restricted functions (restrict(amp)
// or restrict(amp, cpu), in any declaration), constexpr and implicit ones,
// and the dialect library; the kernel itself must be restrict(amp).
// RUN: %slmcxx -fsyntax-only -Xclang -verify %s
// RUN: %clangxx -std=c++17 %plugin -fsyntax-only -Xclang -verify %s

#include <amp.h>
using namespace concurrency;

int host_only(int x) { return x + 1; } // expected-note {{'host_only' declared here; add 'restrict(amp)' or 'restrict(amp, cpu)' to call it from a kernel}}
int cpu_only(int x) restrict(cpu) { return x; } // expected-note {{'cpu_only' declared here}}
int both(int x) restrict(amp, cpu) { return x * 2; }
int amp_only(int x) restrict(amp);
int amp_only(int x) restrict(amp) { return both(x) - 1; }
constexpr int folded(int x) { return x * 3; }
int indirect(int x) restrict(amp) {
  return host_only(x); // expected-error {{call to 'host_only', which is not restricted to 'amp', from amp-restricted code}}
}
struct Vec {
  Vec(int v) restrict(amp, cpu) : v(v) {}
  Vec operator+(const Vec &o) const restrict(amp) { return Vec(v + o.v); }
  int get() const { return v; } // expected-note {{'get' declared here}}
  int v;
};

void kernels(array_view<int, 1> av) {
  parallel_for_each(av.extent, [=](index<1> i) restrict(amp) {
    int x = av[i];
    x = amp_only(x) + both(x) + folded(x) + indirect(x);
    Vec a(x), b(1);
    x += (a + b).v;
    x += cpu_only(x); // expected-error {{call to 'cpu_only', which is not restricted to 'amp', from amp-restricted code}}
    x += a.get();     // expected-error {{call to 'get', which is not restricted to 'amp', from amp-restricted code}}
    av[i] = x;
  });
  parallel_for_each(av.extent, [=](index<1> i) { // expected-error {{the kernel passed to 'parallel_for_each' must be restricted to 'amp'}}
    av[i] = 0;
  });
}

// The C library's functions are host functions, although Clang knows them
// as builtins: MSVC refuses them in amp code too (C3930). Compiler builtins
// and constexpr functions are fine. (libstdc++'s float overloads, such as
// erf(float), are constexpr and pass here; the device pass still refuses
// those that are no instruction.)
#include <math.h>
#include <stdlib.h>
void library_calls(array_view<float, 1> av) {
  parallel_for_each(av.extent, [=](index<1> i) restrict(amp) {
    float x = av[i];
    x = float(erf(double(x))); // expected-error {{call to 'erf', which is not restricted to 'amp', from amp-restricted code}} expected-note {{'erf' is a C library function, which only the host has; amp code calls the math of Concurrency::precise_math or fast_math (<amp_math.h>) and Concurrency::direct3d}}
    x += float(abs(int(x))); // expected-error {{call to 'abs', which is not restricted to 'amp'}} expected-note {{'abs' is a C library function}}
    x += __builtin_fabsf(x) + float(folded(2));
    av[i] = x;
  });
}

// An amp-restricted function kernel code calls must be defined in the same
// translation unit: device code is never linked across files.
float elsewhere(float x) restrict(amp); // expected-note {{'elsewhere' is declared here; slmc compiles each translation unit's device code on its own}}
float declared_twice(float x) restrict(amp);
void defined_elsewhere(array_view<float, 1> av) {
  parallel_for_each(av.extent, [=](index<1> i) restrict(amp) {
    av[i] = elsewhere(av[i]); // expected-error {{'elsewhere' is called from kernel code but is not defined in this translation unit}}
    av[i] += declared_twice(av[i]);
  });
}
float declared_twice(float x) restrict(amp) { return x; }
