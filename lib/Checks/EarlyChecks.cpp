//===- EarlyChecks.cpp - Rules that hold even when clang reported errors --===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Most checkers need a sound AST and run only when clang found no error.
// These explain the cause of an error clang reports elsewhere, so they run
// in any case, over declarations alone.
//
//===----------------------------------------------------------------------===//
#include "Checks/Checker.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace slmc {
namespace {

/// C99 variable-length array parameters (`float m[][w]`): GCC and ICC take
/// them in C++ and convert any array argument; clang accepts the
/// declaration but no call with an array of constant size, and says so at
/// the call ("no matching function"), far from the cause.
class VlaParameters : public RecursiveASTVisitor<VlaParameters> {
public:
  VlaParameters(ASTContext &Ctx, Reporter &R) : Ctx(Ctx), R(R) {}

  bool VisitFunctionDecl(FunctionDecl *FD) {
    // One report per parameter: at the first declaration, in user code.
    if (FD->getPreviousDecl() ||
        Ctx.getSourceManager().isInSystemHeader(FD->getLocation()))
      return true;
    for (const ParmVarDecl *P : FD->parameters())
      if (P->getType()->isVariablyModifiedType())
        report(P);
    return true;
  }

private:
  void report(const ParmVarDecl *P) {
    R.report(P->getLocation(), Diag::warn_vla_parameter) << P << P->getType();
    // The element type under the variable extents, for the rewrites.
    QualType Elem = P->getType();
    if (const auto *Ptr = Elem->getAs<PointerType>())
      Elem = Ptr->getPointeeType();
    while (const ArrayType *A = Ctx.getAsArrayType(Elem))
      Elem = A->getElementType();
    std::string E = Elem.getAsString(Ctx.getPrintingPolicy());
    R.report(P->getLocation(), Diag::note_vla_parameter_rewrite)
        << ("'" + E + " (*)[N]'") << ("'" + E + " *'");
  }

  ASTContext &Ctx;
  Reporter &R;
};

} // namespace

void runEarlyChecks(ASTContext &Ctx, Reporter &R) {
  VlaParameters(Ctx, R).TraverseDecl(Ctx.getTranslationUnitDecl());
  // The header leaves this rule to the check pass, which names the user's
  // call; it must hold whatever else clang reported.
  checkSyclGroupLocalMemoryTypes(Ctx, R);
}

} // namespace slmc
