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
#include "Lowering/Lowering.h"

#include <string>
#include <vector>

namespace slmc::driver {

/// What lowering produced for one source.
struct LoweredSource {
  /// The offload C++ of the main file, and every user header that lowering
  /// or the array-notation pre-pass changed (the passes after the check
  /// pass read these in place of the user's files, under the same names).
  LoweredOutput Files;
  /// Kernels launched by name ("name(kind,...)"), for program files.
  std::vector<std::string> ProgramKernels;
  /// Whether the source tests ICC's `__GFX__` (#ifdef, defined(), or a
  /// use): then its host code and its offloaded code are compiled apart,
  /// the macro defined only for the latter.
  bool TestsGfxMacro = false;
};

/// Parses and checks `Source` (every user file with Cilk Plus array
/// notation rewritten), printing diagnostics to stderr. When `Lowered` is
/// given and there are no errors, lowers the translation unit into it.
/// Returns false if any error was reported.
bool runCheckPass(const Toolchain &TC, const Options &Opts,
                  llvm::StringRef Source, LoweredSource *Lowered);

/// -E, -M, -MM: runs clang's preprocessor action the flags ask for over
/// the user's `Source`, with the dialect prelude, writing to -o or stdout.
bool runPreprocessor(const Toolchain &TC, const Options &Opts, llvm::StringRef Source);

} // namespace slmc::driver

#endif // SLMC_DRIVER_CHECKPASS_H
