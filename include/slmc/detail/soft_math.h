//===- slmc/detail/soft_math.h - Math functions in plain C++ ---*- C++ -*-===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A software math library over IEEE doubles for device code that has no
// math library of its own: PTX without CUDA's libdevice (C++ AMP's
// precise_math always, SYCL's math built-ins when slmc++ finds no
// libdevice). Cody-Waite range reduction with fma, then truncated Taylor or
// atanh series; results within a few ulp of the exact ones (pow: the error
// grows slowly with |y ln x|; sin, cos and tan reduce large arguments
// exactly; sinpi, cospi and tanpi reduce every argument exactly). Float
// functions evaluate in double. remquo, remainder, nextafter, ilogb and
// logb are exact.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_DETAIL_SOFT_MATH_H
#define SLMC_DETAIL_SOFT_MATH_H

#include "slmc/offload.h"

#include <stdint.h>

// The software library relies on exact error terms (a*b - fl(a*b) by fma,
// two-sums): the compiler must not fuse its multiplies and adds, which CUDA
// device compilation does by default.
#if defined(__clang__)
#pragma float_control(push)
#pragma clang fp contract(off)
#endif

namespace slmc {
namespace soft {

// ---- Bits and scaling ----------------------------------------------------
SLMC_HD inline uint64_t bits(double x) { return __builtin_bit_cast(uint64_t, x); }
SLMC_HD inline double from_bits(uint64_t b) { return __builtin_bit_cast(double, b); }
SLMC_HD inline double abs_(double x) { return from_bits(bits(x) & 0x7fffffffffffffffull); }
SLMC_HD inline bool nan_(double x) { return x != x; }
SLMC_HD inline bool inf_(double x) { return abs_(x) == __builtin_inf(); }
SLMC_HD inline double copysign_(double x, double s) {
  return from_bits((bits(x) & 0x7fffffffffffffffull) | (bits(s) & 0x8000000000000000ull));
}
SLMC_HD inline double fma_(double a, double b, double c) { return __builtin_fma(a, b, c); }
/// A product rounded on its own, never fused into a following add: the
/// error-free transformations below need fl(a*b) exactly. The pragma at the
/// top covers the host passes; CUDA device code contracts regardless of
/// pragmas (-ffp-contract=fast), but never an explicitly rounded mul.rn.
SLMC_HD inline double mul_(double a, double b) {
#if defined(SLMC_PASS_PTX)
  return __nvvm_mul_rn_d(a, b);
#else
  return a * b;
#endif
}
SLMC_HD inline double rint_(double x) { return __builtin_rint(x); }
SLMC_HD inline double floor_(double x) { return __builtin_floor(x); }
/// 2^k for k in [-1022, 1023].
SLMC_HD inline double pow2i(int k) { return from_bits(uint64_t(k + 1023) << 52); }
/// x * 2^k with one rounding (|k| at most a few thousand).
SLMC_HD inline double scale(double x, int k) {
  while (k > 1023) {
    x *= pow2i(1023);
    k -= 1023;
    if (inf_(x)) return x;
  }
  while (k < -1022) {
    if (k + 1022 >= -1022) {
      x *= pow2i(k + 1022);
      k = -1022;
    } else {
      x *= pow2i(-1022);
      k += 1022;
    }
  }
  return x * pow2i(k);
}

// Constants: double values of ln 2, log2 e, log10 e, ln 10, pi/2 and pi, each
// split into a leading double and the double nearest to the remainder.
constexpr double kLn2Hi = 0x1.62e42fefa39efp-1, kLn2Lo = 0x1.abc9e3b39803fp-56;
constexpr double kLog2eHi = 0x1.71547652b82fep+0, kLog2eLo = 0x1.777d0ffda0d24p-56;
constexpr double kLog10eHi = 0x1.bcb7b1526e50ep-2, kLog10eLo = 0x1.95355baaafad3p-57;
constexpr double kLn10Hi = 0x1.26bb1bbb55516p+1, kLn10Lo = -0x1.f48ad494ea3e9p-53;
constexpr double kPio2Hi = 0x1.921fb54442d18p+0, kPio2Mid = 0x1.1a62633145c07p-54,
                 kPio2Lo = -0x1.f1976b7ed8fbcp-110;
constexpr double kPiHi = 0x1.921fb54442d18p+1, kPiLo = 0x1.1a62633145c07p-53;
constexpr double kTwoOverPi = 0x1.45f306dc9c883p-1;
constexpr double kSqrt2 = 0x1.6a09e667f3bcdp+0;

// ---- exp -----------------------------------------------------------------
/// e^r - 1 for |r| <= ~0.35 (Taylor series to degree 13).
SLMC_HD inline double expm1_small(double r) {
  double p = 1.0 / 6227020800.0;          // 1/13!
  p = fma_(p, r, 1.0 / 479001600.0);      // 1/12!
  p = fma_(p, r, 1.0 / 39916800.0);
  p = fma_(p, r, 1.0 / 3628800.0);
  p = fma_(p, r, 1.0 / 362880.0);
  p = fma_(p, r, 1.0 / 40320.0);
  p = fma_(p, r, 1.0 / 5040.0);
  p = fma_(p, r, 1.0 / 720.0);
  p = fma_(p, r, 1.0 / 120.0);
  p = fma_(p, r, 1.0 / 24.0);
  p = fma_(p, r, 1.0 / 6.0);
  p = fma_(p, r, 0.5);
  return fma_(r * r, p, r);
}

/// Reduces hi + lo (|lo| tiny) to r + k ln 2 with |r| <= ~0.35.
SLMC_HD inline double reduce_ln2(double hi, double lo, double &k) {
  k = rint_(hi * kLog2eHi);
  double r = fma_(-k, kLn2Hi, hi);
  return fma_(-k, kLn2Lo, r) + lo;
}

/// e^(hi + lo).
SLMC_HD inline double exp_dd(double hi, double lo) {
  if (nan_(hi)) return hi;
  if (hi > 709.79) return __builtin_inf();
  if (hi < -745.2) return 0.0;
  double k;
  double r = reduce_ln2(hi, lo, k);
  return scale(1.0 + expm1_small(r), int(k));
}

SLMC_HD inline double exp(double x) { return exp_dd(x, 0.0); }

SLMC_HD inline double expm1(double x) {
  if (nan_(x) || x == 0.0) return x;
  if (abs_(x) < 0.34) return expm1_small(x);
  if (x > 709.79) return __builtin_inf();
  if (x < -40.0) return -1.0;
  double k;
  double r = reduce_ln2(x, 0.0, k);
  double e = expm1_small(r);
  // e^x - 1 = 2^k (1 + e) - 1 = (2^k - 1) + 2^k e, exact first term.
  double p = pow2i(int(k));
  return (p - 1.0) + p * e;
}

SLMC_HD inline double exp2(double x) {
  if (nan_(x)) return x;
  if (x >= 1024.0) return __builtin_inf();
  if (x < -1075.0) return 0.0;
  double k = rint_(x);
  double f = x - k; // exact
  double hi = mul_(f, kLn2Hi);
  double lo = fma_(f, kLn2Hi, -hi) + f * kLn2Lo;
  return scale(1.0 + expm1_small(hi + lo), int(k));
}

SLMC_HD inline double exp10(double x) {
  if (nan_(x)) return x;
  double hi = mul_(x, kLn10Hi);
  double lo = fma_(x, kLn10Hi, -hi) + x * kLn10Lo;
  return exp_dd(hi, lo);
}

// ---- log -----------------------------------------------------------------
/// ln x = hi + lo for finite x > 0; also returns x = m 2^e with m in
/// [sqrt(1/2), sqrt(2)).
SLMC_HD inline double log_dd(double x, double &lo, int &e, double &m) {
  e = 0;
  if (x < 0x1p-1022) {
    x *= 0x1p54;
    e = -54;
  }
  uint64_t b = bits(x);
  e += int(b >> 52) - 1023;
  m = from_bits((b & 0x000fffffffffffffull) | 0x3ff0000000000000ull);
  if (m > kSqrt2) {
    m *= 0.5;
    e += 1;
  }
  double f = m - 1.0; // exact
  // ln m = 2 atanh(s), s = f / (2 + f) = s_hi + s_lo; 2 atanh(s) = 2s + s T(s^2)
  // with T(z) = sum 2 z^k / (2k+1), k >= 1.
  double d = 2.0 + f;
  double dlo = (2.0 - d) + f; // exact: 2 + f = d + dlo
  double sh = f / d;
  double sl = (fma_(-sh, d, f) - sh * dlo) / d;
  double z = sh * sh;
  double t = 2.0 / 23;
  t = fma_(t, z, 2.0 / 21);
  t = fma_(t, z, 2.0 / 19);
  t = fma_(t, z, 2.0 / 17);
  t = fma_(t, z, 2.0 / 15);
  t = fma_(t, z, 2.0 / 13);
  t = fma_(t, z, 2.0 / 11);
  t = fma_(t, z, 2.0 / 9);
  t = fma_(t, z, 2.0 / 7);
  t = fma_(t, z, 2.0 / 5);
  t = fma_(t, z, 2.0 / 3);
  t *= z;
  double de = double(e);
  double a = mul_(de, kLn2Hi);
  double aerr = fma_(de, kLn2Hi, -a);
  double b2 = 2.0 * sh;
  double hi = a + b2;
  double bb = hi - a;
  double serr = (a - (hi - bb)) + (b2 - bb);
  lo = serr + aerr + de * kLn2Lo + (2.0 * sl + sh * t);
  double r = hi + lo;
  lo -= r - hi;
  return r;
}

SLMC_HD inline double log(double x) {
  if (nan_(x)) return x;
  if (x < 0.0) return __builtin_nan("");
  if (x == 0.0) return -__builtin_inf();
  if (inf_(x)) return x;
  double lo, m;
  int e;
  return log_dd(x, lo, e, m);
}

/// log_b x for b = 2, 10 from ln x times log_b e, in double-double.
SLMC_HD inline double log_scaled(double x, double kHi, double kLo, bool two) {
  if (nan_(x)) return x;
  if (x < 0.0) return __builtin_nan("");
  if (x == 0.0) return -__builtin_inf();
  if (inf_(x)) return x;
  double lo, m;
  int e;
  double hi = log_dd(x, lo, e, m);
  if (two && m == 1.0) return double(e);
  double p = mul_(hi, kHi);
  double perr = fma_(hi, kHi, -p);
  return p + (perr + hi * kLo + lo * kHi);
}
SLMC_HD inline double log2(double x) { return log_scaled(x, kLog2eHi, kLog2eLo, true); }
SLMC_HD inline double log10(double x) { return log_scaled(x, kLog10eHi, kLog10eLo, false); }

SLMC_HD inline double log1p(double x) {
  if (nan_(x)) return x;
  if (x < -1.0) return __builtin_nan("");
  if (x == -1.0) return -__builtin_inf();
  if (inf_(x)) return x;
  double u = 1.0 + x;
  if (u == 1.0) return x;
  // ln(u) * x / (u - 1) corrects the rounding of 1 + x.
  return log(u) * (x / (u - 1.0));
}

// ---- pow -----------------------------------------------------------------
SLMC_HD inline bool is_integer(double y) { return rint_(y) == y; }
SLMC_HD inline bool is_odd_integer(double y) {
  return is_integer(y) && abs_(y) < 0x1p53 && rint_(y * 0.5) != y * 0.5;
}

SLMC_HD inline double pow(double x, double y) {
  if (y == 0.0 || x == 1.0) return 1.0;
  if (nan_(x) || nan_(y)) return x + y;
  if (inf_(y)) {
    double ax = abs_(x);
    if (ax == 1.0) return 1.0;
    return (ax > 1.0) == (y > 0.0) ? __builtin_inf() : 0.0;
  }
  bool odd = is_odd_integer(y);
  if (x == 0.0) {
    if (y < 0.0) return odd ? copysign_(__builtin_inf(), x) : __builtin_inf();
    return odd ? x : 0.0;
  }
  if (inf_(x)) {
    double r = y < 0.0 ? 0.0 : __builtin_inf();
    return x < 0.0 && odd ? -r : r;
  }
  double sign = 1.0;
  if (x < 0.0) {
    if (!is_integer(y)) return __builtin_nan("");
    if (odd) sign = -1.0;
    x = -x;
  }
  double lo, m;
  int e;
  double hi = log_dd(x, lo, e, m);
  double p = mul_(y, hi);
  double plo = fma_(y, hi, -p) + y * lo;
  if (p > 709.79) return sign * __builtin_inf();
  if (p < -745.2) return sign * 0.0;
  return sign * exp_dd(p, plo);
}

// ---- sin, cos, tan -------------------------------------------------------
/// Payne-Hanek reduction for |x| >= 2^30: x (2/pi) mod 4 from the bits of
/// 2/pi that matter, in 192-bit integer arithmetic. Returns r with
/// x = r + lo + (4n + q) pi/2.
SLMC_HD inline double reduce_pio2_large(double x, double &lo, int &q) {
  // Bits 1.. of the fraction of 2/pi, 64 to a word, most significant first.
  static constexpr uint64_t kTwoOverPiBits[20] = {
      0xa2f9836e4e441529ull, 0xfc2757d1f534ddc0ull, 0xdb6295993c439041ull, 0xfe5163abdebbc561ull,
      0xb7246e3a424dd2e0ull, 0x06492eea09d1921cull, 0xfe1deb1cb129a73eull, 0xe88235f52ebb4484ull,
      0xe99c7026b45f7e41ull, 0x3991d639835339f4ull, 0x9c845f8bbdf9283bull, 0x1ff897ffde05980full,
      0xef2f118b5a0a6d1full, 0x6d367ecf27cb09b7ull, 0x4f463f669e5fea2dull, 0x7527bac7ebe5f17bull,
      0x3d0739f78a5292eaull, 0x6bfb5fb11f8d5d08ull, 0x56033046fc7b6babull, 0xf0cfbc209af4361dull};
  typedef unsigned __int128 u128;
  const uint64_t b = bits(x);
  const int E = int((b >> 52) & 0x7ff) - 1075; // x = M 2^E
  const uint64_t M = (b & 0x000fffffffffffffull) | 0x0010000000000000ull;
  // Bits of 2/pi before position s only add multiples of 4 to x (2/pi).
  const int s = E >= 2 ? E - 1 : 1;
  const int w = (s - 1) / 64, o = (s - 1) % 64;
  auto word = [&](int i) -> uint64_t {
    return o ? (kTwoOverPiBits[i] << o) | (kTwoOverPiBits[i + 1] >> (64 - o))
             : kTwoOverPiBits[i];
  };
  const uint64_t w2 = word(w), w1 = word(w + 1), w0 = word(w + 2);
  // P = M * (w2 w1 w0), 256 bits.
  u128 t = u128(M) * w0;
  uint64_t p0 = uint64_t(t);
  t = u128(M) * w1 + uint64_t(t >> 64);
  uint64_t p1 = uint64_t(t);
  t = u128(M) * w2 + uint64_t(t >> 64);
  uint64_t p2 = uint64_t(t), p3 = uint64_t(t >> 64);
  // Q = x (2/pi) mod 4 as a 192-bit fixed-point number with 2 integer bits.
  const int sh = E >= 2 ? 0 : 2 - E;
  uint64_t q0 = p0, q1 = p1, q2 = p2;
  if (sh) {
    q0 = (p0 >> sh) | (p1 << (64 - sh));
    q1 = (p1 >> sh) | (p2 << (64 - sh));
    q2 = (p2 >> sh) | (p3 << (64 - sh));
  }
  int quadrant = int(q2 >> 62);
  q2 &= 0x3fffffffffffffffull;
  bool negative = false;
  if (q2 >> 61) { // fraction >= 1/2: round the quadrant up
    quadrant += 1;
    negative = true;
    q0 = ~q0;
    q1 = ~q1;
    q2 = ~q2 & 0x3fffffffffffffffull;
    if (++q0 == 0 && ++q1 == 0) ++q2;
  }
  q = quadrant & 3;
  // Normalise the 190-bit fraction and take its leading 128 bits.
  int shift = 0;
  while (q2 == 0 && shift < 128) {
    q2 = q1;
    q1 = q0;
    q0 = 0;
    shift += 64;
  }
  if (q2 == 0) {
    lo = 0.0;
    return negative ? -0.0 : 0.0;
  }
  const int lz = __builtin_clzll(q2);
  if (lz) {
    q2 = (q2 << lz) | (q1 >> (64 - lz));
    q1 = (q1 << lz) | (q0 >> (64 - lz));
  }
  shift += lz;
  // fraction = (q2 + q1 2^-64) 2^(-62 - shift) (with 2 integer bits dropped).
  const double hi_part = double(q2 >> 11) * 0x1p11;
  const double lo_part = double(q2 & 0x7ff) + double(q1) * 0x1p-64;
  const double fh = scale(hi_part, -62 - shift), fl = scale(lo_part, -62 - shift);
  // r = fraction * pi/2, in double-double.
  double rh = mul_(fh, kPio2Hi);
  double rl = fma_(fh, kPio2Hi, -rh) + (fh * kPio2Mid + fl * kPio2Hi);
  double r = rh + rl;
  lo = rl - (r - rh);
  if (negative) {
    r = -r;
    lo = -lo;
  }
  return r;
}

/// x = r + lo + q pi/2 with |r| <= ~pi/4; q in 0..3.
SLMC_HD inline double reduce_pio2(double x, double &lo, int &q) {
  if (abs_(x) <= 0.785398163397448) {
    lo = 0.0;
    q = 0;
    return x;
  }
  if (abs_(x) >= 0x1p30) {
    double r = reduce_pio2_large(abs_(x), lo, q);
    if (x < 0.0) { // sin/cos of -x: reduce |x|, then negate r (q -> -q mod 4)
      r = -r;
      lo = -lo;
      q = (4 - q) & 3;
    }
    return r;
  }
  double k = rint_(x * kTwoOverPi);
  double r1 = fma_(-k, kPio2Hi, x); // exact
  double t = mul_(k, kPio2Mid);
  double terr = fma_(k, kPio2Mid, -t);
  double r2 = r1 - t;
  double bb = r1 - r2;
  double serr = (r1 - (r2 + bb)) + (bb - t);
  double l = serr - terr - k * kPio2Lo;
  double r = r2 + l;
  lo = l - (r - r2);
  double k4 = k - 4.0 * floor_(k * 0.25);
  q = int(k4);
  return r;
}

SLMC_HD inline double sin_poly(double r, double lo) {
  double z = r * r;
  double s = -1.0 / 121645100408832000.0;  // -1/19!
  s = fma_(s, z, 1.0 / 355687428096000.0); //  1/17!
  s = fma_(s, z, -1.0 / 1307674368000.0);
  s = fma_(s, z, 1.0 / 6227020800.0);
  s = fma_(s, z, -1.0 / 39916800.0);
  s = fma_(s, z, 1.0 / 362880.0);
  s = fma_(s, z, -1.0 / 5040.0);
  s = fma_(s, z, 1.0 / 120.0);
  s = fma_(s, z, -1.0 / 6.0);
  return r + (r * z * s + lo * (1.0 - 0.5 * z));
}

SLMC_HD inline double cos_poly(double r, double lo) {
  double z = r * r;
  double c = 1.0 / 2432902008176640000.0;  // 1/20!
  c = fma_(c, z, -1.0 / 6402373705728000.0); // -1/18!
  c = fma_(c, z, 1.0 / 20922789888000.0);
  c = fma_(c, z, -1.0 / 87178291200.0);
  c = fma_(c, z, 1.0 / 479001600.0);
  c = fma_(c, z, -1.0 / 3628800.0);
  c = fma_(c, z, 1.0 / 40320.0);
  c = fma_(c, z, -1.0 / 720.0);
  c = fma_(c, z, 1.0 / 24.0);
  double hz = 0.5 * z;
  double w = 1.0 - hz;
  return w + (((1.0 - w) - hz) + (z * z * c - r * lo));
}

SLMC_HD inline void sincos(double x, double &s, double &c) {
  if (nan_(x) || inf_(x)) {
    s = c = __builtin_nan("");
    return;
  }
  if (x == 0.0) {
    s = x; // keeps the sign of zero
    c = 1.0;
    return;
  }
  double lo;
  int q;
  double r = reduce_pio2(x, lo, q);
  double sr = sin_poly(r, lo), cr = cos_poly(r, lo);
  switch (q) {
  case 0: s = sr; c = cr; break;
  case 1: s = cr; c = -sr; break;
  case 2: s = -sr; c = -cr; break;
  default: s = -cr; c = sr; break;
  }
}
SLMC_HD inline double sin(double x) {
  double s, c;
  sincos(x, s, c);
  return s;
}
SLMC_HD inline double cos(double x) {
  double s, c;
  sincos(x, s, c);
  return c;
}
SLMC_HD inline double tan(double x) {
  if (nan_(x) || inf_(x)) return __builtin_nan("");
  if (x == 0.0) return x;
  double lo;
  int q;
  double r = reduce_pio2(x, lo, q);
  double sr = sin_poly(r, lo), cr = cos_poly(r, lo);
  return (q & 1) ? -cr / sr : sr / cr;
}

// ---- atan, atan2, asin, acos ----------------------------------------------
/// atan(k/8) for k = 0..8, as hi + lo.
SLMC_HD inline void atan_table(int k, double &hi, double &lo) {
  switch (k) {
  case 0: hi = 0.0; lo = 0.0; break;
  case 1: hi = 0x1.fd5ba9aac2f6ep-4; lo = -0x1.cd37686760c17p-59; break;
  case 2: hi = 0x1.f5b75f92c80ddp-3; lo = 0x1.8ab6e3cf7afbdp-57; break;
  case 3: hi = 0x1.6f61941e4def1p-2; lo = -0x1.c63aae6f6e918p-56; break;
  case 4: hi = 0x1.dac670561bb4fp-2; lo = 0x1.a2b7f222f65e2p-56; break;
  case 5: hi = 0x1.1e00babdefeb4p-1; lo = -0x1.928df287a668fp-58; break;
  case 6: hi = 0x1.4978fa3269ee1p-1; lo = 0x1.2419a87f2a458p-56; break;
  case 7: hi = 0x1.700a7c5784634p-1; lo = -0x1.8c34d25aadef6p-56; break;
  default: hi = 0x1.921fb54442d18p-1; lo = 0x1.1a62633145c07p-55; break;
  }
}

/// atan(t) for t in [0, 1], as hi + lo.
SLMC_HD inline double atan_unit(double t, double &lo) {
  int k = int(rint_(t * 8.0));
  double c = k * 0.125;
  double u = k ? (t - c) / fma_(t, c, 1.0) : t; // |u| <= 1/16
  double z = u * u;
  double p = 1.0 / 17;
  p = fma_(p, -z, 1.0 / 15);
  p = fma_(p, -z, 1.0 / 13);
  p = fma_(p, -z, 1.0 / 11);
  p = fma_(p, -z, 1.0 / 9);
  p = fma_(p, -z, 1.0 / 7);
  p = fma_(p, -z, 1.0 / 5);
  p = fma_(p, -z, 1.0 / 3);
  double au = u - u * z * p; // atan(u)
  double hi, tlo;
  atan_table(k, hi, tlo);
  double r = hi + (tlo + au);
  lo = (hi - r) + (tlo + au);
  return r;
}

/// atan(a) = hi + lo for a >= 0 (a may be +inf).
SLMC_HD inline double atan_pos(double a, double &lo) {
  if (a <= 1.0) return atan_unit(a, lo);
  double l;
  double r = atan_unit(1.0 / a, l);
  double h = kPio2Hi - r;
  lo = ((kPio2Hi - h) - r) + (kPio2Mid - l);
  double s = h + lo;
  lo -= s - h;
  return s;
}

SLMC_HD inline double atan(double x) {
  if (nan_(x)) return x;
  double lo;
  return copysign_(atan_pos(abs_(x), lo), x);
}

SLMC_HD inline double atan2(double y, double x) {
  if (nan_(x) || nan_(y)) return x + y;
  double ay = abs_(y), ax = abs_(x);
  bool xneg = bits(x) >> 63;
  double a;
  if (ay == 0.0) {
    a = xneg ? kPiHi : 0.0;
  } else if (ax == 0.0) {
    a = kPio2Hi;
  } else if (inf_(ax)) {
    if (inf_(ay)) a = xneg ? 3.0 * 0.785398163397448310 : 0.785398163397448310;
    else a = xneg ? kPiHi : 0.0;
  } else if (inf_(ay)) {
    a = kPio2Hi;
  } else {
    double lo;
    double r = atan_pos(ay / ax, lo);
    a = xneg ? (kPiHi - r) + (kPiLo - lo) : r;
  }
  return copysign_(a, y);
}

SLMC_HD inline double asin(double x) {
  if (nan_(x)) return x;
  if (abs_(x) > 1.0) return __builtin_nan("");
  return atan2(x, __builtin_sqrt((1.0 - x) * (1.0 + x)));
}
SLMC_HD inline double acos(double x) {
  if (nan_(x)) return x;
  if (abs_(x) > 1.0) return __builtin_nan("");
  return atan2(__builtin_sqrt((1.0 - x) * (1.0 + x)), x);
}

// ---- Hyperbolic ------------------------------------------------------------
SLMC_HD inline double sinh(double x) {
  if (nan_(x) || inf_(x)) return x;
  double a = abs_(x);
  double r;
  if (a < 1.0) {
    double e = expm1(a);
    r = 0.5 * (e + e / (e + 1.0));
  } else if (a < 709.0) {
    double e = exp(a);
    r = 0.5 * (e - 1.0 / e);
  } else {
    double e = exp(0.5 * a);
    r = (0.5 * e) * e;
  }
  return copysign_(r, x);
}
SLMC_HD inline double cosh(double x) {
  if (nan_(x)) return x;
  double a = abs_(x);
  if (a < 709.0) {
    double e = exp(a);
    return 0.5 * (e + 1.0 / e);
  }
  double e = exp(0.5 * a);
  return (0.5 * e) * e;
}
SLMC_HD inline double tanh(double x) {
  if (nan_(x)) return x;
  double a = abs_(x);
  if (a > 22.0) return copysign_(1.0, x);
  double e = expm1(2.0 * a);
  return copysign_(e / (e + 2.0), x);
}

// ---- Inverse hyperbolic ------------------------------------------------------
SLMC_HD inline double asinh(double x) {
  if (nan_(x) || inf_(x) || x == 0.0) return x;
  double a = abs_(x), r;
  if (a > 0x1p28) // sqrt(a^2 + 1) is a
    r = log(a) + kLn2Hi;
  else if (a > 2.0) // a + sqrt(a^2 + 1) = 2a + 1 / (a + sqrt(a^2 + 1))
    r = log(2.0 * a + 1.0 / (a + __builtin_sqrt(fma_(a, a, 1.0))));
  else // 1 + a + (sqrt(1 + a^2) - 1)
    r = log1p(a + a * a / (1.0 + __builtin_sqrt(fma_(a, a, 1.0))));
  return copysign_(r, x);
}
SLMC_HD inline double acosh(double x) {
  if (nan_(x)) return x;
  if (x < 1.0) return __builtin_nan("");
  if (inf_(x)) return x;
  if (x > 0x1p28) return log(x) + kLn2Hi;
  if (x > 2.0) // x + sqrt(x^2 - 1) = 2x - 1 / (x + sqrt(x^2 - 1))
    return log(2.0 * x - 1.0 / (x + __builtin_sqrt(fma_(x, x, -1.0))));
  double t = x - 1.0; // exact
  return log1p(t + __builtin_sqrt(fma_(t, t, 2.0 * t)));
}
SLMC_HD inline double atanh(double x) {
  if (nan_(x)) return x;
  double a = abs_(x);
  if (a > 1.0) return __builtin_nan("");
  if (a == 1.0) return copysign_(__builtin_inf(), x);
  // atanh a = log1p(2a / (1 - a)) / 2, and 2a / (1 - a) = 2a + 2a^2 / (1 - a).
  double r = a < 0.5 ? 0.5 * log1p(2.0 * a + 2.0 * a * a / (1.0 - a))
                     : 0.5 * log1p(2.0 * a / (1.0 - a));
  return copysign_(r, x);
}

// ---- sin(pi x), cos(pi x), tan(pi x) ---------------------------------------
/// x = 2k + q/2 + f exactly, |f| <= 1/4 (finite x); returns f and q mod 4,
/// with pi f = hi + lo.
SLMC_HD inline double reduce_half(double x, int &q, double &lo) {
  double r = x - 2.0 * rint_(0.5 * x); // in [-1, 1], exact
  double h = rint_(2.0 * r);
  double f = r - 0.5 * h; // exact
  q = (int(h) + 4) & 3;
  double hi = mul_(f, kPiHi);
  lo = fma_(f, kPiHi, -hi) + f * kPiLo;
  return hi;
}
SLMC_HD inline double sinpi(double x) {
  if (nan_(x) || inf_(x)) return __builtin_nan("");
  if (rint_(x) == x) return copysign_(0.0, x); // whole numbers (every |x| >= 2^52)
  int q;
  double lo, t = reduce_half(x, q, lo);
  switch (q) {
  case 0: return sin_poly(t, lo);
  case 1: return cos_poly(t, lo);
  case 2: return -sin_poly(t, lo);
  default: return -cos_poly(t, lo);
  }
}
SLMC_HD inline double cospi(double x) {
  if (nan_(x) || inf_(x)) return __builtin_nan("");
  int q;
  double lo, t = reduce_half(abs_(x), q, lo);
  if (t == 0.0 && (q & 1)) return 0.0; // halves
  switch (q) {
  case 0: return cos_poly(t, lo);
  case 1: return -sin_poly(t, lo);
  case 2: return -cos_poly(t, lo);
  default: return sin_poly(t, lo);
  }
}
SLMC_HD inline double tanpi(double x) {
  if (nan_(x) || inf_(x)) return __builtin_nan("");
  double r = x - rint_(x); // in [-1/2, 1/2], exact; the period is 1
  if (r == 0.0) return copysign_(0.0, x);
  if (abs_(r) == 0.5) return copysign_(__builtin_inf(), r);
  int q;
  double lo, t = reduce_half(r, q, lo);
  double s = sin_poly(t, lo), c = cos_poly(t, lo);
  return (q & 1) ? -c / s : s / c;
}

// ---- Exponents, neighbours, remainders -------------------------------------
constexpr int kIlogb0 = -2147483647 - 1, kIlogbNan = -2147483647 - 1; // glibc's
SLMC_HD inline int ilogb(double x) {
  if (nan_(x)) return kIlogbNan;
  if (x == 0.0) return kIlogb0;
  if (inf_(x)) return 2147483647;
  int e = 0;
  if (abs_(x) < 0x1p-1022) {
    x *= 0x1p54;
    e = -54;
  }
  return e + int((bits(x) >> 52) & 0x7ff) - 1023;
}
SLMC_HD inline double logb(double x) {
  if (nan_(x)) return x;
  if (x == 0.0) return -__builtin_inf();
  if (inf_(x)) return abs_(x);
  return double(ilogb(x));
}
SLMC_HD inline double nextafter(double x, double y) {
  if (nan_(x) || nan_(y)) return x + y;
  if (x == y) return y;
  if (x == 0.0) return copysign_(from_bits(1), y);
  uint64_t b = bits(x);
  // Away from zero when y is farther out on x's side.
  b += ((x < y) == (x > 0.0)) ? 1 : uint64_t(-1);
  return from_bits(b);
}
/// x - n y with n the whole number nearest x / y (ties to even), exact; the
/// low three bits of n, with the sign of x / y, in `quo`.
SLMC_HD inline double remquo(double x, double y, int *quo) {
  *quo = 0;
  if (nan_(x) || nan_(y) || inf_(x) || y == 0.0) return __builtin_nan("");
  double ay = abs_(y), a = abs_(x);
  if (!inf_(8.0 * ay) && !inf_(y)) // a mod 8|y|, exactly
    a = __builtin_fmod(a, 8.0 * ay);
  int k = 0;
  // The quotient's bits 2, 1, 0; each subtraction is exact (Sterbenz: the
  // operands are within a factor 2).
  for (int bit = 2; bit >= 0; --bit) {
    double step = ay * double(1 << bit);
    k *= 2;
    if (!inf_(step) && a >= step) {
      a -= step;
      k += 1;
    }
  }
  // Now a < |y|: round the quotient to the nearest, ties to even.
  bool up = ay < 0x1p-1021 ? (a + a > ay || (a + a == ay && (k & 1)))
                           : (a > 0.5 * ay || (a == 0.5 * ay && (k & 1)));
  if (up) {
    a -= ay;
    ++k;
  }
  k &= 7;
  *quo = ((x < 0.0) != (y < 0.0)) ? -k : k;
  return bits(x) >> 63 ? -a : a; // (a zero has the sign of x)
}
SLMC_HD inline double remainder(double x, double y) {
  int q;
  return remquo(x, y, &q);
}

// ---- Others ----------------------------------------------------------------
SLMC_HD inline double cbrt(double x) {
  if (nan_(x) || inf_(x) || x == 0.0) return x;
  double a = abs_(x);
  double post = 1.0;
  if (a < 0x1p-1022) { // keep y^3 - a exact enough below
    a *= 0x1p54;
    post = 0x1p-18;
  }
  double lo, m;
  int e;
  double l = log_dd(a, lo, e, m);
  double y = exp_dd(l / 3.0, lo / 3.0);
  y = y - (y * y * y - a) / (3.0 * y * y);
  return copysign_(y * post, x);
}

SLMC_HD inline double hypot(double x, double y) {
  double a = abs_(x), b = abs_(y);
  if (inf_(a) || inf_(b)) return __builtin_inf();
  if (nan_(a) || nan_(b)) return a + b;
  if (a < b) {
    double t = a;
    a = b;
    b = t;
  }
  if (a == 0.0) return 0.0;
  double r = b / a;
  return a * __builtin_sqrt(fma_(r, r, 1.0));
}

SLMC_HD inline double frexp(double x, int *exp) {
  *exp = 0;
  if (x == 0.0 || nan_(x) || inf_(x)) return x;
  int e = 0;
  if (abs_(x) < 0x1p-1022) {
    x *= 0x1p54;
    e = -54;
  }
  uint64_t b = bits(x);
  *exp = e + int((b >> 52) & 0x7ff) - 1022;
  return from_bits((b & 0x800fffffffffffffull) | 0x3fe0000000000000ull);
}

SLMC_HD inline double ldexp(double x, int e) {
  if (x == 0.0 || nan_(x) || inf_(x)) return x;
  if (e > 2200) e = 2200;
  if (e < -2200) e = -2200;
  return scale(x, e);
}

SLMC_HD inline double modf(double x, double *ip) {
  double t = __builtin_trunc(x);
  *ip = t;
  return inf_(x) ? copysign_(0.0, x) : copysign_(x - t, x);
}

// Float forms of frexp, ldexp and modf, without doubles (Gen12 has none).
SLMC_HD inline float pow2f(int k) { return __builtin_bit_cast(float, uint32_t(k + 127) << 23); }
SLMC_HD inline float frexpf(float x, int *exp) {
  *exp = 0;
  if (x == 0.0f || x != x || __builtin_isinf(x)) return x;
  int e = 0;
  if (__builtin_fabsf(x) < 0x1p-126f) {
    x *= 0x1p25f;
    e = -25;
  }
  uint32_t b = __builtin_bit_cast(uint32_t, x);
  *exp = e + int((b >> 23) & 0xff) - 126;
  return __builtin_bit_cast(float, (b & 0x807fffffu) | 0x3f000000u);
}
SLMC_HD inline float ldexpf(float x, int e) {
  if (x == 0.0f || x != x || __builtin_isinf(x)) return x;
  if (e > 300) e = 300;
  if (e < -300) e = -300;
  while (e > 127) {
    x *= pow2f(127);
    e -= 127;
    if (__builtin_isinf(x)) return x;
  }
  while (e < -126) {
    if (e + 126 >= -126) {
      x *= pow2f(e + 126);
      e = -126;
    } else {
      x *= pow2f(-126);
      e += 126;
    }
  }
  return x * pow2f(e);
}
SLMC_HD inline float modff(float x, float *ip) {
  float t = __builtin_truncf(x);
  *ip = t;
  return __builtin_isinf(x) ? __builtin_copysignf(0.0f, x) : __builtin_copysignf(x - t, x);
}

} // namespace soft
} // namespace slmc

#if defined(__clang__)
#pragma float_control(pop)
#endif

#endif // SLMC_DETAIL_SOFT_MATH_H
