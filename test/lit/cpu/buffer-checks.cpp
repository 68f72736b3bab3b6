// C++ AMP's buffer checks (Direct3D's rules: <amp.h>'s detail::element)
// cost the CPU fallback one test per work-item loop, not one per access:
// slmc++'s work-item loops test before the loop whether every iteration's
// index lies in its buffer and then run a version of the loop without the
// checks, which vectorises; a loop that does leave its buffer runs the
// checked version. Both kinds of loop: a tiled kernel's work-item loop,
// and the grid-stride loop the work-item loops interchange.
// RUN: %slmcxx --emit=offload-cpp %s -o %t.cpp
// RUN: %clangxx -x hip --offload-host-only --offload=spirv64 -nogpulib -nogpuinc -isystem %slmc-libdir/slmc/include -O2 -w -fpass-plugin=%slmc-libdir/slmcWorkItemLoops.so -S -emit-llvm %t.cpp -o - | FileCheck %s --check-prefix=IR
// And the results, with tiles and grids that run past the data (the last
// group's loop takes the checked version) and ones that do not.
// RUN: %slmcxx -O2 -DRUN %s -o %t
// RUN: env SLMC_DEVICE=cpu %t | FileCheck %s
// RUN: env SLMC_DEVICE=cpu SLMC_CPU_WORK_ITEM_LOOPS=0 %t | FileCheck %s

// IR-LABEL: define {{.*}}@_ZN4slmc15cpu_group_entry{{.*}}8grid_sum{{.*}}.x86_64(
// IR-DAG: call {{.*}}@slmc_cpu_out_of_bounds_sink
// IR-DAG: fadd {{.*}}<{{[0-9]+}} x float>
// IR-LABEL: define {{.*}}@_ZN4slmc15cpu_group_entry{{.*}}5scale{{.*}}.x86_64(
// IR-DAG: fmul {{.*}}<{{[0-9]+}} x float>
// IR-DAG: call {{.*}}@slmc_cpu_out_of_bounds_sink

// CHECK: scale 1024: ok
// CHECK-NEXT: scale 1000: ok
// CHECK-NEXT: scale 7: ok
// CHECK-NEXT: grid sum 1048576: ok
// CHECK-NEXT: grid sum 1000003: ok
// CHECK-NEXT: grid sum 100: ok

#include <amp.h>

#include <cstdio>
#include <vector>

using namespace concurrency;

// Every tile reads and writes a whole tile: past the end, reads give zero
// and writes go nowhere.
void scale(array_view<const float, 1> in, array_view<float, 1> out, int tiles) {
  parallel_for_each(extent<1>(tiles * 256).tile<256>(), [=](tiled_index<256> t) restrict(amp) {
    out[t.global] = in[t.global] * 2.0f + 1.0f;
  });
}

// 8 tiles of 256 striding over the input up to `limit`, which may pass the
// end of the view by up to a tile; each sum lands in its item's slot.
void grid_sum(array_view<const float, 1> in, array_view<float, 1> sums, int limit) {
  parallel_for_each(extent<1>(8 * 256).tile<256>(), [=](tiled_index<256> t) restrict(amp) {
    tile_static float partial[256];
    float s = 0.0f;
    for (int i = t.global[0]; i < limit; i += 8 * 256)
      s += in[i];
    partial[t.local[0]] = s;
    t.barrier.wait();
    sums[t.global] = partial[t.local[0]];
  });
}

#if defined(RUN)
int main() {
  for (int n : {1024, 1000, 7}) {
    std::vector<float> in(n), out(n + 1, -1.0f);
    for (int i = 0; i < n; ++i) in[i] = float(i % 97);
    array_view<const float, 1> iv(n, in);
    array_view<float, 1> ov(n, out);
    scale(iv, ov, (n + 255) / 256);
    ov.synchronize();
    bool ok = out[n] == -1.0f;
    for (int i = 0; i < n; ++i) ok &= out[i] == in[i] * 2.0f + 1.0f;
    std::printf("scale %d: %s\n", n, ok ? "ok" : "FAILED");
  }
  for (int n : {1048576, 1000003, 100}) {
    std::vector<float> in(n);
    for (int i = 0; i < n; ++i) in[i] = float(i % 7);
    std::vector<float> sums(8 * 256);
    array_view<const float, 1> iv(n, in);
    array_view<float, 1> sv(8 * 256, sums);
    grid_sum(iv, sv, n % 2 ? n + 256 : n);
    sv.synchronize();
    bool ok = true;
    for (int g = 0; g < 8 * 256; ++g) {
      float s = 0.0f;
      for (int i = g; i < n; i += 8 * 256)
        s += in[i];
      ok &= sums[g] == s;
    }
    std::printf("grid sum %d: %s\n", n, ok ? "ok" : "FAILED");
  }
  return 0;
}
#endif
