0// MSVC's C3600: tile_static reached from a non-tiled parallel_for_each,
// directly or through calls, with the call path in notes.
// RUN: %slmcxx -fsyntax-only -Xclang -verify %s
// RUN: %clangxx -std=c++17 %plugin -fsyntax-only -Xclang -verify %s

#include <amp.h>
using namespace concurrency;

int helper2() restrict(amp) {
  tile_static int deep; // expected-error {{'tile_static' variable 'deep' is used in a kernel launched by a non-tiled 'parallel_for_each'}}
  return deep;
}
int helper1() restrict(amp) {
  return helper2(); // expected-note {{called from 'helper1' here}}
}

void untiled(array_view<int, 1> av) {
  parallel_for_each(av.extent, [=](index<1> i) restrict(amp) { // expected-note 2 {{kernel launched here over an extent without tiles}}
    tile_static int direct; // expected-error {{'tile_static' variable 'direct' is used in a kernel launched by a non-tiled 'parallel_for_each'}}
    av[i] = direct + helper1(); // expected-note {{called from 'operator()' here}}
  });
}

// The same helpers are fine under a tiled launch.
void tiled(array_view<int, 1> av) {
  parallel_for_each(av.extent.tile<16>(), [=](tiled_index<16> t) restrict(amp) {
    av[t.global] = helper1();
  });
}
