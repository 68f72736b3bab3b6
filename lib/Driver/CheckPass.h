//===- CheckPass.h - The in-process front end of slmc++ ----------*- C++ -*-===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_DRIVER_CHECKPASS_H
#define SLMC_DRIVER_CHECKPASS_H

#include "Driver/Options.h"
#include "Driver/Toolchain.h"

#include <string>
#include <vector>

namespace slmc::driver {

/// What lowering produced for one source.
struct LoweredSource {
  std::string Text; // the offload C++
  /// Kernels launched by name ("name(kind,...)"), for program files.
  std::vector<std::string> ProgramKernels;
};

/// Parses and checks `Source`, printing diagnostics to stderr. When
/// `Lowered` is given and there are no errors, lowers the source into it.
/// `PresumedName` (default: `Source`) is the file the lowered source's
/// #line names: the user's file when `Source` is the array-notation
/// pre-pass's copy of it. Returns false if any error was reported.
bool runCheckPass(const Toolchain &TC, const Options &Opts,
                  llvm::StringRef Source, LoweredSource *Lowered,
                  llvm::StringRef PresumedName = {});

} // namespace slmc::driver

#endif // SLMC_DRIVER_CHECKPASS_H
