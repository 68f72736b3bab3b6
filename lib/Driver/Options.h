//===- Options.h - slmc++ command line ---------------------------*- C++ -*-===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// slmc++ takes clang++'s usual flags and sorts them by the passes that need
// them: the check pass, the device passes, the host pass and the link.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_DRIVER_OPTIONS_H
#define SLMC_DRIVER_OPTIONS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace slmc::driver {

enum class Mode {
  Link,        // default: compile every source, link an executable
  CompileOnly, // -c
  SyntaxOnly,  // -fsyntax-only: parse and check only
  Preprocess,  // -E, -M, -MM: the user's source through the preprocessor
  ClangQuery,  // -print-*, -dumpversion, -dumpmachine: answered by clang
  Emit,        // --emit=...: write an intermediate product
  Help,
  Version,
};

enum class EmitKind { None, OffloadCpp, Spirv, Ptx, Program };

struct Input {
  std::string Path;
  bool IsSource = false; // C++ to compile through slmc; else a link input
};

struct Options {
  Mode TheMode = Mode::Link;
  EmitKind Emit = EmitKind::None;
  std::string Output;
  std::vector<Input> Inputs;

  /// -I -D -U -isystem -include -std= -W -w: every compile pass.
  std::vector<std::string> CommonFlags;
  /// -f..., -m..., -O, -g, -pthread ...: the check and host passes.
  std::vector<std::string> HostFlags;
  /// -L -l -Wl, -shared ...: the link.
  std::vector<std::string> LinkFlags;
  /// -Wslmc-... and -Wno-slmc-...: our warning groups (kept from clang).
  std::vector<std::string> SlmcWarnings;
  /// -M -MM -MD -MMD -MF -MT -MQ -MP -MG: dependency output, written by the
  /// pass that reads the user's own files (check pass or preprocessor).
  std::vector<std::string> DepFlags;
  /// -E, and -P -C -CC -dM -dD -dI which only mean something with it.
  std::vector<std::string> PreprocessFlags;
  /// -print-*, -dumpversion, -dumpmachine.
  std::vector<std::string> QueryFlags;

  std::string OptLevel;          // "-O2" etc., empty if none given
  bool Spirv = true, Ptx = true; // --offload-targets=
  bool TargetsChosen = false; // the user named the targets (not the default)
  std::string SpirvVersion = "1.4";
  std::string CudaArch = "sm_75";
  /// C for Metal kernel files (--emit=program): the target whose macros
  /// they see (--cm-target=, cmc's -march=) and its revision id.
  std::string CmTarget;
  unsigned CmRevId = 0;
  /// The sources are C for Metal kernel files whatever the mode (slmc-cmc
  /// -E / -fsyntax-only): they see cmc's macros too.
  bool CmKernelFile = false;
  uint64_t GroupMemoryLimit = 64 * 1024;
  bool Verbose = false; // -v (also passed to the clang commands)
  bool DryRun = false;  // -###
  bool SaveTemps = false;
  bool CheckInstrumentation = false; // -fslmc-check
  // SPIR-V kernels take their argument object's fields as parameters
  // (-f[no-]slmc-split-kernel-arguments; the image says how).
  bool SplitKernelArguments = true;
};

/// Parses argv (without argv[0]). Returns false after printing a clang-style
/// "slmc++: error: ..." message.
bool parseOptions(llvm::ArrayRef<const char *> Args, Options &Opts);

void printHelp();
void printVersion();

} // namespace slmc::driver

#endif // SLMC_DRIVER_OPTIONS_H
