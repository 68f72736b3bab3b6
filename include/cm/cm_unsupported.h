//===- cm/cm_unsupported.h - C for Metal features slmc does not provide ---===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Features of Intel's C for Metal that slmc does not provide, declared so
// that a use is one compile error naming the feature, at the line that
// uses it, rather than an undeclared identifier and the errors that follow
// from it:
//
//  * samplers and 3-D surfaces (SamplerIndex, sample16, sample32,
//    cm_3d_sample, cm_3d_load), typed surface reads and writes
//    (read_typed, write_typed), the video motion engine (VmeIndex,
//    run_vme_*), raw messages (cm_send, cm_sends): unavailable.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_CM_UNSUPPORTED_H
#define SLMC_CM_UNSUPPORTED_H

#define SLMC_CM_UNAVAILABLE(WHAT) __attribute__((unavailable(WHAT " is not supported by slmc")))

class SLMC_CM_UNAVAILABLE("a sampler (SamplerIndex)") SamplerIndex {};
class SLMC_CM_UNAVAILABLE("the video motion engine (VmeIndex)") VmeIndex {};

// Each may be called with template arguments of either kind.
#define SLMC_CM_UNAVAILABLE_FUNCTION(NAME, WHAT)                               \
  template <auto... P, class... A> void NAME(A &&...) SLMC_CM_UNAVAILABLE(WHAT); \
  template <class T, auto... P, class... A> void NAME(A &&...) SLMC_CM_UNAVAILABLE(WHAT);
SLMC_CM_UNAVAILABLE_FUNCTION(sample16, "sampling (sample16)")
SLMC_CM_UNAVAILABLE_FUNCTION(sample32, "sampling (sample32)")
SLMC_CM_UNAVAILABLE_FUNCTION(cm_3d_sample, "sampling (cm_3d_sample)")
SLMC_CM_UNAVAILABLE_FUNCTION(cm_3d_load, "sampling (cm_3d_load)")
SLMC_CM_UNAVAILABLE_FUNCTION(read_typed, "a typed surface read (read_typed)")
SLMC_CM_UNAVAILABLE_FUNCTION(write_typed, "a typed surface write (write_typed)")
SLMC_CM_UNAVAILABLE_FUNCTION(run_vme_ime, "the video motion engine (run_vme_ime)")
SLMC_CM_UNAVAILABLE_FUNCTION(run_vme_sic, "the video motion engine (run_vme_sic)")
SLMC_CM_UNAVAILABLE_FUNCTION(run_vme_fbr, "the video motion engine (run_vme_fbr)")
SLMC_CM_UNAVAILABLE_FUNCTION(cm_send, "a raw message (cm_send)")
SLMC_CM_UNAVAILABLE_FUNCTION(cm_sends, "a raw message (cm_sends)")
#undef SLMC_CM_UNAVAILABLE_FUNCTION

#endif // SLMC_CM_UNSUPPORTED_H
