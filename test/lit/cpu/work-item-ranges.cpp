// A region that starts by sending the work-items whose id fails a test
// against a group-invariant bound straight to a barrier or the end
// (`if (tid < stride) ...; barrier`, `if (tid == 0) ...`) runs its
// work-item loop over the passing items only (lib/CpuFallback/
// WorkItemLoops.cpp, "narrowing"). Every predicate, both operand orders,
// signed and unsigned, bounds below, inside and above the tile, and
// the divergence it must still see, checked against a serial computation
// on the loops, on fibers and unoptimised.
// RUN: %slmcxx -O2 %s -o %t
// RUN: env SLMC_VERBOSE=1 %t 2>&1 | FileCheck %s --check-prefixes=CHECK,LOOPS
// RUN: env SLMC_CPU_WORK_ITEM_LOOPS=0 %t 2>&1 | FileCheck %s --check-prefixes=CHECK,FIBERS
// RUN: %slmcxx -O0 %s -o %t.O0
// RUN: %t.O0 2>&1 | FileCheck %s --check-prefixes=CHECK,FIBERS
// LOOPS-NOT: runs as fibers
// LOOPS: runs as work-item loops
// CHECK: lt: ok
// CHECK: le: ok
// CHECK: gt: ok
// CHECK: ge: ok
// CHECK: eq: ok
// CHECK: swapped: ok
// CHECK: unsigned: ok
// CHECK: offset ids: ok
// CHECK: 2-D tiles: ok
// CHECK: divergent targets: ok
// LOOPS: divergence reported 4 times
// FIBERS: divergence reported 0 times
// CHECK: all passed

#include <amp.h>
#include <cstdio>
#include <functional>
#include <vector>

using namespace concurrency;

static int failures = 0;
static void report(const char *what, bool ok) {
  std::printf("%s: %s\n", what, ok ? "ok" : "FAILED");
  failures += !ok;
}

static const int TILE = 64, TILES = 3;
// Bounds below, at, inside and beyond the tile's ids.
static const int bounds[] = {-5, -1, 0, 1, 17, 62, 63, 64, 65, 1000};

// Each kernel: every work-item writes its id into a tile_static array; after
// a barrier the items that pass the test add 1000 times their tile number
// (plus one) to their slot; after another, every item writes its slot out.
template <class Kernel>
static std::vector<int> run(Kernel kernel) {
  std::vector<int> out(TILE * TILES, -1);
  array_view<int, 1> v(TILE * TILES, out);
  kernel(v);
  v.synchronize();
  return out;
}

static bool check(const std::vector<int> &out, const std::function<bool(int)> &pass) {
  for (int g = 0; g < TILES; ++g)
    for (int id = 0; id < TILE; ++id)
      if (out[g * TILE + id] != id + (pass(id) ? 1000 * (g + 1) : 0))
        return false;
  return true;
}

#define RANGE_KERNEL(NAME, COND)                                                    \
  static std::vector<int> NAME(int s) {                                             \
    return run([=](array_view<int, 1> v) {                                          \
      parallel_for_each(extent<1>(TILE * TILES).tile<TILE>(),                       \
                        [=](tiled_index<TILE> t) restrict(amp) {                    \
        tile_static int a[TILE];                                                    \
        int tid = t.local[0];                                                       \
        a[tid] = tid;                                                               \
        t.barrier.wait();                                                           \
        if (COND)                                                                   \
          a[tid] += 1000 * (t.tile[0] + 1);                                         \
        t.barrier.wait();                                                           \
        v[t.global] = a[tid];                                                       \
      });                                                                           \
    });                                                                             \
  }

RANGE_KERNEL(lt, tid < s)
RANGE_KERNEL(le, tid <= s)
RANGE_KERNEL(gt, tid > s)
RANGE_KERNEL(ge, tid >= s)
RANGE_KERNEL(eq, tid == s)
RANGE_KERNEL(swapped, s > tid)
RANGE_KERNEL(unsigned_lt, unsigned(tid) < unsigned(s))
RANGE_KERNEL(offset, tid + 7 < s)

// The last region: only item `s` writes (the usual `if (tid == 0) out = ...`).
static std::vector<int> lastRegion(int s) {
  std::vector<int> out(TILES, -1);
  array_view<int, 1> v(TILES, out);
  parallel_for_each(extent<1>(TILE * TILES).tile<TILE>(), [=](tiled_index<TILE> t) restrict(amp) {
    tile_static int sum[TILE];
    int tid = t.local[0];
    sum[tid] = tid;
    t.barrier.wait();
    for (int stride = TILE / 2; stride > 0; stride /= 2) {
      if (tid < stride)
        sum[tid] += sum[tid + stride];
      t.barrier.wait();
    }
    if (tid == s)
      v[t.tile[0]] = sum[0] + t.tile[0];
  });
  v.synchronize();
  return out;
}

// 8x8 tiles: the test is on the x id (local[1]) in rows of 8.
static bool tiles2d(int s) {
  const int n = 16;
  std::vector<int> out(n * n, -1);
  array_view<int, 2> v(n, n, out);
  parallel_for_each(extent<2>(n, n).tile<8, 8>(), [=](tiled_index<8, 8> t) restrict(amp) {
    tile_static int a[8][8];
    int r = t.local[0], c = t.local[1];
    a[r][c] = r * 8 + c;
    t.barrier.wait();
    if (c < s)
      a[r][c] = -a[r][c];
    t.barrier.wait();
    v[t.global] = a[r][c];
  });
  v.synchronize();
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      int r = i % 8, c = j % 8, want = r * 8 + c;
      if (out[i * n + j] != (c < s ? -want : want))
        return false;
    }
  return true;
}

// A chain of tests on 8x8 tiles: one of the row (r < s) and one of x
// against a bound that depends on the row (c + r < s + 2).
static bool guardChain(int s) {
  const int n = 16;
  std::vector<int> out(n * n, -1);
  array_view<int, 2> v(n, n, out);
  parallel_for_each(extent<2>(n, n).tile<8, 8>(), [=](tiled_index<8, 8> t) restrict(amp) {
    tile_static int a[8][8];
    int r = t.local[0], c = t.local[1];
    a[r][c] = r * 8 + c + 1;
    t.barrier.wait();
    if (r < s && c + r < s + 2)
      a[r][c] = -a[r][c];
    t.barrier.wait();
    v[t.global] = a[r][c];
  });
  v.synchronize();
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      int r = i % 8, c = j % 8, want = r * 8 + c + 1;
      if (out[i * n + j] != (r < s && c + r < s + 2 ? -want : want))
        return false;
    }
  return true;
}

// Items that pass go to one barrier, the others to another: the loops
// report divergence unless every item or none passes (fibers cannot tell
// barriers apart without -fslmc-check: all of them meet). Returns whether
// it threw; false and `bad` set for a wrong result.
static bool divergentTargets(int s, bool &bad) {
  std::vector<int> out(TILE, 0);
  array_view<int, 1> v(TILE, out);
  try {
    parallel_for_each(extent<1>(TILE).tile<TILE>(), [=](tiled_index<TILE> t) restrict(amp) {
      int tid = t.local[0];
      if (tid < s) {
        t.barrier.wait();
        v[t.global] = 1;
        return;
      }
      t.barrier.wait();
      v[t.global] = 2;
    });
    v.synchronize();
  } catch (const runtime_exception &) {
    bad |= s <= 0 || s >= TILE;
    return true;
  }
  for (int id = 0; id < TILE; ++id)
    bad |= out[id] != (id < s ? 1 : 2);
  return false;
}

int main() {
  bool ok[8] = {true, true, true, true, true, true, true, true};
  bool last = true, two = true, bad = false;
  int diverged = 0;
  for (int s : bounds) {
    ok[0] &= check(lt(s), [s](int id) { return id < s; });
    ok[1] &= check(le(s), [s](int id) { return id <= s; });
    ok[2] &= check(gt(s), [s](int id) { return id > s; });
    ok[3] &= check(ge(s), [s](int id) { return id >= s; });
    ok[4] &= check(eq(s), [s](int id) { return id == s; });
    ok[5] &= check(swapped(s), [s](int id) { return s > id; });
    ok[6] &= check(unsigned_lt(s), [s](int id) { return unsigned(id) < unsigned(s); });
    ok[7] &= check(offset(s), [s](int id) { return id + 7 < s; });
    std::vector<int> out = lastRegion(s);
    for (int g = 0; g < TILES; ++g)
      last &= out[g] == (s >= 0 && s < TILE ? TILE * (TILE - 1) / 2 + g : -1);
    two &= tiles2d(s) && guardChain(s);
    diverged += divergentTargets(s, bad);
  }
  const char *names[] = {"lt", "le", "gt", "ge", "eq", "swapped", "unsigned"};
  for (int i = 0; i < 7; ++i)
    report(names[i], ok[i]);
  report("offset ids", ok[7] && last);
  report("2-D tiles", two);
  report("divergent targets", !bad);
  std::printf("divergence reported %d times\n", diverged);
  std::printf(failures ? "FAILED\n" : "all passed\n");
  return failures != 0;
}
