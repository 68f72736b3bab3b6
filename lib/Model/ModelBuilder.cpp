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
  if (Loc.isMacroID())
    return SM.getExpansionRange(Loc).getAsRange();
  return SourceRange(Loc, Loc);
}

} // namespace slmc
