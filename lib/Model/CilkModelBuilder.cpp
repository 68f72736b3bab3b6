//===- CilkModelBuilder.cpp - Cilk Plus offload constructs into the model -===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A kernel is an offloaded loop nest: the outermost Cilk loop (not inside
// another one) of a gfx_kernel function, or one with `#pragma offload` in
// front of it. With `_Thread_group` its loops (one or two, perfectly nested)
// enumerate work-groups and the Cilk loop nests inside are shared among the
// group's work-items; without, the perfectly nested Cilk loops are the
// work-items. __thread_group_local variables are group-local data; on a
// pointer, the keyword before the `*` qualifies the data pointed to (the
// variable itself is not group-local).
//
//===----------------------------------------------------------------------===//
#include "Model/CilkSyntax.h"
#include "Model/FunctionScopeVisitor.h"
#include "Model/ModelBuilder.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/TypeLoc.h"

using namespace clang;

namespace slmc {
namespace {

using cilk::LoopKind;
using cilk::ParallelLoop;

/// Whether the keyword at `KeywordLoc` makes `D` itself group-local (rather
/// than the data a pointer declared by `D` points to).
bool keywordAppliesToDeclaration(const SourceManager &SM, const DeclaratorDecl *D,
                                 SourceLocation KeywordLoc) {
  const TypeSourceInfo *TSI = D->getTypeSourceInfo();
  if (!TSI)
    return true;
  TypeLoc TL = TSI->getTypeLoc();
  // Look through arrays to the element declarator.
  while (auto AL = TL.getAs<ArrayTypeLoc>())
    TL = AL.getElementLoc();
  auto PL = TL.getAs<PointerTypeLoc>();
  if (!PL)
    return true;
  return SM.isBeforeInTranslationUnit(SM.getExpansionLoc(PL.getStarLoc()),
                                      SM.getExpansionLoc(KeywordLoc));
}

/// The chain of perfectly nested parallel loops starting at `First` whose
/// kinds satisfy `Accept`, at most `Max` deep.
template <class Pred>
llvm::SmallVector<const ForStmt *, 3> perfectChain(const ParallelLoop &First,
                                                   const SourceManager &SM,
                                                   unsigned Max, Pred Accept) {
  llvm::SmallVector<const ForStmt *, 3> Chain{First.For};
  const ForStmt *Cur = First.For;
  while (Chain.size() < Max) {
    auto Next = cilk::asParallelLoop(cilk::onlyStatement(Cur->getBody()), SM);
    if (!Next || !Accept(Next->Kind))
      break;
    Chain.push_back(Next->For);
    Cur = Next->For;
  }
  return Chain;
}

/// Finds the second-level nests of a first-level body.
class SharedNestFinder : public RecursiveASTVisitor<SharedNestFinder> {
public:
  SharedNestFinder(const SourceManager &SM, Kernel &K) : SM(SM), K(K) {}
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool TraverseAttributedStmt(AttributedStmt *AS) {
    if (auto L = cilk::asParallelLoop(AS, SM); L && L->Kind != LoopKind::ThreadGroup) {
      K.SharedNests.push_back(perfectChain(*L, SM, 3, [](LoopKind Kind) {
        return Kind != LoopKind::ThreadGroup;
      }));
      return true; // loops inside run in one work-item
    }
    return RecursiveASTVisitor::TraverseAttributedStmt(AS);
  }

private:
  const SourceManager &SM;
  Kernel &K;
};

class CilkVisitor : public FunctionScopeVisitor<CilkVisitor> {
public:
  CilkVisitor(ASTContext &Ctx, ProgramModel &Model)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Model(Model) {}

  bool VisitFunctionDecl(FunctionDecl *FD) {
    for (const auto *A : FD->specific_attrs<AnnotateAttr>()) {
      if (A->getAnnotation() != "slmc.cilk.declspec" || A->args_size() < 1)
        continue;
      const auto *SL = dyn_cast<StringLiteral>((*A->args_begin())->IgnoreParenCasts());
      if (!SL)
        continue;
      RestrictionSite Site;
      Site.Dialect = DialectKind::Cilk;
      Site.Function = FD;
      Site.Spelling = keywordRange(SM, A->getLocation());
      Site.Specifiers.push_back(SL->getString().str());
      Site.Parsed.Host = true;
      Site.Parsed.Device = cilk::isGfxFunction(FD) && !cilk::isGfxKernel(FD);
      Restriction &Merged = Model.Restrictions[FD->getCanonicalDecl()];
      Merged.Host |= Site.Parsed.Host;
      Merged.Device |= Site.Parsed.Device;
      Model.RestrictionSites.push_back(std::move(Site));
    }
    return true;
  }

  bool VisitDeclaratorDecl(DeclaratorDecl *D) {
    const AnnotateAttr *A = findAnnotation(D, "slmc.cilk.thread_group_local");
    if (!A || !keywordAppliesToDeclaration(SM, D, A->getLocation()))
      return true;
    const auto *VD = dyn_cast<VarDecl>(D);
    if (!VD || isa<ParmVarDecl>(VD) || !VD->isLocalVarDecl() || VD->isStaticLocal()) {
      if (!isa<FunctionDecl>(D))
        Model.MisplacedGroupLocals.push_back(
            {DialectKind::Cilk, D, keywordRange(SM, A->getLocation())});
      return true;
    }
    GroupLocalVar G;
    G.Dialect = DialectKind::Cilk;
    G.Var = VD;
    G.Function = currentFunction();
    G.Type = VD->getType();
    G.Keyword = keywordRange(SM, A->getLocation());
    G.Init = VD->hasInit() && !isa<CXXConstructExpr>(VD->getInit()->IgnoreImplicit())
                 ? GroupLocalInit::OnceByOneItem
                 : GroupLocalInit::Undefined;
    if (VD->getInit() && isa<CXXConstructExpr>(VD->getInit()->IgnoreImplicit()) &&
        !cast<CXXConstructExpr>(VD->getInit()->IgnoreImplicit())
             ->getConstructor()
             ->isTrivial())
      G.Init = GroupLocalInit::OnceByOneItem;
    if (!G.Type->isDependentType() && !G.Type->isIncompleteType()) {
      G.SizeInBytes = Ctx.getTypeSizeInChars(G.Type).getQuantity();
      G.Alignment = Ctx.getTypeAlignInChars(G.Type).getQuantity();
    }
    Model.GroupLocals.push_back(G);
    return true;
  }

  bool VisitCallExpr(CallExpr *CE) {
    if (const FunctionDecl *Callee = CE->getDirectCallee())
      if (findAnnotation(Callee, "slmc.entry:cilk.barrier"))
        Model.Barriers.push_back({DialectKind::Cilk, CE, currentFunction()});
    return true;
  }

  bool TraverseLambdaExpr(LambdaExpr *LE) {
    unsigned Saved = Depth;
    Depth = 0;
    bool R = FunctionScopeVisitor::TraverseLambdaExpr(LE);
    Depth = Saved;
    return R;
  }

  bool TraverseAttributedStmt(AttributedStmt *AS) {
    auto L = cilk::asParallelLoop(AS, SM);
    if (!L)
      return FunctionScopeVisitor::TraverseAttributedStmt(AS);
    if (Depth == 0)
      addKernel(*L);
    ++Depth;
    bool R = FunctionScopeVisitor::TraverseAttributedStmt(AS);
    --Depth;
    return R;
  }

private:
  void addKernel(const ParallelLoop &L) {
    const FunctionDecl *Fn = currentFunction();
    if (!Fn || SM.isInSystemHeader(SM.getExpansionLoc(L.For->getForLoc())))
      return;
    Kernel K;
    K.Dialect = DialectKind::Cilk;
    K.Body = Fn;
    K.Region = L.Written;
    if (auto P = cilk::offloadPragma(L.Written, SM)) {
      K.OffloadClauses = P->Clauses;
      K.OffloadPragma = P->Hash;
    }
    if (!K.OffloadClauses && !cilk::isGfxKernel(Fn))
      return; // a host loop (or a misplaced _Thread_group: the checker says so)
    if (L.Kind == LoopKind::ThreadGroup) {
      K.UsesWorkGroups = true;
      K.Loops = perfectChain(L, SM, 3, [](LoopKind Kind) { return Kind == LoopKind::ThreadGroup; });
      SharedNestFinder(SM, K).TraverseStmt(const_cast<Stmt *>(K.Loops.back()->getBody()));
      K.Shape.Rank = 1;
      K.Shape.Size[0] = groupThreads(K);
    } else {
      K.Loops = perfectChain(L, SM, 3, [](LoopKind Kind) { return Kind != LoopKind::ThreadGroup; });
    }
    Model.Kernels.push_back(std::move(K));
  }

  /// Work-items per group (docs/user-guide.md): the smallest constant
  /// iteration count among second-level nests of at least 32 iterations,
  /// so that every such nest keeps all work-items busy; when every constant
  /// nest is smaller, the largest of them; rounded up to a multiple of 32
  /// and at most 1024; 256 when no nest has a constant count. Any count is
  /// correct (iterations are dealt out to however many work-items there
  /// are); slmc++ --cilk-group-size=N overrides it.
  uint32_t groupThreads(const Kernel &K) {
    uint64_t SmallestBig = 0, LargestSmall = 0;
    for (const auto &Nest : K.SharedNests) {
      uint64_t N = 1;
      bool Constant = true;
      for (const ForStmt *FS : Nest) {
        auto C = cilk::analyzeLoop(FS);
        auto T = C ? cilk::constantTripCount(*C, Ctx) : std::nullopt;
        if (!T) {
          Constant = false;
          break;
        }
        N *= *T;
      }
      if (!Constant || N == 0)
        continue;
      if (N >= 32)
        SmallestBig = SmallestBig ? std::min(SmallestBig, N) : N;
      else
        LargestSmall = std::max(LargestSmall, N);
    }
    uint64_t Best = SmallestBig ? SmallestBig : LargestSmall;
    if (Best == 0)
      return 256;
    Best = (Best + 31) / 32 * 32;
    return (uint32_t)std::min<uint64_t>(Best, 1024);
  }

  ASTContext &Ctx;
  const SourceManager &SM;
  ProgramModel &Model;
  unsigned Depth = 0;
};

class CilkModelBuilder : public ModelBuilder {
public:
  void build(ASTContext &Ctx, ProgramModel &Model) override {
    CilkVisitor V(Ctx, Model);
    V.TraverseDecl(Ctx.getTranslationUnitDecl());
  }
};

} // namespace

std::unique_ptr<ModelBuilder> createCilkModelBuilder() {
  return std::make_unique<CilkModelBuilder>();
}

} // namespace slmc
