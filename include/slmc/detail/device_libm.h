//===- slmc/detail/device_libm.h - C math functions in SPIR-V device code -===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Offloaded Cilk Plus code calls <math.h> as it is (sqrtf, expf, pow, ...),
// but the C library's functions are host functions. This header declares
// device-only overloads of them: for SPIR-V, forwarding to OpenCL's extended
// instructions (the __spirv_ocl_* names LLVM's SPIR-V backend turns into
// OpExtInst); for PTX, the ones with NVPTX instructions.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_DETAIL_DEVICE_LIBM_H
#define SLMC_DETAIL_DEVICE_LIBM_H

#if defined(SLMC_PASS_SPIRV)
#include <math.h>

#define SLMC_LIBM_1(name, ocl)                                                 \
  SLMC_DEVICE_ONLY float __spirv_ocl_##ocl(float);                             \
  SLMC_DEVICE_ONLY double __spirv_ocl_##ocl(double);                           \
  SLMC_DEVICE_ONLY inline float name##f(float x) { return __spirv_ocl_##ocl(x); } \
  SLMC_DEVICE_ONLY inline double name(double x) { return __spirv_ocl_##ocl(x); }
#define SLMC_LIBM_2(name, ocl)                                                 \
  SLMC_DEVICE_ONLY float __spirv_ocl_##ocl(float, float);                      \
  SLMC_DEVICE_ONLY double __spirv_ocl_##ocl(double, double);                   \
  SLMC_DEVICE_ONLY inline float name##f(float x, float y) {                    \
    return __spirv_ocl_##ocl(x, y);                                            \
  }                                                                            \
  SLMC_DEVICE_ONLY inline double name(double x, double y) { return __spirv_ocl_##ocl(x, y); }

SLMC_LIBM_1(sqrt, sqrt)
SLMC_LIBM_1(cbrt, cbrt)
SLMC_LIBM_1(fabs, fabs)
SLMC_LIBM_1(floor, floor)
SLMC_LIBM_1(ceil, ceil)
SLMC_LIBM_1(trunc, trunc)
SLMC_LIBM_1(round, round)
SLMC_LIBM_1(exp, exp)
SLMC_LIBM_1(exp2, exp2)
SLMC_LIBM_1(expm1, expm1)
SLMC_LIBM_1(log, log)
SLMC_LIBM_1(log2, log2)
SLMC_LIBM_1(log10, log10)
SLMC_LIBM_1(log1p, log1p)
SLMC_LIBM_1(sin, sin)
SLMC_LIBM_1(cos, cos)
SLMC_LIBM_1(tan, tan)
SLMC_LIBM_1(asin, asin)
SLMC_LIBM_1(acos, acos)
SLMC_LIBM_1(atan, atan)
SLMC_LIBM_1(sinh, sinh)
SLMC_LIBM_1(cosh, cosh)
SLMC_LIBM_1(tanh, tanh)
SLMC_LIBM_1(erf, erf)
SLMC_LIBM_1(erfc, erfc)
SLMC_LIBM_2(pow, pow)
SLMC_LIBM_2(atan2, atan2)
SLMC_LIBM_2(fmod, fmod)
SLMC_LIBM_2(fmin, fmin)
SLMC_LIBM_2(fmax, fmax)
SLMC_LIBM_2(hypot, hypot)
SLMC_LIBM_2(copysign, copysign)
SLMC_LIBM_2(fdim, fdim)

SLMC_DEVICE_ONLY float __spirv_ocl_fma(float, float, float);
SLMC_DEVICE_ONLY double __spirv_ocl_fma(double, double, double);
SLMC_DEVICE_ONLY inline float fmaf(float x, float y, float z) { return __spirv_ocl_fma(x, y, z); }
SLMC_DEVICE_ONLY inline double fma(double x, double y, double z) { return __spirv_ocl_fma(x, y, z); }

#undef SLMC_LIBM_1
#undef SLMC_LIBM_2

#elif defined(SLMC_PASS_PTX)
#include <math.h>

// The functions NVPTX has instructions for. (Transcendental functions are
// not provided for PTX yet: a nest calling expf, sinf, pow, ... builds for
// SPIR-V only; see docs/user-guide.md.)
#define SLMC_LIBM_1(name)                                                      \
  SLMC_DEVICE_ONLY inline float name##f(float x) { return __builtin_##name##f(x); } \
  SLMC_DEVICE_ONLY inline double name(double x) { return __builtin_##name(x); }
#define SLMC_LIBM_2(name)                                                      \
  SLMC_DEVICE_ONLY inline float name##f(float x, float y) { return __builtin_##name##f(x, y); } \
  SLMC_DEVICE_ONLY inline double name(double x, double y) { return __builtin_##name(x, y); }
SLMC_LIBM_1(sqrt)
SLMC_LIBM_1(fabs)
SLMC_LIBM_1(floor)
SLMC_LIBM_1(ceil)
SLMC_LIBM_1(trunc)
SLMC_LIBM_1(round)
SLMC_LIBM_2(fmin)
SLMC_LIBM_2(fmax)
SLMC_LIBM_2(copysign)
SLMC_DEVICE_ONLY inline float fmaf(float x, float y, float z) { return __builtin_fmaf(x, y, z); }
SLMC_DEVICE_ONLY inline double fma(double x, double y, double z) { return __builtin_fma(x, y, z); }
#undef SLMC_LIBM_1
#undef SLMC_LIBM_2
#endif

#endif // SLMC_DETAIL_DEVICE_LIBM_H
