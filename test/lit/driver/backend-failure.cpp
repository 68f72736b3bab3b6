// A kernel that LLVM's code generator cannot compile (here a cycle counter
// read, which SPIR-V has no instruction for) gets one error naming the
// backend, the file and LLVM's reason, and a note; not LLVM's crash report
// and stack dump.
// RUN: not %slmcxx --emit=spirv %s -o %t.spv 2>&1 | FileCheck %s
// CHECK: slmc++: error: the SPIR-V backend failed on '{{.*}}backend-failure.cpp': unable to legalize instruction: {{.*}}G_READCYCLECOUNTER
// CHECK-NEXT: slmc++: note: a construct in this file is one LLVM's SPIR-V backend cannot compile; please report it to slmc with the file (-v shows the commands)
// CHECK-NOT: {{Stack dump|PLEASE submit|LLVM ERROR|#[0-9]+ 0x}}

#include <sycl/sycl.hpp>

int main() {
  sycl::queue q;
  unsigned long long *p = sycl::malloc_shared<unsigned long long>(64, q);
  q.parallel_for(sycl::range<1>(64), [=](sycl::id<1> i) {
     p[i] = __builtin_readcyclecounter();
   }).wait();
  return 0;
}
