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
#include "Model/ModelBuilder.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseSet.h"

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

/// `it.get_local_id(d)` of an nd_item or group (a constant d), or its
/// get_local_linear_id().
std::optional<unsigned> syclLocalId(const Expr *E) {
  const auto *MCE = dyn_cast<CXXMemberCallExpr>(E->IgnoreParenImpCasts());
  const CXXMethodDecl *M = MCE ? MCE->getMethodDecl() : nullptr;
  if (!M || !M->getIdentifier() || !M->getParent()->getIdentifier())
    return std::nullopt;
  llvm::StringRef Class = M->getParent()->getName();
  if (Class != "nd_item" && Class != "group")
    return std::nullopt;
  if (M->getName() == "get_local_linear_id" && MCE->getNumArgs() == 0)
    return RaceRule::LinearLastFastest;
  if (M->getName() != "get_local_id" || MCE->getNumArgs() != 1)
    return std::nullopt;
  const Expr *Dim = MCE->getArg(0);
  if (Dim->isValueDependent())
    return std::nullopt;
  std::optional<llvm::APSInt> K =
      Dim->getIntegerConstantExpr(M->getASTContext());
  if (!K || K->isNegative() || K->getExtValue() > 2)
    return std::nullopt;
  return unsigned(K->getExtValue());
}

/// The barrier a fix-it inserts: the kernel's own `it.barrier(...)` when it
/// uses one on its nd_item parameter `it`, else
/// `sycl::group_barrier(it.get_group());`; none without an nd_item
/// parameter.
std::string syclBarrier(ASTContext &Ctx, const ProgramModel &Model,
                        const Kernel &K) {
  const ParmVarDecl *Item = nullptr;
  for (const ParmVarDecl *P : K.Body->parameters())
    if (const CXXRecordDecl *RD =
            P->getType().getNonReferenceType()->getAsCXXRecordDecl())
      if (RD->getIdentifier() && RD->getName() == "nd_item" &&
          P->getIdentifier())
        Item = P;
  if (!Item)
    return "";
  const SourceManager &SM = Ctx.getSourceManager();
  for (const BarrierSite &B : Model.Barriers) {
    const auto *MCE = dyn_cast<CXXMemberCallExpr>(B.Call);
    if (B.Dialect != DialectKind::Sycl || B.Waiter || !MCE)
      continue;
    const auto *Object =
        dyn_cast<DeclRefExpr>(MCE->getImplicitObjectArgument()->IgnoreParenImpCasts());
    if (!Object || Object->getDecl() != Item)
      continue;
    CharSourceRange Range = Lexer::makeFileCharRange(
        CharSourceRange::getTokenRange(MCE->getSourceRange()), SM,
        Ctx.getLangOpts());
    if (Range.isValid())
      return (Lexer::getSourceText(Range, SM, Ctx.getLangOpts()) + ";").str();
  }
  return "sycl::group_barrier(" + Item->getName().str() + ".get_group());";
}

class SyclChecker : public Checker {
public:
  void check(ASTContext &Ctx, const ProgramModel &Model, Reporter &R) override {
    for (const GroupLocalVar &G : Model.GroupLocals)
      if (G.Dialect == DialectKind::Sycl)
        checkGroupLocalMemory(Ctx, Model, G, R);
    for (const KernelAttributeUse &U : Model.KernelAttributes)
      checkKernelAttribute(Ctx, U, R);
    for (const Kernel &K : Model.Kernels)
      if (K.Dialect == DialectKind::Sycl)
        checkRequiredShapeRank(Model, K, R);
    for (const Kernel &K : Model.Kernels)
      if (K.Dialect == DialectKind::Sycl && K.UsesWorkGroups) {
        checkDivergentBarriers(Model, K, R,
                               {DialectKind::Sycl, Diag::warn_sycl_barrier_divergent,
                                Diag::note_slmc_divergent_work_item,
                                classifySycl});
        checkGroupLocalRaces(Ctx, Model, K, R,
                             {DialectKind::Sycl, syclLocalId,
                              syclBarrier(Ctx, Model, K)});
      }
  }

private:
  /// reqd_sub_group_size takes one positive size, reqd_work_group_size and
  /// work_group_size_hint one to three positive dimensions; the lowering
  /// repeats each argument's text before the lambda (or its value, when it
  /// has one).
  void checkKernelAttribute(ASTContext &Ctx, const KernelAttributeUse &U, Reporter &R) {
    StringRef Name = kernelAttributeName(U.Kind);
    const bool Dimensions = U.Kind != KernelAttributeKind::RequiredSubGroupSize;
    if (U.Args.empty() || U.Args.size() > (Dimensions ? 3u : 1u)) {
      R.report(U.Attr.getBegin(), Diag::err_sycl_kernel_attribute_arity)
          << Name << Dimensions << unsigned(U.Args.size());
      return;
    }
    for (const Expr *E : U.Args) {
      if (!E->isValueDependent()) {
        if (std::optional<llvm::APSInt> V = E->getIntegerConstantExpr(Ctx)) {
          if (!V->isStrictlyPositive())
            R.report(E->getBeginLoc(), Diag::err_sycl_kernel_attribute_not_positive)
                << Name << Dimensions << toString(*V, 10);
        } else {
          R.report(E->getBeginLoc(), Diag::err_sycl_kernel_attribute_not_positive)
              << Name << Dimensions << Lexer::getSourceText(
                     CharSourceRange::getTokenRange(E->getSourceRange()),
                     Ctx.getSourceManager(), Ctx.getLangOpts());
        }
        continue;
      }
      if (Lexer::makeFileCharRange(CharSourceRange::getTokenRange(E->getSourceRange()),
                                   Ctx.getSourceManager(), Ctx.getLangOpts())
              .isInvalid())
        R.report(E->getBeginLoc(), Diag::err_sycl_kernel_attribute_in_macro) << Name;
    }
  }

  /// reqd_work_group_size has as many dimensions as the range the kernel
  /// is launched over (SYCL 2020 5.8.1).
  void checkRequiredShapeRank(const ProgramModel &Model, const Kernel &K, Reporter &R) {
    const auto *Call = dyn_cast_or_null<CallExpr>(K.Launch);
    if (!Call || Call->getNumArgs() == 0 || !K.Body)
      return;
    unsigned Rank = 1; // parallel_for(size_t, ...)
    if (const auto *Range = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
            Call->getArg(0)->getType().getNonReferenceType()->getAsCXXRecordDecl());
        Range && Range->getTemplateArgs().size() >= 1 &&
        Range->getTemplateArgs()[0].getKind() == TemplateArgument::Integral)
      Rank = unsigned(Range->getTemplateArgs()[0].getAsIntegral().getZExtValue());
    for (const KernelAttributeUse &U : Model.KernelAttributes) {
      if (U.Kind != KernelAttributeKind::RequiredWorkGroupSize || U.Args.empty() ||
          U.Args.size() > 3 || U.Args.size() == Rank || !hasAttributeAt(K.Body, U.Attr.getBegin()))
        continue;
      R.report(U.Attr.getBegin(), Diag::err_sycl_work_group_size_rank)
          << unsigned(U.Args.size()) << Rank;
      R.report(K.Launch->getBeginLoc(), Diag::note_sycl_kernel_launched_here);
    }
  }

  /// Whether the call operator `Body` carries the annotation written at `Loc`
  /// (on any of its declarations, or on its type).
  static bool hasAttributeAt(const FunctionDecl *Body, SourceLocation Loc) {
    for (const FunctionDecl *D : Body->redecls())
      for (const auto *A : D->specific_attrs<AnnotateAttr>())
        if (A->getRange().getBegin() == Loc)
          return true;
    for (QualType T = Body->getType(); !T.isNull();) {
      const auto *AT = T->getAs<AttributedType>();
      if (!AT)
        break;
      if (AT->getAttr() && AT->getAttr()->getRange().getBegin() == Loc)
        return true;
      T = AT->getModifiedType();
    }
    return false;
  }

  void checkGroupLocalMemory(ASTContext &Ctx, const ProgramModel &Model,
                             const GroupLocalVar &G, Reporter &R) {
    std::string Callee = "'" + G.Call->getDirectCallee()->getNameAsString() + "'";
    const FunctionDecl *Fn = nullptr;
    if (!G.Function || !G.Function->hasBody(Fn))
      return;
    // A call in a loop makes its allocation once: every iteration gets the
    // same object, as DPC++'s one variable per call path.
    SourceLocation Loc = G.Call->getBeginLoc();

    // Every kernel that reaches the call, with each call path to it. A call
    // in a helper no kernel of this translation unit reaches is checked
    // where a kernel uses it.
    bool Reached = false, NotedHelper = false;
    for (const Kernel &K : Model.Kernels) {
      if (K.Dialect != DialectKind::Sycl)
        continue;
      std::vector<CallPath> Paths = Model.callPaths(K.Body, Fn);
      if (Paths.empty())
        continue;
      Reached = true;
      if (!K.UsesWorkGroups) {
        R.report(Loc, Diag::err_sycl_glm_not_nd_range) << Callee;
        notePath(R, Paths.front());
        R.report(K.location(), Diag::note_sycl_kernel_launched_here);
        return;
      }
      if (!Paths.front().empty() && Model.isRecursive(Fn)) {
        R.report(Loc, Diag::err_sycl_glm_recursive) << Callee << Fn;
        notePath(R, Paths.front());
        R.report(K.location(), Diag::note_sycl_kernel_launched_here);
        return;
      }
      bool Warned = false;
      for (const CallPath &Path : Paths)
        if (!checkCallPath(Ctx, K, Path, G, Callee, Warned, R))
          return;
      if (!Paths.front().empty() && !NotedHelper &&
          HelperNoted.insert(Loc.getRawEncoding()).second) {
        // Once per call as written (a template's instantiations share it):
        // the extension itself promises only kernel scope.
        NotedHelper = true;
        R.report(Loc, Diag::ext_sycl_glm_in_helper) << Callee;
        notePath(R, Paths.front());
      }
    }
    if (!Reached) {
      bool InKernel = false;
      for (const Kernel &K : Model.Kernels) {
        const FunctionDecl *Def = nullptr;
        InKernel |= K.Body && K.Body->hasBody(Def) && Def == Fn;
      }
      if (InKernel || isa<CXXMethodDecl>(Fn) && cast<CXXMethodDecl>(Fn)->getParent()->isLambda())
        R.report(Loc, Diag::err_sycl_glm_no_kernel) << Callee;
      return;
    }
  }

private:
  llvm::DenseSet<unsigned> HelperNoted; // calls given the pedantic warning

  /// Checks one path from kernel `K` to the call `G`: each call on it, and
  /// `G` itself, is made by every work-item of the group together (outside
  /// loops, outside work-item-dependent control flow), so each path has one
  /// allocation per work-group, as DPC++ gives after inlining. Parameters
  /// that receive work-item-dependent arguments on the path count as
  /// work-item-dependent in the callee.
  bool checkCallPath(ASTContext &Ctx, const Kernel &K, const CallPath &Path,
                     const GroupLocalVar &G, const std::string &Callee, bool &Warned,
                     Reporter &R) {
    llvm::DenseSet<const ParmVarDecl *> Divergent;
    auto ClassifyIn = [&Divergent](const Expr *E) {
      if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
        if (const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl()))
          if (Divergent.count(P))
            return Uniformity::Seed::Divergent;
      return classifySycl(E);
    };
    const FunctionDecl *Fn = K.Body;
    for (size_t I = 0; I <= Path.size(); ++I) {
      Uniformity U(Fn, ClassifyIn);
      const Stmt *Site = I < Path.size() ? static_cast<const Stmt *>(Path[I].Site)
                                         : static_cast<const Stmt *>(G.Call);
      bool Last = I == Path.size();
      if (const Expr *Cond = U.divergentCondition(Site)) {
        R.report(G.Call->getBeginLoc(),
                 Last ? Diag::err_sycl_glm_divergent : Diag::err_sycl_glm_path_divergent)
            << Callee << Cond->getSourceRange();
        const Expr *Why = U.blame(Cond);
        R.report(Why->getBeginLoc(), Diag::note_slmc_divergent_work_item)
            << Why->getSourceRange();
        notePath(R, Path);
        if (!Path.empty())
          R.report(K.location(), Diag::note_sycl_kernel_launched_here);
        return false;
      }
      if (Last) {
        // Constructor arguments (after the group) should be the same
        // everywhere.
        for (unsigned A = 1; A < G.Call->getNumArgs() && !Warned; ++A)
          if (const Expr *T = U.taintedPart(G.Call->getArg(A))) {
            Warned = true;
            R.report(G.Call->getArg(A)->getBeginLoc(), Diag::warn_sycl_glm_arg_divergent)
                << Callee << G.Call->getArg(A)->getSourceRange();
            R.report(T->getBeginLoc(), Diag::note_slmc_value_depends_on_work_item)
                << T->getSourceRange();
            notePath(R, Path);
          }
        return true;
      }
      // Which of the callee's parameters receive work-item-dependent values.
      const PathStep &Step = Path[I];
      llvm::DenseSet<const ParmVarDecl *> Next;
      llvm::ArrayRef<const Expr *> Args;
      llvm::SmallVector<const Expr *, 8> ArgList;
      if (const auto *CE = dyn_cast<CallExpr>(Step.Site)) {
        // A member operator called as `a(b)` passes the object first.
        unsigned Skip = isa<CXXOperatorCallExpr>(CE) && isa<CXXMethodDecl>(Step.Callee) &&
                                !cast<CXXMethodDecl>(Step.Callee)->isStatic()
                            ? 1
                            : 0;
        for (unsigned A = Skip; A < CE->getNumArgs(); ++A)
          ArgList.push_back(CE->getArg(A));
      } else if (const auto *CE = dyn_cast<CXXConstructExpr>(Step.Site)) {
        for (const Expr *A : CE->arguments())
          ArgList.push_back(A);
      }
      Args = ArgList;
      for (unsigned A = 0; A < Args.size() && A < Step.Callee->getNumParams(); ++A)
        if (U.taintedPart(Args[A]))
          Next.insert(Step.Callee->getParamDecl(A));
      Divergent = std::move(Next);
      Fn = Step.Callee;
    }
    return true;
  }
};

/// group_local_memory<T>: the group's T lives until the work-group ends and
/// is never destroyed, so T must be trivially destructible. The header
/// states the rule as a static_assert only where this check does not run
/// (plain clang++ without the plugin): there it can only point inside the
/// header, with the user's call in the instantiation notes.
class GroupLocalMemoryTypes : public RecursiveASTVisitor<GroupLocalMemoryTypes> {
public:
  GroupLocalMemoryTypes(ASTContext &Ctx, Reporter &R) : Ctx(Ctx), R(R) {}
  bool shouldVisitTemplateInstantiations() const { return true; }

  /// Only the user's calls: the libraries' instantiations are most of the
  /// walk.
  bool TraverseDecl(Decl *D) {
    if (D && !isa<TranslationUnitDecl>(D) &&
        Ctx.getSourceManager().isInSystemHeader(D->getLocation()))
      return true;
    return RecursiveASTVisitor<GroupLocalMemoryTypes>::TraverseDecl(D);
  }

  bool VisitCallExpr(CallExpr *CE) {
    const FunctionDecl *Callee = CE->getDirectCallee();
    if (!Callee || !(findAnnotation(Callee, "slmc.entry:sycl.group_local_memory") ||
                     findAnnotation(Callee, "slmc.entry:sycl.group_local_memory_for_overwrite")))
      return true;
    const TemplateArgumentList *Args = Callee->getTemplateSpecializationArgs();
    if (!Args || Args->size() < 1 || Args->get(0).getKind() != TemplateArgument::Type)
      return true;
    QualType T = Args->get(0).getAsType();
    // References, void and functions are the header's other rule.
    if (T->isDependentType() || T->isReferenceType() || T->isVoidType() ||
        T->isFunctionType() || T->isIncompleteType() ||
        T.isDestructedType() != QualType::DK_cxx_destructor)
      return true;
    // Once per call as written and type (a template's instantiations share
    // the call).
    if (!Reported.insert({CE->getBeginLoc().getRawEncoding(), T.getCanonicalType().getAsOpaquePtr()})
             .second)
      return true;
    const FunctionDecl *Written = Callee->getPrimaryTemplate()
                                      ? Callee->getPrimaryTemplate()->getTemplatedDecl()
                                      : Callee;
    R.report(CE->getBeginLoc(), Diag::err_sycl_glm_not_trivially_destructible)
        << Written << T << CE->getCallee()->getSourceRange();
    if (const CXXRecordDecl *RD = Ctx.getBaseElementType(T)->getAsCXXRecordDecl())
      noteWhy(RD);
    return true;
  }

private:
  /// The first reason the destructor of `RD` is non-trivial, in the user's
  /// terms: a destructor written by the user, a member or a base.
  void noteWhy(const CXXRecordDecl *RD) {
    if (const CXXDestructorDecl *D = RD->getDestructor(); D && D->isUserProvided()) {
      R.report(D->getLocation(), Diag::note_sycl_nontrivial_destructor) << 0u << D << QualType();
      return;
    }
    for (const FieldDecl *F : RD->fields())
      if (F->getType().isDestructedType() == QualType::DK_cxx_destructor) {
        R.report(F->getLocation(), Diag::note_sycl_nontrivial_destructor)
            << 1u << F << F->getType();
        return;
      }
    for (const CXXBaseSpecifier &B : RD->bases())
      if (B.getType().isDestructedType() == QualType::DK_cxx_destructor) {
        R.report(B.getBeginLoc(), Diag::note_sycl_nontrivial_destructor)
            << 2u << RD << B.getType();
        return;
      }
  }

  ASTContext &Ctx;
  Reporter &R;
  llvm::DenseSet<std::pair<unsigned, const void *>> Reported;
};

} // namespace

std::unique_ptr<Checker> createSyclChecker() {
  return std::make_unique<SyclChecker>();
}

void checkSyclGroupLocalMemoryTypes(ASTContext &Ctx, Reporter &R) {
  // A walk of every instantiation is not free: only where the header is in.
  if (Ctx.Idents.find("group_local_memory") == Ctx.Idents.end())
    return;
  GroupLocalMemoryTypes(Ctx, R).TraverseDecl(Ctx.getTranslationUnitDecl());
}

} // namespace slmc
