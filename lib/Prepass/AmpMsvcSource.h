//===- AmpMsvcSource.h - C++ AMP sources as MSVC accepted them -----------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// C++ AMP programs were written for MSVC, which parses templates without
// two-phase lookup and accepts `void main()`. Two of its leniencies appear
// throughout Microsoft's own samples, so the pre-pass rewrites them in
// files that are C++ AMP code (they include <amp.h> or use restrict(amp)):
//
//   t.extent.tile<TS, TS>()      a member template of a dependent object
//     -> t.extent.template tile<TS, TS>()   (also reinterpret_as, view_as)
//   void main() { ... return; }
//     -> int  main() { ... return 0; }      (main at file scope)
//
// Both rewrites mean what MSVC meant. Tokens stay on their lines; columns
// after an insertion move.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_PREPASS_AMPMSVCSOURCE_H
#define SLMC_PREPASS_AMPMSVCSOURCE_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace slmc {

/// Whether `Text` is C++ AMP code: it includes <amp.h> or uses
/// restrict(amp).
bool isAmpSource(llvm::StringRef Text);

/// `Text` with the rewrites above; none if there is nothing to rewrite (or
/// `Text` is not C++ AMP code).
std::optional<std::string> rewriteAmpMsvcSource(llvm::StringRef Text);

} // namespace slmc

#endif // SLMC_PREPASS_AMPMSVCSOURCE_H
