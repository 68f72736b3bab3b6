// C++ AMP v1.2 §6 "Atomic Operations", checked on the CPU fallback with many
// threads racing on one location (global memory through an array_view and
// tile_static memory):
//   §6.2 atomic_exchange returns the old value and stores the new one (int,
//        unsigned int, float); atomic_compare_exchange stores only when the
//        location holds the expected value, else loads the current value
//        into *expected_value, and says which happened.
//   §6.3 atomic_fetch_add, _sub, _max, _min, _and, _or, _xor, _inc, _dec
//        return the old value and apply the operation atomically (int and
//        unsigned int; add and sub also on float in v1.2).
// RUN: %slmcxx -O1 %s -o %t
// RUN: %t | FileCheck %s
// Atomics on a work-item's own variable are plain accesses in PTX, which
// has no atomics on its local state space (the CUDA driver refuses them).
// RUN: %slmcxx -O1 --emit=ptx %s -o - | FileCheck %s --check-prefix=PTX
// PTX: atom.global.add
// PTX-NOT: atom.local
// PTX-NOT: atom.relaxed{{.*}}.local
// CHECK: atomics: 0 failures

#include <amp.h>
#include <cstdio>
#include <vector>
using namespace concurrency;

int failures = 0;
#define EXPECT(c) do { if (!(c)) { std::printf("failed: %s\n", #c); ++failures; } } while (0)

int main() {
  const int n = 1000;
  std::vector<int> ints(8, 0);
  ints[3] = -1;        // and
  ints[5] = 1 << 20;   // min
  ints[6] = 5000;      // dec
  std::vector<unsigned> uints(4, 0);
  std::vector<float> floats(2, 0.0f);
  std::vector<int> old_add(n), swaps(n);
  array_view<int, 1> iv(8, ints), oa(n, old_add), sw(n, swaps);
  array_view<unsigned, 1> uv(4, uints);
  array_view<float, 1> fv(2, floats);
  parallel_for_each(extent<1>(n), [=](index<1> idx) restrict(amp) {
    int i = idx[0];
    oa[i] = atomic_fetch_add(&iv[0], 1);
    atomic_fetch_sub(&iv[1], 2);
    atomic_fetch_max(&iv[2], i);
    atomic_fetch_and(&iv[3], ~(1 << (i % 31)));
    atomic_fetch_or(&iv[4], 1 << (i % 31));
    atomic_fetch_min(&iv[5], i - 7);
    atomic_fetch_dec(&iv[6]);
    atomic_fetch_inc(&iv[7]);
    atomic_fetch_xor(&uv[0], 1u << (i % 32));
    atomic_fetch_add(&uv[1], 3u);
    atomic_fetch_max(&uv[2], unsigned(i) * 2u);
    atomic_fetch_add(&fv[0], 0.5f);
    atomic_fetch_sub(&fv[1], 0.25f);
    // Exactly one thread swaps 0 -> its id + 1 in uv[3].
    unsigned expected = 0;
    sw[i] = atomic_compare_exchange(&uv[3], &expected, unsigned(i) + 1) ? 1 : 0;
  });
  iv.synchronize(); uv.synchronize(); fv.synchronize(); oa.synchronize(); sw.synchronize();
  EXPECT(ints[0] == n);
  EXPECT(ints[1] == -2 * n);
  EXPECT(ints[2] == n - 1);
  EXPECT(ints[3] == int(0x80000000u)); // every bit 0..30 cleared
  EXPECT(ints[4] == 0x7fffffff);      // every bit 0..30 set
  EXPECT(ints[5] == -7);
  EXPECT(ints[6] == 5000 - n);
  EXPECT(ints[7] == n);
  // 1000 flips: bits 0..7 flipped 32 times, bits 8..31 31 times.
  EXPECT(uints[0] == 0xffffff00u);
  EXPECT(uints[1] == 3u * n);
  EXPECT(uints[2] == 2u * (n - 1));
  EXPECT(floats[0] == 0.5f * n && floats[1] == -0.25f * n);
  // fetch_add returned every old value 0..n-1 exactly once.
  std::vector<int> seen(n, 0);
  int bad = 0;
  for (int v : old_add) {
    if (v < 0 || v >= n || seen[v]++) ++bad;
  }
  EXPECT(bad == 0);
  int winners = 0, winner = -1;
  for (int i = 0; i < n; ++i)
    if (swaps[i]) { ++winners; winner = i; }
  EXPECT(winners == 1 && uints[3] == unsigned(winner) + 1);

  // Sequential semantics, one thread: returned values and the failure path.
  std::vector<int> r(8, 0);
  std::vector<float> rf(2, 0.0f);
  array_view<int, 1> rv(8, r);
  array_view<float, 1> rfv(2, rf);
  parallel_for_each(extent<1>(1), [=](index<1>) restrict(amp) {
    int x = 10;
    rv[0] = atomic_exchange(&x, 20);   // 10
    rv[1] = x;                         // 20
    int expected = 5;
    rv[2] = atomic_compare_exchange(&x, &expected, 30) ? 1 : 0; // fails
    rv[3] = expected;                  // 20, loaded
    rv[4] = x;                         // unchanged
    rv[5] = atomic_compare_exchange(&x, &expected, 30) ? 1 : 0; // succeeds
    rv[6] = x;                         // 30
    rv[7] = atomic_fetch_sub(&x, 4);   // 30
    float f = 1.5f;
    rfv[0] = atomic_exchange(&f, 2.5f);
    rfv[1] = f;
  });
  rv.synchronize(); rfv.synchronize();
  EXPECT(r[0] == 10 && r[1] == 20);
  EXPECT(r[2] == 0 && r[3] == 20 && r[4] == 20);
  EXPECT(r[5] == 1 && r[6] == 30 && r[7] == 30);
  EXPECT(rf[0] == 1.5f && rf[1] == 2.5f);

  // tile_static memory: every thread of a tile adds to one counter.
  std::vector<int> per_tile(4, 0);
  array_view<int, 1> pt(4, per_tile);
  parallel_for_each(extent<1>(256).tile<64>(), [=](tiled_index<64> t) restrict(amp) {
    tile_static int count;
    if (t.local[0] == 0) count = 0;
    t.barrier.wait();
    atomic_fetch_add(&count, t.global[0]);
    t.barrier.wait();
    if (t.local[0] == 0) pt[t.tile[0]] = count;
  });
  pt.synchronize();
  for (int tile = 0; tile < 4; ++tile) {
    int lo = tile * 64, want = (lo + lo + 63) * 64 / 2;
    EXPECT(per_tile[tile] == want);
  }
  std::printf("atomics: %d failures\n", failures);
  return failures != 0;
}
