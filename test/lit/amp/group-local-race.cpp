// Missing tile barriers over tile_static memory: a read of an element
// another thread wrote since the last barrier, and writes by several
// threads to one element, are reported where the tile shape and the index
// expressions prove them; everything else is left alone.
// RUN: %slmcxx -fsyntax-only -Xclang -verify %s
// RUN: %clangxx -std=c++17 %plugin -fsyntax-only -Xclang -verify %s
// RUN: %slmcxx -fsyntax-only -Wno-slmc-group-local-race -Xclang -verify=off %s
// RUN: %slmcxx -fsyntax-only -fdiagnostics-parseable-fixits %s 2>&1 | FileCheck %s
// off-no-diagnostics

#include <amp.h>
using namespace concurrency;

int opaque(int x) restrict(amp) { return x * 3; }

void races(array_view<int, 1> av, array_view<int, 2> m, int n) {
  parallel_for_each(av.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) {
    tile_static int s[64];
    tile_static int total;
    int lid = t.local[0];
    s[lid] = av[t.global]; // expected-note {{work-item (1) writes s[1] here}}
    // CHECK: fix-it:"{{.*}}group-local-race.cpp":{[[@LINE+1]]:5-[[@LINE+1]]:5}:"t.barrier.wait();\n    "
    int right = s[(lid + 1) % 64]; // expected-warning {{read of group-local s[1] by work-item (0) races with a write by work-item (1); no barrier separates them}} expected-note {{a barrier before this statement would order the accesses}}
    t.barrier.wait();
    total = lid; // expected-warning {{write of group-local total by work-item (0) races with a write by work-item (1)}}
    av[t.global] = right + s[63 - lid];
  });

  // Write-write across statements, and a single writer read by everyone.
  parallel_for_each(av.extent.tile<8>(), [=](tiled_index<8> t) restrict(amp) {
    tile_static int s[8];
    tile_static int h[4];
    tile_static int flag;
    s[t.local[0]] = 0;                    // expected-note {{work-item (1) writes s[1] here}}
    s[(t.local[0] + 1) % 8] = 1;          // expected-warning {{write of group-local s[1] by work-item (0) races with a write by work-item (1)}} expected-note {{a barrier before this statement}}
    h[t.local[0] / 2] = 2;                // expected-warning {{write of group-local h[0] by work-item (0) races with a write by work-item (1)}}
    if (t.local[0] == 0)
      flag = av[t.global];                // expected-note {{work-item (0) writes flag here}}
    av[t.global] = flag;                  // expected-warning {{read of group-local flag by work-item (1) races with a write by work-item (0)}} expected-note {{a barrier before this statement}}
  });

  // 2-D tiles: the neighbour in the slower dimension.
  parallel_for_each(m.extent.tile<4, 16>(), [=](tiled_index<4, 16> t) restrict(amp) {
    tile_static float a[4][16];
    a[t.local[0]][t.local[1]] = 1.0f;     // expected-note {{work-item (1, 0) writes a[1][0] here}}
    m[t.global] = a[(t.local[0] + 1) & 3][t.local[1]]; // expected-warning {{read of group-local a[1][0] by work-item (0, 0) races with a write by work-item (1, 0)}} expected-note {{a barrier before this statement}}
  });
}

void fine(array_view<int, 1> av, int n) {
  parallel_for_each(av.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) {
    tile_static int s[64];
    tile_static int one;
    int lid = t.local[0];
    s[lid] = av[t.global];
    av[t.global] = s[lid] + s[t.local[0]]; // each thread reads its own element
    t.barrier.wait();
    av[t.global] = s[(lid + 1) % 64];     // after a barrier
    t.barrier.wait();
    if (lid == 0)
      one = 7;                            // one writer
    if (t.local[0] == 0)
      av[t.global] = one;                 // read by the writer only
    t.barrier.wait();
    s[lid] = one;
    if (n > 2) // uniform, but not known: the barrier may or may not run
      t.barrier.wait();
    av[t.global] = s[(lid + 1) % 64];
    s[opaque(lid)] = 1;                   // index not analysable
    av[t.global] = s[lid * 2 % 64] + s[n]; // n: not known
    for (int i = 0; i < 64; ++i)          // loops are not looked at
      s[i] = i;
    int k = lid;
    k += 1;                               // k is not read-only
    av[t.global] = s[k % 64];
  });
}
