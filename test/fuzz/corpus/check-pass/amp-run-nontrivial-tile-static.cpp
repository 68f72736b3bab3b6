0// tile_static objects of classes with constructors: no constructor runs,
// the storage is shared by the tile on every backend's host version.
// RUN: %slmcxx -O1 -Wno-slmc-tile-static-constructor %s -o %t
// RUN: %t | FileCheck %s
// CHECK: tile sums: 2016 6112 PASSED

#include <amp.h>
#include <cstdio>
using namespace concurrency;

struct Acc {
  Acc() restrict(amp, cpu) : sum(-1000) {} // must not run for tile_static
  int sum;
};

int main() {
  int v[128];
  for (int i = 0; i < 128; ++i) v[i] = i;
  array_view<int, 1> av(128, v);
  parallel_for_each(av.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) {
    tile_static Acc acc;
    if (t.local[0] == 0) {
      acc.sum = 0;
      for (int i = 0; i < 64; ++i)
        acc.sum += av[t.tile_origin[0] + i];
    }
    t.barrier.wait();
    av[t.global] = acc.sum;
  });
  av.synchronize();
  bool ok = v[0] == 2016 && v[127] == 6112;
  std::printf("tile sums: %d %d %s\n", v[0], v[127], ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
