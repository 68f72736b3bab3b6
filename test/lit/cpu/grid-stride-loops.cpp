// Grid-stride loops (`for (i = global id; i < n; i += threads)`) in work-item
// loops: slmc++ interchanges the item loop and the work-item loop (step k
// runs iteration k of every item still in its loop), so consecutive items
// read consecutive elements. Each item's iterations keep their order; the
// items still in their loops at a step are a prefix of the row. Checked
// against serial results at sizes below, at and around the grid's width,
// on the loops, on fibers and unoptimised.
// RUN: %slmcxx -O2 %s -o %t
// RUN: env SLMC_VERBOSE=1 %t 2>&1 | FileCheck %s --check-prefixes=CHECK,LOOPS
// RUN: env SLMC_CPU_WORK_ITEM_LOOPS=0 %t 2>&1 | FileCheck %s
// RUN: %slmcxx -O0 %s -o %t.O0
// RUN: %t.O0 2>&1 | FileCheck %s
// LOOPS-NOT: runs as fibers
// LOOPS: runs as work-item loops
// CHECK: histogram: 9 sizes ok
// CHECK: scaled copy: 9 sizes ok
// CHECK: sums: 9 sizes ok
// CHECK-NOT: FAILED

#include <amp.h>
#include <cstdio>
#include <vector>

using namespace concurrency;

static const int TS = 64, TILES = 4, THREADS = TS * TILES;

static void Histogram(array_view<const unsigned, 1> data, array_view<unsigned, 1> hist) {
  const int words = data.extent[0];
  parallel_for_each(extent<1>(THREADS).tile<TS>(), [=](tiled_index<TS> t) restrict(amp) {
    tile_static unsigned bins[64];
    bins[t.local[0]] = 0;
    t.barrier.wait();
    for (int i = t.global[0]; i < words; i += THREADS) {
      unsigned w = data[i];
      atomic_fetch_inc(&bins[w & 63]);
      atomic_fetch_inc(&bins[(w >> 8) & 63]);
    }
    t.barrier.wait();
    atomic_fetch_add(&hist[t.local[0]], bins[t.local[0]]);
  });
}

// Each item's loop writes its own elements; the values depend on the
// item's id and the iteration, which the interchange must keep paired.
static void ScaledCopy(array_view<const int, 1> in, array_view<int, 1> out, int n) {
  parallel_for_each(extent<1>(THREADS).tile<TS>(), [=](tiled_index<TS> t) restrict(amp) {
    for (int i = t.global[0]; i < n; i += THREADS)
      out[i] = in[i] * 3 + t.local[0] - t.tile[0];
  });
}

// Each item sums its elements (a value carried from one iteration to the
// next, kept per item across the steps) and the code after the loop
// stores the sum; item 0 adds the tile's sums after a barrier.
static void Sums(array_view<const int, 1> in, array_view<long long, 1> tiles, int n) {
  parallel_for_each(extent<1>(THREADS).tile<TS>(), [=](tiled_index<TS> t) restrict(amp) {
    tile_static long long partial[TS];
    long long sum = t.local[0]; // starts from the item's id
    int count = 0;
    for (int i = t.global[0]; i < n; i += THREADS) {
      sum += in[i];
      ++count;
    }
    partial[t.local[0]] = sum * 4 + count;
    t.barrier.wait();
    if (t.local[0] == 0) {
      long long total = 0;
      for (int k = 0; k < TS; ++k)
        total += partial[k];
      tiles[t.tile[0]] = total;
    }
  });
}

int main() {
  const int sizes[] = {0, 1, 63, 255, 256, 257, 1000, THREADS * 7, THREADS * 7 + 13};
  int ok = 0;
  for (int n : sizes) {
    std::vector<unsigned> data(n + 1), hist(64, 0), want(64, 0);
    for (int i = 0; i < n; ++i) {
      data[i] = unsigned(i * 2654435761u);
      ++want[data[i] & 63];
      ++want[(data[i] >> 8) & 63];
    }
    array_view<const unsigned, 1> dv(n ? n : 1, data);
    array_view<unsigned, 1> hv(64, hist);
    Histogram(n ? dv : dv.section(0, 1), hv);
    hv.synchronize();
    if (n == 0)
      for (unsigned &w : want)
        w = 0;
    if (n == 0) { // one word was scanned: the section of one
      ++want[data[0] & 63];
      ++want[(data[0] >> 8) & 63];
    }
    if (hist == want)
      ++ok;
    else
      std::printf("histogram FAILED at n=%d\n", n);
  }
  std::printf("histogram: %d sizes ok\n", ok);

  ok = 0;
  for (int n : sizes) {
    std::vector<int> in(n + 1), out(n + 1, -1);
    for (int i = 0; i < n; ++i)
      in[i] = i * 7 - 300;
    array_view<const int, 1> iv(n + 1, in);
    array_view<int, 1> ov(n + 1, out);
    ScaledCopy(iv, ov, n);
    ov.synchronize();
    bool good = out[n] == -1;
    for (int i = 0; i < n && good; ++i) {
      const int g = i % THREADS;
      good = out[i] == in[i] * 3 + g % TS - g / TS;
    }
    if (good)
      ++ok;
    else
      std::printf("scaled copy FAILED at n=%d\n", n);
  }
  std::printf("scaled copy: %d sizes ok\n", ok);

  ok = 0;
  for (int n : sizes) {
    std::vector<int> in(n + 1);
    for (int i = 0; i < n; ++i)
      in[i] = (i * 37) % 101 - 50;
    std::vector<long long> tiles(TILES, -1);
    array_view<const int, 1> iv(n + 1, in);
    array_view<long long, 1> tv(TILES, tiles);
    Sums(iv, tv, n);
    tv.synchronize();
    bool good = true;
    for (int tile = 0; tile < TILES; ++tile) {
      long long want = 0;
      for (int l = 0; l < TS; ++l) {
        long long sum = l;
        int count = 0;
        for (int i = tile * TS + l; i < n; i += THREADS) {
          sum += in[i];
          ++count;
        }
        want += sum * 4 + count;
      }
      good = good && tiles[tile] == want;
    }
    if (good)
      ++ok;
    else
      std::printf("sums FAILED at n=%d\n", n);
  }
  std::printf("sums: %d sizes ok\n", ok);
}
