// Kernels shared by several sources, as C++ AMP projects keep them.
#pragma once
#include <amp.h>

namespace kernels {

inline int weight(int i) restrict(amp, cpu) { return i % 3 + 1; }

// Sums each tile of `in` into out[tile]: the tile's values meet in
// tile_static memory and are reduced there.
template <int Tile>
void tile_sums(concurrency::array_view<const int, 1> in,
               concurrency::array_view<int, 1> out) {
  concurrency::parallel_for_each(
      in.extent.tile<Tile>(), [=](concurrency::tiled_index<Tile> t) restrict(amp) {
        tile_static int part[Tile];
        int l = t.local[0];
        part[l] = in[t.global] * weight(t.global[0]);
        t.barrier.wait();
        for (int s = Tile / 2; s > 0; s /= 2) {
          if (l < s)
            part[l] += part[l + s];
          t.barrier.wait();
        }
        if (l == 0)
          out[t.tile[0]] = part[0];
      });
}

int sum_of_tiles(const std::vector<int> &values);
void scale_all(std::vector<int> &values, int by); // in libscale.so

} // namespace kernels
