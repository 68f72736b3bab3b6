// C++ AMP v1.2 §2.3.2 "Function overloading": functions that differ only in
// their restriction are distinct overloads (namespace scope, members,
// operators, constructors, templates; a declaration of one and a definition
// of the other); a call resolves by its caller's context, and a
// restrict(cpu, amp) caller needs one overload for each context. A call
// with no overload for a context, or more than one, is ill-formed.
// RUN: %slmcxx -fsyntax-only -Xclang -verify %s
// RUN: %clangxx -std=c++17 %plugin -fsyntax-only -Xclang -verify %s

#include <amp.h>
using namespace concurrency;

int f(int x) restrict(cpu);
int f(int x) restrict(amp);
int f(int x) restrict(cpu) { return x + 1; }
int f(int x) restrict(amp) { return x + 2; }

namespace ns {
int g() { return 1; } // unrestricted is restrict(cpu)
int g() restrict(amp) { return 2; }
} // namespace ns

template <class T> T twice(T x) restrict(cpu) { return x + x; }
template <class T> T twice(T x) restrict(amp) { return 2 * x; }

struct P {
  P() restrict(cpu) : v(1) {}
  P() restrict(amp) : v(2) {}
  int get() const restrict(cpu) { return v; }
  int get() const restrict(amp);
  int operator+(int o) const restrict(cpu) { return v + o; }
  int operator+(int o) const restrict(amp) { return v - o; }
  int v;
};
int P::get() const restrict(amp) { return v * 10; }

// restrict(cpu, amp) and restrict(amp) are both amp overloads: a call from
// amp code cannot choose.
int amb(int x) restrict(amp) { return x; }             // expected-note 2 {{overload of 'amb' declared here, restrict(amp)}}
int amb(int x) restrict(cpu, amp) { return x + 1; }    // expected-note 2 {{overload of 'amb' declared here, restrict(cpu, amp)}}
// ... and restrict(cpu) and restrict(cpu, amp) both cpu overloads.
int amb2(int x) restrict(cpu) { return x; }            // expected-note {{overload of 'amb2' declared here, restrict(cpu)}}
int amb2(int x) restrict(amp, cpu) { return x; }       // expected-note {{overload of 'amb2' declared here, restrict(cpu, amp)}}

int amp_only(int x) restrict(amp) { return x; } // expected-note 2 {{overload of 'amp_only' declared here, restrict(amp)}}

// Both contexts find their overload.
int both(int x) restrict(cpu, amp) { return f(x) + ns::g() + twice(x); }
// The amp context finds none.
int both_bad(int x) restrict(cpu, amp) {
  return amp_only(x); // expected-error {{no overload of 'amp_only' is restricted to 'cpu', as a call from cpu code needs}}
}

int host(int x) {
  P p;
  int r = f(x) + ns::g() + twice(x) + p.get() + (p + 1) + amb(x) + amb2(x) + both(x);  // expected-error {{call to 'amb2' from cpu code is ambiguous: more than one overload is restricted to 'cpu'}}
  return r + amp_only(x); // expected-error {{no overload of 'amp_only' is restricted to 'cpu', as a call from cpu code needs}}
}

void kernels(array_view<int, 1> av) {
  parallel_for_each(av.extent, [=](index<1> i) restrict(amp) {
    P p;
    int x = f(av[i]) + ns::g() + twice(av[i]) + p.get() + (p + 1) + both(av[i]);
    x += amb2(x);
    x += amb(x); // expected-error {{call to 'amb' from amp code is ambiguous: more than one overload is restricted to 'amp'}}
    // A lambda without a restriction in amp code is amp code.
    auto inner = [](int y) { return amb(y); }; // expected-error {{call to 'amb' from amp code is ambiguous: more than one overload is restricted to 'amp'}}
    av[i] = x + inner(x) + amp_only(x);
  });
}
