// Two things IGC compiles worse than the OpenCL C a programmer would write
// (docs/intel.md):
//  - a halo load `c ? in[i + 1] : in[i]`, which LLVM makes a select between
//    two pointers into one buffer: IGC cannot trace that to the kernel
//    argument and computes a 64-bit address. slmc++ selects the offsets
//    instead (no OpSelect of a pointer is left);
//  - group_local_memory<T>(g, args...) in a 1-D kernel: the work-item that
//    constructs T is the one whose local id is 0 in the group's dimension
//    (the others have one work-item: no test of local id y or z), and the
//    barrier that publishes T orders group-local memory only (0x108 = 264),
//    as DPC++'s; the kernel's own group_barrier still orders global memory
//    too (0x308 = 776).
// The results, halos at both ends of the input included, on the CPU.
// REQUIRES: spirv-tools
// RUN: %slmcxx -O3 --emit=spirv %s -o %t.spv
// RUN: %spirv-val %t.spv
// RUN: %spirv-dis %t.spv | FileCheck %s --check-prefix=SPIRV
// RUN: %slmcxx -O2 %s -o %t && %t | FileCheck %s
// RUN: %slmcxx -O0 %s -o %t0 && %t0 | FileCheck %s

// SPIRV-LABEL: OpFunction %void
// SPIRV-NOT: OpSelect %_ptr
// SPIRV-NOT: OpCompositeExtract %ulong %{{[0-9]+}} {{[12]$}}
// SPIRV: OpControlBarrier %uint_2 %uint_2 %uint_264
// SPIRV-NOT: OpSelect %_ptr
// SPIRV: OpControlBarrier %uint_2 %uint_2 %uint_776
// SPIRV-NOT: OpSelect %_ptr
// SPIRV: OpFunctionEnd
// CHECK: halo: PASSED

#include <sycl/sycl.hpp>

#include <cstdio>
#include <vector>

using namespace sycl;

struct counter {
  int seen;
  int bias;
  counter(int s, int b) : seen(s), bias(b) {}
};

int main() {
  constexpr size_t n = 1024, wg = 64;
  std::vector<float> x(n), y(n, -1.0f);
  std::vector<int> seen(n / wg, -1);
  for (size_t i = 0; i < n; ++i) x[i] = float(i % 13);
  {
    queue q;
    buffer<float> bx(x.data(), range<1>(n)), by(y.data(), range<1>(n));
    buffer<int> bs(seen.data(), range<1>(n / wg));
    q.submit([&](handler &h) {
      accessor in(bx, h, read_only);
      accessor out(by, h, write_only, no_init);
      accessor counts(bs, h, write_only);
      h.parallel_for(nd_range<1>(range<1>(n), range<1>(wg)), [=](nd_item<1> it) {
        auto c = ext::oneapi::group_local_memory<counter>(it.get_group(), 0, 100);
        const size_t i = it.get_global_id(0);
        const float left = i > 0 ? in[i - 1] : in[i];
        const float right = i + 1 < n ? in[i + 1] : in[i];
        out[i] = left + in[i] + right;
        atomic_ref<int, memory_order::relaxed, memory_scope::work_group,
                   access::address_space::local_space>(c->seen)
            .fetch_add(1);
        group_barrier(it.get_group());
        if (it.get_local_id(0) == 0)
          counts[it.get_group_linear_id()] = c->seen + c->bias;
      });
    });
  }
  int bad = 0;
  for (size_t i = 0; i < n; ++i) {
    const float left = i > 0 ? x[i - 1] : x[i], right = i + 1 < n ? x[i + 1] : x[i];
    bad += y[i] != left + x[i] + right;
  }
  for (size_t g = 0; g < n / wg; ++g)
    bad += seen[g] != int(wg) + 100;
  std::printf("halo: %s\n", bad ? "FAILED" : "PASSED");
  return bad != 0;
}
