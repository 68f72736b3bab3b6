// When the work-item loops cannot run a kernel the CPU fallback says why
// (SLMC_VERBOSE) and runs it on fibers; barrier divergence is reported as
// fibers report it: the work-items that returned while others wait, or (what
// fibers would let pass) work-items waiting at different barriers.
// RUN: %slmcxx -O2 %s -o %t
// RUN: not %t early-return 2>&1 | FileCheck %s --check-prefix=RETURN
// RUN: not %t two-barriers 2>&1 | FileCheck %s --check-prefix=SITES
// RUN: env SLMC_CPU_WORK_ITEM_LOOPS=0 %t two-barriers 2>&1 | FileCheck %s --check-prefix=FIBERS
// Sub-group functions need fibers.
// RUN: %slmcxx -O2 -DSG=8 %S/../sycl/sub-groups.cpp -o %t.sg
// RUN: env SLMC_VERBOSE=1 %t.sg 64 2>&1 | FileCheck %s --check-prefix=SUBGROUP
// RETURN: error: parallel_for_each: slmc: barrier divergence in work-group (0,0,0) of kernel {{.*}}: 3 of 16 work-items returned while 13 wait at a barrier; missing: (13,0,0), (14,0,0), (15,0,0)
// SITES: error: parallel_for_each: slmc: barrier divergence in work-group (0,0,0) of kernel {{.*}}: its 16 work-items wait at different barriers (slmc++ -fslmc-check and SLMC_CHECK=barriers name them)
// FIBERS: done
// SUBGROUP: runs as fibers (the kernel uses sub-group barriers or shuffles)
// SUBGROUP: sub-groups of size 8, local size 64: PASSED

#include <amp.h>
#include <cstdio>
#include <cstring>
#include <vector>
using namespace concurrency;

int main(int argc, char **argv) {
  const char *which = argc > 1 ? argv[1] : "";
  std::vector<int> data(16, 0), next(16, 0);
  array_view<int, 1> av(16, data);
  array_view<const int, 1> nv(16, next);
  try {
    if (!std::strcmp(which, "early-return")) {
      parallel_for_each(av.extent.tile<16>(), [=](tiled_index<16> t) restrict(amp) {
        if (t.local[0] >= 13 + nv[t.global])
          return;
        t.barrier.wait();
        av[t.global] = 1;
      });
    } else if (!std::strcmp(which, "two-barriers")) {
      parallel_for_each(av.extent.tile<16>(), [=](tiled_index<16> t) restrict(amp) {
        if (t.local[0] < 2 + nv[t.global]) {
          t.barrier.wait();
          av[t.global] = 1;
        } else {
          av[t.global] = 2;
          t.barrier.wait();
        }
      });
    }
    av.synchronize();
  } catch (const runtime_exception &e) {
    std::printf("error: %s\n", e.what());
    return 1;
  }
  std::printf("done\n");
  return 0;
}
