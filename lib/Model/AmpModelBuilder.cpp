//===- AmpModelBuilder.cpp - C++ AMP constructs into the model ------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Reads what slmc/prelude.h and <amp.h> leave in the AST:
//   restrict(...)           annotate("slmc.amp.restrict", "<specifiers>")
//   tile_static             annotate("slmc.amp.tile_static")
//   parallel_for_each       annotate("slmc.entry:amp.parallel_for_each[.tiled]")
//   tile_barrier::wait*     member calls on concurrency::tile_barrier
//
//===----------------------------------------------------------------------===//
#include "Model/ModelBuilder.h"
#include "Model/FunctionScopeVisitor.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;

namespace slmc {
namespace {

constexpr llvm::StringLiteral RestrictTag = "slmc.amp.restrict";
constexpr llvm::StringLiteral TileStaticTag = "slmc.amp.tile_static";
constexpr llvm::StringLiteral TiledLaunchTag = "slmc.entry:amp.parallel_for_each.tiled";
constexpr llvm::StringLiteral LaunchTag = "slmc.entry:amp.parallel_for_each";

/// Whether `D` is declared directly in <amp.h>'s namespace: Concurrency at
/// file scope (concurrency is its alias, as in MSVC). Programs may reopen
/// Concurrency, so a nested namespace of theirs does not count.
bool isInConcurrency(const Decl *D) {
  const auto *NS = dyn_cast<NamespaceDecl>(D->getDeclContext());
  return NS && NS->getParent()->getRedeclContext()->isTranslationUnit() &&
         NS->getName() == "Concurrency";
}

/// The function a kernel functor runs per work-item: a lambda's call
/// operator or the functor's const operator().
const FunctionDecl *kernelBodyOf(QualType T) {
  const CXXRecordDecl *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  if (!RD)
    return nullptr;
  if (RD->isLambda())
    return RD->getLambdaCallOperator();
  for (const CXXMethodDecl *M : RD->methods())
    if (M->getOverloadedOperator() == OO_Call)
      return M;
  return nullptr;
}

/// The restriction written on `FD` (any declaration, or its template
/// pattern's); false when it has none.
bool writtenRestriction(const FunctionDecl *FD, Restriction &R) {
  bool Found = false;
  for (const FunctionDecl *D : FD->redecls())
    for (const auto *A : D->specific_attrs<AnnotateAttr>()) {
      if (A->getAnnotation() != RestrictTag || A->args_size() != 1)
        continue;
      Found = true;
      if (const auto *S =
              dyn_cast<StringLiteral>(A->args_begin()[0]->IgnoreParenImpCasts())) {
        llvm::SmallVector<llvm::StringRef, 2> Parts;
        S->getString().split(Parts, ',', -1, /*KeepEmpty=*/false);
        for (llvm::StringRef P : Parts) {
          R.Device |= P.trim() == "amp";
          R.Host |= P.trim() == "cpu";
        }
      }
    }
  if (!Found)
    if (const FunctionDecl *P = FD->getTemplateInstantiationPattern())
      if (P != FD)
        return writtenRestriction(P, R);
  return Found;
}

/// The contexts code in `Fn` runs in: its restriction; a lambda that names
/// none takes its enclosing function's; anything else is cpu code.
std::pair<bool, bool> contextsOf(const FunctionDecl *Fn) {
  if (!Fn)
    return {true, false};
  Restriction R;
  if (writtenRestriction(Fn, R))
    return {R.Host || !R.Device, R.Device};
  if (const auto *MD = dyn_cast<CXXMethodDecl>(Fn); MD && MD->getParent()->isLambda())
    if (const auto *Outer =
            dyn_cast<FunctionDecl>(MD->getParent()->getDeclContext()))
      return contextsOf(Outer);
  return {true, false};
}

/// The declaration that stands for `FD` in its overload set: a function
/// template's pattern, else the canonical declaration.
const FunctionDecl *overloadKey(const FunctionDecl *FD) {
  if (const FunctionTemplateDecl *T = FD->getPrimaryTemplate())
    return T->getTemplatedDecl()->getCanonicalDecl();
  return FD->getCanonicalDecl();
}

/// C++ AMP v1.2 §2.3.2: functions of one scope, name and signature that
/// differ in their restriction are distinct overloads. slmc/prelude.h makes
/// them distinct to Clang; a call resolves per context of the caller to the
/// overloads restricted to that context.
/// The overloads of `FD` (itself included) that differ only in their
/// restriction: same scope, name, signature and template-ness.
llvm::SmallVector<const FunctionDecl *, 3>
restrictionOverloadsOf(ASTContext &Ctx, const FunctionDecl *FD) {
  const FunctionDecl *Key = overloadKey(FD);
  bool IsTemplate = Key->getDescribedFunctionTemplate() != nullptr;
  llvm::SmallVector<const FunctionDecl *, 3> Set;
  for (const NamedDecl *ND : Key->getDeclContext()->lookup(Key->getDeclName())) {
    const FunctionDecl *Other = nullptr;
    if (const auto *T = dyn_cast<FunctionTemplateDecl>(ND))
      Other = IsTemplate ? T->getTemplatedDecl() : nullptr;
    else if (const auto *F = dyn_cast<FunctionDecl>(ND))
      Other = IsTemplate ? nullptr : F;
    if (!Other || !Ctx.hasSameType(Other->getType(), Key->getType()))
      continue;
    Other = Other->getCanonicalDecl();
    if (!llvm::is_contained(Set, Other))
      Set.push_back(Other);
  }
  return Set;
}

/// C++ AMP v1.2 §2.3.2: functions of one scope, name and signature that
/// differ in their restriction are distinct overloads. slmc/prelude.h makes
/// them distinct to Clang; a call resolves per context of the caller to the
/// overloads restricted to that context.
void resolveRestrictionOverloads(ASTContext &Ctx, const Expr *Site,
                                 const FunctionDecl *Callee,
                                 const FunctionDecl *Caller,
                                 ProgramModel &Model) {
  RestrictionOverloadCall Call;
  Call.Overloads = restrictionOverloadsOf(Ctx, Callee);
  std::tie(Call.CpuContext, Call.AmpContext) = contextsOf(Caller);
  // A lone amp-only function is a one-overload set: cpu code cannot call it
  // (§2.3.2). (Amp code calling cpu code is the checker's call-graph walk.)
  Restriction CalleeR;
  bool AmpOnly = writtenRestriction(Callee, CalleeR) && CalleeR.Device && !CalleeR.Host;
  // Functions of one signature that all have the same restriction are told
  // apart by something else (enable_if, constraints: C for Metal's vector
  // constructors), not by their restriction: Clang's resolution stands.
  auto Key = [](const FunctionDecl *O) {
    Restriction R;
    bool Written = writtenRestriction(O, R);
    return std::make_pair(Written && R.Device, !Written || R.Host || !R.Device);
  };
  bool Differ = llvm::any_of(Call.Overloads, [&](const FunctionDecl *O) {
    return Key(O) != Key(Call.Overloads.front());
  });
  if ((Call.Overloads.size() < 2 || !Differ) && !(AmpOnly && Call.CpuContext))
    return;
  if (!Differ)
    Call.Overloads.assign(1, Callee->getCanonicalDecl());
  Call.Site = Site;
  Call.Caller = Caller;
  const Expr *CalleeExpr = nullptr;
  if (const auto *CE = dyn_cast<CallExpr>(Site); CE && !isa<CXXOperatorCallExpr>(CE))
    CalleeExpr = CE->getCallee()->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(CalleeExpr))
    Call.NameLoc = DRE->getLocation();
  else if (const auto *ME = dyn_cast_or_null<MemberExpr>(CalleeExpr))
    Call.NameLoc = ME->getMemberLoc();
  for (const FunctionDecl *O : Call.Overloads) {
    Restriction R;
    bool Written = writtenRestriction(O, R);
    if (!Written || R.Host || !R.Device)
      Call.ForCpu.push_back(O);
    if (R.Device)
      Call.ForAmp.push_back(O);
  }
  Model.RestrictionOverloads.push_back(std::move(Call));
}

class AmpVisitor : public FunctionScopeVisitor<AmpVisitor> {
public:
  AmpVisitor(ASTContext &Ctx, ProgramModel &Model)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Model(Model) {}

  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (InstantiationsOnly)
      return true;
    for (const auto *A : FD->specific_attrs<AnnotateAttr>()) {
      if (A->getAnnotation() != RestrictTag)
        continue;
      RestrictionSite Site;
      Site.Dialect = DialectKind::Amp;
      Site.Function = FD;
      Site.Spelling = keywordRange(SM, A->getLocation());
      if (A->args_size() == 1)
        if (const auto *S = dyn_cast<StringLiteral>(
                A->args_begin()[0]->IgnoreParenImpCasts())) {
          llvm::SmallVector<llvm::StringRef, 2> Parts;
          S->getString().split(Parts, ',', -1, /*KeepEmpty=*/false);
          for (llvm::StringRef P : Parts) {
            P = P.trim();
            if (P.empty())
              continue;
            Site.Specifiers.push_back(P.str());
            if (P == "amp")
              Site.Parsed.Device = true;
            else if (P == "cpu")
              Site.Parsed.Host = true;
          }
        }
      Restriction &R = Model.Restrictions[FD->getCanonicalDecl()];
      R.Device |= Site.Parsed.Device;
      R.Host |= Site.Parsed.Host;
      Model.RestrictionSites.push_back(std::move(Site));
    }
    noteMisplacedTileStatic(FD);
    return true;
  }

  bool VisitVarDecl(VarDecl *VD) {
    if (InstantiationsOnly)
      return true;
    const AnnotateAttr *A = findAnnotation(VD, TileStaticTag);
    if (!A)
      return true;
    if (isa<ParmVarDecl>(VD) || !VD->isLocalVarDecl()) {
      noteMisplacedTileStatic(VD);
      return true;
    }
    GroupLocalVar G;
    G.Dialect = DialectKind::Amp;
    G.Var = VD;
    G.Function = dyn_cast_or_null<FunctionDecl>(VD->getParentFunctionOrMethod());
    G.Type = VD->getType();
    G.Keyword = keywordRange(SM, A->getLocation());
    G.Init = GroupLocalInit::Undefined;
    QualType T = VD->getType();
    if (!T->isDependentType() && !T->isIncompleteType()) {
      G.SizeInBytes = Ctx.getTypeSizeInChars(T).getQuantity();
      G.Alignment = Ctx.getTypeAlignInChars(T).getQuantity();
    }
    Model.GroupLocals.push_back(G);
    return true;
  }

  bool VisitCXXConstructExpr(CXXConstructExpr *CE) {
    if (InstantiationsOnly)
      return true;
    if (const CXXConstructorDecl *Ctor = CE->getConstructor())
      if (!Ctor->isImplicit())
        noteCall(CE, Ctor);
    return true;
  }

  /// Every direct call and construction in user code, resolved again for
  /// restriction overloads once all restrictions are known (build()).
  struct RawCall {
    const Expr *Site;
    const FunctionDecl *Callee;
    const FunctionDecl *Caller;
  };
  std::vector<RawCall> RawCalls;

  bool VisitFieldDecl(FieldDecl *FD) {
    if (InstantiationsOnly)
      return true;
    noteMisplacedTileStatic(FD);
    return true;
  }

  // The second pass (AmpModelBuilder::build, visitInstantiations): the
  // launches only instantiations have, and their barriers.
  bool VisitCallExpr(CallExpr *CE) {
    const FunctionDecl *Callee = CE->getDirectCallee();
    if (!Callee)
      return true;
    if (InstantiationsOnly) {
      const FunctionDecl *Fn = currentFunction();
      if (!Fn || Fn->isDependentContext() || !inInstantiation(Fn))
        return true;
      for (const Kernel &K : Model.Kernels)
        if (K.Dialect == DialectKind::Amp && K.Launch->getBeginLoc() == CE->getBeginLoc())
          return true; // the template's own launch, or another instantiation's
      // A dependent call in the pattern (`factory<T>::create()`) resolves
      // only here; build() keeps the first instantiation's per site.
      noteCall(CE, Callee);
    } else {
      noteCall(CE, Callee);
    }
    if (auto *MCE = dyn_cast<CXXMemberCallExpr>(CE)) {
      const CXXRecordDecl *RD = MCE->getMethodDecl()->getParent();
      if (RD->getName() == "tile_barrier" && isInConcurrency(RD) &&
          MCE->getMethodDecl()->getName().starts_with("wait"))
        Model.Barriers.push_back({DialectKind::Amp, CE, currentFunction()});
      return true;
    }
    bool Tiled = findAnnotation(Callee, TiledLaunchTag);
    if (!Tiled && !findAnnotation(Callee, LaunchTag))
      return true;
    if (CE->getNumArgs() < 2)
      return true;
    Kernel K;
    K.Dialect = DialectKind::Amp;
    K.Launch = CE;
    K.Functor = CE->getArg(CE->getNumArgs() - 1);
    K.Body = kernelBodyOf(K.Functor->getType());
    K.UsesWorkGroups = Tiled;
    if (!K.Body)
      return true;
    if (const TemplateArgumentList *Args = Callee->getTemplateSpecializationArgs()) {
      if (Tiled && Args->size() >= 3) {
        K.Shape.Static = true;
        for (unsigned I = 0; I < 3; ++I) {
          const TemplateArgument &TA = Args->get(I);
          if (TA.getKind() != TemplateArgument::Integral)
            K.Shape.Static = false;
          else
            K.Shape.Size[I] = uint32_t(TA.getAsIntegral().getZExtValue());
        }
        K.Shape.Rank = K.Shape.Size[2] ? 3 : K.Shape.Size[1] ? 2 : 1;
        for (unsigned I = K.Shape.Rank; I < 3; ++I)
          K.Shape.Size[I] = 1;
        staticDomain(CE->getArg(0), K.Shape);
      }
    }
    Model.Kernels.push_back(K);
    return true;
  }

private:
  /// `extent<N>(c0, ...).tile<...>()` or `e.tile<...>()` with `e` a const
  /// extent built from constants: the domain is known at compile time.
  /// (pad()/truncate() and anything else: decided at run time.)
  void staticDomain(const Expr *Arg, GroupShape &Shape) {
    const Expr *E = Arg->IgnoreImplicit();
    if (const auto *Copy = dyn_cast<CXXConstructExpr>(E);
        Copy && Copy->getNumArgs() == 1)
      E = Copy->getArg(0)->IgnoreImplicit();
    const auto *Tile = dyn_cast<CXXMemberCallExpr>(E);
    if (!Tile || !Tile->getMethodDecl() || Tile->getMethodDecl()->getName() != "tile")
      return;
    const Expr *Obj = Tile->getImplicitObjectArgument()->IgnoreImplicit();
    const CXXConstructExpr *Ctor = nullptr;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Obj)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      if (!VD || !VD->getType().isConstQualified() || !VD->getInit())
        return;
      Ctor = dyn_cast<CXXConstructExpr>(VD->getInit()->IgnoreImplicit());
    } else {
      if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(Obj))
        Obj = Cast->getSubExpr()->IgnoreImplicit(); // extent<1>(n)
      Ctor = dyn_cast<CXXConstructExpr>(Obj);
    }
    if (!Ctor || Ctor->getNumArgs() == 0 || Ctor->getNumArgs() > 3 ||
        Ctor->getNumArgs() != Shape.Rank)
      return;
    std::array<int64_t, 3> D = {1, 1, 1};
    for (unsigned I = 0; I < Ctor->getNumArgs(); ++I) {
      const Expr *A = Ctor->getArg(I);
      if (A->isValueDependent() || !A->getType()->isIntegerType())
        return;
      std::optional<llvm::APSInt> V = A->getIntegerConstantExpr(Ctx);
      if (!V)
        return;
      D[I] = V->getExtValue();
    }
    Shape.Domain = D;
    Shape.DomainExpr = Arg;
  }

  void noteCall(const Expr *Site, const FunctionDecl *Callee) {
    if (SM.isInSystemHeader(SM.getExpansionLoc(Site->getBeginLoc())))
      return;
    RawCalls.push_back({Site, Callee, currentFunction()});
  }

  void noteMisplacedTileStatic(const Decl *D) {
    if (const AnnotateAttr *A = findAnnotation(D, TileStaticTag))
      Model.MisplacedGroupLocals.push_back(
          {DialectKind::Amp, D, keywordRange(SM, A->getLocation())});
  }

  ASTContext &Ctx;
  const SourceManager &SM;
  ProgramModel &Model;
};

class AmpModelBuilder : public ModelBuilder {
public:
  void build(ASTContext &Ctx, ProgramModel &Model) override {
    AmpVisitor V(Ctx, Model);
    V.TraverseDecl(Ctx.getTranslationUnitDecl());
    AmpVisitor Instantiations(Ctx, Model);
    Instantiations.visitInstantiations();
    Instantiations.TraverseDecl(Ctx.getTranslationUnitDecl());
    llvm::DenseSet<SourceLocation> Sites;
    for (const AmpVisitor::RawCall &C : V.RawCalls) {
      Sites.insert(C.Site->getBeginLoc());
      resolveRestrictionOverloads(Ctx, C.Site, C.Callee, C.Caller, Model);
    }
    // Calls only instantiations resolve (dependent in their template), one
    // per site: the pattern's text is rewritten once for all of them.
    for (const AmpVisitor::RawCall &C : Instantiations.RawCalls)
      if (Sites.insert(C.Site->getBeginLoc()).second)
        resolveRestrictionOverloads(Ctx, C.Site, C.Callee, C.Caller, Model);
    llvm::DenseSet<const FunctionDecl *> InASet;
    for (const RestrictionSite &S : Model.RestrictionSites) {
      if (S.Dialect != DialectKind::Amp || !S.Function)
        continue;
      if (InASet.count(overloadKey(S.Function)))
        continue;
      auto Set = restrictionOverloadsOf(Ctx, S.Function);
      if (Set.size() < 2)
        continue;
      InASet.insert(Set.begin(), Set.end());
      Model.RestrictionOverloadSets.push_back(std::move(Set));
    }
  }
};

} // namespace

std::unique_ptr<ModelBuilder> createAmpModelBuilder() {
  return std::make_unique<AmpModelBuilder>();
}

} // namespace slmc
