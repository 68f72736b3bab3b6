// Local arrays used by offloaded code are the host's arrays: writes through
// them are seen after the offload (ICC's semantics), whether the array is
// named in pin/in/out clauses or not; arrays the nest only reads may be
// copied into the kernel.
// RUN: %slmcxx -O2 %s -o %t
// RUN: %t | FileCheck %s
// CHECK: pinned array: ok
// CHECK: 2-D array: ok
// CHECK: read-only table: ok
// CHECK: host version: ok
// RUN: %slmcxx --emit=offload-cpp %s -o - | FileCheck %s --check-prefix=LOWERED
// LOWERED: {{, b}} = slmc_pointers.array(b)
// LOWERED: slmc_offload_scope.map(m, SLMC_MAP_INOUT);
// LOWERED-NOT: {{, table}} = slmc_pointers
// RUN: %slmcxx --emit=spirv %s -o %t.spv
// RUN: %spirv-val %t.spv

#include <gfx/gfx_intrin.h>
#include <cstdio>

__declspec(target(gfx_kernel)) void reverse_into(const int *in, int *out, int n) {
  int staged[256]; // written by the nest: the host's own array
  _Cilk_for (int i = 0; i < n; i++)
    staged[i] = in[n - 1 - i];
  for (int i = 0; i < n; i++)
    out[i] = staged[i];
}

int main() {
  float a[64], b[64];
  for (int i = 0; i < 64; i++)
    a[i] = (float)i, b[i] = -1.0f;
#pragma offload target(gfx) pin(a, b : length(64))
  _Cilk_for (int i = 0; i < 64; i++)
    b[i] = 2.0f * a[i];
  int bad = 0;
  for (int i = 0; i < 64; i++)
    bad += b[i] != 2.0f * i;
  std::printf("pinned array: %s\n", bad ? "FAILED" : "ok");

  int m[8][8] = {};
#pragma offload target(gfx)
  _Cilk_for (int r = 0; r < 8; r++)
    for (int c = 0; c < 8; c++)
      m[r][c] = r * 8 + c;
  bad = 0;
  for (int r = 0; r < 8; r++)
    for (int c = 0; c < 8; c++)
      bad += m[r][c] != r * 8 + c;
  std::printf("2-D array: %s\n", bad ? "FAILED" : "ok");

  const int table[4] = {3, 1, 4, 1};
  int *out = new int[64];
#pragma offload target(gfx) pin(out : length(64))
  _Cilk_for (int i = 0; i < 64; i++)
    out[i] = table[i % 4];
  bad = 0;
  for (int i = 0; i < 64; i++)
    bad += out[i] != table[i % 4];
  std::printf("read-only table: %s\n", bad ? "FAILED" : "ok");

  int in[256], rev[256];
  for (int i = 0; i < 256; i++)
    in[i] = i;
  reverse_into(in, rev, 256);
  bad = 0;
  for (int i = 0; i < 256; i++)
    bad += rev[i] != 255 - i;
  std::printf("host version: %s\n", bad ? "FAILED" : "ok");
  delete[] out;
  return 0;
}
