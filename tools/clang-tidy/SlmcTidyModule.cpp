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
// Cilk Plus array notation: the runner also makes the compilation read every
// user file rewritten by slmc's pre-pass (installPrepass), as slmc++ does.
// clang-tidy keeps each diagnostic as a file name and a byte offset, which
// it turns back into a line and column, and where it applies fix-its, in
// the files as it reads them itself (as written); so every place in a file
// the pre-pass changed is handed to clang-tidy in the text as written
// (OriginalPlaces): the same line (the pre-pass keeps lines) and, on a line
// it did not change, the same column. On a rewritten line the column is
// clamped and fix-its are dropped.
//
//===----------------------------------------------------------------------===//
#include "Checks/Checker.h"
#include "Frontend/Frontend.h"
#include "Prepass/PrepassFileSystem.h"
#include "Model/ModelBuilder.h"

#include "clang-tidy/ClangTidyCheck.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang/AST/ASTDiagnostic.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/MemoryBuffer.h"

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

/// `Text` as a diagnostic format string that prints it as it is.
std::string escapeFormat(llvm::StringRef Text) {
  std::string Out;
  for (char C : Text) {
    if (C == '%')
      Out += '%';
    Out += C;
  }
  return Out;
}

/// Places in files the pre-pass changed, moved into file IDs holding the
/// text as written (same file name, so clang-tidy reads them as the user's).
class OriginalPlaces {
public:
  OriginalPlaces(SourceManager &SM, llvm::IntrusiveRefCntPtr<PrepassFileSystem> FS)
      : SM(SM), FS(std::move(FS)) {}

  /// `Loc` in the text as written; `Exact` becomes false for a place on a
  /// line the pre-pass changed.
  SourceLocation map(SourceLocation Loc, bool &Exact) {
    if (Loc.isInvalid())
      return Loc;
    SourceLocation F = SM.getFileLoc(Loc);
    auto [FID, Offset] = SM.getDecomposedLoc(F);
    const Original *O = originalOf(FID);
    if (!O)
      return Loc;
    unsigned Line = SM.getLineNumber(FID, Offset);
    unsigned Col = SM.getColumnNumber(FID, Offset);
    if (Line > O->ChangedLines.size() || O->ChangedLines[Line - 1])
      Exact = false;
    return SM.translateLineCol(O->FID, Line, Col);
  }

  CharSourceRange map(CharSourceRange R, bool &Exact) {
    if (R.isInvalid())
      return R;
    return CharSourceRange(SourceRange(map(R.getBegin(), Exact), map(R.getEnd(), Exact)),
                           R.isTokenRange());
  }

private:
  struct Original {
    FileID FID;
    std::vector<bool> ChangedLines;
  };

  const Original *originalOf(FileID FID) {
    auto [It, New] = Files.try_emplace(FID);
    if (!New)
      return It->second ? &*It->second : nullptr;
    OptionalFileEntryRef File = SM.getFileEntryRefForID(FID);
    std::optional<PrepassFileSystem::Entry> E;
    if (File)
      E = FS->lookup(File->getName());
    if (!E || !E->Changed)
      return nullptr;
    // A second entry for the file (a file's text is shared by all its file
    // IDs), holding the text as written.
    OptionalFileEntryRef Bypass = SM.getFileManager().getBypassFile(*File);
    if (!Bypass)
      return nullptr;
    SM.overrideFileContents(*Bypass, llvm::MemoryBuffer::getMemBufferCopy(
                                         E->Original, File->getName()));
    Original O;
    O.FID = SM.createFileID(*Bypass, SM.getIncludeLoc(FID),
                            SM.getFileCharacteristic(SM.getLocForStartOfFile(FID)));
    llvm::SmallVector<llvm::StringRef> Was, Is;
    llvm::StringRef(E->Original).split(Was, '\n');
    llvm::StringRef(E->Text).split(Is, '\n');
    for (size_t I = 0; I < Is.size(); ++I)
      O.ChangedLines.push_back(I >= Was.size() || Was[I] != Is[I]);
    It->second = std::move(O);
    return &*It->second;
  }

  SourceManager &SM;
  llvm::IntrusiveRefCntPtr<PrepassFileSystem> FS;
  llvm::DenseMap<FileID, std::optional<Original>> Files;
};

/// A diagnostic with its places in the text as written: its location,
/// ranges and fix-its (those on rewritten lines dropped). `Store` must
/// outlive the result.
Diagnostic withOriginalPlaces(const Diagnostic &Info, OriginalPlaces &Places,
                              DiagnosticStorage &Store, llvm::SmallString<256> &Message) {
  bool Exact = true;
  SourceLocation Loc = Places.map(Info.getLocation(), Exact);
  for (const CharSourceRange &R : Info.getRanges()) {
    bool RangeExact = true;
    Store.DiagRanges.push_back(Places.map(R, RangeExact));
  }
  for (const FixItHint &F : Info.getFixItHints()) {
    bool FixExact = true;
    FixItHint H = F;
    H.RemoveRange = Places.map(F.RemoveRange, FixExact);
    H.InsertFromRange = Places.map(F.InsertFromRange, FixExact);
    if (FixExact)
      Store.FixItHints.push_back(std::move(H));
  }
  Info.FormatDiagnostic(Message);
  return Diagnostic(Info.getDiags(), Loc, Info.getID(), Store, Message);
}

/// The compilation's own diagnostics (clang's, the pre-pass's), with their
/// places in the text as written, to clang-tidy's consumer.
class OriginalPlacesConsumer : public DiagnosticConsumer {
public:
  OriginalPlacesConsumer(DiagnosticConsumer &Inner, std::unique_ptr<DiagnosticConsumer> Owned,
                         std::shared_ptr<OriginalPlaces> Places)
      : Inner(Inner), Owned(std::move(Owned)), Places(std::move(Places)) {}

  void BeginSourceFile(const LangOptions &LO, const Preprocessor *PP) override {
    Inner.BeginSourceFile(LO, PP);
  }
  void EndSourceFile() override { Inner.EndSourceFile(); }
  void finish() override { Inner.finish(); }
  void clear() override {
    DiagnosticConsumer::clear();
    Inner.clear();
  }
  bool IncludeInDiagnosticCounts() const override {
    return Inner.IncludeInDiagnosticCounts();
  }
  void HandleDiagnostic(DiagnosticsEngine::Level L, const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(L, Info);
    if (!Info.hasSourceManager()) {
      Inner.HandleDiagnostic(L, Info);
      return;
    }
    DiagnosticStorage Store;
    llvm::SmallString<256> Message;
    Inner.HandleDiagnostic(L, withOriginalPlaces(Info, *Places, Store, Message));
  }

private:
  DiagnosticConsumer &Inner;
  std::unique_ptr<DiagnosticConsumer> Owned;
  std::shared_ptr<OriginalPlaces> Places;
};

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
    std::string Include = resourceIncludeDirFor(modulePath());
    injectPrelude(*PP, Include);
    // Array notation, and the places of diagnostics in the text as written.
    // Its errors are slmc-rules diagnostics: clang-tidy's consumer cannot
    // name the check of a custom diagnostic of the compilation's engine.
    auto *Ctx = Context;
    PrepassErrorSink Sink = [Ctx](SourceLocation Loc, llvm::StringRef Message) {
      Ctx->diag(RulesCheck, Loc, escapeFormat(Message), DiagnosticIDs::Error);
    };
    MscVer = recordMscVerTests(*PP);
    Places = std::make_shared<OriginalPlaces>(
        PP->getSourceManager(),
        installPrepass(*PP, Include, /*MainFileToo=*/true, std::move(Sink)));
    DiagnosticsEngine &Diags = PP->getDiagnostics();
    std::unique_ptr<DiagnosticConsumer> Owned = Diags.takeClient();
    DiagnosticConsumer *Inner = Diags.getClient();
    Diags.setClient(new OriginalPlacesConsumer(*Inner, std::move(Owned), Places),
                    /*ShouldOwnClient=*/true);
  }

  void registerMatchers(MatchFinder *Finder) override {
    if (Runner)
      Finder->addMatcher(translationUnitDecl(), this);
  }

  void check(const MatchFinder::MatchResult &Result) override {
    ASTContext &Ctx = *Result.Context;
    DiagnosticsEngine &Diags = Ctx.getDiagnostics();
    std::string Current; // the check of the last non-note diagnostic
    // slmc's diagnostics go through an engine of their own, whose consumer
    // moves their places into the text as written and hands them to
    // clang-tidy under their check's name.
    ForwardToCheck Forward(*Context, Current, Places);
    DiagnosticsEngine Own(DiagnosticIDs::create(), Diags.getDiagnosticOptions(),
                          &Forward, /*ShouldOwnClient=*/false);
    Own.setSourceManager(&Ctx.getSourceManager());
    Own.SetArgToStringFn(&FormatASTNodeDiagnosticArgument, &Ctx); // as Sema does
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
                 return Own.Report(Loc, Own.getDiagnosticIDs()->getCustomDiagID(L, Text));
               });
    runEarlyChecks(Ctx, R);
    if (MscVer)
      reportMscVerTests(*MscVer, R);
    // As in every door: clang's own errors make the AST unreliable.
    if (Diags.hasErrorOccurred())
      return;
    ProgramModel Model = buildProgramModel(Ctx);
    runChecks(Ctx, Model, R, Opts);
  }

private:
  /// The consumer of slmc's own engine: each diagnostic, with its places
  /// in the text as written, reported under the current check's name.
  class ForwardToCheck : public DiagnosticConsumer {
  public:
    ForwardToCheck(::clang::tidy::ClangTidyContext &Context, const std::string &Check,
                   std::shared_ptr<OriginalPlaces> Places)
        : Context(Context), Check(Check), Places(std::move(Places)) {}

    void HandleDiagnostic(DiagnosticsEngine::Level L, const Diagnostic &Info) override {
      DiagnosticConsumer::HandleDiagnostic(L, Info);
      DiagnosticStorage Store;
      llvm::SmallString<256> Message;
      Diagnostic D = Places ? withOriginalPlaces(Info, *Places, Store, Message) : Info;
      if (!Places)
        Info.FormatDiagnostic(Message);
      DiagnosticBuilder B = Context.diag(Check, D.getLocation(), escapeFormat(Message),
                                         static_cast<DiagnosticIDs::Level>(L));
      for (const CharSourceRange &R : D.getRanges())
        B << R;
      for (const FixItHint &F : D.getFixItHints())
        B << F;
    }

  private:
    ::clang::tidy::ClangTidyContext &Context;
    const std::string &Check;
    std::shared_ptr<OriginalPlaces> Places;
  };

  ::clang::tidy::ClangTidyContext *Context;
  bool Runner = false;
  CheckOptions Opts;
  std::shared_ptr<OriginalPlaces> Places;
  std::shared_ptr<MscVerTests> MscVer; // #if conditions reading _MSC_VER
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
