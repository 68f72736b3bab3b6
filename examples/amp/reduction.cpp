// Sum of a large vector in C++ AMP, two ways.
//
//  * Tree reduction: every tile of 256 threads loads 256 elements into
//    tile_static memory and adds them pairwise in log2(256) = 8 steps, halving
//    the number of active threads at each step (sequential addressing: the
//    active threads stay contiguous). The tile's sum goes to an array of
//    partial sums, which the next pass reduces again, until one value is left.
//
//  * Cascading reduction: a fixed number of tiles of 512 threads; each thread
//    first adds up many elements on its own, striding over the whole input by
//    the total number of threads (so the reads stay contiguous across the
//    threads), then the tile reduces the 512 sums in tile_static memory, and a
//    final single-tile pass adds the per-tile results.
//
// Both are checked against a host sum computed in double precision.
#include <amp.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace concurrency;

static const int TREE_TILE = 256;
static const int CASCADE_TILE = 512;
static const int CASCADE_TILES = 64;

float ReduceTree(const std::vector<float> &data) {
  int n = int(data.size());
  array<float, 1> a(n, data.begin());
  array<float, 1> b((n + TREE_TILE - 1) / TREE_TILE);
  array<float, 1> *src = &a, *dst = &b;

  while (n > 1) {
    int partials = (n + TREE_TILE - 1) / TREE_TILE;
    array_view<const float, 1> in(src->section(index<1>(0), extent<1>(n)));
    array_view<float, 1> out(dst->section(index<1>(0), extent<1>(partials)));
    int len = n;
    parallel_for_each(extent<1>(n).tile<TREE_TILE>().pad(),
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
    n = partials;
    array<float, 1> *t = src;
    src = dst;
    dst = t;
  }
  std::vector<float> result(1);
  copy(src->section(index<1>(0), extent<1>(1)), result.begin());
  return result[0];
}

float ReduceCascade(const std::vector<float> &data) {
  const int n = int(data.size());
  array_view<const float, 1> in(n, data);
  array<float, 1> partial(CASCADE_TILES);
  array_view<float, 1> partial_v(partial);
  partial_v.discard_data();

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
  std::vector<float> total(1);
  array_view<float, 1> total_v(1, total);
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
  total_v.synchronize();
  return total[0];
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 1 << 20;
  if (n <= 0) {
    std::fprintf(stderr, "reduction: size must be positive\n");
    return 2;
  }
  std::vector<float> data(n);
  double ref = 0.0;
  for (int i = 0; i < n; ++i) {
    data[i] = float((i * 37) % 101) * 0.125f - 6.0f;
    ref += data[i];
  }

  float tree, cascade;
  try {
    tree = ReduceTree(data);
    cascade = ReduceCascade(data);
  } catch (const runtime_exception &e) {
    std::fprintf(stderr, "reduction: %s\n", e.what());
    return 1;
  }

  // Float sums in another order: allow the rounding of n additions.
  double tol = 1e-6 * std::sqrt(double(n)) * (1.0 + std::fabs(ref)) + 1e-3;
  bool tree_ok = std::fabs(tree - ref) <= tol;
  bool cascade_ok = std::fabs(cascade - ref) <= tol;
  std::printf("reduction tree %d: %s (sum %.3f, expected %.3f)\n", n,
              tree_ok ? "PASSED" : "FAILED", tree, ref);
  std::printf("reduction cascade %d: %s (sum %.3f, expected %.3f)\n", n,
              cascade_ok ? "PASSED" : "FAILED", cascade, ref);
  return tree_ok && cascade_ok ? 0 : 1;
}
