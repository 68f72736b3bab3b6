//===- CmModelBuilder.cpp - C for Metal constructs into the model ---------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Reads a CM kernel file:
//   extern "C" _GENX_MAIN_ void k(...)   annotate("slmc.cm.kernel"), set by
//                                        <cm/cm.h>; launched by name from the
//                                        host through <cm_rt.h>
//   template <...> _GENX_MAIN_ void k(...) one kernel per instance, named
//                                        "k<args>"
//   cm_slm_init(N)                       the kernel's shared local memory
//   cm_slm_* / read / write              SLM and surface accesses (checked)
//   cm_barrier()                         barriers
//
//===----------------------------------------------------------------------===//
#include "Model/FunctionScopeVisitor.h"
#include "Model/ModelBuilder.h"

#include "clang/AST/Attr.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace slmc {
namespace {

bool isCmLibraryFunction(const FunctionDecl *FD, llvm::StringRef Name) {
  if (!FD->getIdentifier() || FD->getName() != Name)
    return false;
  const SourceManager &SM = FD->getASTContext().getSourceManager();
  return SM.isInSystemHeader(FD->getLocation());
}

class CmVisitor : public FunctionScopeVisitor<CmVisitor> {
public:
  CmVisitor(ASTContext &Ctx, ProgramModel &Model) : Ctx(Ctx), Model(Model) {}

  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (!FD->isThisDeclarationADefinition() ||
        !findAnnotation(FD, "slmc.cm.kernel"))
      return true;
    // A kernel template: each of its instances is a kernel, which the host
    // names with its template arguments (CM_KERNEL_FUNCTION(k<float>)).
    // Explicit specialisations are definitions of their own, visited as
    // such.
    if (FunctionTemplateDecl *T = FD->getDescribedFunctionTemplate()) {
      for (FunctionDecl *Spec : T->specializations())
        if ((Spec->getTemplateSpecializationKind() == TSK_ImplicitInstantiation ||
             Spec->getTemplateSpecializationKind() ==
                 TSK_ExplicitInstantiationDefinition) &&
            Spec->isDefined())
          addKernel(Spec);
      return true;
    }
    if (!FD->isDependentContext())
      addKernel(FD);
    return true;
  }

  bool VisitCallExpr(CallExpr *CE) {
    const FunctionDecl *Callee = CE->getDirectCallee();
    if (!Callee)
      return true;
    // cm_slm_alloc/free/load synchronise the group too (the bump allocator
    // and the cooperative copy are shared by all its threads).
    if (isCmLibraryFunction(Callee, "cm_barrier") ||
        isCmLibraryFunction(Callee, "cm_slm_alloc") ||
        isCmLibraryFunction(Callee, "cm_slm_free") ||
        isCmLibraryFunction(Callee, "cm_slm_load")) {
      Model.Barriers.push_back({DialectKind::Cm, CE, currentFunction()});
      return true;
    }
    if (!isCmLibraryFunction(Callee, "cm_slm_init") || CE->getNumArgs() != 1)
      return true;
    GroupLocalVar G;
    G.Dialect = DialectKind::Cm;
    G.Call = CE;
    G.Function = currentFunction();
    G.Keyword = keywordRange(Ctx.getSourceManager(), CE->getBeginLoc());
    G.Init = GroupLocalInit::Undefined;
    const Expr *Size = CE->getArg(0);
    if (!Size->isValueDependent())
      if (std::optional<llvm::APSInt> V = Size->getIntegerConstantExpr(Ctx))
        if (V->isStrictlyPositive() && V->getActiveBits() <= 32) {
          G.SizeInBytes = V->getZExtValue();
          G.Type = Ctx.getConstantArrayType(Ctx.UnsignedCharTy, *V, nullptr,
                                            ArraySizeModifier::Normal, 0);
        }
    G.Alignment = 16;
    Model.GroupLocals.push_back(G);
    return true;
  }

private:
  void addKernel(FunctionDecl *FD) {
    Kernel K;
    K.Dialect = DialectKind::Cm;
    K.Body = FD;
    K.UsesWorkGroups = true; // thread groups; shape chosen by the host
    Model.Kernels.push_back(K);
  }

  ASTContext &Ctx;
  ProgramModel &Model;
};

class CmModelBuilder : public ModelBuilder {
public:
  void build(ASTContext &Ctx, ProgramModel &Model) override {
    CmVisitor V(Ctx, Model);
    V.TraverseDecl(Ctx.getTranslationUnitDecl());
  }
};

} // namespace

std::unique_ptr<ModelBuilder> createCmModelBuilder() {
  return std::make_unique<CmModelBuilder>();
}

} // namespace slmc
