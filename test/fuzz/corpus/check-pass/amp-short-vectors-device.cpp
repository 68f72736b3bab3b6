0// Short vectors, norm and unorm build for both device targets.
// REQUIRES: spirv-tools
// RUN: %slmcxx --emit=spirv %s -o %t.spv
// RUN: %spirv-val %t.spv
// RUN: %slmcxx --emit=ptx %s -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// CHECK: .entry

#include <amp.h>
#include <amp_short_vectors.h>
using namespace concurrency;
using namespace concurrency::graphics;

void run(array_view<float_4, 1> f, array_view<int_3, 1> i, array_view<norm_2, 1> n) {
  parallel_for_each(f.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) {
    tile_static int_3 cache[64];
    float_4 v = f[t.global];
    v = v * float_4(2.0f) + v.get_wzyx();
    v.set_xy(v.get_yx());
    f[t.global] = v;
    cache[t.local[0]] = i[t.global] % int_3(3) + int_3(int(v.x));
    t.barrier.wait();
    i[t.global] = cache[63 - t.local[0]];
    n[t.global] = norm_2(norm(v.z), norm(v.w)) * n[t.global];
  });
}
