// C++ AMP v1.2 §2.3.2: operators and conversion functions overloaded on
// their restriction whose cpu overload slmc++ cannot make call the amp one,
// and constructions of a class whose constructors are overloaded so that
// cannot choose the amp one, are checked (s2-3-2-overloading-rules.cpp) but
// slmc++ cannot compile them; it says so at the overload it cannot rename or
// at the construction.
// RUN: not %slmcxx --emit=offload-cpp %s -o /dev/null 2>&1 | FileCheck %s

#include <amp.h>
using namespace concurrency;

struct P {
  P() restrict(cpu) : v(1) {}
  P() restrict(amp) : v(2) {}
  // Defined elsewhere: nothing here can call the amp overload.
  int operator+(int o) const restrict(cpu);
  // CHECK-DAG: s2-3-2-overloading-not-lowered.cpp:[[# @LINE + 1]]:7: error: 'operator+' is overloaded on its restriction; slmc++ compiles an operator overloaded this way when it has one cpu and one amp overload and the cpu one is defined in this file, after the amp one is declared, with every parameter named
  int operator+(int o) const restrict(amp) { return v - o; }
  // An unnamed parameter cannot be passed on.
  int operator-(int) const restrict(cpu) { return v; }
  // CHECK-DAG: s2-3-2-overloading-not-lowered.cpp:[[# @LINE + 1]]:7: error: 'operator-' is overloaded on its restriction
  int operator-(int o) const restrict(amp) { return v - o; }
  int v;
};

// A conversion function defined out of its class.
struct Q {
  operator int() const restrict(cpu);
  // CHECK-DAG: s2-3-2-overloading-not-lowered.cpp:[[# @LINE + 1]]:3: error: 'operator int' is overloaded on its restriction; slmc++ compiles constructors and conversion functions overloaded this way only as one cpu and one amp overload (conversion functions defined in their class)
  operator int() const restrict(amp) { return 2; }
};
Q::operator int() const restrict(cpu) { return 1; }

// The cpu overload is defined before the amp one is declared.
int operator*(P p, int o) restrict(cpu) { return p.v * o; }
// CHECK-DAG: s2-3-2-overloading-not-lowered.cpp:[[# @LINE + 1]]:5: error: 'operator*' is overloaded on its restriction; slmc++ compiles an operator overloaded this way when it has one cpu and one amp overload and the cpu one is defined in this file, after the amp one is declared
int operator*(P p, int o) restrict(amp) { return p.v * o * 2; }

// Constructions that cannot pass the amp constructor's tag.
P make(int k) restrict(cpu, amp) {
  // CHECK-DAG: s2-3-2-overloading-not-lowered.cpp:[[# @LINE + 1]]:5: error: slmc++ cannot compile this construction of 'P', whose constructors are overloaded on their restriction, in restrict(cpu, amp) code: the constructor would have to be chosen while the code runs
  P p;
  p.v += k;
  return p;
}

void run(array_view<int, 1> av) {
  parallel_for_each(av.extent, [=](index<1> i) restrict(amp) {
    // CHECK-DAG: s2-3-2-overloading-not-lowered.cpp:[[# @LINE + 1]]:7: error: slmc++ cannot compile this construction of 'P', whose constructors are overloaded on their restriction, in amp code: only a construction written with parentheses or braces, or a variable declared without an initializer, can choose the amp constructor
    P two[2];
    P p;
    Q q;
    av[i] = p + 1 - 2 + p * 3 + int(q) + two[1].v + make(1).v;
  });
}
// After every error above:
// CHECK: 6 errors generated.
