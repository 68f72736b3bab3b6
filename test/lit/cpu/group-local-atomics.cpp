// A work-group run as work-item loops runs on one thread from start to end,
// so atomics on its group-local memory become plain loads and stores (they
// vectorise and take no bus lock); atomics on other memory stay atomic.
// RUN: %slmcxx -O2 %s -o %t
// RUN: env SLMC_DEVICE=cpu SLMC_VERBOSE=1 %t 2>&1 | FileCheck %s --check-prefixes=CHECK,LOOPS
// RUN: env SLMC_DEVICE=cpu SLMC_CPU_WORK_ITEM_LOOPS=0 %t 2>&1 | FileCheck %s
// LOOPS: runs as work-item loops
// CHECK: total 65536, bins 4096 4096, group-local old values ok
//
// The host pass's IR of the group entry: the group-local increments are
// plain adds; the adds to the global bins (unrolled) stay atomic.
// RUN: %slmcxx --emit=offload-cpp %s -o %t.slmc.cpp
// RUN: %clangxx -x hip --offload-host-only --offload=spirv64 -nogpulib -nogpuinc -isystem %slmc-libdir/slmc/include -O2 -w -fpass-plugin=%slmc-libdir/slmcWorkItemLoops.so -S -emit-llvm %t.slmc.cpp -o - | FileCheck %s --check-prefix=IR
// IR-LABEL: define {{.*}}cpu_group_entry
// IR-NOT: atomicrmw {{.*}} i32 1 monotonic
// IR: llvm.threadlocal.address
// IR-NOT: atomicrmw {{.*}} i32 1 monotonic
// IR: atomicrmw add ptr %{{[0-9]+}}, i32 %{{[0-9]+}} monotonic
// IR-NOT: atomicrmw {{.*}} i32 1 monotonic
// IR: {{^}$}}
#include <amp.h>

#include <cstdio>
#include <vector>

using namespace concurrency;

int main() {
  std::vector<unsigned> data(1 << 16), bins(16, 0), olds(1 << 16);
  for (size_t i = 0; i < data.size(); i++)
    data[i] = unsigned(i * 7) % 16;
  array_view<const unsigned, 1> dv(int(data.size()), data);
  array_view<unsigned, 1> bv(16, bins), ov(int(olds.size()), olds);
  parallel_for_each(dv.extent.tile<256>(), [=](tiled_index<256> t) restrict(amp) {
    tile_static unsigned local[16];
    if (t.local[0] < 16)
      local[t.local[0]] = 0;
    t.barrier.wait();
    ov[t.global] = atomic_fetch_add(&local[dv[t.global] % 16], 1u);
    t.barrier.wait();
    if (t.local[0] < 16)
      atomic_fetch_add(&bv[t.local[0]], local[t.local[0]]);
  });
  bv.synchronize();
  ov.synchronize();
  unsigned total = 0;
  for (unsigned b : bins)
    total += b;
  // Each group has 16 of each value: their fetches returned 0..15, once each.
  bool ok = true;
  for (size_t g = 0; g < olds.size(); g += 256) {
    for (unsigned v = 0; v < 16; v++) {
      unsigned mask = 0;
      for (size_t i = g; i < g + 256; i++)
        if (data[i] == v && olds[i] < 16)
          mask |= 1u << olds[i];
      ok = ok && mask == 0xffffu;
    }
  }
  printf("total %u, bins %u %u, group-local old values %s\n", total, bins[0], bins[15],
         ok ? "ok" : "WRONG");
  return 0;
}
