//===- amp_math.h - C++ AMP math functions for slmc -----------------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Concurrency::fast_math (float, speed over accuracy) and
// Concurrency::precise_math (float and double, accurate), callable from
// restrict(amp) code and from the host. Each pass has its own implementation:
//
//   pass     fast_math                        precise_math
//   -------  -------------------------------  ---------------------------------
//   SPIR-V   OpenCL native_* builtins         OpenCL builtins (OpExtInst)
//   PTX      sin/cos/ex2/lg2/rsqrt .approx    the software library below;
//                                             float functions evaluate in
//                                             double. erf, erfc, erfinv,
//                                             erfcinv, lgamma, tgamma and phi
//                                             from CUDA's libdevice
//   host     <cmath>                          <cmath>
//
// The software library (detail::soft) is plain C++ over IEEE doubles: Cody-
// Waite range reduction with fma, then truncated Taylor or atanh series. Its
// results are within a few ulp of the exact ones (pow: the error grows
// slowly with |y ln x|; sin, cos and tan reduce large arguments exactly). Define
// SLMC_AMP_SOFT_MATH to use it in the host pass too (testing).
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_AMP_MATH_H
#define SLMC_AMP_MATH_H

#include <amp.h>

#include <cmath>
#include <stdint.h>

#if defined(SLMC_PASS_SPIRV)
// OpenCL extended instructions, recognised by name by LLVM's SPIR-V backend.
#define SLMC_OCL_1(name)                                                       \
  SLMC_DEVICE_ONLY float __spirv_ocl_##name(float);                            \
  SLMC_DEVICE_ONLY double __spirv_ocl_##name(double);
#define SLMC_OCL_2(name)                                                       \
  SLMC_DEVICE_ONLY float __spirv_ocl_##name(float, float);                     \
  SLMC_DEVICE_ONLY double __spirv_ocl_##name(double, double);
SLMC_OCL_1(acos) SLMC_OCL_1(asin) SLMC_OCL_1(atan) SLMC_OCL_1(cbrt)
SLMC_OCL_1(ceil) SLMC_OCL_1(cos) SLMC_OCL_1(cosh) SLMC_OCL_1(exp)
SLMC_OCL_1(exp2) SLMC_OCL_1(exp10) SLMC_OCL_1(expm1) SLMC_OCL_1(fabs)
SLMC_OCL_1(floor) SLMC_OCL_1(log) SLMC_OCL_1(log2) SLMC_OCL_1(log10)
SLMC_OCL_1(log1p) SLMC_OCL_1(rint) SLMC_OCL_1(round) SLMC_OCL_1(rsqrt)
SLMC_OCL_1(sin) SLMC_OCL_1(sinh) SLMC_OCL_1(sqrt) SLMC_OCL_1(tan)
SLMC_OCL_1(tanh) SLMC_OCL_1(trunc) SLMC_OCL_1(erf) SLMC_OCL_1(erfc)
SLMC_OCL_1(acosh) SLMC_OCL_1(asinh) SLMC_OCL_1(atanh) SLMC_OCL_1(sinpi)
SLMC_OCL_1(cospi) SLMC_OCL_1(tanpi) SLMC_OCL_1(lgamma) SLMC_OCL_1(tgamma)
SLMC_OCL_1(logb)
SLMC_OCL_1(native_cos) SLMC_OCL_1(native_exp) SLMC_OCL_1(native_exp2)
SLMC_OCL_1(native_exp10) SLMC_OCL_1(native_log) SLMC_OCL_1(native_log2)
SLMC_OCL_1(native_log10) SLMC_OCL_1(native_rsqrt) SLMC_OCL_1(native_sin)
SLMC_OCL_1(native_sqrt) SLMC_OCL_1(native_tan)
SLMC_OCL_2(atan2) SLMC_OCL_2(copysign) SLMC_OCL_2(fdim) SLMC_OCL_2(fmax)
SLMC_OCL_2(fmin) SLMC_OCL_2(fmod) SLMC_OCL_2(hypot) SLMC_OCL_2(pow)
SLMC_OCL_2(native_powr) SLMC_OCL_2(nextafter) SLMC_OCL_2(remainder)
#undef SLMC_OCL_1
#undef SLMC_OCL_2
SLMC_DEVICE_ONLY int __spirv_ocl_ilogb(float);
SLMC_DEVICE_ONLY int __spirv_ocl_ilogb(double);
#elif defined(SLMC_PASS_PTX)
// CUDA's libdevice, for the functions the software library below does not
// have: slmc++ links it when it finds it, and otherwise builds no PTX for a
// file that calls one (a warning; the other devices still run it).
#define SLMC_NV_1(name)                                                        \
  extern "C" SLMC_DEVICE_ONLY float __nv_##name##f(float);                     \
  extern "C" SLMC_DEVICE_ONLY double __nv_##name(double);
SLMC_NV_1(erf) SLMC_NV_1(erfc) SLMC_NV_1(erfinv) SLMC_NV_1(erfcinv)
SLMC_NV_1(lgamma) SLMC_NV_1(tgamma) SLMC_NV_1(normcdf)
#undef SLMC_NV_1
#endif

#include "slmc/detail/soft_math.h"

namespace Concurrency {
namespace detail {
namespace soft = ::slmc::soft;
} // namespace detail
} // namespace Concurrency

// `using namespace Concurrency::precise_math;` (or fast_math) is how C++ AMP
// code calls these: in MSVC's amp code the C library's `sqrt(double)` is no
// candidate (it is restrict(cpu)), here it is one as good as ours. Clang
// prefers, between otherwise equal candidates, one with an enable_if
// attribute that holds.
#define SLMC_AMP_PREFERRED __attribute__((enable_if(true, "the C++ AMP overload")))

namespace Concurrency {
namespace detail {

// ---- Per-pass selection -----------------------------------------------------
#if defined(SLMC_PASS_PTX) || defined(SLMC_AMP_SOFT_MATH)
#define SLMC_AMP_MATH_SOFT 1
#endif

} // namespace detail

// Declares `float name(float)`, `float namef(float)` (and in precise_math
// `double name(double)`) from three expressions of x: float on SPIR-V, the
// software/PTX one, and the host one.
#if defined(SLMC_PASS_SPIRV)
#define SLMC_AMP_PICK(spirv, soft, host) spirv
#elif defined(SLMC_AMP_MATH_SOFT)
#define SLMC_AMP_PICK(spirv, soft, host) soft
#else
#define SLMC_AMP_PICK(spirv, soft, host) host
#endif

#define SLMC_AMP_F1(name, spirv, soft, host)                                   \
  SLMC_HD inline float name(float x) SLMC_AMP_PREFERRED { return SLMC_AMP_PICK(spirv, soft, host); } \
  SLMC_HD inline float name##f(float x) SLMC_AMP_PREFERRED { return name(x); }
#define SLMC_AMP_D1(name, spirv, soft, host)                                   \
  SLMC_HD inline double name(double x) SLMC_AMP_PREFERRED { return SLMC_AMP_PICK(spirv, soft, host); }
#define SLMC_AMP_F2(name, spirv, soft, host)                                   \
  SLMC_HD inline float name(float x, float y) SLMC_AMP_PREFERRED { return SLMC_AMP_PICK(spirv, soft, host); } \
  SLMC_HD inline float name##f(float x, float y) SLMC_AMP_PREFERRED { return name(x, y); }
#define SLMC_AMP_D2(name, spirv, soft, host)                                   \
  SLMC_HD inline double name(double x, double y) SLMC_AMP_PREFERRED { return SLMC_AMP_PICK(spirv, soft, host); }

// Functions exact in every pass (clang builtins lower natively everywhere).
#define SLMC_AMP_EXACT_FUNCTIONS                                               \
  SLMC_HD inline float fabs(float x) SLMC_AMP_PREFERRED { return __builtin_fabsf(x); }            \
  SLMC_HD inline float fabsf(float x) SLMC_AMP_PREFERRED { return __builtin_fabsf(x); }           \
  SLMC_HD inline float floor(float x) SLMC_AMP_PREFERRED { return __builtin_floorf(x); }          \
  SLMC_HD inline float floorf(float x) SLMC_AMP_PREFERRED { return __builtin_floorf(x); }         \
  SLMC_HD inline float ceil(float x) SLMC_AMP_PREFERRED { return __builtin_ceilf(x); }            \
  SLMC_HD inline float ceilf(float x) SLMC_AMP_PREFERRED { return __builtin_ceilf(x); }           \
  SLMC_HD inline float trunc(float x) SLMC_AMP_PREFERRED { return __builtin_truncf(x); }          \
  SLMC_HD inline float truncf(float x) SLMC_AMP_PREFERRED { return __builtin_truncf(x); }         \
  SLMC_HD inline float round(float x) SLMC_AMP_PREFERRED { return __builtin_roundf(x); }          \
  SLMC_HD inline float roundf(float x) SLMC_AMP_PREFERRED { return __builtin_roundf(x); }         \
  SLMC_HD inline float fmin(float x, float y) SLMC_AMP_PREFERRED { return __builtin_fminf(x, y); } \
  SLMC_HD inline float fminf(float x, float y) SLMC_AMP_PREFERRED { return __builtin_fminf(x, y); } \
  SLMC_HD inline float fmax(float x, float y) SLMC_AMP_PREFERRED { return __builtin_fmaxf(x, y); } \
  SLMC_HD inline float fmaxf(float x, float y) SLMC_AMP_PREFERRED { return __builtin_fmaxf(x, y); } \
  SLMC_HD inline float fmod(float x, float y) SLMC_AMP_PREFERRED { return __builtin_fmodf(x, y); } \
  SLMC_HD inline float fmodf(float x, float y) SLMC_AMP_PREFERRED { return __builtin_fmodf(x, y); } \
  SLMC_HD inline int isnan(float x) SLMC_AMP_PREFERRED { return __builtin_isnan(x); }             \
  SLMC_HD inline int isinf(float x) SLMC_AMP_PREFERRED { return __builtin_isinf(x); }             \
  SLMC_HD inline int isfinite(float x) SLMC_AMP_PREFERRED { return __builtin_isfinite(x); }       \
  SLMC_HD inline int signbit(float x) SLMC_AMP_PREFERRED { return __builtin_signbit(x); }         \
  SLMC_HD inline int signbitf(float x) SLMC_AMP_PREFERRED { return __builtin_signbit(x); }        \
  SLMC_HD inline float frexp(float x, int *e) SLMC_AMP_PREFERRED { return detail::soft::frexpf(x, e); } \
  SLMC_HD inline float frexpf(float x, int *e) SLMC_AMP_PREFERRED { return detail::soft::frexpf(x, e); } \
  SLMC_HD inline float ldexp(float x, int e) SLMC_AMP_PREFERRED { return detail::soft::ldexpf(x, e); } \
  SLMC_HD inline float ldexpf(float x, int e) SLMC_AMP_PREFERRED { return detail::soft::ldexpf(x, e); } \
  SLMC_HD inline float modf(float x, float *ip) SLMC_AMP_PREFERRED { return detail::soft::modff(x, ip); } \
  SLMC_HD inline float modff(float x, float *ip) SLMC_AMP_PREFERRED { return detail::soft::modff(x, ip); }

namespace fast_math {
SLMC_AMP_EXACT_FUNCTIONS

#if defined(SLMC_PASS_PTX)
// PTX's approximate instructions (MUFU): about 2 ulp in the usual ranges.
// sin.approx and cos.approx are accurate on [-pi, pi] only: larger
// arguments are first reduced by 2 pi (two-constant Cody-Waite).
SLMC_HD inline float reduce_2pi(float x) SLMC_AMP_PREFERRED {
  const float k = __builtin_rintf(x * 0.159154943091895336f);
  return __builtin_fmaf(-k, -1.74845553e-7f, __builtin_fmaf(-k, 6.28318548f, x));
}
#define SLMC_AMP_FAST(name, spirv, ptx, host) SLMC_AMP_F1(name, spirv, ptx, host)
#else
#define SLMC_AMP_FAST(name, spirv, ptx, host) SLMC_AMP_F1(name, spirv, host, host)
#endif
SLMC_AMP_FAST(sqrt, __spirv_ocl_native_sqrt(x), __nvvm_sqrt_approx_f(x), SLMC_SQRT(x))
SLMC_AMP_FAST(rsqrt, __spirv_ocl_native_rsqrt(x), __nvvm_rsqrt_approx_f(x), 1.0f / SLMC_SQRT(x))
SLMC_AMP_FAST(sin, __spirv_ocl_native_sin(x), __nvvm_sin_approx_f(reduce_2pi(x)), std::sin(x))
SLMC_AMP_FAST(cos, __spirv_ocl_native_cos(x), __nvvm_cos_approx_f(reduce_2pi(x)), std::cos(x))
SLMC_AMP_FAST(tan, __spirv_ocl_native_tan(x),
              __nvvm_div_approx_f(__nvvm_sin_approx_f(reduce_2pi(x)),
                                  __nvvm_cos_approx_f(reduce_2pi(x))),
              std::tan(x))
SLMC_AMP_FAST(exp, __spirv_ocl_native_exp(x), __nvvm_ex2_approx_f(x * 1.44269504088896341f),
              std::exp(x))
SLMC_AMP_FAST(exp2, __spirv_ocl_native_exp2(x), __nvvm_ex2_approx_f(x), std::exp2(x))
SLMC_AMP_FAST(exp10, __spirv_ocl_native_exp10(x), __nvvm_ex2_approx_f(x * 3.32192809488736235f),
              std::pow(10.0f, x))
SLMC_AMP_FAST(log, __spirv_ocl_native_log(x), __nvvm_lg2_approx_f(x) * 0.693147180559945309f,
              std::log(x))
SLMC_AMP_FAST(log2, __spirv_ocl_native_log2(x), __nvvm_lg2_approx_f(x), std::log2(x))
SLMC_AMP_FAST(log10, __spirv_ocl_native_log10(x), __nvvm_lg2_approx_f(x) * 0.301029995663981195f,
              std::log10(x))
// The rest have no fast hardware form: the accurate float versions.
SLMC_AMP_F1(asin, __spirv_ocl_asin(x), float(detail::soft::asin(x)), std::asin(x))
SLMC_AMP_F1(acos, __spirv_ocl_acos(x), float(detail::soft::acos(x)), std::acos(x))
SLMC_AMP_F1(atan, __spirv_ocl_atan(x), float(detail::soft::atan(x)), std::atan(x))
SLMC_AMP_F1(sinh, __spirv_ocl_sinh(x), float(detail::soft::sinh(x)), std::sinh(x))
SLMC_AMP_F1(cosh, __spirv_ocl_cosh(x), float(detail::soft::cosh(x)), std::cosh(x))
SLMC_AMP_F1(tanh, __spirv_ocl_tanh(x), float(detail::soft::tanh(x)), std::tanh(x))
SLMC_AMP_F2(atan2, __spirv_ocl_atan2(x, y), float(detail::soft::atan2(x, y)), std::atan2(x, y))
#if defined(SLMC_PASS_PTX)
SLMC_HD inline float pow(float x, float y) SLMC_AMP_PREFERRED {
  return __nvvm_ex2_approx_f(y * __nvvm_lg2_approx_f(x));
}
#else
SLMC_HD inline float pow(float x, float y) SLMC_AMP_PREFERRED {
#if defined(SLMC_PASS_SPIRV)
  return __spirv_ocl_native_powr(x, y);
#else
  return std::pow(x, y);
#endif
}
#endif
SLMC_HD inline float powf(float x, float y) SLMC_AMP_PREFERRED { return pow(x, y); }
SLMC_HD inline void sincos(float x, float *s, float *c) SLMC_AMP_PREFERRED {
  *s = sin(x);
  *c = cos(x);
}
SLMC_HD inline void sincosf(float x, float *s, float *c) SLMC_AMP_PREFERRED { sincos(x, s, c); }
#undef SLMC_AMP_FAST
} // namespace fast_math

namespace precise_math {
SLMC_AMP_EXACT_FUNCTIONS

// Double versions of the exact functions.
SLMC_HD inline double fabs(double x) SLMC_AMP_PREFERRED { return __builtin_fabs(x); }
SLMC_HD inline double floor(double x) SLMC_AMP_PREFERRED { return __builtin_floor(x); }
SLMC_HD inline double ceil(double x) SLMC_AMP_PREFERRED { return __builtin_ceil(x); }
SLMC_HD inline double trunc(double x) SLMC_AMP_PREFERRED { return __builtin_trunc(x); }
SLMC_HD inline double round(double x) SLMC_AMP_PREFERRED { return __builtin_round(x); }
SLMC_HD inline double rint(double x) SLMC_AMP_PREFERRED { return __builtin_rint(x); }
SLMC_HD inline float rint(float x) SLMC_AMP_PREFERRED { return __builtin_rintf(x); }
SLMC_HD inline float rintf(float x) SLMC_AMP_PREFERRED { return __builtin_rintf(x); }
SLMC_HD inline double nearbyint(double x) SLMC_AMP_PREFERRED { return __builtin_rint(x); }
SLMC_HD inline float nearbyint(float x) SLMC_AMP_PREFERRED { return __builtin_rintf(x); }
SLMC_HD inline double fmin(double x, double y) SLMC_AMP_PREFERRED { return __builtin_fmin(x, y); }
SLMC_HD inline double fmax(double x, double y) SLMC_AMP_PREFERRED { return __builtin_fmax(x, y); }
SLMC_HD inline double fmod(double x, double y) SLMC_AMP_PREFERRED { return __builtin_fmod(x, y); }
SLMC_HD inline double fma(double x, double y, double z) SLMC_AMP_PREFERRED { return __builtin_fma(x, y, z); }
SLMC_HD inline float fma(float x, float y, float z) SLMC_AMP_PREFERRED { return __builtin_fmaf(x, y, z); }
SLMC_HD inline float fmaf(float x, float y, float z) SLMC_AMP_PREFERRED { return __builtin_fmaf(x, y, z); }
SLMC_HD inline double copysign(double x, double y) SLMC_AMP_PREFERRED { return __builtin_copysign(x, y); }
SLMC_HD inline float copysign(float x, float y) SLMC_AMP_PREFERRED { return __builtin_copysignf(x, y); }
SLMC_HD inline float copysignf(float x, float y) SLMC_AMP_PREFERRED { return __builtin_copysignf(x, y); }
SLMC_HD inline double fdim(double x, double y) SLMC_AMP_PREFERRED { return x > y ? x - y : (x != x || y != y) ? x + y : 0.0; }
SLMC_HD inline float fdim(float x, float y) SLMC_AMP_PREFERRED { return x > y ? x - y : (x != x || y != y) ? x + y : 0.0f; }
SLMC_HD inline float fdimf(float x, float y) SLMC_AMP_PREFERRED { return fdim(x, y); }
SLMC_HD inline int isnan(double x) SLMC_AMP_PREFERRED { return __builtin_isnan(x); }
SLMC_HD inline int isinf(double x) SLMC_AMP_PREFERRED { return __builtin_isinf(x); }
SLMC_HD inline int isfinite(double x) SLMC_AMP_PREFERRED { return __builtin_isfinite(x); }
SLMC_HD inline int signbit(double x) SLMC_AMP_PREFERRED { return __builtin_signbit(x); }
SLMC_HD inline double frexp(double x, int *e) SLMC_AMP_PREFERRED { return detail::soft::frexp(x, e); }
SLMC_HD inline double ldexp(double x, int e) SLMC_AMP_PREFERRED { return detail::soft::ldexp(x, e); }
SLMC_HD inline double modf(double x, double *ip) SLMC_AMP_PREFERRED { return detail::soft::modf(x, ip); }

// sqrt is correctly rounded everywhere (sqrt.rn on PTX), and sets no
// errno (SLMC_SQRT).
SLMC_HD inline float sqrt(float x) SLMC_AMP_PREFERRED { return SLMC_SQRT(x); }
SLMC_HD inline float sqrtf(float x) SLMC_AMP_PREFERRED { return SLMC_SQRT(x); }
SLMC_HD inline double sqrt(double x) SLMC_AMP_PREFERRED { return SLMC_SQRT(x); }
// rsqrt is no C library function and sets no errno (SLMC_SQRT).
SLMC_AMP_F1(rsqrt, __spirv_ocl_rsqrt(x), 1.0f / __builtin_sqrtf(x),
            1.0f / SLMC_SQRT(x))
SLMC_AMP_D1(rsqrt, __spirv_ocl_rsqrt(x), 1.0 / __builtin_sqrt(x),
            1.0 / SLMC_SQRT(x))

#define SLMC_AMP_PRECISE1(name)                                                \
  SLMC_AMP_F1(name, __spirv_ocl_##name(x), float(detail::soft::name(double(x))), \
              std::name(x))                                                    \
  SLMC_AMP_D1(name, __spirv_ocl_##name(x), detail::soft::name(x), std::name(x))
#define SLMC_AMP_PRECISE2(name)                                                \
  SLMC_AMP_F2(name, __spirv_ocl_##name(x, y),                                  \
              float(detail::soft::name(double(x), double(y))), std::name(x, y)) \
  SLMC_AMP_D2(name, __spirv_ocl_##name(x, y), detail::soft::name(x, y), std::name(x, y))

SLMC_AMP_PRECISE1(exp)
SLMC_AMP_PRECISE1(exp2)
SLMC_AMP_PRECISE1(expm1)
SLMC_AMP_PRECISE1(log)
SLMC_AMP_PRECISE1(log2)
SLMC_AMP_PRECISE1(log10)
SLMC_AMP_PRECISE1(log1p)
SLMC_AMP_PRECISE1(sin)
SLMC_AMP_PRECISE1(cos)
SLMC_AMP_PRECISE1(tan)
SLMC_AMP_PRECISE1(asin)
SLMC_AMP_PRECISE1(acos)
SLMC_AMP_PRECISE1(atan)
SLMC_AMP_PRECISE1(sinh)
SLMC_AMP_PRECISE1(cosh)
SLMC_AMP_PRECISE1(tanh)
SLMC_AMP_PRECISE1(cbrt)
SLMC_AMP_PRECISE2(pow)
SLMC_AMP_PRECISE2(atan2)
SLMC_AMP_PRECISE2(hypot)
SLMC_AMP_F1(exp10, __spirv_ocl_exp10(x), float(detail::soft::exp10(double(x))),
            std::pow(10.0f, x))
SLMC_AMP_D1(exp10, __spirv_ocl_exp10(x), detail::soft::exp10(x), std::pow(10.0, x))

SLMC_HD inline void sincos(float x, float *s, float *c) SLMC_AMP_PREFERRED {
  *s = sin(x);
  *c = cos(x);
}
SLMC_HD inline void sincosf(float x, float *s, float *c) SLMC_AMP_PREFERRED { sincos(x, s, c); }
SLMC_HD inline void sincos(double x, double *s, double *c) SLMC_AMP_PREFERRED {
#if defined(SLMC_AMP_MATH_SOFT) && !defined(SLMC_PASS_SPIRV)
  detail::soft::sincos(x, *s, *c);
#else
  *s = sin(x);
  *c = cos(x);
#endif
}
SLMC_AMP_PRECISE1(acosh)
SLMC_AMP_PRECISE1(asinh)
SLMC_AMP_PRECISE1(atanh)
SLMC_AMP_PRECISE1(logb)
SLMC_AMP_PRECISE2(remainder)
// sin(pi x), cos(pi x), tan(pi x): the C++ library has none.
#define SLMC_AMP_PI1(name)                                                     \
  SLMC_AMP_F1(name, __spirv_ocl_##name(x), float(detail::soft::name(double(x))), \
              float(detail::soft::name(double(x))))                            \
  SLMC_AMP_D1(name, __spirv_ocl_##name(x), detail::soft::name(x), detail::soft::name(x))
SLMC_AMP_PI1(sinpi)
SLMC_AMP_PI1(cospi)
SLMC_AMP_PI1(tanpi)
#undef SLMC_AMP_PI1

// libdevice on PTX (see the top); the host's library also where the
// software library stands in for PTX's on the host (SLMC_AMP_SOFT_MATH).
#if defined(SLMC_PASS_SPIRV)
#define SLMC_AMP_PICK_NV(spirv, nv, host) spirv
#elif defined(SLMC_PASS_PTX)
#define SLMC_AMP_PICK_NV(spirv, nv, host) nv
#else
#define SLMC_AMP_PICK_NV(spirv, nv, host) host
#endif
#define SLMC_AMP_NV1(name)                                                     \
  SLMC_HD inline float name(float x) SLMC_AMP_PREFERRED {                                         \
    return SLMC_AMP_PICK_NV(__spirv_ocl_##name(x), __nv_##name##f(x), std::name(x)); \
  }                                                                            \
  SLMC_HD inline float name##f(float x) SLMC_AMP_PREFERRED { return name(x); }                    \
  SLMC_HD inline double name(double x) SLMC_AMP_PREFERRED {                                       \
    return SLMC_AMP_PICK_NV(__spirv_ocl_##name(x), __nv_##name(x), std::name(x)); \
  }
SLMC_AMP_NV1(erf)
SLMC_AMP_NV1(erfc)
SLMC_AMP_NV1(tgamma)
#undef SLMC_AMP_NV1

/// ln |gamma(x)|, and the sign of gamma(x) in `sign`.
SLMC_HD inline float lgamma(float x, int *sign) SLMC_AMP_PREFERRED {
  *sign = (x > 0.0f || (x == 0.0f && !__builtin_signbit(x)) ||
           (x < 0.0f && __builtin_fmodf(__builtin_floorf(x), 2.0f) == 0.0f))
              ? 1
              : -1;
  return SLMC_AMP_PICK_NV(__spirv_ocl_lgamma(x), __nv_lgammaf(x), std::lgamma(x));
}
SLMC_HD inline float lgammaf(float x, int *sign) SLMC_AMP_PREFERRED { return lgamma(x, sign); }
SLMC_HD inline double lgamma(double x, int *sign) SLMC_AMP_PREFERRED {
  *sign = (x > 0.0 || (x == 0.0 && !__builtin_signbit(x)) ||
           (x < 0.0 && __builtin_fmod(__builtin_floor(x), 2.0) == 0.0))
              ? 1
              : -1;
  return SLMC_AMP_PICK_NV(__spirv_ocl_lgamma(x), __nv_lgamma(x), std::lgamma(x));
}

} // namespace precise_math

namespace detail {
// erfinv and erfcinv where no library has them (OpenCL, C++): Winitzki's
// closed form, good to about 2e-3, then Halley steps (cubic: three reach
// double precision). Near y = +-1 they solve erfc(x) = 1 - |y| instead,
// which 1 - |y| holds exactly and erfc to full relative precision.
template <class T> SLMC_HD inline T inv_guess(T one_minus_y2) SLMC_AMP_PREFERRED {
  const T w = precise_math::log(one_minus_y2); // ln(1 - y^2)
  const T a = T(0.147), u = T(4.330746750799873) + w / T(2); // 2 / (pi a)
  return precise_math::sqrt(precise_math::sqrt(u * u - w / a) - u);
}
/// erfinv(y), 0 <= y <= 1/2.
template <class T> SLMC_HD inline T erfinv_center(T y) SLMC_AMP_PREFERRED {
  T x = inv_guess((T(1) - y) * (T(1) + y));
  for (int k = 0; k < (sizeof(T) == 4 ? 2 : 3); ++k) {
    T f = precise_math::erf(x) - y;
    T d = T(1.1283791670955126) * precise_math::exp(-x * x); // f'
    x -= f / (d + x * f);                                     // f'' = -2x f'
  }
  return x;
}
/// erfcinv(z), 0 < z <= 1/2.
template <class T> SLMC_HD inline T erfcinv_tail(T z) SLMC_AMP_PREFERRED {
  T x = inv_guess(z * (T(2) - z));
  for (int k = 0; k < (sizeof(T) == 4 ? 2 : 3); ++k) {
    T g = precise_math::erfc(x) - z;
    T d = T(-1.1283791670955126) * precise_math::exp(-x * x); // g'
    x -= g / (d + x * g);                                      // g'' = -2x g'
  }
  return x;
}
/// erfcinv(z), 0 < z <= 1.
template <class T> SLMC_HD inline T erfcinv_upper(T z) SLMC_AMP_PREFERRED {
  return z >= T(0.5) ? erfinv_center(T(1) - z) : erfcinv_tail(z); // (1 - z exact)
}
template <class T> SLMC_HD inline T erfinv_any(T y) SLMC_AMP_PREFERRED {
  if (y != y) return y;
  T a = y < T(0) ? -y : y;
  if (a > T(1)) return T(__builtin_nan(""));
  if (a == T(1)) return y * T(__builtin_inf());
  if (a == T(0)) return y;
  T x = a <= T(0.5) ? erfinv_center(a) : erfcinv_tail(T(1) - a); // (exact)
  return y < T(0) ? -x : x;
}
template <class T> SLMC_HD inline T erfcinv_any(T z) SLMC_AMP_PREFERRED {
  if (z != z) return z;
  if (z < T(0) || z > T(2)) return T(__builtin_nan(""));
  if (z == T(0)) return T(__builtin_inf());
  if (z == T(2)) return -T(__builtin_inf());
  return z <= T(1) ? erfcinv_upper(z) : -erfcinv_upper(T(2) - z); // (exact)
}
/// erfc(-x / sqrt 2) / 2. The argument's rounding error would grow with
/// x^2 in the tail: erfc is taken at y = hi + lo (-x / sqrt 2 as a
/// double-double), corrected to first order.
template <class T> SLMC_HD inline T phi_(T x, T r_hi, T r_lo) {
  T hi = -x * r_hi;
  T lo = precise_math::fma(-x, r_hi, -hi) - x * r_lo;
  return T(0.5) * (precise_math::erfc(hi) -
                   T(1.1283791670955126) * precise_math::exp(-hi * hi) * lo);
}
} // namespace detail

namespace precise_math {

SLMC_HD inline float erfinv(float x) SLMC_AMP_PREFERRED {
  return SLMC_AMP_PICK_NV(detail::erfinv_any(x), __nv_erfinvf(x), detail::erfinv_any(x));
}
SLMC_HD inline float erfinvf(float x) SLMC_AMP_PREFERRED { return erfinv(x); }
SLMC_HD inline double erfinv(double x) SLMC_AMP_PREFERRED {
  return SLMC_AMP_PICK_NV(detail::erfinv_any(x), __nv_erfinv(x), detail::erfinv_any(x));
}
SLMC_HD inline float erfcinv(float x) SLMC_AMP_PREFERRED {
  return SLMC_AMP_PICK_NV(detail::erfcinv_any(x), __nv_erfcinvf(x), detail::erfcinv_any(x));
}
SLMC_HD inline float erfcinvf(float x) SLMC_AMP_PREFERRED { return erfcinv(x); }
SLMC_HD inline double erfcinv(double x) SLMC_AMP_PREFERRED {
  return SLMC_AMP_PICK_NV(detail::erfcinv_any(x), __nv_erfcinv(x), detail::erfcinv_any(x));
}
/// The standard normal distribution function, erfc(-x / sqrt 2) / 2.
SLMC_HD inline float phi(float x) SLMC_AMP_PREFERRED {
  return SLMC_AMP_PICK_NV(detail::phi_(x, 0.707106769f, 1.21016175e-08f), __nv_normcdff(x),
                          detail::phi_(x, 0.707106769f, 1.21016175e-08f));
}
SLMC_HD inline float phif(float x) SLMC_AMP_PREFERRED { return phi(x); }
SLMC_HD inline double phi(double x) SLMC_AMP_PREFERRED {
  return SLMC_AMP_PICK_NV(detail::phi_(x, 0.70710678118654757, -4.8336466567264567e-17),
                          __nv_normcdf(x),
                          detail::phi_(x, 0.70710678118654757, -4.8336466567264567e-17));
}
#undef SLMC_AMP_PICK_NV

// Exponents, neighbours, classification.
SLMC_HD inline int ilogb(float x) SLMC_AMP_PREFERRED {
  return SLMC_AMP_PICK(__spirv_ocl_ilogb(x), detail::soft::ilogb(double(x)), std::ilogb(x));
}
SLMC_HD inline int ilogbf(float x) SLMC_AMP_PREFERRED { return ilogb(x); }
SLMC_HD inline int ilogb(double x) SLMC_AMP_PREFERRED {
  return SLMC_AMP_PICK(__spirv_ocl_ilogb(x), detail::soft::ilogb(x), std::ilogb(x));
}
SLMC_HD inline float nextafter(float x, float y) SLMC_AMP_PREFERRED {
#if defined(SLMC_PASS_SPIRV)
  return __spirv_ocl_nextafter(x, y);
#else // (in float: the double neighbour would round back to x)
  if (x != x || y != y) return x + y;
  if (x == y) return y;
  uint32_t b = __builtin_bit_cast(uint32_t, x);
  if (x == 0.0f)
    return __builtin_copysignf(__builtin_bit_cast(float, uint32_t(1)), y);
  b += ((x < y) == (x > 0.0f)) ? 1u : uint32_t(-1);
  return __builtin_bit_cast(float, b);
#endif
}
SLMC_HD inline float nextafterf(float x, float y) SLMC_AMP_PREFERRED { return nextafter(x, y); }
SLMC_HD inline double nextafter(double x, double y) SLMC_AMP_PREFERRED {
  return SLMC_AMP_PICK(__spirv_ocl_nextafter(x, y), detail::soft::nextafter(x, y),
                       std::nextafter(x, y));
}
SLMC_HD inline float remquo(float x, float y, int *quo) SLMC_AMP_PREFERRED {
  return float(detail::soft::remquo(double(x), double(y), quo)); // exact in double
}
SLMC_HD inline float remquof(float x, float y, int *quo) SLMC_AMP_PREFERRED { return remquo(x, y, quo); }
SLMC_HD inline double remquo(double x, double y, int *quo) SLMC_AMP_PREFERRED {
  return detail::soft::remquo(x, y, quo);
}
SLMC_HD inline float scalbn(float x, int n) SLMC_AMP_PREFERRED { return ldexp(x, n); }
SLMC_HD inline float scalbnf(float x, int n) SLMC_AMP_PREFERRED { return ldexp(x, n); }
SLMC_HD inline double scalbn(double x, int n) SLMC_AMP_PREFERRED { return ldexp(x, n); }
/// x 2^y for a whole y.
SLMC_HD inline float scalb(float x, float y) SLMC_AMP_PREFERRED {
  if (y != y) return x + y;
  return ldexp(x, y > 300.0f ? 300 : y < -300.0f ? -300 : int(y));
}
SLMC_HD inline float scalbf(float x, float y) SLMC_AMP_PREFERRED { return scalb(x, y); }
SLMC_HD inline double scalb(double x, double y) SLMC_AMP_PREFERRED {
  if (y != y) return x + y;
  return ldexp(x, y > 2200.0 ? 2200 : y < -2200.0 ? -2200 : int(y));
}
SLMC_HD inline float rcbrt(float x) SLMC_AMP_PREFERRED { return 1.0f / cbrt(x); }
SLMC_HD inline float rcbrtf(float x) SLMC_AMP_PREFERRED { return rcbrt(x); }
SLMC_HD inline double rcbrt(double x) SLMC_AMP_PREFERRED { return 1.0 / cbrt(x); }
SLMC_HD inline int isnormal(float x) SLMC_AMP_PREFERRED { return __builtin_isnormal(x); }
SLMC_HD inline int isnormal(double x) SLMC_AMP_PREFERRED { return __builtin_isnormal(x); }
SLMC_HD inline int fpclassify(float x) SLMC_AMP_PREFERRED {
  return __builtin_fpclassify(FP_NAN, FP_INFINITE, FP_NORMAL, FP_SUBNORMAL, FP_ZERO, x);
}
SLMC_HD inline int fpclassify(double x) SLMC_AMP_PREFERRED {
  return __builtin_fpclassify(FP_NAN, FP_INFINITE, FP_NORMAL, FP_SUBNORMAL, FP_ZERO, x);
}
/// A quiet NaN (the argument, as in C++ AMP, is not used).
SLMC_HD inline float nanf(int) SLMC_AMP_PREFERRED { return __builtin_nanf(""); }
SLMC_HD inline double nan(int) SLMC_AMP_PREFERRED { return __builtin_nan(""); }
#undef SLMC_AMP_PRECISE1
#undef SLMC_AMP_PRECISE2
} // namespace precise_math

#undef SLMC_AMP_EXACT_FUNCTIONS
#undef SLMC_AMP_F1
#undef SLMC_AMP_D1
#undef SLMC_AMP_F2
#undef SLMC_AMP_D2
#undef SLMC_AMP_PICK
#undef SLMC_AMP_PREFERRED

} // namespace Concurrency

#endif // SLMC_AMP_MATH_H
