// The device code pipeline: clang's front end only, then every symbol but
// the kernels made internal (in process), opt and llc; for PTX also small
// switches split back into conditional blocks (in process). A device
// function of external linkage is then no symbol of either module (it is
// inlined into its only caller), the modules still validate, and the
// kernel's four halo tests stay four predicable blocks in PTX.
// REQUIRES: spirv-tools
// RUN: %slmcxx -### --emit=ptx %s -o %t.ptx 2>&1 | FileCheck %s --check-prefix=STEPS
// RUN: %slmcxx --emit=ptx %s -o - | FileCheck %s --check-prefix=PTX
// RUN: %slmcxx --emit=spirv %s -o %t.spv
// RUN: %spirv-val %t.spv
// RUN: %spirv-dis %t.spv | FileCheck %s --check-prefix=SPIRV

#include <amp.h>
using namespace concurrency;

float neighbours(array_view<const float, 2> in, int r, int c) restrict(amp) {
  float s = 0.0f;
  for (int dr = -1; dr <= 1; ++dr)
    for (int dc = -1; dc <= 1; ++dc)
      s += in(r + dr < 0 ? 0 : r + dr, c + dc < 0 ? 0 : c + dc);
  return s;
}

void sweep(array_view<const float, 2> in, array_view<float, 2> out) {
  parallel_for_each(out.extent.tile<16, 16>(), [=](tiled_index<16, 16> t) restrict(amp) {
    tile_static float tile[18][18];
    const int r = t.local[0], c = t.local[1], gr = t.global[0], gc = t.global[1];
    tile[r + 1][c + 1] = in(gr, gc);
    if (r == 0) tile[0][c + 1] = in(gr > 0 ? gr - 1 : 0, gc);
    if (r == 15) tile[17][c + 1] = in(gr + 1, gc);
    if (c == 0) tile[r + 1][0] = in(gr, gc > 0 ? gc - 1 : 0);
    if (c == 15) tile[r + 1][17] = in(gr, gc + 1);
    t.barrier.wait();
    out[t.global] = tile[r][c + 1] + tile[r + 2][c + 1] + neighbours(in, gr, gc);
  });
}

// STEPS: "-emit-llvm" "-c" "-Xclang" "-disable-llvm-passes"
// STEPS: slmc++: internalize all but kernels (in process):
// STEPS: opt" "-mtriple=nvptx64-nvidia-cuda" "-mcpu=sm_75"
// STEPS-SAME: "-passes=default<O3>,infer-address-spaces,infer-alignment"
// STEPS-SAME: "-unroll-threshold=1000"
// STEPS: slmc++: split small switches (in process):
// STEPS: llc" "-mtriple=nvptx64-nvidia-cuda" "-mcpu=sm_75"

// PTX-NOT: .func
// PTX: .visible .entry _ZN4slmc12kernel_entry
// PTX-NOT: .func
// PTX-NOT: brx.idx
// PTX: ld.global
// PTX: st.shared
// PTX: @%p{{[0-9]+}} bra
// PTX: ld.global
// PTX: st.shared
// PTX: @%p{{[0-9]+}} bra
// PTX: ld.global
// PTX: st.shared
// PTX: @%p{{[0-9]+}} bra
// PTX: ld.global
// PTX: st.shared
// PTX: @%p{{[0-9]+}} bra
// PTX: ld.global
// PTX: st.shared
// PTX: barrier.sync 0;

// SPIRV: OpEntryPoint Kernel %{{[^ ]+}} "_ZN4slmc12kernel_entry
// SPIRV-NOT: neighbours
