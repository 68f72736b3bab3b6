//===- CmcMode.h - Intel's cmc command line -------------------*- C++ -*-===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// C for Metal kernel files are built by Intel's `cmc` with its own options
// (`cmc -march=tgllp kernel_genx.cpp` writes kernel_genx.isa). slmc++ run
// as `slmc-cmc` (or any name ending in "cmc", or with --driver-mode=cmc)
// takes that command line and turns it into slmc++'s own: --emit=program,
// the output name cmc would choose, and the target's predefined macros.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_DRIVER_CMCMODE_H
#define SLMC_DRIVER_CMCMODE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace slmc::driver {

/// A GPU that cmc's -march= names, and the macros it predefines for it.
struct CmTarget {
  const char *Name;  // canonical, lower case ("tgllp")
  const char *Macro; // CM_GEN12, CM_XEHPG, ...
  unsigned GenX;     // CM_GENX's value
  bool HasDouble;    // CM_HAS_DOUBLE
};

/// The target named by a cmc spelling (tgllp, TGLLP, gen12, gen12lp, ...),
/// or null.
const CmTarget *findCmTarget(llvm::StringRef Name);

/// The names findCmTarget knows, for messages.
std::string knownCmTargets();

/// The macros a C for Metal kernel file sees (clang -D flags): __CM, and
/// with a target CM_GENX, CM_GENX_REVID and the target's CM_GEN<n>/CM_XE*;
/// CM_HAS_LONG_LONG and CM_HAS_DOUBLE as cmc defines them.
std::vector<std::string> cmKernelMacros(const CmTarget *Target, unsigned RevId);

/// Whether slmc++ was started under a cmc name (argv[0]).
bool isCmcDriverName(llvm::StringRef Argv0);

/// Turns cmc's arguments (without argv[0]) into slmc++'s. Returns false
/// after printing a "slmc-cmc: error: ..." message.
bool translateCmcArguments(llvm::ArrayRef<const char *> Args,
                           std::vector<std::string> &Out);

void printCmcHelp();

} // namespace slmc::driver

#endif // SLMC_DRIVER_CMCMODE_H
