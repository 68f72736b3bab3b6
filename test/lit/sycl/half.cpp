// sycl::half (SYCL 2020 §4.14.1): binary16 arithmetic rounded once per
// operation to nearest even, conversions from float, double and integers
// (with overflow to infinity and subnormals), numeric_limits, mixed
// arithmetic with float (a float result) and integers (a half result), and
// vec<half, N> with convert<> rounding modes. Values from the CPU fallback
// are checked against bit patterns worked out on the host; the SPIR-V
// validates and the PTX builds.
// RUN: %slmcxx -O2 %s -o %t
// RUN: %t | FileCheck %s
// CHECK: half: PASSED
// RUN: %slmcxx --emit=spirv %s -o %t.spv
// RUN: %spirv-val %t.spv
// RUN: %slmcxx --emit=ptx %s -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// PTX: .entry
// RUN: %clangxx -std=c++17 %plugin -fsyntax-only %s

#include <sycl/sycl.hpp>

#include <cstdio>
#include <cstring>
#include <limits>

using namespace sycl;

static_assert(sizeof(half) == 2, "");
static_assert(std::is_same<decltype(half() + half()), half>::value, "");
static_assert(std::is_same<decltype(half() * 2.0f), float>::value, "");
static_assert(std::is_same<decltype(half() - 1.0), double>::value, "");
static_assert(std::is_same<decltype(half() / 3), half>::value, "");
static_assert(std::numeric_limits<half>::digits == 11, "");
static_assert(std::numeric_limits<half>::max().bits() == 0x7bff, "");
static_assert(std::numeric_limits<half>::epsilon().bits() == 0x1400, "");

// Bits of a half from a float on the host: round to nearest even, by hand.
static uint16_t host_half_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  uint32_t sign = (u >> 16) & 0x8000;
  int exp = int((u >> 23) & 0xff) - 127 + 15;
  uint32_t mant = u & 0x7fffff;
  if (((u >> 23) & 0xff) == 0xff)
    return uint16_t(sign | 0x7c00 | (mant ? 0x200 : 0));
  if (exp >= 31)
    return uint16_t(sign | 0x7c00);
  uint32_t m = mant | 0x800000; // 24 bits
  int shift = exp <= 0 ? 14 - exp : 13; // to 11 (or fewer) bits
  if (shift > 24)
    return uint16_t(sign);
  uint32_t q = m >> shift, rem = m & ((1u << shift) - 1), halfway = 1u << (shift - 1);
  if (rem > halfway || (rem == halfway && (q & 1)))
    ++q;
  if (exp <= 0)
    return uint16_t(sign | q); // subnormal (q may carry into the normal range)
  return uint16_t(sign | ((uint32_t(exp) << 10) + (q - 0x400)));
}

int main() {
  queue q;
  const int W = 4, K = 24;
  uint16_t *o = malloc_shared<uint16_t>(W * K, q);
  float *of = malloc_shared<float>(W * 4, q);
  std::memset(o, 0, 2 * W * K);

  q.parallel_for(nd_range<1>(range<1>(W), range<1>(W)), [=](nd_item<1> it) {
    const int g = it.get_global_id(0);
    uint16_t *O = o + g * K;
    int n = 0;
    half one(1.0f), eps = std::numeric_limits<half>::epsilon();
    // 1 + eps/2 is a tie: to even (1); 1 + 3eps/2 ties up to 1 + 2 eps.
    O[n++] = (one + eps / half(2)).bits();                      // 0
    O[n++] = (one + eps * half(1.5f) + half(float(g) * 0.0f)).bits(); // 1
    O[n++] = half(65504.0f + 16.0f * float(g)).bits();           // 2: 65504, then tie 65520 -> inf
    O[n++] = half(1.0e-7f * float(g + 1)).bits();                // 3: subnormal
    O[n++] = half(0.1f + 0.0f * float(g)).bits();               // 4 (no double: Gen12 has no fp64)
    O[n++] = half(2049 + 2 * g).bits();                          // 5: from an int: 2049 ties to 2048
    half a = half(3.0f + float(g)), b = half(7.0f);
    O[n++] = (a / b).bits();                                     // 6
    O[n++] = (a * b - half(0.5f)).bits();                        // 7
    O[n++] = (-a).bits();                                        // 8
    half c = a;
    c += 1;
    c *= half(0.25f);
    O[n++] = c.bits();                                           // 9
    O[n++] = (a < b) + 2 * (a == half(3.0f)) + 4 * (a >= 4.0f);  // 10
    O[n++] = std::numeric_limits<half>::infinity().bits();       // 11
    O[n++] = std::numeric_limits<half>::denorm_min().bits() + 2 * isnormal(half(1.0e-5f)) +
             4 * isnormal(half(6.2e-5f)) + 8 * isnan(nan(uint16_t(3))); // 12
    // vec<half> and convert with rounding modes: 1 + eps/4 is not a half.
    float4 f(1.0f + 0.000244140625f, -1.0f - 0.000244140625f, 70000.0f, float(g));
    vec<half, 4> rz = f.convert<half, rounding_mode::rtz>();
    vec<half, 4> rp = f.convert<half, rounding_mode::rtp>();
    vec<half, 4> rn = f.convert<half, rounding_mode::rtn>();
    for (int i = 0; i < 3; ++i) {
      O[n++] = rz[i].bits(); O[n++] = rp[i].bits(); O[n++] = rn[i].bits(); // 13..21
    }
    vec<half, 4> hv = f.convert<half>() * half(2) + rz;
    short4 cmp = hv > rp;
    O[n++] = uint16_t(cmp[0]);                                   // 22
    O[n++] = uint16_t(n);                                        // 23
    float4 back = hv.convert<float>();
    for (int i = 0; i < 4; ++i) of[g * 4 + i] = back[i];
  });
  q.wait();

  int fails = 0;
  // From double, directly (one rounding): on the host.
  if (half(0.1).bits() != 0x2e66 || half(1.0 + 0x1p-11 + 0x1p-40).bits() != 0x3c01) {
    std::printf("half from double: wrong\n");
    ++fails;
  }
  auto ck = [&](int g, int i, uint16_t want) {
    if (o[g * K + i] != want && fails++ < 20)
      std::printf("item %d value %d: 0x%04x, want 0x%04x\n", g, i, o[g * K + i], want);
  };
  for (int g = 0; g < W; ++g) {
    ck(g, 0, 0x3c00);
    ck(g, 1, 0x3c02);
    ck(g, 2, g == 0 ? 0x7bff : 0x7c00);
    ck(g, 3, host_half_bits(1.0e-7f * float(g + 1)));
    ck(g, 4, 0x2e66);
    ck(g, 5, host_half_bits(float(2049 + 2 * g)));
    float a = float(_Float16(3.0f + float(g)));
    ck(g, 6, host_half_bits(a / 7.0f));
    ck(g, 7, host_half_bits(float(_Float16(a * 7.0f)) - 0.5f));
    ck(g, 8, host_half_bits(-a));
    ck(g, 9, host_half_bits(float(_Float16(a + 1.0f)) * 0.25f));
    ck(g, 10, (a < 7) + 2 * (a == 3) + 4 * (a >= 4));
    ck(g, 11, 0x7c00);
    ck(g, 12, 0x0001 + 0 + 4 + 8); // 1e-5 is subnormal in half
    // rtz / rtp / rtn of 1 + 2^-12, -(1 + 2^-12), 70000 (above the largest half).
    uint16_t want[9] = {0x3c00, 0x3c01, 0x3c00, 0xbc00, 0xbc00, 0xbc01, 0x7bff, 0x7c00, 0x7bff};
    for (int i = 0; i < 9; ++i) ck(g, 13 + i, want[i]);
    ck(g, 22, 0xffff); // (1*2 + 1) > 1 + eps: -1
    ck(g, 23, 23);
    float w3 = float(_Float16(float(g))) * 2 + float(_Float16(float(g)));
    if (of[g * 4 + 3] != w3 && fails++ < 20)
      std::printf("item %d: back %g, want %g\n", g, of[g * 4 + 3], w3);
  }
  std::printf("half: %s\n", fails ? "FAILED" : "PASSED");
  free(o, q);
  free(of, q);
  return fails != 0;
}
