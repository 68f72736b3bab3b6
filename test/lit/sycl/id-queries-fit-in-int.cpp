// -fsycl-id-queries-fit-in-int (the default): SYCL's global id is IGC's
// 32-bit GlobalInvocationId, not a 64-bit product of the group builtins
// (which Intel Gen12 emulates with mul/mach/addc); -fno-... keeps the
// size_t computation. A launch past INT_MAX work-items is refused at submit,
// naming the option; the kernel still computes right on the CPU fallback.
// REQUIRES: spirv-tools
// RUN: %slmcxx -O3 --emit=spirv %s -o %t.spv
// RUN: %spirv-val %t.spv
// RUN: %spirv-dis %t.spv | FileCheck %s --check-prefix=FIT
// RUN: %slmcxx -O3 --emit=spirv -fno-sycl-id-queries-fit-in-int %s -o %t.no.spv
// RUN: %spirv-dis %t.no.spv | FileCheck %s --check-prefix=NOFIT
// RUN: %slmcxx -O2 %s -o %t && env SLMC_DEVICE=cpu %t | FileCheck %s --check-prefix=EXEC
// RUN: %slmcxx -O2 -fno-sycl-id-queries-fit-in-int -DNO_FIT %s -o %t.no && env SLMC_DEVICE=cpu %t.no | FileCheck %s --check-prefix=EXEC-NOFIT

// FIT: BuiltIn GlobalInvocationId
// FIT-NOT: OpIMul %ulong
// NOFIT-NOT: BuiltIn GlobalInvocationId
// NOFIT: {{OpIMul|OpShiftLeftLogical}} %ulong
// EXEC: results: PASSED
// EXEC: refused: parallel_for: the range exceeds INT_MAX work-items{{.*}}-fno-sycl-id-queries-fit-in-int
// EXEC-NOFIT: results: PASSED
// EXEC-NOFIT-NOT: refused

#include <sycl/sycl.hpp>

#include <climits>
#include <cstdio>

using namespace sycl;

int main() {
  queue q;
  const size_t n = 1024, wg = 64;
  int *out = malloc_shared<int>(n, q);
  q.submit([&](handler &h) {
     local_accessor<int, 1> tile(range<1>(wg), h);
     h.parallel_for(nd_range<1>(range<1>(n), range<1>(wg)), [=](nd_item<1> it) {
       size_t l = it.get_local_id(0);
       tile[l] = int(it.get_global_id(0));
       group_barrier(it.get_group());
       out[it.get_global_id(0)] = tile[wg - 1 - l] + int(it.get_group_linear_id());
     });
   }).wait();
  int bad = 0;
  for (size_t i = 0; i < n; ++i)
    bad += out[i] != int(i / wg * wg + (wg - 1 - i % wg) + i / wg);
  std::printf("results: %s\n", bad ? "FAILED" : "PASSED");
  free(out, q);

#ifndef NO_FIT
  try {
    q.parallel_for(range<1>(size_t(INT_MAX) + 1), [=](id<1>) {}).wait();
    std::printf("not refused\n");
    return 1;
  } catch (const sycl::exception &e) {
    std::printf("refused: %s\n", e.what());
  }
#endif
  return bad != 0;
}
