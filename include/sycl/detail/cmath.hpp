//===- sycl/detail/cmath.hpp - <cmath> and <math.h> in SYCL kernels -------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// SYCL kernels call the C and C++ standard math functions as DPC++ lets
// them: `std::sqrt(x)` on a double, `sqrtf(x)`, `expf`, `pow`, `std::abs(i)`.
// In the device passes the C library's functions are host functions (and
// libstdc++'s double overloads are the C ones, through `using ::sqrt;`), so
// each gets a device overload of the same signature here that computes the
// SYCL built-in (math.hpp: OpenCL extended instructions on SPIR-V, libdevice
// or slmc's software library on PTX). Clang picks the device overload in
// device code; the host pass and the CPU fallback keep the C library.
// Re-declaring `using ::name;` in std after the overloads makes `std::name`
// see them whichever of <cmath> and <sycl/sycl.hpp> came first.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_SYCL_DETAIL_CMATH_HPP
#define SLMC_SYCL_DETAIL_CMATH_HPP

#include "sycl/detail/math.hpp"

#include <cmath>
#include <cstdlib>

// Cilk Plus's <slmc/detail/device_libm.h> defines its own device <math.h>
// for SPIR-V and PTX; a translation unit has one or the other.
#if defined(SLMC_DEVICE_PASS) && !defined(SLMC_DETAIL_DEVICE_LIBM_H)

#define SLMC_SYCL_CMATH_1(name)                                                \
  SLMC_DEVICE_ONLY inline float name##f(float x) { return ::sycl::name(x); }   \
  SLMC_DEVICE_ONLY inline double name(double x) { return ::sycl::name(x); }    \
  namespace std {                                                              \
  using ::name;                                                                \
  using ::name##f;                                                             \
  }
#define SLMC_SYCL_CMATH_2(name)                                                \
  SLMC_DEVICE_ONLY inline float name##f(float x, float y) { return ::sycl::name(x, y); } \
  SLMC_DEVICE_ONLY inline double name(double x, double y) { return ::sycl::name(x, y); } \
  namespace std {                                                              \
  using ::name;                                                                \
  using ::name##f;                                                             \
  }

SLMC_SYCL_CMATH_1(acos)
SLMC_SYCL_CMATH_1(acosh)
SLMC_SYCL_CMATH_1(asin)
SLMC_SYCL_CMATH_1(asinh)
SLMC_SYCL_CMATH_1(atan)
SLMC_SYCL_CMATH_1(atanh)
SLMC_SYCL_CMATH_1(cbrt)
SLMC_SYCL_CMATH_1(ceil)
SLMC_SYCL_CMATH_1(cos)
SLMC_SYCL_CMATH_1(cosh)
SLMC_SYCL_CMATH_1(erf)
SLMC_SYCL_CMATH_1(erfc)
SLMC_SYCL_CMATH_1(exp)
SLMC_SYCL_CMATH_1(exp2)
SLMC_SYCL_CMATH_1(expm1)
SLMC_SYCL_CMATH_1(fabs)
SLMC_SYCL_CMATH_1(floor)
SLMC_SYCL_CMATH_1(lgamma)
SLMC_SYCL_CMATH_1(log)
SLMC_SYCL_CMATH_1(log10)
SLMC_SYCL_CMATH_1(log1p)
SLMC_SYCL_CMATH_1(log2)
SLMC_SYCL_CMATH_1(logb)
SLMC_SYCL_CMATH_1(rint)
SLMC_SYCL_CMATH_1(round)
SLMC_SYCL_CMATH_1(sin)
SLMC_SYCL_CMATH_1(sinh)
SLMC_SYCL_CMATH_1(sqrt)
SLMC_SYCL_CMATH_1(tan)
SLMC_SYCL_CMATH_1(tanh)
SLMC_SYCL_CMATH_1(tgamma)
SLMC_SYCL_CMATH_1(trunc)
SLMC_SYCL_CMATH_2(atan2)
SLMC_SYCL_CMATH_2(copysign)
SLMC_SYCL_CMATH_2(fdim)
SLMC_SYCL_CMATH_2(fmax)
SLMC_SYCL_CMATH_2(fmin)
SLMC_SYCL_CMATH_2(fmod)
SLMC_SYCL_CMATH_2(hypot)
SLMC_SYCL_CMATH_2(nextafter)
SLMC_SYCL_CMATH_2(pow)
SLMC_SYCL_CMATH_2(remainder)
#undef SLMC_SYCL_CMATH_1
#undef SLMC_SYCL_CMATH_2

SLMC_DEVICE_ONLY inline float fmaf(float x, float y, float z) { return ::sycl::fma(x, y, z); }
SLMC_DEVICE_ONLY inline double fma(double x, double y, double z) { return ::sycl::fma(x, y, z); }
SLMC_DEVICE_ONLY inline float ldexpf(float x, int k) { return ::sycl::ldexp(x, k); }
SLMC_DEVICE_ONLY inline double ldexp(double x, int k) { return ::sycl::ldexp(x, k); }
namespace std {
using ::fma;
using ::fmaf;
using ::ldexp;
using ::ldexpf;
} // namespace std

// <cstdlib>'s integer abs: C's ::abs/labs/llabs, and libstdc++'s own
// std::abs(long) and std::abs(long long).
SLMC_DEVICE_ONLY inline int abs(int x) { return x < 0 ? -x : x; }
SLMC_DEVICE_ONLY inline long labs(long x) { return x < 0 ? -x : x; }
SLMC_DEVICE_ONLY inline long long llabs(long long x) { return x < 0 ? -x : x; }
namespace std {
using ::abs;
using ::labs;
using ::llabs;
SLMC_DEVICE_ONLY inline long abs(long x) { return x < 0 ? -x : x; }
SLMC_DEVICE_ONLY inline long long abs(long long x) { return x < 0 ? -x : x; }
} // namespace std

#endif // SLMC_DEVICE_PASS && !SLMC_DETAIL_DEVICE_LIBM_H

#endif // SLMC_SYCL_DETAIL_CMATH_HPP
