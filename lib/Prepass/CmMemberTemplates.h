//===- CmMemberTemplates.h - C for Metal member templates in templates ----===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// C for Metal's `select`, `replicate` and `format` are members of vectors and matrices that Intel's compiler parses as built-in
// operations, so CM code calls them on objects of dependent type without
// C++'s `template` disambiguator:
//
//   template <typename T, int N>
//   _GENX_ void f(matrix_ref<T, N, N> m) { m.select<N / 2, 1, N, 1>(0, 0) = 0; }
//
// In slmc they are member templates, and Clang reads `m.select < N / 2`
// as a comparison (or reports the missing keyword). The pre-pass inserts
// the keyword in files that are C for Metal code, wherever one of these
// names follows `.` or `->` and a template argument list and a call
// follow it:
//
//   m.template select<N / 2, 1, N, 1>(0, 0) = 0;
//
// The keyword is valid C++ where the object is not dependent too. Tokens
// stay on their lines; columns after an insertion move.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_PREPASS_CMMEMBERTEMPLATES_H
#define SLMC_PREPASS_CMMEMBERTEMPLATES_H

#include "Prepass/RawTokens.h"

#include <optional>
#include <string>

namespace slmc {

/// Whether `Text` is C for Metal code: it includes <cm/cm.h> (or cmc's
/// <cm.h>) or uses `_GENX_`.
bool isCmSource(llvm::StringRef Text);

/// `Text` with `template` inserted before each CM member template called
/// without it; none if there is none (or `Text` is not CM code).
std::optional<std::string> insertCmTemplateKeywords(llvm::StringRef Text);

} // namespace slmc

#endif // SLMC_PREPASS_CMMEMBERTEMPLATES_H
