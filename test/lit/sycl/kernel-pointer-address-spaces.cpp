// In SPIR-V, a kernel's accesses through the pointers it captured (USM
// pointers, buffers through accessors) are CrossWorkgroup accesses, and its
// local accessors' accesses are Workgroup ones, as in OpenCL C with __global
// and __local parameters: no load, store or atomic through a Generic pointer
// (IGC tests the address space of each generic access at run time). The
// group_local_memory zero fill counts in 32 bits over the group's one
// dimension. The same program computes right on the CPU fallback.
// REQUIRES: spirv-tools
// RUN: %slmcxx -O3 --emit=spirv %s -o %t.spv
// RUN: %spirv-val %t.spv
// RUN: %spirv-dis %t.spv | FileCheck %s --check-prefixes=CHECK,SPLIT --implicit-check-not=OpPtrCastToGeneric \
// RUN:   --implicit-check-not=%%_ptr_Generic_float --implicit-check-not=%%_ptr_Generic_uint \
// RUN:   --implicit-check-not=%%_ptr_Generic_int --implicit-check-not=%%_ptr_Generic_ulong
// The same with the kernel object kept whole: its pointers are read from it.
// RUN: %slmcxx -O3 --emit=spirv -fno-slmc-split-kernel-arguments %s -o %t.whole.spv
// RUN: %spirv-val %t.whole.spv
// RUN: %spirv-dis %t.whole.spv | FileCheck %s --check-prefixes=CHECK,WHOLE \
// RUN:   --implicit-check-not=OpPtrCastToGeneric \
// RUN:   --implicit-check-not=%%_ptr_Generic_float --implicit-check-not=%%_ptr_Generic_uint \
// RUN:   --implicit-check-not=%%_ptr_Generic_int --implicit-check-not=%%_ptr_Generic_ulong
// RUN: %slmcxx -O2 %s -o %t && env SLMC_DEVICE=cpu %t | FileCheck %s --check-prefix=EXEC

// Pointers of the kernel object: CrossWorkgroup parameters of their own
// (docs/intel.md), or, kept in the object, cast to CrossWorkgroup at once.
// CHECK: OpFunction
// SPLIT-NEXT: OpFunctionParameter %_ptr_CrossWorkgroup_
// WHOLE: OpLoad %_ptr_Generic_uchar
// WHOLE-NEXT: OpGenericCastToPtr %_ptr_CrossWorkgroup_uchar
// CHECK: OpAtomicIAdd %uint %{{[0-9]+}} %uint_2
// CHECK: OpAtomicSMin %uint
// CHECK: OpAtomicSMax %uint
// CHECK: OpFunctionEnd
// The local accessor's memory: the Workgroup argument, not a generic copy.
// CHECK: OpFunction
// CHECK: OpFunctionParameter %_ptr_Workgroup_uchar
// CHECK: OpControlBarrier
// CHECK: OpFunctionEnd
// EXEC: histogram: PASSED
// EXEC: stencil: PASSED

#include <sycl/sycl.hpp>

#include <cstdio>
#include <vector>

using namespace sycl;

constexpr size_t kGroup = 64;
constexpr unsigned kBins = 16;

int main() {
  queue q;
  const size_t n = 4 * kGroup;
  int *in = malloc_shared<int>(n, q);
  unsigned *bins = malloc_shared<unsigned>(kBins, q);
  int *minmax = malloc_shared<int>(2, q);
  for (size_t i = 0; i < n; ++i)
    in[i] = int((i * 7) % 23) - 5;
  for (unsigned b = 0; b < kBins; ++b)
    bins[b] = 0;
  minmax[0] = 1000;
  minmax[1] = -1000;

  // USM pointers captured by value; zeroed group-local bins; global atomics.
  q.parallel_for(nd_range<1>(n, kGroup), [=](nd_item<1> it) {
     auto *local = *ext::oneapi::group_local_memory<unsigned[kBins]>(it.get_group());
     const int v = in[it.get_global_id(0)];
     atomic_ref<unsigned, memory_order::relaxed, memory_scope::work_group,
                access::address_space::local_space>(local[unsigned(v + 5) % kBins])
         .fetch_add(1u);
     atomic_ref<int, memory_order::relaxed, memory_scope::device>(minmax[0]).fetch_min(v);
     atomic_ref<int, memory_order::relaxed, memory_scope::device>(minmax[1]).fetch_max(v);
     group_barrier(it.get_group());
     for (size_t b = it.get_local_id(0); b < kBins; b += kGroup)
       atomic_ref<unsigned, memory_order::relaxed, memory_scope::device>(bins[b])
           .fetch_add(local[b]);
   }).wait();

  std::vector<unsigned> want(kBins, 0);
  int lo = 1000, hi = -1000;
  for (size_t i = 0; i < n; ++i) {
    ++want[unsigned(in[i] + 5) % kBins];
    lo = in[i] < lo ? in[i] : lo;
    hi = in[i] > hi ? in[i] : hi;
  }
  bool ok = minmax[0] == lo && minmax[1] == hi;
  for (unsigned b = 0; b < kBins; ++b)
    ok = ok && bins[b] == want[b];
  std::printf("histogram: %s\n", ok ? "PASSED" : "FAILED");

  // A local accessor (the launch's dynamic group-local memory) and buffers.
  std::vector<float> src(n), dst(n, 0.0f);
  for (size_t i = 0; i < n; ++i)
    src[i] = float(i % 13);
  {
    buffer<float, 1> sb(src.data(), range<1>(n)), db(dst.data(), range<1>(n));
    q.submit([&](handler &h) {
      accessor s(sb, h, read_only);
      accessor d(db, h, write_only);
      local_accessor<float, 1> tile(range<1>(kGroup + 2), h);
      h.parallel_for(nd_range<1>(n, kGroup), [=](nd_item<1> it) {
        const size_t i = it.get_global_id(0), l = it.get_local_id(0);
        tile[l + 1] = s[i];
        if (l == 0)
          tile[0] = i > 0 ? s[i - 1] : s[i];
        if (l == kGroup - 1)
          tile[kGroup + 1] = i + 1 < n ? s[i + 1] : s[i];
        group_barrier(it.get_group());
        d[i] = tile[l] + tile[l + 1] + tile[l + 2];
      });
    });
  }
  ok = true;
  for (size_t i = 0; i < n; ++i) {
    const float left = src[i > 0 ? i - 1 : i], right = src[i + 1 < n ? i + 1 : i];
    ok = ok && dst[i] == left + src[i] + right;
  }
  std::printf("stencil: %s\n", ok ? "PASSED" : "FAILED");
  free(in, q);
  free(bins, q);
  free(minmax, q);
  return 0;
}
