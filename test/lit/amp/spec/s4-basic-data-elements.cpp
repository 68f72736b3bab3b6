// C++ AMP v1.2 §4 "Basic Data Elements", checked on the CPU fallback:
//   §4.1 index<N>: default construction zeroes every component; the
//        component constructors and the array constructor; operator[]
//        reads and writes a component; the arithmetic operators with
//        another index and with an int work component-wise; ++ and --
//        change every component; == and != compare all components.
//   §4.2 extent<N>: size() is the product of the dimensions; contains()
//        holds for 0 <= idx[i] < ext[i] only; extent +/- index and the
//        scalar operators are component-wise.
//   §4.3 tiled_extent<D0,D1,D2>: tile_dim0..2 and get_tile_extent() give
//        the tile; pad() rounds each dimension up and truncate() down to a
//        multiple of the tile; a tiled_extent is an extent.
//   §4.4 tiled_index<D0,D1,D2>: global = tile_origin + local, tile_origin =
//        tile * tile extent; it converts to its global index.
//   §4.5 tile_barrier: wait() makes the tile's tile_static writes visible
//        to every thread of the tile (each thread reads its neighbour's).
//   §4.6 completion_future: a future that is valid() can be waited on and
//        then() runs its continuation after completion.
// RUN: %slmcxx -O1 %s -o %t
// RUN: %t | FileCheck %s
// CHECK: basic data elements: 0 failures

#include <amp.h>
#include <cstdio>
#include <vector>
using namespace concurrency;

int failures = 0;
#define EXPECT(c) do { if (!(c)) { std::printf("failed: %s\n", #c); ++failures; } } while (0)

void index_41() {
  index<3> z;
  EXPECT(z[0] == 0 && z[1] == 0 && z[2] == 0);
  EXPECT(index<3>::rank == 3);
  index<2> a(3, 4);
  int comps[] = {5, 7};
  index<2> b(comps);
  EXPECT(b[0] == 5 && b[1] == 7);
  index<1> one(9);
  EXPECT(one[0] == 9);
  a[1] = 6;
  EXPECT(a[0] == 3 && a[1] == 6);
  EXPECT(a + b == index<2>(8, 13));
  EXPECT(b - a == index<2>(2, 1));
  EXPECT(a * 2 == index<2>(6, 12) && 2 * a == index<2>(6, 12));
  EXPECT(b / 2 == index<2>(2, 3));
  EXPECT(b % 3 == index<2>(2, 1));
  EXPECT(a + 1 == index<2>(4, 7) && a - 1 == index<2>(2, 5));
  index<2> c = a;
  EXPECT(c++ == a && c == index<2>(4, 7));
  EXPECT(--c == a);
  EXPECT(a != b && !(a != a));
  index<2> same(3, 6);
  EXPECT(a == same);
}

void extent_42() {
  extent<3> e(2, 3, 4);
  EXPECT(e.size() == 24u);
  EXPECT(extent<3>::rank == 3);
  EXPECT(e[0] == 2 && e[1] == 3 && e[2] == 4);
  EXPECT(e.contains(index<3>(1, 2, 3)));
  EXPECT(!e.contains(index<3>(2, 0, 0)));
  EXPECT(!e.contains(index<3>(0, -1, 0)));
  EXPECT(!e.contains(index<3>(0, 0, 4)));
  EXPECT(e + index<3>(1, 1, 1) == extent<3>(3, 4, 5));
  EXPECT(e - index<3>(1, 1, 1) == extent<3>(1, 2, 3));
  EXPECT(e * 2 == extent<3>(4, 6, 8));
  EXPECT(e / 2 == extent<3>(1, 1, 2));
  int d[] = {6, 8};
  extent<2> f(d);
  EXPECT(f.size() == 48u && f != extent<2>(8, 6));
  extent<1> g(5);
  EXPECT(g.size() == 5u);
}

void tiled_extent_43() {
  extent<2> e(10, 33);
  tiled_extent<4, 8> t = e.tile<4, 8>();
  EXPECT(t.tile_dim0 == 4 && t.tile_dim1 == 8);
  EXPECT(t.get_tile_extent() == extent<2>(4, 8));
  EXPECT(t.pad() == extent<2>(12, 40));
  EXPECT(t.truncate() == extent<2>(8, 32));
  const extent<2> &base = t; // a tiled_extent is an extent
  EXPECT(base == e);
  tiled_extent<16> one = extent<1>(100).tile<16>();
  EXPECT(one.pad()[0] == 112 && one.truncate()[0] == 96);
  tiled_extent<2, 3, 4> three = extent<3>(4, 6, 8).tile<2, 3, 4>();
  EXPECT(three.tile_dim2 == 4 && three.get_tile_extent().size() == 24u);
}

// §4.4 and §4.5 in one tiled launch: every thread records its indices and
// the value its neighbour in the tile wrote to tile_static memory before the
// barrier.
void tiled_index_44_barrier_45() {
  const int rows = 4, cols = 12;
  std::vector<int> gl(rows * cols * 2), lo(rows * cols * 2), tl(rows * cols * 2),
      org(rows * cols * 2), conv(rows * cols * 2), neighbour(rows * cols);
  array_view<int, 3> g(rows, cols, 2, gl), l(rows, cols, 2, lo), t(rows, cols, 2, tl),
      o(rows, cols, 2, org), c(rows, cols, 2, conv);
  array_view<int, 2> n(rows, cols, neighbour);
  parallel_for_each(extent<2>(rows, cols).tile<2, 6>(),
                    [=](tiled_index<2, 6> ti) restrict(amp) {
    tile_static int shared[2][6];
    shared[ti.local[0]][ti.local[1]] = ti.global[0] * 100 + ti.global[1];
    ti.barrier.wait();
    index<2> gi = ti; // converts to the global index
    for (int d = 0; d < 2; ++d) {
      g(ti.global[0], ti.global[1], d) = ti.global[d];
      l(ti.global[0], ti.global[1], d) = ti.local[d];
      t(ti.global[0], ti.global[1], d) = ti.tile[d];
      o(ti.global[0], ti.global[1], d) = ti.tile_origin[d];
      c(ti.global[0], ti.global[1], d) = gi[d];
    }
    n[ti.global] = shared[ti.local[0]][(ti.local[1] + 1) % 6];
  });
  n.synchronize();
  g.synchronize(); l.synchronize(); t.synchronize(); o.synchronize(); c.synchronize();
  int bad = 0;
  for (int r = 0; r < rows; ++r)
    for (int col = 0; col < cols; ++col) {
      int at = (r * cols + col) * 2;
      int want_global[2] = {r, col}, tile_ext[2] = {2, 6};
      for (int d = 0; d < 2; ++d) {
        bad += gl[at + d] != want_global[d];
        bad += lo[at + d] != want_global[d] % tile_ext[d];
        bad += tl[at + d] != want_global[d] / tile_ext[d];
        bad += org[at + d] != tl[at + d] * tile_ext[d];
        bad += gl[at + d] != org[at + d] + lo[at + d];
        bad += conv[at + d] != want_global[d];
      }
      int next = col / 6 * 6 + (col % 6 + 1) % 6;
      bad += neighbour[r * cols + col] != r * 100 + next;
    }
  EXPECT(bad == 0);
  EXPECT((tiled_index<2, 6>::rank == 2 && tiled_index<2, 6>::tile_dim1 == 6));
}

void completion_future_46() {
  std::vector<int> host(8, 1);
  array<int, 1> a(8);
  completion_future f = copy_async(host.begin(), host.end(), a);
  EXPECT(f.valid());
  f.wait();
  bool ran = false;
  f.then([&] { ran = true; });
  EXPECT(ran);
  std::vector<int> back(8, 0);
  copy(a, back.begin());
  EXPECT(back[7] == 1);
}

int main() {
  index_41();
  extent_42();
  tiled_extent_43();
  tiled_index_44_barrier_45();
  completion_future_46();
  std::printf("basic data elements: %d failures\n", failures);
  return failures != 0;
}
