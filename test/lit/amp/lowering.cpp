// C++ AMP lowers to offload C++: restriction keywords and tile_static become
// slmc/offload.h macros on the same lines, behind a #line back to the source.
// RUN: %slmcxx --emit=offload-cpp %s -o - | grep -v CHECK | FileCheck %s

#include <amp.h>
using namespace concurrency;

// CHECK: #include <slmc/offload.h>
// CHECK-NEXT: #line 1 "{{.*}}lowering.cpp"

// CHECK: int twice(int x) SLMC_RESTRICT_AMP { return 2 * x; }
int twice(int x) restrict(amp) { return 2 * x; }
// CHECK: int both(int x) SLMC_RESTRICT_AMP_CPU { return x; }
int both(int x) restrict(amp, cpu) { return x; }
// CHECK: int host(int x) SLMC_RESTRICT_CPU { return x; }
int host(int x) restrict(cpu) { return x; }

void kernel(array_view<int, 1> av) {
  // CHECK: [=](tiled_index<64> t) SLMC_RESTRICT_AMP {
  parallel_for_each(av.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) {
    // CHECK-NEXT: SLMC_GROUP_LOCAL int buffer[64];
    tile_static int buffer[64];
    // CHECK-NEXT: buffer[t.local[0]] = twice(av[t.global]);
    buffer[t.local[0]] = twice(av[t.global]);
    t.barrier.wait();
    av[t.global] = buffer[63 - t.local[0]];
  });
}
// The lowered file keeps every line of the source.
// CHECK: // END
// END
