//===- Model.cpp ----------------------------------------------------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "Model/Model.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"

#include <deque>
#include <functional>

using namespace clang;

namespace slmc {

const char *dialectName(DialectKind K) {
  switch (K) {
  case DialectKind::Amp: return "C++ AMP";
  case DialectKind::Sycl: return "SYCL";
  case DialectKind::Cm: return "C for Metal";
  case DialectKind::Cilk: return "Cilk Plus";
  }
  return "?";
}

const Restriction *ProgramModel::restrictionOf(const FunctionDecl *FD) const {
  auto It = Restrictions.find(FD->getCanonicalDecl());
  return It == Restrictions.end() ? nullptr : &It->second;
}

const GroupLocalVar *ProgramModel::groupLocal(const VarDecl *VD) const {
  for (const GroupLocalVar &G : GroupLocals)
    if (G.Var == VD)
      return &G;
  return nullptr;
}

namespace {
/// Collects the functions a body calls or constructs with, in source order.
class CallCollector : public RecursiveASTVisitor<CallCollector> {
public:
  llvm::SmallVector<CallEdge, 4> Edges;
  bool IntoLambdas = false;

  // A lambda is its own function, unless the caller asks for its body.
  bool shouldVisitLambdaBody() const { return IntoLambdas; }

  bool VisitCallExpr(CallExpr *CE) {
    if (const FunctionDecl *FD = CE->getDirectCallee())
      Edges.push_back({FD, CE});
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *CE) {
    Edges.push_back({CE->getConstructor(), CE});
    return true;
  }
};
} // namespace

llvm::SmallVector<CallEdge, 4> directCalls(const Stmt *S, bool IntoLambdas) {
  CallCollector C;
  C.IntoLambdas = IntoLambdas;
  C.TraverseStmt(const_cast<Stmt *>(S));
  return std::move(C.Edges);
}

void ProgramModel::addCallGraphFrom(const FunctionDecl *Root) {
  std::deque<const FunctionDecl *> Work{Root};
  while (!Work.empty()) {
    const FunctionDecl *FD = Work.front();
    Work.pop_front();
    const FunctionDecl *Def = nullptr;
    if (!FD->hasBody(Def) || Calls.count(Def))
      continue;
    CallCollector C;
    // A constructor's member and base initializers run as part of it
    // (default member initializers included, as the constructor uses them).
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Def))
      for (const CXXCtorInitializer *Init : Ctor->inits()) {
        Expr *E = Init->getInit();
        if (auto *Default = dyn_cast_or_null<CXXDefaultInitExpr>(E))
          E = Default->getExpr();
        C.TraverseStmt(E);
      }
    C.TraverseStmt(Def->getBody());
    for (const CallEdge &E : C.Edges)
      Work.push_back(E.Callee);
    Calls[Def] = std::move(C.Edges);
  }
}

llvm::DenseMap<const FunctionDecl *, CallEdge>
ProgramModel::reachableFrom(const FunctionDecl *Root) const {
  llvm::DenseMap<const FunctionDecl *, CallEdge> Seen;
  std::deque<const FunctionDecl *> Work;
  const FunctionDecl *RootDef = nullptr;
  if (!Root->hasBody(RootDef))
    return Seen;
  Seen[RootDef] = {RootDef, nullptr};
  Work.push_back(RootDef);
  while (!Work.empty()) {
    const FunctionDecl *FD = Work.front();
    Work.pop_front();
    auto It = Calls.find(FD);
    if (It == Calls.end())
      continue;
    for (const CallEdge &E : It->second) {
      const FunctionDecl *Def = nullptr;
      if (!E.Callee->hasBody(Def) || Seen.count(Def))
        continue;
      Seen[Def] = {FD, E.Site}; // reached from FD at E.Site
      Work.push_back(Def);
    }
  }
  return Seen;
}

namespace {
const FunctionDecl *definitionOf(const FunctionDecl *FD) {
  const FunctionDecl *Def = nullptr;
  return FD && FD->hasBody(Def) ? Def : nullptr;
}
} // namespace

std::vector<CallPath> ProgramModel::callPaths(const FunctionDecl *Root,
                                              const FunctionDecl *Target,
                                              unsigned Limit) const {
  std::vector<CallPath> Paths;
  Root = definitionOf(Root);
  Target = definitionOf(Target);
  if (!Root || !Target)
    return Paths;
  CallPath Stack;
  llvm::DenseSet<const FunctionDecl *> OnStack;
  // Depth-first; a step budget keeps pathological call graphs cheap.
  unsigned Budget = 100000;
  std::function<void(const FunctionDecl *)> Walk = [&](const FunctionDecl *FD) {
    if (Paths.size() >= Limit || Budget == 0)
      return;
    --Budget;
    if (FD == Target) {
      Paths.push_back(Stack);
      return;
    }
    auto It = Calls.find(FD);
    if (It == Calls.end())
      return;
    OnStack.insert(FD);
    for (const CallEdge &E : It->second) {
      const FunctionDecl *Def = definitionOf(E.Callee);
      if (!Def || OnStack.count(Def))
        continue;
      Stack.push_back({FD, E.Site, Def});
      Walk(Def);
      Stack.pop_back();
    }
    OnStack.erase(FD);
  };
  Walk(Root);
  return Paths;
}

bool ProgramModel::isRecursive(const FunctionDecl *FD) const {
  FD = definitionOf(FD);
  if (!FD)
    return false;
  auto It = Calls.find(FD);
  if (It == Calls.end())
    return false;
  for (const CallEdge &E : It->second)
    if (const FunctionDecl *Def = definitionOf(E.Callee))
      if (Def == FD || reachableFrom(Def).count(FD))
        return true;
  return false;
}

bool writtenWithin(const SourceManager &SM, SourceRange Range, SourceLocation Loc) {
  SourceLocation B = SM.getExpansionLoc(Range.getBegin());
  SourceLocation E = SM.getExpansionRange(Range.getEnd()).getEnd();
  Loc = SM.getExpansionLoc(Loc);
  if (SM.getFileID(B) != SM.getFileID(Loc))
    return false;
  return !SM.isBeforeInTranslationUnit(Loc, B) && !SM.isBeforeInTranslationUnit(E, Loc);
}

} // namespace slmc
