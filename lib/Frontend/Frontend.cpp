//===- Frontend.cpp -------------------------------------------------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "Frontend/Frontend.h"

#include "Prepass/KernelAttributes.h"
#include "Model/ModelBuilder.h"

#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/Path.h"

using namespace clang;

namespace slmc {

bool usesCilkOffload(llvm::StringRef Source) {
  for (llvm::StringRef Marker :
       {"_Cilk_for", "cilk_for", "__thread_group_local", "gfx_kernel",
        "target(gfx", "pragma offload", "_GFX_", "_gfx_"})
    if (Source.contains(Marker))
      return true;
  return false;
}

std::string cilkOffloadPredefines(CilkView View) {
  // What ICC's offload compilations predefined; see docs/design-cilk.md.
  return std::string(View == CilkView::Offload ? "#define __GFX__ 1\n" : "") +
         "#define __INTEL_OFFLOAD 1\n"
         "#include <gfx/gfx_intrin.h>\n";
}

static void injectPrelude(Preprocessor &PP, llvm::StringRef ResourceIncludeDir,
                          CilkView View) {
  HeaderSearch &HS = PP.getHeaderSearchInfo();
  if (auto Dir = PP.getFileManager().getOptionalDirectoryRef(ResourceIncludeDir)) {
    // A system directory, searched before the others: <amp.h> must be ours.
    HS.AddSearchPath(DirectoryLookup(*Dir, SrcMgr::C_System, /*isFramework=*/false),
                     /*isAngled=*/true);
  }
  // Before the files of -imacros and -include, which clang includes from
  // the end of the predefines: they are user code too.
  std::string Predefines = PP.getPredefines();
  if (!Predefines.empty() && Predefines.back() != '\n')
    Predefines += '\n';
  size_t At = Predefines.size();
  for (llvm::StringRef Directive : {"#__include_macros ", "#include "}) {
    llvm::StringRef Text(Predefines);
    size_t P = Text.starts_with(Directive) ? 0 : Text.find("\n" + Directive.str());
    if (P != llvm::StringRef::npos)
      At = std::min(At, P == 0 ? P : P + 1);
  }
  std::string Prelude = "#include <slmc/prelude.h>\n";
  SourceManager &SM = PP.getSourceManager();
  if (SM.getMainFileID().isValid())
    if (auto Main = SM.getBufferDataOrNone(SM.getMainFileID()))
      if (usesCilkOffload(*Main))
        Prelude += cilkOffloadPredefines(View);
  Predefines.insert(At, Prelude);
  PP.setPredefines(std::move(Predefines));
  registerDialectPragmas(PP);
}

void injectPrelude(Preprocessor &PP, llvm::StringRef ResourceIncludeDir) {
  injectPrelude(PP, ResourceIncludeDir, CilkView::Offload);
}

void injectPrelude(CompilerInstance &CI, llvm::StringRef ResourceIncludeDir,
                   CilkView View) {
  injectPrelude(CI.getPreprocessor(), ResourceIncludeDir, View);
}

void injectPrelude(CompilerInstance &CI, llvm::StringRef ResourceIncludeDir) {
  injectPrelude(CI.getPreprocessor(), ResourceIncludeDir);
}

std::string resourceIncludeDirFor(llvm::StringRef BinaryPath) {
  // The build tree mirrors the install tree, so one rule serves both.
  llvm::SmallString<256> P(llvm::sys::path::parent_path(BinaryPath));
  if (llvm::sys::path::filename(P) == "bin") {
    llvm::sys::path::remove_filename(P);
    llvm::sys::path::append(P, SLMC_INSTALL_LIBDIR);
  }
  llvm::sys::path::append(P, "slmc", "include");
  return std::string(P);
}

/// A door that reads files without the pre-pass (the plugin on a plain
/// clang++) sees SYCL's kernel attributes as Clang does: unknown, dropped.
/// Each user file that still has a requirement gets an error at its first.
static void reportUnrespelledKernelAttributes(const SourceManager &SM,
                                              llvm::ArrayRef<SourceRange> Skipped,
                                              Reporter &R) {
  llvm::DenseSet<const FileEntry *> Seen;
  for (unsigned I = 0, N = SM.local_sloc_entry_size(); I < N; ++I) {
    const SrcMgr::SLocEntry &E = SM.getLocalSLocEntry(I);
    if (!E.isFile())
      continue;
    SourceLocation Start = SourceLocation::getFromRawEncoding(E.getOffset());
    FileID FID = SM.getFileID(Start);
    OptionalFileEntryRef File = SM.getFileEntryRefForID(FID);
    if (!File || SM.isInSystemHeader(Start) || !Seen.insert(&File->getFileEntry()).second)
      continue;
    if (std::optional<llvm::StringRef> Text = SM.getBufferDataOrNone(FID))
      for (auto [At, Kind] : findUnrespelledKernelAttributes(*Text)) {
        if (Kind == KernelAttributeKind::WorkGroupSizeHint)
          continue; // a hint: Clang's unknown-attribute warning loses nothing
        SourceLocation Loc = Start.getLocWithOffset(At);
        if (llvm::none_of(Skipped, [&](SourceRange S) {
              return !SM.isBeforeInTranslationUnit(Loc, S.getBegin()) &&
                     SM.isBeforeInTranslationUnit(Loc, S.getEnd());
            })) {
          R.report(Loc, Diag::err_sycl_kernel_attribute_not_respelled)
              << kernelAttributeName(Kind)
              << (Kind == KernelAttributeKind::RequiredSubGroupSize ? "sub-group size"
                                                                     : "work-group shape");
          break;
        }
      }
  }
}

namespace {
class SkippedRangeRecorder : public PPCallbacks {
public:
  explicit SkippedRangeRecorder(std::shared_ptr<std::vector<SourceRange>> Ranges)
      : Ranges(std::move(Ranges)) {}
  void SourceRangeSkipped(SourceRange Range, SourceLocation) override {
    Ranges->push_back(Range);
  }

private:
  std::shared_ptr<std::vector<SourceRange>> Ranges;
};

/// `#if _MSC_VER < 1800` reads an undefined _MSC_VER as 0, silently taking
/// the branch for an MSVC older than any; a condition that also tests
/// `defined(_MSC_VER)` knows.
class MscVerRecorder : public PPCallbacks {
public:
  MscVerRecorder(Preprocessor &PP, std::shared_ptr<MscVerTests> Out)
      : PP(PP), Out(std::move(Out)) {}
  void If(SourceLocation, SourceRange Condition, ConditionValueKind) override {
    note(Condition);
  }
  void Elif(SourceLocation, SourceRange Condition, ConditionValueKind Value,
            SourceLocation) override {
    if (Value != CVK_NotEvaluated)
      note(Condition);
  }

private:
  void note(SourceRange Condition) {
    SourceManager &SM = PP.getSourceManager();
    SourceLocation Begin = Condition.getBegin();
    if (Begin.isInvalid() || Begin.isMacroID() || SM.isInSystemHeader(Begin) ||
        PP.isMacroDefined("_MSC_VER"))
      return;
    bool Invalid = false;
    llvm::StringRef Text = Lexer::getSourceText(
        CharSourceRange::getTokenRange(Condition), SM, PP.getLangOpts(), &Invalid);
    if (Invalid || !Text.contains("_MSC_VER"))
      return;
    Lexer Raw(Begin, PP.getLangOpts(), Text.begin(), Text.begin(), Text.end());
    SourceLocation First;
    Token T;
    for (bool AtEnd = false; !AtEnd;) {
      AtEnd = Raw.LexFromRawLexer(T);
      if (T.is(tok::eof))
        break;
      if (!T.is(tok::raw_identifier))
        continue;
      llvm::StringRef Name = T.getRawIdentifier();
      if (Name == "defined")
        return; // a presence test: the author knew
      if (Name == "_MSC_VER" && First.isInvalid())
        First = T.getLocation();
    }
    if (First.isValid())
      Out->Locations.push_back(First);
  }

  Preprocessor &PP;
  std::shared_ptr<MscVerTests> Out;
};
} // namespace

std::shared_ptr<MscVerTests> recordMscVerTests(Preprocessor &PP) {
  auto Tests = std::make_shared<MscVerTests>();
  Tests->PP = &PP;
  PP.addPPCallbacks(std::make_unique<MscVerRecorder>(PP, Tests));
  return Tests;
}

void reportMscVerTests(const MscVerTests &Tests, Reporter &R) {
  // C++ AMP code only ever built with MSVC. (Asked at the end of the
  // translation unit: the callbacks' own end comes after the checks.)
  if (Tests.PP && Tests.PP->isMacroDefined("SLMC_AMP_H"))
    for (SourceLocation Loc : Tests.Locations)
      R.report(Loc, Diag::warn_amp_msc_ver_undefined);
}

SlmcConsumer::SlmcConsumer(CompilerInstance &CI, CheckOptions Opts,
                           ModelCallback OnModel)
    : CI(CI), Opts(Opts), OnModel(std::move(OnModel)),
      Skipped(std::make_shared<std::vector<SourceRange>>()) {
  if (CI.hasPreprocessor()) {
    CI.getPreprocessor().addPPCallbacks(std::make_unique<SkippedRangeRecorder>(Skipped));
    MscVer = recordMscVerTests(CI.getPreprocessor());
  }
}

void SlmcConsumer::HandleTranslationUnit(ASTContext &Ctx) {
  DiagnosticsEngine &Diags = CI.getDiagnostics();
  Reporter R(Diags, CI.getDiagnosticOpts());
  runEarlyChecks(Ctx, R);
  reportUnrespelledKernelAttributes(Ctx.getSourceManager(), *Skipped, R);
  // Given first, as it may explain Clang's errors (code for an older
  // MSVC's internals).
  if (MscVer)
    reportMscVerTests(*MscVer, R);
  // Clang's own errors make the AST unreliable for the other rules.
  if (Diags.hasErrorOccurred())
    return;
  ProgramModel Model = buildProgramModel(Ctx);
  runChecks(Ctx, Model, R, Opts);
  if (OnModel && !Diags.hasErrorOccurred())
    OnModel(Ctx, Model, R);
}

} // namespace slmc
