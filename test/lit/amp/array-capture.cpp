// concurrency::array is captured by reference in C++ AMP kernels ([&],
// [=, &b]); lowering turns each such capture into a pointer to the array's
// device-visible twin, on every backend.
// RUN: %slmcxx -O2 %s -o %t
// RUN: %t | FileCheck %s
// RUN: %slmcxx --emit=offload-cpp %s -o - | FileCheck %s --check-prefix=LOWERED
// CHECK: array capture: 126 384 PASSED
// LOWERED: [&, slmc_ref_a = ::concurrency::detail::device_ref(a), slmc_ref_b = ::concurrency::detail::device_ref(b)](index<1> i) SLMC_RESTRICT_AMP { (*slmc_ref_b)[i] = (*slmc_ref_a)[i] * 2; });
// LOWERED: [=, slmc_ref_b = ::concurrency::detail::device_ref(b)](tiled_index<64> t) SLMC_RESTRICT_AMP {
#include <amp.h>
#include <cstdio>
#include <vector>
using namespace concurrency;
int main() {
  std::vector<int> h(256);
  for (int i = 0; i < 256; ++i) h[i] = i;
  array<int, 1> a(256, h.begin(), h.end());
  array<int, 1> b(256);
  parallel_for_each(a.extent, [&](index<1> i) restrict(amp) { b[i] = a[i] * 2; });
  parallel_for_each(b.extent.tile<64>(), [=, &b](tiled_index<64> t) restrict(amp) {
    tile_static int s[64];
    s[t.local[0]] = b[t.global];
    t.barrier.wait();
    b[t.global] = s[63 - t.local[0]];
  });
  std::vector<int> out = b;
  bool ok = out[0] == 2 * 63 && out[255] == 2 * 192;
  std::printf("array capture: %d %d %s\n", out[0], out[255], ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
