// The two C++ AMP reductions of reduction.cpp (and of
// benchmarks/amp/reduction_bench.cpp): a tree reduction in passes of tiles of
// 256, and a cascading reduction (64 tiles of 512 threads striding over the
// input, then one tile of 64). Also the input both programs sum.
#ifndef SLMC_EXAMPLES_AMP_REDUCTION_KERNEL_H
#define SLMC_EXAMPLES_AMP_REDUCTION_KERNEL_H

#include <amp.h>
#include <vector>

using namespace concurrency;

static const int TREE_TILE = 256;
static const int CASCADE_TILE = 512;
static const int CASCADE_TILES = 64;

// Tree reduction, one pass: every tile of 256 threads adds its values of
// `in` (`len` of them) pairwise in tile_static memory, halving the number of
// active threads at each step, and writes the tile's sum to `out`.
void ReduceTreePass(array_view<const float, 1> in, array_view<float, 1> out, int len) {
  parallel_for_each(extent<1>(len).tile<TREE_TILE>().pad(),
                    [=](tiled_index<TREE_TILE> t_idx) restrict(amp) {
    tile_static float sums[TREE_TILE];
    int tid = t_idx.local[0];
    int gid = t_idx.global[0];
    sums[tid] = gid < len ? in[gid] : 0.0f;
    t_idx.barrier.wait();
    for (int stride = TREE_TILE / 2; stride > 0; stride /= 2) {
      if (tid < stride)
        sums[tid] += sums[tid + stride];
      t_idx.barrier.wait();
    }
    if (tid == 0)
      out[t_idx.tile[0]] = sums[0];
  });
}

// Tree reduction, all passes until one value is left. The first pass reads
// `data`, which stays unchanged (a benchmark reduces it again and again);
// the later ones ping-pong between `b` and `c`, of (n + 255) / 256 elements
// each. Returns the array whose element 0 holds the sum.
array<float, 1> *ReduceTree(array<float, 1> &data, array<float, 1> &b, array<float, 1> &c) {
  int n = data.extent[0];
  array<float, 1> *src = &data, *dst = &b;
  while (n > 1) {
    int partials = (n + TREE_TILE - 1) / TREE_TILE;
    ReduceTreePass(array_view<const float, 1>(src->section(index<1>(0), extent<1>(n))),
                   array_view<float, 1>(dst->section(index<1>(0), extent<1>(partials))), n);
    n = partials;
    src = dst;
    dst = dst == &b ? &c : &b;
  }
  return src;
}

// Cascading reduction of `in` into total_v[0]; partial_v holds the
// CASCADE_TILES per-tile sums.
void ReduceCascade(array_view<const float, 1> in, array_view<float, 1> partial_v,
                   array_view<float, 1> total_v) {
  const int n = in.extent[0];
  parallel_for_each(extent<1>(CASCADE_TILES * CASCADE_TILE).tile<CASCADE_TILE>(),
                    [=](tiled_index<CASCADE_TILE> t_idx) restrict(amp) {
    tile_static float sums[CASCADE_TILE];
    int tid = t_idx.local[0];
    float sum = 0.0f;
    for (int i = t_idx.global[0]; i < n; i += CASCADE_TILES * CASCADE_TILE)
      sum += in[i];
    sums[tid] = sum;
    t_idx.barrier.wait();
    for (int stride = CASCADE_TILE / 2; stride > 0; stride /= 2) {
      if (tid < stride)
        sums[tid] += sums[tid + stride];
      t_idx.barrier.wait();
    }
    if (tid == 0)
      partial_v[t_idx.tile[0]] = sums[0];
  });

  // One tile adds the per-tile sums.
  parallel_for_each(extent<1>(CASCADE_TILES).tile<CASCADE_TILES>(),
                    [=](tiled_index<CASCADE_TILES> t_idx) restrict(amp) {
    tile_static float sums[CASCADE_TILES];
    int tid = t_idx.local[0];
    sums[tid] = partial_v[tid];
    t_idx.barrier.wait();
    for (int stride = CASCADE_TILES / 2; stride > 0; stride /= 2) {
      if (tid < stride)
        sums[tid] += sums[tid + stride];
      t_idx.barrier.wait();
    }
    if (tid == 0)
      total_v[0] = sums[0];
  });
}

// The per-tile sums and the total of a cascading reduction.
struct CascadeBuffers {
  array<float, 1> partial;
  array_view<float, 1> partial_v;
  std::vector<float> total;
  array_view<float, 1> total_v;
  CascadeBuffers() : partial(CASCADE_TILES), partial_v(partial), total(1), total_v(1, total) {
    partial_v.discard_data();
  }
  // The sum, once the kernels are done.
  float sum() {
    total_v.synchronize();
    return total[0];
  }
};

// The input both programs sum.
std::vector<float> ReductionInput(int n) {
  std::vector<float> data(n);
  for (int i = 0; i < n; ++i)
    data[i] = float((i * 37) % 101) * 0.125f - 6.0f;
  return data;
}

// Its sum on the host, in double precision.
double HostSum(const std::vector<float> &data) {
  double sum = 0.0;
  for (float x : data)
    sum += x;
  return sum;
}

#endif
