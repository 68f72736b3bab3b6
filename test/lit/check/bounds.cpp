// SLMC_CHECK=bounds on the CPU fallback: an access outside a group-local
// variable (past its end, or before its start) is reported with the
// kernel, the variable, the offset, the work-item and the line, is skipped
// (the memory next to it keeps its value), and fails the launch: a SYCL
// errc::kernel exception, a C++ AMP runtime_exception. SLMC_CHECK=races
// checks bounds too. The indices come from memory, as in programs whose
// tile indexing is off by one.
// RUN: %slmcxx -fslmc-check -O2 %s -o %t
// RUN: env SLMC_CHECK=bounds not %t sycl-past-end 2>&1 | FileCheck %s --check-prefix=PAST
// RUN: env SLMC_CHECK=races not %t sycl-past-end 2>&1 | FileCheck %s --check-prefix=PAST
// RUN: env SLMC_CHECK=bounds not %t amp-before-start 2>&1 | FileCheck %s --check-prefix=BEFORE
// RUN: env SLMC_CHECK=bounds,barriers not %t sycl-in-loop 2>&1 | FileCheck %s --check-prefix=LOOP
// RUN: env SLMC_CHECK=bounds %t correct 2>&1 | FileCheck %s --check-prefix=CLEAN
// RUN: env SLMC_CHECK=races %t correct 2>&1 | FileCheck %s --check-prefix=CLEAN
// Unoptimised, a tile_static array is checked as well; a SYCL
// group_local_memory object's address then reaches the kernel through
// memory (nothing is inlined), and its accesses go unchecked.
// RUN: %slmcxx -fslmc-check -O0 %s -o %t.O0
// RUN: env SLMC_CHECK=bounds not %t.O0 amp-before-start 2>&1 | FileCheck %s --check-prefix=BEFORE

#include <amp.h>
#include <sycl/sycl.hpp>

#include <cstdio>
#include <cstring>

namespace syclex = sycl::ext::oneapi;

int main(int argc, char **argv) {
  const char *which = argc > 1 ? argv[1] : "correct";
  constexpr int N = 64, WG = 16;
  int data[N], shift[N];
  for (int i = 0; i < N; ++i)
    data[i] = i, shift[i] = 1;
  if (!std::strcmp(which, "sycl-past-end") || !std::strcmp(which, "sycl-in-loop") ||
      !std::strcmp(which, "correct")) {
    const bool loop = !std::strcmp(which, "sycl-in-loop"),
               correct = !std::strcmp(which, "correct");
    try {
      sycl::queue q;
      int *d = sycl::malloc_shared<int>(N, q), *s = sycl::malloc_shared<int>(N, q);
      std::memcpy(d, data, sizeof data);
      std::memcpy(s, shift, sizeof shift);
      q.parallel_for(sycl::nd_range<1>{N, WG}, [=](sycl::nd_item<1> it) {
         size_t lid = it.get_local_id(0), gid = it.get_global_id(0);
         // A guard next to the tile: an overflow must not reach it.
         auto guard = syclex::group_local_memory<int[WG]>(it.get_group());
         auto tile = syclex::group_local_memory_for_overwrite<int[WG]>(it.get_group());
         (*guard)[lid] = 7;
         for (int k = 0; k < (loop ? 2 : 1); ++k) {
           size_t at = correct ? lid : lid + size_t(s[gid]) * (loop ? size_t(k) : 1);
           (*tile)[at] = d[gid];
         }
         sycl::group_barrier(it.get_group());
         d[gid] = (*tile)[lid] + (*guard)[lid];
       }).wait();
      std::printf("guard %s\n", d[0] == 7 ? "kept" : "lost");
      sycl::free(d, q);
      sycl::free(s, q);
    } catch (const sycl::exception &e) {
      std::printf("error: %s (kernel error: %d)\n", e.what(), e.code() == sycl::errc::kernel);
      return 1;
    }
  } else if (!std::strcmp(which, "amp-before-start")) {
    using namespace concurrency;
    array_view<int, 1> av(N, data), sh(N, shift);
    try {
      parallel_for_each(av.extent.tile<WG>(), [=](tiled_index<WG> t) restrict(amp) {
        tile_static int tile[WG];
        tile[t.local[0]] = av[t.global];
        t.barrier.wait();
        av[t.global] = tile[t.local[0] - sh[t.global]];
      });
      av.synchronize();
    } catch (const runtime_exception &e) {
      std::printf("error: %s\n", e.what());
      return 1;
    }
  }
  std::printf("PASSED\n");
  return 0;
}

// PAST: slmc: access outside a group-local variable in work-group (0,0,0) of kernel '{{.*}}': write of 4 bytes at byte 64 of 'group-local int [16]' (64 bytes) by work-item (15,0,0) at {{.*}}bounds.cpp:52
// PAST: error: {{.*}}access outside a group-local variable{{.*}} (kernel error: 1)
// BEFORE: slmc: access outside a group-local variable in work-group (0,0,0) of kernel '{{.*}}': read of 4 bytes at byte -4 of 'tile' (64 bytes) by work-item (0,0,0) at {{.*}}bounds.cpp:72
// BEFORE: error: {{.*}}access outside a group-local variable
// LOOP: slmc: access outside a group-local variable in work-group (0,0,0) of kernel '{{.*}}': write of 4 bytes at byte 64 of 'group-local int [16]' (64 bytes) by work-item (15,0,0) at {{.*}}bounds.cpp:52
// CLEAN-NOT: slmc:
// CLEAN: guard kept
// CLEAN: PASSED
