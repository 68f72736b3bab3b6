//===- SlmcClangd.cpp - clangd with slmc's dialects and checks ------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
//   slmc-clangd [clangd options] [--group-memory-limit=<bytes>]
//   slmc-clangd --check=FILE [options]   (prints what an editor would show)
//
// Debian's clangd 22 with one feature module linked in. For every preamble
// and AST clangd builds, the module does what the plugin does in a clang
// process, at the same point (the preprocessor exists, parsing has not
// started): it puts slmc's header directory first among the system include
// directories and includes slmc/prelude.h before the main file. For the
// main-file AST (not the preamble) it also runs slmc's consumer after
// clangd's, so the checkers report through the compilation's
// DiagnosticsEngine exactly as in slmc++ -fsyntax-only; clangd turns those
// diagnostics, their notes and fix-its into LSP diagnostics and code actions.
//
// Compile commands come from compile_commands.json as usual; slmc-clangd
// adds nothing to them, so the same command works in slmc++ and here.
//
//===----------------------------------------------------------------------===//
#include "CheckMode.h"
#include "ClangdInterface.h"

#include "Frontend/Frontend.h"

#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"

#include <cstdlib>
#include <string>
#include <vector>

using namespace clang;

namespace {

// Set once in main(), before clangd starts any thread.
std::string ResourceIncludeDir;
slmc::CheckOptions Options;

class SlmcListener : public clangd::FeatureModule::ASTListener {
public:
  void beforeExecute(CompilerInstance &CI) override {
    slmc::injectPrelude(CI, ResourceIncludeDir);
    // The preamble (the main file's leading #includes, built once and
    // reused) only needs the prelude; the checkers run on the full AST.
    if (CI.getPreprocessorOpts().GeneratePreamble || !CI.hasASTConsumer())
      return;
    std::vector<std::unique_ptr<ASTConsumer>> Consumers;
    Consumers.push_back(CI.takeASTConsumer());
    Consumers.push_back(std::make_unique<slmc::SlmcConsumer>(CI, Options));
    CI.setASTConsumer(std::make_unique<MultiplexConsumer>(std::move(Consumers)));
  }
};

class SlmcModule final : public clangd::FeatureModule {
public:
  std::unique_ptr<ASTListener> astListeners() override {
    return std::make_unique<SlmcListener>();
  }
};

clangd::FeatureModuleRegistry::Add<SlmcModule>
    Registered("slmc", "C++ AMP, SYCL, CM and Cilk syntax and checks");

bool mentions(llvm::StringRef Flags, llvm::StringRef Option) {
  return Flags.contains("-" + Option.str());
}

} // namespace

int main(int argc, char **argv) {
  std::string Self = llvm::sys::fs::getMainExecutable(
      argv[0], reinterpret_cast<void *>(&mentions));
  ResourceIncludeDir = slmc::resourceIncludeDirFor(Self);

  // Our options are taken out before clangd parses the rest.
  std::vector<std::string> Args;
  std::string CheckFile;
  bool HasResourceDir = false;
  for (int I = 1; I < argc; ++I) {
    llvm::StringRef A = argv[I];
    unsigned long long N = 0;
    if (A.starts_with("--group-memory-limit=")) {
      if (A.substr(21).getAsInteger(0, N) || N == 0) {
        fprintf(stderr, "slmc-clangd: invalid %s\n", argv[I]);
        return 1;
      }
      Options.GroupMemoryLimit = N;
    } else if (A.consume_front("--check=")) {
      CheckFile = A.str();
      continue;
    }
    HasResourceDir |= A.starts_with("--resource-dir") ||
                      A.starts_with("-resource-dir");
    Args.push_back(argv[I]);
  }
  // clangd looks for clang's builtin headers next to its own binary; ours is
  // not there, so point it at the clang slmc was built with.
  if (const char *Env = std::getenv("CLANGD_FLAGS"))
    HasResourceDir |= mentions(Env, "resource-dir");
  if (!HasResourceDir)
    Args.insert(Args.begin(), "--resource-dir=" SLMC_CLANG_RESOURCE_DIR);

  if (!CheckFile.empty())
    return slmc::clangd::runCheck(CheckFile, Self, Args);

  std::vector<char *> Argv = {argv[0]};
  for (std::string &A : Args)
    if (!llvm::StringRef(A).starts_with("--group-memory-limit="))
      Argv.push_back(A.data());
  Argv.push_back(nullptr);
  return clang::clangd::clangdMain(int(Argv.size()) - 1, Argv.data());
}
