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
//   PTX      sin/cos/ex2/lg2/rsqrt .approx    the software library below (no
//                                             libdevice is linked); float
//                                             functions evaluate in double
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
SLMC_OCL_1(native_cos) SLMC_OCL_1(native_exp) SLMC_OCL_1(native_exp2)
SLMC_OCL_1(native_exp10) SLMC_OCL_1(native_log) SLMC_OCL_1(native_log2)
SLMC_OCL_1(native_log10) SLMC_OCL_1(native_rsqrt) SLMC_OCL_1(native_sin)
SLMC_OCL_1(native_sqrt) SLMC_OCL_1(native_tan)
SLMC_OCL_2(atan2) SLMC_OCL_2(copysign) SLMC_OCL_2(fdim) SLMC_OCL_2(fmax)
SLMC_OCL_2(fmin) SLMC_OCL_2(fmod) SLMC_OCL_2(hypot) SLMC_OCL_2(pow)
SLMC_OCL_2(native_powr)
#undef SLMC_OCL_1
#undef SLMC_OCL_2
#endif

#include "slmc/detail/soft_math.h"

namespace Concurrency {
namespace detail {
namespace soft = ::slmc::soft;
} // namespace detail
} // namespace Concurrency

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
  SLMC_HD inline float name(float x) { return SLMC_AMP_PICK(spirv, soft, host); } \
  SLMC_HD inline float name##f(float x) { return name(x); }
#define SLMC_AMP_D1(name, spirv, soft, host)                                   \
  SLMC_HD inline double name(double x) { return SLMC_AMP_PICK(spirv, soft, host); }
#define SLMC_AMP_F2(name, spirv, soft, host)                                   \
  SLMC_HD inline float name(float x, float y) { return SLMC_AMP_PICK(spirv, soft, host); } \
  SLMC_HD inline float name##f(float x, float y) { return name(x, y); }
#define SLMC_AMP_D2(name, spirv, soft, host)                                   \
  SLMC_HD inline double name(double x, double y) { return SLMC_AMP_PICK(spirv, soft, host); }

// Functions exact in every pass (clang builtins lower natively everywhere).
#define SLMC_AMP_EXACT_FUNCTIONS                                               \
  SLMC_HD inline float fabs(float x) { return __builtin_fabsf(x); }            \
  SLMC_HD inline float fabsf(float x) { return __builtin_fabsf(x); }           \
  SLMC_HD inline float floor(float x) { return __builtin_floorf(x); }          \
  SLMC_HD inline float floorf(float x) { return __builtin_floorf(x); }         \
  SLMC_HD inline float ceil(float x) { return __builtin_ceilf(x); }            \
  SLMC_HD inline float ceilf(float x) { return __builtin_ceilf(x); }           \
  SLMC_HD inline float trunc(float x) { return __builtin_truncf(x); }          \
  SLMC_HD inline float truncf(float x) { return __builtin_truncf(x); }         \
  SLMC_HD inline float round(float x) { return __builtin_roundf(x); }          \
  SLMC_HD inline float roundf(float x) { return __builtin_roundf(x); }         \
  SLMC_HD inline float fmin(float x, float y) { return __builtin_fminf(x, y); } \
  SLMC_HD inline float fminf(float x, float y) { return __builtin_fminf(x, y); } \
  SLMC_HD inline float fmax(float x, float y) { return __builtin_fmaxf(x, y); } \
  SLMC_HD inline float fmaxf(float x, float y) { return __builtin_fmaxf(x, y); } \
  SLMC_HD inline float fmod(float x, float y) { return __builtin_fmodf(x, y); } \
  SLMC_HD inline float fmodf(float x, float y) { return __builtin_fmodf(x, y); } \
  SLMC_HD inline int isnan(float x) { return __builtin_isnan(x); }             \
  SLMC_HD inline int isinf(float x) { return __builtin_isinf(x); }             \
  SLMC_HD inline int isfinite(float x) { return __builtin_isfinite(x); }       \
  SLMC_HD inline int signbit(float x) { return __builtin_signbit(x); }         \
  SLMC_HD inline int signbitf(float x) { return __builtin_signbit(x); }        \
  SLMC_HD inline float frexp(float x, int *e) { return detail::soft::frexpf(x, e); } \
  SLMC_HD inline float frexpf(float x, int *e) { return detail::soft::frexpf(x, e); } \
  SLMC_HD inline float ldexp(float x, int e) { return detail::soft::ldexpf(x, e); } \
  SLMC_HD inline float ldexpf(float x, int e) { return detail::soft::ldexpf(x, e); } \
  SLMC_HD inline float modf(float x, float *ip) { return detail::soft::modff(x, ip); } \
  SLMC_HD inline float modff(float x, float *ip) { return detail::soft::modff(x, ip); }

namespace fast_math {
SLMC_AMP_EXACT_FUNCTIONS

#if defined(SLMC_PASS_PTX)
// PTX's approximate instructions (MUFU): about 2 ulp in the usual ranges.
// sin.approx and cos.approx are accurate on [-pi, pi] only: larger
// arguments are first reduced by 2 pi (two-constant Cody-Waite).
SLMC_HD inline float reduce_2pi(float x) {
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
SLMC_HD inline float pow(float x, float y) {
  return __nvvm_ex2_approx_f(y * __nvvm_lg2_approx_f(x));
}
#else
SLMC_HD inline float pow(float x, float y) {
#if defined(SLMC_PASS_SPIRV)
  return __spirv_ocl_native_powr(x, y);
#else
  return std::pow(x, y);
#endif
}
#endif
SLMC_HD inline float powf(float x, float y) { return pow(x, y); }
SLMC_HD inline void sincos(float x, float *s, float *c) {
  *s = sin(x);
  *c = cos(x);
}
SLMC_HD inline void sincosf(float x, float *s, float *c) { sincos(x, s, c); }
#undef SLMC_AMP_FAST
} // namespace fast_math

namespace precise_math {
SLMC_AMP_EXACT_FUNCTIONS

// Double versions of the exact functions.
SLMC_HD inline double fabs(double x) { return __builtin_fabs(x); }
SLMC_HD inline double floor(double x) { return __builtin_floor(x); }
SLMC_HD inline double ceil(double x) { return __builtin_ceil(x); }
SLMC_HD inline double trunc(double x) { return __builtin_trunc(x); }
SLMC_HD inline double round(double x) { return __builtin_round(x); }
SLMC_HD inline double rint(double x) { return __builtin_rint(x); }
SLMC_HD inline float rint(float x) { return __builtin_rintf(x); }
SLMC_HD inline float rintf(float x) { return __builtin_rintf(x); }
SLMC_HD inline double nearbyint(double x) { return __builtin_rint(x); }
SLMC_HD inline float nearbyint(float x) { return __builtin_rintf(x); }
SLMC_HD inline double fmin(double x, double y) { return __builtin_fmin(x, y); }
SLMC_HD inline double fmax(double x, double y) { return __builtin_fmax(x, y); }
SLMC_HD inline double fmod(double x, double y) { return __builtin_fmod(x, y); }
SLMC_HD inline double fma(double x, double y, double z) { return __builtin_fma(x, y, z); }
SLMC_HD inline float fma(float x, float y, float z) { return __builtin_fmaf(x, y, z); }
SLMC_HD inline float fmaf(float x, float y, float z) { return __builtin_fmaf(x, y, z); }
SLMC_HD inline double copysign(double x, double y) { return __builtin_copysign(x, y); }
SLMC_HD inline float copysign(float x, float y) { return __builtin_copysignf(x, y); }
SLMC_HD inline float copysignf(float x, float y) { return __builtin_copysignf(x, y); }
SLMC_HD inline double fdim(double x, double y) { return x > y ? x - y : (x != x || y != y) ? x + y : 0.0; }
SLMC_HD inline float fdim(float x, float y) { return x > y ? x - y : (x != x || y != y) ? x + y : 0.0f; }
SLMC_HD inline float fdimf(float x, float y) { return fdim(x, y); }
SLMC_HD inline int isnan(double x) { return __builtin_isnan(x); }
SLMC_HD inline int isinf(double x) { return __builtin_isinf(x); }
SLMC_HD inline int isfinite(double x) { return __builtin_isfinite(x); }
SLMC_HD inline int signbit(double x) { return __builtin_signbit(x); }
SLMC_HD inline double frexp(double x, int *e) { return detail::soft::frexp(x, e); }
SLMC_HD inline double ldexp(double x, int e) { return detail::soft::ldexp(x, e); }
SLMC_HD inline double modf(double x, double *ip) { return detail::soft::modf(x, ip); }

// sqrt is correctly rounded everywhere (sqrt.rn on PTX), and sets no
// errno (SLMC_SQRT).
SLMC_HD inline float sqrt(float x) { return SLMC_SQRT(x); }
SLMC_HD inline float sqrtf(float x) { return SLMC_SQRT(x); }
SLMC_HD inline double sqrt(double x) { return SLMC_SQRT(x); }
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

SLMC_HD inline void sincos(float x, float *s, float *c) {
  *s = sin(x);
  *c = cos(x);
}
SLMC_HD inline void sincosf(float x, float *s, float *c) { sincos(x, s, c); }
SLMC_HD inline void sincos(double x, double *s, double *c) {
#if defined(SLMC_AMP_MATH_SOFT) && !defined(SLMC_PASS_SPIRV)
  detail::soft::sincos(x, *s, *c);
#else
  *s = sin(x);
  *c = cos(x);
#endif
}
#undef SLMC_AMP_PRECISE1
#undef SLMC_AMP_PRECISE2
} // namespace precise_math

#undef SLMC_AMP_EXACT_FUNCTIONS
#undef SLMC_AMP_F1
#undef SLMC_AMP_D1
#undef SLMC_AMP_F2
#undef SLMC_AMP_D2
#undef SLMC_AMP_PICK

} // namespace Concurrency

#endif // SLMC_AMP_MATH_H
