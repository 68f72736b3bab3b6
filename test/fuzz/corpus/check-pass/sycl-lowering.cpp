1// SYCL lowering: each group_local_memory call site gets its own tag (and so
// its own storage); plain functions a kernel calls become host-and-device.
// RUN: %slmcxx --emit=offload-cpp %s -o - | grep -v CHECK | FileCheck %s

#include <sycl/sycl.hpp>
#include <sycl/ext/oneapi/group_local_memory.hpp>
using namespace sycl;

// CHECK: namespace { template <int N> struct slmc_site : ::slmc::site_base {}; }
// CHECK: #line 1

// CHECK: SLMC_HD int twice(int x) { return 2 * x; }
int twice(int x) { return 2 * x; }
// CHECK: int unused(int x) { return x; }
int unused(int x) { return x; }

void run(queue &q, int *out) {
  q.parallel_for(nd_range<1>(range<1>(64), range<1>(32)), [=](nd_item<1> it) {
    // CHECK: ext::oneapi::group_local_memory<int[32]>(slmc_site<0>{}, it.get_group());
    auto a = ext::oneapi::group_local_memory<int[32]>(it.get_group());
    // CHECK: ext::oneapi::group_local_memory_for_overwrite<int>(slmc_site<1>{}, it.get_group());
    auto b = ext::oneapi::group_local_memory_for_overwrite<int>(it.get_group());
    (*a)[it.get_local_id(0)] = twice(*b);
    out[it.get_global_id(0)] = (*a)[0];
  });
}
