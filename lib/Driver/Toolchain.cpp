//===- Toolchain.cpp ------------------------------------------------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "Driver/Toolchain.h"

#include "Frontend/Frontend.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <optional>

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

bool runBackend(llvm::StringRef Program, const std::vector<std::string> &Args,
                bool Echo, bool DryRun, llvm::StringRef What, llvm::StringRef SourceName) {
  if (Echo || DryRun)
    printCommand(Program, Args);
  if (DryRun)
    return true;
  llvm::SmallString<128> ErrFile;
  if (std::error_code EC = llvm::sys::fs::createTemporaryFile("slmc-backend", "txt", ErrFile)) {
    llvm::errs() << "slmc++: error: cannot create a temporary file: " << EC.message() << "\n";
    return false;
  }
  std::vector<llvm::StringRef> Argv{Program};
  for (const std::string &A : Args)
    Argv.push_back(A);
  std::optional<llvm::StringRef> Redirects[] = {std::nullopt, std::nullopt,
                                                llvm::StringRef(ErrFile)};
  std::string ErrMsg;
  int RC = llvm::sys::ExecuteAndWait(Program, Argv, std::nullopt, Redirects, 0, 0, &ErrMsg);
  std::string Output;
  if (auto Buf = llvm::MemoryBuffer::getFile(ErrFile))
    Output = (*Buf)->getBuffer().str();
  llvm::sys::fs::remove(ErrFile);
  if (RC == 0) {
    llvm::errs() << Output; // warnings, if any
    return true;
  }
  if (RC == -1) {
    llvm::errs() << "slmc++: error: cannot run '" << Program << "': " << ErrMsg << "\n";
    return false;
  }
  // The tool's own error lines; a crash's stack dump and request for a bug
  // report are LLVM's, not the user's business.
  std::string Reasons;
  llvm::SmallVector<llvm::StringRef, 16> Lines;
  llvm::StringRef(Output).split(Lines, '\n', -1, false);
  for (llvm::StringRef L : Lines) {
    L = L.trim();
    if (L.starts_with("Stack dump") || L.starts_with("PLEASE submit") ||
        L.starts_with("#") || L.starts_with("0.") || L.starts_with("1.") ||
        L.starts_with("2.") || L.starts_with("3."))
      break;
    L.consume_front("LLVM ERROR: ");
    L.consume_front(llvm::sys::path::filename(Program).str() + ": ");
    if (!L.empty())
      Reasons += (Reasons.empty() ? "" : "; ") + L.str();
  }
  if (Reasons.empty())
    Reasons = RC < 0 ? ErrMsg : "exit status " + std::to_string(RC);
  llvm::errs() << "slmc++: error: the " << What << " failed on '" << SourceName
               << "': " << Reasons << "\n"
               << "slmc++: note: a construct in this file is one LLVM's " << What
               << " cannot compile; please report it to slmc with the file (-v "
                  "shows the commands)\n";
  return false;
}

} // namespace slmc::driver
