// The C++ AMP rules hold whichever spelling the program uses (Concurrency::
// or concurrency::) and in code the program adds to a reopened namespace
// Concurrency; a class of the program's own named like a library one is not
// the library's. Reopening the alias concurrency is an error, as with MSVC.
// RUN: %slmcxx -fsyntax-only -Xclang -verify %s
// RUN: %clangxx -std=c++17 %plugin -fsyntax-only -Xclang -verify %s
// RUN: not %slmcxx -fsyntax-only -DREOPEN_ALIAS %s 2>&1 | FileCheck %s --check-prefix=ALIAS

#include <amp.h>

namespace Concurrency {
namespace Mine {
int host_only(int x) { return x; } // expected-note {{'host_only' declared here}}
int helper(int x) restrict(amp) {
  return host_only(x); // expected-error {{call to 'host_only', which is not restricted to 'amp', from amp-restricted code}}
}
void not_amp() {
  tile_static int x; // expected-error {{'tile_static' variable 'x' is only allowed in a function restricted to 'amp'}}
}
// Not Concurrency::tile_barrier: waiting on it is no tile barrier.
struct tile_barrier {
  void wait() const restrict(amp) {}
};
// Not Concurrency::array_view: a tile_static of it is allowed.
struct array_view {
  int v;
};
} // namespace Mine
void wait_helper(const tiled_index<64> &t) restrict(amp) { t.barrier.wait(); }
} // namespace Concurrency

#ifdef REOPEN_ALIAS
// ALIAS: error: redefinition of 'concurrency'
namespace concurrency {
}
#endif

void kernels(Concurrency::array_view<int, 1> av, int n) {
  Concurrency::parallel_for_each(av.extent, [=](Concurrency::index<1> i) restrict(amp) { // expected-note {{kernel launched here over an extent without tiles}}
    tile_static int direct; // expected-error {{'tile_static' variable 'direct' is used in a kernel launched by a non-tiled 'parallel_for_each'}}
    av[i] = Concurrency::Mine::helper(direct);
  });
  concurrency::parallel_for_each(av.extent.tile<64>(),
                                 [=](Concurrency::tiled_index<64> t) restrict(amp) {
    tile_static Concurrency::array_view<int, 1> view(av); // expected-error {{cannot have an initializer}} expected-error {{'tile_static' variable 'view' cannot have array_view or texture type}}
    tile_static Concurrency::Mine::array_view mine;
    Concurrency::Mine::tile_barrier own;
    if (t.local[0] < 32) // expected-note {{this condition depends on the thread's index}}
      t.barrier.wait(); // expected-warning {{tile barrier is under thread-dependent control flow}}
    if (t.local[0] < 16)
      own.wait(); // not a tile barrier: no warning
    if (t.global[0] < n) // expected-note {{this condition depends on the thread's index}}
      Concurrency::wait_helper(t); // expected-warning {{call to 'wait_helper', which waits on the tile barrier, is under thread-dependent control flow}}
    av[t.global] = mine.v;
  });
}
