//===- SlmcPlugin.cpp - slmc as a plugin of stock clang -------------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
//   clang++-22 -fplugin=<libdir>/slmcPlugin.so -fsyntax-only app.cpp
//
// The plugin finds its headers next to itself, injects the dialect prelude
// and runs slmc's checkers before clang's own action. Options:
//   -fplugin-arg-slmc-group-memory-limit=<bytes>
//
// Cilk Plus array notation is rewritten in the source text before Clang
// parses it (Prepass/ArrayNotation.h); a plugin cannot change what clang
// reads, so a user file with array notation gets one clear error at its
// first section (or __sec_* call) instead of clang's parse errors.
//
//===----------------------------------------------------------------------===//
#include "Prepass/ArrayNotation.h"
#include "Basic/Diagnostics.h"
#include "Frontend/Frontend.h"

#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/Support/raw_ostream.h"

#include <dlfcn.h>

using namespace clang;

namespace {

/// At the entry of each user file: one error at its first array notation,
/// then no more diagnostics (the rest would be parse errors of the notation).
class ArrayNotationDetector : public PPCallbacks {
public:
  explicit ArrayNotationDetector(Preprocessor &PP) : PP(PP) {}

  void FileChanged(SourceLocation Loc, FileChangeReason Reason,
                   SrcMgr::CharacteristicKind Kind, FileID) override {
    if (Reason != EnterFile || SrcMgr::isSystem(Kind) || Reported)
      return;
    SourceManager &SM = PP.getSourceManager();
    FileID FID = SM.getFileID(Loc);
    if (!SM.getFileEntryRefForID(FID)) // the predefines, the prelude's buffer
      return;
    slmc::ArrayNotationResult R = slmc::rewriteArrayNotation(SM.getBufferData(FID));
    if (!R.NotationLine)
      return;
    DiagnosticsEngine &Diags = PP.getDiagnostics();
    slmc::Reporter(Diags, Diags.getDiagnosticOptions())
        .report(SM.translateLineCol(FID, R.NotationLine, R.NotationColumn),
                slmc::Diag::err_array_notation_needs_prepass);
    Diags.setSuppressAllDiagnostics(true);
    Reported = true;
  }

private:
  Preprocessor &PP;
  bool Reported = false;
};

std::string pluginPath() {
  Dl_info Info;
  if (dladdr(reinterpret_cast<void *>(&pluginPath), &Info) && Info.dli_fname)
    return Info.dli_fname;
  return {};
}

class SlmcPluginAction : public PluginASTAction {
public:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 llvm::StringRef) override {
    slmc::injectPrelude(CI, slmc::resourceIncludeDirFor(pluginPath()));
    CI.getPreprocessor().addPPCallbacks(
        std::make_unique<ArrayNotationDetector>(CI.getPreprocessor()));
    return std::make_unique<slmc::SlmcConsumer>(CI, Opts);
  }

  bool ParseArgs(const CompilerInstance &CI,
                 const std::vector<std::string> &Args) override {
    for (const std::string &A : Args) {
      llvm::StringRef S = A;
      unsigned long long N = 0;
      if (S.consume_front("group-memory-limit=") && !S.getAsInteger(0, N) && N) {
        Opts.GroupMemoryLimit = N;
        continue;
      }
      DiagnosticsEngine &D = CI.getDiagnostics();
      D.Report(D.getCustomDiagID(DiagnosticsEngine::Error,
                                 "unknown slmc plugin argument '%0'"))
          << A;
      return false;
    }
    return true;
  }

  ActionType getActionType() override { return AddBeforeMainAction; }

private:
  slmc::CheckOptions Opts;
};

} // namespace

static FrontendPluginRegistry::Add<SlmcPluginAction>
    X("slmc", "check C++ AMP, SYCL, CM and Cilk group-local memory rules");
