// C++ AMP kernels in a user header, included by two sources: a templated
// tiled kernel with tile_static data, restrict(amp) helpers, a functor.
#pragma once
#include <amp.h>
#include <vector>

#include "detail/scaling.h"

// Reverses each tile of `v` through tile_static memory and scales it by
// 1/Tile.
template <int Tile> void reverse_tiles(concurrency::array_view<float, 1> v) {
  using namespace concurrency;
  parallel_for_each(v.extent.tile<Tile>(), [=](tiled_index<Tile> t) restrict(amp) {
    tile_static float buf[Tile];
    buf[t.local[0]] = v[t.global];
    t.barrier.wait();
    v[t.global] = buf[Tile - 1 - t.local[0]] * scale_of(Tile);
  });
}

// A kernel functor: each element gets the line number of line_here().
struct stamp_lines {
  concurrency::array_view<int, 1> out;
  void operator()(concurrency::index<1> i) const restrict(amp) { out[i] = line_here(); }
};

void run_other(std::vector<float> &data, std::vector<int> &lines);
