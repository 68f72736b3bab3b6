// Two things MSVC accepts that Microsoft's and AMD's C++ AMP samples rely
// on, compiled as MSVC meant them: `void main()` (with `return;` in it,
// while a kernel's own `return;` stays), and member templates of dependent
// objects called without `template` (`data.extent.tile<TS, TS>()` in a
// function template, as Microsoft's transpose sample writes it;
// reinterpret_as and view_as too). Run on the CPU fallback; the clangd door
// sees the same source.
// RUN: %slmcxx -O2 %s -o %t
// RUN: %t | FileCheck %s
// RUN: %slmcxx -fsyntax-only -Xclang -verify %s
// CHECK: transpose: PASSED
// CHECK: views: PASSED
// CHECK-NOT: not reached
// expected-no-diagnostics
#include <amp.h>
#include <cstdio>
#include <vector>
using namespace concurrency;

template <typename T, int TS>
void transpose_tiled(const array_view<const T, 2> &data, const array_view<T, 2> &out) {
  out.discard_data();
  parallel_for_each(data.extent.tile<TS, TS>(), [=](tiled_index<TS, TS> t) restrict(amp) {
    tile_static T tile[TS][TS];
    tile[t.local[1]][t.local[0]] = data[t.global];
    t.barrier.wait();
    index<2> to(t.tile_origin[1] + t.local[0], t.tile_origin[0] + t.local[1]);
    out[to] = tile[t.local[0]][t.local[1]];
  });
}

template <typename T> int sum_as_ints(array_view<T, 1> v) {
  // Reinterpreted and viewed again, through dependent objects.
  array_view<int, 1> ints = v.reinterpret_as<int>();
  array_view<int, 2> grid = ints.view_as<2>(extent<2>(2, ints.extent[0] / 2));
  int total = 0;
  for (int i = 0; i < grid.extent[0]; ++i)
    for (int j = 0; j < grid.extent[1]; ++j)
      total += grid(i, j);
  return total;
}

void main() {
  const int N = 64;
  std::vector<int> in(N * N), out(N * N);
  for (int i = 0; i < N * N; ++i)
    in[i] = i;
  array_view<const int, 2> a(N, N, in);
  array_view<int, 2> b(N, N, out);
  transpose_tiled<int, 16>(a, b);
  b.synchronize();
  int bad = 0;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j)
      bad += out[i * N + j] != in[j * N + i];
  std::printf("transpose: %s\n", bad ? "FAILED" : "PASSED");

  std::vector<unsigned> u(8, 3u);
  array_view<unsigned, 1> uv(8, u);
  // A kernel's early return is its own.
  parallel_for_each(uv.extent, [=](index<1> i) restrict(amp) {
    if (i[0] >= 4)
      return;
    uv[i] = 5u;
  });
  uv.synchronize();
  std::printf("views: %s\n", sum_as_ints(uv) == 4 * 5 + 4 * 3 ? "PASSED" : "FAILED");
  if (bad)
    return;
  return;
  std::printf("not reached\n");
}
