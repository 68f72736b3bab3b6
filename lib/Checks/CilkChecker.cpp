//===- CilkChecker.cpp - The rules of Cilk Plus graphics offload ----------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Intel's compiler (ICC 15-18) documented these rules for thread-group
// nests; slmc checks all of them (docs/diagnostics.md lists each):
//  - `_Thread_group` loops: in gfx_kernel functions or offload statements,
//    one or two perfectly nested, containing at least one second-level nest;
//  - serial code (first-level code outside second-level nests) runs in
//    every thread of the group and must give them all the same results: it
//    reads only locals and parameters, calls nothing, stores through no
//    pointer; no return/goto/throw;
//  - second-level nests are perfect `_Cilk_for` nests written in the nest,
//    not in called functions; a firstprivate local that is used after a nest
//    is not updated in it; barriers stay out of them;
//  - __thread_group_local data is declared immediately in the first-level
//    nest, whole variables only, of scalar/array/plain-struct type;
//  - offloaded code calls only target(gfx) functions.
//
//===----------------------------------------------------------------------===//
#include "Checks/Checker.h"
#include "Model/CilkSyntax.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang;

namespace slmc {
namespace {

using cilk::LoopKind;

const VarDecl *rootVariable(const Expr *E, bool &ThroughPointer) {
  ThroughPointer = false;
  while (true) {
    E = E->IgnoreParenImpCasts();
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
      if (!ASE->getBase()->IgnoreParenImpCasts()->getType()->isArrayType() &&
          ASE->getBase()->getType()->isPointerType()) {
        // a[i] through a pointer (arrays decay: look at the un-decayed base)
        const Expr *Base = ASE->getBase()->IgnoreParenImpCasts();
        if (!Base->getType()->isArrayType())
          ThroughPointer = true;
      }
      E = ASE->getBase();
      continue;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      if (ME->isArrow())
        ThroughPointer = true;
      E = ME->getBase();
      continue;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_Deref) {
      ThroughPointer = true;
      E = UO->getSubExpr();
      continue;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      return dyn_cast<VarDecl>(DRE->getDecl());
    return nullptr;
  }
}

/// The target of an assignment, compound assignment or ++/--, if `E` is one.
const Expr *updatedExpr(const Expr *E) {
  if (const auto *BO = dyn_cast<BinaryOperator>(E); BO && BO->isAssignmentOp())
    return BO->getLHS();
  if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->isIncrementDecrementOp())
    return UO->getSubExpr();
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E); OC && OC->isAssignmentOp())
    return OC->getArg(0);
  return nullptr;
}

bool isIntrinsic(const FunctionDecl *FD) {
  for (const auto *A : FD->specific_attrs<AnnotateAttr>())
    if (A->getAnnotation().starts_with("slmc.entry:cilk."))
      return true;
  return false;
}

/// Calls offloaded code may make without a target(gfx) declaration.
bool callableFromDevice(const FunctionDecl *FD, const SourceManager &SM) {
  if (FD->getBuiltinID() || FD->isConstexpr() || isIntrinsic(FD) || cilk::isGfxFunction(FD))
    return true;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD); MD && MD->getParent()->isLambda())
    return true;
  if (FD->isImplicit() || FD->isDefaulted() || FD->isTrivial())
    return true;
  // Library code (the standard library, slmc's own headers) is compiled for
  // the device as needed.
  return SM.isInSystemHeader(SM.getExpansionLoc(FD->getLocation()));
}

/// Walks the serial code of a first-level nest.
class SerialCodeChecker : public RecursiveASTVisitor<SerialCodeChecker> {
public:
  SerialCodeChecker(const ProgramModel &Model, const Kernel &K, Reporter &R,
                    const SourceManager &SM)
      : Model(Model), K(K), R(R), SM(SM) {
    for (const auto &Nest : K.SharedNests)
      Shared.insert(Nest.front());
  }

  bool TraverseLambdaExpr(LambdaExpr *) { return true; }

  bool TraverseAttributedStmt(AttributedStmt *AS) {
    if (auto L = cilk::asParallelLoop(AS, SM); L && Shared.count(L->For))
      return true; // a second-level nest: checked elsewhere
    return RecursiveASTVisitor::TraverseAttributedStmt(AS);
  }

  bool TraverseDeclStmt(DeclStmt *DS) {
    // SLM declarations (with their initializers) are allowed as they are.
    for (const Decl *D : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D); VD && Model.groupLocal(VD))
        return true;
    return RecursiveASTVisitor::TraverseDeclStmt(DS);
  }

  bool dataAssignmentToGroupLocal(Expr *E) {
    const Expr *Target = updatedExpr(E);
    bool Ptr = false;
    const VarDecl *V = Target ? rootVariable(Target, Ptr) : nullptr;
    return V && Model.groupLocal(V);
  }

  bool TraverseBinaryOperator(BinaryOperator *BO) {
    if (BO->isAssignmentOp() && dataAssignmentToGroupLocal(BO))
      return true; // assignment to __thread_group_local data: allowed
    return RecursiveASTVisitor::TraverseBinaryOperator(BO);
  }

  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || !VD->hasGlobalStorage() || VD->getType()->isReferenceType())
      return true;
    if (VD->getType().isConstQualified() && VD->hasConstantInitialization())
      return true; // a named constant
    if (VD->isConstexpr())
      return true;
    R.report(DRE->getLocation(), Diag::err_cilk_serial_static)
        << (VD->isStaticLocal() ? 0 : 1) << VD << DRE->getSourceRange();
    return true;
  }

  bool VisitImplicitCastExpr(ImplicitCastExpr *ICE) {
    if (ICE->getCastKind() != CK_LValueToRValue)
      return true;
    bool Ptr = false;
    if (const VarDecl *V = rootVariable(ICE->getSubExpr(), Ptr); V && Model.groupLocal(V))
      R.report(ICE->getBeginLoc(), Diag::err_cilk_serial_group_local)
          << V << ICE->getSourceRange();
    return true;
  }

  bool VisitCallExpr(CallExpr *CE) {
    const FunctionDecl *FD = CE->getDirectCallee();
    if (FD && (FD->getBuiltinID() || FD->isConstexpr() || isIntrinsic(FD)))
      return true;
    if (FD)
      R.report(CE->getBeginLoc(), Diag::err_cilk_serial_call) << FD << CE->getSourceRange();
    else
      R.report(CE->getBeginLoc(), Diag::err_cilk_first_level_construct)
          << "an indirect call" << CE->getSourceRange();
    return true;
  }

  bool VisitExpr(Expr *E) {
    const Expr *Target = updatedExpr(E);
    if (!Target)
      return true;
    bool ThroughPointer = false;
    const VarDecl *V = rootVariable(Target, ThroughPointer);
    if (V && Model.groupLocal(V))
      return true;
    if (ThroughPointer)
      R.report(Target->getBeginLoc(), Diag::err_cilk_serial_store) << 0
          << Target->getSourceRange();
    else if (V && V->getType()->isReferenceType())
      R.report(Target->getBeginLoc(), Diag::err_cilk_serial_store) << 1
          << Target->getSourceRange();
    return true;
  }

  bool VisitStmt(Stmt *S) {
    const char *What = nullptr;
    if (isa<ReturnStmt>(S))
      What = "'return'";
    else if (isa<GotoStmt>(S) || isa<IndirectGotoStmt>(S))
      What = "'goto'";
    else if (isa<CXXThrowExpr>(S))
      What = "'throw'";
    else if (isa<CXXTryStmt>(S))
      What = "'try'";
    else if (isa<AsmStmt>(S))
      What = "inline assembly";
    if (What)
      R.report(S->getBeginLoc(), Diag::err_cilk_first_level_construct)
          << What << S->getSourceRange();
    return true;
  }

  // break/continue leaving the nest's body (not an inner loop or switch).
  bool TraverseForStmt(ForStmt *S) { return nested([&] { return RecursiveASTVisitor::TraverseForStmt(S); }); }
  bool TraverseWhileStmt(WhileStmt *S) { return nested([&] { return RecursiveASTVisitor::TraverseWhileStmt(S); }); }
  bool TraverseDoStmt(DoStmt *S) { return nested([&] { return RecursiveASTVisitor::TraverseDoStmt(S); }); }
  bool TraverseCXXForRangeStmt(CXXForRangeStmt *S) { return nested([&] { return RecursiveASTVisitor::TraverseCXXForRangeStmt(S); }); }
  bool TraverseSwitchStmt(SwitchStmt *S) { return nested([&] { return RecursiveASTVisitor::TraverseSwitchStmt(S); }); }
  bool VisitBreakStmt(BreakStmt *S) { return leaves(S, "'break'"); }
  bool VisitContinueStmt(ContinueStmt *S) { return leaves(S, "'continue'"); }

private:
  template <class F> bool nested(F Traverse) {
    ++LoopDepth;
    bool Res = Traverse();
    --LoopDepth;
    return Res;
  }
  bool leaves(Stmt *S, const char *What) {
    if (LoopDepth == 0)
      R.report(S->getBeginLoc(), Diag::err_cilk_first_level_construct) << What;
    return true;
  }

  const ProgramModel &Model;
  const Kernel &K;
  Reporter &R;
  const SourceManager &SM;
  llvm::DenseSet<const ForStmt *> Shared;
  unsigned LoopDepth = 0;
};

/// Collects the Cilk loops (of given kinds) under a statement.
class LoopCollector : public RecursiveASTVisitor<LoopCollector> {
public:
  LoopCollector(const SourceManager &SM) : SM(SM) {}
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool VisitAttributedStmt(AttributedStmt *AS) {
    if (auto L = cilk::asParallelLoop(AS, SM))
      Loops.push_back(*L);
    return true;
  }
  std::vector<cilk::ParallelLoop> Loops;

private:
  const SourceManager &SM;
};

/// References to variables, with where they are.
class RefCollector : public RecursiveASTVisitor<RefCollector> {
public:
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      Refs.push_back({VD, DRE});
    return true;
  }
  bool VisitExpr(Expr *E) {
    if (const Expr *T = updatedExpr(E))
      if (const auto *DRE = dyn_cast<DeclRefExpr>(T->IgnoreParenImpCasts()))
        if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
          Updates.push_back({VD, DRE});
    return true;
  }
  std::vector<std::pair<const VarDecl *, const DeclRefExpr *>> Refs, Updates;
};

class CilkChecker : public Checker {
public:
  void check(ASTContext &Ctx, const ProgramModel &Model, Reporter &R) override {
    const SourceManager &SM = Ctx.getSourceManager();
    llvm::DenseSet<const ForStmt *> KernelLoops;
    for (const Kernel &K : Model.Kernels) {
      if (K.Dialect != DialectKind::Cilk)
        continue;
      for (const ForStmt *FS : K.Loops)
        KernelLoops.insert(FS);
      checkKernel(Ctx, Model, K, R);
    }
    checkThreadGroupPlacement(Ctx, Model, KernelLoops, R);
    checkGroupLocals(Ctx, Model, R);
    checkBarriers(Ctx, Model, R);
    const cilk::PragmaRecords &Regions = cilk::offloadAttributeRegions(SM);
    for (SourceLocation Loc : Regions.UnmatchedPops)
      R.report(Loc, Diag::warn_cilk_offload_attribute_pop);
    for (SourceLocation Loc : Regions.UnknownAttributePragmas)
      R.report(Loc, Diag::warn_cilk_offload_attribute_syntax);
  }

private:
  void checkCanonical(const SourceManager &SM, const ForStmt *FS, Reporter &R) {
    std::string Why;
    SourceLocation Where;
    if (!cilk::analyzeLoop(FS, &Why, &Where))
      R.report(SM.getExpansionLoc(Where), Diag::err_cilk_not_canonical) << Why;
  }

  void checkKernel(ASTContext &Ctx, const ProgramModel &Model, const Kernel &K,
                   Reporter &R) {
    const SourceManager &SM = Ctx.getSourceManager();
    for (const ForStmt *FS : K.Loops)
      checkCanonical(SM, FS, R);
    if (K.OffloadClauses)
      checkOffloadClauses(K, R);
    checkCalls(Ctx, Model, K, R);
    if (!K.UsesWorkGroups)
      return;
    if (K.Loops.size() > 2)
      R.report(SM.getExpansionLoc(K.Loops[2]->getForLoc()), Diag::err_cilk_thread_group_nested) << 2;
    if (K.SharedNests.empty())
      R.report(SM.getExpansionLoc(K.Loops.front()->getForLoc()), Diag::err_cilk_no_second_level);
    for (const auto &Nest : K.SharedNests) {
      for (const ForStmt *FS : Nest)
        checkCanonical(SM, FS, R);
      // Anything parallel left inside the nest's body is not perfectly nested.
      LoopCollector Inner(SM);
      Inner.TraverseStmt(const_cast<Stmt *>(Nest.back()->getBody()));
      for (const auto &L : Inner.Loops) {
        if (L.Kind == LoopKind::ThreadGroup)
          R.report(SM.getExpansionLoc(L.For->getForLoc()), Diag::err_cilk_thread_group_nested) << 0;
        else if (L.Kind == LoopKind::CilkFor)
          R.report(SM.getExpansionLoc(L.For->getForLoc()), Diag::err_cilk_nest_not_perfect);
      }
      checkFirstprivate(Ctx, Model, K, Nest, R);
    }
    // Thread-group loops in the first-level body, outside second-level nests.
    LoopCollector All(SM);
    All.TraverseStmt(const_cast<Stmt *>(K.Loops.back()->getBody()));
    for (const auto &L : All.Loops)
      if (L.Kind == LoopKind::ThreadGroup &&
          !llvm::any_of(K.SharedNests, [&](const auto &Nest) {
            return writtenWithin(SM, Nest.front()->getSourceRange(), L.For->getForLoc());
          }))
        R.report(SM.getExpansionLoc(L.For->getForLoc()), Diag::err_cilk_thread_group_nested) << 1;
    SerialCodeChecker(Model, K, R, SM).TraverseStmt(const_cast<Stmt *>(K.Loops.back()->getBody()));
    RaceRule Races{DialectKind::Cilk, nullptr, "_gfx_gpgpu_thread_barrier();"};
    Races.SharedNests = true;
    checkGroupLocalRaces(Ctx, Model, K, R, Races);
  }

  /// A local that a second-level nest updates is its thread's firstprivate
  /// copy; if the code after the nest reads it, the update is lost.
  void checkFirstprivate(ASTContext &Ctx, const ProgramModel &Model, const Kernel &K,
                         const llvm::SmallVector<const ForStmt *, 3> &Nest, Reporter &R) {
    const SourceManager &SM = Ctx.getSourceManager();
    RefCollector InNest;
    InNest.TraverseStmt(const_cast<ForStmt *>(Nest.front()));
    SourceRange NestRange = Nest.front()->getSourceRange();
    RefCollector InBody;
    InBody.TraverseStmt(const_cast<Stmt *>(K.Body->getBody()));
    llvm::DenseSet<const VarDecl *> Reported;
    for (const auto &[VD, Ref] : InNest.Updates) {
      if (!VD->isLocalVarDecl() && !isa<ParmVarDecl>(VD))
        continue;
      if (writtenWithin(SM, NestRange, VD->getLocation()) || VD->hasGlobalStorage())
        continue; // declared in the nest: private to the iteration
      if (Model.groupLocal(VD))
        continue; // shared by the group's threads, not a private copy
      if (Reported.count(VD))
        continue;
      // Used after the nest, or before it inside a serial loop around it.
      const Stmt *Loop = enclosingSerialLoop(Ctx, K, Nest.front());
      for (const auto &[Other, Use] : InBody.Refs) {
        if (Other != VD || writtenWithin(SM, NestRange, Use->getLocation()))
          continue;
        bool After = SM.isBeforeInTranslationUnit(SM.getExpansionLoc(NestRange.getEnd()),
                                                  SM.getExpansionLoc(Use->getLocation()));
        bool InLoop = Loop && writtenWithin(SM, Loop->getSourceRange(), Use->getLocation());
        if (!After && !InLoop)
          continue;
        R.report(Ref->getLocation(), Diag::err_cilk_firstprivate_live) << VD
            << Ref->getSourceRange();
        R.report(Use->getLocation(), Diag::note_cilk_used_after) << VD;
        Reported.insert(VD);
        break;
      }
    }
  }

  /// The innermost serial loop of the first-level body around `S`, if any.
  const Stmt *enclosingSerialLoop(ASTContext &Ctx, const Kernel &K, const Stmt *S) {
    const SourceManager &SM = Ctx.getSourceManager();
    const Stmt *Found = nullptr;
    struct Finder : RecursiveASTVisitor<Finder> {
      const SourceManager &SM;
      const Stmt *Target;
      const Stmt *&Found;
      Finder(const SourceManager &SM, const Stmt *T, const Stmt *&F) : SM(SM), Target(T), Found(F) {}
      bool visitLoop(Stmt *L) {
        if (L != Target && writtenWithin(SM, L->getSourceRange(), Target->getBeginLoc()) &&
            !cilk::asParallelLoop(L, SM))
          Found = L; // later (inner) matches overwrite earlier ones
        return true;
      }
      bool VisitForStmt(ForStmt *L) { return visitLoop(L); }
      bool VisitWhileStmt(WhileStmt *L) { return visitLoop(L); }
      bool VisitDoStmt(DoStmt *L) { return visitLoop(L); }
    } F(SM, S, Found);
    F.TraverseStmt(const_cast<Stmt *>(K.Loops.back()->getBody()));
    if (Found == S)
      return nullptr;
    return Found;
  }

  void checkCalls(ASTContext &Ctx, const ProgramModel &Model, const Kernel &K, Reporter &R) {
    const SourceManager &SM = Ctx.getSourceManager();
    llvm::SmallVector<CallEdge, 4> Direct = directCalls(K.Region, /*IntoLambdas=*/true);
    // __thread_group_local objects are never constructed.
    llvm::DenseSet<const Expr *> NotCalls;
    for (const GroupLocalVar &G : Model.GroupLocals)
      if (G.Dialect == DialectKind::Cilk && G.Var && G.Var->getInit())
        NotCalls.insert(G.Var->getInit()->IgnoreImplicit());
    llvm::DenseSet<const FunctionDecl *> Seen;
    for (const auto &[Callee, Site] : Direct) {
      if (NotCalls.count(Site->IgnoreImplicit()))
        continue;
      if (!callableFromDevice(Callee, SM)) {
        R.report(Site->getBeginLoc(), Diag::err_cilk_call_not_gfx) << Callee
            << Site->getSourceRange();
        R.report(Callee->getLocation(), Diag::note_cilk_declare_gfx) << Callee;
        continue;
      }
      // Second-level nests may not hide in callees (checked transitively).
      const FunctionDecl *Def = nullptr;
      if (!K.UsesWorkGroups || !Callee->hasBody(Def) ||
          SM.isInSystemHeader(SM.getExpansionLoc(Def->getLocation())))
        continue;
      for (const auto &[Fn, Edge] : Model.reachableFrom(Def)) {
        if (!Seen.insert(Fn).second ||
            SM.isInSystemHeader(SM.getExpansionLoc(Fn->getLocation())))
          continue;
        LoopCollector Loops(SM);
        Loops.TraverseStmt(Fn->getBody());
        if (Loops.Loops.empty() || Loops.Loops.front().Kind == LoopKind::Section)
          continue;
        R.report(Site->getBeginLoc(), Diag::err_cilk_nest_in_callee) << Fn
            << Site->getSourceRange();
        R.report(SM.getExpansionLoc(Loops.Loops.front().For->getForLoc()), Diag::note_cilk_callee_nest) << Fn;
      }
    }
  }

  void checkOffloadClauses(const Kernel &K, Reporter &R) {
    std::string Error;
    auto Clauses = cilk::parseOffloadClauses(*K.OffloadClauses, Error);
    SourceLocation Loc = K.OffloadPragma.isValid() ? K.OffloadPragma : K.Region->getBeginLoc();
    if (!Clauses) {
      R.report(Loc, Diag::err_cilk_offload_clause) << Error;
      return;
    }
    bool Target = false;
    for (const auto &C : *Clauses) {
      if (C.Name == "target") {
        Target = true;
        if (llvm::StringRef(C.Argument).trim() != "gfx")
          R.report(Loc, Diag::err_cilk_offload_clause)
              << "only 'target(gfx)' is supported, not 'target(" + C.Argument + ")'";
      } else if (C.Name == "if") {
        if (llvm::StringRef(C.Argument).trim().empty())
          R.report(Loc, Diag::err_cilk_offload_clause) << "'if' needs a condition";
      } else if (C.Name == "in" || C.Name == "out" || C.Name == "inout" ||
                 C.Name == "pin") {
        // Lengths are checked by the compiler on the lowered code.
      } else {
        R.report(Loc, Diag::warn_cilk_offload_clause_ignored) << C.Name;
      }
    }
    if (!Target)
      R.report(Loc, Diag::err_cilk_offload_clause) << "missing 'target(gfx)'";
  }

  void checkThreadGroupPlacement(ASTContext &Ctx, const ProgramModel &Model,
                                 const llvm::DenseSet<const ForStmt *> &KernelLoops,
                                 Reporter &R) {
    const SourceManager &SM = Ctx.getSourceManager();
    struct Finder : RecursiveASTVisitor<Finder> {
      const SourceManager &SM;
      std::vector<cilk::ParallelLoop> Found;
      explicit Finder(const SourceManager &SM) : SM(SM) {}
      bool shouldVisitLambdaBody() const { return true; }
      bool VisitAttributedStmt(AttributedStmt *AS) {
        if (auto L = cilk::asParallelLoop(AS, SM); L && L->Kind == LoopKind::ThreadGroup &&
                                                   !SM.isInSystemHeader(SM.getExpansionLoc(L->For->getForLoc())))
          Found.push_back(*L);
        return true;
      }
    } F(SM);
    F.TraverseDecl(Ctx.getTranslationUnitDecl());
    for (const auto &L : F.Found) {
      if (KernelLoops.count(L.For))
        continue;
      bool InKernel = llvm::any_of(Model.Kernels, [&](const Kernel &K) {
        return K.Dialect == DialectKind::Cilk && K.UsesWorkGroups &&
               writtenWithin(SM, K.Region->getSourceRange(), L.For->getForLoc());
      });
      if (!InKernel) // nested ones are reported with their kernel
        R.report(SM.getExpansionLoc(L.For->getForLoc()), Diag::err_cilk_thread_group_placement);
    }
  }

  void checkGroupLocals(ASTContext &Ctx, const ProgramModel &Model, Reporter &R) {
    const SourceManager &SM = Ctx.getSourceManager();
    for (const auto &[Dialect, D, Keyword] : Model.MisplacedGroupLocals) {
      if (Dialect != DialectKind::Cilk)
        continue;
      const auto *ND = cast<NamedDecl>(D);
      if (isa<FieldDecl>(D) || D->getDeclContext()->isRecord())
        R.report(Keyword.getBegin(), Diag::err_cilk_tgl_field) << ND;
      else if (isa<ParmVarDecl>(D))
        R.report(Keyword.getBegin(), Diag::err_cilk_tgl_placement) << ND << 2;
      else if (const auto *VD = dyn_cast<VarDecl>(D); VD && VD->isStaticLocal())
        R.report(Keyword.getBegin(), Diag::err_cilk_tgl_placement) << ND << 4;
      else
        R.report(Keyword.getBegin(), Diag::err_cilk_tgl_placement) << ND << 1;
    }
    for (const GroupLocalVar &G : Model.GroupLocals) {
      if (G.Dialect != DialectKind::Cilk)
        continue;
      // Immediately inside a first-level nest: a statement of its body.
      bool Placed = false;
      for (const Kernel &K : Model.Kernels) {
        if (K.Dialect != DialectKind::Cilk || !K.UsesWorkGroups)
          continue;
        const auto *Body = dyn_cast<CompoundStmt>(K.Loops.back()->getBody());
        if (!Body)
          continue;
        for (const Stmt *S : Body->body())
          if (const auto *DS = dyn_cast<DeclStmt>(S))
            for (const Decl *D : DS->decls())
              Placed |= D == G.Var;
      }
      if (!Placed)
        R.report(G.Keyword.getBegin(), Diag::err_cilk_tgl_placement) << G.Var << 0;
      const CXXRecordDecl *RD = Ctx.getBaseElementType(G.Type)->getAsCXXRecordDecl();
      if (!RD || !RD->hasDefinition())
        continue;
      const CXXConstructorDecl *UserCtor = nullptr;
      for (const CXXConstructorDecl *C : RD->ctors())
        if (C->isUserProvided())
          UserCtor = C;
      unsigned Kind = UserCtor ? 0 : !RD->hasTrivialDestructor() ? 1 : RD->isPolymorphic() ? 2 : 3;
      if (Kind == 3)
        continue;
      R.report(G.Var->getLocation(), Diag::err_cilk_tgl_class) << G.Var << G.Type << Kind;
      if (UserCtor)
        R.report(UserCtor->getLocation(), Diag::note_cilk_special_member);
      else if (Kind == 1 && RD->getDestructor())
        R.report(RD->getDestructor()->getLocation(), Diag::note_cilk_special_member);
    }
  }

  void checkBarriers(ASTContext &Ctx, const ProgramModel &Model, Reporter &R) {
    const SourceManager &SM = Ctx.getSourceManager();
    for (const BarrierSite &B : Model.Barriers) {
      if (B.Dialect != DialectKind::Cilk ||
          SM.isInSystemHeader(SM.getExpansionLoc(B.Call->getBeginLoc())))
        continue;
      bool InSerial = false, InNest = false;
      for (const Kernel &K : Model.Kernels) {
        if (K.Dialect != DialectKind::Cilk || !K.UsesWorkGroups ||
            !writtenWithin(SM, K.Region->getSourceRange(), B.Call->getBeginLoc()))
          continue;
        InSerial = true;
        for (const auto &Nest : K.SharedNests)
          InNest |= writtenWithin(SM, Nest.front()->getSourceRange(), B.Call->getBeginLoc());
      }
      if (InNest)
        R.report(B.Call->getBeginLoc(), Diag::err_cilk_barrier_in_nest);
      else if (!InSerial)
        R.report(B.Call->getBeginLoc(), Diag::err_cilk_barrier_outside);
    }
  }
};

} // namespace

std::unique_ptr<Checker> createCilkChecker() { return std::make_unique<CilkChecker>(); }

} // namespace slmc
