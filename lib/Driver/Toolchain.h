//===- Toolchain.h - The programs and directories slmc++ uses ---*- C++ -*-===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_DRIVER_TOOLCHAIN_H
#define SLMC_DRIVER_TOOLCHAIN_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace slmc::driver {

struct Toolchain {
  std::string Clang;          // clang++ 22 (SLMC_CLANG overrides)
  std::string Llc;            // llc 22 (SLMC_LLC overrides)
  std::string Opt;            // opt 22 (SLMC_OPT overrides)
  std::string ResourceInclude; // <prefix>/lib/slmc/include
  std::string RuntimeLibDir;   // where libslmrt.so is

  /// Locates everything relative to the slmc++ executable.
  static Toolchain discover(const char *Argv0);
};

/// Runs a program, echoing the command line first when `Echo`. Returns the
/// exit code, or -1 (after a message) when the program cannot be started.
int runProgram(llvm::StringRef Program, const std::vector<std::string> &Args,
               bool Echo, bool DryRun);

/// As runProgram, for an LLVM tool that should not fail (a code generator):
/// its stderr is kept, and on failure or crash the user gets one error
/// naming `What` and `SourceName` with the tool's own error lines, not its
/// stack dump. True on success.
bool runBackend(llvm::StringRef Program, const std::vector<std::string> &Args,
                bool Echo, bool DryRun, llvm::StringRef What, llvm::StringRef SourceName);

} // namespace slmc::driver

#endif // SLMC_DRIVER_TOOLCHAIN_H
