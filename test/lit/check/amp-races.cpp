// SLMC_CHECK on the CPU fallback, C++ AMP: seeded races and barrier
// divergence are reported with the kernel, the variable, the work-items and
// their lines, and fail the launch; the correct kernel reports nothing.
// The indices come from memory, so the static check cannot see the races.
// RUN: %slmcxx -fslmc-check -O2 %s -o %t
// RUN: env SLMC_CHECK=races not %t missing-barrier 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: env SLMC_CHECK=races not %t write-write 2>&1 | FileCheck %s --check-prefix=WW
// RUN: env SLMC_CHECK=races not %t read-write 2>&1 | FileCheck %s --check-prefix=RW
// RUN: env SLMC_CHECK=races %t correct 2>&1 | FileCheck %s --check-prefix=CLEAN
// RUN: env SLMC_CHECK=barriers not %t early-return 2>&1 | FileCheck %s --check-prefix=RETURN
// RUN: env SLMC_CHECK=barriers not %t two-barriers 2>&1 | FileCheck %s --check-prefix=SITES
// Without optimisation (no inlining) barriers are still told apart by the
// user's line.
// RUN: %slmcxx -fslmc-check -O0 %s -o %t.O0
// RUN: env SLMC_CHECK=races not %t.O0 missing-barrier 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: env SLMC_CHECK=barriers not %t.O0 two-barriers 2>&1 | FileCheck %s --check-prefix=SITES
// Without SLMC_CHECK the instrumented program runs as usual (the race goes
// unnoticed); the unchecked divergence still names the missing work-items.
// RUN: %t missing-barrier 2>&1 | FileCheck %s --check-prefix=CLEAN
// RUN: not %t early-return 2>&1 | FileCheck %s --check-prefix=RETURN-PLAIN
// Without -fslmc-check, SLMC_CHECK says the kernel is not checked.
// RUN: %slmcxx -O2 %s -o %t.plain
// RUN: env SLMC_CHECK=races %t.plain missing-barrier 2>&1 | FileCheck %s --check-prefix=UNCHECKED
// RUN: env SLMC_CHECK=bogus not --crash %t.plain correct 2>&1 | FileCheck %s --check-prefix=BOGUS

#include <amp.h>
#include <cstdio>
#include <cstring>
#include <vector>
using namespace concurrency;

int main(int argc, char **argv) {
  const char *which = argc > 1 ? argv[1] : "correct";
  std::vector<int> data(64), shift(64, 1);
  for (int i = 0; i < 64; ++i)
    data[i] = i;
  array_view<int, 1> av(64, data), next(64, shift);
  try {
    if (!std::strcmp(which, "missing-barrier")) {
      parallel_for_each(av.extent.tile<16>(), [=](tiled_index<16> t) restrict(amp) {
        tile_static int tile[16];
        int lid = t.local[0];
        tile[lid] = av[t.global];
        av[t.global] = tile[(lid + next[t.global]) % 16];
      });
      // Work-item (0,0,0) runs first and reads tile[1]; work-item (1,0,0)
      // then writes it.
      // MISSING: slmc: data race on group-local memory in work-group (0,0,0) of kernel 'void slmc::kernel_entry<{{.*}}>({{.*}})': write of 4 bytes at byte 4 of 'tile' (64 bytes) by work-item (1,0,0) at {{.*}}amp-races.cpp:[[@LINE-5]] conflicts with a read by work-item (0,0,0) at {{.*}}amp-races.cpp:[[@LINE-4]]; no barrier separates them
      // MISSING: error: {{.*}}data race on group-local memory
    } else if (!std::strcmp(which, "write-write")) {
      parallel_for_each(av.extent.tile<16>(), [=](tiled_index<16> t) restrict(amp) {
        tile_static int total;
        if (next[t.global] > 0)
          total = t.local[0];
        t.barrier.wait();
        av[t.global] = total;
      });
      // WW: slmc: data race on group-local memory in work-group (0,0,0) of kernel {{.*}}: write of 4 bytes at byte 0 of 'total' (4 bytes) by work-item (1,0,0) at {{.*}}amp-races.cpp:[[@LINE-4]] conflicts with a write by work-item (0,0,0) at {{.*}}amp-races.cpp:[[@LINE-4]]
    } else if (!std::strcmp(which, "read-write")) {
      parallel_for_each(av.extent.tile<16>(), [=](tiled_index<16> t) restrict(amp) {
        tile_static int tile[16];
        int lid = t.local[0];
        tile[lid] = 0;
        t.barrier.wait();
        int mine = tile[(lid + next[t.global]) % 16];
        tile[lid] = mine + 1;
        av[t.global] = mine;
      });
      // RW: write of 4 bytes at byte 4 of 'tile' (64 bytes) by work-item (1,0,0) at {{.*}}amp-races.cpp:[[@LINE-3]] conflicts with a read by work-item (0,0,0) at {{.*}}amp-races.cpp:[[@LINE-4]]
    } else if (!std::strcmp(which, "correct")) {
      parallel_for_each(av.extent.tile<16>(), [=](tiled_index<16> t) restrict(amp) {
        tile_static int tile[16];
        tile_static int total;
        int lid = t.local[0];
        tile[lid] = av[t.global];
        if (lid == 0)
          total = 0;
        t.barrier.wait();
        av[t.global] = tile[(lid + next[t.global]) % 16];
        t.barrier.wait();
        tile[lid] = 1; // after every read of the previous phase
        atomic_fetch_add(&total, tile[lid]);
        t.barrier.wait();
        av[t.global] += total;
      });
    } else if (!std::strcmp(which, "early-return")) {
      parallel_for_each(av.extent.tile<16>(), [=](tiled_index<16> t) restrict(amp) {
        if (t.local[0] >= 12 + next[t.global])
          return;
        t.barrier.wait();
        av[t.global] = 0;
      });
      // RETURN: barrier divergence in work-group (0,0,0) of kernel {{.*}}: 3 of 16 work-items returned while 13 wait at a barrier at {{.*}}amp-races.cpp:[[@LINE-3]]; missing: (13,0,0), (14,0,0), (15,0,0)
      // RETURN-PLAIN: barrier divergence in work-group (0,0,0) of kernel {{.*}}: 3 of 16 work-items returned while 13 wait at a barrier; missing: (13,0,0), (14,0,0), (15,0,0)
    } else if (!std::strcmp(which, "two-barriers")) {
      parallel_for_each(av.extent.tile<16>(), [=](tiled_index<16> t) restrict(amp) {
        if (t.local[0] < 2 * next[t.global]) {
          t.barrier.wait();
          av[t.global] = 1;
        } else {
          av[t.global] = 2;
          t.barrier.wait();
        }
      });
      // SITES: barrier divergence in work-group (0,0,0) of kernel {{.*}}: work-items wait at different barriers: (0,0,0) and others at {{.*}}amp-races.cpp:[[@LINE-7]], but (2,0,0) at {{.*}}amp-races.cpp:[[@LINE-3]], (3,0,0) at {{.*}}, (4,0,0) {{.*}} and 6 more
    }
    av.synchronize();
  } catch (const runtime_exception &e) {
    std::printf("error: %s\n", e.what());
    return 1;
  }
  std::printf("PASSED\n");
  return 0;
}
// CLEAN-NOT: slmc:
// CLEAN: PASSED
// UNCHECKED: slmc: warning: SLMC_CHECK is set but kernel '{{.*}}' was not built with slmc++ -fslmc-check; it runs unchecked
// UNCHECKED: PASSED
// BOGUS: SLMC_CHECK='bogus' names an unknown check 'bogus'
