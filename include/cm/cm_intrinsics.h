//===- cm/cm_intrinsics.h - CM math, reductions and saturation ------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Every function takes scalars or CM objects (vector, matrix and their
// references) and works element by element; results of objects are
// vectors (matrices for matrix arguments). Where CM takes the result type as
// a template argument (cm_sum<float>(v), cm_max<int>(a, b)) so does this.
//
// Math follows CM's extended math unit: cm_exp is 2^x and cm_log is log2(x);
// cm_sin/cm_cos take radians. Single precision. Per pass:
//   SPIR-V  OpenCL.std instructions (through clang builtins, rsqrt directly)
//   PTX     native instructions only (sqrt.rn, rsqrt/ex2/lg2/sin/cos.approx)
//           so no libdevice is needed
//   host    the C library
//
// Saturation: functions taking `sat` clamp to [0, 1] for floating results
// and to the result type's range for integers when it is SAT. Integer
// arithmetic is exact before that (as the hardware computes it): cm_add,
// cm_mul, cm_mad, cm_avg, cm_shl and cm_abs work in a type wide enough for
// every result, so cm_add<uint>(0xFFFFFFFF, 1, SAT) is 0xFFFFFFFF and
// without SAT the low bits are kept (the wrapped result). A conversion with
// saturation is cm_add<T>(x, 0, SAT) (floating to integer: rounding toward
// zero, NaN to 0), or cm_rndd/rndu/rndz/rnde<T>(x, SAT).
//
// Bit functions (integers only): cm_shl (left), cm_shr (logical right),
// cm_asr (arithmetic right), with the shift count taken modulo the bit
// width of a 32-bit (64-bit) type; cm_cbit (set bits), cm_fbl (lowest set
// bit), cm_fbh (for unsigned: leading zeros; for signed: the first bit from
// the top that differs from the sign) with 0xFFFFFFFF when there is none;
// cm_pack_mask(v) (bit i = lowest bit of v[i], at most 32 elements) and
// cm_unpack_mask<T, N>(bits).
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_CM_INTRINSICS_H
#define SLMC_CM_INTRINSICS_H

#include "cm/cm_vector.h"

#include <limits>

/// Saturation flag of CM's arithmetic functions.
#define SAT 1

#if defined(SLMC_PASS_SPIRV)
SLMC_DEVICE_ONLY float __spirv_ocl_rsqrt(float);
#endif

namespace slmc {
namespace cm {
namespace detail {

// ---- Scalar math per pass ------------------------------------------------
// Square roots are the compiler's intrinsic (SLMC_SQRT), never sqrtf.
SLMC_CM_FN inline float m_sqrt(float x) { return SLMC_SQRT(x); }

SLMC_CM_FN inline float m_rsqrt(float x) {
#if defined(SLMC_PASS_PTX)
  return __nvvm_rsqrt_approx_f(x);
#elif defined(SLMC_PASS_SPIRV)
  return __spirv_ocl_rsqrt(x);
#else
  return 1.0f / SLMC_SQRT(x);
#endif
}

SLMC_CM_FN inline float m_inv(float x) { return 1.0f / x; }

SLMC_CM_FN inline float m_exp2(float x) {
#if defined(SLMC_PASS_PTX)
  return __nvvm_ex2_approx_f(x);
#else
  return __builtin_exp2f(x);
#endif
}

SLMC_CM_FN inline float m_log2(float x) {
#if defined(SLMC_PASS_PTX)
  return __nvvm_lg2_approx_f(x);
#else
  return __builtin_log2f(x);
#endif
}

SLMC_CM_FN inline float m_pow(float x, float y) {
#if defined(SLMC_PASS_PTX)
  // x^y = 2^(y log2 x), as the math unit computes it (x > 0).
  return __nvvm_ex2_approx_f(y * __nvvm_lg2_approx_f(x));
#else
  return __builtin_powf(x, y);
#endif
}

SLMC_CM_FN inline float m_sin(float x) {
#if defined(SLMC_PASS_PTX)
  return __nvvm_sin_approx_f(x);
#else
  return __builtin_sinf(x);
#endif
}

SLMC_CM_FN inline float m_cos(float x) {
#if defined(SLMC_PASS_PTX)
  return __nvvm_cos_approx_f(x);
#else
  return __builtin_cosf(x);
#endif
}

// ---- Saturation --------------------------------------------------------------
/// `v` converted to R, clamped to [0, 1] (floating R) or to R's range.
template <class R, class V> SLMC_CM_FN inline R saturate(V v) {
  if constexpr (std::is_floating_point<R>::value) {
    // NaN goes to 0, as the hardware saturates.
    R r = R(v);
    return !(r == r) || r < R(0) ? R(0) : r > R(1) ? R(1) : r;
  } else if constexpr (std::is_floating_point<V>::value) {
    // NaN goes to 0.
    if (!(v == v))
      return R(0);
    if (v <= V(std::numeric_limits<R>::min()))
      return std::numeric_limits<R>::min();
    if (v >= V(std::numeric_limits<R>::max()))
      return std::numeric_limits<R>::max();
    return R(v);
  } else {
    typedef typename std::conditional<std::is_signed<V>::value, long long,
                                      unsigned long long>::type W;
    W w = W(v);
    if (std::is_signed<V>::value && !std::is_signed<R>::value && (long long)w < 0)
      return R(0);
    if (w > W(std::numeric_limits<R>::max()))
      return std::numeric_limits<R>::max();
    if (std::is_signed<V>::value && std::is_signed<R>::value &&
        (long long)w < (long long)std::numeric_limits<R>::min())
      return std::numeric_limits<R>::min();
    return R(v);
  }
}

template <class R, class V> SLMC_CM_FN inline R convert(V v, int sat) {
  return sat ? saturate<R>(v) : R(v);
}

/// The result of applying an element-wise function to `x`: R or an object of
/// R with x's shape.
template <class X, class R, bool = is_object<X>> struct map_result {
  typedef typename result_object<X, X, R>::type type;
};
template <class X, class R> struct map_result<X, R, false> { typedef R type; };

template <class R, class X, class F>
SLMC_CM_FN inline typename map_result<X, R>::type map(const X &x, F f) {
  if constexpr (is_object<X>) {
    typename map_result<X, R>::type r;
    SLMC_CM_ELEMENTS
    for (int i = 0; i < r.n_elems(); ++i)
      r.at(i) = f(x.get(i));
    return r;
  } else {
    return f(x);
  }
}

template <class X, class Y, class R,
          bool = is_object<X> || is_object<Y>>
struct zip_result {
  typedef typename result_object<X, Y, R>::type type;
};
template <class X, class Y, class R> struct zip_result<X, Y, R, false> {
  typedef R type;
};

template <class R, class X, class Y, class F>
SLMC_CM_FN inline typename zip_result<X, Y, R>::type zip(const X &x, const Y &y, F f) {
  static_assert(!is_object<X> || !is_object<Y> ||
                    size_of<X>::value == size_of<Y>::value,
                "operands of different sizes");
  if constexpr (is_object<X> || is_object<Y>) {
    typename zip_result<X, Y, R>::type r;
    SLMC_CM_ELEMENTS
    for (int i = 0; i < r.n_elems(); ++i)
      r.at(i) = f(elem(x, i), elem(y, i));
    return r;
  } else {
    return f(x, y);
  }
}

/// The type integer arithmetic on elements of A and B is exact in (Narrow:
/// both at most this many bytes fit an int); floating types stay as C++
/// computes them.
template <class A, class B, int Narrow> struct wide {
  typedef decltype(std::declval<A>() + std::declval<B>()) cpp;
  static constexpr bool ints =
      std::is_integral<A>::value && std::is_integral<B>::value;
  typedef typename std::conditional<
      !ints, cpp,
      typename std::conditional<
          sizeof(A) <= Narrow && sizeof(B) <= Narrow, int,
          typename std::conditional<std::is_unsigned<A>::value &&
                                        std::is_unsigned<B>::value,
                                    unsigned long long, long long>::type>::type>::type
      type;
};

template <class X, class Y, class Z, class R> struct zip3_result {
  typedef typename zip_result<X, typename zip_result<Y, Z, R>::type, R>::type type;
};

template <class R, class X, class Y, class Z, class F>
SLMC_CM_FN inline typename zip3_result<X, Y, Z, R>::type zip3(const X &x, const Y &y,
                                                          const Z &z, F f) {
  constexpr int NX = size_of<X>::value, NY = size_of<Y>::value, NZ = size_of<Z>::value;
  static_assert((!is_object<X> || !is_object<Y> || NX == NY) &&
                    (!is_object<X> || !is_object<Z> || NX == NZ) &&
                    (!is_object<Y> || !is_object<Z> || NY == NZ),
                "operands of different sizes");
  if constexpr (is_object<X> || is_object<Y> || is_object<Z>) {
    typename zip3_result<X, Y, Z, R>::type r;
    SLMC_CM_ELEMENTS
    for (int i = 0; i < r.n_elems(); ++i)
      r.at(i) = f(elem(x, i), elem(y, i), elem(z, i));
    return r;
  } else {
    return f(x, y, z);
  }
}

/// The bits of an integer element as its unsigned type.
/// (Non-integers map to unsigned, so that a rejected call reports only its
/// static_assert.)
template <class E, bool Signed> struct int_of {
  typedef typename std::conditional<
      std::is_integral<E>::value,
      typename std::conditional<Signed, std::make_signed<E>, std::make_unsigned<E>>::type,
      std::common_type<unsigned>>::type::type type;
};
template <class E> SLMC_CM_FN inline typename int_of<E, false>::type ubits(E v) {
  return typename int_of<E, false>::type(v);
}

/// A shift count as the hardware takes it: modulo 32 (64 for 64-bit types).
template <class E, class N> SLMC_CM_FN inline int shift_count(N n) {
  return int((unsigned long long)n & (sizeof(E) == 8 ? 63u : 31u));
}

/// Picks the result type: R, or the element type when R is `deduce`.
struct deduce {};
template <class R, class X> struct pick {
  typedef R type;
};
template <class X> struct pick<deduce, X> {
  typedef element_t<X> type;
};
template <class R, class X> using pick_t = typename pick<R, X>::type;

/// Float unless x is double (math is single precision, as in CM).
template <class X> struct math_result {
  typedef float type;
};

} // namespace detail
} // namespace cm
} // namespace slmc

// ---- Math ------------------------------------------------------------------
#define SLMC_CM_MATH1(NAME, FN)                                                 \
  template <class X, class = typename std::enable_if<                          \
                         ::slmc::cm::detail::is_object<X> ||                   \
                         ::slmc::cm::detail::is_scalar<X>>::type>              \
  SLMC_CM_FN inline typename ::slmc::cm::detail::map_result<X, float>::type NAME( \
      const X &x, int sat = 0) {                                               \
    return ::slmc::cm::detail::map<float>(x, [sat](float v) {                  \
      return ::slmc::cm::detail::convert<float>(                               \
          ::slmc::cm::detail::FN(v), sat);                                     \
    });                                                                        \
  }                                                                            \
  /* cmc declares them `template <int SZ> vector<float, SZ> NAME(vector<float, \
     SZ>, int)`: callers may write the size (cm_sin<16>(v)). */                \
  template <int SZ, class X,                                                   \
            class = typename std::enable_if<::slmc::cm::detail::is_object<X>>::type> \
  SLMC_CM_FN inline typename ::slmc::cm::detail::map_result<X, float>::type NAME( \
      const X &x, int sat = 0) {                                               \
    static_assert(::slmc::cm::detail::size_of<X>::value == SZ,                 \
                  #NAME ": the explicit size is not the operand's");           \
    return NAME(x, sat);                                                       \
  }
SLMC_CM_MATH1(cm_sqrt, m_sqrt)
SLMC_CM_MATH1(cm_rsqrt, m_rsqrt)
SLMC_CM_MATH1(cm_inv, m_inv)
SLMC_CM_MATH1(cm_exp, m_exp2)
SLMC_CM_MATH1(cm_log, m_log2)
SLMC_CM_MATH1(cm_sin, m_sin)
SLMC_CM_MATH1(cm_cos, m_cos)
#undef SLMC_CM_MATH1

/// x^y element-wise (x > 0).
template <class X, class Y>
SLMC_CM_FN inline typename ::slmc::cm::detail::zip_result<X, Y, float>::type
cm_pow(const X &x, const Y &y, int sat = 0) {
  return ::slmc::cm::detail::zip<float>(x, y, [sat](float a, float b) {
    return ::slmc::cm::detail::convert<float>(::slmc::cm::detail::m_pow(a, b), sat);
  });
}
template <int SZ, class X, class Y>
SLMC_CM_FN inline typename ::slmc::cm::detail::zip_result<X, Y, float>::type
cm_pow(const X &x, const Y &y, int sat = 0) {
  static_assert(::slmc::cm::detail::size_of<typename ::slmc::cm::detail::zip_result<
                        X, Y, float>::type>::value == SZ,
                "cm_pow: the explicit size is not the operands'");
  return cm_pow(x, y, sat);
}

/// |x| element-wise, as R (the element type by default).
template <class R = ::slmc::cm::detail::deduce, class X>
SLMC_CM_FN inline typename ::slmc::cm::detail::map_result<
    X, ::slmc::cm::detail::pick_t<R, X>>::type
cm_abs(const X &x, int sat = 0) {
  typedef ::slmc::cm::detail::pick_t<R, X> T;
  typedef ::slmc::cm::detail::element_t<X> E;
  // Integers in a wider type, so that |INT_MIN| is exact before saturating.
  typedef typename std::conditional<std::is_integral<E>::value && sizeof(E) <= 4,
                                    long long, E>::type V;
  return ::slmc::cm::detail::map<T>(x, [sat](E e) {
    const V v = V(e);
    return ::slmc::cm::detail::convert<T>(v < V(0) ? -v : v, sat);
  });
}

// ---- Element-wise arithmetic with a result type and saturation -------------
// NARROW: operand sizes (bytes) at which int holds every exact result.
#define SLMC_CM_ARITH2(NAME, NARROW, EXPR)                                     \
  template <class R = ::slmc::cm::detail::deduce, class X, class Y>            \
  SLMC_CM_FN inline typename ::slmc::cm::detail::zip_result<                   \
      X, Y,                                                                    \
      ::slmc::cm::detail::pick_t<R, decltype(std::declval<                     \
                                                 ::slmc::cm::detail::element_t<X>>() + \
                                             std::declval<                     \
                                                 ::slmc::cm::detail::element_t<Y>>())>>::type \
  NAME(const X &x, const Y &y, int sat = 0) {                                  \
    typedef ::slmc::cm::detail::element_t<X> EX;                               \
    typedef ::slmc::cm::detail::element_t<Y> EY;                               \
    typedef decltype(std::declval<EX>() + std::declval<EY>()) W;               \
    typedef typename ::slmc::cm::detail::wide<EX, EY, NARROW>::type V;         \
    typedef ::slmc::cm::detail::pick_t<R, W> T;                                \
    return ::slmc::cm::detail::zip<T>(x, y, [sat](EX ea, EY eb) {              \
      const V a = V(ea), b = V(eb);                                            \
      return ::slmc::cm::detail::convert<T>(EXPR, sat);                        \
    });                                                                        \
  }
SLMC_CM_ARITH2(cm_add, 2, a + b)
SLMC_CM_ARITH2(cm_mul, 1, a * b)
SLMC_CM_ARITH2(cm_max, 2, a > b ? a : b)
SLMC_CM_ARITH2(cm_min, 2, a < b ? a : b)
#undef SLMC_CM_ARITH2

// ---- Integer quotient and remainder ----------------------------------------
// As cmc's: integer operands, the result in the first operand's element
// type, rounded toward zero. Computed in 64 bits, so INT_MIN / -1 does not
// trap; by zero, where cmc leaves the result to the hardware, the quotient
// is all ones and the remainder the dividend, rather than a trap on the CPU
// fallback.
namespace slmc {
namespace cm {
namespace detail {
template <class X, class Y>
using divide_result = typename zip_result<X, Y, element_t<X>>::type;
template <bool Remainder, class X, class Y>
SLMC_CM_FN inline divide_result<X, Y> divide(const X &x, const Y &y) {
  typedef element_t<X> EX;
  typedef element_t<Y> EY;
  static_assert(std::is_integral<EX>::value && std::is_integral<EY>::value,
                "cm_quot, cm_mod and cm_div take integer operands");
  return zip<EX>(x, y, [](EX ea, EY eb) {
    typedef typename std::conditional<
        std::is_unsigned<EX>::value && std::is_unsigned<EY>::value &&
            (sizeof(EX) == 8 || sizeof(EY) == 8),
        unsigned long long, long long>::type V;
    const V a = V(ea), b = V(eb);
    if (b == V(0))
      return Remainder ? EX(a) : EX(~EX(0));
    return EX(Remainder ? a % b : a / b);
  });
}
} // namespace detail
} // namespace cm
} // namespace slmc

template <class X, class Y>
SLMC_CM_FN inline ::slmc::cm::detail::divide_result<X, Y> cm_quot(const X &x, const Y &y) {
  return ::slmc::cm::detail::divide<false>(x, y);
}
template <class X, class Y>
SLMC_CM_FN inline ::slmc::cm::detail::divide_result<X, Y> cm_mod(const X &x, const Y &y) {
  return ::slmc::cm::detail::divide<true>(x, y);
}
/// The quotient, with the remainder written to `remainder` (both computed
/// before it is written, so it may be an operand).
template <class D, class X, class Y>
SLMC_CM_FN inline ::slmc::cm::detail::divide_result<X, Y> cm_div(D &&remainder, const X &x,
                                                                 const Y &y) {
  auto q = ::slmc::cm::detail::divide<false>(x, y);
  auto r = ::slmc::cm::detail::divide<true>(x, y);
  remainder = r;
  return q;
}

/// The rounded average (a + b + 1) >> 1 element-wise (integers).
template <class R = ::slmc::cm::detail::deduce, class X, class Y>
SLMC_CM_FN inline typename ::slmc::cm::detail::zip_result<
    X, Y,
    ::slmc::cm::detail::pick_t<R, decltype(std::declval<::slmc::cm::detail::element_t<X>>() +
                                           std::declval<::slmc::cm::detail::element_t<Y>>())>>::type
cm_avg(const X &x, const Y &y, int sat = 0) {
  typedef ::slmc::cm::detail::element_t<X> EX;
  typedef ::slmc::cm::detail::element_t<Y> EY;
  static_assert(std::is_integral<EX>::value && std::is_integral<EY>::value,
                "cm_avg takes integer operands");
  typedef decltype(std::declval<EX>() + std::declval<EY>()) W;
  typedef typename ::slmc::cm::detail::wide<EX, EY, 2>::type V;
  typedef ::slmc::cm::detail::pick_t<R, W> T;
  if constexpr (!(std::is_integral<EX>::value && std::is_integral<EY>::value))
    return {};
  else
    return ::slmc::cm::detail::zip<T>(x, y, [sat](EX a, EY b) {
    return ::slmc::cm::detail::convert<T>((V(a) + V(b) + V(1)) >> 1, sat);
  });
}

/// Two-wide sums of absolute differences (the operands' elements in pairs):
/// element 2i of the result is |x[2i] - y[2i]| + |x[2i+1] - y[2i+1]|, plus
/// acc[2i] for cm_sada2; element 2i + 1 is 0 (acc[2i + 1] for cm_sada2).
/// Integers, exact before the conversion to R (ushort unless given).
template <class R = ushort, class X, class Y, class A = int>
SLMC_CM_FN inline vector<R, ::slmc::cm::detail::size_of<X>::value>
cm_sada2(const X &x, const Y &y, const A &acc, int sat = 0) {
  typedef ::slmc::cm::detail::element_t<X> EX;
  typedef ::slmc::cm::detail::element_t<Y> EY;
  constexpr int N = ::slmc::cm::detail::size_of<X>::value;
  static_assert(::slmc::cm::detail::is_object<X>, "cm_sad2: the first operand is a vector or matrix");
  static_assert(N % 2 == 0, "cm_sad2: an even number of elements");
  static_assert(std::is_integral<EX>::value && std::is_integral<EY>::value,
                "cm_sad2 takes integer operands");
  static_assert(!::slmc::cm::detail::is_object<Y> || ::slmc::cm::detail::size_of<Y>::value == N,
                "cm_sad2: operands of different sizes");
  vector<R, N> r;
  SLMC_CM_ELEMENTS
  for (int i = 0; i < N; i += 2) {
    long long d0 = (long long)::slmc::cm::detail::elem(x, i) -
                   (long long)::slmc::cm::detail::elem(y, i);
    long long d1 = (long long)::slmc::cm::detail::elem(x, i + 1) -
                   (long long)::slmc::cm::detail::elem(y, i + 1);
    long long sum = (d0 < 0 ? -d0 : d0) + (d1 < 0 ? -d1 : d1);
    if constexpr (::slmc::cm::detail::is_object<A>) {
      sum += (long long)::slmc::cm::detail::elem(acc, i);
      r.at(i + 1) = ::slmc::cm::detail::convert<R>((long long)::slmc::cm::detail::elem(acc, i + 1), sat);
    } else {
      r.at(i + 1) = R(0);
    }
    r.at(i) = ::slmc::cm::detail::convert<R>(sum, sat);
  }
  return r;
}
template <class R = ushort, class X, class Y>
SLMC_CM_FN inline vector<R, ::slmc::cm::detail::size_of<X>::value>
cm_sad2(const X &x, const Y &y, int sat = 0) {
  return cm_sada2<R>(x, y, 0, sat);
}

/// a * b + c element-wise, exact before the conversion to R.
template <class R = ::slmc::cm::detail::deduce, class X, class Y, class Z>
SLMC_CM_FN inline typename ::slmc::cm::detail::zip3_result<
    X, Y, Z,
    ::slmc::cm::detail::pick_t<
        R, decltype(std::declval<::slmc::cm::detail::element_t<X>>() *
                        std::declval<::slmc::cm::detail::element_t<Y>>() +
                    std::declval<::slmc::cm::detail::element_t<Z>>())>>::type
cm_mad(const X &x, const Y &y, const Z &z, int sat = 0) {
  typedef ::slmc::cm::detail::element_t<X> EX;
  typedef ::slmc::cm::detail::element_t<Y> EY;
  typedef ::slmc::cm::detail::element_t<Z> EZ;
  typedef decltype(std::declval<EX>() * std::declval<EY>() + std::declval<EZ>()) W;
  typedef typename ::slmc::cm::detail::wide<
      typename ::slmc::cm::detail::wide<EX, EY, 1>::type, EZ, 1>::type V;
  typedef ::slmc::cm::detail::pick_t<R, W> T;
  return ::slmc::cm::detail::zip3<T>(x, y, z, [sat](EX a, EY b, EZ c) {
    return ::slmc::cm::detail::convert<T>(V(a) * V(b) + V(c), sat);
  });
}

// ---- Shifts and bits ----------------------------------------------------------
/// x << n element-wise, exact before the conversion to R.
template <class R = ::slmc::cm::detail::deduce, class X, class N>
SLMC_CM_FN inline typename ::slmc::cm::detail::zip_result<
    X, N, ::slmc::cm::detail::pick_t<R, X>>::type
cm_shl(const X &x, const N &n, int sat = 0) {
  typedef ::slmc::cm::detail::element_t<X> E;
  typedef ::slmc::cm::detail::element_t<N> EN;
  static_assert(std::is_integral<E>::value && std::is_integral<EN>::value,
                "cm_shl takes integer operands");
  typedef ::slmc::cm::detail::pick_t<R, X> T;
  if constexpr (!(std::is_integral<E>::value && std::is_integral<EN>::value))
    return {};
  else
    return ::slmc::cm::detail::zip<T>(x, n, [sat](E v, EN c) {
    const int k = ::slmc::cm::detail::shift_count<E>(c);
    const unsigned long long u = (unsigned long long)(long long)v << k;
    if constexpr (std::is_signed<E>::value)
      return ::slmc::cm::detail::convert<T>((long long)u, sat);
    else
      return ::slmc::cm::detail::convert<T>(u, sat);
  });
}

/// Logical right shift: x's bits as its unsigned type, zeros shifted in.
template <class R = ::slmc::cm::detail::deduce, class X, class N>
SLMC_CM_FN inline typename ::slmc::cm::detail::zip_result<
    X, N, ::slmc::cm::detail::pick_t<R, X>>::type
cm_shr(const X &x, const N &n, int sat = 0) {
  typedef ::slmc::cm::detail::element_t<X> E;
  typedef ::slmc::cm::detail::element_t<N> EN;
  static_assert(std::is_integral<E>::value && std::is_integral<EN>::value,
                "cm_shr takes integer operands");
  typedef ::slmc::cm::detail::pick_t<R, X> T;
  if constexpr (!(std::is_integral<E>::value && std::is_integral<EN>::value))
    return {};
  else
    return ::slmc::cm::detail::zip<T>(x, n, [sat](E v, EN c) {
    return ::slmc::cm::detail::convert<T>(
        ::slmc::cm::detail::ubits(v) >> ::slmc::cm::detail::shift_count<E>(c), sat);
  });
}

/// Arithmetic right shift: x's bits as its signed type, the sign shifted in.
template <class R = ::slmc::cm::detail::deduce, class X, class N>
SLMC_CM_FN inline typename ::slmc::cm::detail::zip_result<
    X, N, ::slmc::cm::detail::pick_t<R, X>>::type
cm_asr(const X &x, const N &n, int sat = 0) {
  typedef ::slmc::cm::detail::element_t<X> E;
  typedef ::slmc::cm::detail::element_t<N> EN;
  static_assert(std::is_integral<E>::value && std::is_integral<EN>::value,
                "cm_asr takes integer operands");
  typedef ::slmc::cm::detail::pick_t<R, X> T;
  typedef typename ::slmc::cm::detail::int_of<E, true>::type S;
  if constexpr (!(std::is_integral<E>::value && std::is_integral<EN>::value))
    return {};
  else
    return ::slmc::cm::detail::zip<T>(x, n, [sat](E v, EN c) {
    return ::slmc::cm::detail::convert<T>(S(v) >> ::slmc::cm::detail::shift_count<E>(c),
                                          sat);
  });
}

/// The number of set bits of each element.
template <class X>
SLMC_CM_FN inline typename ::slmc::cm::detail::map_result<X, uint>::type cm_cbit(const X &x) {
  typedef ::slmc::cm::detail::element_t<X> E;
  static_assert(std::is_integral<E>::value, "cm_cbit takes integers");
  if constexpr (!(std::is_integral<E>::value))
    return {};
  else
    return ::slmc::cm::detail::map<uint>(x, [](E v) {
    return uint(sizeof(E) == 8 ? __builtin_popcountll((unsigned long long)v)
                               : __builtin_popcount(uint(::slmc::cm::detail::ubits(v))));
  });
}

/// The position of the lowest set bit of each element; 0xFFFFFFFF for 0.
template <class X>
SLMC_CM_FN inline typename ::slmc::cm::detail::map_result<X, uint>::type cm_fbl(const X &x) {
  typedef ::slmc::cm::detail::element_t<X> E;
  static_assert(std::is_integral<E>::value && sizeof(E) == 4,
                "cm_fbl takes 32-bit integers");
  if constexpr (!(std::is_integral<E>::value && sizeof(E) == 4))
    return {};
  else
    return ::slmc::cm::detail::map<uint>(
      x, [](E v) { return v == 0 ? 0xFFFFFFFFu : uint(__builtin_ctz(uint(v))); });
}

/// From the top: for unsigned elements the number of leading zeros, for
/// signed ones of leading bits equal to the sign; 0xFFFFFFFF (-1) when every
/// bit is (0 and -1).
template <class X>
SLMC_CM_FN inline typename ::slmc::cm::detail::map_result<
    X, ::slmc::cm::detail::element_t<X>>::type
cm_fbh(const X &x) {
  typedef ::slmc::cm::detail::element_t<X> E;
  static_assert(std::is_integral<E>::value && sizeof(E) == 4,
                "cm_fbh takes 32-bit integers");
  if constexpr (!(std::is_integral<E>::value && sizeof(E) == 4))
    return {};
  else
    return ::slmc::cm::detail::map<E>(x, [](E v) {
    uint u = uint(v);
    if (std::is_signed<E>::value && v < 0)
      u = ~u;
    return u == 0 ? E(0xFFFFFFFFu) : E(__builtin_clz(u));
  });
}

/// The number of leading zero bits of each element, as a 32-bit value
/// (32 for 0; a narrower element is widened first, zero-extended).
template <class X>
SLMC_CM_FN inline typename ::slmc::cm::detail::map_result<X, uint>::type cm_lzd(const X &x,
                                                                              int = 0) {
  typedef ::slmc::cm::detail::element_t<X> E;
  static_assert(std::is_integral<E>::value && sizeof(E) <= 4, "cm_lzd takes integers of up to 32 bits");
  if constexpr (!(std::is_integral<E>::value && sizeof(E) <= 4))
    return {};
  else
    return ::slmc::cm::detail::map<uint>(x, [](E v) {
      const uint u = uint(::slmc::cm::detail::ubits(v));
      return u == 0 ? 32u : uint(__builtin_clz(u));
    });
}

/// The fractional part of each element: x - floor(x), in [0, 1).
template <class X, class = typename std::enable_if<::slmc::cm::detail::is_object<X> ||
                                                   ::slmc::cm::detail::is_scalar<X>>::type>
SLMC_CM_FN inline typename ::slmc::cm::detail::map_result<X, float>::type cm_frc(const X &x,
                                                                               int = 0) {
  static_assert(std::is_floating_point<::slmc::cm::detail::element_t<X>>::value,
                "cm_frc takes floating-point operands");
  return ::slmc::cm::detail::map<float>(x, [](float v) { return v - __builtin_floorf(v); });
}

// cmc declares the bit intrinsics `template <typename T, int SZ> ...
// NAME(vector<T, SZ>)`: callers may write the element type
// (cm_cbit<unsigned int>(v)), which must be the operand's.
#define SLMC_CM_EXPLICIT_ELEMENT(NAME)                                          \
  template <class T, class X,                                                  \
            class = typename std::enable_if<::slmc::cm::detail::is_object<X>>::type> \
  SLMC_CM_FN inline auto NAME(const X &x)->decltype(NAME(x)) {                 \
    static_assert(std::is_same<T, ::slmc::cm::detail::element_t<X>>::value,    \
                  #NAME ": the explicit element type is not the operand's");   \
    return NAME(x);                                                            \
  }
SLMC_CM_EXPLICIT_ELEMENT(cm_cbit)
SLMC_CM_EXPLICIT_ELEMENT(cm_fbl)
SLMC_CM_EXPLICIT_ELEMENT(cm_fbh)
#undef SLMC_CM_EXPLICIT_ELEMENT

/// Bit i is the lowest bit of element i (at most 32 elements).
template <class X, class = typename std::enable_if<::slmc::cm::detail::is_object<X>>::type>
SLMC_CM_FN inline uint cm_pack_mask(const X &x) {
  typedef ::slmc::cm::detail::element_t<X> E;
  static_assert(std::is_integral<E>::value, "cm_pack_mask takes an integer mask");
  static_assert(::slmc::cm::detail::size_of<X>::value <= 32,
                "cm_pack_mask packs at most 32 elements into a uint");
  uint r = 0;
  SLMC_CM_ELEMENTS
  for (int i = 0; i < x.n_elems(); ++i)
    r |= uint(x.get(i) & 1) << i;
  return r;
}

/// Element i is bit i of `bits` (0 or 1).
template <class T, int N> SLMC_CM_FN inline vector<T, N> cm_unpack_mask(uint bits) {
  static_assert(std::is_integral<T>::value && N <= 32,
                "cm_unpack_mask makes at most 32 integer elements");
  vector<T, N> r;
  SLMC_CM_ELEMENTS
  for (int i = 0; i < N; ++i)
    r.at(i) = T((bits >> i) & 1u);
  return r;
}

// ---- Reductions --------------------------------------------------------------
/// Sum of the elements, as R.
template <class R = ::slmc::cm::detail::deduce, class X,
          class = typename std::enable_if<::slmc::cm::detail::is_object<X>>::type>
SLMC_CM_FN inline ::slmc::cm::detail::pick_t<R, X> cm_sum(const X &x, int sat = 0) {
  typedef ::slmc::cm::detail::pick_t<R, X> T;
  typedef typename std::conditional<std::is_floating_point<T>::value, T,
                                    long long>::type W;
  W s = W(0);
  SLMC_CM_ELEMENTS
  for (int i = 0; i < x.n_elems(); ++i)
    s += W(x.get(i));
  return ::slmc::cm::detail::convert<T>(s, sat);
}

/// Product of the elements, as R.
template <class R = ::slmc::cm::detail::deduce, class X,
          class = typename std::enable_if<::slmc::cm::detail::is_object<X>>::type>
SLMC_CM_FN inline ::slmc::cm::detail::pick_t<R, X> cm_prod(const X &x, int sat = 0) {
  typedef ::slmc::cm::detail::pick_t<R, X> T;
  typedef typename std::conditional<std::is_floating_point<T>::value, T,
                                    long long>::type W;
  W p = W(1);
  SLMC_CM_ELEMENTS
  for (int i = 0; i < x.n_elems(); ++i)
    p *= W(x.get(i));
  return ::slmc::cm::detail::convert<T>(p, sat);
}

/// Largest (smallest) element, as R.
template <class R = ::slmc::cm::detail::deduce, class X,
          class = typename std::enable_if<::slmc::cm::detail::is_object<X>>::type>
SLMC_CM_FN inline ::slmc::cm::detail::pick_t<R, X> cm_reduced_max(const X &x) {
  auto m = x.get(0);
  SLMC_CM_ELEMENTS
  for (int i = 1; i < x.n_elems(); ++i)
    m = x.get(i) > m ? x.get(i) : m;
  return ::slmc::cm::detail::pick_t<R, X>(m);
}
template <class R = ::slmc::cm::detail::deduce, class X,
          class = typename std::enable_if<::slmc::cm::detail::is_object<X>>::type>
SLMC_CM_FN inline ::slmc::cm::detail::pick_t<R, X> cm_reduced_min(const X &x) {
  auto m = x.get(0);
  SLMC_CM_ELEMENTS
  for (int i = 1; i < x.n_elems(); ++i)
    m = x.get(i) < m ? x.get(i) : m;
  return ::slmc::cm::detail::pick_t<R, X>(m);
}

/// Dot products of each group of four elements; every element of a group
/// holds its group's product sum (N a multiple of 4).
template <class R = ::slmc::cm::detail::deduce, class X, class Y>
SLMC_CM_FN inline vector<::slmc::cm::detail::pick_t<R, X>,
                      ::slmc::cm::detail::size_of<X>::value>
cm_dp4(const X &x, const Y &y, int sat = 0) {
  constexpr int N = ::slmc::cm::detail::size_of<X>::value;
  static_assert(::slmc::cm::detail::is_object<X> && ::slmc::cm::detail::is_object<Y> &&
                    ::slmc::cm::detail::size_of<Y>::value == N && N % 4 == 0,
                "cm_dp4 takes two objects of the same size, a multiple of 4");
  typedef ::slmc::cm::detail::pick_t<R, X> T;
  vector<T, N> r;
  SLMC_CM_ELEMENTS
  for (int g = 0; g < N; g += 4) {
    auto s = x.get(g) * y.get(g);
    SLMC_CM_ELEMENTS
    for (int k = 1; k < 4; ++k)
      s += x.get(g + k) * y.get(g + k);
    T v = ::slmc::cm::detail::convert<T>(s, sat);
    SLMC_CM_ELEMENTS
    for (int k = 0; k < 4; ++k)
      r.at(g + k) = v;
  }
  return r;
}

// ---- Rounding ------------------------------------------------------------------
#define SLMC_CM_ROUND(NAME, BUILTIN)                                            \
  template <class R = ::slmc::cm::detail::deduce, class X>                     \
  SLMC_CM_FN inline typename ::slmc::cm::detail::map_result<                   \
      X, ::slmc::cm::detail::pick_t<R, X>>::type                               \
  NAME(const X &x, int sat = 0) {                                              \
    typedef ::slmc::cm::detail::pick_t<R, X> T;                                \
    return ::slmc::cm::detail::map<T>(x, [sat](float v) {                      \
      return ::slmc::cm::detail::convert<T>(BUILTIN(v), sat);                  \
    });                                                                        \
  }
SLMC_CM_ROUND(cm_rndd, __builtin_floorf)
SLMC_CM_ROUND(cm_rndu, __builtin_ceilf)
SLMC_CM_ROUND(cm_rndz, __builtin_truncf)
SLMC_CM_ROUND(cm_rnde, __builtin_rintf)
#undef SLMC_CM_ROUND

#endif // SLMC_CM_INTRINSICS_H
