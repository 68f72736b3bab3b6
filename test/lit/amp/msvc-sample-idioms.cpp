// What Microsoft's own C++ AMP samples write, run on the CPU fallback:
// float_4 arithmetic with scalars (float_4(float) is implicit and the
// operators are non-template, as MSVC's: `acc += r * s`, `float_4 z = 0.0f`),
// array::section(i0, e0) and the other rank-specific forms, an array made
// on a created view reporting that view (and its copy the same one),
// accelerator_view equality as identity, and accelerator::direct3d_ref /
// direct3d_warp in device-selection loops (WARP is the CPU fallback here),
// and arrays captured by reference in kernels inside a function template
// and a class template's member (the book's reduction samples).
// RUN: %slmcxx -O2 %s -o %t
// RUN: %t | FileCheck %s
// CHECK: PASSED
// RUN: %slmcxx -fsyntax-only -Xclang -verify %s
// expected-no-diagnostics
#include <amp.h>
#include <amp_graphics.h>
#include <cstdio>
#include <vector>
using namespace concurrency;
using namespace concurrency::graphics;

template <int TileSize> int sum_by_tiles(const std::vector<int> &values) {
  array<int, 1> a(int(values.size()), values.begin(), values.end());
  array<int, 1> sums(int(values.size()) / TileSize);
  parallel_for_each(a.extent.tile<TileSize>(), [&a, &sums](tiled_index<TileSize> t) restrict(amp) {
    tile_static int s[TileSize];
    s[t.local[0]] = a[t.global];
    t.barrier.wait();
    if (t.local[0] == 0) {
      int total = 0;
      for (int i = 0; i < TileSize; ++i) total += s[i];
      sums[t.tile] = total;
    }
  });
  std::vector<int> out(sums.extent.size());
  copy(sums, out.begin());
  int total = 0;
  for (int x : out) total += x;
  return total;
}

template <typename T> struct Scaler {
  T by;
  void run(array<T, 1> &data) const {
    T k = by;
    parallel_for_each(data.extent, [&, k](index<1> i) restrict(amp) { data[i] *= k; });
  }
};

int main() {
  std::vector<float_4> v(64, float_4(1.0f, 2.0f, 3.0f, 4.0f));
  array_view<float_4, 1> av(64, v);
  parallel_for_each(av.extent, [=](index<1> i) restrict(amp) {
    float_4 acc = 0.0f;
    float_4 p = av[i];
    p *= 2.0f;
    acc += p * 0.5f;
    acc = acc + 1.0f;
    acc = 2.0f * acc;
    av[i] = acc;
  });
  av.synchronize();
  const float_4 want(4.0f, 6.0f, 8.0f, 10.0f);
  bool ok = true;
  for (const float_4 &x : v) ok = ok && x == want;

  int_4 a(1, 2, 3, 4);
  ok = ok && (a % 2) == int_4(1, 0, 1, 0) && (a << 1) == int_4(2, 4, 6, 8) && a != 0;

  std::vector<int> d(24);
  for (int i = 0; i < 24; ++i) d[i] = i;
  array<int, 1> arr(24, d.begin(), d.end());
  std::vector<int> part(8);
  copy(arr.section(4, 8), part.begin());
  ok = ok && part[0] == 4 && part[7] == 11;
  array<int, 2> grid(4, 6, d.begin(), d.end());
  ok = ok && grid.section(1, 2, 2, 3)(0, 0) == 8 && grid.section(1, 2, 2, 3).extent[1] == 3;

  accelerator acc;
  accelerator_view imm = acc.create_view(queuing_mode_immediate);
  array<float, 1> b(16, imm);
  ok = ok && b.get_accelerator_view() == imm &&
       b.get_accelerator_view().queuing_mode == queuing_mode_immediate;
  array<float, 1> c(b);
  ok = ok && c.get_accelerator_view() == imm;
  accelerator_view v1 = acc.create_view(), v2 = acc.create_view();
  ok = ok && v1 != v2 && v1 == v1 && acc.default_view == acc.get_default_view() && v1 != imm;

  std::vector<int> ones(256, 1);
  ok = ok && sum_by_tiles<16>(ones) == 256 && sum_by_tiles<64>(ones) == 256;
  array<float, 1> scaled(8, v1);
  Scaler<float>{3.0f}.run(scaled);
  Scaler<float>{2.0f}.run(scaled);
  std::vector<float> sv(8, 1.0f);
  copy(sv.begin(), sv.end(), scaled);
  Scaler<float>{3.0f}.run(scaled);
  copy(scaled, sv.begin());
  ok = ok && sv[0] == 3.0f && sv[7] == 3.0f;

  int devices = 0;
  for (const accelerator &x : accelerator::get_all())
    if (x.device_path != accelerator::direct3d_ref) ++devices;
  ok = ok && devices >= 1 && accelerator(accelerator::direct3d_warp).is_emulated;
  std::printf("%s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
