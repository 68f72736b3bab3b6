//===- slmc/detail/array_notation.h - What rewritten array notation calls -===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The array-notation pre-pass turns `A[:]` into a loop whose trip count is
// ::slmc::cilk::extent_of(A). Array notation needs no header with Intel's
// compiler, so this one is seen by every pass: the prelude includes it for
// the check pass, and lowering includes it when a file used `[:]`.
// (constexpr functions are host and device functions in every pass.)
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_DETAIL_ARRAY_NOTATION_H
#define SLMC_DETAIL_ARRAY_NOTATION_H

#include <stddef.h>

namespace slmc {
namespace cilk {

/// The length of `A[:]`: only arrays know it.
template <class T, size_t N> constexpr long extent_of(T (&)[N]) { return (long)N; }
template <class P> constexpr long extent_of(const P &) {
  static_assert(sizeof(P) == 0,
                "array notation: '[:]' needs an array whose length is known; "
                "write [start:length] for a pointer");
  return 0;
}

} // namespace cilk
} // namespace slmc

#endif // SLMC_DETAIL_ARRAY_NOTATION_H
