// slmc++ compiles each translation unit's device code on its own (DPC++'s
// -fno-sycl-rdc model): a kernel may call only functions defined in its own
// translation unit. A SYCL_EXTERNAL function defined in another file is a
// compile error at the call, with the path from the kernel and where the
// function is declared, instead of a failure inside LLVM's SPIR-V backend.
// The CPU fallback's copy of the kernel is host code, linked as usual, so
// --offload-targets=none builds and runs the two-file program.
//
// RUN: %slmcxx -fsyntax-only -Xclang -verify %s
// RUN: %clangxx -std=c++17 %plugin -fsyntax-only -Xclang -verify %s
// RUN: %slmcxx -fno-sycl-rdc -fsyntax-only -Xclang -verify %s
// RUN: not %slmcxx -fsycl-rdc -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=DRIVER
// DRIVER: external-functions.cpp:[[@LINE+21]]:{{[0-9]+}}: error: 'scale' is called from kernel code but is not defined in this translation unit
// DRIVER-NOT: SPIR-V backend
//
// RUN: %slmcxx -O2 --offload-targets=none -DTWO_FILES %s %S/../Inputs/external/scale.cpp -o %t.cpu
// RUN: env SLMC_DEVICE=cpu %t.cpu | FileCheck %s --check-prefix=OUT
// RUN: %slmcxx -O2 -DONE_FILE %s -o %t.one
// RUN: env SLMC_DEVICE=cpu %t.one | FileCheck %s --check-prefix=OUT
// OUT: external: 7 7 PASSED

#include <sycl/sycl.hpp>
#include <cstdio>

#ifdef ONE_FILE
SYCL_EXTERNAL float scale(float x) { return 2.0f * x + 1.0f; }
#else
SYCL_EXTERNAL float scale(float x); // expected-note {{'scale' is declared here; slmc compiles each translation unit's device code on its own, with no device link step}}
#endif

template <typename T> T twice(T x); // expected-note {{'twice<int>' is declared here}}

float helper(float x) {
  return scale(x); // expected-error {{'scale' is called from kernel code but is not defined in this translation unit}}
}

struct Counter {
  Counter(); // expected-note {{'Counter' is declared here}}
  int n;
};

extern int host_only(int); // never called from a kernel: no error

int main() {
  sycl::queue q;
  float *p = sycl::malloc_shared<float>(16, q);
  for (int i = 0; i < 16; ++i)
    p[i] = float(i);
  q.parallel_for(sycl::range<1>(16), [=](sycl::id<1> i) {
     p[i] = helper(p[i]); // expected-note {{called from}}
   }).wait();
  std::printf("external: %g %g %s\n", p[3], scale(3.0f),
              p[3] == 7.0f ? "PASSED" : "FAILED");
#if !defined(ONE_FILE) && !defined(TWO_FILES)
  q.single_task([=] {
     p[0] = float(twice(3)); // expected-error {{'twice<int>' is called from kernel code but is not defined in this translation unit}}
     Counter c; // expected-error {{'Counter' is called from kernel code but is not defined in this translation unit}}
     p[1] = float(c.n);
   }).wait();
  host_only(1);
#endif
  sycl::free(p, q);
  return 0;
}
