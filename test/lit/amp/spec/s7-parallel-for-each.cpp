// C++ AMP v1.2 §7 "Launching Computations: parallel_for_each", checked on
// the CPU fallback:
//   §7    the kernel runs once for every index of an extent of rank 1, 2 or
//         3, and of a tiled_extent of 1, 2 or 3 dimensions; the overloads
//         taking an accelerator_view run on that view; a kernel may be a
//         class with an amp-restricted operator(), not only a lambda.
//   §7.1  capturing data: scalars and aggregates by value, array_view by
//         value, array by reference; the kernel's copy of a by-value
//         capture is its own.
//   §7.2  exception behaviour: a domain whose extent is not a multiple of
//         the tile throws invalid_compute_domain (when known only at run
//         time; compile-time ones are errors: tile-extents.cpp), as does a
//         negative extent.
// The tile fences (§4.5: wait_with_*_memory_fence, all_memory_fence,
// tile_static_memory_fence) order tile_static writes between threads.
// RUN: %slmcxx -O1 %s -o %t
// RUN: %t | FileCheck %s
// CHECK: parallel_for_each: 0 failures

#include <amp.h>
#include <cstdio>
#include <vector>
using namespace concurrency;

int failures = 0;
#define EXPECT(c) do { if (!(c)) { std::printf("failed: %s\n", #c); ++failures; } } while (0)

struct Params { int scale; float offset; };

// A kernel that is a class, as MSVC code often writes them.
struct Scale {
  array_view<int, 2> out;
  int factor;
  void operator()(index<2> i) const restrict(amp) { out[i] = (i[0] * 7 + i[1]) * factor; }
};

template <int N> bool all_equal(const std::vector<int> &v, int want) {
  for (int x : v) if (x != want) return false;
  return true;
}

void every_index_once() {
  // Each index writes a counter of its own; every counter must end at 1.
  std::vector<int> c1(37, 0), c2(5 * 9, 0), c3(2 * 3 * 5, 0);
  array_view<int, 1> v1(37, c1);
  array_view<int, 2> v2(5, 9, c2);
  array_view<int, 3> v3(2, 3, 5, c3);
  parallel_for_each(v1.extent, [=](index<1> i) restrict(amp) { atomic_fetch_inc(&v1[i]); });
  parallel_for_each(v2.extent, [=](index<2> i) restrict(amp) { atomic_fetch_inc(&v2[i]); });
  parallel_for_each(v3.extent, [=](index<3> i) restrict(amp) { atomic_fetch_inc(&v3[i]); });
  v1.synchronize(); v2.synchronize(); v3.synchronize();
  EXPECT(all_equal<1>(c1, 1) && all_equal<2>(c2, 1) && all_equal<3>(c3, 1));

  std::vector<int> t1(64, 0), t2(8 * 12, 0), t3(4 * 4 * 6, 0);
  array_view<int, 1> w1(64, t1);
  array_view<int, 2> w2(8, 12, t2);
  array_view<int, 3> w3(4, 4, 6, t3);
  parallel_for_each(w1.extent.tile<16>(), [=](tiled_index<16> t) restrict(amp) {
    atomic_fetch_inc(&w1[t.global]);
  });
  parallel_for_each(w2.extent.tile<4, 6>(), [=](tiled_index<4, 6> t) restrict(amp) {
    atomic_fetch_inc(&w2[t.global]);
  });
  parallel_for_each(w3.extent.tile<2, 2, 3>(), [=](tiled_index<2, 2, 3> t) restrict(amp) {
    atomic_fetch_inc(&w3[t.global]);
  });
  w1.synchronize(); w2.synchronize(); w3.synchronize();
  EXPECT(all_equal<1>(t1, 1) && all_equal<2>(t2, 1) && all_equal<3>(t3, 1));
}

void on_a_view_and_functors() {
  accelerator_view av = accelerator().default_view;
  std::vector<int> out(3 * 4, 0);
  array_view<int, 2> o(3, 4, out);
  parallel_for_each(av, o.extent, Scale{o, 2});
  o.synchronize();
  EXPECT(out[0] == 0 && out[5] == (7 + 1) * 2 && out[11] == (14 + 3) * 2);
  parallel_for_each(av, o.extent.tile<1, 4>(), [=](tiled_index<1, 4> t) restrict(amp) {
    o[t] = t.tile[0];
  });
  o.synchronize();
  EXPECT(out[0] == 0 && out[4] == 1 && out[11] == 2);
}

void capturing_71() {
  Params p = {3, 0.5f};
  int base = 100;
  float table[4] = {1.0f, 2.0f, 4.0f, 8.0f}; // a C array is captured by value
  array<int, 1> arr(16);
  std::vector<float> fout(16, 0.0f);
  array_view<float, 1> fo(16, fout);
  parallel_for_each(arr.extent, [=, &arr](index<1> i) restrict(amp) {
    int local = base;  // the kernel's own copy
    local += i[0];
    arr[i] = local * p.scale;
    fo[i] = table[i[0] % 4] + p.offset;
  });
  base = -1; // the launch captured the old value
  std::vector<int> got = arr;
  fo.synchronize();
  int bad = 0;
  for (int i = 0; i < 16; ++i) {
    bad += got[i] != (100 + i) * 3;
    bad += fout[i] != table[i % 4] + 0.5f;
  }
  EXPECT(bad == 0);
}

void fences() {
  // Thread 0 of each tile publishes, everyone reads after a fenced barrier.
  std::vector<int> out(4 * 32, 0);
  array_view<int, 1> o(4 * 32, out);
  parallel_for_each(o.extent.tile<32>(), [=](tiled_index<32> t) restrict(amp) {
    tile_static int a[32];
    tile_static int b[32];
    a[t.local[0]] = t.global[0];
    t.barrier.wait_with_tile_static_memory_fence();
    b[t.local[0]] = a[31 - t.local[0]];
    tile_static_memory_fence(t.barrier);
    t.barrier.wait_with_all_memory_fence();
    o[t.global] = b[(t.local[0] + 1) % 32];
    all_memory_fence(t.barrier);
    global_memory_fence(t.barrier);
    t.barrier.wait_with_global_memory_fence();
  });
  o.synchronize();
  int bad = 0;
  for (int g = 0; g < 4 * 32; ++g) {
    int tile = g / 32, l = g % 32;
    bad += out[g] != tile * 32 + (31 - (l + 1) % 32);
  }
  EXPECT(bad == 0);
}

void exceptions_72() {
  std::vector<int> data(10, 0);
  array_view<int, 1> v(10, data);
  int n = 10; // known at run time only
  bool threw = false;
  try {
    parallel_for_each(extent<1>(n).tile<4>(), [=](tiled_index<4> t) restrict(amp) {
      v[t.global] = 1;
    });
  } catch (const invalid_compute_domain &e) {
    threw = true;
    EXPECT(e.get_error_code() != 0);
  }
  EXPECT(threw);
  // pad() makes it a multiple; the kernel guards the extra threads.
  parallel_for_each(extent<1>(n).tile<4>().pad(), [=](tiled_index<4> t) restrict(amp) {
    if (t.global[0] < 10) v[t.global] = 1;
  });
  v.synchronize();
  EXPECT(all_equal<1>(data, 1));

  threw = false;
  try {
    parallel_for_each(extent<1>(-n), [=](index<1> i) restrict(amp) { v[i] = 2; });
  } catch (const invalid_compute_domain &) {
    threw = true;
  }
  EXPECT(threw);
}

int main() {
  every_index_once();
  on_a_view_and_functors();
  capturing_71();
  fences();
  exceptions_72();
  std::printf("parallel_for_each: %d failures\n", failures);
  return failures != 0;
}
