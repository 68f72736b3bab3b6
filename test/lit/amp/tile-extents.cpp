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

// Static extents must be positive multiples of the tile (else pad() or
// truncate()); extents known only at run time are checked at launch.
void static_extents(array_view<int, 2> av) {
  parallel_for_each(extent<2>(64, 48).tile<16, 16>(), [=](tiled_index<16, 16> t) restrict(amp) {
    av[t.global] = 1;
  });
  parallel_for_each(extent<2>(64, 50).tile<16, 16>(), [=](tiled_index<16, 16> t) restrict(amp) { // expected-error {{extent 50 in dimension 1 is not a multiple of the tile size 16; use 'pad()' or 'truncate()'}}
    av[t.global] = 1;
  });
  const extent<1> e(100);
  parallel_for_each(e.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expected-error {{extent 100 in dimension 0 is not a multiple of the tile size 64}}
    av(0, 0) = t.global[0];
  });
  parallel_for_each(extent<1>(0).tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expected-error {{extent 0 in dimension 0 is not positive}}
    av(0, 0) = t.global[0];
  });
  parallel_for_each(e.tile<64>().pad(), [=](tiled_index<64> t) restrict(amp) {
    if (t.global[0] < 100) av(0, 0) = t.global[0];
  });
}
