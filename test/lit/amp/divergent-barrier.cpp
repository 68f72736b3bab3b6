// MSVC's C3561: a tile barrier under control flow that depends on the
// thread's index is undefined behaviour; slmc warns and points at the
// condition. Conditions on the tile index, or on values every thread
// shares, are fine.
// RUN: %slmcxx -fsyntax-only -Xclang -verify %s
// RUN: %clangxx -std=c++17 %plugin -fsyntax-only -Xclang -verify %s
// RUN: %slmcxx -fsyntax-only -Wno-slmc-divergent-barrier -Xclang -verify=off %s
// off-no-diagnostics

#include <amp.h>
using namespace concurrency;

void sync_helper(const tiled_index<64> &t) restrict(amp) { t.barrier.wait(); }

void kernels(array_view<int, 1> av, int n) {
  parallel_for_each(av.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) {
    tile_static int s[64];
    s[t.local[0]] = av[t.global];
    t.barrier.wait(); // uniform: fine
    if (t.local[0] < 32) // expected-note {{this condition depends on the thread's index}}
      t.barrier.wait(); // expected-warning {{tile barrier is under thread-dependent control flow; every thread of the tile must reach it}}
    int me = t.global[0] * 2;
    while (me > n) { // expected-note {{this condition depends on the thread's index}}
      t.barrier.wait(); // expected-warning {{tile barrier is under thread-dependent control flow}}
      me -= 64;
    }
    // The note points at (and highlights) the thread-dependent part.
    if (n > 4 && t.local[0] < 8) // expected-note {{this condition depends on the thread's index}}
      t.barrier.wait(); // expected-warning {{tile barrier is under thread-dependent control flow}}
    if (t.tile[0] == 0) // the tile index is the same for the whole tile
      t.barrier.wait();
    for (int i = 0; i < n; ++i) // uniform trip count
      t.barrier.wait();
    bool odd = t.local[0] % 2;
    if (odd) // expected-note {{this condition depends on the thread's index}}
      sync_helper(t); // expected-warning {{call to 'sync_helper', which waits on the tile barrier, is under thread-dependent control flow}}
    av[t.global] = s[0];
  });

  parallel_for_each(av.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) {
    if (t.global[0] >= n) // expected-note {{this condition depends on the thread's index}}
      return;
    t.barrier.wait(); // expected-warning {{tile barrier is under thread-dependent control flow}}
    av[t.global] = 0;
  });
}
