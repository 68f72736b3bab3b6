// A kernel's by-value argument object (a SYCL or C++ AMP lambda's captures)
// becomes one SPIR-V parameter per field the kernel reads, pointers as
// CrossWorkgroup pointers (IGC then gives them binding-table accesses with
// 32-bit offsets instead of 64-bit addresses: docs/intel.md). The image
// tells the runtime which bytes of the launch's argument each parameter is
// ("slmc.args.<kernel>"). A kernel that lets its object's address escape
// keeps the object, with no layout. The program still runs.
// REQUIRES: spirv-tools
// RUN: %slmcxx --emit=spirv -O2 %s -o %t.spv
// RUN: %spirv-val %t.spv
// RUN: %spirv-dis %t.spv | FileCheck %s --check-prefix=SPIRV
// With -fno-slmc-split-kernel-arguments every kernel keeps its object.
// RUN: %slmcxx --emit=spirv -O2 -fno-slmc-split-kernel-arguments %s -o %t.whole.spv
// RUN: %spirv-dis %t.whole.spv | FileCheck %s --check-prefix=WHOLE
// RUN: %slmcxx -O2 -c %s -o %t.o
// RUN: strings %t.o | FileCheck %s --check-prefix=LAYOUT
// RUN: strings %t.o | not grep 'slmc.args.*EEEE0_JLm64'
// RUN: %slmcxx -O2 %s -o %t && %t | FileCheck %s --check-prefix=EXEC

// The second kernel (lambda 0_) lets its object escape: it keeps it, passed
// by value.
// SPIRV-LABEL: %_ZN4slmc12kernel_entryIN4sycl6detail15nd_range_kernelINS_16work_group_sizedIZ4mainEUlNS1_7nd_itemILi1EEEE0_JLm64EEEELi1EEEEEvT_ = OpFunction
// SPIRV-NEXT: OpFunctionParameter %_ptr_Function_struct_sycl__detail__nd_range_kernel
// SPIRV-NEXT: OpLabel
// The scaling kernel: out, in, scale (the capture order).
// SPIRV-LABEL: %_ZN4slmc12kernel_entryIN4sycl6detail15nd_range_kernelINS_16work_group_sizedIZ4mainEUlNS1_7nd_itemILi1EEEE_JLm64EEEELi1EEEEEvT_ = OpFunction
// SPIRV-NEXT: OpFunctionParameter %_ptr_CrossWorkgroup_float
// SPIRV-NEXT: OpFunctionParameter %_ptr_CrossWorkgroup_float
// SPIRV-NEXT: OpFunctionParameter %float
// SPIRV-NEXT: OpLabel
// LAYOUT-DAG: slmc.args._ZN4slmc12kernel_entryIN4sycl6detail15nd_range_kernelINS_16work_group_sizedIZ4mainEUlNS1_7nd_itemILi1EEEE_JLm64EEEELi1EEEEEvT_
// LAYOUT-DAG: {{^}}0:0:8 0:8:8 0:16:4{{$}}
// WHOLE-NOT: OpFunctionParameter %_ptr_CrossWorkgroup_float
// EXEC: PASSED

#include <sycl/sycl.hpp>
#include <cstdio>

// Not inlined: the kernel's object escapes through `p`.
[[clang::noinline]] float loadThrough(const float *p) { return *p; }

int main() {
  sycl::queue q;
  const int n = 256;
  float *in = sycl::malloc_shared<float>(n, q), *out = sycl::malloc_shared<float>(n, q);
  for (int i = 0; i < n; ++i)
    in[i] = float(i);
  float scale = 2.0f;
  q.parallel_for(sycl::nd_range<1>(n, 64), [=](sycl::nd_item<1> it) {
     int i = it.get_global_linear_id();
     out[i] = in[i] * scale;
   }).wait();
  float offset = 1.0f;
  q.parallel_for(sycl::nd_range<1>(n, 64), [=](sycl::nd_item<1> it) {
     int i = it.get_global_linear_id();
     out[i] += loadThrough(&offset);
   }).wait();
  int bad = 0;
  for (int i = 0; i < n; ++i)
    bad += out[i] != 2.0f * i + 1.0f;
  std::printf("%s\n", bad ? "FAILED" : "PASSED");
  sycl::free(in, q);
  sycl::free(out, q);
  return bad != 0;
}
