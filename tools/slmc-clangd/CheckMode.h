//===- CheckMode.h - slmc-clangd --check=FILE -------------------*- C++ -*-===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_TOOLS_CLANGD_CHECKMODE_H
#define SLMC_TOOLS_CLANGD_CHECKMODE_H

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace slmc::clangd {

/// Opens `File` in a server started as `Self ServerArgs...` (an LSP
/// session over pipes) and prints the diagnostics it publishes in the
/// compiler's format. Returns 1 if one is an error, 2 if the session failed.
int runCheck(llvm::StringRef File, const std::string &Self,
             const std::vector<std::string> &ServerArgs);

} // namespace slmc::clangd

#endif // SLMC_TOOLS_CLANGD_CHECKMODE_H
