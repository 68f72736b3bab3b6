//===- Checker.cpp --------------------------------------------------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "Checks/Checker.h"

using namespace clang;

namespace slmc {

void runChecks(ASTContext &Ctx, const ProgramModel &Model, Reporter &R,
               const CheckOptions &Opts) {
  std::vector<std::unique_ptr<Checker>> Checkers;
  Checkers.push_back(createAmpChecker());
  Checkers.push_back(createSyclChecker());
  Checkers.push_back(createCmChecker());
  Checkers.push_back(createCilkChecker());
  Checkers.push_back(createGroupMemoryChecker(Opts));
  Checkers.push_back(createDefinitionChecker(Opts));
  for (auto &C : Checkers)
    C->check(Ctx, Model, R);
}

void notePath(Reporter &R,
              const llvm::DenseMap<const FunctionDecl *, CallEdge> &Reach,
              const FunctionDecl *Target) {
  const FunctionDecl *FD = Target;
  for (unsigned Guard = 0; Guard < 64; ++Guard) {
    auto It = Reach.find(FD);
    if (It == Reach.end() || !It->second.Site)
      return;
    const FunctionDecl *Caller = It->second.Callee; // reached from here
    R.report(It->second.Site->getBeginLoc(), Diag::note_slmc_call_path)
        << Caller;
    FD = Caller;
  }
}

void notePath(Reporter &R, const CallPath &Path) {
  for (auto It = Path.rbegin(); It != Path.rend(); ++It)
    R.report(It->Site->getBeginLoc(), Diag::note_slmc_call_path) << It->Caller;
}

} // namespace slmc
