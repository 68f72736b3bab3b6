// Concurrency::direct3d's HLSL intrinsics compute what HLSL computes (values
// checked on the CPU fallback), including the edge cases: firstbithigh of a
// negative int finds the highest 0, abs(INT_MIN) wraps, saturate(NaN) is 0.
// The same kernel builds for SPIR-V (validated) and PTX.
// RUN: %slmcxx -O1 %s -o %t
// RUN: %t | FileCheck %s
// RUN: %clangxx -std=c++17 %plugin -fsyntax-only %s
// CHECK: direct3d: 0 failures

#include <amp.h>
#include <climits>
#include <cmath>
#include <cstdio>
#include <vector>
using namespace concurrency;

int main() {
  // Inputs come from memory so that device code computes them.
  std::vector<int> in = {1, 0x10000, -1, 0, -2, INT_MIN, INT_MAX, -256, 8, -5, 3, 2};
  std::vector<float> fin = {0.5f, 2.0f, -1.0f, NAN, 180.0f, 4.0f, 3.5f, 1.0f};
  std::vector<int> ir(64, 12345);
  std::vector<float> fr(64, 12345.0f);
  array_view<const int, 1> i(int(in.size()), in);
  array_view<const float, 1> f(int(fin.size()), fin);
  array_view<int, 1> r(64, ir);
  array_view<float, 1> q(64, fr);
  parallel_for_each(extent<1>(1), [=](index<1>) restrict(amp) {
    using namespace concurrency::direct3d;
    r[0] = firstbithigh(i[0]);   // 0
    r[1] = firstbithigh(i[1]);   // 16
    r[2] = firstbithigh(i[2]);   // -1: -1 has no bit differing from the sign
    r[3] = firstbithigh(i[3]);   // -1
    r[4] = firstbithigh(i[4]);   // 0: 0xfffffffe, highest 0 is bit 0
    r[5] = firstbithigh(i[5]);   // 30
    r[6] = firstbithigh(i[6]);   // 30
    r[7] = firstbithigh(i[7]);   // 7: 0xffffff00
    r[8] = firstbitlow(i[3]);    // -1
    r[9] = firstbitlow(i[8]);    // 3
    r[10] = firstbitlow(i[5]);   // 31
    r[11] = firstbitlow(i[2]);   // 0
    r[12] = direct3d::abs(i[9]);          // 5
    r[13] = direct3d::abs(i[5]);          // INT_MIN
    r[14] = clamp(i[9], -2, 2);  // -2
    r[15] = clamp(i[10], -2, 2); // 2
    r[16] = int(countbits(unsigned(i[7]))); // 24
    r[17] = imax(i[9], i[10]);   // 3
    r[18] = imin(i[9], i[10]);   // -5
    r[19] = int(umax(unsigned(i[2]), 1u)); // -1 (0xffffffff)
    r[20] = int(umin(unsigned(i[2]), 1u)); // 1
    r[21] = mad(i[11], i[10], i[8]);       // 14
    r[22] = mad(i[6], i[11], i[11]);       // 0: INT_MAX * 2 + 2 wraps
    r[23] = int(mad(unsigned(i[2]), 2u, 3u)); // 1
    r[24] = int(reversebits(unsigned(i[0]))); // INT_MIN
    r[25] = int(reversebits(0x12345678u + unsigned(i[3]))); // 0x1e6a2c48
    r[26] = sign(i[9]);          // -1
    r[27] = sign(i[3]);          // 0
    r[28] = sign(f[6]);          // 1
    r[29] = sign(f[3]);          // 0 (NaN)
    r[30] = sign(f[2]);          // -1
    q[0] = clamp(f[6], 0.0f, 1.0f); // 1
    q[1] = clamp(f[3], 0.0f, 1.0f); // 0 (NaN)
    q[2] = mad(f[1], f[6], f[0]);   // 7.5
    q[3] = radians(f[4]);           // pi
    q[4] = rcp(f[5]);               // 0.25
    q[5] = float(rcp(double(f[1]))); // 0.5
    q[6] = saturate(f[2]);          // 0
    q[7] = saturate(f[0]);          // 0.5
    q[8] = saturate(f[1]);          // 1
    q[9] = saturate(f[3]);          // 0 (NaN)
    q[10] = smoothstep(0.0f, f[7], f[0]);  // 0.5
    q[11] = smoothstep(0.0f, f[1], f[0]);  // 0.15625
    q[12] = smoothstep(0.0f, f[1], f[2]);  // 0
    q[13] = smoothstep(0.0f, f[1], f[4]);  // 1
    q[14] = step(f[7], f[0]);       // 0: 0.5 < 1
    q[15] = step(f[7], f[7]);       // 1: x >= y
    q[16] = float(mad(double(f[1]), 3.0, 1.0)); // 7
  });
  r.synchronize();
  q.synchronize();
  const int want[] = {0, 16, -1, -1, 0, 30, 30, 7, -1, 3, 31, 0, 5, INT_MIN, -2, 2,
                      24, 3, -5, -1, 1, 14, 0, 1, INT_MIN, 0x1e6a2c48, -1, 0, 1, 0, -1};
  const float fwant[] = {1, 0, 7.5f, 3.14159274f, 0.25f, 0.5f, 0, 0.5f, 1, 0,
                         0.5f, 0.15625f, 0, 1, 0, 1, 7};
  int failures = 0;
  for (int k = 0; k < int(sizeof want / sizeof *want); ++k)
    if (ir[k] != want[k]) {
      std::printf("r[%d] = %d, want %d\n", k, ir[k], want[k]);
      ++failures;
    }
  for (int k = 0; k < int(sizeof fwant / sizeof *fwant); ++k)
    if (std::fabs(fr[k] - fwant[k]) > 1e-6f) {
      std::printf("q[%d] = %.9g, want %.9g\n", k, fr[k], fwant[k]);
      ++failures;
    }
  // Interop that needs no Direct3D device.
  accelerator acc;
  accelerator_view av = direct3d::create_accelerator_view(acc, true);
  if (!direct3d::is_timeout_disabled(av) || direct3d::is_timeout_disabled(acc.get_default_view()))
    ++failures;
  std::printf("direct3d: %d failures\n", failures);
  return failures != 0;
}
