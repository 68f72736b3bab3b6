//===- sycl/detail/math.hpp - Math functions usable in kernels ------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The <cmath> functions are host functions in the device passes; these are
// built on Clang builtins that every pass compiles (the device compilers
// turn them into SPIR-V instructions or PTX).
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_SYCL_DETAIL_MATH_HPP
#define SLMC_SYCL_DETAIL_MATH_HPP

#include "sycl/detail/common.hpp"

namespace sycl {

template <typename T> SLMC_HD constexpr T min(T a, T b) { return b < a ? b : a; }
template <typename T> SLMC_HD constexpr T max(T a, T b) { return a < b ? b : a; }
template <typename T> SLMC_HD constexpr T clamp(T x, T lo, T hi) {
  return x < lo ? lo : hi < x ? hi : x;
}
template <typename T, typename = typename std::enable_if<std::is_integral<T>::value>::type>
SLMC_HD constexpr T abs(T x) {
  return x < 0 ? T(-x) : x;
}

SLMC_HD inline float fabs(float x) { return __builtin_fabsf(x); }
SLMC_HD inline double fabs(double x) { return __builtin_fabs(x); }
SLMC_HD inline float sqrt(float x) { return __builtin_sqrtf(x); }
SLMC_HD inline double sqrt(double x) { return __builtin_sqrt(x); }
SLMC_HD inline float rsqrt(float x) { return 1.0f / __builtin_sqrtf(x); }
SLMC_HD inline double rsqrt(double x) { return 1.0 / __builtin_sqrt(x); }
SLMC_HD inline float fmin(float a, float b) { return __builtin_fminf(a, b); }
SLMC_HD inline double fmin(double a, double b) { return __builtin_fmin(a, b); }
SLMC_HD inline float fmax(float a, float b) { return __builtin_fmaxf(a, b); }
SLMC_HD inline double fmax(double a, double b) { return __builtin_fmax(a, b); }
SLMC_HD inline float floor(float x) { return __builtin_floorf(x); }
SLMC_HD inline double floor(double x) { return __builtin_floor(x); }
SLMC_HD inline float ceil(float x) { return __builtin_ceilf(x); }
SLMC_HD inline double ceil(double x) { return __builtin_ceil(x); }
SLMC_HD inline float trunc(float x) { return __builtin_truncf(x); }
SLMC_HD inline double trunc(double x) { return __builtin_trunc(x); }
SLMC_HD inline float fma(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
SLMC_HD inline double fma(double a, double b, double c) { return __builtin_fma(a, b, c); }
SLMC_HD inline float mad(float a, float b, float c) { return a * b + c; }
SLMC_HD inline double mad(double a, double b, double c) { return a * b + c; }
SLMC_HD inline float copysign(float a, float b) { return __builtin_copysignf(a, b); }
SLMC_HD inline double copysign(double a, double b) { return __builtin_copysign(a, b); }

} // namespace sycl

#endif // SLMC_SYCL_DETAIL_MATH_HPP
