//===- ModelBuilder.cpp ---------------------------------------------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "Model/ModelBuilder.h"

#include "clang/AST/Attr.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace slmc {

std::vector<std::unique_ptr<ModelBuilder>> createModelBuilders() {
  std::vector<std::unique_ptr<ModelBuilder>> Builders;
  Builders.push_back(createAmpModelBuilder());
  Builders.push_back(createSyclModelBuilder());
  Builders.push_back(createCmModelBuilder());
  Builders.push_back(createCilkModelBuilder());
  return Builders;
}

ProgramModel buildProgramModel(ASTContext &Ctx) {
  ProgramModel Model;
  for (auto &B : createModelBuilders())
    B->build(Ctx, Model);
  for (const Kernel &K : Model.Kernels)
    Model.addCallGraphFrom(K.Body);
  return Model;
}

const AnnotateAttr *findAnnotation(const Decl *D, llvm::StringRef Name) {
  for (const auto *A : D->specific_attrs<AnnotateAttr>())
    if (A->getAnnotation() == Name)
      return A;
  return nullptr;
}

SourceRange keywordRange(const SourceManager &SM, SourceLocation Loc) {
  // Dialect keywords are macros of slmc's (system) headers: climb out of
  // those expansions only. A keyword the user wrote inside a macro of their
  // own keeps its place there; lowering edits it where it is spelled.
  while (Loc.isMacroID()) {
    // A token passed in a macro's argument: follow it to where the argument
    // is written, not to the parameter's place in the macro's body.
    if (SM.isMacroArgExpansion(Loc)) {
      Loc = SM.getImmediateSpellingLoc(Loc);
      continue;
    }
    CharSourceRange R = SM.getImmediateExpansionRange(Loc);
    if (!SM.isInSystemHeader(SM.getSpellingLoc(R.getBegin())))
      return R.getAsRange();
    Loc = R.getBegin();
  }
  return SourceRange(Loc, Loc);
}

} // namespace slmc
