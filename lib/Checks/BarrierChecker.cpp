//===- BarrierChecker.cpp - Barriers every work-item reaches --------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Shared by every dialect: a barrier (or a call to a function that waits on
// one) under work-item-dependent control flow is undefined behaviour. The
// dialect says which expressions carry the work-item's identity.
//
//===----------------------------------------------------------------------===//
#include "Checks/Checker.h"

#include "llvm/ADT/DenseSet.h"

using namespace clang;

namespace slmc {

void checkDivergentBarriers(const ProgramModel &Model, const Kernel &K,
                            Reporter &R, const BarrierRule &Rule) {
  auto DefOf = [](const FunctionDecl *FD) -> const FunctionDecl * {
    const FunctionDecl *Def = nullptr;
    return FD && FD->hasBody(Def) ? Def : nullptr;
  };
  llvm::DenseSet<const FunctionDecl *> Waits =
      functionsThatWait(Model, K.Body, Rule.Dialect);
  for (const FunctionDecl *Fn : Waits) {
    Uniformity U(Fn, Rule.Classify);
    auto Report = [&](const Expr *Site, const FunctionDecl *Callee) {
      const Expr *Cond = U.divergentCondition(Site);
      if (!Cond)
        return;
      R.report(Site->getBeginLoc(), Rule.Warning)
          << (Callee ? 1 : 0) << Callee << Cond->getSourceRange();
      const Expr *Why = U.blame(Cond);
      R.report(Why->getBeginLoc(), Rule.Because) << Why->getSourceRange();
    };
    for (const BarrierSite &B : Model.Barriers)
      if (B.Dialect == Rule.Dialect && DefOf(B.Function) == Fn)
        Report(B.Call, B.Waiter);
    auto It = Model.Calls.find(Fn);
    if (It != Model.Calls.end())
      for (const CallEdge &E : It->second)
        if (const FunctionDecl *Def = DefOf(E.Callee);
            Def && Def != Fn && Waits.count(Def))
          Report(E.Site, E.Callee);
  }
}

} // namespace slmc
