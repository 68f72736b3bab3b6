// Loops as IGC compiles them best (docs/intel.md): a kernel's loop that
// walks a buffer, `a[row * w + k]` over k, keeps its address as the buffer
// argument plus an offset (no pointer induction variable, which IGC cannot
// trace to the argument and would compute as a 64-bit address), and an
// `int` loop counter stays 32-bit (no induction variable widened to 64 bits,
// which Gen12 adds with addc pairs). The results, on the CPU.
// REQUIRES: spirv-tools
// RUN: %slmcxx -O3 --emit=spirv %s -o %t.spv
// RUN: %spirv-val %t.spv
// RUN: %spirv-dis %t.spv | FileCheck %s --check-prefix=SPIRV
// RUN: %slmcxx -O2 %s -o %t && %t | FileCheck %s

// SPIRV-LABEL: OpFunction %void
// SPIRV-NOT: OpPhi %_ptr
// SPIRV-NOT: OpPhi %ulong
// SPIRV: OpFunctionEnd
// CHECK: rows: PASSED

#include <amp.h>

#include <cstdio>
#include <vector>

using namespace concurrency;

int main() {
  const int rows = 64, w = 48;
  std::vector<float> a(rows * w), sums(rows, 0.0f);
  for (int i = 0; i < rows * w; ++i) a[i] = float(i % 11);
  array_view<const float, 2> av(rows, w, a);
  array_view<float, 1> sv(rows, sums);
  sv.discard_data();
  // One row per work-item, through a tile_static copy of the tile's rows.
  parallel_for_each(sv.extent.tile<16>(), [=](tiled_index<16> t) restrict(amp) {
    tile_static float part[16];
    float s = 0.0f;
    for (int k = 0; k < w; ++k)
      s += av(t.global[0], k) * float(k);
    part[t.local[0]] = s;
    t.barrier.wait();
    sv[t.global] = part[t.local[0]];
  });
  sv.synchronize();
  int bad = 0;
  for (int r = 0; r < rows; ++r) {
    float s = 0.0f;
    for (int k = 0; k < w; ++k) s += a[r * w + k] * float(k);
    bad += sums[r] != s;
  }
  std::printf("rows: %s\n", bad ? "FAILED" : "PASSED");
  return bad != 0;
}
