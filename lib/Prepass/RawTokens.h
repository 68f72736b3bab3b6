//===- RawTokens.h - Source text as raw tokens, for the pre-passes --------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The text pre-passes read source before Clang does, token by token
// without preprocessing: what they share.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_PREPASS_RAWTOKENS_H
#define SLMC_PREPASS_RAWTOKENS_H

#include "clang/Lex/Token.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace slmc {

/// Calls `F` on each raw token of `Text` (C++17, comments dropped), saying
/// whether it is on a preprocessor directive line.
void forEachRawToken(llvm::StringRef Text,
                     llvm::function_ref<void(const clang::Token &, bool InDirective)> F);

/// The byte offset in its text of a token from forEachRawToken.
inline size_t rawTokenOffset(const clang::Token &T) {
  return size_t(T.getLocation().getRawEncoding() - 1);
}

/// `Text` with C++'s `template` disambiguator inserted before each call of
/// a member template named in `Names` written without it: the name follows
/// `.` or `->`, and a template argument list and `(` follow it
/// (`m.select<4, 1>(0)`, not the comparison `m.select < n`). The keyword is
/// valid where the object is not dependent too. With `OnlyInTemplates`,
/// only inside the body of a template's declaration (where an object can
/// be dependent), so that other lines keep their columns. None if nothing
/// is inserted. Tokens stay on their lines; columns after an insertion
/// move.
std::optional<std::string> insertTemplateKeywords(llvm::StringRef Text,
                                                  llvm::ArrayRef<llvm::StringRef> Names,
                                                  bool OnlyInTemplates = false);

} // namespace slmc

#endif // SLMC_PREPASS_RAWTOKENS_H
