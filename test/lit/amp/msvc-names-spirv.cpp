// Kernels written with MSVC's spelling (Concurrency::, helpers in a reopened
// namespace Concurrency) build for both device targets.
// REQUIRES: spirv-tools
// RUN: %slmcxx --emit=spirv %s -o %t.spv
// RUN: %spirv-val %t.spv
// RUN: %slmcxx --emit=ptx %s -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// CHECK: .entry

#include <amp.h>

namespace Concurrency {
namespace Mine {
inline int twice(int x) restrict(amp, cpu) { return 2 * x; }
} // namespace Mine
} // namespace Concurrency

void run(Concurrency::array_view<int, 1> av) {
  Concurrency::parallel_for_each(av.extent.tile<64>(),
                                 [=](Concurrency::tiled_index<64> t) restrict(amp) {
    tile_static int s[64];
    s[t.local[0]] = Concurrency::Mine::twice(av[t.global]);
    t.barrier.wait();
    av[t.global] = s[63 - t.local[0]];
  });
}
