//===- mathimf.h - Intel's math library header ----------------------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// ICC's <mathimf.h>: the standard math functions (<math.h>, usable in
// offloaded code as with ICC) plus the Intel extensions its samples use,
// defined here in terms of the standard ones. Other extensions of Intel's
// library are not provided: a call to one is an undeclared-identifier error.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_MATHIMF_H
#define SLMC_MATHIMF_H

#include <math.h>
#include "slmc/offload.h"

// Reciprocal square root.
SLMC_HD inline float invsqrtf(float x) { return 1.0f / sqrtf(x); }
SLMC_HD inline double invsqrt(double x) { return 1.0 / sqrt(x); }

// Trigonometry in degrees.
#define SLMC_MATHIMF_DEG(name, fn)                                             \
  SLMC_HD inline double name(double x) { return fn(x * (M_PI / 180.0)); }      \
  SLMC_HD inline float name##f(float x) {                                      \
    return fn##f(x * (float)(M_PI / 180.0));                                   \
  }
SLMC_MATHIMF_DEG(sind, sin)
SLMC_MATHIMF_DEG(cosd, cos)
SLMC_MATHIMF_DEG(tand, tan)
#undef SLMC_MATHIMF_DEG

SLMC_HD inline double asind(double x) { return asin(x) * (180.0 / M_PI); }
SLMC_HD inline double acosd(double x) { return acos(x) * (180.0 / M_PI); }
SLMC_HD inline double atand(double x) { return atan(x) * (180.0 / M_PI); }
SLMC_HD inline float asindf(float x) { return asinf(x) * (float)(180.0 / M_PI); }
SLMC_HD inline float acosdf(float x) { return acosf(x) * (float)(180.0 / M_PI); }
SLMC_HD inline float atandf(float x) { return atanf(x) * (float)(180.0 / M_PI); }

#endif // SLMC_MATHIMF_H
