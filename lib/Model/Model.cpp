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

#include <deque>

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

  bool shouldVisitLambdaBody() const { return false; } // a lambda is its own function

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

void ProgramModel::addCallGraphFrom(const FunctionDecl *Root) {
  std::deque<const FunctionDecl *> Work{Root};
  while (!Work.empty()) {
    const FunctionDecl *FD = Work.front();
    Work.pop_front();
    const FunctionDecl *Def = nullptr;
    if (!FD->hasBody(Def) || Calls.count(Def))
      continue;
    CallCollector C;
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

bool writtenWithin(const SourceManager &SM, SourceRange Range, SourceLocation Loc) {
  SourceLocation B = SM.getExpansionLoc(Range.getBegin());
  SourceLocation E = SM.getExpansionRange(Range.getEnd()).getEnd();
  Loc = SM.getExpansionLoc(Loc);
  if (SM.getFileID(B) != SM.getFileID(Loc))
    return false;
  return !SM.isBeforeInTranslationUnit(Loc, B) && !SM.isBeforeInTranslationUnit(E, Loc);
}

} // namespace slmc
