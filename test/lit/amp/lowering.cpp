// C++ AMP lowers to offload C++: restriction keywords and tile_static become
// slmc/offload.h macros on the same lines, behind a #line back to the source.
// RUN: %slmcxx -Wno-slmc --emit=offload-cpp %s -o - | grep -v CHECK | FileCheck %s
// RUN: %slmcxx -Wno-slmc --emit=offload-cpp %s -o - | FileCheck %s --check-prefix=CHECK-PRO

#include <amp.h>
using namespace concurrency;

// CHECK: #include <slmc/offload.h>
// CHECK: #line 1 "{{.*}}lowering.cpp"

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
// A class with a constructor/destructor: raw per-tile storage, no
// constructor call (the checker warns that it will not run).
struct Counter { Counter() restrict(amp) : n(0) {} int n; };
void counters(array_view<int, 1> av) {
  parallel_for_each(av.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) {
    // CHECK: auto &c = *::slmc::group_local_storage<Counter, slmc_site<0>>(); auto &d = *::slmc::group_local_storage<Counter[2], slmc_site<1>>();
    tile_static Counter c, d[2];
    if (t.local[0] == 0) c.n = 1;
    t.barrier.wait();
    av[t.global] = c.n + d[0].n;
  });
}
// The prologue declares the per-site tags once, before the user's code.
// CHECK-PRO: #include <slmc/offload.h>
// CHECK-PRO-NEXT: namespace { template <int N> struct slmc_site : ::slmc::site_base {}; }
// CHECK-PRO-NEXT: #line 1

// The lowered file keeps every line of the source.
// CHECK: // END
// END
