//===- ModelBuilder.h - Dialect model builders ------------------*- C++ -*-===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Each dialect contributes one ModelBuilder that reads its constructs from
// the AST into the ProgramModel. Builders report nothing: deciding what is
// wrong is the checkers' job.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_MODEL_MODELBUILDER_H
#define SLMC_MODEL_MODELBUILDER_H

#include "Model/Model.h"

#include "clang/AST/ASTContext.h"

#include <memory>
#include <vector>

namespace slmc {

class ModelBuilder {
public:
  virtual ~ModelBuilder() = default;
  virtual void build(clang::ASTContext &Ctx, ProgramModel &Model) = 0;
};

std::unique_ptr<ModelBuilder> createAmpModelBuilder();
std::unique_ptr<ModelBuilder> createSyclModelBuilder();
std::unique_ptr<ModelBuilder> createCmModelBuilder();
std::unique_ptr<ModelBuilder> createCilkModelBuilder();

/// Every dialect's builder, in a fixed order.
std::vector<std::unique_ptr<ModelBuilder>> createModelBuilders();

/// Builds the whole model of a translation unit, call graph included.
ProgramModel buildProgramModel(clang::ASTContext &Ctx);

/// Helpers shared by builders: the annotation strings the dialect preludes
/// and libraries attach to declarations.
const clang::AnnotateAttr *findAnnotation(const clang::Decl *D,
                                          llvm::StringRef Name);
/// The dialect keyword as the user wrote it: the invocation of the header
/// macro that produced `Loc` (inside a user macro where written there), or
/// `Loc` itself.
clang::SourceRange keywordRange(const clang::SourceManager &SM,
                                clang::SourceLocation Loc);

} // namespace slmc

#endif // SLMC_MODEL_MODELBUILDER_H
