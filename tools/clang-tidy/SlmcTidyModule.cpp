//===- SlmcTidyModule.cpp - slmc's checks as clang-tidy checks ------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
//   clang-tidy-22 --load=<libdir>/slmcTidy.so --checks='-*,slmc-*' app.cpp --
//
// One check per slmc warning group, named after it (slmc-divergent-barrier,
// slmc-tile-static-constructor, ...), and slmc-rules for the dialect rules
// slmc++ reports as errors. Disabling a check is -Wno-<group>; listing it in
// --warnings-as-errors is -Werror=<group>. The compile command's own -W
// options apply too, as in slmc++.
//
// The checks share one run of slmc's model builders and checkers per
// translation unit: the first enabled one injects the prelude (before
// parsing, as the plugin does), runs them on the whole AST and reports each
// diagnostic, with its notes and fix-its, under the check of its group.
//
// Options: slmc-rules.GroupMemoryLimit (bytes; slmc++'s --group-memory-limit).
//
//===----------------------------------------------------------------------===//
#include "Checks/Checker.h"
#include "Frontend/Frontend.h"
#include "Model/ModelBuilder.h"

#include "clang-tidy/ClangTidyCheck.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/Preprocessor.h"

#include <dlfcn.h>

using namespace clang;
using namespace clang::ast_matchers;

namespace slmc::tidy {
namespace {

constexpr llvm::StringLiteral RulesCheck = "slmc-rules";

/// Every slmc-* check: slmc-rules, then one per warning group.
std::vector<std::string> checkNames() {
  std::vector<std::string> Names = {RulesCheck.str()};
  for (llvm::StringRef G : allWarningGroups())
    Names.push_back(G.str());
  return Names;
}

std::string modulePath() {
  Dl_info Info;
  if (dladdr(reinterpret_cast<void *>(&modulePath), &Info) && Info.dli_fname)
    return Info.dli_fname;
  return {};
}

class SlmcCheck : public ::clang::tidy::ClangTidyCheck {
public:
  SlmcCheck(llvm::StringRef Name, ::clang::tidy::ClangTidyContext *Context)
      : ClangTidyCheck(Name, Context), Context(Context) {
    // The first enabled slmc-* check does the work for all of them.
    for (const std::string &N : checkNames())
      if (Context->isCheckEnabled(N)) {
        Runner = N == Name;
        break;
      }
    OptionsView Rules(RulesCheck, Context->getOptions().CheckOptions, Context);
    Opts.GroupMemoryLimit =
        Rules.get<uint64_t>("GroupMemoryLimit", Opts.GroupMemoryLimit);
  }

  bool isLanguageVersionSupported(const LangOptions &LO) const override {
    return LO.CPlusPlus;
  }

  void storeOptions(::clang::tidy::ClangTidyOptions::OptionMap &Map) override {
    if (Runner)
      OptionsView(RulesCheck, Map, Context)
          .store(Map, "GroupMemoryLimit", Opts.GroupMemoryLimit);
  }

  // The prelude, on the preprocessor clang-tidy hands its checks before
  // parsing starts.
  void registerPPCallbacks(const SourceManager &, Preprocessor *PP,
                           Preprocessor *) override {
    if (!Runner)
      return;
    injectPrelude(*PP, resourceIncludeDirFor(modulePath()));
  }

  void registerMatchers(MatchFinder *Finder) override {
    if (Runner)
      Finder->addMatcher(translationUnitDecl(), this);
  }

  void check(const MatchFinder::MatchResult &Result) override {
    ASTContext &Ctx = *Result.Context;
    DiagnosticsEngine &Diags = Ctx.getDiagnostics();
    std::string Current; // the check of the last non-note diagnostic
    Reporter R(Diags, Diags.getDiagnosticOptions(),
               [&](SourceLocation Loc, Diag D, DiagnosticIDs::Level L,
                   llvm::StringRef Text) {
                 // In clang-tidy, checks are chosen by name: a pedantic
                 // warning is on when its check is (not part of the
                 // default set; docs/editors.md).
                 if (isPedanticDiag(D) && L == DiagnosticIDs::Ignored)
                   L = DiagnosticIDs::Warning;
                 if (L != DiagnosticIDs::Note) {
                   llvm::StringRef Group = diagGroup(D);
                   Current = Group.empty() ? RulesCheck.str() : Group.str();
                   // A disabled check's diagnostic is ignored, and with it
                   // the notes that follow.
                   if (!Context->isCheckEnabled(Current))
                     L = DiagnosticIDs::Ignored;
                 }
                 return Context->diag(Current, Loc, Text, L);
               });
    runEarlyChecks(Ctx, R);
    // As in every door: clang's own errors make the AST unreliable.
    if (Diags.hasErrorOccurred())
      return;
    ProgramModel Model = buildProgramModel(Ctx);
    runChecks(Ctx, Model, R, Opts);
  }

private:
  ::clang::tidy::ClangTidyContext *Context;
  bool Runner = false;
  CheckOptions Opts;
};

class SlmcModule : public ::clang::tidy::ClangTidyModule {
public:
  void addCheckFactories(::clang::tidy::ClangTidyCheckFactories &F) override {
    for (const std::string &Name : checkNames())
      F.registerCheck<SlmcCheck>(Name);
  }
};

} // namespace
} // namespace slmc::tidy

static ::clang::tidy::ClangTidyModuleRegistry::Add<slmc::tidy::SlmcModule>
    X("slmc-module", "C++ AMP, SYCL, CM and Cilk group-local memory rules");
