// What IGC needs from slmc's SPIR-V to make code as good as from OpenCL C
// (docs/intel.md):
//  - no ContractionOff execution mode unless the user turns contraction off
//    (-ffp-contract=off): IGC then fuses a * b + c into mad, as OpenCL C
//    allows by default; PTX follows the same switch (fma or mul + add);
//  - LocalSize when the work-group shape is known at compile time: a C++
//    AMP tiled kernel (tile 8 x 32: device x is the last tile dimension),
//    a rank-3 tile, and a simple parallel_for_each (slmc's fixed shape),
//    and no other.
// REQUIRES: spirv-tools
// RUN: %slmcxx --emit=spirv %s -o %t.spv
// RUN: %spirv-val %t.spv
// RUN: %spirv-dis %t.spv | FileCheck %s --check-prefix=SPIRV
// RUN: %spirv-dis %t.spv | grep -c LocalSize | FileCheck %s --check-prefix=COUNT
// RUN: %slmcxx --emit=spirv -ffp-contract=off %s -o %t.off.spv
// RUN: %spirv-dis %t.off.spv | FileCheck %s --check-prefix=OFF
// RUN: %slmcxx --emit=ptx %s -o - | FileCheck %s --check-prefix=PTX
// RUN: %slmcxx --emit=ptx -ffp-contract=off %s -o - | FileCheck %s --check-prefix=PTX-OFF
// RUN: %slmcxx -O2 %s -o %t && %t | FileCheck %s --check-prefix=EXEC

// SPIRV-NOT: ContractionOff
// SPIRV-DAG: OpExecutionMode {{.*}} LocalSize 32 8 1
// SPIRV-DAG: OpExecutionMode {{.*}} LocalSize 4 2 2
// SPIRV-DAG: OpExecutionMode {{.*}} LocalSize 256 1 1
// COUNT: 3
// OFF: OpExecutionMode {{.*}} ContractionOff
// PTX: fma.rn.f32
// PTX-OFF-NOT: fma.rn.f32
// EXEC: 3 kernels: PASSED

#include <amp.h>

#include <cstdio>
#include <vector>

using namespace concurrency;

int main() {
  const int rows = 16, cols = 64;
  std::vector<float> a(rows * cols), b(rows * cols), c(rows * cols);
  for (int i = 0; i < rows * cols; ++i) {
    a[i] = float(i % 7);
    b[i] = float(i % 5);
  }
  array_view<const float, 2> av(rows, cols, a), bv(rows, cols, b);
  array_view<float, 2> cv(rows, cols, c);
  // Tiled, 8 x 32: a * b + c in every work-item, through tile_static data.
  parallel_for_each(cv.extent.tile<8, 32>(), [=](tiled_index<8, 32> t) restrict(amp) {
    tile_static float s[8][32];
    s[t.local[0]][t.local[1]] = av[t.global];
    t.barrier.wait();
    cv[t.global] = s[t.local[0]][t.local[1]] * bv[t.global] + 1.0f;
  });
  cv.synchronize();
  int bad = 0;
  for (int i = 0; i < rows * cols; ++i)
    bad += c[i] != a[i] * b[i] + 1.0f;

  // Rank 3: tile 2 x 2 x 4.
  std::vector<int> v(4 * 4 * 8, 0);
  array_view<int, 3> vv(4, 4, 8, v);
  parallel_for_each(vv.extent.tile<2, 2, 4>(), [=](tiled_index<2, 2, 4> t) restrict(amp) {
    vv[t.global] = t.local[0] * 100 + t.local[1] * 10 + t.local[2];
  });
  vv.synchronize();
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 8; ++k)
        bad += v[(i * 4 + j) * 8 + k] != (i % 2) * 100 + (j % 2) * 10 + k % 4;

  // Simple: one work-item per index.
  std::vector<int> w(1000, 0);
  array_view<int, 1> wv(1000, w);
  parallel_for_each(wv.extent, [=](index<1> i) restrict(amp) { wv[i] = 3 * i[0]; });
  wv.synchronize();
  for (int i = 0; i < 1000; ++i)
    bad += w[i] != 3 * i;

  std::printf("3 kernels: %s\n", bad ? "FAILED" : "PASSED");
  return bad != 0;
}
