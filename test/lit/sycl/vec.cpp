// sycl::vec (SYCL 2020 §4.14.2) in a kernel: constructors from element
// lists, element access, swizzles as values and as lvalues (named, lo/hi/
// odd/even, s0..sF, swizzle<...>), operators with comparison results of -1,
// convert<> with each rounding mode, as<>, load/store through multi_ptr.
// Each value is checked on the CPU fallback against a scalar computation
// on the host; the SPIR-V validates and the PTX builds.
// RUN: %slmcxx -O2 %s -o %t
// RUN: %t | FileCheck %s
// CHECK: vec: PASSED
// RUN: %slmcxx --emit=spirv %s -o %t.spv
// RUN: %spirv-val %t.spv
// RUN: %slmcxx --emit=ptx %s -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// PTX: .entry
// RUN: %clangxx -std=c++17 %plugin -fsyntax-only %s

#define SYCL_SIMPLE_SWIZZLES
#include <sycl/sycl.hpp>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

using namespace sycl;

// The element type of comparison results: the signed integer of the size.
static_assert(std::is_same<decltype(float4() < float4()), int4>::value, "");
static_assert(std::is_same<decltype(vec<half, 2>() == vec<half, 2>()), short2>::value, "");
static_assert(std::is_same<decltype(double3() != double3()), long3>::value, "");
static_assert(std::is_same<decltype(uchar8() > uchar8()), char8>::value, "");
static_assert(std::is_same<decltype(!uint2()), int2>::value, "");
static_assert(sizeof(float3) == 16 && alignof(float3) == 16, "a vec of 3 is stored as 4");
static_assert(sizeof(int16) == 64 && float3::size() == 3 && float3::byte_size() == 16, "");
static_assert(std::is_same<decltype(vec{1.0f, 2.0f}), float2>::value, "deduction guide");
static_assert(std::is_same<decltype(float4().xy()), decltype(float4().lo())>::value, "");
// A one-element swizzle converts to any scalar type, as DPC++'s do
// (`unsigned id = bytes.y();` for a uchar4); a longer one does not.
static_assert(std::is_convertible<decltype(std::declval<uchar4 &>().y()), unsigned>::value, "");
static_assert(std::is_convertible<decltype(std::declval<const vec<half, 4> &>().w()), float>::value, "");
static_assert(std::is_convertible<decltype(std::declval<int4 &>().x()), bool>::value, "");
static_assert(std::is_convertible<decltype(std::declval<float4 &>().x()), float>::value, "");
static_assert(!std::is_convertible<decltype(std::declval<int4 &>().xy()), int>::value, "");

constexpr int kInts = 96, kFloats = 64;

int main() {
  queue q;
  const int W = 4; // work-items, each with its own inputs
  int *oi = malloc_shared<int>(W * kInts, q);
  float *of = malloc_shared<float>(W * kFloats, q);
  float *in = malloc_shared<float>(W * 8, q);
  for (int i = 0; i < W * 8; ++i)
    in[i] = 0.25f * float(i) - 3.0f;
  std::memset(oi, 0, sizeof(int) * W * kInts);
  std::memset(of, 0, sizeof(float) * W * kFloats);

  q.parallel_for(nd_range<1>(range<1>(W), range<1>(W)), [=](nd_item<1> it) {
    const int g = it.get_global_id(0);
    int *I = oi + g * kInts;
    float *F = of + g * kFloats;
    int n = 0, m = 0;
    float t = float(g);

    // Constructors: element lists mixing scalars, vecs and swizzles.
    float2 p(t, 2.0f);
    float4 a(p, 3.5f, -4.5f);          // t 2 3.5 -4.5
    float4 b(1.0f, a.zw(), t + 1.0f);  // 1 3.5 -4.5 t+1
    float4 k(7.0f);                    // broadcast
    int8 e(int4(1, 2, 3, 4), int2(5, 6), 7, g);
    for (int i = 0; i < 4; ++i) F[m++] = a[i];           // 0..3
    for (int i = 0; i < 4; ++i) F[m++] = b[i];           // 4..7
    F[m++] = k.w();                                      // 8
    for (int i = 0; i < 8; ++i) I[n++] = e[i];           // 0..7

    // Swizzles as values.
    float4 r = a.wzyx();                                 // -4.5 3.5 2 t
    for (int i = 0; i < 4; ++i) F[m++] = r[i];           // 9..12
    float3 s3 = a.swizzle<2, 0, 0>();                    // 3.5 t t
    for (int i = 0; i < 3; ++i) F[m++] = s3[i];          // 13..15
    F[m++] = a.x() * 2.0f + a.w();                       // 16: 2t - 4.5
    F[m++] = a.wzyx().zw().x();                          // 17: swizzle of a swizzle: a.y

    // Swizzles as lvalues.
    float4 d = a;
    d.xy() = a.wz();                                     // -4.5 3.5 3.5 -4.5
    d.w() += 10.0f;                                      // 5.5
    d.swizzle<2>() = t;                                  // z = t
    d.yx() *= 2.0f;                                      // x -9, y 7
    d.zyx().swizzle<2, 1>() = d.yx();                    // through two swizzles: swap x, y
    for (int i = 0; i < 4; ++i) F[m++] = d[i];           // 18..21
    int8 h(0, 1, 2, 3, 4, 5, 6, 7);
    h.lo() = h.hi();                                     // 4 5 6 7 4 5 6 7
    h.odd() += 100;                                      // 4 105 6 107 4 105 6 107
    h.even() = int4(g);                                  // g 105 g 107 g 105 g 107
    for (int i = 0; i < 8; ++i) I[n++] = h[i];           // 8..15
    int16 v16;
    for (int i = 0; i < 16; ++i) v16[i] = i * 3;
    v16.sF() = -1;
    v16.sA() = v16.s3() + v16.s4();
    I[n++] = v16.sF(); I[n++] = v16.sA(); I[n++] = v16.s9(); // 16..18
    int3 v3(1, 2, 3);
    int2 hi3 = v3.hi();                                  // z and an undefined w
    I[n++] = hi3.x();                                    // 19
    v3.lo() = int2(8, 9);
    I[n++] = v3.x() + v3.y() + v3.z();                   // 20: 20
    float4 rgba(0.1f, 0.2f, 0.3f, 0.4f);
    rgba.bgr() = rgba.rgb();
    F[m++] = rgba.r(); F[m++] = rgba.b(); F[m++] = rgba.a(); // 22..24

    // Operators.
    int4 x(g + 7, -9, 12, 5), y(2, 4, -5, g + 1);
    int4 o1 = x + y * 2 - 1;
    int4 o2 = x / y, o3 = x % y;
    int4 o4 = (x & 6) | (y ^ 3);
    int4 o5 = (x << 2) >> 1;
    int4 o6 = ~x, o7 = -x;
    for (int i = 0; i < 4; ++i) {
      I[n++] = o1[i]; I[n++] = o2[i]; I[n++] = o3[i];
      I[n++] = o4[i]; I[n++] = o5[i]; I[n++] = o6[i]; I[n++] = o7[i]; // 21..48
    }
    int4 c1 = x < y, c2 = x == int4(g + 7, 0, 12, 0), c3 = !int4(0, 1, 0, g);
    int4 c4 = (x > 0) && (y > 0), c5 = (x > 100) || (y < 0);
    for (int i = 0; i < 4; ++i) {
      I[n++] = c1[i]; I[n++] = c2[i]; I[n++] = c3[i]; I[n++] = c4[i]; I[n++] = c5[i]; // 49..68
    }
    int4 fc = a >= b;                                    // float compare: int -1/0
    for (int i = 0; i < 4; ++i) I[n++] = fc[i];          // 69..72
    x += 1; x *= y; ++x;
    for (int i = 0; i < 4; ++i) I[n++] = x[i];           // 73..76
    float4 fo = a * b + 0.5f - b / 2.0f;
    for (int i = 0; i < 4; ++i) F[m++] = fo[i];          // 25..28

    // Conversions with rounding modes.
    float4 q4(2.5f + t, -2.5f, 3.75f, -3.75f);
    int4 rte = q4.convert<int, rounding_mode::rte>();
    int4 rtz = q4.convert<int, rounding_mode::rtz>();
    int4 rtp = q4.convert<int, rounding_mode::rtp>();
    int4 rtn = q4.convert<int, rounding_mode::rtn>();
    int4 aut = q4.convert<int>();
    for (int i = 0; i < 4; ++i) {
      F[m++] = float(rte[i]); F[m++] = float(rtz[i]); F[m++] = float(rtp[i]);
      F[m++] = float(rtn[i]); F[m++] = float(aut[i]); // 29..48
    }
    // 2^24 + 1 and -(2^24 + 1 + 2g) are between two floats.
    int2 big(16777217, -16777217 - 2 * g);
    float2 bz = big.convert<float, rounding_mode::rtz>();
    float2 bp = big.convert<float, rounding_mode::rtp>();
    float2 bn = big.convert<float, rounding_mode::rtn>();
    float2 be = big.convert<float, rounding_mode::rte>();
    for (int i = 0; i < 2; ++i) {
      I[n++] = int(bz[i]); I[n++] = int(bp[i]); I[n++] = int(bn[i]); I[n++] = int(be[i]); // 77..84
    }
    uint2 ub(4294967295u, 4294967041u);                  // above the largest float below 2^32
    float2 ubz = ub.convert<float, rounding_mode::rtz>();
    F[m++] = ubz[0]; F[m++] = ubz[1];                    // 49, 50
    char4 wrap = int4(300, -129, 127, g).convert<int8_t>();
    for (int i = 0; i < 4; ++i) I[n++] = wrap[i];        // 85..88
    int4 bits = float4(1.0f, -2.0f, 0.0f, t).as<int4>();
    for (int i = 0; i < 4; ++i) I[n++] = bits[i];        // 89..92

    // Load and store through multi_ptr and a raw pointer.
    float4 ld;
    ld.load(g, global_ptr<const float>(in));
    float4 ld2;
    ld2.load(2 * g + 1, in);
    float4 bc;
    bc = 2.5f;                                           // assigns every element
    ld2 += bc - 2.5f;
    (ld + ld2).store(13, global_ptr<float>(F));          // 52..55
    I[n++] = n; I[n++] = m;                              // 93, 94
  });
  q.wait();

  // ---- Expected values, scalar code on the host -----------------------------
  auto rte = [](float v) { return int(std::nearbyint(v)); };
  int fails = 0;
  auto ci = [&](int g, int idx, long long want) {
    if (oi[g * kInts + idx] != (int)want) {
      if (fails++ < 20)
        std::printf("item %d int %d: %d, want %lld\n", g, idx, oi[g * kInts + idx], want);
    }
  };
  auto cf = [&](int g, int idx, float want) {
    float got = of[g * kFloats + idx];
    if (!(got == want || std::fabs(got - want) <= 1e-6f * std::fabs(want))) {
      if (fails++ < 20)
        std::printf("item %d float %d: %.9g, want %.9g\n", g, idx, got, want);
    }
  };
  for (int g = 0; g < W; ++g) {
    float t = float(g);
    float A[4] = {t, 2.0f, 3.5f, -4.5f}, B[4] = {1.0f, 3.5f, -4.5f, t + 1.0f};
    for (int i = 0; i < 4; ++i) cf(g, i, A[i]), cf(g, 4 + i, B[i]);
    cf(g, 8, 7.0f);
    int E[8] = {1, 2, 3, 4, 5, 6, 7, g};
    for (int i = 0; i < 8; ++i) ci(g, i, E[i]);
    for (int i = 0; i < 4; ++i) cf(g, 9 + i, A[3 - i]);
    cf(g, 13, 3.5f), cf(g, 14, t), cf(g, 15, t);
    cf(g, 16, 2 * t - 4.5f), cf(g, 17, 2.0f);
    float D[4] = {7.0f, -9.0f, t, 5.5f};
    for (int i = 0; i < 4; ++i) cf(g, 18 + i, D[i]);
    int H[8] = {g, 105, g, 107, g, 105, g, 107};
    for (int i = 0; i < 8; ++i) ci(g, 8 + i, H[i]);
    ci(g, 16, -1), ci(g, 17, 21), ci(g, 18, 27), ci(g, 19, 3), ci(g, 20, 20);
    cf(g, 22, 0.3f), cf(g, 23, 0.1f), cf(g, 24, 0.4f);
    int X[4] = {g + 7, -9, 12, 5}, Y[4] = {2, 4, -5, g + 1};
    for (int i = 0; i < 4; ++i) {
      int b0 = 21 + 7 * i;
      ci(g, b0 + 0, X[i] + Y[i] * 2 - 1);
      ci(g, b0 + 1, X[i] / Y[i]);
      ci(g, b0 + 2, X[i] % Y[i]);
      ci(g, b0 + 3, (X[i] & 6) | (Y[i] ^ 3));
      ci(g, b0 + 4, (X[i] << 2) >> 1);
      ci(g, b0 + 5, ~X[i]);
      ci(g, b0 + 6, -X[i]);
    }
    int Z[4] = {g + 7, 0, 12, 0}, NotIn[4] = {0, 1, 0, g};
    for (int i = 0; i < 4; ++i) {
      int b0 = 49 + 5 * i;
      ci(g, b0 + 0, X[i] < Y[i] ? -1 : 0);
      ci(g, b0 + 1, X[i] == Z[i] ? -1 : 0);
      ci(g, b0 + 2, !NotIn[i] ? -1 : 0);
      ci(g, b0 + 3, (X[i] > 0 && Y[i] > 0) ? -1 : 0);
      ci(g, b0 + 4, (X[i] > 100 || Y[i] < 0) ? -1 : 0);
      ci(g, 69 + i, A[i] >= B[i] ? -1 : 0);
      ci(g, 73 + i, (X[i] + 1) * Y[i] + 1);
      cf(g, 25 + i, A[i] * B[i] + 0.5f - B[i] / 2.0f);
    }
    float Q[4] = {2.5f + t, -2.5f, 3.75f, -3.75f};
    for (int i = 0; i < 4; ++i) {
      cf(g, 29 + 5 * i, float(rte(Q[i])));
      cf(g, 30 + 5 * i, std::trunc(Q[i]));
      cf(g, 31 + 5 * i, std::ceil(Q[i]));
      cf(g, 32 + 5 * i, std::floor(Q[i]));
      cf(g, 33 + 5 * i, std::trunc(Q[i]));
    }
    // Exact answers for the two integers between floats.
    long long Big[2] = {16777217, -16777217 - 2LL * g};
    for (int i = 0; i < 2; ++i) {
      long long v = Big[i], lo = v & ~1LL, hi = lo + 2; // floats at even integers here
      if ((v & 1) == 0) lo = hi = v;
      long long rz = v < 0 ? hi : lo, re = ((lo / 2) % 2 == 0) ? lo : hi;
      if (lo == hi) re = lo;
      ci(g, 77 + 4 * i, rz), ci(g, 78 + 4 * i, hi), ci(g, 79 + 4 * i, lo), ci(g, 80 + 4 * i, re);
    }
    cf(g, 49, 4294967040.0f), cf(g, 50, 4294967040.0f);
    ci(g, 85, int8_t(300 & 0xff)), ci(g, 86, 127), ci(g, 87, 127), ci(g, 88, g);
    float Bits[4] = {1.0f, -2.0f, 0.0f, t};
    for (int i = 0; i < 4; ++i) {
      int w;
      std::memcpy(&w, &Bits[i], 4);
      ci(g, 89 + i, w);
    }
    for (int i = 0; i < 4; ++i)
      cf(g, 52 + i, in[g * 4 + i] + in[(2 * g + 1) * 4 + i]);
    ci(g, 93, 93), ci(g, 94, 51);
  }
  std::printf("vec: %s\n", fails ? "FAILED" : "PASSED");
  free(oi, q);
  free(of, q);
  free(in, q);
  return fails != 0;
}
