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
    return scoped(Op, [&] { return Base::TraverseLambdaExpr(LE); });
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

protected:
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
