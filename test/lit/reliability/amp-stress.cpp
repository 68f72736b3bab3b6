// Stress of C++ AMP on the CPU fallback: eight host threads, each with its
// own accelerator_view, launch small tiled parallel_for_each kernels back
// to back (tile_static data, tile_barrier, a tree reduction) while the
// kernels of the other threads run. Even launches read a fresh array_view
// of host memory and write another (discard_data, synchronize); odd ones
// work in place on a fresh array made from host data and copy it back with
// copy_async. Every launch also writes the tiles' sums to an array that
// lives as long as the thread, read back with copy; every element is
// checked. Then launches at the device's limits: tiles of 1024 threads (as
// 1024 and as 32 x 32) with 64 KiB of tile_static data each. All of it ten
// times in a row, fresh threads and views each time.
// RUN: %slmcxx -O2 %s -o %t
// RUN: %t 10 | FileCheck %s
// CHECK-COUNT-10: amp stress: 8 threads x 200 launches, limits 1024 threads / 65536 bytes: PASSED

#include <amp.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

using namespace concurrency;

constexpr int kThreads = 8, kLaunches = 200, kTile = 64;
// The CPU fallback's limits: work-items per tile, bytes of tile_static data.
constexpr int kLimitTile = 1024, kLimitInts = 16384, kLimitTiles = 2;

static std::atomic<int> bad{0};

#define FAIL(...)                                                              \
  do {                                                                         \
    if (bad++ < 5)                                                             \
      std::printf(__VA_ARGS__);                                                \
  } while (0)

static void worker(int t) {
  accelerator_view av = accelerator().create_view();
  const int tiles = t % 3 + 1, n = tiles * kTile;
  std::vector<int> host(n), back(n), tile_sums(tiles);
  array<int, 1> sums(tiles, av);
  for (int r = 0; r < kLaunches; ++r) {
    for (int i = 0; i < n; ++i)
      host[i] = (i * 7 + r * 3 + t * 11) % 101;
    const int salt = r * 100 + t;
    if (r % 2 == 0) {
      array_view<const int, 1> in(n, host);
      array_view<int, 1> out(n, back);
      out.discard_data();
      parallel_for_each(av, in.extent.tile<kTile>(),
                        [=, &sums](tiled_index<kTile> ti) restrict(amp) {
        tile_static int s[kTile];
        tile_static int part[kTile];
        const int l = ti.local[0];
        s[l] = in[ti.global];
        part[l] = s[l];
        ti.barrier.wait();
        out[ti.global] = s[kTile - 1 - l] + salt;
        for (int h = kTile / 2; h > 0; h /= 2) {
          if (l < h)
            part[l] += part[l + h];
          ti.barrier.wait();
        }
        if (l == 0)
          sums[ti.tile[0]] = part[0];
      });
      out.synchronize();
    } else {
      array<int, 1> data(n, host.begin(), av);
      parallel_for_each(av, data.extent.tile<kTile>(),
                        [=, &data, &sums](tiled_index<kTile> ti) restrict(amp) {
        tile_static int s[kTile];
        tile_static int part[kTile];
        const int l = ti.local[0];
        s[l] = data[ti.global];
        part[l] = s[l];
        ti.barrier.wait_with_tile_static_memory_fence();
        data[ti.global] = s[kTile - 1 - l] + salt;
        for (int h = kTile / 2; h > 0; h /= 2) {
          if (l < h)
            part[l] += part[l + h];
          ti.barrier.wait_with_tile_static_memory_fence();
        }
        if (l == 0)
          sums[ti.tile[0]] = part[0];
      });
      av.create_marker().wait();
      copy_async(data, back.begin()).get();
    }
    copy(sums, tile_sums.begin());
    for (int g = 0; g < tiles; ++g) {
      int want_sum = 0;
      for (int i = 0; i < kTile; ++i) {
        want_sum += host[g * kTile + i];
        const int want = host[g * kTile + kTile - 1 - i] + salt;
        if (back[g * kTile + i] != want)
          FAIL("thread %d launch %d tile %d element %d: %d, want %d\n", t, r, g, i,
               back[g * kTile + i], want);
      }
      if (tile_sums[g] != want_sum)
        FAIL("thread %d launch %d tile %d: sum %d, want %d\n", t, r, g, tile_sums[g],
             want_sum);
    }
  }
  av.wait();
}

// What thread l of tile g of the limit kernels finds: the sum of the 16
// elements kLimitTile apart from the end of the tile's data.
static int limit_sum(int g, int l) {
  int want = 0;
  for (int i = 0; i < kLimitInts / kLimitTile; ++i)
    want += (kLimitInts - 1 - l - i * kLimitTile) * 7 + g;
  return want;
}

static int round() {
  bad = 0;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back(worker, t);
  for (std::thread &th : threads)
    th.join();

  // At the limits: the largest tile, all the tile_static memory it may have.
  slmc_device_info info{};
  if (slmc_get_device_info(&info) != SLMC_SUCCESS)
    FAIL("slmc_get_device_info: %s\n", slmc_last_error());
  if (info.max_group_size != kLimitTile ||
      info.max_group_local_memory != kLimitInts * sizeof(int))
    FAIL("the device allows %zu threads / %zu bytes; the kernels are built for %d / %zu\n",
         info.max_group_size, info.max_group_local_memory, kLimitTile,
         kLimitInts * sizeof(int));
  array<int, 1> out(kLimitTile * kLimitTiles);
  parallel_for_each(out.extent.tile<kLimitTile>(),
                    [&out](tiled_index<kLimitTile> ti) restrict(amp) {
    tile_static int block[kLimitInts];
    const int l = ti.local[0], g = ti.tile[0];
    for (int i = 0; i < kLimitInts / kLimitTile; ++i)
      block[l + i * kLimitTile] = (l + i * kLimitTile) * 7 + g;
    ti.barrier.wait();
    int s = 0;
    for (int i = 0; i < kLimitInts / kLimitTile; ++i)
      s += block[kLimitInts - 1 - l - i * kLimitTile];
    out[ti.global] = s;
  });
  std::vector<int> got = out;
  for (int g = 0; g < kLimitTiles; ++g)
    for (int l = 0; l < kLimitTile; ++l)
      if (got[g * kLimitTile + l] != limit_sum(g, l))
        FAIL("limits: tile %d thread %d: %d, want %d\n", g, l, got[g * kLimitTile + l],
             limit_sum(g, l));

  // The same as 32 x 32 tiles, two of them side by side.
  array<int, 2> out2(32, 32 * kLimitTiles);
  parallel_for_each(out2.extent.tile<32, 32>(),
                    [&out2](tiled_index<32, 32> ti) restrict(amp) {
    tile_static int block[128][128];
    const int l = ti.local[0] * 32 + ti.local[1], g = ti.tile[1];
    for (int i = 0; i < kLimitInts / kLimitTile; ++i) {
      const int k = l + i * kLimitTile;
      block[k / 128][k % 128] = k * 7 + g;
    }
    ti.barrier.wait();
    int s = 0;
    for (int i = 0; i < kLimitInts / kLimitTile; ++i) {
      const int k = kLimitInts - 1 - l - i * kLimitTile;
      s += block[k / 128][k % 128];
    }
    out2[ti.global] = s;
  });
  std::vector<int> got2 = out2;
  for (int y = 0; y < 32; ++y)
    for (int x = 0; x < 32 * kLimitTiles; ++x)
      if (got2[y * 32 * kLimitTiles + x] != limit_sum(x / 32, y * 32 + x % 32))
        FAIL("limits 32 x 32: (%d, %d): %d, want %d\n", y, x, got2[y * 32 * kLimitTiles + x],
             limit_sum(x / 32, y * 32 + x % 32));

  std::printf("amp stress: %d threads x %d launches, limits %zu threads / %zu bytes: %s\n",
              kThreads, kLaunches, info.max_group_size, info.max_group_local_memory,
              bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}

int main(int argc, char **argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 1;
  for (int r = 0; r < rounds; ++r)
    if (round() != 0)
      return 1;
  return 0;
}
