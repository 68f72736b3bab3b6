//===- CmSimdControlFlow.h - C for Metal SIMD control flow blocks ---------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// In C for Metal's SIMD control flow (SIMD_IF_BEGIN ... SIMD_IF_END,
// SIMD_DO_WHILE_BEGIN ... SIMD_DO_WHILE_END) a statement writes only the
// channels of the block's condition that are on. Intel's compiler predicates
// the instructions; slmc's vectors are C++ classes, whose assignment cannot
// see the block, so the pre-pass passes the block's channels
// (`slmc_simd_ctx`, declared by the macros of <cm/cm_simdcf.h>) to what a
// block writes, in C for Metal files:
//
//   x = e;          ->  ::slmc::cm::detail::simd_assign(slmc_simd_ctx, x, e);
//   m -= 1;         ->  ::slmc::cm::detail::simd_assign(slmc_simd_ctx, m, (m) - (1));
//   v.merge(a, k)   ->  v.simd_merge(slmc_simd_ctx, a, k)
//   v.any()         ->  v.simd_any(slmc_simd_ctx)
//   read(s, g, o, d) -> ::slmc::cm::detail::simd_read(slmc_simd_ctx, s, g, o, d)
//   cm_sum<int>(v)  ->  ::slmc::cm::detail::simd_cm_sum<int>(slmc_simd_ctx, v)
//
// simd_assign leaves a scalar (a statement of width 1) as it is. The names
// the header cannot mask in a block (reductions, SLM, atomics, barriers:
// see cm_simdcf.h) become calls that fail to compile with a message naming
// them. Statement-level assignments are rewritten (also after an if/for/
// while head); declarations, and assignments nested in expressions, are
// not. Everything stays on its line.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_PREPASS_CMSIMDCONTROLFLOW_H
#define SLMC_PREPASS_CMSIMDCONTROLFLOW_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace slmc {

/// `Text` with the writes in SIMD control flow blocks given the block's
/// channels; none if there is no such block (or `Text` is not C for Metal
/// code).
std::optional<std::string> maskCmSimdControlFlow(llvm::StringRef Text);

} // namespace slmc

#endif // SLMC_PREPASS_CMSIMDCONTROLFLOW_H
