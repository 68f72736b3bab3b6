//===- Lowering.h - Dialect source to offload C++ ---------------*- C++ -*-===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Lowering rewrites the user's files into offload C++ (slmc/offload.h):
// dialect keywords become offload macros, group-local declarations become
// SLMC_GROUP_LOCAL storage, and so on. Every file of the translation unit
// that is not a system header may be edited: the main file and the
// project's own headers alike. Edits keep every line where it was, so the
// lowered copies, served under the user's file names to the device and host
// passes, give diagnostics that point into the user's files. Lowering
// consumes the model; it never re-derives what the checkers saw.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_LOWERING_LOWERING_H
#define SLMC_LOWERING_LOWERING_H

#include "Basic/Diagnostics.h"
#include "Model/Model.h"

#include "clang/AST/ASTContext.h"
#include "clang/Rewrite/Core/Rewriter.h"

#include <memory>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace slmc {

/// A user header as lowering left it.
struct LoweredFile {
  std::string Path; // absolute, as the compilation found the file
  std::string Text;
};

/// The lowered translation unit.
struct LoweredOutput {
  /// The main file: the offload header, the prologue, a #line directive
  /// back to the user's file, the edited source, the epilogue.
  std::string Main;
  /// Every other file lowering edited.
  std::vector<LoweredFile> Headers;
};

class LoweringContext {
public:
  LoweringContext(clang::ASTContext &Ctx, Reporter &R);

  clang::ASTContext &astContext() { return Ctx; }
  /// Replaces the text of a range written in a user file. A range inside
  /// a macro's definition or argument is edited where it is spelled, once
  /// for every expansion. Reports an error and returns false for ranges in
  /// system headers and ranges a macro pieces together.
  bool replace(clang::SourceRange Range, llvm::StringRef Text);
  bool insertBefore(clang::SourceLocation Loc, llvm::StringRef Text);
  /// Blanks the directive (e.g. a pragma) starting at `Hash`, keeping its
  /// line breaks.
  bool removeDirective(clang::SourceLocation Hash);

  /// Adds a declaration placed after the offload header and before the
  /// user's code (once per distinct text).
  void addPrologue(llvm::StringRef Text);
  /// Inserts text right after the token at `Loc`.
  bool insertAfterToken(clang::SourceLocation Loc, llvm::StringRef Text);
  /// Adds code after the user's code (kernel entry points and the like).
  void addEpilogue(llvm::StringRef Text) { Epilogue += Text; }
  /// Records a kernel that host code launches by name from a program file,
  /// as "name(kind,...)" with kind "surface" or "value<bytes>".
  void addProgramKernel(std::string Signature) {
    ProgramKernels.push_back(std::move(Signature));
  }
  const std::vector<std::string> &programKernels() const { return ProgramKernels; }

  /// A fresh number for a per-site tag, unique in this translation unit.
  unsigned nextSite() { return Sites++; }
  /// Makes a user function callable from device code (SLMC_HD before its
  /// declaration), once per function; system headers are left alone.
  void makeDeviceCallable(const clang::FunctionDecl *FD);

  /// The lowered main file (its #line names `PresumedName`) and headers.
  /// Reports an error if a header included twice lowered differently.
  LoweredOutput output(llvm::StringRef PresumedName);

  /// Whether `Loc` (where its macro expands) is in a file lowering may edit.
  bool isUserFile(clang::SourceLocation Loc) const;
  /// Every `restrict(...)` the preprocessor expanded, written in a file
  /// (C++ AMP lowers those the AST does not show too).
  void setRestrictSpellings(std::vector<clang::SourceRange> R) {
    RestrictSpellings = std::move(R);
  }
  const std::vector<clang::SourceRange> &restrictSpellings() const {
    return RestrictSpellings;
  }
  /// For what only lowering can find wrong.
  Reporter &reporter() { return R; }

private:
  std::vector<clang::SourceRange> RestrictSpellings;
  bool editable(clang::SourceLocation Loc);
  /// Where a range inside a macro is spelled, if in one piece.
  std::optional<clang::SourceRange> spelledInMacro(clang::SourceRange Range);
  /// Whether this is the first edit of spelled text some macro expands more
  /// than once (a second, different edit of it is an error).
  bool firstEdit(clang::SourceLocation Spelled, llvm::StringRef Text);

  clang::ASTContext &Ctx;
  Reporter &R;
  clang::Rewriter Rewrite;
  std::vector<clang::FileID> Reported;
  std::map<std::pair<unsigned, unsigned>, std::string> MacroEdits;
  std::vector<std::string> Prologue;
  std::string Epilogue;
  std::vector<std::string> ProgramKernels;
  std::vector<clang::SourceLocation> MadeDeviceCallable;
  unsigned Sites = 0;
};

class DialectLowering {
public:
  virtual ~DialectLowering() = default;
  virtual void lower(const ProgramModel &Model, LoweringContext &L) = 0;
};

std::unique_ptr<DialectLowering> createAmpLowering();
std::unique_ptr<DialectLowering> createSyclLowering();
std::unique_ptr<DialectLowering> createCmLowering();
std::unique_ptr<DialectLowering> createCilkLowering();

/// Lowers a checked translation unit; returns false if lowering reported an
/// error.
bool lowerProgram(const ProgramModel &Model, LoweringContext &L);

} // namespace slmc

#endif // SLMC_LOWERING_LOWERING_H
