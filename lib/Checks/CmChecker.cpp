//===- CmChecker.cpp - C for Metal shared local memory rules --------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The rules Intel's cmc enforces for SLM, and a few it leaves to run time:
// cm_slm_init once, in the kernel, with a positive constant size; no SLM use
// before it; cm_slm_load in whole 256-byte blocks; SLM reads and writes of 8,
// 16 or 32 elements; OWord block accesses at 16-byte aligned offsets.
//
//===----------------------------------------------------------------------===//
#include "Checks/Checker.h"
#include "Model/CmThreadGlobals.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/TemplateBase.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace slmc {
namespace {

bool isLibrary(const FunctionDecl *FD) {
  return FD->getASTContext().getSourceManager().isInSystemHeader(
      FD->getLocation());
}

llvm::StringRef nameOf(const FunctionDecl *FD) {
  return FD && FD->getIdentifier() && isLibrary(FD) ? FD->getName() : "";
}

bool usesSlm(llvm::StringRef N) {
  return N.starts_with("cm_slm_") && N != "cm_slm_init" && N != "cm_slm_fence";
}

std::optional<int64_t> constantValue(ASTContext &Ctx, const Expr *E) {
  if (E->isValueDependent())
    return std::nullopt;
  if (std::optional<llvm::APSInt> V = E->IgnoreImpCasts()->getIntegerConstantExpr(Ctx))
    return V->getExtValue();
  return std::nullopt;
}

/// The element count of a CM vector<T, N> / vector_ref<T, N> argument.
std::optional<uint64_t> vectorWidth(QualType T) {
  const auto *RT = T.getNonReferenceType()->getAs<RecordType>();
  if (!RT)
    return std::nullopt;
  const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RT->getDecl());
  if (!Spec || !Spec->getIdentifier() ||
      (Spec->getName() != "vector" && Spec->getName() != "vector_ref"))
    return std::nullopt;
  const TemplateArgumentList &Args = Spec->getTemplateArgs();
  if (Args.size() < 2 || Args[1].getKind() != TemplateArgument::Integral)
    return std::nullopt;
  return Args[1].getAsIntegral().getZExtValue();
}

Uniformity::Seed classifyCm(const Expr *E) {
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    llvm::StringRef N = nameOf(CE->getDirectCallee());
    if (N == "cm_local_id" || N == "cm_linear_local_id" ||
        N == "cm_linear_global_id" || N == "get_thread_origin_x" ||
        N == "get_thread_origin_y")
      return Uniformity::Seed::Divergent;
    if (N == "cm_group_id" || N == "cm_local_size" || N == "cm_group_count" ||
        N == "cm_linear_group_id")
      return Uniformity::Seed::Uniform;
  }
  return Uniformity::Seed::None;
}

/// cm_local_id(k) with a constant k, cm_linear_local_id().
std::optional<unsigned> cmLocalId(const Expr *E) {
  const auto *CE = dyn_cast<CallExpr>(E);
  llvm::StringRef N = CE ? nameOf(CE->getDirectCallee()) : "";
  if (N == "cm_linear_local_id" && CE->getNumArgs() == 0)
    return RaceRule::LinearFirstFastest;
  if (N != "cm_local_id" || CE->getNumArgs() != 1)
    return std::nullopt;
  if (auto K = constantValue(CE->getDirectCallee()->getASTContext(), CE->getArg(0));
      K && *K >= 0 && *K < 3)
    return unsigned(*K);
  return std::nullopt;
}

class CallsIn : public RecursiveASTVisitor<CallsIn> {
public:
  std::vector<const CallExpr *> Calls;
  bool VisitCallExpr(CallExpr *CE) {
    Calls.push_back(CE);
    return true;
  }
};

class CmChecker : public Checker {
public:
  void check(ASTContext &Ctx, const ProgramModel &Model, Reporter &R) override {
    checkGlobals(Ctx, Model, R);
    checkInits(Ctx, Model, R);
    for (const Kernel &K : Model.Kernels)
      if (K.Dialect == DialectKind::Cm) {
        checkUses(Ctx, Model, K, R);
        checkDivergentBarriers(Model, K, R,
                               {DialectKind::Cm, Diag::warn_cm_barrier_divergent,
                                Diag::note_slmc_divergent_work_item, classifyCm});
        RaceRule Races{DialectKind::Cm, cmLocalId, "cm_barrier();"};
        Races.AnyGroupOfTwo = true;
        checkGroupLocalRaces(Ctx, Model, K, R, Races);
      }
  }

private:
  /// `_GENX_` file-scope variables are per-thread globals: lowering
  /// passes each function that needs one the thread's copy (see
  /// Model/CmThreadGlobals.h), which takes a call by name from a kernel.
  void checkGlobals(ASTContext &Ctx, const ProgramModel &Model, Reporter &R) {
    CmThreadGlobals Globals = findCmThreadGlobals(Ctx, Model);
    // Both kinds in the order of the source.
    const SourceManager &SM = Ctx.getSourceManager();
    auto Uses = Globals.DefaultArgUses.begin(), UsesEnd = Globals.DefaultArgUses.end();
    auto reportUsesBefore = [&](SourceLocation Loc) {
      for (; Uses != UsesEnd && (Loc.isInvalid() ||
                                 SM.isBeforeInTranslationUnit((*Uses)->getLocation(), Loc));
           ++Uses)
        R.report((*Uses)->getLocation(), Diag::err_cm_thread_global_default_argument)
            << (*Uses)->getDecl();
    };
    for (const CmThreadGlobals::Problem &P : Globals.Problems) {
      reportUsesBefore(P.Loc);
      R.report(P.Loc, P.Unreached ? Diag::err_cm_thread_global_unreached
                                  : Diag::err_cm_thread_global_not_by_name)
          << P.Callee << P.Var;
    }
    reportUsesBefore(SourceLocation());
  }

  const FunctionDecl *definition(const FunctionDecl *FD) {
    const FunctionDecl *Def = nullptr;
    return FD && FD->hasBody(Def) ? Def : nullptr;
  }

  void checkInits(ASTContext &Ctx, const ProgramModel &Model, Reporter &R) {
    llvm::DenseMap<const FunctionDecl *, const CallExpr *> First;
    for (const GroupLocalVar &G : Model.GroupLocals) {
      if (G.Dialect != DialectKind::Cm)
        continue;
      SourceLocation Loc = G.Call->getBeginLoc();
      const FunctionDecl *Fn = definition(G.Function);
      bool InKernel = false;
      for (const Kernel &K : Model.Kernels)
        InKernel |= K.Dialect == DialectKind::Cm && definition(K.Body) == Fn;
      if (!InKernel)
        R.report(Loc, Diag::err_cm_slm_init_not_kernel);
      const Expr *Size = G.Call->getArg(0);
      if (std::optional<int64_t> V = constantValue(Ctx, Size)) {
        if (*V <= 0)
          R.report(Size->getBeginLoc(), Diag::err_cm_slm_init_not_positive)
              << std::to_string(*V) << Size->getSourceRange();
      } else if (!Size->isValueDependent()) {
        R.report(Size->getBeginLoc(), Diag::err_cm_slm_init_not_constant)
            << Size->getSourceRange();
      }
      if (!InKernel)
        continue;
      auto [It, New] = First.insert({Fn, G.Call});
      if (!New) {
        R.report(Loc, Diag::err_cm_slm_init_twice);
        R.report(It->second->getBeginLoc(), Diag::note_cm_slm_init_here);
      }
    }
  }

  void checkUses(ASTContext &Ctx, const ProgramModel &Model, const Kernel &K,
                 Reporter &R) {
    const FunctionDecl *Body = definition(K.Body);
    if (!Body)
      return;
    const CallExpr *Init = nullptr;
    for (const GroupLocalVar &G : Model.GroupLocals)
      if (G.Dialect == DialectKind::Cm && definition(G.Function) == Body)
        Init = Init ? Init : G.Call;
    const SourceManager &SM = Ctx.getSourceManager();
    auto Reach = Model.reachableFrom(K.Body);
    for (auto &[Fn, Edge] : Reach) {
      if (isLibrary(Fn))
        continue;
      CallsIn V;
      V.TraverseStmt(Fn->getBody());
      for (const CallExpr *CE : V.Calls) {
        const FunctionDecl *Callee = CE->getDirectCallee();
        llvm::StringRef N = nameOf(Callee);
        if (N.empty())
          continue;
        if (usesSlm(N) && Checked.insert({CE, Body}).second) {
          bool Before = Init && Fn == Body &&
                        SM.isBeforeInTranslationUnit(CE->getBeginLoc(),
                                                     Init->getBeginLoc());
          if (!Init || Before) {
            R.report(CE->getBeginLoc(), Diag::err_cm_slm_before_init)
                << ("'" + N.str() + "'") << (Init ? 0 : 1);
            if (Fn != Body)
              notePath(R, Reach, Fn);
            R.report(K.Body->getLocation(), Diag::note_cm_kernel_here) << K.Body;
          }
        }
        if (!Seen.insert(CE).second)
          continue;
        checkCall(Ctx, CE, N, Callee, R);
      }
    }
  }

  void checkCall(ASTContext &Ctx, const CallExpr *CE, llvm::StringRef N,
                 const FunctionDecl *Callee, Reporter &R) {
    if (N == "cm_slm_load" && CE->getNumArgs() >= 4) {
      const Expr *Size = CE->getArg(3);
      if (std::optional<int64_t> V = constantValue(Ctx, Size); V && *V % 256)
        R.report(Size->getBeginLoc(), Diag::err_cm_slm_load_size)
            << std::to_string(*V) << Size->getSourceRange();
      return;
    }
    if ((N == "cm_slm_read" || N == "cm_slm_write") && CE->getNumArgs() >= 2) {
      const Expr *Data = CE->getArg(CE->getNumArgs() - 1);
      if (std::optional<uint64_t> W = vectorWidth(Data->getType()))
        if (*W != 8 && *W != 16 && *W != 32)
          R.report(CE->getBeginLoc(), Diag::err_cm_slm_width)
              << ("'" + N.str() + "'") << std::to_string(*W)
              << Data->getSourceRange();
      return;
    }
    if ((N == "read" || N == "write") && CE->getNumArgs() == 3) {
      // OWord block access: read/write(surface, byte offset, vector or
      // matrix); a scalar third argument is a scattered single-element
      // access. Surfaces marked DWALIGNED(s) only need dword alignment:
      // their type is not SurfaceIndex itself.
      const CXXRecordDecl *Surface =
          CE->getArg(0)->getType().getNonReferenceType()->getAsCXXRecordDecl();
      if (!Surface || !Surface->getIdentifier() ||
          Surface->getName() != "SurfaceIndex")
        return;
      QualType Data = CE->getArg(2)->getType().getNonReferenceType();
      if (!Data->isRecordType())
        return;
      const Expr *Offset = CE->getArg(1);
      if (!Offset->getType()->isIntegerType())
        return;
      if (std::optional<int64_t> V = constantValue(Ctx, Offset); V && *V % 16)
        R.report(Offset->getBeginLoc(), Diag::err_cm_oword_alignment)
            << (N == "write" ? 1 : 0) << std::to_string(*V)
            << Offset->getSourceRange();
    }
  }

  llvm::DenseSet<std::pair<const CallExpr *, const FunctionDecl *>> Checked;
  llvm::DenseSet<const CallExpr *> Seen;
};

} // namespace

std::unique_ptr<Checker> createCmChecker() {
  return std::make_unique<CmChecker>();
}

} // namespace slmc
