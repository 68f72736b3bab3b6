// Direct3D 11's buffer rules on the CPU fallback, which C++ AMP programs
// written for MSVC ran under: a kernel's read outside the buffer of an
// array or array_view gives zero, and its write there is dropped. The
// bound is the buffer (the array, or the memory the outermost view was
// made of), not the view's extent: a section reads its neighbours.
// The cases are the idioms real programs use: a tiled reduction and an
// inclusive scan that load a padded last tile without a test (as the C++
// AMP Algorithms Library does), a merge that reads far past its data (as
// Microsoft's histogram sample does), atomics, reinterpret_as views and
// negative indices. Guard elements around the view's memory must survive.
// -DSLMC_AMP_BUFFER_BOUNDS=0 drops the check (it still builds).
// RUN: %slmcxx -O2 %s -o %t
// RUN: env SLMC_DEVICE=cpu %t | FileCheck %s
// RUN: %slmcxx -O0 %s -o %t0
// RUN: env SLMC_DEVICE=cpu %t0 | FileCheck %s
// RUN: %slmcxx -O2 -fslmc-check %s -o %tc
// RUN: env SLMC_DEVICE=cpu SLMC_CHECK=races %tc | FileCheck %s
// RUN: %slmcxx -O2 -DSLMC_AMP_BUFFER_BOUNDS=0 -c %s -o %t.o
// CHECK: padded reduction: 5050 (tiles 7)
// CHECK-NEXT: padded scan: 1 3 6 10 15 21 28 36 45 55, guards 111 222
// CHECK-NEXT: far reads: 0 0 0, sum 4950
// CHECK-NEXT: writes: 7 7 7 7, guards 111 222
// CHECK-NEXT: section neighbours: 5 9
// CHECK-NEXT: array: 0 0, inside 12, next row 0
// CHECK-NEXT: atomics: 0 0 16
// CHECK-NEXT: reinterpret: 0 258
// CHECK-NEXT: negative: 0 0, first 40

#include <amp.h>

#include <cstdio>
#include <vector>

using namespace concurrency;

static const int Tile = 16;

int main() {
  // A reduction of 100 elements in tiles of 16: the last tile reads 12
  // elements past the end and relies on them being zero.
  {
    std::vector<int> in(100);
    for (int i = 0; i < 100; ++i) in[i] = i + 1;
    array_view<const int, 1> av(100, in);
    int tiles = (100 + Tile - 1) / Tile;
    std::vector<int> partial(tiles);
    array_view<int, 1> out(tiles, partial);
    parallel_for_each(extent<1>(tiles * Tile).tile<Tile>(),
                      [=](tiled_index<Tile> t) restrict(amp) {
      tile_static int s[Tile];
      s[t.local[0]] = av[t.global[0]];
      t.barrier.wait();
      for (int stride = Tile / 2; stride > 0; stride /= 2) {
        if (t.local[0] < stride) s[t.local[0]] += s[t.local[0] + stride];
        t.barrier.wait();
      }
      if (t.local[0] == 0) out[t.tile[0]] = s[0];
    });
    int sum = 0;
    for (int p : partial) sum += p;
    std::printf("padded reduction: %d (tiles %d)\n", sum, tiles);
  }

  // An inclusive scan of 10 elements in one tile of 16: loads and stores
  // the whole tile; the stores past the end must not reach the guards.
  {
    std::vector<int> mem(12);
    mem[0] = 111;
    mem[11] = 222;
    for (int i = 1; i <= 10; ++i) mem[i] = i;
    array_view<int, 1> av(10, mem.data() + 1);
    parallel_for_each(extent<1>(Tile).tile<Tile>(), [=](tiled_index<Tile> t) restrict(amp) {
      tile_static int s[Tile];
      int i = t.local[0];
      s[i] = av[i];
      t.barrier.wait();
      for (int d = 1; d < Tile; d *= 2) {
        int v = i >= d ? s[i - d] : 0;
        t.barrier.wait();
        s[i] += v;
        t.barrier.wait();
      }
      av[i] = s[i];
    });
    av.synchronize();
    std::printf("padded scan:");
    for (int i = 1; i <= 10; ++i) std::printf(" %d", mem[i]);
    std::printf(", guards %d %d\n", mem[0], mem[11]);
  }

  // Reads far past the data (millions of elements): zero, no fault.
  {
    std::vector<int> in(100);
    for (int i = 0; i < 100; ++i) in[i] = i;
    array_view<const int, 1> av(100, in);
    std::vector<int> res(4);
    array_view<int, 1> out(4, res);
    parallel_for_each(extent<1>(1), [=](index<1>) restrict(amp) {
      out[0] = av[100];
      out[1] = av[1 << 20];
      out[2] = av[1 << 28];
      int s = 0;
      for (int i = 0; i < 65536; ++i) s += av[i * 1];
      out[3] = s;
    });
    out.synchronize();
    std::printf("far reads: %d %d %d, sum %d\n", res[0], res[1], res[2], res[3]);
  }

  // Writes past both ends are dropped; the ones inside land.
  {
    std::vector<int> mem(6, 0);
    mem[0] = 111;
    mem[5] = 222;
    array_view<int, 1> av(4, mem.data() + 1);
    parallel_for_each(extent<1>(12), [=](index<1> i) restrict(amp) {
      av[i[0] - 4] = 7;
      av[i[0] + 4] += 1; // always outside: no effect
    });
    av.synchronize();
    std::printf("writes: %d %d %d %d, guards %d %d\n", mem[1], mem[2], mem[3], mem[4], mem[0],
                mem[5]);
  }

  // A section's bound is its buffer: reading past the section reads the
  // next elements, as in Direct3D.
  {
    std::vector<int> mem(10);
    for (int i = 0; i < 10; ++i) mem[i] = i;
    array_view<int, 1> whole(10, mem);
    array_view<int, 1> part = whole.section(2, 3);
    std::vector<int> res(2);
    array_view<int, 1> out(2, res);
    parallel_for_each(extent<1>(1), [=](index<1>) restrict(amp) {
      out[0] = part[3];
      out[1] = part[7];
    });
    out.synchronize();
    std::printf("section neighbours: %d %d\n", res[0], res[1]);
  }

  // Arrays: rank 2, a row past the end and a column past the row.
  {
    array<int, 2> a(3, 4);
    std::vector<int> res(4);
    array_view<int, 1> out(4, res);
    parallel_for_each(extent<1>(1), [=, &a](index<1>) restrict(amp) {
      a(1, 2) = 12;
      a(3, 0) = 99;   // past the last row: dropped
      a(2, 4) = 98;   // past the last element: dropped
      out[0] = a(3, 1);
      out[1] = a(5, 5);
      out[2] = a(1, 2);
      out[3] = a(1, 6); // a(2, 2): inside the buffer, never written
    });
    out.synchronize();
    std::printf("array: %d %d, inside %d, next row %d\n", res[0], res[1], res[2], res[3]);
  }

  // Atomics outside return zero and change nothing.
  {
    std::vector<int> cnt(1, 0);
    array_view<int, 1> c(1, cnt);
    std::vector<int> res(2);
    array_view<int, 1> out(2, res);
    parallel_for_each(extent<1>(16), [=](index<1> i) restrict(amp) {
      int old = atomic_fetch_add(&c[1 + i[0]], 1);
      atomic_fetch_add(&c[0], 1);
      if (i[0] == 0) {
        out[0] = old;
        out[1] = atomic_exchange(&c[-1], 5);
      }
    });
    out.synchronize();
    c.synchronize();
    std::printf("atomics: %d %d %d\n", res[0], res[1], cnt[0]);
  }

  // A reinterpreted view keeps the buffer in bytes: the 2-byte element
  // past 4 bytes is outside, the one at bytes 2..3 inside.
  {
    std::vector<unsigned> mem(1, 0x01020000u);
    array_view<unsigned, 1> words(1, mem);
    std::vector<int> res(2);
    array_view<int, 1> out(2, res);
    parallel_for_each(extent<1>(1), [=](index<1>) restrict(amp) {
      array_view<unsigned short, 1> halves = words.reinterpret_as<unsigned short>();
      out[0] = halves[2];
      out[1] = halves[1];
    });
    out.synchronize();
    std::printf("reinterpret: %d %d\n", res[0], res[1]);
  }

  // Negative indices, rank 1 and rank 2.
  {
    std::vector<int> mem(6);
    for (int i = 0; i < 6; ++i) mem[i] = 40 + i;
    array_view<const int, 2> av(2, 3, mem);
    std::vector<int> res(3);
    array_view<int, 1> out(3, res);
    array_view<const int, 1> flat(6, mem);
    parallel_for_each(extent<1>(1), [=](index<1>) restrict(amp) {
      out[0] = flat[-1];
      out[1] = av(index<2>(-1, 0));
      out[2] = av(0, 0);
    });
    out.synchronize();
    std::printf("negative: %d %d, first %d\n", res[0], res[1], res[2]);
  }
  return 0;
}
