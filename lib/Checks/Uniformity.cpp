//===- Uniformity.cpp -----------------------------------------------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "Checks/Uniformity.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace slmc {
namespace {

/// The variable an assignment writes, through member accesses and
/// subscripts (`v.x = ...`, `a[i] = ...` taint `v` and `a`).
const VarDecl *assignedVar(const Expr *LHS) {
  LHS = LHS->IgnoreParenImpCasts();
  while (true) {
    if (const auto *ME = dyn_cast<MemberExpr>(LHS))
      LHS = ME->getBase()->IgnoreParenImpCasts();
    else if (const auto *AS = dyn_cast<ArraySubscriptExpr>(LHS))
      LHS = AS->getBase()->IgnoreParenImpCasts();
    else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(LHS);
             OC && OC->getOperator() == OO_Subscript)
      LHS = OC->getArg(0)->IgnoreParenImpCasts();
    else
      break;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(LHS))
    return dyn_cast<VarDecl>(DRE->getDecl());
  return nullptr;
}

bool containsJump(const Stmt *S, bool &Returns) {
  if (!S)
    return false;
  if (isa<ReturnStmt>(S)) {
    Returns = true;
    return true;
  }
  if (isa<BreakStmt>(S) || isa<ContinueStmt>(S))
    return true;
  if (isa<LambdaExpr>(S))
    return false;
  bool Found = false;
  for (const Stmt *C : S->children())
    Found |= containsJump(C, Returns);
  return Found;
}

} // namespace

Uniformity::Uniformity(const FunctionDecl *F,
                       std::function<Seed(const Expr *)> Classify)
    : Classify(std::move(Classify)) {
  const FunctionDecl *Def = nullptr;
  if (!F->hasBody(Def))
    return;
  computeTaint(Def->getBody());
  computeControl(Def->getBody());
}

bool Uniformity::isTainted(const Expr *E) const { return taintedPart(E); }

const Expr *Uniformity::taintedPart(const Expr *E) const {
  if (!E)
    return nullptr;
  switch (Classify(E)) {
  case Seed::Divergent:
    return E;
  case Seed::Uniform:
    return nullptr;
  case Seed::None:
    break;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (Tainted.count(VD))
        return E;
  if (isa<LambdaExpr>(E))
    return nullptr;
  for (const Stmt *C : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(C))
      if (const Expr *T = taintedPart(CE))
        return T;
  return nullptr;
}

void Uniformity::computeTaint(const Stmt *Body) {
  struct Collector : RecursiveASTVisitor<Collector> {
    std::vector<std::pair<const VarDecl *, const Expr *>> Flows;
    bool shouldVisitLambdaBody() const { return false; }
    bool VisitVarDecl(VarDecl *VD) {
      if (VD->getInit())
        Flows.push_back({VD, VD->getInit()});
      return true;
    }
    bool VisitBinaryOperator(BinaryOperator *BO) {
      if (BO->isAssignmentOp())
        if (const VarDecl *VD = assignedVar(BO->getLHS()))
          Flows.push_back({VD, BO->getRHS()});
      return true;
    }
    bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *OC) {
      if (OC->isAssignmentOp() && OC->getNumArgs() == 2)
        if (const VarDecl *VD = assignedVar(OC->getArg(0)))
          Flows.push_back({VD, OC->getArg(1)});
      return true;
    }
    bool VisitCXXForRangeStmt(CXXForRangeStmt *FR) {
      Flows.push_back({FR->getLoopVariable(), FR->getRangeInit()});
      return true;
    }
  } C;
  C.TraverseStmt(const_cast<Stmt *>(Body));
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (auto &[VD, From] : C.Flows)
      if (!Tainted.count(VD) && isTainted(From)) {
        Tainted.insert(VD);
        Changed = true;
      }
  }
}

void Uniformity::computeControl(const Stmt *Body) {
  // Walks statements in order with the condition that currently controls
  // them; `AfterReturn` is a divergent condition guarding an earlier return,
  // which controls every later statement of the function.
  const Expr *AfterReturn = nullptr;
  std::function<void(const Stmt *, const Expr *)> Walk = [&](const Stmt *S,
                                                             const Expr *Cond) {
    if (!S || isa<LambdaExpr>(S))
      return;
    if (!Cond)
      Cond = AfterReturn;
    if (Cond)
      Control[S] = Cond;
    auto Divergent = [&](const Expr *E) -> const Expr * {
      return Cond ? Cond : (isTainted(E) ? E : nullptr);
    };
    if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
      const Expr *Rest = Cond;
      for (const Stmt *Child : CS->body()) {
        Walk(Child, Rest);
        // `if (tid < n) return/break/continue;` splits the work-items
        // for everything after it.
        if (const auto *If = dyn_cast<IfStmt>(Child);
            If && !Rest && isTainted(If->getCond())) {
          bool Returns = false;
          if (containsJump(If->getThen(), Returns) |
              containsJump(If->getElse(), Returns)) {
            Rest = If->getCond();
            if (Returns && !AfterReturn)
              AfterReturn = If->getCond();
          }
        }
      }
      return;
    }
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      Walk(If->getInit(), Cond);
      Walk(If->getCond(), Cond);
      const Expr *Inner = Divergent(If->getCond());
      Walk(If->getThen(), Inner);
      Walk(If->getElse(), Inner);
      return;
    }
    if (const auto *W = dyn_cast<WhileStmt>(S)) {
      Walk(W->getCond(), Cond);
      Walk(W->getBody(), Divergent(W->getCond()));
      return;
    }
    if (const auto *D = dyn_cast<DoStmt>(S)) {
      Walk(D->getBody(), Divergent(D->getCond()));
      Walk(D->getCond(), Cond);
      return;
    }
    if (const auto *F = dyn_cast<ForStmt>(S)) {
      Walk(F->getInit(), Cond);
      const Expr *Inner = F->getCond() ? Divergent(F->getCond()) : Cond;
      Walk(F->getCond(), Cond);
      Walk(F->getInc(), Inner);
      Walk(F->getBody(), Inner);
      return;
    }
    if (const auto *Sw = dyn_cast<SwitchStmt>(S)) {
      Walk(Sw->getCond(), Cond);
      Walk(Sw->getBody(), Divergent(Sw->getCond()));
      return;
    }
    if (const auto *CO = dyn_cast<AbstractConditionalOperator>(S)) {
      Walk(CO->getCond(), Cond);
      const Expr *Inner = Divergent(CO->getCond());
      Walk(CO->getTrueExpr(), Inner);
      Walk(CO->getFalseExpr(), Inner);
      return;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isLogicalOp()) {
      Walk(BO->getLHS(), Cond);
      Walk(BO->getRHS(), Divergent(BO->getLHS()));
      return;
    }
    for (const Stmt *Child : S->children())
      Walk(Child, Cond);
  };
  Walk(Body, nullptr);
}

const Expr *Uniformity::divergentCondition(const Stmt *S) const {
  auto It = Control.find(S);
  return It == Control.end() ? nullptr : It->second;
}

} // namespace slmc
