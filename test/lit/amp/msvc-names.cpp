// MSVC's names: Concurrency is <amp.h>'s namespace and concurrency its alias;
// programs reopen Concurrency (helpers, their own nested namespaces) and use
// both spellings, with Concurrency::fast_math and precise_math too. The
// program runs on the CPU fallback and its kernels build for the devices.
// RUN: %slmcxx -O1 %s -o %t
// RUN: %t | FileCheck %s
// RUN: %clangxx -std=c++17 %plugin -fsyntax-only %s
// CHECK: names: 0 6 14 PASSED

#include <amp.h>
#include <amp_math.h>
#include <cstdio>
#include <vector>

namespace Concurrency {
namespace Mine {
inline int twice(int x) restrict(amp, cpu) { return 2 * x; }
template <int N> struct tile_sum {
  static int of(const tiled_index<N> &t, int *s) restrict(amp) {
    t.barrier.wait();
    int sum = 0;
    for (int i = 0; i < N; ++i) sum += s[i];
    return sum;
  }
};
} // namespace Mine
// A helper added to Concurrency itself, as MSVC programs sometimes do.
inline float root(float x) restrict(amp, cpu) { return fast_math::sqrt(x); }
} // namespace Concurrency

int main() {
  std::vector<int> v(16);
  for (int i = 0; i < 16; ++i) v[i] = i;
  Concurrency::array_view<int, 1> av(16, v);
  concurrency::parallel_for_each(av.extent, [=](Concurrency::index<1> i) restrict(amp) {
    av[i] = Concurrency::Mine::twice(av[i]) + int(concurrency::root(0.0f)) +
            int(Concurrency::precise_math::floor(0.5));
  });
  av.synchronize();

  std::vector<int> sums(16);
  concurrency::array_view<int, 1> sv(16, sums);
  Concurrency::parallel_for_each(sv.extent.tile<4>(),
                                 [=](Concurrency::tiled_index<4> t) restrict(amp) {
    tile_static int s[4];
    s[t.local[0]] = t.global[0];
    sv[t.global] = concurrency::Mine::tile_sum<4>::of(t, s);
  });
  sv.synchronize();

  bool ok = v[0] == 0 && v[3] == 6 && v[15] == 30 && sums[1] == 6 && sums[4] == 22;
  std::printf("names: %d %d %d %s\n", v[0], v[3], sums[0] + 8, ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
