// Square roots in kernels run on the CPU fallback are the compiler's
// intrinsic, never the C library's sqrtf: a kernel sets no errno, and a
// call that may set it keeps the work-item loops from being vectorised
// (the C for Metal n-body ran 4x slower on the CPU for it). C for Metal's
// cm_sqrt/cm_rsqrt, C++ AMP's fast_math and precise_math sqrt/rsqrt,
// SYCL's sqrt/rsqrt.
// RUN: %slmcxx --emit=offload-cpp -DCM %s -o %t.cm.cpp
// RUN: %clangxx -x hip --offload-host-only --offload=spirv64 -nogpulib -nogpuinc -isystem %slmc-libdir/slmc/include -O2 -w -fpass-plugin=%slmc-libdir/slmcWorkItemLoops.so -S -emit-llvm -DCM %t.cm.cpp -o - | FileCheck %s --check-prefixes=IR,VEC
// RUN: %slmcxx --emit=offload-cpp -DAMP %s -o %t.amp.cpp
// RUN: %clangxx -x hip --offload-host-only --offload=spirv64 -nogpulib -nogpuinc -isystem %slmc-libdir/slmc/include -O2 -w -fpass-plugin=%slmc-libdir/slmcWorkItemLoops.so -S -emit-llvm -DAMP %t.amp.cpp -o - | FileCheck %s --check-prefixes=IR,VEC
// RUN: %slmcxx --emit=offload-cpp -DSYCL %s -o %t.sycl.cpp
// RUN: %clangxx -x hip --offload-host-only --offload=spirv64 -nogpulib -nogpuinc -isystem %slmc-libdir/slmc/include -O2 -w -fpass-plugin=%slmc-libdir/slmcWorkItemLoops.so -S -emit-llvm -DSYCL %t.sycl.cpp -o - | FileCheck %s --check-prefix=IR
// And the values are square roots (CPU fallback).
// RUN: %slmcxx -O2 -DAMP -DRUN %s -o %t && env SLMC_DEVICE=cpu %t | FileCheck %s --check-prefix=EXEC

// IR-NOT: @sqrtf
// VEC: call {{.*}}<{{[0-9]+}} x float> @llvm.sqrt.v{{[0-9]+}}f32
// IR-NOT: @sqrtf

#if defined(CM)
#include <cm/cm.h>
extern "C" _GENX_MAIN_ void roots(SurfaceIndex in, SurfaceIndex out) {
  const uint off = cm_linear_global_id() * 16 * sizeof(float);
  vector<float, 16> v;
  read(in, off, v);
  write(out, off, cm_sqrt(v) + cm_rsqrt(v));
}
#elif defined(AMP)
#include <amp.h>
#include <amp_math.h>
#include <cstdio>
using namespace concurrency;
void roots(array_view<float, 1> a) {
  parallel_for_each(a.extent, [=](index<1> i) restrict(amp) {
    a[i] = fast_math::sqrt(a[i]) + fast_math::rsqrt(a[i]) + precise_math::rsqrt(a[i]) +
           precise_math::sqrt(a[i]);
  });
}
#ifdef RUN
int main() {
  float v[256];
  for (int i = 0; i < 256; ++i)
    v[i] = float((i + 1) * (i + 1));
  array_view<float, 1> a(256, v);
  roots(a);
  a.synchronize();
  int bad = 0;
  for (int i = 0; i < 256; ++i) {
    float want = 2.0f * float(i + 1) + 2.0f / float(i + 1);
    bad += v[i] < want * 0.9999f || v[i] > want * 1.0001f;
  }
  std::printf("roots: %d wrong\n", bad);
  return bad != 0;
}
#endif
#elif defined(SYCL)
#include <sycl/sycl.hpp>
void roots(sycl::queue &q, float *a, size_t n) {
  q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { a[i] = sycl::rsqrt(a[i]) + sycl::sqrt(a[i]); });
}
#endif
// EXEC: roots: 0 wrong
