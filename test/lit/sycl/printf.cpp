// sycl::ext::oneapi::experimental::printf, as DPC++ programs call it: with
// a string literal, with a format array declared the DPC++ way (the
// CONSTANT macro for the device compilation's address space), from a
// helper function, with int, unsigned, long, char, string and float
// arguments. On the CPU fallback a group's work-items print in order.
// SPIR-V: OpenCL.std's printf, whose formats and %s strings are
// UniformConstant chars reached through an access chain, and whose float
// arguments stay float (devices without doubles, tgllp and dg2, refuse a
// double: printf-ocloc.test). PTX calls CUDA's vprintf. A format chosen
// between literals becomes one printf per literal; a format read from memory
// leaves the file without a SPIR-V image (a warning; an error when SPIR-V is
// asked for), and runs elsewhere.
// RUN: %slmcxx -O2 %s -o %t
// RUN: %t | FileCheck %s
// CHECK:      item 0 of 4: x = 0.00, name abc, 'a', big -8589934592, hex ff
// CHECK-NEXT: item 1 of 4: x = 0.50, name abc, 'b', big -8589934591, hex ff
// CHECK-NEXT: item 2 of 4: x = 1.00, name abc, 'c', big -8589934590, hex ff
// CHECK-NEXT: item 3 of 4: x = 1.50, name abc, 'd', big -8589934589, hex ff
// CHECK-NEXT: helper says 42
// CHECK-NEXT: no arguments
// CHECK-NEXT: host done
// RUN: %slmcxx --emit=spirv %s -o %t.spv
// RUN: %spirv-val %t.spv
// RUN: spirv-dis %t.spv | FileCheck %s --check-prefix=SPIRV
// SPIRV-NOT:  OpTypeFloat 64
// SPIRV:      [[FMT:%[0-9a-z_]+]] = OpInBoundsPtrAccessChain %_ptr_UniformConstant_uchar
// SPIRV:      OpExtInst %uint %{{[0-9]+}} printf [[FMT]]
// SPIRV-NOT:  OpTypeFloat 64
// RUN: %slmcxx -O2 --emit=ptx %s -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// PTX: call.uni (retval0), vprintf,
// RUN: %slmcxx -O2 -DSELECTED_FORMAT %s -o %t.selected
// RUN: %t.selected | FileCheck %s --check-prefix=SELECTED
// SELECTED: odd
// SELECTED: even
// RUN: %slmcxx --emit=spirv -DSELECTED_FORMAT %s -o %t.selected.spv
// RUN: spirv-dis %t.selected.spv | FileCheck %s --check-prefix=SELECTED-SPIRV
// SELECTED-SPIRV-COUNT-5: OpExtInst %uint %{{[0-9]+}} printf
// RUN: %slmcxx -O2 -DDATA_FORMAT %s -o %t.data 2>&1 | FileCheck %s --check-prefix=DATA-WARNING
// DATA-WARNING: warning: '{{.*}}printf.cpp': a printf in 'void slmc::kernel_entry<{{.*}}' has a format that is not a string literal; SPIR-V's printf (OpenCL C's) takes only constant strings, so this file has no SPIR-V image (Level Zero devices run its kernels on the CPU fallback)
// RUN: %t.data | FileCheck %s --check-prefix=DATA
// DATA: format from memory: 7
// RUN: not %slmcxx --emit=spirv -DDATA_FORMAT %s -o %t.data.spv 2>&1 | FileCheck %s --check-prefix=DATA-SPIRV
// DATA-SPIRV: error: '{{.*}}printf.cpp': a printf in {{.*}} takes only constant strings{{$}}
// RUN: %clangxx -std=c++17 %plugin -fsyntax-only %s

#include <sycl/sycl.hpp>

#include <cstdio>

#ifdef __SYCL_DEVICE_ONLY__
#define CONSTANT __attribute__((opencl_constant))
#else
#define CONSTANT
#endif

static const CONSTANT char kItemFormat[] =
    "item %d of %d: x = %.2f, name %s, '%c', big %ld, hex %x\n";

namespace syclex = sycl::ext::oneapi::experimental;

void helper(int v) { syclex::printf("helper says %d\n", v); }

int main() {
  sycl::queue q;
  char *text = sycl::malloc_shared<char>(32, q);
  std::snprintf(text, 32, "format from memory: %%d\n");
#ifdef SELECTED_FORMAT
  const int groups = 2;
#else
  const int groups = 1;
#endif
  q.parallel_for(sycl::nd_range<1>(4 * groups, 4), [=](sycl::nd_item<1> it) {
     int i = int(it.get_local_id(0));
     long big = -(1l << 33) + i;
     syclex::printf(kItemFormat, i, int(it.get_local_range(0)), i * 0.5f, "abc",
                    'a' + i, big, 0xffu);
     it.barrier();
     if (i == 0) {
       helper(42);
       syclex::printf("no arguments\n");
     }
#ifdef SELECTED_FORMAT
     const char *format = it.get_group(0) % 2 ? "even\n" : "odd\n";
     if (i == 1)
       syclex::printf(format);
#endif
#ifdef DATA_FORMAT
     if (i == 2)
       syclex::printf(text, 7);
#endif
   }).wait();
  std::printf("host done\n");
  sycl::free(text, q);
}
