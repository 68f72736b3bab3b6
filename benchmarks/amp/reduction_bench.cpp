// Benchmark: the two C++ AMP reductions of examples/amp/reduction.cpp, timed
// on whatever device slmc's runtime picks: kernel launches only, after a
// warm-up.
//
//  * tree: tiles of 256 threads, a tile_static tree per tile, passes until
//    one value is left. The example ping-pongs between the input array and
//    one scratch array; here the first pass reads the input and the later
//    ones ping-pong between two scratch arrays, so that every repetition
//    reduces the same input (the kernel is the example's).
//  * cascade: 64 tiles of 512 threads striding over the input, a tree of 512
//    in tile_static memory, then one tile of 64 adds the per-tile sums.
//
// Prints two lines: "amp reduction-tree N=<n> <ms> ms <GB/s> GB/s verified"
// and the same for reduction-cascade.
// Usage: reduction_bench [N=33554432] [repetitions=200]
#include <amp.h>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace concurrency;

static const int TREE_TILE = 256;
static const int CASCADE_TILE = 512;
static const int CASCADE_TILES = 64;

// One pass of the tree reduction: `len` values of `in` to one partial sum per
// tile in `out`.
static void TreePass(array_view<const float, 1> in, array_view<float, 1> out, int len) {
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

// All passes; returns the array whose element 0 holds the sum.
static array<float, 1> *ReduceTree(array<float, 1> &data, array<float, 1> &b,
                                   array<float, 1> &c) {
  int n = data.extent[0];
  array<float, 1> *src = &data, *dst = &b;
  while (n > 1) {
    int partials = (n + TREE_TILE - 1) / TREE_TILE;
    TreePass(array_view<const float, 1>(src->section(index<1>(0), extent<1>(n))),
             array_view<float, 1>(dst->section(index<1>(0), extent<1>(partials))), n);
    n = partials;
    src = dst;
    dst = dst == &b ? &c : &b;
  }
  return src;
}

static void ReduceCascade(array_view<const float, 1> in, array_view<float, 1> partial_v,
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

template <class F> static double time_ms(const accelerator &acc, int reps, F run) {
  run(); // warm-up: module build / JIT, first touch of the data
  acc.default_view.wait();
  auto t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < reps; ++r)
    run();
  acc.default_view.wait();
  auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::milli>(t1 - t0).count() / reps;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 1 << 25;
  int reps = argc > 2 ? std::atoi(argv[2]) : 200;
  if (n <= 1 || reps <= 0) {
    std::fprintf(stderr, "usage: reduction_bench [N > 1] [repetitions]\n");
    return 2;
  }
  std::vector<float> data(n);
  double ref = 0.0;
  for (int i = 0; i < n; ++i) {
    data[i] = float((i * 37) % 101) * 0.125f - 6.0f;
    ref += data[i];
  }
  double tol = 1e-6 * std::sqrt(double(n)) * (1.0 + std::fabs(ref)) + 1e-3;
  accelerator acc;
  int status = 0;

  {
    array<float, 1> a(n, data.begin());
    array<float, 1> b((n + TREE_TILE - 1) / TREE_TILE), c((n + TREE_TILE - 1) / TREE_TILE);
    array<float, 1> *result = nullptr;
    double ms = time_ms(acc, reps, [&] { result = ReduceTree(a, b, c); });
    std::vector<float> sum(1);
    copy(result->section(index<1>(0), extent<1>(1)), sum.begin());
    bool ok = std::fabs(sum[0] - ref) <= tol;
    std::printf("amp reduction-tree N=%d %.4f ms %.1f GB/s %s\n", n, ms,
                sizeof(float) * double(n) / (ms * 1e6), ok ? "verified" : "WRONG");
    status |= !ok;
  }
  {
    array_view<const float, 1> in(n, data);
    array<float, 1> partial(CASCADE_TILES);
    array_view<float, 1> partial_v(partial);
    partial_v.discard_data();
    std::vector<float> total(1);
    array_view<float, 1> total_v(1, total);
    double ms = time_ms(acc, reps, [&] { ReduceCascade(in, partial_v, total_v); });
    total_v.synchronize();
    bool ok = std::fabs(total[0] - ref) <= tol;
    std::printf("amp reduction-cascade N=%d %.4f ms %.1f GB/s %s\n", n, ms,
                sizeof(float) * double(n) / (ms * 1e6), ok ? "verified" : "WRONG");
    status |= !ok;
  }
  return status;
}
