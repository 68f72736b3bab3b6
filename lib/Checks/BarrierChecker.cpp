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
  auto Reach = Model.reachableFrom(K.Body);
  auto DefOf = [](const FunctionDecl *FD) -> const FunctionDecl * {
    const FunctionDecl *Def = nullptr;
    return FD && FD->hasBody(Def) ? Def : nullptr;
  };
  // Functions that wait on a barrier themselves or through calls.
  llvm::DenseSet<const FunctionDecl *> Waits;
  for (const BarrierSite &B : Model.Barriers)
    if (B.Dialect == Rule.Dialect)
      if (const FunctionDecl *Def = DefOf(B.Function); Def && Reach.count(Def))
        Waits.insert(Def);
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (auto &[Fn, Edge] : Reach) {
      auto It = Model.Calls.find(Fn);
      if (Waits.count(Fn) || It == Model.Calls.end())
        continue;
      for (const CallEdge &E : It->second)
        if (Waits.count(DefOf(E.Callee))) {
          Waits.insert(Fn);
          Changed = true;
          break;
        }
    }
  }
  for (const FunctionDecl *Fn : Waits) {
    Uniformity U(Fn, Rule.Classify);
    auto Report = [&](const Expr *Site, const FunctionDecl *Callee) {
      const Expr *Cond = U.divergentCondition(Site);
      if (!Cond)
        return;
      R.report(Site->getBeginLoc(), Rule.Warning)
          << (Callee ? 1 : 0) << Callee << Cond->getSourceRange();
      const Expr *Why = U.taintedPart(Cond);
      R.report(Why ? Why->getBeginLoc() : Cond->getBeginLoc(),
               Rule.Because)
          << Cond->getSourceRange();
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
