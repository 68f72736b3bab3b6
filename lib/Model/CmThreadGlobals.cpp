//===- CmThreadGlobals.cpp - C for Metal per-thread globals ---------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "Model/CmThreadGlobals.h"

#include "Model/ModelBuilder.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

#include "llvm/ADT/DenseSet.h"

#include <deque>

using namespace clang;

namespace slmc {

const FunctionDecl *writtenFunction(const FunctionDecl *FD) {
  if (const FunctionDecl *P = FD->getTemplateInstantiationPattern())
    FD = P;
  return FD->getCanonicalDecl();
}

bool isCmThreadGlobal(const VarDecl *VD) {
  if (!VD || !VD->hasGlobalStorage() || VD->isStaticLocal() ||
      !VD->getDeclContext()->getRedeclContext()->isFileContext())
    return false;
  const SourceManager &SM = VD->getASTContext().getSourceManager();
  return !SM.isInSystemHeader(VD->getLocation()) && findAnnotation(VD, "slmc.hd");
}

std::string CmThreadGlobals::localName(const VarDecl *VD) const {
  const VarDecl *Canon = VD->getCanonicalDecl();
  for (size_t I = 0; I < Vars.size(); ++I)
    if (Vars[I]->getCanonicalDecl() == Canon)
      return "slmc_cm_thread_" + std::to_string(I) + "_" + VD->getNameAsString();
  return VD->getNameAsString();
}

namespace {

bool isLambdaCallOperator(const FunctionDecl *FD) {
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  return MD && MD->getParent()->isLambda();
}

/// A call, construction or mention of a function with a body.
struct Edge {
  const Expr *Site;
  const FunctionDecl *Callee; // written function (canonical)
  const FunctionDecl *Actual; // the one called (an instantiation, maybe)
  bool ByName;                // a plain call, which can take more arguments
};

/// What one function body does with globals and functions (lambda bodies
/// included).
class BodyScan : public RecursiveASTVisitor<BodyScan> {
public:
  BodyScan(const llvm::DenseSet<const VarDecl *> &Globals) : Globals(Globals) {}

  std::vector<const DeclRefExpr *> Uses;
  std::vector<Edge> Edges;

  bool VisitCallExpr(CallExpr *CE) {
    const FunctionDecl *Callee = CE->getDirectCallee();
    if (!Callee || !Callee->isDefined() || isLambdaCallOperator(Callee))
      return true;
    // A call by name or a member call can take more arguments; an
    // operator cannot.
    bool ByName = !isa<CXXOperatorCallExpr>(CE);
    const Expr *E = CE->getCallee()->IgnoreParenImpCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      Called.insert(DRE);
    else if (!isa<MemberExpr>(E))
      ByName = false;
    Edges.push_back({CE, writtenFunction(Callee), Callee, ByName});
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *CE) {
    const FunctionDecl *Ctor = CE->getConstructor();
    if (Ctor && Ctor->isDefined())
      Edges.push_back({CE, writtenFunction(Ctor), Ctor, false});
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl())) {
      if (Globals.count(VD->getCanonicalDecl()))
        Uses.push_back(DRE);
    } else if (isa<FunctionDecl>(DRE->getDecl())) {
      Mentions.push_back(DRE);
    }
    return true;
  }

  /// Functions named without being called (their address taken).
  void finish() {
    for (const DeclRefExpr *DRE : Mentions)
      if (!Called.count(DRE)) {
        const auto *FD = cast<FunctionDecl>(DRE->getDecl());
        if (FD->isDefined() && !isLambdaCallOperator(FD))
          Edges.push_back({DRE, writtenFunction(FD), FD, false});
      }
  }

private:
  const llvm::DenseSet<const VarDecl *> &Globals;
  llvm::DenseSet<const DeclRefExpr *> Called;
  std::vector<const DeclRefExpr *> Mentions;
};

const FunctionDecl *definitionOf(const FunctionDecl *FD) {
  const FunctionDecl *Def = nullptr;
  return FD && FD->hasBody(Def) ? Def : nullptr;
}

/// A definition's body, with a constructor's member initializers.
void scan(BodyScan &Scan, const FunctionDecl *Def) {
  if (const auto *CD = dyn_cast<CXXConstructorDecl>(Def))
    for (const CXXCtorInitializer *Init : CD->inits())
      if (Init->isWritten())
        Scan.TraverseStmt(Init->getInit());
  Scan.TraverseStmt(Def->getBody());
  Scan.finish();
}

/// Every function definition in the translation unit (instantiations
/// included), for the calls no kernel reaches.
class AllFunctions : public RecursiveASTVisitor<AllFunctions> {
public:
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->doesThisDeclarationHaveABody() && !isLambdaCallOperator(FD))
      Defs.push_back(FD);
    return true;
  }
  std::vector<const FunctionDecl *> Defs;
};

/// Uses of the globals in the default arguments of the functions written in
/// the translation unit.
class DefaultArgUses : public RecursiveASTVisitor<DefaultArgUses> {
public:
  DefaultArgUses(const llvm::DenseSet<const VarDecl *> &Globals) : Globals(Globals) {}
  bool VisitParmVarDecl(ParmVarDecl *P) {
    if (P->hasUnparsedDefaultArg())
      return true;
    const Expr *Default = P->hasUninstantiatedDefaultArg() ? P->getUninstantiatedDefaultArg()
                          : P->hasDefaultArg()              ? P->getDefaultArg()
                                                            : nullptr;
    if (Default) {
      InDefault = true;
      TraverseStmt(const_cast<Expr *>(Default));
      InDefault = false;
    }
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (InDefault && Globals.count(VD->getCanonicalDecl()))
        Uses.push_back(DRE);
    return true;
  }
  std::vector<const DeclRefExpr *> Uses;

private:
  const llvm::DenseSet<const VarDecl *> &Globals;
  bool InDefault = false;
};

} // namespace

CmThreadGlobals findCmThreadGlobals(ASTContext &Ctx, const ProgramModel &Model) {
  CmThreadGlobals Result;
  std::vector<const DeclContext *> Scopes{Ctx.getTranslationUnitDecl()};
  llvm::DenseSet<const VarDecl *> Globals; // canonical
  while (!Scopes.empty()) {
    const DeclContext *DC = Scopes.back();
    Scopes.pop_back();
    for (const Decl *D : DC->decls()) {
      if (isa<NamespaceDecl>(D) || isa<LinkageSpecDecl>(D)) {
        Scopes.push_back(cast<DeclContext>(D));
        continue;
      }
      const auto *VD = dyn_cast<VarDecl>(D);
      if (!isCmThreadGlobal(VD) || !Globals.insert(VD->getCanonicalDecl()).second)
        continue;
      const VarDecl *Def = VD->getDefinition();
      Result.Vars.push_back(Def ? Def : VD);
    }
  }
  if (Result.Vars.empty())
    return Result;

  // Each reached function's own uses and calls, over all its instantiations.
  struct Info {
    llvm::SmallVector<const VarDecl *, 2> Direct;
    std::vector<Edge> Edges;
  };
  llvm::DenseMap<const FunctionDecl *, Info> Reached;
  std::deque<const FunctionDecl *> Work;
  llvm::DenseSet<const FunctionDecl *> Scanned; // definitions
  auto reach = [&](const FunctionDecl *FD) {
    const FunctionDecl *Def = definitionOf(FD);
    if (Def && Scanned.insert(Def).second)
      Work.push_back(Def);
  };
  for (const Kernel &K : Model.Kernels)
    if (K.Dialect == DialectKind::Cm && K.Body)
      reach(K.Body);
  llvm::DenseSet<const void *> SeenUse;
  while (!Work.empty()) {
    const FunctionDecl *Def = Work.front();
    Work.pop_front();
    BodyScan Scan(Globals);
    scan(Scan, Def);
    Info &I = Reached[writtenFunction(Def)];
    for (const DeclRefExpr *DRE : Scan.Uses) {
      const auto *VD = cast<VarDecl>(DRE->getDecl())->getCanonicalDecl();
      if (!llvm::is_contained(I.Direct, VD))
        I.Direct.push_back(VD);
      if (SeenUse.insert(DRE->getLocation().getPtrEncoding()).second)
        Result.Uses.push_back(DRE);
    }
    // Operators, constructors and mentions are followed too: what they
    // need is a problem to report, and their callers need it as well.
    for (const Edge &E : Scan.Edges) {
      I.Edges.push_back(E);
      reach(E.Actual);
    }
  }

  // Needs: what each function uses, and what its callees need.
  auto inVarOrder = [&](llvm::SmallVectorImpl<const VarDecl *> &Set) {
    llvm::SmallVector<const VarDecl *, 2> Ordered;
    for (const VarDecl *V : Result.Vars)
      if (llvm::is_contained(Set, V->getCanonicalDecl()))
        Ordered.push_back(V->getCanonicalDecl());
    Set = Ordered;
  };
  llvm::DenseMap<const FunctionDecl *, llvm::SmallVector<const VarDecl *, 2>> Needs;
  for (auto &[F, I] : Reached)
    Needs[F] = I.Direct;
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (auto &[F, I] : Reached)
      for (const Edge &E : I.Edges) {
        auto It = Needs.find(E.Callee);
        if (It == Needs.end())
          continue;
        llvm::SmallVector<const VarDecl *, 2> Callee = It->second;
        auto &Mine = Needs[F];
        for (const VarDecl *V : Callee)
          if (!llvm::is_contained(Mine, V)) {
            Mine.push_back(V);
            Changed = true;
          }
      }
  }
  for (auto &[F, N] : Needs)
    if (!N.empty()) {
      inVarOrder(N);
      Result.Needs[F] = N;
    }

  llvm::DenseSet<const void *> SeenSite;
  for (auto &[F, I] : Reached)
    for (const Edge &E : I.Edges) {
      auto It = Result.Needs.find(E.Callee);
      if (It == Result.Needs.end())
        continue;
      if (!SeenSite.insert(E.Site->getExprLoc().getPtrEncoding()).second)
        continue;
      if (E.ByName)
        Result.Calls.push_back({cast<CallExpr>(E.Site), E.Callee});
      else
        Result.Problems.push_back({E.Site->getExprLoc(), E.Callee, It->second.front(), false});
    }

  // Calls from code no kernel reaches cannot pass the kernel's copy.
  AllFunctions All;
  All.TraverseDecl(Ctx.getTranslationUnitDecl());
  for (const FunctionDecl *Def : All.Defs) {
    if (Reached.count(writtenFunction(Def)) || Def->isDependentContext())
      continue;
    BodyScan Scan(Globals);
    scan(Scan, Def);
    for (const Edge &E : Scan.Edges) {
      auto It = Result.Needs.find(E.Callee);
      if (It != Result.Needs.end() &&
          SeenSite.insert(E.Site->getExprLoc().getPtrEncoding()).second)
        Result.Problems.push_back({E.Site->getExprLoc(), E.Callee, It->second.front(), true});
    }
  }
  DefaultArgUses Defaults(Globals);
  Defaults.TraverseDecl(Ctx.getTranslationUnitDecl());
  Result.DefaultArgUses = std::move(Defaults.Uses);
  // In the order of the source (the maps above have none).
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::stable_sort(Result.Problems, [&](const auto &A, const auto &B) {
    return SM.isBeforeInTranslationUnit(A.Loc, B.Loc);
  });
  llvm::stable_sort(Result.DefaultArgUses, [&](const DeclRefExpr *A, const DeclRefExpr *B) {
    return SM.isBeforeInTranslationUnit(A->getLocation(), B->getLocation());
  });
  return Result;
}

} // namespace slmc
