// The PTX of a tiled kernel: tile_static data in .shared, barriers as
// barrier.sync, one .entry per kernel, for the requested architecture.
// RUN: %slmcxx --emit=ptx %s -o - | FileCheck %s
// RUN: %slmcxx --emit=ptx --cuda-arch=sm_90 %s -o - | FileCheck %s --check-prefix=SM90

#include <amp.h>
using namespace concurrency;

void reverse(array_view<int, 1> av) {
  parallel_for_each(av.extent.tile<128>(), [=](tiled_index<128> t) restrict(amp) {
    tile_static int buffer[128];
    buffer[t.local[0]] = av[t.global];
    t.barrier.wait();
    av[t.global] = buffer[127 - t.local[0]];
  });
}

// CHECK: .target sm_75
// CHECK: .visible .entry _ZN4slmc12kernel_entry
// CHECK: .shared .align 4 .b8 {{.*}}buffer[512];
// CHECK: barrier.sync 0;
// SM90: .target sm_90
