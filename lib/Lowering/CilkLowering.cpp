//===- CilkLowering.cpp - Cilk Plus offload nests to offload C++ ----------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Each offloaded nest becomes a call of slmc/cilk.h with its body as a
// lambda (the loop headers are replaced, bodies stay where they are):
//
//   _Cilk_for _Thread_group (int y = 0; y < Y; y += TY)
//     _Cilk_for _Thread_group (int x = 0; x < X; x += TX) { B }
//   -> ::slmc::cilk::thread_groups<SLMC_CILK_THREADS(256)>("f.cpp:7",
//          make_loop<int>((0), (Y), (TY), lt), make_loop<int>(...),
//          [&](::slmc::cilk::pointer_map &slmc_pointers) { return
//            [=, A = slmc_pointers(A)] SLMC_HD (int y, int x) mutable { B }; });
//
// The nest is passed as a maker of its body, so that the launch gets a body
// whose pointers (and the local arrays it writes) are device-visible and
// the host version, should the device fail it, one with the host's. In B,
// second-level nests become share(...) calls, __thread_group_local data
// becomes SLMC_GROUP_LOCAL (initialised by the master thread, then a
// barrier). A plain offloaded `_Cilk_for` nest becomes parallel_for(...).
// `#pragma offload` becomes an offload_scope around the statement that maps
// its in/out/inout/pin data. Functions declared target(gfx), and every
// function an offloaded nest calls, become host-and-device functions.
//
//===----------------------------------------------------------------------===//
#include "Lowering/Lowering.h"
#include "Model/CilkSyntax.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/Path.h"

using namespace clang;

namespace slmc {
namespace {

class CilkLowering : public DialectLowering {
public:
  void lower(const ProgramModel &Model, LoweringContext &L) override {
    ASTContext &Ctx = L.astContext();
    bool Any = false;
    for (const Kernel &K : Model.Kernels) {
      if (K.Dialect != DialectKind::Cilk)
        continue;
      Any = true;
      lowerKernel(Ctx, Model, K, L);
      for (const auto &[Fn, Edge] : Model.reachableFrom(K.Body))
        if (Fn != K.Body && calledFromRegion(Ctx, Model, K, Fn))
          for (const FunctionDecl *R : Fn->redecls())
            L.makeDeviceCallable(R);
    }
    std::string Registrars;
    for (const RestrictionSite &S : Model.RestrictionSites)
      if (S.Dialect == DialectKind::Cilk) {
        Any = true;
        if (S.Parsed.Device)
          L.makeDeviceCallable(S.Function);
        // _GFX_enqueue("name", ...) finds gfx_kernel functions by name.
        const FunctionDecl *FD = S.Function;
        if (cilk::isGfxKernel(FD) && FD->isThisDeclarationADefinition() &&
            FD->getIdentifier() && !FD->isTemplated() && !isa<CXXMethodDecl>(FD) &&
            L.isUserFile(FD->getLocation()))
          Registrars += "static ::slmc::cilk::kernel_registrar slmc_cilk_registrar_" +
                        std::to_string(L.nextSite()) + "{\"" + FD->getName().str() +
                        "\", &" + FD->getQualifiedNameAsString() + "};\n";
      }
    // The offload pragmas have been read; the passes after lowering would
    // only warn about them.
    const SourceManager &SM = Ctx.getSourceManager();
    for (SourceLocation Hash : cilk::pragmaRecords(SM)->Directives)
      if (L.isUserFile(Hash))
        L.removeDirective(Hash);
    if (!Registrars.empty())
      L.addEpilogue("#include <slmc/cilk_tasks.h>\nnamespace {\n" + Registrars + "}\n");
    for (const GroupLocalVar &G : Model.GroupLocals)
      Any |= G.Dialect == DialectKind::Cilk;
    if (Any)
      L.addPrologue("#include <slmc/cilk.h>");
  }

private:
  const SourceManager &sm(ASTContext &Ctx) { return Ctx.getSourceManager(); }

  std::string text(ASTContext &Ctx, SourceRange R) {
    const SourceManager &SM = sm(Ctx);
    CharSourceRange CR = CharSourceRange::getTokenRange(
        SM.getExpansionLoc(R.getBegin()), SM.getExpansionRange(R.getEnd()).getEnd());
    return Lexer::getSourceText(CR, SM, Ctx.getLangOpts()).str();
  }

  /// Where a statement ends, its terminating semicolon included.
  SourceLocation statementEnd(ASTContext &Ctx, const Stmt *S) {
    const SourceManager &SM = sm(Ctx);
    SourceLocation End = SM.getExpansionRange(S->getEndLoc()).getEnd();
    if (isa<CompoundStmt>(S))
      return End;
    if (auto Next = Lexer::findNextToken(End, SM, Ctx.getLangOpts()); Next && Next->is(tok::semi))
      return Next->getLocation();
    return End;
  }

  std::string loopText(ASTContext &Ctx, const ForStmt *FS, std::string &Param) {
    auto C = cilk::analyzeLoop(FS);
    if (!C)
      return "";
    PrintingPolicy Policy = Ctx.getPrintingPolicy();
    std::string Type = C->Var->getType().getUnqualifiedType().getAsString(Policy);
    Param = Type + " " + C->Var->getName().str();
    std::string Step = C->Step ? "(" + text(Ctx, C->Step->getSourceRange()) + ")" : "1";
    if (C->StepNegated)
      Step = "-" + Step;
    static const char *Cmp[] = {"lt", "le", "gt", "ge", "ne"};
    return "::slmc::cilk::make_loop<" + Type + ">((" + text(Ctx, C->Lo->getSourceRange()) +
           "), (long long)(" + text(Ctx, C->Hi->getSourceRange()) + "), " + Step +
           ", ::slmc::cilk::" + Cmp[unsigned(C->Cmp)] + ")";
  }

  /// Replaces the headers of a perfect nest by
  /// `Call(<Prefix><loops>, <Extra><Capture>(<params>) Tail`, wraps the
  /// innermost body in braces if needed and closes the call (then `After`).
  void replaceNest(ASTContext &Ctx, LoweringContext &L,
                   llvm::ArrayRef<const ForStmt *> Nest, const std::string &Call,
                   const std::string &Prefix, const std::string &Extra,
                   const std::string &Capture, const std::string &Tail,
                   const std::string &After = "", bool Maker = false) {
    const SourceManager &SM = sm(Ctx);
    std::string Loops, Params;
    for (const ForStmt *FS : Nest) {
      std::string Param;
      std::string T = loopText(Ctx, FS, Param);
      if (T.empty())
        return; // the checker reported it
      Loops += T + ", ";
      Params += (Params.empty() ? "" : ", ") + Param;
    }
    const ForStmt *Inner = Nest.back();
    const Stmt *Body = Inner->getBody();
    bool Braced = isa<CompoundStmt>(Body);
    SourceLocation Start = SM.getExpansionLoc(Nest.front()->getForLoc());
    SourceLocation HeaderEnd = SM.getExpansionLoc(Inner->getRParenLoc());
    std::string Open;
    if (Maker)
      Open = std::string("[&](::slmc::cilk::pointer_map &") +
             (Capture == "[=]" ? "" : "slmc_pointers") + ") { return ";
    L.replace(SourceRange(Start, HeaderEnd), Call + "(" + Prefix + Loops + Extra + Open + Capture +
                                                 " SLMC_HD (" + Params + ") " + Tail +
                                                 (Braced ? " " : " {"));
    // Everything after the innermost body up to the end of the outermost
    // loop (closing braces of perfect-nest wrappers) closes the call.
    SourceLocation BodyEnd = statementEnd(Ctx, Body);
    SourceLocation NestEnd = statementEnd(Ctx, Nest.front());
    std::string Close = std::string(Braced ? "" : " }") + (Maker ? "; });" : ");") + After;
    if (BodyEnd == NestEnd) {
      L.insertAfterToken(BodyEnd, Close);
    } else {
      SourceLocation From = Lexer::getLocForEndOfToken(BodyEnd, 0, SM, Ctx.getLangOpts());
      // Keep the line breaks of what is removed.
      std::string Removed = text(Ctx, SourceRange(From, NestEnd));
      std::string Kept;
      for (char C : Removed)
        if (C == '\n')
          Kept += '\n';
      L.replace(SourceRange(From, NestEnd), Close + Kept);
    }
  }

  /// Whether `Ref`, a use of an array, only reads an element (a[i], a[i][j]
  /// converted to a value); anything else may write through it.
  static bool onlyReadsElement(ASTContext &Ctx, const DeclRefExpr *Ref) {
    const Expr *E = Ref;
    for (;;) {
      auto Parents = Ctx.getParents(*E);
      if (Parents.size() != 1)
        return false;
      const Expr *P = Parents[0].get<Expr>();
      if (!P)
        return false;
      if (const auto *Cast = dyn_cast<ImplicitCastExpr>(P)) {
        if (Cast->getCastKind() == CK_LValueToRValue)
          return E != Ref; // an element's value, not the array's
        if (Cast->getCastKind() != CK_ArrayToPointerDecay)
          return false;
      } else if (const auto *Sub = dyn_cast<ArraySubscriptExpr>(P)) {
        if (Sub->getBase()->IgnoreParenImpCasts() != E->IgnoreParenImpCasts())
          return false; // the array as an index?
      } else if (!isa<ParenExpr>(P)) {
        return false;
      }
      E = P;
    }
  }

  /// Variables declared outside the nest that it reaches through memory:
  /// pointers, and local arrays it may write (a copy in the kernel, what
  /// `[=]` makes of an array, would lose the writes).
  struct ByPointer {
    std::vector<const VarDecl *> Pointers, Arrays;
  };
  ByPointer byPointer(ASTContext &Ctx, const Kernel &K) {
    struct Refs : RecursiveASTVisitor<Refs> {
      std::vector<const VarDecl *> Vars;
      llvm::DenseSet<const VarDecl *> WrittenArrays;
      ASTContext *Ctx = nullptr;
      bool VisitDeclRefExpr(DeclRefExpr *DRE) {
        const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        if (!VD)
          return true;
        if (!llvm::is_contained(Vars, VD))
          Vars.push_back(VD);
        if (VD->getType()->isConstantArrayType() && !onlyReadsElement(*Ctx, DRE))
          WrittenArrays.insert(VD);
        return true;
      }
    } R;
    R.Ctx = &Ctx;
    R.TraverseStmt(const_cast<Stmt *>(K.Region));
    ByPointer Out;
    for (const VarDecl *VD : R.Vars) {
      if (VD->hasGlobalStorage() ||
          writtenWithin(sm(Ctx), K.Region->getSourceRange(), VD->getLocation()))
        continue;
      if (VD->getType()->isPointerType())
        Out.Pointers.push_back(VD);
      else if (R.WrittenArrays.contains(VD))
        Out.Arrays.push_back(VD);
    }
    return Out;
  }

  /// The capture list: pointers and written arrays through the nest's
  /// pointer_map, the rest by copy.
  std::string pointerCaptures(ASTContext &Ctx, const Kernel &K) {
    ByPointer B = byPointer(Ctx, K);
    std::string Out = "[=";
    for (const VarDecl *VD : B.Pointers)
      Out += ", " + VD->getName().str() + " = slmc_pointers(" + VD->getName().str() + ")";
    for (const VarDecl *VD : B.Arrays)
      Out += ", " + VD->getName().str() + " = slmc_pointers.array(" + VD->getName().str() + ")";
    return Out + "]";
  }

  std::string where(ASTContext &Ctx, const Kernel &K) {
    PresumedLoc P = sm(Ctx).getPresumedLoc(sm(Ctx).getExpansionLoc(K.Loops.front()->getForLoc()));
    if (P.isInvalid())
      return "\"?\"";
    std::string S = llvm::sys::path::filename(P.getFilename()).str() + ":" +
                    std::to_string(P.getLine());
    std::string Q = "\"";
    for (char C : S) {
      if (C == '"' || C == '\\')
        Q += '\\';
      Q += C;
    }
    return Q + "\"";
  }

  void lowerKernel(ASTContext &Ctx, const ProgramModel &Model, const Kernel &K,
                   LoweringContext &L) {
    if (K.Loops.empty())
      return;
    std::string Open, Close;
    if (K.OffloadClauses)
      std::tie(Open, Close) = lowerOffload(Ctx, K, L);
    // (Inserted after the header is replaced: the rewriter cannot replace a
    // range with an insertion at its start.)
    SourceLocation Start = sm(Ctx).getExpansionLoc(K.Loops.front()->getForLoc());
    if (K.UsesWorkGroups) {
      llvm::ArrayRef<const ForStmt *> Loops(K.Loops);
      if (Loops.size() > 2)
        return; // reported
      for (const auto &Nest : K.SharedNests)
        replaceNest(Ctx, L, Nest, "::slmc::cilk::share", "", "", "[=]", "mutable");
      for (const GroupLocalVar &G : Model.GroupLocals)
        if (G.Dialect == DialectKind::Cilk && G.Var &&
            writtenWithin(sm(Ctx), K.Region->getSourceRange(), G.Var->getLocation()))
          lowerGroupLocal(Ctx, G, L);
      replaceNest(Ctx, L, Loops,
                  "::slmc::cilk::thread_groups<SLMC_CILK_THREADS(" +
                      std::to_string(K.Shape.Size[0]) + ")>",
                  where(Ctx, K) + ", ", "",
                  pointerCaptures(Ctx, K), "mutable", Close, /*Maker=*/true);
    } else {
      replaceNest(Ctx, L, K.Loops, "::slmc::cilk::parallel_for", where(Ctx, K) + ", ", "",
                  pointerCaptures(Ctx, K), "mutable", Close, /*Maker=*/true);
    }
    if (!Open.empty())
      L.insertBefore(Start, Open);
    (void)Model;
  }

  /// `#pragma offload`: the statement runs in an offload scope that maps
  /// the clauses' data. Returns the text closing the scope.
  std::pair<std::string, std::string> lowerOffload(ASTContext &Ctx, const Kernel &K,
                                                   LoweringContext &L) {
    std::string Error;
    auto Clauses = cilk::parseOffloadClauses(*K.OffloadClauses, Error);
    if (!Clauses)
      return {};
    std::string Cond = "true", Maps;
    for (const auto &C : *Clauses) {
      if (C.Name == "if")
        Cond = "(" + C.Argument + ")";
      const char *Kind = C.Name == "in"      ? "SLMC_MAP_IN"
                         : C.Name == "out"   ? "SLMC_MAP_OUT"
                         : C.Name == "inout" ? "SLMC_MAP_INOUT"
                         : C.Name == "pin"   ? "SLMC_MAP_PIN"
                                             : nullptr;
      if (!Kind)
        continue;
      for (const std::string &V : C.Vars)
        Maps += " slmc_offload_scope.map(" + V +
                (C.Length.empty() ? "" : ", (" + C.Length + ")") + ", " + Kind + ");";
    }
    // Local arrays the statement writes and no clause names are the host's
    // arrays too: copied to a device that needs it and back.
    for (const VarDecl *VD : byPointer(Ctx, K).Arrays) {
      std::string Name = VD->getName().str();
      bool Named = llvm::any_of(*Clauses, [&](const auto &C) {
        return llvm::is_contained(C.Vars, Name);
      });
      if (!Named)
        Maps += " slmc_offload_scope.map(" + Name + ", SLMC_MAP_INOUT);";
    }
    return {"{ ::slmc::cilk::offload_scope slmc_offload_scope(" + Cond + ");" + Maps + " ",
            " }"};
  }

  void lowerGroupLocal(ASTContext &Ctx, const GroupLocalVar &G, LoweringContext &L) {
    if (G.Init == GroupLocalInit::Undefined || !G.Var->getInit()) {
      // 16-byte alignment lets the backends use vector loads on SLM tiles.
      L.replace(G.Keyword, "SLMC_GROUP_LOCAL __attribute__((aligned(16)))");
      return;
    }
    auto Parents = Ctx.getParents(*G.Var);
    const DeclStmt *DS = Parents.empty() ? nullptr : Parents[0].get<DeclStmt>();
    if (!DS || !DS->isSingleDecl())
      return;
    PrintingPolicy Policy = Ctx.getPrintingPolicy();
    Policy.SuppressScope = false;
    std::string Name = G.Var->getName().str();
    std::string Decl, Temp;
    {
      llvm::raw_string_ostream OS(Decl);
      G.Var->getType().print(OS, Policy, Name);
    }
    {
      llvm::raw_string_ostream OS(Temp);
      G.Var->getType().print(OS, Policy, "slmc_init_" + Name);
    }
    const Expr *Init = G.Var->getInit();
    std::string InitText = text(Ctx, Init->getSourceRange());
    switch (G.Var->getInitStyle()) {
    case VarDecl::CInit: InitText = " = " + InitText; break;
    case VarDecl::ListInit: break;
    default: InitText = "(" + InitText + ")"; break;
    }
    L.replace(DS->getSourceRange(),
              "SLMC_GROUP_LOCAL __attribute__((aligned(16))) " + Decl + "; if (::slmc::cilk::is_master()) { " + Temp +
                  InitText + "; ::slmc::cilk::assign(" + Name + ", slmc_init_" + Name +
                  "); } ::slmc::cilk::barrier();");
  }

  bool calledFromRegion(ASTContext &Ctx, const ProgramModel &Model, const Kernel &K,
                        const FunctionDecl *Fn) {
    // Functions reachable from calls written in the nest (not elsewhere in
    // the enclosing host function).
    struct Calls : RecursiveASTVisitor<Calls> {
      std::vector<const FunctionDecl *> Callees;
      bool VisitCallExpr(CallExpr *CE) {
        if (const FunctionDecl *FD = CE->getDirectCallee())
          Callees.push_back(FD);
        return true;
      }
      bool VisitCXXConstructExpr(CXXConstructExpr *CE) {
        Callees.push_back(CE->getConstructor());
        return true;
      }
    };
    auto It = RegionReach.find(K.Region);
    if (It == RegionReach.end()) {
      Calls C;
      C.TraverseStmt(const_cast<Stmt *>(K.Region));
      llvm::DenseSet<const FunctionDecl *> Set;
      for (const FunctionDecl *Callee : C.Callees) {
        const FunctionDecl *Def = nullptr;
        if (!Callee->hasBody(Def))
          continue;
        for (const auto &[F, E] : Model.reachableFrom(Def))
          Set.insert(F);
      }
      It = RegionReach.insert({K.Region, std::move(Set)}).first;
    }
    (void)Ctx;
    return It->second.count(Fn);
  }

  llvm::DenseMap<const Stmt *, llvm::DenseSet<const FunctionDecl *>> RegionReach;
};

} // namespace

std::unique_ptr<DialectLowering> createCilkLowering() {
  return std::make_unique<CilkLowering>();
}

} // namespace slmc
