// What a thread-group nest lowers to: a thread_groups(...) launch of a
// maker of the first-level body (so that the launch captures pointers as
// their device-visible twins and the host version as they are), share(...)
// for second-level nests, SLMC_GROUP_LOCAL data, and an offload scope for
// #pragma offload. Lines stay where they were.
// RUN: %slmcxx --emit=offload-cpp %s -o - | FileCheck %s
// RUN: %slmcxx --emit=spirv %s -o %t.spv
// RUN: %spirv-val %t.spv
// RUN: %spirv-dis %t.spv | FileCheck %s --check-prefix=SPIRV
// RUN: %slmcxx --emit=ptx %s -o - | FileCheck %s --check-prefix=PTX
// REQUIRES: spirv-tools

#include <gfx/gfx_intrin.h>

// CHECK: #include <slmc/cilk.h>
// CHECK: #line 1
// CHECK: {{^ *}}SLMC_HD __declspec(target(gfx)) float twice
__declspec(target(gfx)) float twice(float x) { return 2 * x; }

__declspec(target(gfx_kernel)) void k(const float *in, float *out, int n) {
  // CHECK: {{^ *}}::slmc::cilk::thread_groups<SLMC_CILK_THREADS(32)>("lowering.cpp:[[@LINE+1]]", ::slmc::cilk::make_loop<int>((0), (long long)(n), (16), ::slmc::cilk::lt), [&](::slmc::cilk::pointer_map &slmc_pointers) { return [=, in = slmc_pointers(in), out = slmc_pointers(out)] SLMC_HD (int g) mutable {
  _Cilk_for _Thread_group (int g = 0; g < n; g += 16) {
    // CHECK: {{^ *}}SLMC_GROUP_LOCAL __attribute__((aligned(16))) float tile[16];
    __thread_group_local float tile[16];
    // CHECK: {{^ *}}SLMC_GROUP_LOCAL __attribute__((aligned(16))) int once; if (::slmc::cilk::is_master()) { int slmc_init_once = 3; ::slmc::cilk::assign(once, slmc_init_once); } ::slmc::cilk::barrier();
    __thread_group_local int once = 3;
    // CHECK: {{^ *}}::slmc::cilk::share(::slmc::cilk::make_loop<int>((0), (long long)(16), 1, ::slmc::cilk::lt), [=] SLMC_HD (int i) mutable {
    _Cilk_for (int i = 0; i < 16; i++)
      // CHECK: {{^ *}}tile[i] = twice(in[g + i]) * once; });
      tile[i] = twice(in[g + i]) * once;
    _gfx_gpgpu_thread_barrier();
    // CHECK: {{^ *}}::slmc::cilk::share(::slmc::cilk::make_loop<int>((15), (long long)(0), -1, ::slmc::cilk::ge), [=] SLMC_HD (int i) mutable {
    _Cilk_for (int i = 15; i >= 0; i--)
      out[g + i] = tile[15 - i];
  // CHECK: {{^ *}}}; });
  }
}

void host(float *a, int n) {
  // CHECK: {{^ +$}}
#pragma offload target(gfx) if(n > 100) inout(a : length(n))
  // CHECK: {{^ *}}{ ::slmc::cilk::offload_scope slmc_offload_scope((n > 100)); slmc_offload_scope.map(a, (n), SLMC_MAP_INOUT); ::slmc::cilk::parallel_for("lowering.cpp:[[@LINE+1]]", {{.*}}, [&](::slmc::cilk::pointer_map &slmc_pointers) { return [=, a = slmc_pointers(a)] SLMC_HD (int i) mutable {
  _Cilk_for (int i = 0; i < n; i++)
    // CHECK: {{^ *}}a[i] = a[i] + 1; }; }); }
    a[i] = a[i] + 1;
}

// SPIRV-DAG: OpVariable %{{.*}} Workgroup
// SPIRV-DAG: OpControlBarrier
// PTX: .shared {{.*}}tile
// PTX: {{bar|barrier}}.sync 0
