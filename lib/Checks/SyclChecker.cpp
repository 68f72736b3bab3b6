//===- SyclChecker.cpp - Rules of sycl_ext_oneapi_local_memory ------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// group_local_memory gives one allocation per call site and work-group, made
// by one work-item and published with a barrier. That is only well defined
// where every work-item of the group makes the same call once: directly in
// an nd_range kernel's function, outside loops and outside
// work-item-dependent control flow. DPC++ checks none of this.
//
//===----------------------------------------------------------------------===//
#include "Checks/Checker.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace slmc {
namespace {

/// Work-item identity in SYCL: the local/global ids of an nd_item or item,
/// and anything computed from them. Group ids and ranges are uniform.
Uniformity::Seed classifySycl(const Expr *E) {
  if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *M = MCE->getMethodDecl();
    if (!M || !M->getIdentifier())
      return Uniformity::Seed::None;
    llvm::StringRef Class = M->getParent()->getName();
    llvm::StringRef N = M->getName();
    if (Class == "group") // the group's own queries about the calling item
      return N == "get_local_id" || N == "get_local_linear_id" || N == "leader"
                 ? Uniformity::Seed::Divergent
                 : Uniformity::Seed::Uniform;
    if (Class != "nd_item" && Class != "item" && Class != "h_item")
      return Uniformity::Seed::None;
    if (N == "get_local_id" || N == "get_global_id" || N == "get_id" ||
        N == "get_local_linear_id" || N == "get_global_linear_id" ||
        N == "get_linear_id")
      return Uniformity::Seed::Divergent;
    return Uniformity::Seed::Uniform;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (const CXXRecordDecl *RD =
            DRE->getType().getNonReferenceType()->getAsCXXRecordDecl())
      if (RD->getIdentifier() && RD->getName() == "item")
        return Uniformity::Seed::Divergent; // a plain item converts to its id
  }
  return Uniformity::Seed::None;
}

const Stmt *enclosingLoop(ASTContext &Ctx, const Stmt *S, const Stmt *Body) {
  DynTypedNode N = DynTypedNode::create(*S);
  for (unsigned Guard = 0; Guard < 256; ++Guard) {
    auto Parents = Ctx.getParents(N);
    if (Parents.empty())
      return nullptr;
    N = Parents[0];
    if (N.get<FunctionDecl>() || N.get<CXXRecordDecl>())
      return nullptr; // left the function
    const Stmt *P = N.get<Stmt>();
    if (!P)
      continue; // a declaration inside the function (the call's variable)
    if (P == Body)
      return nullptr;
    if (isa<ForStmt>(P) || isa<WhileStmt>(P) || isa<DoStmt>(P) ||
        isa<CXXForRangeStmt>(P))
      return P;
  }
  return nullptr;
}

class SyclChecker : public Checker {
public:
  void check(ASTContext &Ctx, const ProgramModel &Model, Reporter &R) override {
    for (const GroupLocalVar &G : Model.GroupLocals)
      if (G.Dialect == DialectKind::Sycl)
        checkGroupLocalMemory(Ctx, Model, G, R);
    for (const Kernel &K : Model.Kernels)
      if (K.Dialect == DialectKind::Sycl && K.UsesWorkGroups)
        checkDivergentBarriers(Model, K, R,
                               {DialectKind::Sycl, Diag::warn_sycl_barrier_divergent,
                                Diag::note_slmc_divergent_work_item,
                                classifySycl});
  }

private:
  void checkGroupLocalMemory(ASTContext &Ctx, const ProgramModel &Model,
                             const GroupLocalVar &G, Reporter &R) {
    std::string Callee = "'" + G.Call->getDirectCallee()->getNameAsString() + "'";
    const FunctionDecl *Fn = nullptr;
    if (!G.Function || !G.Function->hasBody(Fn))
      return;
    SourceLocation Loc = G.Call->getBeginLoc();

    // Directly in a kernel's function?
    const Kernel *Own = nullptr;
    for (const Kernel &K : Model.Kernels) {
      const FunctionDecl *Def = nullptr;
      if (K.Dialect == DialectKind::Sycl && K.Body->hasBody(Def) && Def == Fn)
        Own = &K;
    }
    if (!Own) {
      for (const Kernel &K : Model.Kernels) {
        auto Reach = Model.reachableFrom(K.Body);
        if (!Reach.count(Fn))
          continue;
        R.report(Loc, Diag::err_sycl_glm_not_kernel_scope) << Callee;
        notePath(R, Reach, Fn);
        R.report(K.location(), Diag::note_sycl_kernel_launched_here);
        return;
      }
      R.report(Loc, Diag::err_sycl_glm_no_kernel) << Callee;
      return;
    }
    if (!Own->UsesWorkGroups) {
      R.report(Loc, Diag::err_sycl_glm_not_nd_range) << Callee;
      R.report(Own->location(), Diag::note_sycl_kernel_launched_here);
      return;
    }
    if (const Stmt *Loop = enclosingLoop(Ctx, G.Call, Fn->getBody())) {
      R.report(Loc, Diag::err_sycl_glm_in_loop) << Callee;
      R.report(Loop->getBeginLoc(), Diag::note_sycl_loop_here);
      return;
    }
    Uniformity U(Fn, classifySycl);
    if (const Expr *Cond = U.divergentCondition(G.Call)) {
      R.report(Loc, Diag::err_sycl_glm_divergent) << Callee << Cond->getSourceRange();
      const Expr *Why = U.taintedPart(Cond);
      R.report(Why ? Why->getBeginLoc() : Cond->getBeginLoc(),
               Diag::note_slmc_divergent_work_item)
          << Cond->getSourceRange();
      return;
    }
    // Constructor arguments (after the group) should be the same everywhere.
    for (unsigned I = 1; I < G.Call->getNumArgs(); ++I)
      if (const Expr *T = U.taintedPart(G.Call->getArg(I))) {
        R.report(G.Call->getArg(I)->getBeginLoc(), Diag::warn_sycl_glm_arg_divergent)
            << Callee << G.Call->getArg(I)->getSourceRange();
        R.report(T->getBeginLoc(), Diag::note_slmc_value_depends_on_work_item);
      }
  }
};

} // namespace

std::unique_ptr<Checker> createSyclChecker() {
  return std::make_unique<SyclChecker>();
}

} // namespace slmc
