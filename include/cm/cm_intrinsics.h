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
// and to the result type's range for integers when it is SAT.
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
SLMC_HD inline float m_sqrt(float x) { return __builtin_sqrtf(x); }

SLMC_HD inline float m_rsqrt(float x) {
#if defined(SLMC_PASS_PTX)
  return __nvvm_rsqrt_approx_f(x);
#elif defined(SLMC_PASS_SPIRV)
  return __spirv_ocl_rsqrt(x);
#else
  return 1.0f / __builtin_sqrtf(x);
#endif
}

SLMC_HD inline float m_inv(float x) { return 1.0f / x; }

SLMC_HD inline float m_exp2(float x) {
#if defined(SLMC_PASS_PTX)
  return __nvvm_ex2_approx_f(x);
#else
  return __builtin_exp2f(x);
#endif
}

SLMC_HD inline float m_log2(float x) {
#if defined(SLMC_PASS_PTX)
  return __nvvm_lg2_approx_f(x);
#else
  return __builtin_log2f(x);
#endif
}

SLMC_HD inline float m_pow(float x, float y) {
#if defined(SLMC_PASS_PTX)
  // x^y = 2^(y log2 x), as the math unit computes it (x > 0).
  return __nvvm_ex2_approx_f(y * __nvvm_lg2_approx_f(x));
#else
  return __builtin_powf(x, y);
#endif
}

SLMC_HD inline float m_sin(float x) {
#if defined(SLMC_PASS_PTX)
  return __nvvm_sin_approx_f(x);
#else
  return __builtin_sinf(x);
#endif
}

SLMC_HD inline float m_cos(float x) {
#if defined(SLMC_PASS_PTX)
  return __nvvm_cos_approx_f(x);
#else
  return __builtin_cosf(x);
#endif
}

// ---- Saturation --------------------------------------------------------------
/// `v` converted to R, clamped to [0, 1] (floating R) or to R's range.
template <class R, class V> SLMC_HD inline R saturate(V v) {
  if constexpr (std::is_floating_point<R>::value) {
    R r = R(v);
    return r < R(0) ? R(0) : r > R(1) ? R(1) : r;
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

template <class R, class V> SLMC_HD inline R convert(V v, int sat) {
  return sat ? saturate<R>(v) : R(v);
}

/// The result of applying an element-wise function to `x`: R or an object of
/// R with x's shape.
template <class X, class R, bool = is_object<X>> struct map_result {
  typedef typename result_object<X, X, R>::type type;
};
template <class X, class R> struct map_result<X, R, false> { typedef R type; };

template <class R, class X, class F>
SLMC_HD inline typename map_result<X, R>::type map(const X &x, F f) {
  if constexpr (is_object<X>) {
    typename map_result<X, R>::type r;
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
SLMC_HD inline typename zip_result<X, Y, R>::type zip(const X &x, const Y &y, F f) {
  static_assert(!is_object<X> || !is_object<Y> ||
                    size_of<X>::value == size_of<Y>::value,
                "operands of different sizes");
  if constexpr (is_object<X> || is_object<Y>) {
    typename zip_result<X, Y, R>::type r;
    for (int i = 0; i < r.n_elems(); ++i)
      r.at(i) = f(elem(x, i), elem(y, i));
    return r;
  } else {
    return f(x, y);
  }
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
  SLMC_HD inline typename ::slmc::cm::detail::map_result<X, float>::type NAME( \
      const X &x, int sat = 0) {                                               \
    return ::slmc::cm::detail::map<float>(x, [sat](float v) {                  \
      return ::slmc::cm::detail::convert<float>(                               \
          ::slmc::cm::detail::FN(v), sat);                                     \
    });                                                                        \
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
SLMC_HD inline typename ::slmc::cm::detail::zip_result<X, Y, float>::type
cm_pow(const X &x, const Y &y, int sat = 0) {
  return ::slmc::cm::detail::zip<float>(x, y, [sat](float a, float b) {
    return ::slmc::cm::detail::convert<float>(::slmc::cm::detail::m_pow(a, b), sat);
  });
}

/// |x| element-wise, as R (the element type by default).
template <class R = ::slmc::cm::detail::deduce, class X>
SLMC_HD inline typename ::slmc::cm::detail::map_result<
    X, ::slmc::cm::detail::pick_t<R, X>>::type
cm_abs(const X &x, int sat = 0) {
  typedef ::slmc::cm::detail::pick_t<R, X> T;
  typedef ::slmc::cm::detail::element_t<X> E;
  return ::slmc::cm::detail::map<T>(x, [sat](E v) {
    return ::slmc::cm::detail::convert<T>(v < E(0) ? -v : v, sat);
  });
}

// ---- Element-wise arithmetic with a result type and saturation -------------
#define SLMC_CM_ARITH2(NAME, EXPR)                                              \
  template <class R = ::slmc::cm::detail::deduce, class X, class Y>            \
  SLMC_HD inline typename ::slmc::cm::detail::zip_result<                      \
      X, Y,                                                                    \
      ::slmc::cm::detail::pick_t<R, decltype(std::declval<                     \
                                                 ::slmc::cm::detail::element_t<X>>() + \
                                             std::declval<                     \
                                                 ::slmc::cm::detail::element_t<Y>>())>>::type \
  NAME(const X &x, const Y &y, int sat = 0) {                                  \
    typedef decltype(std::declval<::slmc::cm::detail::element_t<X>>() +        \
                     std::declval<::slmc::cm::detail::element_t<Y>>()) W;      \
    typedef ::slmc::cm::detail::pick_t<R, W> T;                                \
    return ::slmc::cm::detail::zip<T>(x, y, [sat](W a, W b) {                  \
      return ::slmc::cm::detail::convert<T>(EXPR, sat);                        \
    });                                                                        \
  }
SLMC_CM_ARITH2(cm_add, a + b)
SLMC_CM_ARITH2(cm_mul, a * b)
SLMC_CM_ARITH2(cm_max, a > b ? a : b)
SLMC_CM_ARITH2(cm_min, a < b ? a : b)
#undef SLMC_CM_ARITH2

/// a * b + c element-wise.
template <class R = ::slmc::cm::detail::deduce, class X, class Y, class Z>
SLMC_HD inline auto cm_mad(const X &a, const Y &b, const Z &c, int sat = 0)
    -> decltype(cm_add<R>(cm_mul(a, b), c, sat)) {
  return cm_add<R>(cm_mul(a, b), c, sat);
}

// ---- Reductions --------------------------------------------------------------
/// Sum of the elements, as R.
template <class R = ::slmc::cm::detail::deduce, class X,
          class = typename std::enable_if<::slmc::cm::detail::is_object<X>>::type>
SLMC_HD inline ::slmc::cm::detail::pick_t<R, X> cm_sum(const X &x, int sat = 0) {
  typedef ::slmc::cm::detail::pick_t<R, X> T;
  typedef typename std::conditional<std::is_floating_point<T>::value, T,
                                    long long>::type W;
  W s = W(0);
  for (int i = 0; i < x.n_elems(); ++i)
    s += W(x.get(i));
  return ::slmc::cm::detail::convert<T>(s, sat);
}

/// Product of the elements, as R.
template <class R = ::slmc::cm::detail::deduce, class X,
          class = typename std::enable_if<::slmc::cm::detail::is_object<X>>::type>
SLMC_HD inline ::slmc::cm::detail::pick_t<R, X> cm_prod(const X &x, int sat = 0) {
  typedef ::slmc::cm::detail::pick_t<R, X> T;
  typedef typename std::conditional<std::is_floating_point<T>::value, T,
                                    long long>::type W;
  W p = W(1);
  for (int i = 0; i < x.n_elems(); ++i)
    p *= W(x.get(i));
  return ::slmc::cm::detail::convert<T>(p, sat);
}

/// Largest (smallest) element, as R.
template <class R = ::slmc::cm::detail::deduce, class X,
          class = typename std::enable_if<::slmc::cm::detail::is_object<X>>::type>
SLMC_HD inline ::slmc::cm::detail::pick_t<R, X> cm_reduced_max(const X &x) {
  auto m = x.get(0);
  for (int i = 1; i < x.n_elems(); ++i)
    m = x.get(i) > m ? x.get(i) : m;
  return ::slmc::cm::detail::pick_t<R, X>(m);
}
template <class R = ::slmc::cm::detail::deduce, class X,
          class = typename std::enable_if<::slmc::cm::detail::is_object<X>>::type>
SLMC_HD inline ::slmc::cm::detail::pick_t<R, X> cm_reduced_min(const X &x) {
  auto m = x.get(0);
  for (int i = 1; i < x.n_elems(); ++i)
    m = x.get(i) < m ? x.get(i) : m;
  return ::slmc::cm::detail::pick_t<R, X>(m);
}

/// Dot products of each group of four elements; every element of a group
/// holds its group's product sum (N a multiple of 4).
template <class R = ::slmc::cm::detail::deduce, class X, class Y>
SLMC_HD inline vector<::slmc::cm::detail::pick_t<R, X>,
                      ::slmc::cm::detail::size_of<X>::value>
cm_dp4(const X &x, const Y &y, int sat = 0) {
  constexpr int N = ::slmc::cm::detail::size_of<X>::value;
  static_assert(::slmc::cm::detail::is_object<X> && ::slmc::cm::detail::is_object<Y> &&
                    ::slmc::cm::detail::size_of<Y>::value == N && N % 4 == 0,
                "cm_dp4 takes two objects of the same size, a multiple of 4");
  typedef ::slmc::cm::detail::pick_t<R, X> T;
  vector<T, N> r;
  for (int g = 0; g < N; g += 4) {
    auto s = x.get(g) * y.get(g);
    for (int k = 1; k < 4; ++k)
      s += x.get(g + k) * y.get(g + k);
    T v = ::slmc::cm::detail::convert<T>(s, sat);
    for (int k = 0; k < 4; ++k)
      r.at(g + k) = v;
  }
  return r;
}

// ---- Rounding ------------------------------------------------------------------
#define SLMC_CM_ROUND(NAME, BUILTIN)                                            \
  template <class R = ::slmc::cm::detail::deduce, class X>                     \
  SLMC_HD inline typename ::slmc::cm::detail::map_result<                      \
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
