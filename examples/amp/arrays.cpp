// A tour of C++ AMP's containers, each step checked: arrays made from host
// data and copied back, array_views of host memory, of arrays and with storage
// of their own, sections and projections, a kernel functor that holds an
// array by reference, launches on an accelerator_view, atomics on global and
// tile_static memory, and the extent checks of tiled launches.
#include <amp.h>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <vector>

using namespace concurrency;

static int failures = 0;
static void check(bool ok, const char *what) {
  if (!ok) {
    std::printf("check failed: %s\n", what);
    ++failures;
  }
}

// A kernel functor: C++ AMP lets it hold arrays by reference.
struct AddScaled {
  array<float, 1> &dest;
  const array<float, 1> &src;
  float scale;
  void operator()(index<1> idx) const restrict(amp) { dest[idx] += scale * src[idx]; }
};

int main(int argc, char **argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 1000;
  if (n < 100) {
    std::fprintf(stderr, "arrays: size must be at least 100\n");
    return 2;
  }
  try {
    accelerator acc;
    accelerator_view av = acc.default_view;

    // array from host iterators, a functor kernel on an accelerator_view,
    // copy back to the host.
    std::vector<float> x(n), y(n);
    std::iota(x.begin(), x.end(), 0.0f);
    for (int i = 0; i < n; ++i) y[i] = float(2 * i);
    array<float, 1> ax(n, x.begin(), x.end(), av), ay(n, y.begin(), av);
    parallel_for_each(av, ax.extent, AddScaled{ay, ax, 0.5f});
    std::vector<float> result = ay; // array converts to std::vector
    check(result[10] == 25.0f && result[n - 1] == 2.5f * (n - 1), "functor with array&");

    // array_view of host memory: a 2-D section and a projection (a row).
    const int rows = 12, cols = n / 12;
    std::vector<int> grid(rows * cols, 0);
    array_view<int, 2> g(rows, cols, grid);
    array_view<int, 2> block = g.section(index<2>(2, 3), extent<2>(4, 5));
    parallel_for_each(block.extent, [=](index<2> idx) restrict(amp) {
      block[idx] = 100 * idx[0] + idx[1] + 1;
    });
    array_view<int, 1> row = g[7];
    parallel_for_each(row.extent, [=](index<1> idx) restrict(amp) { row[idx] -= 1; });
    g.synchronize();
    check(grid[2 * cols + 3] == 1 && grid[5 * cols + 7] == 305, "section");
    check(grid[7 * cols + 0] == -1 && grid[7 * cols + cols - 1] == -1, "projection");
    check(grid[0] == 0 && grid[6 * cols + 2] == 0, "outside the section");

    // A 2-D array seen through an array_view, tiled, with a tile_static
    // reversal of each tile row; rank-2 indexing by (row, column).
    array<int, 2> m(8, 32);
    array_view<int, 2> mv(m);
    parallel_for_each(mv.extent, [=](index<2> idx) restrict(amp) { mv[idx] = idx[0] * 32 + idx[1]; });
    parallel_for_each(av, mv.extent.tile<4, 16>(), [=](tiled_index<4, 16> t) restrict(amp) {
      tile_static int buf[4][16];
      buf[t.local[0]][t.local[1]] = mv[t.global];
      t.barrier.wait();
      mv[t.global] = buf[t.local[0]][15 - t.local[1]];
    });
    check(m(1, 0) == 32 + 15 && m(7, 31) == 7 * 32 + 16, "tiled rank 2");

    // array_view with storage of its own; copies between arrays, views and
    // host iterators; copy_async.
    array_view<float, 1> scratch(n);
    parallel_for_each(scratch.extent, [=](index<1> idx) restrict(amp) { scratch[idx] = 3.0f * idx[0]; });
    array<float, 1> copy_of(n);
    copy(scratch, copy_of);
    std::vector<float> back(n);
    completion_future done = copy_async(copy_of, back.begin());
    done.wait();
    check(back[n - 1] == 3.0f * (n - 1), "copy and copy_async");
    copy(back.begin() + 1, back.end(), copy_of.section(index<1>(0), extent<1>(n - 1)));
    check(copy_of[0] == 3.0f && copy_of[n - 1] == 3.0f * (n - 1), "copy into a section");
    array<float, 2> shaped(4, 4);
    copy(copy_of.view_as(extent<2>(n / 4, 4)).section(index<2>(1, 0), extent<2>(4, 4)), shaped);
    check(shaped(0, 0) == 15.0f && shaped(3, 3) == 60.0f, "view_as");

    // Atomics: a histogram of i % 8 in tile_static memory, then global.
    std::vector<unsigned int> hist(8, 0);
    array_view<unsigned int, 1> h(8, hist);
    array<int, 1> stats(2); // [0]: largest index seen, [1]: count
    array_view<int, 1> s(stats);
    parallel_for_each(extent<1>(n).tile<64>().pad(), [=](tiled_index<64> t) restrict(amp) {
      tile_static unsigned int local[8];
      tile_static int biggest;
      if (t.local[0] < 8) local[t.local[0]] = 0;
      if (t.local[0] == 0) biggest = -1;
      t.barrier.wait();
      if (t.global[0] < n) {
        atomic_fetch_inc(&local[t.global[0] % 8]);
        atomic_fetch_max(&biggest, t.global[0]);
        atomic_fetch_add(&s[1], 1);
      }
      t.barrier.wait();
      if (t.local[0] < 8) atomic_fetch_add(&h[t.local[0]], local[t.local[0]]);
      if (t.local[0] == 0) atomic_fetch_max(&s[0], biggest);
    });
    h.synchronize();
    unsigned int total = 0;
    for (unsigned int c : hist) total += c;
    check(total == unsigned(n) && hist[0] == unsigned((n + 7) / 8), "tile_static atomics");
    check(stats[0] == n - 1 && stats[1] == n, "global atomics");

    // Index and extent arithmetic, tiled extents.
    index<2> i2(1, 2);
    i2 += index<2>(1, 1);
    ++i2;
    check(i2 == index<2>(3, 4), "index arithmetic");
    extent<2> e2(10, 20);
    tiled_extent<16, 16> te = e2.tile<16, 16>();
    check(te.pad() == extent<2>(16, 32) && te.truncate() == extent<2>(0, 16), "pad, truncate");

    // A tiled launch whose extent is not a multiple of the tile is refused
    // (at run time; slmc++ reports constant extents at compile time).
    bool refused = false;
    try {
      parallel_for_each(extent<1>(64 * (n / 64) + 1).tile<64>(),
                        [=](tiled_index<64>) restrict(amp) {});
    } catch (const invalid_compute_domain &) {
      refused = true;
    }
    check(refused, "invalid_compute_domain");
    av.wait();
  } catch (const runtime_exception &e) {
    std::fprintf(stderr, "arrays: %s\n", e.what());
    return 1;
  }
  std::printf("arrays %d: %s (%d failed checks)\n", n, failures ? "FAILED" : "PASSED", failures);
  return failures ? 1 : 0;
}
