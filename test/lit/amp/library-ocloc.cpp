// IGC builds the kernels of the C++ AMP library parts added for MSVC code:
// direct3d intrinsics (reversebits keeps to core SPIR-V), short vectors,
// norm and unorm, textures with software sampling.
// REQUIRES: ocloc
// RUN: rm -rf %t && mkdir -p %t
// RUN: %slmcxx --emit=spirv %s -o %t/lib.spv
// RUN: %ocloc compile -q -spirv_input -file %t/lib.spv -device tgllp --format zebin -output_no_suffix -output tgllp -out_dir %t
// RUN: llvm-objcopy --dump-section=.ze_info=%t/tgllp.yaml %t/tgllp %t/ignored
// RUN: FileCheck %s < %t/tgllp.yaml
// RUN: %ocloc compile -q -spirv_input -file %t/lib.spv -device dg2 --format zebin -output_no_suffix -output dg2 -out_dir %t
// RUN: llvm-objcopy --dump-section=.ze_info=%t/dg2.yaml %t/dg2 %t/ignored
// RUN: FileCheck %s < %t/dg2.yaml
// CHECK-COUNT-2: - name: _ZN4slmc12kernel_entry

#include <amp.h>
#include <amp_graphics.h>
using namespace concurrency;
using namespace concurrency::graphics;

void intrinsics(array_view<int, 1> r) {
  parallel_for_each(r.extent, [=](index<1> i) restrict(amp) {
    int x = r[i];
    r[i] = concurrency::direct3d::firstbithigh(x) + concurrency::direct3d::firstbitlow(x) +
           int(concurrency::direct3d::reversebits(unsigned(x))) + int(concurrency::direct3d::countbits(unsigned(x))) +
           concurrency::direct3d::mad(x, x, 1) + concurrency::direct3d::sign(x);
  });
}

void blur(texture<float_4, 2> &src, texture<unorm_4, 2> &dst) {
  texture_view<const float_4, 2> in(src);
  sampler s(filter_linear, address_border, float_4(1.0f));
  parallel_for_each(dst.extent, [&, in, s](index<2> i) restrict(amp) {
    float_4 v = in.sample(s, float_2(float(i[1]) / 8.0f, float(i[0]) / 8.0f));
    dst.set(i, unorm_4(v.get_zyxw()));
  });
}
