// Expectations that do not hold (see verify-self-test.test).
// RUN: %slmcxx -fsyntax-only -Xclang -verify %s

#include <amp.h>
using namespace concurrency;

void f(array_view<int, 1> av) {
  parallel_for_each(av.extent.tile<32>(), [=](tiled_index<32> t) restrict(amp) {
    tile_static int ok;
    tile_static int x = 1; // expected-error {{cannot have an initializer}}
    ok = x; // expected-error {{this error does not exist}}
    // expected-error@+1 {{cannot have an initializer}}

    tile_static int y = 2;
    tile_static int *p; // expected-warning {{will not run}}
    av[t.global] = ok + y + (p != nullptr);
  });
}
