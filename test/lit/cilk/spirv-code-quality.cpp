// Cilk Plus thread groups on Intel GPUs (docs/intel.md): the loops that deal
// a second-level nest's iterations out to the group's work-items count in
// 32 bits when the count fits (Gen12 emulates each 64-bit add with an addc
// pair), so the kernel's SPIR-V has no 64-bit loop counter.
// REQUIRES: spirv-tools
// RUN: %slmcxx --emit=spirv %s -o %t.spv
// RUN: %spirv-val %t.spv
// RUN: %spirv-dis %t.spv | FileCheck %s --check-prefix=SPIRV
// RUN: %slmcxx -O2 %s -o %t && %t | FileCheck %s --check-prefix=EXEC
// SPIRV: OpPhi %uint
// SPIRV-NOT: OpPhi %ulong
// EXEC: sums: PASSED

#include <gfx/gfx_rt.h>
#include <cstdio>

#define N 4096
#define G 64

__declspec(target(gfx_kernel)) void block_sums(const float (*in)[G], float *out) {
  _Cilk_for _Thread_group (int g = 0; g < N / G; ++g) {
    __thread_group_local float tile[G];
    _Cilk_for (int i = 0; i < G; ++i)
      tile[i] = in[g][i] * 2.0f;
    _gfx_gpgpu_thread_barrier();
    _Cilk_for (int i = 0; i < 1; ++i) {
      float s = 0;
      for (int k = 0; k < G; ++k)
        s += tile[k];
      out[g] = s;
    }
  }
}

int main() {
  static float in[N / G][G], out[N / G];
  for (int g = 0; g < N / G; ++g)
    for (int i = 0; i < G; ++i)
      in[g][i] = float(i);
  _GFX_share(in, sizeof(in));
  _GFX_share(out, sizeof(out));
  _GFX_offload(block_sums, (const float (*)[G])in, out);
  _GFX_wait();
  int bad = 0;
  for (int g = 0; g < N / G; ++g)
    bad += out[g] != float(G * (G - 1));
  printf("sums: %s\n", bad ? "FAILED" : "PASSED");
}
