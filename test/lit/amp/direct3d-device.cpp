// Concurrency::direct3d's intrinsics build for both device targets: the
// SPIR-V module validates (no instruction outside the OpenCL environment)
// and PTX has a kernel.
// REQUIRES: spirv-tools
// RUN: %slmcxx --emit=spirv %s -o %t.spv
// RUN: %spirv-val %t.spv
// RUN: %slmcxx --emit=ptx %s -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// CHECK: .entry

#include <amp.h>
using namespace concurrency;

void run(array_view<int, 1> r, array_view<float, 1> q) {
  parallel_for_each(r.extent, [=](index<1> i) restrict(amp) {
    using namespace concurrency::direct3d;
    int x = r[i];
    float y = q[i];
    r[i] = firstbithigh(x) + firstbitlow(x) + direct3d::abs(x) + clamp(x, -2, 2) +
           int(countbits(unsigned(x))) + imax(x, 1) + imin(x, 1) +
           int(umax(unsigned(x), 1u)) + int(umin(unsigned(x), 1u)) + mad(x, x, x) +
           int(mad(unsigned(x), 2u, 1u)) + int(reversebits(unsigned(x))) + sign(x) +
           sign(y);
    q[i] = clamp(y, 0.0f, 1.0f) + mad(y, y, y) + radians(y) + rcp(y) + saturate(y) +
           smoothstep(0.0f, 1.0f, y) + step(0.5f, y) + float(rcp(double(y))) +
           float(mad(double(y), 2.0, 1.0));
  });
}
