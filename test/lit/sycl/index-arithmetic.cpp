// How a kernel indexes, for GPUs without 64-bit integer units (Intel Gen12:
// docs/intel.md). An accessor with an offset applies it once, when it is
// made: the kernel gets the address of the accessor's first element and no
// offset or buffer range to add per access. A global id with its nd_range
// offset fits in an int (-fsycl-id-queries-fit-in-int, the default), so the
// offset is added in 32 bits (the low half of a 64-bit sum, which IGC
// narrows); with -fno-sycl-id-queries-fit-in-int the id is a 64-bit product
// (a shift: the local range is a constant) and sum. The results are the same either way.
// REQUIRES: spirv-tools
// RUN: %slmcxx -O3 --emit=spirv %s -o %t.spv
// RUN: %spirv-val %t.spv
// RUN: %spirv-dis %t.spv | FileCheck %s --check-prefix=FIT
// RUN: %slmcxx -O3 --emit=spirv -fno-sycl-id-queries-fit-in-int %s -o %t.no.spv
// RUN: %spirv-dis %t.no.spv | FileCheck %s --check-prefix=NOFIT
// RUN: %slmcxx -O2 %s -o %t && %t | FileCheck %s
// RUN: %slmcxx -O2 -fno-sycl-id-queries-fit-in-int %s -o %t.no && %t.no | FileCheck %s

// The kernel's parameters: the accessor's first element and the nd_range's
// offset, nothing else.
// FIT-LABEL: OpFunction %void
// FIT-NEXT: OpFunctionParameter %_ptr_CrossWorkgroup_uint
// FIT-NEXT: OpFunctionParameter %ulong
// FIT-NEXT: OpLabel
// FIT: OpBitwiseAnd %ulong %{{[0-9]+}} %ulong_4294967295
// FIT-NOT: OpIMul
// FIT: OpFunctionEnd
// NOFIT-LABEL: OpFunction %void
// NOFIT: {{OpIMul|OpShiftLeftLogical}} %ulong
// NOFIT: OpIAdd %ulong
// NOFIT: OpFunctionEnd
// CHECK: offsets: PASSED

#include <sycl/sycl.hpp>
#include <cstdio>
#include <vector>

using namespace sycl;

int main() {
  queue q;
  const size_t n = 256, skip = 16, shift = 8;
  std::vector<int> data(n + 2 * skip, -1);
  {
    buffer<int, 1> b(data.data(), range<1>(data.size()));
    q.submit([&](handler &h) {
      // Elements skip .. skip + n of the buffer.
      accessor a(b, h, range<1>(n), id<1>(skip), write_only);
      // Global ids shift .. shift + n - 1.
      h.parallel_for(nd_range<1>(range<1>(n), range<1>(64), id<1>(shift)),
                     [=](nd_item<1> it) {
                       a[it.get_global_id(0) - shift] = int(it.get_global_id(0));
                     });
    });
  }
  int bad = 0;
  for (size_t i = 0; i < data.size(); ++i)
    bad += data[i] != (i >= skip && i < n + skip ? int(i - skip + shift) : -1);
  std::printf("offsets: %s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  return bad != 0;
}
