//===- FunctionScopeVisitor.h - AST walk that knows the current function -===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Model builders need to know which function a construct is written in, and
// kernels are mostly lambdas: a lambda's call operator is implicit code the
// RecursiveASTVisitor does not walk as a declaration, so it is pushed here
// when its body is traversed (and handed to VisitFunctionDecl once).
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_MODEL_FUNCTIONSCOPEVISITOR_H
#define SLMC_MODEL_FUNCTIONSCOPEVISITOR_H

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

#include <vector>

namespace slmc {

template <class Derived>
class FunctionScopeVisitor : public clang::RecursiveASTVisitor<Derived> {
  using Base = clang::RecursiveASTVisitor<Derived>;

public:
  bool TraverseLambdaExpr(clang::LambdaExpr *LE) {
    clang::CXXMethodDecl *Op = LE->getCallOperator();
    static_cast<Derived *>(this)->VisitFunctionDecl(Op);
    if (!scoped(Op, [&] { return Base::TraverseLambdaExpr(LE); }))
      return false;
    // A generic lambda's instantiations hang off its call operator template,
    // which the traversal of the expression does not reach.
    if (InstantiationsOnly && LE->isGenericLambda())
      if (clang::FunctionTemplateDecl *T = Op->getDescribedFunctionTemplate())
        for (clang::FunctionDecl *Spec : T->specializations())
          if (!this->TraverseDecl(Spec))
            return false;
    return true;
  }
  bool TraverseFunctionDecl(clang::FunctionDecl *FD) {
    return scoped(FD, [&] { return Base::TraverseFunctionDecl(FD); });
  }
  bool TraverseCXXMethodDecl(clang::CXXMethodDecl *FD) {
    return scoped(FD, [&] { return Base::TraverseCXXMethodDecl(FD); });
  }
  bool TraverseCXXConstructorDecl(clang::CXXConstructorDecl *FD) {
    return scoped(FD, [&] { return Base::TraverseCXXConstructorDecl(FD); });
  }
  bool TraverseCXXDestructorDecl(clang::CXXDestructorDecl *FD) {
    return scoped(FD, [&] { return Base::TraverseCXXDestructorDecl(FD); });
  }
  bool TraverseCXXConversionDecl(clang::CXXConversionDecl *FD) {
    return scoped(FD, [&] { return Base::TraverseCXXConversionDecl(FD); });
  }
  bool VisitFunctionDecl(clang::FunctionDecl *) { return true; }

  /// A second pass over template instantiations only (generic lambdas'
  /// included): the model builders find there the launches whose callee a
  /// template's own text does not have (a kernel lambda in a function
  /// template is of a dependent type; `[&](auto &h) { h.parallel_for(...); }`).
  void visitInstantiations() { InstantiationsOnly = true; }
  bool shouldVisitTemplateInstantiations() const { return InstantiationsOnly; }

protected:
  bool InstantiationsOnly = false;

  /// Whether FD is, or is inside, a template instantiation (a member of a
  /// class template specialisation, a lambda of an instantiated function).
  static bool inInstantiation(const clang::FunctionDecl *FD) {
    for (const clang::DeclContext *DC = FD; DC; DC = DC->getParent()) {
      if (const auto *F = llvm::dyn_cast<clang::FunctionDecl>(DC);
          F && F->getTemplateInstantiationPattern())
        return true;
      if (const auto *R = llvm::dyn_cast<clang::CXXRecordDecl>(DC);
          R && R->getTemplateInstantiationPattern())
        return true;
    }
    return false;
  }

  const clang::FunctionDecl *currentFunction() const {
    return Stack.empty() ? nullptr : Stack.back();
  }

private:
  template <class F> bool scoped(clang::FunctionDecl *FD, F Traverse) {
    Stack.push_back(FD);
    bool R = Traverse();
    Stack.pop_back();
    return R;
  }
  std::vector<const clang::FunctionDecl *> Stack;
};

} // namespace slmc

#endif // SLMC_MODEL_FUNCTIONSCOPEVISITOR_H
