//===- cm/cm_printf.h - printf in C for Metal kernels ---------------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// printf in kernels, with cmc's three spellings (printf, cm_printf,
// cmprint): C's printf on each target. The CPU fallback prints at once, in
// the order the thread group's loops run its threads; PTX prints through
// CUDA's vprintf when the host waits; SPIR-V uses OpenCL.std's printf, which
// takes a string literal as its format, as cmc's does. CmDevice's
// InitPrintBuffer and FlushPrintBuffer have nothing to do.
//
// Templates, as in cmc's own header, and for a format alone a function
// that Clang prefers to C's printf (enable_if: of two otherwise equal
// candidates, the one with the attribute), so that a kernel file that also
// includes <stdio.h> calls these, which device code can.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_CM_CM_PRINTF_H
#define SLMC_CM_CM_PRINTF_H

#include "slmc/offload.h"

template <typename... Args>
[[gnu::always_inline]] SLMC_HD inline int printf(const char *format, Args... args) {
  return __builtin_printf(format, args...);
}
#if defined(__clang__) // (the host compiler may compile kernel files too)
[[gnu::always_inline]] SLMC_HD inline int printf(const char *format)
    __attribute__((enable_if(true, ""))) {
  return __builtin_printf(format);
}
#endif

template <typename... Args>
[[gnu::always_inline]] SLMC_HD inline int cm_printf(const char *format,
                                                    Args... args) {
  return __builtin_printf(format, args...);
}

template <typename... Args>
[[gnu::always_inline]] SLMC_HD inline int cmprint(const char *format,
                                                  Args... args) {
  return __builtin_printf(format, args...);
}

#endif // SLMC_CM_CM_PRINTF_H
