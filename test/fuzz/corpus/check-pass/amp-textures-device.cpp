0// Textures, texture views and sampling build for both device targets; a
// texture captured by reference becomes a pointer to its device-visible twin.
// REQUIRES: spirv-tools
// RUN: %slmcxx --emit=offload-cpp %s -o - | FileCheck %s --check-prefix=LOWER
// RUN: %slmcxx --emit=spirv %s -o %t.spv
// RUN: %spirv-val %t.spv
// RUN: %slmcxx --emit=ptx %s -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// CHECK: .entry
// LOWER: [&, slmc_ref_tex = ::concurrency::detail::device_ref(tex)]
// LOWER: (*slmc_ref_tex).set(i,

#include <amp.h>
#include <amp_graphics.h>
using namespace concurrency;
using namespace concurrency::graphics;

void run(texture<float_4, 2> &src, texture<unorm_2, 2> &tex) {
  texture_view<const float_4, 2> in(src);
  sampler s(filter_linear, address_mirror);
  parallel_for_each(tex.extent, [&, in, s](index<2> i) restrict(amp) {
    float_4 v = in.sample(s, float_2(float(i[1]) / 8.0f, float(i[0]) / 8.0f)) +
                in.sample<filter_point, address_wrap>(float_2(0.5f, 0.5f)) + in[i];
    tex.set(i, unorm_2(unorm(v.x), unorm(v.w)));
  });
}
