// Tile extents: at most 1024 threads per tile.
// RUN: %slmcxx -fsyntax-only -Xclang -verify %s
// RUN: %clangxx -std=c++17 %plugin -fsyntax-only -Xclang -verify %s

#include <amp.h>
using namespace concurrency;

void tiles(array_view<int, 2> av, array_view<int, 3> av3) {
  parallel_for_each(av.extent.tile<32, 32>(), [=](tiled_index<32, 32> t) restrict(amp) {
    av[t.global] = 0;
  });
  parallel_for_each(av.extent.tile<64, 32>(), [=](tiled_index<64, 32> t) restrict(amp) { // expected-error {{a tile of 2048 threads is larger than the maximum of 1024}}
    av[t.global] = 0;
  });
  parallel_for_each(av3.extent.tile<16, 16, 8>(), [=](tiled_index<16, 16, 8> t) restrict(amp) { // expected-error {{a tile of 2048 threads is larger than the maximum of 1024}}
    av3[t.global] = 0;
  });
}
