// SLMC_CHECK on the CPU fallback, SYCL: a local_accessor (dynamic
// group-local memory) read without a barrier, two work-items writing
// different values to group_local_memory, and a group barrier some
// work-items skip are reported; the correct kernel reports nothing.
// RUN: %slmcxx -fslmc-check -O2 %s -o %t
// RUN: env SLMC_CHECK=races not %t missing-barrier 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: env SLMC_CHECK=races not %t write-write 2>&1 | FileCheck %s --check-prefix=WW
// RUN: env SLMC_CHECK=races not %t early-return 2>&1 | FileCheck %s --check-prefix=RETURN
// RUN: env SLMC_CHECK=races %t correct 2>&1 | FileCheck %s --check-prefix=CLEAN
// RUN: %t missing-barrier 2>&1 | FileCheck %s --check-prefix=CLEAN

#include <sycl/sycl.hpp>
#include <cstdio>
#include <cstring>

namespace syclex = sycl::ext::oneapi;

int main(int argc, char **argv) {
  const char *which = argc > 1 ? argv[1] : "correct";
  constexpr size_t N = 64, WG = 16;
  try {
    sycl::queue q;
    int *data = sycl::malloc_shared<int>(N, q);
    int *shift = sycl::malloc_shared<int>(N, q);
    for (size_t i = 0; i < N; ++i)
      data[i] = int(i), shift[i] = 1;
    if (!std::strcmp(which, "missing-barrier")) {
      q.submit([&](sycl::handler &h) {
        sycl::local_accessor<int, 1> tile(sycl::range<1>(WG), h);
        h.parallel_for(sycl::nd_range<1>{N, WG}, [=](sycl::nd_item<1> it) {
          size_t lid = it.get_local_id(0), gid = it.get_global_id(0);
          tile[lid] = data[gid];
          data[gid] = tile[(lid + shift[gid]) % WG];
        });
      });
      // MISSING: slmc: data race on group-local memory in work-group (0,0,0) of kernel '{{.*}}': write of 4 bytes at byte 4 of 'dynamic group-local memory' ({{[0-9]+}} bytes) by work-item (1,0,0) at {{.*}}sycl-races.cpp:[[@LINE-4]] conflicts with a read by work-item (0,0,0) at {{.*}}sycl-races.cpp:[[@LINE-3]]; no barrier separates them
      // MISSING: error: {{.*}}data race on group-local memory
    } else if (!std::strcmp(which, "write-write")) {
      q.parallel_for(sycl::nd_range<1>{N, WG}, [=](sycl::nd_item<1> it) {
        auto best = syclex::group_local_memory_for_overwrite<int>(it.get_group());
        size_t gid = it.get_global_id(0);
        if (shift[gid] > 0)
          *best = data[gid];
        sycl::group_barrier(it.get_group());
        data[gid] = *best;
      });
      // WW: slmc: data race on group-local memory in work-group (0,0,0) of kernel '{{.*}}': write of 4 bytes at byte 0 of 'group-local int' (4 bytes) by work-item (1,0,0) at {{.*}}sycl-races.cpp:[[@LINE-4]] conflicts with a write by work-item (0,0,0) at {{.*}}sycl-races.cpp:[[@LINE-4]]; no barrier separates them
    } else if (!std::strcmp(which, "early-return")) {
      q.parallel_for(sycl::nd_range<1>{N, WG}, [=](sycl::nd_item<1> it) {
        size_t gid = it.get_global_id(0);
        if (it.get_local_id(0) == size_t(shift[gid]))
          return;
        sycl::group_barrier(it.get_group());
        data[gid] = 0;
      });
      // RETURN: barrier divergence in work-group (0,0,0) of kernel '{{.*}}': 1 of 16 work-items returned while 15 wait at a barrier at {{.*}}sycl-races.cpp:[[@LINE-3]]; missing: (1,0,0)
    } else {
      q.submit([&](sycl::handler &h) {
        sycl::local_accessor<int, 1> tile(sycl::range<1>(WG), h);
        h.parallel_for(sycl::nd_range<1>{N, WG}, [=](sycl::nd_item<1> it) {
          auto sum = syclex::group_local_memory<int>(it.get_group());
          size_t lid = it.get_local_id(0), gid = it.get_global_id(0);
          tile[lid] = data[gid];
          sycl::group_barrier(it.get_group());
          int v = tile[(lid + shift[gid]) % WG];
          sycl::atomic_ref<int, sycl::memory_order::relaxed, sycl::memory_scope::work_group,
                           sycl::access::address_space::local_space>(*sum) += v;
          sycl::group_barrier(it.get_group());
          data[gid] = *sum;
        });
      });
    }
    q.wait_and_throw();
    sycl::free(data, q);
    sycl::free(shift, q);
  } catch (const sycl::exception &e) {
    std::printf("error: %s\n", e.what());
    return 1;
  }
  std::printf("PASSED\n");
  return 0;
}
// CLEAN-NOT: slmc:
// CLEAN: PASSED
