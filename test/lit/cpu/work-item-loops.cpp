// The CPU fallback runs a tiled kernel's work-items as loops cut at its
// barriers (lib/CpuFallback/WorkItemLoops.cpp): barriers in loops and in
// uniform branches, values and private arrays live across several barriers,
// 1-D to 3-D tiles up to 1024 work-items, a barrier in a function the
// optimiser did not inline. Every result is checked against a serial
// computation, on the loops, on fibers (SLMC_CPU_WORK_ITEM_LOOPS=0) and
// from an unoptimised build (fibers: the pass runs with optimisation only).
// RUN: %slmcxx -O2 %s -o %t
// RUN: env SLMC_DEVICE=cpu SLMC_VERBOSE=1 %t 2>&1 | FileCheck %s --check-prefixes=CHECK,LOOPS
// RUN: env SLMC_DEVICE=cpu SLMC_VERBOSE=1 SLMC_CPU_WORK_ITEM_LOOPS=0 %t 2>&1 | FileCheck %s --check-prefixes=CHECK,OFF
// RUN: %slmcxx -O0 %s -o %t.O0
// RUN: env SLMC_DEVICE=cpu SLMC_VERBOSE=1 %t.O0 2>&1 | FileCheck %s --check-prefixes=CHECK,O0
// LOOPS-NOT: runs as fibers
// OFF-NOT: runs as work-item loops
// O0-NOT: runs as work-item loops
// LOOPS: kernel '{{.*}}' runs as work-item loops
// OFF: kernel '{{.*}}' runs as fibers (SLMC_CPU_WORK_ITEM_LOOPS=0)
// O0: kernel '{{.*}}' runs as fibers (not compiled by slmc++ with optimisation)
// CHECK: strided tile sums: ok
// CHECK: uniform branch barriers: ok
// CHECK: live across barriers: ok
// CHECK: 3-D tiles: ok
// CHECK: 1024 work-items: ok
// CHECK: barrier in a called function: ok
// CHECK: all passed

#include <amp.h>
#include <cstdio>
#include <vector>

using namespace concurrency;

static int failures = 0;
static void report(const char *what, bool ok) {
  std::printf("%s: %s\n", what, ok ? "ok" : "FAILED");
  failures += !ok;
}

// A barrier in a loop whose trip count is only known at run time: each tile
// of 64 sums `rounds` chunks of 64 values, halving in tile_static memory
// after each chunk.
static void stridedTileSums(int rounds) {
  const int tiles = 5, n = tiles * 64 * rounds;
  std::vector<int> in(n), out(tiles);
  for (int i = 0; i < n; ++i)
    in[i] = (i * 7) % 13 - 6;
  array_view<const int, 1> vin(n, in);
  array_view<int, 1> vout(tiles, out);
  parallel_for_each(extent<1>(tiles * 64).tile<64>(), [=](tiled_index<64> t) restrict(amp) {
    tile_static int part[64];
    int id = t.local[0], acc = 0;
    for (int r = 0; r < rounds; ++r) {
      part[id] = vin[(t.tile[0] * rounds + r) * 64 + id];
      t.barrier.wait();
      for (int s = 32; s > 0; s /= 2) {
        if (id < s)
          part[id] += part[id + s];
        t.barrier.wait();
      }
      acc += part[0]; // every work-item reads the chunk's sum
      t.barrier.wait();
    }
    if (id == 63)
      vout[t.tile[0]] = acc;
  });
  vout.synchronize();
  bool ok = true;
  for (int g = 0; g < tiles; ++g) {
    int want = 0;
    for (int i = 0; i < 64 * rounds; ++i)
      want += in[g * 64 * rounds + i];
    ok &= out[g] == want;
  }
  report("strided tile sums", ok);
}

// Barriers inside branches every work-item of the tile takes the same way.
static void uniformBranches(int mode) {
  const int n = 4 * 32;
  std::vector<int> out(n);
  array_view<int, 1> v(n, out);
  parallel_for_each(extent<1>(n).tile<32>(), [=](tiled_index<32> t) restrict(amp) {
    tile_static int a[32];
    int id = t.local[0];
    a[id] = id + t.tile[0];
    t.barrier.wait();
    int r;
    if (mode > 0 && t.tile[0] % 2 == 0) {
      int x = a[31 - id];
      t.barrier.wait();
      a[id] = x * 2;
      t.barrier.wait();
      r = a[(id + 1) % 32];
    } else {
      r = a[id] + 1000;
    }
    v[t.global] = r;
  });
  v.synchronize();
  bool ok = true;
  for (int i = 0; i < n; ++i) {
    int g = i / 32, id = i % 32;
    int want = g % 2 == 0 ? (31 - (id + 1) % 32 + g) * 2 : id + g + 1000;
    ok &= out[i] == want;
  }
  report("uniform branch barriers", ok);
}

// A value and a private array each work-item computes before the first
// barrier and uses after the third.
static void liveAcrossBarriers(int salt) {
  const int n = 3 * 128;
  std::vector<int> out(n);
  array_view<int, 1> v(n, out);
  parallel_for_each(extent<1>(n).tile<128>(), [=](tiled_index<128> t) restrict(amp) {
    tile_static int s[128];
    int id = t.local[0];
    int mine = id * salt + t.tile[0];
    int priv[6];
    for (int k = 0; k < 6; ++k)
      priv[(k + id) % 6] = mine + k;
    s[id] = mine;
    t.barrier.wait();
    int left = s[(id + 127) % 128];
    t.barrier.wait();
    s[id] = left;
    t.barrier.wait();
    int sum = 0;
    for (int k = 0; k < 6; ++k)
      sum += priv[k] * (k + 1);
    v[t.global] = sum + mine - s[(id + 1) % 128];
  });
  v.synchronize();
  bool ok = true;
  for (int i = 0; i < n; ++i) {
    int g = i / 128, id = i % 128, mine = id * salt + g, sum = 0;
    int priv[6];
    for (int k = 0; k < 6; ++k)
      priv[(k + id) % 6] = mine + k;
    for (int k = 0; k < 6; ++k)
      sum += priv[k] * (k + 1);
    ok &= out[i] == sum + mine - (id * salt + g); // s[id+1] holds id's own value
  }
  report("live across barriers", ok);
}

// 3-D tiles: every work-item writes its own local index after reading a
// neighbour's through tile_static memory.
static void threeD() {
  const int X = 8, Y = 8, Z = 4;
  std::vector<int> out(X * Y * Z);
  array_view<int, 3> v(Z, Y, X, out);
  parallel_for_each(extent<3>(Z, Y, X).tile<2, 4, 4>(), [=](tiled_index<2, 4, 4> t) restrict(amp) {
    tile_static int s[2][4][4];
    int z = t.local[0], y = t.local[1], x = t.local[2];
    s[z][y][x] = z * 100 + y * 10 + x;
    t.barrier.wait();
    v[t.global] = s[1 - z][3 - y][3 - x] + 1000 * (t.tile[0] + t.tile[1] + t.tile[2]);
  });
  v.synchronize();
  bool ok = true;
  for (int z = 0; z < Z; ++z)
    for (int y = 0; y < Y; ++y)
      for (int x = 0; x < X; ++x) {
        int lz = z % 2, ly = y % 4, lx = x % 4;
        int want = (1 - lz) * 100 + (3 - ly) * 10 + (3 - lx) + 1000 * (z / 2 + y / 4 + x / 4);
        ok &= out[(z * Y + y) * X + x] == want;
      }
  report("3-D tiles", ok);
}

// The largest tile: 1024 work-items reverse their values.
static void large() {
  const int n = 2 * 1024;
  std::vector<int> out(n);
  array_view<int, 1> v(n, out);
  parallel_for_each(extent<1>(n).tile<1024>(), [=](tiled_index<1024> t) restrict(amp) {
    tile_static int s[1024];
    s[t.local[0]] = t.global[0];
    t.barrier.wait();
    v[t.global] = s[1023 - t.local[0]];
  });
  v.synchronize();
  bool ok = true;
  for (int i = 0; i < n; ++i)
    ok &= out[i] == (i / 1024) * 1024 + 1023 - i % 1024;
  report("1024 work-items", ok);
}

// A barrier in a function the optimiser keeps out of line: the pass inlines
// it itself.
__attribute__((noinline)) static int exchange(tiled_index<16> t, int *s, int value) restrict(amp) {
  s[t.local[0]] = value;
  t.barrier.wait();
  return s[15 - t.local[0]];
}

static void calledBarrier() {
  const int n = 64;
  std::vector<int> out(n);
  array_view<int, 1> v(n, out);
  parallel_for_each(extent<1>(n).tile<16>(), [=](tiled_index<16> t) restrict(amp) {
    tile_static int s[16];
    int a = exchange(t, s, t.global[0]);
    t.barrier.wait();
    v[t.global] = exchange(t, s, a * 2);
  });
  v.synchronize();
  bool ok = true;
  for (int i = 0; i < n; ++i)
    ok &= out[i] == 2 * i;
  report("barrier in a called function", ok);
}

int main(int argc, char **) {
  stridedTileSums(2 + argc); // not known to the optimiser
  uniformBranches(argc);
  liveAcrossBarriers(3 + argc);
  threeD();
  large();
  calledBarrier();
  if (failures == 0)
    std::printf("all passed\n");
  return failures != 0;
}
