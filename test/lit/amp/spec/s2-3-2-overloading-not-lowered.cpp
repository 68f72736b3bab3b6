// C++ AMP v1.2 §2.3.2: operators and constructors overloaded on their
// restriction are checked (s2-3-2-overloading-rules.cpp) but slmc++ cannot
// compile them yet; it says so at the overload it cannot rename.
// RUN: not %slmcxx --emit=offload-cpp %s -o /dev/null 2>&1 | FileCheck %s

#include <amp.h>
using namespace concurrency;

struct P {
  P() restrict(cpu) : v(1) {}
  // CHECK: s2-3-2-overloading-not-lowered.cpp:[[# @LINE + 1]]:3: error: 'P' is overloaded on its restriction; slmc++ compiles only named functions overloaded this way, not operators or constructors
  P() restrict(amp) : v(2) {}
  int operator+(int o) const restrict(cpu) { return v + o; }
  // CHECK: s2-3-2-overloading-not-lowered.cpp:[[# @LINE + 1]]:7: error: 'operator+' is overloaded on its restriction
  int operator+(int o) const restrict(amp) { return v - o; }
  int v;
};

void run(array_view<int, 1> av) {
  parallel_for_each(av.extent, [=](index<1> i) restrict(amp) {
    P p;
    av[i] = p + 1;
  });
}
