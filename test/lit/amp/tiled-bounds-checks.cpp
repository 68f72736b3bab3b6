// A tiled kernel's `extent.contains(t_idx.global)` is two compares, one per
// dimension, and one branch: the launch's extent is an int, so tile ids and
// global indices are non-negative ints and the `>= 0` half of each test
// goes (docs/intel.md). The transpose of a shape that is not a multiple of
// the tile (padded extent, partial tiles at both edges) stays right on the
// CPU, at -O2 and -O0, and contains() still refuses negative indices.
// REQUIRES: spirv-tools
// RUN: %slmcxx -O3 --emit=spirv %s -o %t.spv
// RUN: %spirv-val %t.spv
// RUN: %spirv-dis %t.spv | FileCheck %s --check-prefix=SPIRV
// RUN: %slmcxx -O2 %s -o %t && %t | FileCheck %s
// RUN: %slmcxx -O0 %s -o %t0 && %t0 | FileCheck %s

// SPIRV-LABEL: OpFunction %void
// SPIRV-NOT: OpSGreaterThan
// SPIRV-COUNT-2: OpSLessThan %bool
// SPIRV-NEXT: OpSelect %bool
// SPIRV-NEXT: OpBranchConditional
// SPIRV-NOT: OpSGreaterThan
// SPIRV-COUNT-2: OpSLessThan %bool
// SPIRV-NEXT: OpSelect %bool
// SPIRV-NEXT: OpBranchConditional
// SPIRV-NOT: OpSGreaterThan
// SPIRV: OpFunctionEnd
// CHECK: contains: PASSED
// CHECK: transpose 37x53: PASSED

#include <amp.h>

#include <cstdio>
#include <vector>

using namespace concurrency;

int main() {
  const extent<2> e(37, 53);
  const bool ok = e.contains(index<2>(0, 0)) && e.contains(index<2>(36, 52)) &&
                  !e.contains(index<2>(-1, 0)) && !e.contains(index<2>(0, -1)) &&
                  !e.contains(index<2>(37, 0)) && !extent<2>(-4, 3).contains(index<2>(0, 0));
  std::printf("contains: %s\n", ok ? "PASSED" : "FAILED");

  const int rows = 37, cols = 53;
  std::vector<float> a(rows * cols), b(rows * cols, -1.0f);
  for (int i = 0; i < rows * cols; ++i) a[i] = float(i);
  array_view<const float, 2> in(rows, cols, a);
  array_view<float, 2> out(cols, rows, b);
  parallel_for_each(in.extent.tile<16, 16>().pad(), [=](tiled_index<16, 16> t) restrict(amp) {
    tile_static float block[16][17];
    const int r = t.local[0], c = t.local[1];
    if (in.extent.contains(t.global))
      block[r][c] = in[t.global];
    t.barrier.wait();
    index<2> dst(t.tile_origin[1] + r, t.tile_origin[0] + c);
    if (out.extent.contains(dst))
      out[dst] = block[c][r];
  });
  out.synchronize();
  int bad = 0;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      bad += b[c * rows + r] != a[r * cols + c];
  std::printf("transpose %dx%d: %s\n", rows, cols, bad ? "FAILED" : "PASSED");
  return bad != 0 || !ok;
}
