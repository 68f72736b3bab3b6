//===- sycl/detail/math.hpp - SYCL math built-ins usable in kernels -------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// SYCL 2020 §4.17.5-10: math, native::, half_precision::, integer, common,
// geometric and relational functions over scalars, vec, marray and swizzles.
//
// The <cmath> functions are host functions in the device passes, so each
// scalar function has one body per pass:
//   SPIR-V   OpenCL extended instructions (__spirv_ocl_*, which LLVM's
//            SPIR-V backend turns into OpExtInst), native_* for native::;
//   PTX      CUDA's libdevice (__nv_*; slmc++ links the functions a module
//            calls); without libdevice, slmc's software library
//            (slmc/detail/soft_math.h) where it has the function, and an
//            error from slmc++ naming any other function a kernel calls;
//            NVVM's approximate instructions for native::;
//   host     <cmath>, which is the CPU fallback.
// Functions with a Clang builtin the three targets lower well (fabs, sqrt,
// floor, fma ...) use it everywhere. half is computed in float and
// rounded once to half, well inside SYCL's half error bounds.
// half_precision:: is the precise float function (its error bound is far
// looser). native:: on the host and the CPU fallback is the precise function.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_SYCL_DETAIL_MATH_HPP
#define SLMC_SYCL_DETAIL_MATH_HPP

#include "sycl/detail/common.hpp"
#include "sycl/detail/half.hpp"
#include "sycl/detail/marray.hpp"
#include "sycl/detail/vec.hpp"

#include <climits>
#include <cmath>

// ---- Per-pass scalar primitives: sycl::detail::m_NAME(float/double) ---------
#if defined(SLMC_PASS_SPIRV)
#define SLMC_MATH_PRIM1(name)                                                  \
  SLMC_DEVICE_ONLY float __spirv_ocl_##name(float);                            \
  SLMC_DEVICE_ONLY double __spirv_ocl_##name(double);                          \
  namespace sycl::detail {                                                     \
  SLMC_HD inline float m_##name(float x) { return __spirv_ocl_##name(x); }     \
  SLMC_HD inline double m_##name(double x) { return __spirv_ocl_##name(x); }   \
  }
#define SLMC_MATH_PRIM2(name)                                                  \
  SLMC_DEVICE_ONLY float __spirv_ocl_##name(float, float);                     \
  SLMC_DEVICE_ONLY double __spirv_ocl_##name(double, double);                  \
  namespace sycl::detail {                                                     \
  SLMC_HD inline float m_##name(float x, float y) { return __spirv_ocl_##name(x, y); } \
  SLMC_HD inline double m_##name(double x, double y) { return __spirv_ocl_##name(x, y); } \
  }
#elif defined(SLMC_PASS_PTX)
#define SLMC_MATH_PRIM1(name)                                                  \
  extern "C" SLMC_DEVICE_ONLY float __nv_##name##f(float);                     \
  extern "C" SLMC_DEVICE_ONLY double __nv_##name(double);                      \
  namespace sycl::detail {                                                     \
  SLMC_HD inline float m_##name(float x) { return __nv_##name##f(x); }         \
  SLMC_HD inline double m_##name(double x) { return __nv_##name(x); }          \
  }
#define SLMC_MATH_PRIM2(name)                                                  \
  extern "C" SLMC_DEVICE_ONLY float __nv_##name##f(float, float);              \
  extern "C" SLMC_DEVICE_ONLY double __nv_##name(double, double);              \
  namespace sycl::detail {                                                     \
  SLMC_HD inline float m_##name(float x, float y) { return __nv_##name##f(x, y); } \
  SLMC_HD inline double m_##name(double x, double y) { return __nv_##name(x, y); } \
  }
#else
#define SLMC_MATH_PRIM1(name)                                                  \
  namespace sycl::detail {                                                     \
  SLMC_HD inline float m_##name(float x) { return std::name(x); }              \
  SLMC_HD inline double m_##name(double x) { return std::name(x); }            \
  }
#define SLMC_MATH_PRIM2(name)                                                  \
  namespace sycl::detail {                                                     \
  SLMC_HD inline float m_##name(float x, float y) { return std::name(x, y); }  \
  SLMC_HD inline double m_##name(double x, double y) { return std::name(x, y); } \
  }
#endif
// Functions the software library has: without libdevice, PTX takes them
// from it (float ones evaluate in double); everywhere else they are the
// primitives above.
#if defined(SLMC_PASS_PTX) && !defined(SLMC_HAVE_LIBDEVICE)
#include "slmc/detail/soft_math.h"
#define SLMC_MATH_SOFT1(name)                                                  \
  namespace sycl::detail {                                                     \
  SLMC_HD inline float m_##name(float x) { return float(::slmc::soft::name(double(x))); } \
  SLMC_HD inline double m_##name(double x) { return ::slmc::soft::name(x); }   \
  }
#define SLMC_MATH_SOFT2(name)                                                  \
  namespace sycl::detail {                                                     \
  SLMC_HD inline float m_##name(float x, float y) {                            \
    return float(::slmc::soft::name(double(x), double(y)));                    \
  }                                                                            \
  SLMC_HD inline double m_##name(double x, double y) { return ::slmc::soft::name(x, y); } \
  }
#else
#define SLMC_MATH_SOFT1(name) SLMC_MATH_PRIM1(name)
#define SLMC_MATH_SOFT2(name) SLMC_MATH_PRIM2(name)
#endif
// Clang builtins every target lowers to an instruction or an inline sequence.
#define SLMC_MATH_BUILTIN1(name)                                               \
  namespace sycl::detail {                                                     \
  SLMC_HD inline float m_##name(float x) { return __builtin_##name##f(x); }    \
  SLMC_HD inline double m_##name(double x) { return __builtin_##name(x); }     \
  }
#define SLMC_MATH_BUILTIN2(name)                                               \
  namespace sycl::detail {                                                     \
  SLMC_HD inline float m_##name(float x, float y) { return __builtin_##name##f(x, y); } \
  SLMC_HD inline double m_##name(double x, double y) { return __builtin_##name(x, y); } \
  }

SLMC_MATH_BUILTIN1(fabs)
// (the intrinsic, which sets no errno: SLMC_SQRT)
namespace sycl::detail {
SLMC_HD inline float m_sqrt(float x) { return SLMC_SQRT(x); }
SLMC_HD inline double m_sqrt(double x) { return SLMC_SQRT(x); }
} // namespace sycl::detail
SLMC_MATH_BUILTIN1(floor)
SLMC_MATH_BUILTIN1(ceil)
SLMC_MATH_BUILTIN1(trunc)
SLMC_MATH_BUILTIN1(rint)
SLMC_MATH_BUILTIN1(round)
SLMC_MATH_BUILTIN2(fmin)
SLMC_MATH_BUILTIN2(fmax)
SLMC_MATH_BUILTIN2(copysign)
SLMC_MATH_SOFT1(acos)
SLMC_MATH_PRIM1(acosh)
SLMC_MATH_SOFT1(asin)
SLMC_MATH_PRIM1(asinh)
SLMC_MATH_SOFT1(atan)
SLMC_MATH_PRIM1(atanh)
SLMC_MATH_SOFT1(cbrt)
SLMC_MATH_SOFT1(cos)
SLMC_MATH_SOFT1(cosh)
SLMC_MATH_PRIM1(erf)
SLMC_MATH_PRIM1(erfc)
SLMC_MATH_SOFT1(exp)
SLMC_MATH_SOFT1(exp2)
SLMC_MATH_SOFT1(expm1)
SLMC_MATH_PRIM1(lgamma)
SLMC_MATH_SOFT1(log)
SLMC_MATH_SOFT1(log10)
SLMC_MATH_SOFT1(log1p)
SLMC_MATH_SOFT1(log2)
SLMC_MATH_PRIM1(logb)
SLMC_MATH_SOFT1(sin)
SLMC_MATH_SOFT1(sinh)
SLMC_MATH_SOFT1(tan)
SLMC_MATH_SOFT1(tanh)
SLMC_MATH_PRIM1(tgamma)
SLMC_MATH_SOFT2(atan2)
SLMC_MATH_PRIM2(fdim)
SLMC_MATH_BUILTIN2(fmod)
SLMC_MATH_SOFT2(hypot)
SLMC_MATH_PRIM2(nextafter)
SLMC_MATH_SOFT2(pow)
SLMC_MATH_PRIM2(remainder)
#undef SLMC_MATH_SOFT1
#undef SLMC_MATH_SOFT2
#undef SLMC_MATH_PRIM1
#undef SLMC_MATH_PRIM2
#undef SLMC_MATH_BUILTIN1
#undef SLMC_MATH_BUILTIN2

// ilogb, ldexp and the native (approximate) instructions.
#if defined(SLMC_PASS_SPIRV)
SLMC_DEVICE_ONLY int __spirv_ocl_ilogb(float);
SLMC_DEVICE_ONLY int __spirv_ocl_ilogb(double);
SLMC_DEVICE_ONLY float __spirv_ocl_ldexp(float, int);
SLMC_DEVICE_ONLY double __spirv_ocl_ldexp(double, int);
#define SLMC_NATIVE1(name) SLMC_DEVICE_ONLY float __spirv_ocl_native_##name(float);
SLMC_NATIVE1(cos)
SLMC_NATIVE1(exp)
SLMC_NATIVE1(exp2)
SLMC_NATIVE1(exp10)
SLMC_NATIVE1(log)
SLMC_NATIVE1(log2)
SLMC_NATIVE1(log10)
SLMC_NATIVE1(recip)
SLMC_NATIVE1(rsqrt)
SLMC_NATIVE1(sin)
SLMC_NATIVE1(sqrt)
SLMC_NATIVE1(tan)
#undef SLMC_NATIVE1
SLMC_DEVICE_ONLY float __spirv_ocl_native_divide(float, float);
// 64-bit high products: LLVM turns the 32-bit-piece form into an i128
// multiply, which the SPIR-V backend rejects.
SLMC_DEVICE_ONLY long __spirv_ocl_s_mul_hi(long, long);
SLMC_DEVICE_ONLY unsigned long __spirv_ocl_u_mul_hi(unsigned long, unsigned long);
SLMC_DEVICE_ONLY long __spirv_ocl_s_mad_sat(long, long, long);
SLMC_DEVICE_ONLY unsigned long __spirv_ocl_u_mad_sat(unsigned long, unsigned long, unsigned long);
SLMC_DEVICE_ONLY float __spirv_ocl_native_powr(float, float);
#elif defined(SLMC_PASS_PTX)
extern "C" SLMC_DEVICE_ONLY int __nv_ilogbf(float);
extern "C" SLMC_DEVICE_ONLY int __nv_ilogb(double);
extern "C" SLMC_DEVICE_ONLY float __nv_ldexpf(float, int);
extern "C" SLMC_DEVICE_ONLY double __nv_ldexp(double, int);
extern "C" SLMC_DEVICE_ONLY float __nv_rsqrtf(float);
extern "C" SLMC_DEVICE_ONLY double __nv_rsqrt(double);
#endif

namespace sycl {
namespace detail {

SLMC_HD inline int m_ilogb(float x) {
#if defined(SLMC_PASS_SPIRV)
  return __spirv_ocl_ilogb(x);
#elif defined(SLMC_PASS_PTX)
  return __nv_ilogbf(x);
#else
  return std::ilogb(x);
#endif
}
SLMC_HD inline int m_ilogb(double x) {
#if defined(SLMC_PASS_SPIRV)
  return __spirv_ocl_ilogb(x);
#elif defined(SLMC_PASS_PTX)
  return __nv_ilogb(x);
#else
  return std::ilogb(x);
#endif
}
SLMC_HD inline float m_ldexp(float x, int k) {
#if defined(SLMC_PASS_SPIRV)
  return __spirv_ocl_ldexp(x, k);
#elif defined(SLMC_PASS_PTX) && defined(SLMC_HAVE_LIBDEVICE)
  return __nv_ldexpf(x, k);
#elif defined(SLMC_PASS_PTX)
  return ::slmc::soft::ldexpf(x, k);
#else
  return std::ldexp(x, k);
#endif
}
SLMC_HD inline double m_ldexp(double x, int k) {
#if defined(SLMC_PASS_SPIRV)
  return __spirv_ocl_ldexp(x, k);
#elif defined(SLMC_PASS_PTX) && defined(SLMC_HAVE_LIBDEVICE)
  return __nv_ldexp(x, k);
#elif defined(SLMC_PASS_PTX)
  return ::slmc::soft::ldexp(x, k);
#else
  return std::ldexp(x, k);
#endif
}
SLMC_HD inline float m_rsqrt(float x) {
#if defined(SLMC_PASS_PTX) && defined(SLMC_HAVE_LIBDEVICE)
  return __nv_rsqrtf(x);
#else
  return 1.0f / SLMC_SQRT(x);
#endif
}
SLMC_HD inline double m_rsqrt(double x) {
#if defined(SLMC_PASS_PTX) && defined(SLMC_HAVE_LIBDEVICE)
  return __nv_rsqrt(x);
#else
  return 1.0 / SLMC_SQRT(x);
#endif
}
template <typename F> SLMC_HD inline F m_fma(F a, F b, F c);
template <> SLMC_HD inline float m_fma(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
template <> SLMC_HD inline double m_fma(double a, double b, double c) { return __builtin_fma(a, b, c); }

template <typename F> SLMC_HD inline F k_pi() { return F(3.14159265358979323846); }
template <typename F> SLMC_HD inline bool m_isnan(F x) { return x != x; }
template <typename F> SLMC_HD inline bool m_isinf(F x) { return m_fabs(x) == F(INFINITY); }

// ---- Element traits of the non-scalar arguments ----------------------------
template <typename T> struct nonscalar {
  static constexpr bool value = false;
};
template <typename T, int N> struct nonscalar<vec<T, N>> {
  static constexpr bool value = true;
  using elem = T;
  static constexpr int size = N;
  using value_type = vec<T, N>;
  template <typename U> using rebind = vec<U, N>;
  // Relational results: -1/0 in the signed integer of T's size.
  using rel = vec<rel_t<T>, N>;
  SLMC_HD static rel_t<T> truth(bool b) { return b ? rel_t<T>(-1) : rel_t<T>(0); }
};
template <typename T, size_t N> struct nonscalar<marray<T, N>> {
  static constexpr bool value = true;
  using elem = T;
  static constexpr int size = int(N);
  using value_type = marray<T, N>;
  template <typename U> using rebind = marray<U, N>;
  using rel = marray<bool, N>;
  SLMC_HD static bool truth(bool b) { return b; }
};
template <typename V, int... I>
struct nonscalar<swizzle_ref<V, I...>> : nonscalar<vec<typename swizzle_ref<V, I...>::element_type, int(sizeof...(I))>> {};

template <typename T> inline constexpr bool is_nonscalar_v = nonscalar<T>::value;
template <typename T, typename = void> struct elem_of { using type = T; };
template <typename T> struct elem_of<T, typename std::enable_if<nonscalar<T>::value>::type> {
  using type = typename nonscalar<T>::elem;
};
template <typename T> using elem_t = typename elem_of<T>::type;

/// T, or the elements of T, are float, double or half.
template <typename T> inline constexpr bool is_gen_float_v = is_genfloat_v<elem_t<T>>;
template <typename T>
inline constexpr bool is_gen_int_v = std::is_integral<elem_t<T>>::value &&
                                     !std::is_same<elem_t<T>, bool>::value;

template <typename T> SLMC_HD inline auto value_of(const T &x) {
  if constexpr (nonscalar<T>::value)
    return typename nonscalar<T>::value_type(x);
  else
    return x;
}
/// Element i of x, or x itself for a scalar (broadcast).
template <typename T> SLMC_HD inline auto elem(const T &x, int i) {
  if constexpr (nonscalar<T>::value)
    return elem_t<T>(x[i]);
  else
    return x;
}

template <typename A, typename F> SLMC_HD inline auto map1(const A &a, F f) {
  using NS = nonscalar<A>;
  using R = decltype(f(elem_t<A>()));
  typename NS::template rebind<R> r;
  auto av = value_of(a);
  for (int i = 0; i < NS::size; ++i)
    r[i] = f(av[i]);
  return r;
}
/// f over the elements of a and b, either of which may be a scalar.
template <typename V, typename A, typename B, typename F>
SLMC_HD inline auto map2(const A &a, const B &b, F f) {
  using NS = nonscalar<V>;
  using E = typename NS::elem;
  using R = decltype(f(E(), E()));
  typename NS::template rebind<R> r;
  auto av = value_of(a);
  auto bv = value_of(b);
  for (int i = 0; i < NS::size; ++i)
    r[i] = f(E(elem(av, i)), E(elem(bv, i)));
  return r;
}
template <typename V, typename A, typename B, typename C, typename F>
SLMC_HD inline auto map3(const A &a, const B &b, const C &c, F f) {
  using NS = nonscalar<V>;
  using E = typename NS::elem;
  using R = decltype(f(E(), E(), E()));
  typename NS::template rebind<R> r;
  auto av = value_of(a);
  auto bv = value_of(b);
  auto cv = value_of(c);
  for (int i = 0; i < NS::size; ++i)
    r[i] = f(E(elem(av, i)), E(elem(bv, i)), E(elem(cv, i)));
  return r;
}

/// The non-scalar type among A, B (C): the one whose shape the result has.
template <typename... Ts> struct first_nonscalar;
template <typename T, typename... Ts> struct first_nonscalar<T, Ts...> {
  using type = typename std::conditional<nonscalar<T>::value, T,
                                         typename first_nonscalar<Ts...>::type>::type;
};
template <> struct first_nonscalar<> { using type = void; };

template <typename F> SLMC_HD inline F to_f(half h) { return F(h); }
} // namespace detail

// ---- Math functions (§4.17.5) ---------------------------------------------
// One-argument functions: float, double, half and their vecs and marrays.
#define SLMC_MATH_1(name, ...)                                                \
  SLMC_HD inline float name(float x) { using F = float; (void)sizeof(F); return __VA_ARGS__; } \
  SLMC_HD inline double name(double x) { using F = double; (void)sizeof(F); return __VA_ARGS__; } \
  SLMC_HD inline half name(half h) { return half(name(float(h))); }            \
  template <typename V, typename = typename std::enable_if<                    \
                            detail::is_nonscalar_v<V> && detail::is_gen_float_v<V>>::type> \
  SLMC_HD inline auto name(const V &x) {                                       \
    return detail::map1(x, [](auto e) { return name(e); });                    \
  }
#define SLMC_MATH_2(name, ...)                                                \
  SLMC_HD inline float name(float x, float y) { using F = float; (void)sizeof(F); return __VA_ARGS__; } \
  SLMC_HD inline double name(double x, double y) { using F = double; (void)sizeof(F); return __VA_ARGS__; } \
  SLMC_HD inline half name(half x, half y) { return half(name(float(x), float(y))); } \
  template <typename A, typename B, typename V = typename detail::first_nonscalar<A, B>::type, \
            typename = typename std::enable_if<!std::is_void<V>::value &&      \
                                               detail::is_gen_float_v<V>>::type> \
  SLMC_HD inline auto name(const A &x, const B &y) {                           \
    return detail::map2<V>(x, y, [](auto a, auto b) { return name(a, b); });   \
  }
#define SLMC_MATH_3(name, ...)                                                \
  SLMC_HD inline float name(float x, float y, float z) { using F = float; (void)sizeof(F); return __VA_ARGS__; } \
  SLMC_HD inline double name(double x, double y, double z) { using F = double; (void)sizeof(F); return __VA_ARGS__; } \
  SLMC_HD inline half name(half x, half y, half z) {                           \
    return half(name(float(x), float(y), float(z)));                           \
  }                                                                            \
  template <typename A, typename B, typename C,                                \
            typename V = typename detail::first_nonscalar<A, B, C>::type,      \
            typename = typename std::enable_if<!std::is_void<V>::value &&      \
                                               detail::is_gen_float_v<V>>::type> \
  SLMC_HD inline auto name(const A &x, const B &y, const C &z) {               \
    return detail::map3<V>(x, y, z, [](auto a, auto b, auto c) { return name(a, b, c); }); \
  }

SLMC_MATH_1(acos, detail::m_acos(x))
SLMC_MATH_1(acosh, detail::m_acosh(x))
SLMC_MATH_1(acospi, detail::m_acos(x) / detail::k_pi<F>())
SLMC_MATH_1(asin, detail::m_asin(x))
SLMC_MATH_1(asinh, detail::m_asinh(x))
SLMC_MATH_1(asinpi, detail::m_asin(x) / detail::k_pi<F>())
SLMC_MATH_1(atan, detail::m_atan(x))
SLMC_MATH_2(atan2, detail::m_atan2(x, y))
SLMC_MATH_1(atanh, detail::m_atanh(x))
SLMC_MATH_1(atanpi, detail::m_atan(x) / detail::k_pi<F>())
SLMC_MATH_2(atan2pi, detail::m_atan2(x, y) / detail::k_pi<F>())
SLMC_MATH_1(cbrt, detail::m_cbrt(x))
SLMC_MATH_1(ceil, detail::m_ceil(x))
SLMC_MATH_2(copysign, detail::m_copysign(x, y))
SLMC_MATH_1(cos, detail::m_cos(x))
SLMC_MATH_1(cosh, detail::m_cosh(x))
// cospi/sinpi/tanpi: reduce x exactly first (x - 2k is exact), so that
// whole and half-integers give exact zeros and ones as specified.
SLMC_MATH_1(cospi, [](F v) {
  F r = v - F(2) * detail::m_rint(v * F(0.5)); // in [-1, 1]
  F a = detail::m_fabs(r);
  if (a == F(0.5)) return F(0);
  return detail::m_cos(r * detail::k_pi<F>());
}(x))
SLMC_MATH_1(sinpi, [](F v) {
  if (detail::m_isinf(v)) return v - v;
  F r = v - F(2) * detail::m_rint(v * F(0.5));
  if (r == detail::m_rint(r)) return detail::m_copysign(F(0), v); // whole numbers
  return detail::m_sin(r * detail::k_pi<F>());
}(x))
SLMC_MATH_1(tanpi, [](F v) {
  F r = v - detail::m_rint(v); // period 1, in [-0.5, 0.5]
  if (r == F(0)) return detail::m_copysign(F(0), v);
  return detail::m_tan(r * detail::k_pi<F>());
}(x))
SLMC_MATH_1(erfc, detail::m_erfc(x))
SLMC_MATH_1(erf, detail::m_erf(x))
SLMC_MATH_1(exp, detail::m_exp(x))
SLMC_MATH_1(exp2, detail::m_exp2(x))
SLMC_MATH_1(exp10, detail::m_pow(F(10), x))
SLMC_MATH_1(expm1, detail::m_expm1(x))
SLMC_MATH_1(fabs, detail::m_fabs(x))
SLMC_MATH_2(fdim, detail::m_fdim(x, y))
SLMC_MATH_1(floor, detail::m_floor(x))
SLMC_MATH_3(fma, detail::m_fma<F>(x, y, z))
SLMC_MATH_2(fmax, detail::m_fmax(x, y))
SLMC_MATH_2(fmin, detail::m_fmin(x, y))
SLMC_MATH_2(fmod, detail::m_fmod(x, y))
SLMC_MATH_2(hypot, detail::m_hypot(x, y))
SLMC_MATH_1(lgamma, detail::m_lgamma(x))
SLMC_MATH_1(log, detail::m_log(x))
SLMC_MATH_1(log2, detail::m_log2(x))
SLMC_MATH_1(log10, detail::m_log10(x))
SLMC_MATH_1(log1p, detail::m_log1p(x))
SLMC_MATH_1(logb, detail::m_logb(x))
SLMC_MATH_3(mad, x * y + z)
SLMC_MATH_2(maxmag, [](F a, F b) {
  F fa = detail::m_fabs(a), fb = detail::m_fabs(b);
  return fa > fb ? a : fb > fa ? b : detail::m_fmax(a, b);
}(x, y))
SLMC_MATH_2(minmag, [](F a, F b) {
  F fa = detail::m_fabs(a), fb = detail::m_fabs(b);
  return fa < fb ? a : fb < fa ? b : detail::m_fmin(a, b);
}(x, y))
SLMC_MATH_2(nextafter, detail::m_nextafter(x, y))
SLMC_MATH_2(pow, detail::m_pow(x, y))
// powr: x >= 0 only (NaN otherwise), as specified.
SLMC_MATH_2(powr, x < F(0) ? F(NAN) : detail::m_pow(x, y))
SLMC_MATH_2(remainder, detail::m_remainder(x, y))
SLMC_MATH_1(rint, detail::m_rint(x))
SLMC_MATH_1(round, detail::m_round(x))
SLMC_MATH_1(rsqrt, detail::m_rsqrt(x))
SLMC_MATH_1(sin, detail::m_sin(x))
SLMC_MATH_1(sinh, detail::m_sinh(x))
SLMC_MATH_1(sqrt, detail::m_sqrt(x))
SLMC_MATH_1(tan, detail::m_tan(x))
SLMC_MATH_1(tanh, detail::m_tanh(x))
SLMC_MATH_1(tgamma, detail::m_tgamma(x))
SLMC_MATH_1(trunc, detail::m_trunc(x))

// Functions with an int argument or result, or an out-pointer.
#define SLMC_MATH_SCALARS(F)                                                   \
  SLMC_HD inline int ilogb(F x) { return detail::m_ilogb(x); }                 \
  SLMC_HD inline F ldexp(F x, int k) { return detail::m_ldexp(x, k); }         \
  SLMC_HD inline F pown(F x, int n) { return detail::m_pow(x, F(n)); }         \
  SLMC_HD inline F rootn(F x, int n) {                                         \
    /* x < 0 with an odd n has a real root; with an even n, NaN. */            \
    if (x < F(0))                                                              \
      return (n & 1) ? -detail::m_pow(-x, F(1) / F(n)) : F(NAN);               \
    return detail::m_pow(x, F(1) / F(n));                                      \
  }                                                                            \
  SLMC_HD inline F fract(F x, F *iptr) {                                       \
    F fl = detail::m_floor(x);                                                 \
    *iptr = fl;                                                                \
    if (detail::m_isnan(x)) return x;                                          \
    if (detail::m_isinf(x)) return detail::m_copysign(F(0), x);                \
    F r = x - fl;                                                              \
    F below_one = detail::m_nextafter(F(1), F(0));                             \
    return r < below_one ? r : below_one;                                      \
  }                                                                            \
  SLMC_HD inline F modf(F x, F *iptr) {                                        \
    F t = detail::m_trunc(x);                                                  \
    *iptr = t;                                                                 \
    return detail::m_copysign(detail::m_isinf(x) ? F(0) : x - t, x);           \
  }                                                                            \
  SLMC_HD inline F frexp(F x, int *exp) {                                      \
    if (x == F(0) || detail::m_isnan(x) || detail::m_isinf(x)) {               \
      *exp = 0;                                                                \
      return x;                                                                \
    }                                                                          \
    int e = detail::m_ilogb(x) + 1;                                            \
    *exp = e;                                                                  \
    return detail::m_ldexp(x, -e);                                             \
  }                                                                            \
  SLMC_HD inline F sincos(F x, F *cosval) {                                    \
    *cosval = detail::m_cos(x);                                                \
    return detail::m_sin(x);                                                   \
  }                                                                            \
  SLMC_HD inline F lgamma_r(F x, int *signp) {                                 \
    F g = detail::m_tgamma(x);                                                 \
    *signp = g < F(0) ? -1 : 1;                                                \
    return detail::m_lgamma(x);                                                \
  }                                                                            \
  SLMC_HD inline F remquo(F x, F y, int *quo) {                                \
    F r = detail::m_remainder(x, y);                                           \
    /* The quotient's last 3 bits: from x reduced modulo 8y, exactly. */       \
    F ay = detail::m_fabs(y);                                                  \
    F a = detail::m_fmod(detail::m_fabs(x), F(8) * ay);                        \
    int q = int(detail::m_rint((a - detail::m_remainder(a, ay)) / ay)) & 7;    \
    bool neg = (x < F(0)) != (y < F(0));                                       \
    *quo = neg ? -q : q;                                                       \
    return r;                                                                  \
  }
SLMC_MATH_SCALARS(float)
SLMC_MATH_SCALARS(double)
#undef SLMC_MATH_SCALARS
SLMC_HD inline int ilogb(half x) { return detail::m_ilogb(float(x)); }
SLMC_HD inline half ldexp(half x, int k) { return half(detail::m_ldexp(float(x), k)); }
SLMC_HD inline half pown(half x, int n) { return half(pown(float(x), n)); }
SLMC_HD inline half rootn(half x, int n) { return half(rootn(float(x), n)); }
SLMC_HD inline half modf(half x, half *iptr) {
  float i, r = modf(float(x), &i);
  *iptr = half(i);
  return half(r);
}
SLMC_HD inline half fract(half x, half *iptr) {
  float i, r = fract(float(x), &i);
  *iptr = half(i);
  half hr(r); // a fraction just below 1 may round up to 1 in half
  return hr < half(1.0f) ? hr : half::from_bits(0x3bff);
}
SLMC_HD inline half frexp(half x, int *e) { return half(frexp(float(x), e)); }
SLMC_HD inline half sincos(half x, half *c) {
  float cf, s = sincos(float(x), &cf);
  *c = half(cf);
  return half(s);
}
SLMC_HD inline half lgamma_r(half x, int *signp) { return half(lgamma_r(float(x), signp)); }
SLMC_HD inline half remquo(half x, half y, int *quo) { return half(remquo(float(x), float(y), quo)); }
SLMC_HD inline half nan(uint16_t code) { return half::from_bits(uint16_t(0x7e00 | (code & 0x1ff))); }
SLMC_HD inline float nan(uint32_t code) { return __builtin_bit_cast(float, 0x7fc00000u | (code & 0x3fffffu)); }
SLMC_HD inline double nan(uint64_t code) {
  return __builtin_bit_cast(double, 0x7ff8000000000000ull | (code & 0x7ffffffffffffull));
}

// The vec and marray forms of the functions above.
template <typename V, typename = typename std::enable_if<detail::is_nonscalar_v<V> &&
                                                         detail::is_gen_float_v<V>>::type>
SLMC_HD inline auto ilogb(const V &x) {
  return detail::map1(x, [](auto e) { return ilogb(e); });
}
template <typename V, typename K,
          typename = typename std::enable_if<detail::is_nonscalar_v<V> &&
                                             detail::is_gen_float_v<V>>::type>
SLMC_HD inline auto ldexp(const V &x, const K &k) {
  auto xv = detail::value_of(x);
  auto kv = detail::value_of(k);
  auto r = xv;
  for (int i = 0; i < detail::nonscalar<V>::size; ++i)
    r[i] = ldexp(xv[i], int(detail::elem(kv, i)));
  return r;
}
template <typename V, typename K,
          typename = typename std::enable_if<detail::is_nonscalar_v<V> &&
                                             detail::is_gen_float_v<V>>::type>
SLMC_HD inline auto pown(const V &x, const K &k) {
  auto xv = detail::value_of(x);
  auto kv = detail::value_of(k);
  auto r = xv;
  for (int i = 0; i < detail::nonscalar<V>::size; ++i)
    r[i] = pown(xv[i], int(kv[i]));
  return r;
}
template <typename V, typename K,
          typename = typename std::enable_if<detail::is_nonscalar_v<V> &&
                                             detail::is_gen_float_v<V>>::type>
SLMC_HD inline auto rootn(const V &x, const K &k) {
  auto xv = detail::value_of(x);
  auto kv = detail::value_of(k);
  auto r = xv;
  for (int i = 0; i < detail::nonscalar<V>::size; ++i)
    r[i] = rootn(xv[i], int(kv[i]));
  return r;
}
#define SLMC_MATH_PTR(name)                                                    \
  template <typename V, typename P,                                            \
            typename = typename std::enable_if<detail::is_nonscalar_v<V> &&    \
                                               detail::is_gen_float_v<V>>::type> \
  SLMC_HD inline auto name(const V &x, P ptr) {                                \
    auto xv = detail::value_of(x);                                             \
    auto r = xv;                                                               \
    auto &out = *ptr;                                                          \
    for (int i = 0; i < detail::nonscalar<V>::size; ++i) {                     \
      typename std::remove_reference<decltype(out[i])>::type o;                \
      r[i] = name(xv[i], &o);                                                  \
      out[i] = o;                                                              \
    }                                                                          \
    return r;                                                                  \
  }
SLMC_MATH_PTR(fract)
SLMC_MATH_PTR(modf)
SLMC_MATH_PTR(frexp)
SLMC_MATH_PTR(sincos)
SLMC_MATH_PTR(lgamma_r)
#undef SLMC_MATH_PTR

// ---- native:: and half_precision:: ---------------------------------------
// float only: a double or half argument would otherwise convert silently.
#define SLMC_FLOAT_ONLY_1(ns, name)                                            \
  template <typename T, typename = typename std::enable_if<                    \
                            std::is_same<T, double>::value || detail::is_half<T>::value>::type> \
  SLMC_HD float name(T) {                                                      \
    static_assert(!sizeof(T), "sycl::" #ns "::" #name ": takes float (and vec/marray of float) only"); \
    return 0;                                                                  \
  }
#define SLMC_FLOAT_ONLY_2(ns, name)                                            \
  template <typename T, typename U,                                            \
            typename = typename std::enable_if<                                \
                std::is_same<T, double>::value || detail::is_half<T>::value || \
                std::is_same<U, double>::value || detail::is_half<U>::value>::type> \
  SLMC_HD float name(T, U) {                                                   \
    static_assert(!sizeof(T), "sycl::" #ns "::" #name ": takes float (and vec/marray of float) only"); \
    return 0;                                                                  \
  }
namespace native {
#if defined(SLMC_PASS_SPIRV)
#define SLMC_NATIVE_BODY1(name, precise) return __spirv_ocl_native_##name(x);
#define SLMC_NATIVE_BODY2(name, precise) return __spirv_ocl_native_##name(x, y);
#else
#define SLMC_NATIVE_BODY1(name, precise) return precise;
#define SLMC_NATIVE_BODY2(name, precise) return precise;
#endif
#define SLMC_NATIVE_1(name, precise, ptx)                                      \
  SLMC_FLOAT_ONLY_1(native, name)                                                \
  SLMC_HD inline float name(float x) {                                         \
    SLMC_NATIVE_PTX(ptx)                                                       \
    SLMC_NATIVE_BODY1(name, precise)                                           \
  }                                                                            \
  template <typename V, typename = typename std::enable_if<                    \
                            detail::is_nonscalar_v<V> &&                       \
                            std::is_same<detail::elem_t<V>, float>::value>::type> \
  SLMC_HD inline auto name(const V &x) {                                       \
    return detail::map1(x, [](float e) { return name(e); });                   \
  }
#define SLMC_NATIVE_2(name, precise, ptx)                                      \
  SLMC_FLOAT_ONLY_2(native, name)                                                \
  SLMC_HD inline float name(float x, float y) {                                \
    SLMC_NATIVE_PTX(ptx)                                                       \
    SLMC_NATIVE_BODY2(name, precise)                                           \
  }                                                                            \
  template <typename A, typename B, typename V = typename detail::first_nonscalar<A, B>::type, \
            typename = typename std::enable_if<                                \
                !std::is_void<V>::value && std::is_same<detail::elem_t<V>, float>::value>::type> \
  SLMC_HD inline auto name(const A &x, const B &y) {                           \
    return detail::map2<V>(x, y, [](float a, float b) { return name(a, b); }); \
  }
#if defined(SLMC_PASS_PTX)
#define SLMC_NATIVE_PTX(ptx) return ptx;
#else
#define SLMC_NATIVE_PTX(ptx)
#endif
// PTX: the approximate instructions (sin.approx, ex2.approx, lg2.approx ...).
SLMC_NATIVE_1(cos, sycl::cos(x), __nvvm_cos_approx_f(x))
SLMC_NATIVE_1(sin, sycl::sin(x), __nvvm_sin_approx_f(x))
SLMC_NATIVE_1(tan, sycl::tan(x), __nvvm_div_approx_f(__nvvm_sin_approx_f(x), __nvvm_cos_approx_f(x)))
SLMC_NATIVE_1(exp, sycl::exp(x), __nvvm_ex2_approx_f(x * 1.4426950408889634f))
SLMC_NATIVE_1(exp2, sycl::exp2(x), __nvvm_ex2_approx_f(x))
SLMC_NATIVE_1(exp10, sycl::exp10(x), __nvvm_ex2_approx_f(x * 3.3219280948873622f))
SLMC_NATIVE_1(log, sycl::log(x), __nvvm_lg2_approx_f(x) * 0.6931471805599453f)
SLMC_NATIVE_1(log2, sycl::log2(x), __nvvm_lg2_approx_f(x))
SLMC_NATIVE_1(log10, sycl::log10(x), __nvvm_lg2_approx_f(x) * 0.3010299956639812f)
SLMC_NATIVE_1(recip, 1.0f / x, __nvvm_div_approx_f(1.0f, x))
SLMC_NATIVE_1(rsqrt, sycl::rsqrt(x), __nvvm_rsqrt_approx_f(x))
SLMC_NATIVE_1(sqrt, sycl::sqrt(x), __nvvm_sqrt_approx_f(x))
SLMC_NATIVE_2(divide, x / y, __nvvm_div_approx_f(x, y))
SLMC_NATIVE_2(powr, sycl::powr(x, y), __nvvm_ex2_approx_f(y * __nvvm_lg2_approx_f(x)))
#undef SLMC_NATIVE_1
#undef SLMC_NATIVE_2
#undef SLMC_NATIVE_PTX
#undef SLMC_NATIVE_BODY1
#undef SLMC_NATIVE_BODY2
} // namespace native

namespace half_precision {
#define SLMC_HALFP_1(name, precise)                                            \
  SLMC_FLOAT_ONLY_1(half_precision, name)                                                \
  SLMC_HD inline float name(float x) { return precise; }                       \
  template <typename V, typename = typename std::enable_if<                    \
                            detail::is_nonscalar_v<V> &&                       \
                            std::is_same<detail::elem_t<V>, float>::value>::type> \
  SLMC_HD inline auto name(const V &x) {                                       \
    return detail::map1(x, [](float e) { return name(e); });                   \
  }
#define SLMC_HALFP_2(name, precise)                                            \
  SLMC_FLOAT_ONLY_2(half_precision, name)                                                \
  SLMC_HD inline float name(float x, float y) { return precise; }              \
  template <typename A, typename B, typename V = typename detail::first_nonscalar<A, B>::type, \
            typename = typename std::enable_if<                                \
                !std::is_void<V>::value && std::is_same<detail::elem_t<V>, float>::value>::type> \
  SLMC_HD inline auto name(const A &x, const B &y) {                           \
    return detail::map2<V>(x, y, [](float a, float b) { return name(a, b); }); \
  }
SLMC_HALFP_1(cos, sycl::cos(x))
SLMC_HALFP_1(sin, sycl::sin(x))
SLMC_HALFP_1(tan, sycl::tan(x))
SLMC_HALFP_1(exp, sycl::exp(x))
SLMC_HALFP_1(exp2, sycl::exp2(x))
SLMC_HALFP_1(exp10, sycl::exp10(x))
SLMC_HALFP_1(log, sycl::log(x))
SLMC_HALFP_1(log2, sycl::log2(x))
SLMC_HALFP_1(log10, sycl::log10(x))
SLMC_HALFP_1(recip, 1.0f / x)
SLMC_HALFP_1(rsqrt, sycl::rsqrt(x))
SLMC_HALFP_1(sqrt, sycl::sqrt(x))
SLMC_HALFP_2(divide, x / y)
SLMC_HALFP_2(powr, sycl::powr(x, y))
#undef SLMC_HALFP_1
#undef SLMC_HALFP_2
#undef SLMC_FLOAT_ONLY_1
#undef SLMC_FLOAT_ONLY_2
} // namespace half_precision

// ---- Integer functions (§4.17.6) -------------------------------------------
namespace detail {
template <typename T> using uns_t = typename std::make_unsigned<T>::type;
// abs and abs_diff return the argument type in SYCL 2020 (OpenCL's return
// the unsigned type): the bits are the same.
template <typename T> SLMC_HD inline T i_abs(T x) {
  return T(x < 0 ? uns_t<T>(uns_t<T>(0) - uns_t<T>(x)) : uns_t<T>(x));
}
template <typename T> SLMC_HD inline T i_abs_diff(T x, T y) {
  return T(x > y ? uns_t<T>(uns_t<T>(x) - uns_t<T>(y)) : uns_t<T>(uns_t<T>(y) - uns_t<T>(x)));
}
/// The 128-bit product of two 64-bit integers as (hi, lo), without
/// __int128 (which the SPIR-V backend does not take).
SLMC_HD inline void mul_wide(uint64_t a, uint64_t b, bool is_signed, uint64_t &hi, uint64_t &lo) {
  uint64_t a0 = uint32_t(a), a1 = a >> 32, b0 = uint32_t(b), b1 = b >> 32;
  uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
  uint64_t mid = (p00 >> 32) + uint32_t(p01) + uint32_t(p10);
  hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
  lo = (mid << 32) | uint32_t(p00);
  if (is_signed) {
    if (int64_t(a) < 0) hi -= b;
    if (int64_t(b) < 0) hi -= a;
  }
}
// Without __builtin_*_overflow: the SPIR-V backend cannot select them.
template <typename T> SLMC_HD inline T i_add_sat(T x, T y) {
  using U = uns_t<T>;
  T r = T(U(x) + U(y));
  if constexpr (std::is_signed<T>::value) {
    if (((x ^ r) & (y ^ r)) < 0)
      return x < 0 ? std::numeric_limits<T>::min() : std::numeric_limits<T>::max();
    return r;
  } else {
    return r < x ? std::numeric_limits<T>::max() : r;
  }
}
template <typename T> SLMC_HD inline T i_sub_sat(T x, T y) {
  using U = uns_t<T>;
  T r = T(U(x) - U(y));
  if constexpr (std::is_signed<T>::value) {
    if (((x ^ y) & (x ^ r)) < 0)
      return x < 0 ? std::numeric_limits<T>::min() : std::numeric_limits<T>::max();
    return r;
  } else {
    return x < y ? T(0) : r;
  }
}
// (x + y) >> 1 and (x + y + 1) >> 1 without overflow.
template <typename T> SLMC_HD inline T i_hadd(T x, T y) { return (x >> 1) + (y >> 1) + (x & y & 1); }
template <typename T> SLMC_HD inline T i_rhadd(T x, T y) { return (x >> 1) + (y >> 1) + ((x | y) & 1); }
template <typename T> SLMC_HD inline T i_clz(T x) {
  using U = uns_t<T>;
  U u = U(x);
  int n = 0;
  for (int b = int(sizeof(T) * 8) - 1; b >= 0 && !((u >> b) & 1); --b)
    ++n;
  return T(n);
}
template <typename T> SLMC_HD inline T i_ctz(T x) {
  using U = uns_t<T>;
  U u = U(x);
  int n = 0;
  for (int b = 0; b < int(sizeof(T) * 8) && !((u >> b) & 1); ++b)
    ++n;
  return T(n);
}
template <typename T> SLMC_HD inline T i_popcount(T x) {
  using U = uns_t<T>;
  if constexpr (sizeof(T) <= 4)
    return T(__builtin_popcount(uint32_t(U(x))));
  else
    return T(__builtin_popcountll(uint64_t(U(x))));
}
template <typename T> SLMC_HD inline T i_mul_hi(T x, T y) {
  if constexpr (sizeof(T) < 8) {
    using W = typename std::conditional<std::is_signed<T>::value, int64_t, uint64_t>::type;
    return T((W(x) * W(y)) >> (sizeof(T) * 8));
  } else {
#if defined(SLMC_PASS_SPIRV)
    if constexpr (std::is_signed<T>::value)
      return T(__spirv_ocl_s_mul_hi(long(x), long(y)));
    else
      return T(__spirv_ocl_u_mul_hi((unsigned long)x, (unsigned long)y));
#else
    uint64_t hi, lo;
    mul_wide(uint64_t(x), uint64_t(y), std::is_signed<T>::value, hi, lo);
    return T(hi);
#endif
  }
}
template <typename T> SLMC_HD inline T i_mad_sat(T x, T y, T z) {
  constexpr T lo_lim = std::numeric_limits<T>::min(), hi_lim = std::numeric_limits<T>::max();
  if constexpr (sizeof(T) < 4 || (sizeof(T) == 4 && std::is_signed<T>::value)) {
    int64_t p = int64_t(x) * int64_t(y) + int64_t(z);
    return p > int64_t(hi_lim) ? hi_lim : p < int64_t(lo_lim) ? lo_lim : T(p);
  } else if constexpr (sizeof(T) == 4) {
    uint64_t q = uint64_t(x) * uint64_t(y) + uint64_t(z);
    return q > uint64_t(hi_lim) ? hi_lim : T(q);
  } else {
#if defined(SLMC_PASS_SPIRV)
    if constexpr (std::is_signed<T>::value)
      return T(__spirv_ocl_s_mad_sat(long(x), long(y), long(z)));
    else
      return T(__spirv_ocl_u_mad_sat((unsigned long)x, (unsigned long)y, (unsigned long)z));
#endif
    // (hi, lo) = x * y + z in 128 bits, then saturated to 64.
    uint64_t hi, lo;
    mul_wide(uint64_t(x), uint64_t(y), std::is_signed<T>::value, hi, lo);
    uint64_t lo2 = lo + uint64_t(z);
    hi += (lo2 < lo) ? 1 : 0;
    if (std::is_signed<T>::value && int64_t(z) < 0)
      hi -= 1;
    if (std::is_signed<T>::value) {
      uint64_t ext = int64_t(lo2) < 0 ? ~0ull : 0ull;
      if (hi == ext)
        return T(lo2);
      return int64_t(hi) < 0 ? lo_lim : hi_lim;
    }
    return hi == 0 ? T(lo2) : hi_lim;
  }
}
template <typename T> SLMC_HD inline T i_rotate(T v, T i) {
  using U = uns_t<T>;
  constexpr int bits = sizeof(T) * 8;
  int s = int(U(i) % U(bits));
  U u = U(v);
  return T(s == 0 ? u : U((u << s) | (u >> (bits - s))));
}
} // namespace detail

template <typename T> inline constexpr bool slmc_is_int_scalar_v =
    std::is_integral<T>::value && !std::is_same<T, bool>::value;

#define SLMC_INT_1(name, impl)                                                 \
  template <typename T, typename = typename std::enable_if<slmc_is_int_scalar_v<T>>::type> \
  SLMC_HD inline auto name(T x) { return impl(x); }                            \
  template <typename V, typename = typename std::enable_if<                    \
                            detail::is_nonscalar_v<V> && detail::is_gen_int_v<V>>::type, \
            typename = void>                                                   \
  SLMC_HD inline auto name(const V &x) {                                       \
    return detail::map1(x, [](auto e) { return impl(e); });                    \
  }
#define SLMC_INT_2(name, impl)                                                 \
  template <typename T, typename = typename std::enable_if<slmc_is_int_scalar_v<T>>::type> \
  SLMC_HD inline auto name(T x, T y) { return impl(x, y); }                    \
  template <typename A, typename B, typename V = typename detail::first_nonscalar<A, B>::type, \
            typename = typename std::enable_if<!std::is_void<V>::value &&      \
                                               detail::is_gen_int_v<V>>::type> \
  SLMC_HD inline auto name(const A &x, const B &y) {                           \
    return detail::map2<V>(x, y, [](auto a, auto b) { return impl(a, b); });   \
  }
#define SLMC_INT_3(name, impl)                                                 \
  template <typename T, typename = typename std::enable_if<slmc_is_int_scalar_v<T>>::type> \
  SLMC_HD inline auto name(T x, T y, T z) { return impl(x, y, z); }            \
  template <typename A, typename B, typename C,                                \
            typename V = typename detail::first_nonscalar<A, B, C>::type,      \
            typename = typename std::enable_if<!std::is_void<V>::value &&      \
                                               detail::is_gen_int_v<V>>::type> \
  SLMC_HD inline auto name(const A &x, const B &y, const C &z) {               \
    return detail::map3<V>(x, y, z, [](auto a, auto b, auto c) { return impl(a, b, c); }); \
  }
SLMC_INT_1(abs, detail::i_abs)
SLMC_INT_2(abs_diff, detail::i_abs_diff)
SLMC_INT_2(add_sat, detail::i_add_sat)
SLMC_INT_2(sub_sat, detail::i_sub_sat)
SLMC_INT_2(hadd, detail::i_hadd)
SLMC_INT_2(rhadd, detail::i_rhadd)
SLMC_INT_1(clz, detail::i_clz)
SLMC_INT_1(ctz, detail::i_ctz)
SLMC_INT_1(popcount, detail::i_popcount)
SLMC_INT_2(mul_hi, detail::i_mul_hi)
SLMC_INT_3(mad_hi, [](auto a, auto b, auto c) { return decltype(a)(detail::i_mul_hi(a, b) + c); })
SLMC_INT_3(mad_sat, detail::i_mad_sat)
SLMC_INT_2(rotate, detail::i_rotate)
// 24-bit multiplies: exact when the operands fit in 24 bits, as specified.
SLMC_INT_2(mul24, [](auto a, auto b) { return decltype(a)(a * b); })
SLMC_INT_3(mad24, [](auto a, auto b, auto c) { return decltype(a)(a * b + c); })
#undef SLMC_INT_1
#undef SLMC_INT_2
#undef SLMC_INT_3

/// upsample(hi, lo): hi in the upper half of the twice-as-wide result.
SLMC_HD inline uint16_t upsample(uint8_t hi, uint8_t lo) { return uint16_t((uint16_t(hi) << 8) | lo); }
SLMC_HD inline int16_t upsample(int8_t hi, uint8_t lo) { return int16_t((uint16_t(uint8_t(hi)) << 8) | lo); }
SLMC_HD inline uint32_t upsample(uint16_t hi, uint16_t lo) { return (uint32_t(hi) << 16) | lo; }
SLMC_HD inline int32_t upsample(int16_t hi, uint16_t lo) { return int32_t((uint32_t(uint16_t(hi)) << 16) | lo); }
SLMC_HD inline uint64_t upsample(uint32_t hi, uint32_t lo) { return (uint64_t(hi) << 32) | lo; }
SLMC_HD inline int64_t upsample(int32_t hi, uint32_t lo) { return int64_t((uint64_t(uint32_t(hi)) << 32) | lo); }
template <typename A, typename B, typename = typename std::enable_if<detail::is_nonscalar_v<A> &&
                                                                     detail::is_gen_int_v<A>>::type>
SLMC_HD inline auto upsample(const A &hi, const B &lo) {
  using NS = detail::nonscalar<A>;
  using R = decltype(upsample(detail::elem_t<A>(), detail::elem_t<B>()));
  typename NS::template rebind<R> r;
  auto hv = detail::value_of(hi);
  auto lv = detail::value_of(lo);
  for (int i = 0; i < NS::size; ++i)
    r[i] = upsample(detail::elem_t<A>(hv[i]), detail::elem_t<B>(lv[i]));
  return r;
}

// ---- Common functions (§4.17.7) and min/max/clamp -------------------------------
// min, max and clamp take any arithmetic type (integer functions too).
template <typename T, typename = typename std::enable_if<std::is_arithmetic<T>::value ||
                                                         detail::is_half<T>::value>::type>
SLMC_HD constexpr T min(T a, T b) {
  return b < a ? b : a;
}
template <typename T, typename = typename std::enable_if<std::is_arithmetic<T>::value ||
                                                         detail::is_half<T>::value>::type>
SLMC_HD constexpr T max(T a, T b) {
  return a < b ? b : a;
}
template <typename T, typename = typename std::enable_if<std::is_arithmetic<T>::value ||
                                                         detail::is_half<T>::value>::type>
SLMC_HD constexpr T clamp(T x, T lo, T hi) {
  return min(max(x, lo), hi);
}
template <typename A, typename B, typename V = typename detail::first_nonscalar<A, B>::type,
          typename = typename std::enable_if<!std::is_void<V>::value>::type>
SLMC_HD inline auto min(const A &x, const B &y) {
  return detail::map2<V>(x, y, [](auto a, auto b) { return min(a, b); });
}
template <typename A, typename B, typename V = typename detail::first_nonscalar<A, B>::type,
          typename = typename std::enable_if<!std::is_void<V>::value>::type>
SLMC_HD inline auto max(const A &x, const B &y) {
  return detail::map2<V>(x, y, [](auto a, auto b) { return max(a, b); });
}
template <typename A, typename B, typename C,
          typename V = typename detail::first_nonscalar<A, B, C>::type,
          typename = typename std::enable_if<!std::is_void<V>::value>::type>
SLMC_HD inline auto clamp(const A &x, const B &lo, const C &hi) {
  return detail::map3<V>(x, lo, hi, [](auto a, auto b, auto c) { return clamp(a, b, c); });
}

SLMC_MATH_1(degrees, x * (F(180) / detail::k_pi<F>()))
SLMC_MATH_1(radians, x * (detail::k_pi<F>() / F(180)))
SLMC_MATH_3(mix, x + (y - x) * z)
SLMC_MATH_2(step, y < x ? F(0) : F(1))
SLMC_MATH_3(smoothstep, [](F e0, F e1, F v) {
  F t = (v - e0) / (e1 - e0);
  t = t < F(0) ? F(0) : t > F(1) ? F(1) : t;
  return t * t * (F(3) - F(2) * t);
}(x, y, z))
SLMC_MATH_1(sign, detail::m_isnan(x) ? F(0) : x > F(0) ? F(1) : x < F(0) ? F(-1) : x)

// ---- Geometric functions (§4.17.8): float, double, half; 1 to 4 elements -------
namespace detail {
template <typename V> constexpr bool geo_size_ok() {
  if constexpr (nonscalar<V>::value)
    return nonscalar<V>::size <= 4;
  else
    return false;
}
template <typename V>
inline constexpr bool is_geo_v = is_genfloat_v<elem_t<V>> && geo_size_ok<V>();
template <typename T>
inline constexpr bool is_geo_arg_v = is_genfloat_v<T> || is_geo_v<T>;
template <typename A> SLMC_HD inline auto geo_dot(const A &a, const A &b) {
  if constexpr (nonscalar<A>::value) {
    using E = elem_t<A>;
    using W = typename std::conditional<is_half<E>::value, float, E>::type;
    W s = W(0);
    for (int i = 0; i < nonscalar<A>::size; ++i)
      s += W(a[i]) * W(b[i]);
    return E(s);
  } else {
    return a * b;
  }
}
} // namespace detail

template <typename A, typename = typename std::enable_if<detail::is_geo_arg_v<A>>::type>
SLMC_HD inline auto dot(const A &a, const A &b) {
  return detail::geo_dot(detail::value_of(a), detail::value_of(b));
}
template <typename A, typename = typename std::enable_if<detail::is_geo_arg_v<A>>::type>
SLMC_HD inline auto length(const A &a) {
  auto d = dot(a, a);
  return decltype(d)(sqrt(d));
}
template <typename A, typename = typename std::enable_if<detail::is_geo_arg_v<A>>::type>
SLMC_HD inline auto distance(const A &a, const A &b) {
  return length(detail::value_of(a) - detail::value_of(b));
}
template <typename A, typename = typename std::enable_if<detail::is_geo_arg_v<A>>::type>
SLMC_HD inline auto normalize(const A &a) {
  auto v = detail::value_of(a);
  auto l = length(v);
  if (l == decltype(l)(0))
    return v;
  return v / l;
}
/// fast_*: float only, as specified; native square roots may be used.
template <typename A, typename = typename std::enable_if<
                          detail::is_geo_arg_v<A> && std::is_same<detail::elem_t<A>, float>::value>::type>
SLMC_HD inline float fast_length(const A &a) {
  return native::sqrt(float(dot(a, a)));
}
template <typename A, typename = typename std::enable_if<
                          detail::is_geo_arg_v<A> && std::is_same<detail::elem_t<A>, float>::value>::type>
SLMC_HD inline float fast_distance(const A &a, const A &b) {
  return fast_length(detail::value_of(a) - detail::value_of(b));
}
template <typename A, typename = typename std::enable_if<
                          detail::is_geo_arg_v<A> && std::is_same<detail::elem_t<A>, float>::value>::type>
SLMC_HD inline auto fast_normalize(const A &a) {
  auto v = detail::value_of(a);
  float d = float(dot(v, v));
  if (d == 0.0f)
    return v;
  return v * native::rsqrt(d);
}
template <typename T, typename = typename std::enable_if<detail::is_genfloat_v<T>>::type>
SLMC_HD inline vec<T, 3> cross(const vec<T, 3> &a, const vec<T, 3> &b) {
  return vec<T, 3>(a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]);
}
template <typename T, typename = typename std::enable_if<detail::is_genfloat_v<T>>::type>
SLMC_HD inline vec<T, 4> cross(const vec<T, 4> &a, const vec<T, 4> &b) {
  return vec<T, 4>(a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0], T(0));
}
template <typename T, typename = typename std::enable_if<detail::is_genfloat_v<T>>::type>
SLMC_HD inline marray<T, 3> cross(const marray<T, 3> &a, const marray<T, 3> &b) {
  return marray<T, 3>(a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]);
}
template <typename T, typename = typename std::enable_if<detail::is_genfloat_v<T>>::type>
SLMC_HD inline marray<T, 4> cross(const marray<T, 4> &a, const marray<T, 4> &b) {
  return marray<T, 4>(a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0], T(0));
}

// ---- Relational functions (§4.17.9) -----------------------------------------
// Scalars give bool; a vec gives -1/0 in the signed integer of its element's
// size; an marray gives marray<bool>.
#define SLMC_REL_2(name, ...)                                                 \
  SLMC_HD inline bool name(float x, float y) { return __VA_ARGS__; }                  \
  SLMC_HD inline bool name(double x, double y) { return __VA_ARGS__; }                \
  SLMC_HD inline bool name(half hx, half hy) {                                 \
    float x = hx, y = hy;                                                      \
    return __VA_ARGS__;                                                               \
  }                                                                            \
  template <typename A, typename B, typename V = typename detail::first_nonscalar<A, B>::type, \
            typename = typename std::enable_if<!std::is_void<V>::value &&      \
                                               detail::is_gen_float_v<V>>::type> \
  SLMC_HD inline auto name(const A &x, const B &y) {                           \
    using NS = detail::nonscalar<V>;                                           \
    return detail::map2<V>(x, y, [](auto a, auto b) { return NS::truth(name(a, b)); }); \
  }
#define SLMC_REL_1(name, ...)                                                 \
  SLMC_HD inline bool name(float x) { return __VA_ARGS__; }                           \
  SLMC_HD inline bool name(double x) { return __VA_ARGS__; }                          \
  SLMC_HD inline bool name(half hx) {                                          \
    float x = hx;                                                              \
    return __VA_ARGS__;                                                               \
  }                                                                            \
  template <typename V, typename = typename std::enable_if<                    \
                            detail::is_nonscalar_v<V> && detail::is_gen_float_v<V>>::type> \
  SLMC_HD inline auto name(const V &x) {                                       \
    using NS = detail::nonscalar<V>;                                           \
    return detail::map1(x, [](auto a) { return NS::truth(name(a)); });         \
  }
SLMC_REL_2(isequal, x == y)
SLMC_REL_2(isnotequal, x != y)
SLMC_REL_2(isgreater, x > y)
SLMC_REL_2(isgreaterequal, x >= y)
SLMC_REL_2(isless, x < y)
SLMC_REL_2(islessequal, x <= y)
SLMC_REL_2(islessgreater, x < y || x > y)
SLMC_REL_2(isordered, x == x && y == y)
SLMC_REL_2(isunordered, x != x || y != y)
SLMC_REL_1(isfinite, x == x && detail::m_fabs(x) != decltype(x)(INFINITY))
SLMC_REL_1(isinf, detail::m_fabs(x) == decltype(x)(INFINITY))
SLMC_REL_1(isnan, x != x)
// isnormal by the argument's own format (a small half is subnormal though
// its float is not).
SLMC_HD inline bool isnormal(float x) {
  float a = detail::m_fabs(x);
  return a >= 1.17549435e-38f && a <= 3.40282347e+38f;
}
SLMC_HD inline bool isnormal(double x) {
  double a = detail::m_fabs(x);
  return a >= 2.2250738585072014e-308 && a <= 1.7976931348623157e+308;
}
SLMC_HD inline bool isnormal(half x) {
  float a = detail::m_fabs(float(x));
  return a >= 6.103515625e-05f && a <= 65504.0f;
}
template <typename V, typename = typename std::enable_if<detail::is_nonscalar_v<V> &&
                                                         detail::is_gen_float_v<V>>::type>
SLMC_HD inline auto isnormal(const V &x) {
  using NS = detail::nonscalar<V>;
  return detail::map1(x, [](auto a) { return NS::truth(isnormal(a)); });
}
SLMC_REL_1(signbit, detail::m_copysign(decltype(x)(1), x) < decltype(x)(0))
#undef SLMC_REL_1
#undef SLMC_REL_2

/// any/all: the most significant bit of each signed integer element of a
/// vec; bool elements of an marray.
template <typename T, typename = typename std::enable_if<slmc_is_int_scalar_v<T> &&
                                                         std::is_signed<T>::value>::type>
SLMC_HD inline bool any(T x) {
  return x < 0;
}
template <typename T, typename = typename std::enable_if<slmc_is_int_scalar_v<T> &&
                                                         std::is_signed<T>::value>::type>
SLMC_HD inline bool all(T x) {
  return x < 0;
}
template <typename V, typename = typename std::enable_if<detail::is_nonscalar_v<V>>::type,
          typename = void>
SLMC_HD inline bool any(const V &x) {
  using E = detail::elem_t<V>;
  static_assert(std::is_same<E, bool>::value || (std::is_integral<E>::value && std::is_signed<E>::value),
                "sycl::any: needs signed integer elements (a vec) or bool elements (an marray)");
  auto v = detail::value_of(x);
  for (int i = 0; i < detail::nonscalar<V>::size; ++i)
    if (std::is_same<E, bool>::value ? bool(v[i]) : v[i] < E(0))
      return true;
  return false;
}
template <typename V, typename = typename std::enable_if<detail::is_nonscalar_v<V>>::type,
          typename = void>
SLMC_HD inline bool all(const V &x) {
  using E = detail::elem_t<V>;
  static_assert(std::is_same<E, bool>::value || (std::is_integral<E>::value && std::is_signed<E>::value),
                "sycl::all: needs signed integer elements (a vec) or bool elements (an marray)");
  auto v = detail::value_of(x);
  for (int i = 0; i < detail::nonscalar<V>::size; ++i)
    if (!(std::is_same<E, bool>::value ? bool(v[i]) : v[i] < E(0)))
      return false;
  return true;
}

/// bitselect: each bit from b where c has a one, else from a.
namespace detail {
template <typename T> SLMC_HD inline T bitselect1(T a, T b, T c) {
  if constexpr (is_genfloat_v<T>) {
    using U = typename signed_of_size<sizeof(T)>::type;
    U ua = __builtin_bit_cast(U, a), ub = __builtin_bit_cast(U, b), uc = __builtin_bit_cast(U, c);
    return __builtin_bit_cast(T, U((ua & ~uc) | (ub & uc)));
  } else {
    return T((a & ~c) | (b & c));
  }
}
} // namespace detail
template <typename T, typename = typename std::enable_if<std::is_arithmetic<T>::value ||
                                                         detail::is_half<T>::value>::type>
SLMC_HD inline T bitselect(T a, T b, T c) {
  return detail::bitselect1(a, b, c);
}
template <typename V, typename = typename std::enable_if<detail::is_nonscalar_v<V>>::type,
          typename = void>
SLMC_HD inline auto bitselect(const V &a, const V &b, const V &c) {
  return detail::map3<V>(a, b, c, [](auto x, auto y, auto z) { return detail::bitselect1(x, y, z); });
}
/// select(a, b, c): b where c is true (a scalar c), where c's element has
/// its most significant bit set (a vec), or where c's bool is set (an marray).
template <typename T, typename C,
          typename = typename std::enable_if<(std::is_arithmetic<T>::value || detail::is_half<T>::value) &&
                                             (std::is_integral<C>::value)>::type>
SLMC_HD inline T select(T a, T b, C c) {
  return c ? b : a;
}
template <typename V, typename C, typename = typename std::enable_if<detail::is_nonscalar_v<V>>::type,
          typename = void>
SLMC_HD inline auto select(const V &a, const V &b, const C &c) {
  using E = detail::elem_t<C>;
  auto av = detail::value_of(a);
  auto bv = detail::value_of(b);
  auto cv = detail::value_of(c);
  auto r = av;
  for (int i = 0; i < detail::nonscalar<V>::size; ++i) {
    bool pick;
    if constexpr (std::is_same<E, bool>::value)
      pick = cv[i];
    else if constexpr (detail::is_vec<typename detail::nonscalar<V>::value_type>::value)
      pick = (typename std::make_signed<E>::type)(cv[i]) < 0;
    else
      pick = cv[i] != E(0);
    r[i] = pick ? bv[i] : av[i];
  }
  return r;
}

#undef SLMC_MATH_1
#undef SLMC_MATH_2
#undef SLMC_MATH_3

} // namespace sycl

#endif // SLMC_SYCL_DETAIL_MATH_HPP
