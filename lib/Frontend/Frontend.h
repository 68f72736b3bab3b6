//===- Frontend.h - slmc inside a Clang compilation -------------*- C++ -*-===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What every door into slmc shares: the plugin in a stock clang process,
// slmc++'s in-process front end and slmc-clangd all inject the dialect
// prelude the same way and run the same model builders and checkers.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_FRONTEND_FRONTEND_H
#define SLMC_FRONTEND_FRONTEND_H

#include "Checks/Checker.h"
#include "Basic/Diagnostics.h"
#include "Model/Model.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Frontend/CompilerInstance.h"

#include <functional>
#include <memory>
#include <string>

namespace slmc {

/// Makes dialect source parseable: puts slmc's header directory (dialect
/// headers such as <amp.h>, and slmc/prelude.h) first among the system
/// include directories and includes the prelude before the main file and
/// the files of -include and -imacros. Must run after the preprocessor exists and before parsing starts.
void injectPrelude(clang::CompilerInstance &CI,
                   llvm::StringRef ResourceIncludeDir);
/// The same, on a preprocessor of which only the predefines are set (what
/// clang-tidy hands its checks).
void injectPrelude(clang::Preprocessor &PP, llvm::StringRef ResourceIncludeDir);

/// Which of ICC's two compilations a Cilk Plus offload source is read as:
/// the offload one (`__GFX__` defined, the default of every front end) or
/// the host one (slmc++'s host pass of a source that tests `__GFX__`).
enum class CilkView { Offload, Host };
void injectPrelude(clang::CompilerInstance &CI, llvm::StringRef ResourceIncludeDir,
                   CilkView View);

/// Whether a main file's text uses Cilk Plus graphics offload (`_Cilk_for`,
/// `__thread_group_local`, `target(gfx...)`, `#pragma offload`, the `_GFX_`
/// API or `_gfx_` intrinsics). Such translation units get
/// cilkOffloadPredefines() in every pass.
bool usesCilkOffload(llvm::StringRef Source);

/// `__GFX__` and `__INTEL_OFFLOAD` defined, and the `_gfx_*` intrinsics
/// declared, as ICC's offload compilations gave them (as source text).
std::string cilkOffloadPredefines(CilkView View = CilkView::Offload);

/// Registers the handlers of the dialects' own pragmas (Cilk Plus
/// `#pragma offload`, `#pragma offload_attribute`); injectPrelude does it.
void registerDialectPragmas(clang::Preprocessor &PP);

/// The resource include directory that belongs to a binary installed at
/// `BinaryPath` (bin/slmc++ or lib/slmcPlugin.so): <prefix>/lib/slmc/include.
std::string resourceIncludeDirFor(llvm::StringRef BinaryPath);

/// Runs after a translation unit is parsed: builds the model, runs the
/// checkers and, when there were no errors, hands the model to `OnModel`.
/// Where user files' #if/#elif conditions read _MSC_VER while it was not
/// defined (and did not test whether it was), and the preprocessor that
/// read them (whose macros tell whether <amp.h> was included).
struct MscVerTests {
  std::vector<clang::SourceLocation> Locations;
  clang::Preprocessor *PP = nullptr;
};
/// Starts recording them on `PP` (before it reads the main file).
std::shared_ptr<MscVerTests> recordMscVerTests(clang::Preprocessor &PP);
/// -Wslmc-msc-ver at each, in a C++ AMP translation unit.
void reportMscVerTests(const MscVerTests &Tests, Reporter &R);

class SlmcConsumer : public clang::ASTConsumer {
public:
  using ModelCallback =
      std::function<void(clang::ASTContext &, const ProgramModel &, Reporter &)>;

  SlmcConsumer(clang::CompilerInstance &CI, CheckOptions Opts,
               ModelCallback OnModel = nullptr);
  void HandleTranslationUnit(clang::ASTContext &Ctx) override;

private:
  clang::CompilerInstance &CI;
  CheckOptions Opts;
  ModelCallback OnModel;
  /// Source the preprocessor skipped (inactive #if branches), recorded
  /// while the translation unit is read.
  std::shared_ptr<std::vector<clang::SourceRange>> Skipped;
  std::shared_ptr<MscVerTests> MscVer;
};

} // namespace slmc

#endif // SLMC_FRONTEND_FRONTEND_H
