//===- Toolchain.cpp ------------------------------------------------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "Driver/Toolchain.h"

#include "Frontend/Frontend.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

namespace slmc::driver {

Toolchain Toolchain::discover(const char *Argv0) {
  Toolchain T;
  std::string Self =
      llvm::sys::fs::getMainExecutable(Argv0, reinterpret_cast<void *>(&Toolchain::discover));
  const char *Clang = std::getenv("SLMC_CLANG");
  const char *Llc = std::getenv("SLMC_LLC");
  const char *Opt = std::getenv("SLMC_OPT");
  T.Clang = Clang && *Clang ? Clang : SLMC_CLANG_PATH;
  T.Llc = Llc && *Llc ? Llc : SLMC_LLC_PATH;
  T.Opt = Opt && *Opt ? Opt : SLMC_OPT_PATH;
  T.ResourceInclude = resourceIncludeDirFor(Self);
  llvm::SmallString<256> Lib(llvm::sys::path::parent_path(llvm::sys::path::parent_path(Self)));
  llvm::sys::path::append(Lib, SLMC_INSTALL_LIBDIR);
  T.RuntimeLibDir = std::string(Lib);
  return T;
}

static void printCommand(llvm::StringRef Program, const std::vector<std::string> &Args) {
  llvm::errs() << " \"" << Program << "\"";
  for (const std::string &A : Args) {
    llvm::errs() << " \"";
    for (char C : A) {
      if (C == '"' || C == '\\')
        llvm::errs() << '\\';
      llvm::errs() << C;
    }
    llvm::errs() << "\"";
  }
  llvm::errs() << "\n";
}

int runProgram(llvm::StringRef Program, const std::vector<std::string> &Args,
               bool Echo, bool DryRun) {
  if (Echo || DryRun)
    printCommand(Program, Args);
  if (DryRun)
    return 0;
  std::vector<llvm::StringRef> Argv{Program};
  for (const std::string &A : Args)
    Argv.push_back(A);
  std::string ErrMsg;
  int RC = llvm::sys::ExecuteAndWait(Program, Argv, std::nullopt, {}, 0, 0, &ErrMsg);
  if (RC < 0) {
    llvm::errs() << "slmc++: error: cannot run '" << Program << "': " << ErrMsg << "\n";
    return -1;
  }
  return RC;
}

} // namespace slmc::driver
