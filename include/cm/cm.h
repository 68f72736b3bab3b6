//===- cm/cm.h - Intel C for Metal kernels for slmc -----------------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The kernel language of C for Metal, for kernel files compiled by slmc++:
//
//   #include <cm/cm.h>
//   extern "C" _GENX_MAIN_ void k(SurfaceIndex in, SurfaceIndex out, int n) {
//     cm_slm_init(4096);
//     ...
//   }
//
// `slmc++ --emit=program k.cpp -o k.isa` writes a program file that the host
// loads with CmDevice::LoadProgram (<cm_rt.h>). One CM thread is one
// work-item; a thread group is a work-group.
//
//   cm/cm_vector.h      vector, matrix, vector_ref, matrix_ref
//   cm/cm_intrinsics.h  cm_sum, cm_dp4, cm_rsqrt, cm_exp, ... and SAT
//   cm/cm_memory.h      read/write on surfaces, write_atomic
//   cm/cm_slm.h         thread-group ids, cm_barrier, shared local memory
//   cm/cm_svm.h         svmptr_t: block, scattered and atomic SVM accesses
//   cm/cm_printf.h      printf, cm_printf, cmprint
//   cm/cm_simdcf.h      SIMD control flow (SIMD_IF_BEGIN, SIMD_DO_WHILE_BEGIN)
//   cm/cm_unsupported.h what slmc does not provide: a named compile error
//
// The same header serves the check pass (plain C++), the device passes
// (SPIR-V, PTX) and the host pass (the CPU fallback): everything a kernel
// calls is SLMC_HD.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_CM_CM_H
#define SLMC_CM_CM_H

#include "slmc/offload.h"

/// Marks a kernel; slmc's front end finds kernels by this annotation.
#define _GENX_MAIN_ __attribute__((annotate("slmc.cm.kernel")))
/// Functions called from kernels (slmc++ makes every function of a kernel
/// file device-callable anyway, and inlines each `_GENX_` one into the
/// kernels, as cmc does); on a file-scope variable, a per-thread global.
/// The check pass sees an annotation, which fits both (always_inline would
/// draw a warning on a variable); slmc++'s lowering adds the inlining to
/// the functions and removes the word from the variables, so the passes
/// that build code see no annotation (it would keep each function alive).
#if defined(__HIP__) || defined(__CUDA__)
#define _GENX_ SLMC_HD
#else
#define _GENX_ SLMC_HD __attribute__((annotate("slmc.cm.genx")))
#endif
#define _GENX_STACKCALL_ SLMC_HD
#define _GENX_ROUNDING_MODE_(x)
#define CM_INLINE inline __attribute__((always_inline))
#define CM_NOINLINE __attribute__((noinline))

/// The kernel's name as CmDevice::CreateKernel takes it.
#ifndef CM_KERNEL_FUNCTION
#define CM_KERNEL_FUNCTION(...) #__VA_ARGS__
#endif

#include "cm/cm_intrinsics.h"
#include "cm/cm_memory.h"
#include "cm/cm_printf.h"
#include "cm/cm_simdcf.h"
#include "cm/cm_slm.h"
#include "cm/cm_surface.h"
#include "cm/cm_svm.h"
#include "cm/cm_unsupported.h"
#include "cm/cm_vector.h"

namespace slmc {
namespace cm {
/// A CM thread's copy of a per-thread global declared without an
/// initializer (slmc++ declares one in each kernel body that needs it):
/// zeroed, then default-constructed, as a global starts.
template <class T> struct thread_global {
  struct holder {
    T value;
  };
  alignas(holder) unsigned char bytes[sizeof(holder)];
  SLMC_CM_FN T &start() {
    SLMC_CM_ELEMENTS
    for (unsigned i = 0; i < sizeof(holder); ++i)
      bytes[i] = 0;
    return (new (bytes, construct_tag{}) holder)->value;
  }
};
} // namespace cm
} // namespace slmc

#endif // SLMC_CM_CM_H
