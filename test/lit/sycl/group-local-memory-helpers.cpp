// sycl_ext_oneapi_local_memory in the functions a kernel calls, as code
// migrated from CUDA has it (a __shared__ array moved into a __device__
// helper): every call path gets its own allocation, as DPC++ gives after
// inlining. A helper called twice, a template's instantiations and a helper
// two calls deep each have their own storage (7 allocations for the
// kernel); results are checked on the CPU fallback, and the device code has
// one group-local variable per path.
// RUN: %slmcxx -O2 %s -o %t
// RUN: %t | FileCheck %s
// CHECK: PASSED
// RUN: %slmcxx -O0 %s -o %t.O0
// RUN: %t.O0 | FileCheck %s
// RUN: %slmcxx -O2 --emit=spirv %s -o %t.spv
// RUN: %spirv-val %t.spv
// RUN: %spirv-dis %t.spv | FileCheck %s --check-prefix=SPIRV
// SPIRV-COUNT-7: OpVariable %{{.*}} Workgroup
// SPIRV-NOT: OpVariable %{{.*}} Workgroup
// RUN: %slmcxx -O2 --emit=ptx %s -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// PTX-COUNT-7: .shared .align 4 .b8 slmc_group_local_{{[0-9]}}[256];
// RUN: %slmcxx -fsyntax-only -Xclang -verify=pedantic -Wslmc-group-local-memory-in-helper %s
// RUN: %slmcxx -fsyntax-only -Xclang -verify=pedantic -pedantic %s
// RUN: %slmcxx -fsyntax-only -Xclang -verify %s
// RUN: %clangxx -std=c++17 %plugin -fsyntax-only -Xclang -verify %s
// expected-no-diagnostics
#include <sycl/sycl.hpp>
#include <sycl/ext/oneapi/group_local_memory.hpp>
#include <cstdio>
using namespace sycl;
namespace oneapi = sycl::ext::oneapi;

// A plain helper, called twice by the kernel: two allocations.
int *stage(nd_item<1> it, int value) {
  auto p = oneapi::group_local_memory_for_overwrite<int[64]>(it.get_group()); // pedantic-warning {{'group_local_memory_for_overwrite' called outside the kernel function: sycl_ext_oneapi_local_memory promises only kernel scope; slmc, like DPC++, allocates once per call path}}
  (*p)[it.get_local_id(0)] = value + int(it.get_local_id(0));
  group_barrier(it.get_group());
  return *p;
}

// A template helper: each instantiation, and each call of it, its own.
template <typename T> T *stage_t(nd_item<1> it, T value) {
  auto p = oneapi::group_local_memory<T[64]>(it.get_group()); // pedantic-warning {{'group_local_memory' called outside the kernel function}}
  (*p)[it.get_local_id(0)] += value;
  group_barrier(it.get_group());
  return *p;
}

// Two levels: outer calls stage twice.
int pair_sum(nd_item<1> it) {
  int *a = stage(it, 1000);
  int *b = stage(it, 2000);
  size_t r = 63 - it.get_local_id(0);
  return a[r] + b[r];
}

int main() {
  queue q;
  const int N = 256;
  int *out = malloc_shared<int>(N * 4, q);
  q.parallel_for(nd_range<1>(range<1>(N), range<1>(64)), [=](nd_item<1> it) {
     size_t g = it.get_global_id(0), l = it.get_local_id(0), r = 63 - l;
     int *x = stage(it, 10); // pedantic-note {{called from 'operator()' here}}
     int *y = stage(it, 20);
     float *f1 = stage_t<float>(it, 1.5f); // pedantic-note {{called from 'operator()' here}}
     float *f2 = stage_t<float>(it, 2.5f);
     int *i3 = stage_t<int>(it, 7);
     out[g] = x[r] * 1000 + y[r];
     out[N + g] = int(f1[r] * 10) * 1000 + int(f2[r] * 10);
     out[2 * N + g] = i3[r];
     out[3 * N + g] = pair_sum(it);
   }).wait();
  int bad = 0;
  for (int g = 0; g < N; ++g) {
    int r = 63 - g % 64;
    int want[4] = {(10 + r) * 1000 + 20 + r, 15 * 1000 + 25, 7, 1000 + r + 2000 + r};
    for (int k = 0; k < 4; ++k)
      if (out[k * N + g] != want[k]) {
        if (bad++ < 8) std::printf("out[%d][%d] = %d, want %d\n", k, g, out[k * N + g], want[k]);
      }
  }
  std::printf("%s\n", bad ? "FAILED" : "PASSED");
  free(out, q);
  return bad != 0;
}
