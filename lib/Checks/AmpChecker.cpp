//===- AmpChecker.cpp - The C++ AMP rules for tile_static and restrict ----===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The rules of the C++ AMP specification (and MSVC's diagnostics) for
// restriction specifiers and tile_static variables; docs/diagnostics.md maps
// each to MSVC's error number.
//
//===----------------------------------------------------------------------===//
#include "Checks/Checker.h"
#include "Checks/Uniformity.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang;

namespace slmc {
namespace {

enum TypeProblem {
  TP_Pointer,
  TP_Reference,
  TP_Nullptr,
  TP_View,
  TP_HoldsPointer,
  TP_None
};

/// The statements and expressions the specification forbids in amp code
/// (§2.4.3.5 local declarations, §2.4.3.7 miscellaneous restrictions),
/// in one function body; lambdas in it are functions of their own.
class ForbiddenInAmp : public RecursiveASTVisitor<ForbiddenInAmp> {
public:
  enum Kind { Goto, Asm, Throw, Try, Typeid, DynamicCast, StaticLocal };
  llvm::SmallVector<std::pair<Kind, SourceRange>, 2> Found;

  bool shouldVisitLambdaBody() const { return false; }

  bool VisitGotoStmt(GotoStmt *S) { return add(Goto, S->getSourceRange()); }
  bool VisitIndirectGotoStmt(IndirectGotoStmt *S) {
    return add(Goto, S->getSourceRange());
  }
  bool VisitAsmStmt(AsmStmt *S) { return add(Asm, S->getSourceRange()); }
  bool VisitCXXThrowExpr(CXXThrowExpr *E) { return add(Throw, E->getSourceRange()); }
  bool VisitCXXTryStmt(CXXTryStmt *S) {
    return add(Try, SourceRange(S->getTryLoc(), S->getTryBlock()->getLBracLoc()));
  }
  bool VisitCXXTypeidExpr(CXXTypeidExpr *E) { return add(Typeid, E->getSourceRange()); }
  bool VisitCXXDynamicCastExpr(CXXDynamicCastExpr *E) {
    return add(DynamicCast, E->getSourceRange());
  }
  bool VisitVarDecl(VarDecl *VD) {
    if (VD->isStaticLocal())
      add(StaticLocal, VD->getLocation());
    return true;
  }

private:
  bool add(Kind K, SourceRange R) {
    Found.push_back({K, R});
    return true;
  }
};

bool isAmpViewType(const CXXRecordDecl *RD) {
  if (!RD || !RD->getIdentifier())
    return false;
  llvm::StringRef N = RD->getName();
  if (N != "array_view" && N != "texture_view" && N != "texture" &&
      N != "writeonly_texture_view")
    return false;
  // Concurrency::array_view and Concurrency::graphics::texture*, with
  // Concurrency at file scope (concurrency is its alias; programs may reopen
  // it, so their own nested namespaces do not count).
  auto IsConcurrency = [](const DeclContext *DC) {
    const auto *NS = dyn_cast<NamespaceDecl>(DC);
    return NS && NS->getParent()->getRedeclContext()->isTranslationUnit() &&
           NS->getName() == "Concurrency";
  };
  const DeclContext *DC = RD->getDeclContext();
  if (IsConcurrency(DC))
    return N == "array_view";
  const auto *NS = dyn_cast<NamespaceDecl>(DC);
  return NS && NS->getName() == "graphics" && IsConcurrency(NS->getParent()) &&
         N != "array_view";
}

bool holdsPointer(const CXXRecordDecl *RD, unsigned Depth = 0) {
  if (!RD || !RD->hasDefinition() || Depth > 16)
    return false;
  RD = RD->getDefinition();
  for (const FieldDecl *F : RD->fields()) {
    QualType T = F->getType();
    while (const ArrayType *AT = T->getAsArrayTypeUnsafe())
      T = AT->getElementType();
    if (T->isPointerType() || T->isReferenceType() || T->isMemberPointerType())
      return true;
    if (holdsPointer(T->getAsCXXRecordDecl(), Depth + 1))
      return true;
  }
  for (const CXXBaseSpecifier &B : RD->bases())
    if (holdsPointer(B.getType()->getAsCXXRecordDecl(), Depth + 1))
      return true;
  return false;
}

TypeProblem typeProblem(QualType T) {
  if (T->isReferenceType())
    return TP_Reference;
  while (const ArrayType *AT = T->getAsArrayTypeUnsafe())
    T = AT->getElementType();
  if (T->isNullPtrType())
    return TP_Nullptr;
  if (T->isPointerType() || T->isMemberPointerType())
    return TP_Pointer;
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  if (isAmpViewType(RD))
    return TP_View;
  if (holdsPointer(RD))
    return TP_HoldsPointer;
  return TP_None;
}

/// Whether the declaration has an initializer the user wrote (a class
/// object default-constructed without one has an implicit CXXConstructExpr).
bool hasWrittenInitializer(const VarDecl *VD) {
  const Expr *Init = VD->getInit();
  if (!Init)
    return false;
  if (const auto *EWC = dyn_cast<ExprWithCleanups>(Init))
    Init = EWC->getSubExpr();
  if (const auto *CE = dyn_cast<CXXConstructExpr>(Init))
    return CE->getNumArgs() != 0 || CE->isListInitialization() ||
           CE->getParenOrBraceRange().isValid();
  return true;
}

/// Thread-dependent parts of C++ AMP code: a tiled_index's global and local
/// indices and a plain index are per thread; its tile and tile_origin are
/// the same for the whole tile.
Uniformity::Seed classifyAmp(const Expr *E) {
  auto TypeName = [](QualType T) -> llvm::StringRef {
    if (const CXXRecordDecl *RD = T.getNonReferenceType()->getAsCXXRecordDecl())
      if (RD->getIdentifier())
        return RD->getName();
    return "";
  };
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    if (TypeName(ME->getBase()->getType()) == "tiled_index") {
      llvm::StringRef Member = ME->getMemberDecl()->getName();
      if (Member == "global" || Member == "local")
        return Uniformity::Seed::Divergent;
      return Uniformity::Seed::Uniform; // tile, tile_origin, barrier
    }
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    llvm::StringRef N = TypeName(DRE->getType());
    if (N == "tiled_index" || N == "index")
      return Uniformity::Seed::Divergent;
  }
  return Uniformity::Seed::None;
}

/// `t.local[k]` of a tiled_index `t`: the thread's index in dimension k
/// of the tile.
std::optional<unsigned> ampLocalId(const Expr *E) {
  const auto *OC = dyn_cast<CXXOperatorCallExpr>(E->IgnoreParenImpCasts());
  if (!OC || OC->getOperator() != OO_Subscript || OC->getNumArgs() != 2)
    return std::nullopt;
  const auto *ME = dyn_cast<MemberExpr>(OC->getArg(0)->IgnoreParenImpCasts());
  if (!ME || ME->getMemberDecl()->getName() != "local" ||
      classifyAmp(ME) != Uniformity::Seed::Divergent)
    return std::nullopt;
  const Expr *Dim = OC->getArg(1);
  if (Dim->isValueDependent())
    return std::nullopt;
  std::optional<llvm::APSInt> K =
      Dim->getIntegerConstantExpr(ME->getMemberDecl()->getASTContext());
  if (!K || K->isNegative() || K->getExtValue() > 2)
    return std::nullopt;
  return unsigned(K->getExtValue());
}

/// `t.barrier.wait();` for the kernel's tiled_index parameter `t`.
std::string ampBarrier(const FunctionDecl *Body) {
  for (const ParmVarDecl *P : Body->parameters())
    if (const CXXRecordDecl *RD =
            P->getType().getNonReferenceType()->getAsCXXRecordDecl())
      if (RD->getIdentifier() && RD->getName() == "tiled_index" &&
          P->getIdentifier())
        return (P->getName() + ".barrier.wait();").str();
  return "";
}

class AmpChecker : public Checker {
  llvm::DenseSet<const Expr *> Reported;
  llvm::DenseSet<unsigned> ReportedForbidden;

public:
  void check(ASTContext &Ctx, const ProgramModel &Model, Reporter &R) override {
    checkRestrictions(Model, R);
    checkMisplaced(Model, R);
    checkRestrictionOverloads(Model, R);
    for (const GroupLocalVar &G : Model.GroupLocals)
      if (G.Dialect == DialectKind::Amp)
        checkTileStatic(Ctx, Model, G, R);
    for (const Kernel &K : Model.Kernels)
      if (K.Dialect == DialectKind::Amp)
        checkKernel(Ctx, Model, K, R);
  }

private:
  void checkRestrictions(const ProgramModel &Model, Reporter &R) {
    for (const RestrictionSite &S : Model.RestrictionSites) {
      if (S.Dialect != DialectKind::Amp)
        continue;
      if (S.Specifiers.empty())
        R.report(S.Spelling.getBegin(), Diag::err_amp_restrict_empty)
            << S.Spelling;
      for (const std::string &Spec : S.Specifiers)
        if (Spec != "amp" && Spec != "cpu")
          R.report(S.Spelling.getBegin(), Diag::err_amp_restrict_unknown)
              << Spec << S.Spelling;
    }
  }

  /// §2.3.2: a call to a function overloaded on its restriction needs
  /// exactly one overload for each context its caller runs in.
  void checkRestrictionOverloads(const ProgramModel &Model, Reporter &R) {
    for (const RestrictionOverloadCall &C : Model.RestrictionOverloads) {
      SourceLocation Loc =
          C.NameLoc.isValid() ? C.NameLoc : C.Site->getExprLoc();
      for (unsigned Amp = 0; Amp < 2; ++Amp) {
        if (!(Amp ? C.AmpContext : C.CpuContext))
          continue;
        const auto &Viable = Amp ? C.ForAmp : C.ForCpu;
        if (Viable.size() == 1)
          continue;
        if (!Reported.insert(C.Site).second)
          break;
        R.report(Loc, Viable.empty() ? Diag::err_amp_overload_none
                                     : Diag::err_amp_overload_ambiguous)
            << C.Overloads.front() << Amp << C.Site->getSourceRange();
        for (const FunctionDecl *O : C.Overloads)
          R.report(O->getLocation(), Diag::note_amp_overload_candidate)
              << O << restrictionIndex(O);
      }
    }
  }

  /// The note's %select: 0 none, 1 amp, 2 cpu, 3 cpu and amp.
  static unsigned restrictionIndex(const FunctionDecl *FD) {
    if (!hasRestrictClause(FD))
      return 0;
    bool Amp = hasAmpRestriction(FD), Cpu = hasCpuRestriction(FD);
    return Amp && Cpu ? 3 : Amp ? 1 : 2;
  }

  static bool hasCpuRestriction(const FunctionDecl *FD) {
    for (const FunctionDecl *D : FD->redecls())
      for (const auto *A : D->specific_attrs<AnnotateAttr>())
        if (A->getAnnotation() == "slmc.amp.restrict" && A->args_size() == 1)
          if (const auto *S = dyn_cast<StringLiteral>(
                  A->args_begin()[0]->IgnoreParenImpCasts()))
            if (S->getString().contains("cpu"))
              return true;
    return false;
  }

  void checkMisplaced(const ProgramModel &Model, Reporter &R) {
    for (const auto &[Dialect, D, Keyword] : Model.MisplacedGroupLocals) {
      if (Dialect != DialectKind::Amp)
        continue;
      unsigned Kind = 0;
      if (isa<ParmVarDecl>(D))
        Kind = 1;
      else if (isa<FieldDecl>(D) ||
               (isa<VarDecl>(D) && D->getDeclContext()->isRecord()))
        Kind = 2;
      else if (isa<FunctionDecl>(D))
        Kind = 3;
      else if (isa<VarDecl>(D))
        Kind = 4;
      R.report(Keyword.getBegin(), Diag::err_amp_tile_static_not_local)
          << Kind << Keyword;
    }
  }

  void checkTileStatic(ASTContext &Ctx, const ProgramModel &Model,
                       const GroupLocalVar &G, Reporter &R) {
    const VarDecl *VD = G.Var;
    SourceLocation Loc = VD->getLocation();
    const auto *Fn =
        dyn_cast_or_null<FunctionDecl>(VD->getParentFunctionOrMethod());
    const Restriction *Rs = Fn ? Model.restrictionOf(Fn) : nullptr;
    if (!Rs || !Rs->Device)
      R.report(Loc, Diag::err_amp_tile_static_not_amp) << VD << G.Keyword;
    else if (Rs->Host)
      R.report(Loc, Diag::err_amp_tile_static_amp_cpu) << VD << G.Keyword;

    if (hasWrittenInitializer(VD)) {
      auto D = R.report(Loc, Diag::err_amp_tile_static_init)
               << VD << VD->getInit()->getSourceRange();
      // Remove the initializer when the whole declarator is plain text.
      const SourceManager &SM = Ctx.getSourceManager();
      SourceLocation From =
          VD->getTypeSourceInfo()
              ? VD->getTypeSourceInfo()->getTypeLoc().getEndLoc()
              : Loc;
      if (SM.isBeforeInTranslationUnit(From, Loc))
        From = Loc;
      SourceLocation To = VD->getInit()->getEndLoc();
      if (From.isFileID() && To.isFileID()) {
        From = Lexer::getLocForEndOfToken(From, 0, SM, Ctx.getLangOpts());
        D << FixItHint::CreateRemoval(CharSourceRange::getTokenRange(From, To));
      }
    }

    QualType T = VD->getType();
    if (T->isDependentType())
      return;
    TypeProblem P = typeProblem(T);
    if (P != TP_None) {
      R.report(Loc, Diag::err_amp_tile_static_type) << VD << unsigned(P) << T;
      return;
    }
    QualType Elem = Ctx.getBaseElementType(T);
    if (const CXXRecordDecl *RD = Elem->getAsCXXRecordDecl()) {
      if (!RD->hasDefinition())
        return;
      RD = RD->getDefinition();
      if (!RD->hasTrivialDefaultConstructor()) {
        R.report(Loc, Diag::warn_amp_tile_static_nontrivial) << 0 << VD << T;
        for (const CXXConstructorDecl *C : RD->ctors())
          if (C->isDefaultConstructor() && !C->isImplicit()) {
            R.report(C->getLocation(), Diag::note_amp_special_member_here) << 0;
            break;
          }
      }
      if (!RD->hasTrivialDestructor()) {
        R.report(Loc, Diag::warn_amp_tile_static_nontrivial) << 1 << VD << T;
        if (const CXXDestructorDecl *Dtor = RD->getDestructor())
          if (!Dtor->isImplicit())
            R.report(Dtor->getLocation(), Diag::note_amp_special_member_here)
                << 1;
      }
    }
  }

  /// Whether amp-restricted code may call `FD`: it is restrict(amp) or
  /// restrict(amp, cpu) (in any declaration), a library function usable on
  /// devices, implicit, or constexpr.
  static bool isAmpCallable(const FunctionDecl *FD) {
    // Lambdas inside amp code take its restriction, unless they name one
    // (even when they are implicitly constexpr).
    if (const auto *MD = dyn_cast<CXXMethodDecl>(FD);
        MD && MD->getParent()->isLambda())
      return !hasRestrictClause(FD) || hasAmpRestriction(FD);
    // Compiler builtins (__builtin_*) lower on every target; the C library's
    // functions that Clang also knows (erf, sqrtf, abs, ...) are host code
    // (Clang's implicit declaration of such a function comes first).
    if (isCLibraryFunction(FD))
      return false;
    if (FD->getBuiltinID() || FD->isImplicit() || FD->isConstexpr() || FD->isDefaulted())
      return true;
    return hasAmpRestriction(FD);
  }

  /// A C function of a system header that only the host library defines.
  static bool isCLibraryFunction(const FunctionDecl *FD) {
    if (!FD->isExternC() || FD->hasBody() || hasAmpRestriction(FD) ||
        FD->getName().starts_with("__builtin"))
      return false;
    return FD->getASTContext().getSourceManager().isInSystemHeader(FD->getLocation());
  }

  static bool hasRestrictClause(const FunctionDecl *FD) {
    for (const FunctionDecl *D : FD->redecls())
      for (const auto *A : D->specific_attrs<AnnotateAttr>())
        if (A->getAnnotation() == "slmc.amp.restrict")
          return true;
    if (const FunctionDecl *P = FD->getTemplateInstantiationPattern())
      if (P != FD)
        return hasRestrictClause(P);
    return false;
  }

  static bool hasAmpRestriction(const FunctionDecl *FD) {
    for (const FunctionDecl *D : FD->redecls())
      for (const auto *A : D->specific_attrs<AnnotateAttr>()) {
        if (A->getAnnotation() == "slmc.hd")
          return true;
        if (A->getAnnotation() == "slmc.amp.restrict" && A->args_size() == 1)
          if (const auto *S = dyn_cast<StringLiteral>(
                  A->args_begin()[0]->IgnoreParenImpCasts()))
            if (S->getString().contains("amp"))
              return true;
      }
    if (const FunctionDecl *P = FD->getTemplateInstantiationPattern())
      if (P != FD)
        return hasAmpRestriction(P);
    return false;
  }

  /// Amp code may only call amp code: walks the calls from the kernel
  /// through amp-callable functions and reports each call that leaves it.
  void checkCalls(const ProgramModel &Model, const Kernel &K, Reporter &R) {
    if (!hasAmpRestriction(K.Body)) {
      R.report(K.Body->getLocation(), Diag::err_amp_kernel_not_amp);
      return;
    }
    // tile_static objects are never constructed: their implicit
    // construction is not a call.
    llvm::DenseSet<const Expr *> NotCalls;
    for (const GroupLocalVar &G : Model.GroupLocals)
      if (G.Var && G.Var->getInit())
        NotCalls.insert(G.Var->getInit()->IgnoreImplicit());
    llvm::DenseSet<const FunctionDecl *> Seen;
    std::vector<const FunctionDecl *> Work{K.Body};
    while (!Work.empty()) {
      const FunctionDecl *Fn = nullptr;
      if (!Work.back()->hasBody(Fn)) {
        Work.pop_back();
        continue;
      }
      Work.pop_back();
      // The dialect libraries (system headers) are trusted to keep host-only
      // parts out of device code themselves.
      if (!Seen.insert(Fn).second ||
          Fn->getASTContext().getSourceManager().isInSystemHeader(
              Fn->getLocation()))
        continue;
      checkForbidden(Fn, R);
      auto It = Model.Calls.find(Fn);
      if (It == Model.Calls.end())
        continue;
      for (const CallEdge &E : It->second) {
        if (NotCalls.count(E.Site->IgnoreImplicit()))
          continue;
        if (isAmpCallable(E.Callee)) {
          Work.push_back(E.Callee);
          continue;
        }
        if (!Reported.insert(E.Site).second)
          continue;
        R.report(E.Site->getBeginLoc(), Diag::err_amp_call_cpu_only)
            << E.Callee << E.Site->getSourceRange();
        if (isCLibraryFunction(E.Callee))
          R.report(E.Site->getBeginLoc(), Diag::note_amp_library_function)
              << E.Callee;
        else
          R.report(E.Callee->getLocation(), Diag::note_amp_declared_here)
              << E.Callee;
      }
    }
  }

  /// What amp code may not contain (§2.4.3.5, §2.4.3.7), reported once per
  /// place however many kernels reach it.
  void checkForbidden(const FunctionDecl *Fn, Reporter &R) {
    ForbiddenInAmp V;
    V.TraverseStmt(const_cast<Stmt *>(Fn->getBody()));
    for (const auto &[Kind, Range] : V.Found)
      if (ReportedForbidden.insert(Range.getBegin().getRawEncoding()).second)
        R.report(Range.getBegin(), Diag::err_amp_forbidden_construct)
            << unsigned(Kind) << Range;
  }

  void checkKernel(ASTContext &Ctx, const ProgramModel &Model, const Kernel &K,
                   Reporter &R) {
    checkCalls(Model, K, R);
    if (K.UsesWorkGroups) {
      if (K.Shape.Static && K.Shape.threads() > 1024)
        R.report(K.location(), Diag::err_amp_tile_too_large)
            << unsigned(K.Shape.threads());
      if (K.Shape.Static && K.Shape.Domain)
        for (unsigned I = 0; I < K.Shape.Rank; ++I) {
          int64_t E = (*K.Shape.Domain)[I], T = K.Shape.Size[I];
          if (E > 0 && E % T == 0)
            continue;
          R.report(K.Shape.DomainExpr->getBeginLoc(),
                   Diag::err_amp_extent_not_divisible)
              << std::to_string(E) << I << (E > 0 ? 1 : 0) << std::to_string(T)
              << K.Shape.DomainExpr->getSourceRange();
        }
      // MSVC's C3561: every thread of the tile must reach each barrier.
      checkDivergentBarriers(Model, K, R,
                             {DialectKind::Amp, Diag::warn_amp_barrier_divergent,
                              Diag::note_slmc_divergent_because, classifyAmp});
      checkGroupLocalRaces(Ctx, Model, K, R,
                           {DialectKind::Amp, ampLocalId, ampBarrier(K.Body)});
      return;
    }
    // MSVC's C3600: tile_static needs a tiled launch.
    auto Reach = Model.reachableFrom(K.Body);
    for (const GroupLocalVar &G : Model.GroupLocals) {
      if (G.Dialect != DialectKind::Amp)
        continue;
      const auto *Fn =
          dyn_cast_or_null<FunctionDecl>(G.Var->getParentFunctionOrMethod());
      const FunctionDecl *Def = nullptr;
      if (!Fn || !Fn->hasBody(Def) || !Reach.count(Def))
        continue;
      R.report(G.Var->getLocation(), Diag::err_amp_tile_static_untiled)
          << G.Var;
      notePath(R, Reach, Def);
      R.report(K.location(), Diag::note_amp_untiled_launch);
    }
  }
};

} // namespace

std::unique_ptr<Checker> createAmpChecker() {
  return std::make_unique<AmpChecker>();
}

} // namespace slmc
