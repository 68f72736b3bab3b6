//===- Frontend.cpp -------------------------------------------------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "Frontend/Frontend.h"

#include "Model/ModelBuilder.h"

#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/Preprocessor.h"
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

std::string cilkOffloadPredefines() {
  // What ICC's offload compilations predefined; see docs/design-cilk.md.
  return "#define __GFX__ 1\n"
         "#define __INTEL_OFFLOAD 1\n"
         "#include <gfx/gfx_intrin.h>\n";
}

void injectPrelude(Preprocessor &PP, llvm::StringRef ResourceIncludeDir) {
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
        Prelude += cilkOffloadPredefines();
  Predefines.insert(At, Prelude);
  PP.setPredefines(std::move(Predefines));
  registerDialectPragmas(PP);
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

SlmcConsumer::SlmcConsumer(CompilerInstance &CI, CheckOptions Opts,
                           ModelCallback OnModel)
    : CI(CI), Opts(Opts), OnModel(std::move(OnModel)) {}

void SlmcConsumer::HandleTranslationUnit(ASTContext &Ctx) {
  DiagnosticsEngine &Diags = CI.getDiagnostics();
  Reporter R(Diags, CI.getDiagnosticOpts());
  runEarlyChecks(Ctx, R);
  // Clang's own errors make the AST unreliable for the other rules.
  if (Diags.hasErrorOccurred())
    return;
  ProgramModel Model = buildProgramModel(Ctx);
  runChecks(Ctx, Model, R, Opts);
  if (OnModel && !Diags.hasErrorOccurred())
    OnModel(Ctx, Model, R);
}

} // namespace slmc
