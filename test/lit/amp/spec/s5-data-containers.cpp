// C++ AMP v1.2 §5 "Data Containers", checked on the CPU fallback:
//   §5.1 array<T,N>: construction from an extent or its dimensions, from
//        host iterators, from an array_view; copy construction and copy
//        assignment copy the elements (deep copy); indexing by index<N>, by
//        (i0, i1) and by projection a[i0]; section(), view_as(),
//        reinterpret_as(), data() in row-major order, conversion to
//        std::vector; kernels write an array they capture by reference.
//   §5.2 array_view<T,N>: a view of host memory shares that memory (a
//        copy of a view is the same data); kernel writes reach the host
//        through the view and after synchronize(); array_view<const T> is
//        read-only and array_view<T> converts to it; sections and
//        projections address the same elements; refresh() after a host
//        write; a view with storage of its own; a view of an array.
//   §5.3 copy and copy_async between arrays, views and iterators, in both
//        directions, including a section (not contiguous) as source and
//        destination; copies between different extents throw
//        runtime_exception.
// RUN: %slmcxx -O1 %s -o %t
// RUN: %t | FileCheck %s
// CHECK: data containers: 0 failures

#include <amp.h>
#include <cstdio>
#include <numeric>
#include <vector>
using namespace concurrency;

int failures = 0;
#define EXPECT(c) do { if (!(c)) { std::printf("failed: %s\n", #c); ++failures; } } while (0)

void array_51() {
  std::vector<int> src(12);
  std::iota(src.begin(), src.end(), 0);
  array<int, 2> a(3, 4, src.begin(), src.end());
  EXPECT(a.get_extent() == extent<2>(3, 4) && a.extent.size() == 12u);
  EXPECT(a[index<2>(1, 2)] == 6 && a(2, 3) == 11 && a[2][1] == 9);
  EXPECT(a.data()[5] == 5); // row-major
  array<int, 2> b(a);       // deep copy
  b(0, 0) = 100;
  EXPECT(a(0, 0) == 0 && b(0, 0) == 100);
  array<int, 2> c(extent<2>(3, 4));
  c = a;
  a(1, 1) = -1;
  EXPECT(c(1, 1) == 5);

  array_view<int, 2> sec = a.section(index<2>(1, 1), extent<2>(2, 2));
  EXPECT(sec(0, 0) == -1 && sec(1, 1) == 10);
  array<int, 1> flat(12, src.begin());
  array_view<int, 2> shaped = flat.view_as(extent<2>(4, 3));
  EXPECT(shaped(3, 2) == 11 && shaped(1, 0) == 3);
  array<float, 1> f(2);
  f[0] = 1.0f;
  array_view<unsigned, 1> bits = f.reinterpret_as<unsigned>();
  EXPECT(bits[0] == 0x3f800000u);
  std::vector<int> out = flat;
  EXPECT(out == src);

  array_view<const int, 1> view(12, src);
  array<int, 1> from_view(view);
  EXPECT(from_view[11] == 11);

  array<int, 1> acc(64);
  parallel_for_each(acc.extent, [&acc](index<1> i) restrict(amp) {
    acc[i] = i[0] * 3;
  });
  std::vector<int> got = acc;
  int bad = 0;
  for (int i = 0; i < 64; ++i) bad += got[i] != i * 3;
  EXPECT(bad == 0);
}

void array_view_52() {
  std::vector<int> host(6, 0);
  array_view<int, 2> v(2, 3, host);
  array_view<int, 2> alias = v; // copies share the data
  alias(1, 2) = 7;
  EXPECT(v(1, 2) == 7 && host[5] == 7);

  parallel_for_each(v.extent, [=](index<2> i) restrict(amp) {
    v[i] = i[0] * 10 + i[1];
  });
  v.synchronize();
  EXPECT(host[4] == 11 && host[2] == 2);

  array_view<const int, 2> ro = v; // array_view<T> converts to array_view<const T>
  EXPECT(ro(1, 0) == 10);

  // Sections and projections are views of the same elements.
  array_view<int, 1> row = v[1];
  EXPECT(row.extent[0] == 3 && row[2] == 12);
  array_view<int, 2> sec = v.section(index<2>(0, 1), extent<2>(2, 2));
  parallel_for_each(sec.extent, [=](index<2> i) restrict(amp) { sec[i] = -1; });
  v.synchronize();
  EXPECT(host[0] == 0 && host[1] == -1 && host[5] == -1 && host[3] == 10);

  // The host changes the memory behind the view: refresh() makes the view see it.
  host[0] = 42;
  v.refresh();
  std::vector<int> sum(1, 0);
  array_view<int, 1> s(1, sum);
  parallel_for_each(extent<1>(1), [=](index<1>) restrict(amp) { s[0] = v(0, 0); });
  s.synchronize();
  EXPECT(sum[0] == 42);

  array_view<float, 1> own(16); // storage of its own
  parallel_for_each(own.extent, [=](index<1> i) restrict(amp) { own[i] = 0.5f * i[0]; });
  EXPECT(own[15] == 7.5f);

  array<int, 1> arr(4);
  array_view<int, 1> of_arr(arr);
  parallel_for_each(of_arr.extent, [=](index<1> i) restrict(amp) { of_arr[i] = 9; });
  of_arr.synchronize();
  EXPECT(arr[3] == 9);

  array_view<int, 1> flat(6, host);
  array_view<int, 2> reshaped = flat.view_as(extent<2>(3, 2));
  EXPECT(reshaped(2, 1) == host[5]);
}

void copy_53() {
  std::vector<int> src(8);
  std::iota(src.begin(), src.end(), 1);
  array<int, 1> a(8);
  copy(src.begin(), src.end(), a);
  array<int, 1> b(8);
  copy(a, b);
  std::vector<int> back(8, 0);
  copy(b, back.begin());
  EXPECT(back == src);

  std::vector<int> dst_host(8, 0);
  array_view<int, 1> dst(8, dst_host);
  copy(a, dst);
  dst.synchronize();
  EXPECT(dst_host[7] == 8);

  // A 2-D section is not contiguous: copies walk it row by row.
  std::vector<int> grid(16);
  std::iota(grid.begin(), grid.end(), 0);
  array_view<int, 2> g(4, 4, grid);
  std::vector<int> part(4, 0);
  copy(g.section(index<2>(1, 1), extent<2>(2, 2)), part.begin());
  EXPECT(part[0] == 5 && part[1] == 6 && part[2] == 9 && part[3] == 10);
  std::vector<int> fill(4, -3);
  copy(fill.begin(), fill.end(), g.section(index<2>(2, 2), extent<2>(2, 2)));
  g.synchronize();
  EXPECT(grid[10] == -3 && grid[11] == -3 && grid[14] == -3 && grid[15] == -3);
  EXPECT(grid[9] == 9 && grid[13] == 13 && grid[6] == 6);

  completion_future f1 = copy_async(src.begin(), src.end(), b);
  f1.get();
  std::vector<int> again(8, 0);
  completion_future f2 = copy_async(b, again.begin());
  f2.wait();
  EXPECT(again == src);

  bool threw = false;
  try {
    array<int, 1> small(4);
    copy(a, small);
  } catch (const runtime_exception &) {
    threw = true;
  }
  EXPECT(threw);
}

int main() {
  array_51();
  array_view_52();
  copy_53();
  std::printf("data containers: %d failures\n", failures);
  return failures != 0;
}
