//===- RaceChecker.cpp - Missing barriers over group-local memory ---------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Between two barriers, a group-local element written by one work-item and
// read or written by another is a data race. This check only reports what it
// can prove: it walks the kernel body's statements in order, keeps the
// accesses since the last barrier, and evaluates each index (and each
// enclosing `if` condition) for every work-item of the static group shape.
// An index or condition that is not integer arithmetic on local ids,
// constants and read-only locals initialised from them makes the access
// unanalysable, and unanalysable accesses are never reported. Statements
// that may not run (loops, `?:`, `&&`/`||` operands, `if` on other values)
// are skipped; a statement that contains a barrier, a call that may wait on
// one, or a jump ends the interval or the walk. The dialect says which
// expressions are local ids and how its barrier is spelled; group-local
// data is a declared variable (C++ AMP) or storage a call makes (SYCL),
// reached through `*` and through locals that keep their initial value.
//
// Cilk Plus thread groups have no static shape: the work-items are the
// iterations of the second-level nests, and slmc deals iteration k of a nest
// (counted over the nest, innermost loop fastest) out to thread k mod T of
// the group, T known only at run time. Only nests whose loops have constant
// bounds and steps are looked at; their loop variables are the local ids,
// and accesses in serial code (which every thread runs alike) are not. Two
// iterations k and k' of one interval run in different threads exactly when
// T does not divide k - k'. A pair of conflicting accesses is a race for
// every T >= 2 when the differences k - k' of all such pairs have greatest
// common divisor 1 (a T dividing them all would be a common divisor); so
// iteration t writing part[t] and iteration t reading part[t + 1] race,
// while reading part[t + 2] does not for T = 2, and is not reported.
//
// C for Metal thread groups are sized by the host when it launches the
// kernel. A group of two or more threads has two threads whose local ids
// differ in one dimension and are 0 elsewhere, (0, 0, 0) and (1, 0, 0) or
// (0, 1, 0) or (0, 0, 1); their linear ids are 0 and 1 in each case. So
// the walk runs for each of these three groups of two, and what it finds in
// all three (with no index depending on the group's size, which is not a
// local id) is a race in every group of two threads or more. SLM is reached
// from a handle that a local holds from cm_slm_alloc, by
// cm_slm_block_read/write at a byte offset, or lane by lane by the scattered
// reads, writes and atomics at a vector of addresses whose elements the walk
// computes (vectors made from scalars, constant tables or fill loops, and
// element-wise arithmetic); accesses through different handles are not
// compared, and atomics do not race with each other.
//
//===----------------------------------------------------------------------===//
#include "Checks/Checker.h"
#include "Model/CilkSyntax.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseSet.h"

#include <map>
#include <set>
#include <numeric>

using namespace clang;

namespace slmc {
namespace {

using Item = std::array<int64_t, 3>;
using Element = llvm::SmallVector<int64_t, 3>;

/// Where an access sits: for each block from the kernel body down, the
/// statement of that block that holds it and whether the block runs under
/// an `if` on the work-item.
struct Step {
  const CompoundStmt *Block;
  const Stmt *Child;
  bool Guarded;
  bool InNest = false; // in a Cilk nest's body, where no barrier may go
};

/// A Cilk Plus second-level nest with constant loops: its iteration
/// (i0, i1, i2) gives loop d's variable the value First[d] + Step[d] * id.
struct Nest {
  llvm::SmallVector<const VarDecl *, 3> Vars;
  llvm::SmallVector<int64_t, 3> First, Stride, Count;

  /// The iteration's number in the nest, the innermost loop fastest.
  int64_t linear(const std::array<int64_t, 3> &L) const {
    int64_t K = 0;
    for (size_t D = 0; D < Vars.size(); ++D)
      K = K * Count[D] + L[D];
    return K;
  }
};

struct Access {
  const GroupLocalVar *Var;
  std::string Name; // the data as the access spells it: `s`, `(*tile)`
  const Expr *E;
  bool Read, Write;
  llvm::SmallVector<Step, 4> Path;
  std::vector<Item> Who;       // the work-items that make it
  std::vector<Element> Where;  // the element each of them accesses
  const Nest *In = nullptr;    // Cilk: the nest whose iterations Who are
  // C for Metal: a block of Bytes at Offset from the handle's SLM, or
  // (scattered) Bytes at Addresses[i] * Scale + 4 * c for each lane i and
  // channel c; Where holds each byte.
  const VarDecl *Handle = nullptr;
  const Expr *Offset = nullptr;
  int64_t Bytes = 0;
  const Expr *Addresses = nullptr;
  int64_t Scale = 0;
  llvm::SmallVector<int, 4> Channels;
  bool Atomic = false; // atomics do not race with each other
};

std::optional<int64_t> integerConstant(const ASTContext &Ctx, const Expr *E) {
  if (E->isValueDependent())
    return std::nullopt;
  if (std::optional<llvm::APSInt> V = E->IgnoreImpCasts()->getIntegerConstantExpr(Ctx))
    if (V->getSignificantBits() <= 63)
      return V->getExtValue();
  return std::nullopt;
}

/// A local that is never written after its initialisation (every use reads
/// its value), so its value is its initializer's.
class ReadOnlyLocals : public RecursiveASTVisitor<ReadOnlyLocals> {
  llvm::DenseSet<const DeclRefExpr *> Reads;
  llvm::DenseSet<const VarDecl *> Written;
  std::vector<const VarDecl *> Declared;
  llvm::DenseSet<const VarDecl *> Inside; // declared in the body

public:
  llvm::DenseMap<const VarDecl *, const Expr *> Values;

  /// A local pointer or handle (or a reference, which cannot be rebound)
  /// whose value is always its initializer's.
  bool keepsInitialValue(const VarDecl *VD) const {
    return Inside.count(VD) && !VD->isStaticLocal() && VD->getInit() &&
           (VD->getType()->isReferenceType() || !Written.count(VD));
  }

  explicit ReadOnlyLocals(const Stmt *Body) {
    TraverseStmt(const_cast<Stmt *>(Body));
    for (const VarDecl *VD : Declared)
      if (!Written.count(VD))
        Values[VD] = VD->getInit();
  }
  bool VisitImplicitCastExpr(ImplicitCastExpr *ICE) {
    if (ICE->getCastKind() == CK_LValueToRValue)
      if (const auto *DRE =
              dyn_cast<DeclRefExpr>(ICE->getSubExpr()->IgnoreParens()))
        Reads.insert(DRE);
    return true;
  }
  /// A vector (C for Metal's) filled element by element by one loop,
  /// `for (int i = 0; i < N; ++i) v(i) = f(i);`, and otherwise only read.
  struct Fill {
    const VarDecl *Index;
    const Expr *Value;
    uint64_t Count;
  };
  llvm::DenseMap<const VarDecl *, Fill> Fills;
  llvm::DenseSet<const VarDecl *> Refilled;

  const Fill *fillOf(const VarDecl *VD) const {
    auto It = Fills.find(VD);
    if (It == Fills.end() || Refilled.count(VD) || Written.count(VD) ||
        !Inside.count(VD) || VD->isStaticLocal())
      return nullptr;
    const auto *Init = dyn_cast_or_null<CXXConstructExpr>(VD->getInit());
    return Init && Init->getNumArgs() == 0 ? &It->second : nullptr;
  }

  bool VisitForStmt(ForStmt *FS) {
    auto C = cilk::analyzeLoop(FS);
    if (!C || C->StepNegated || C->Cmp != cilk::Compare::LT)
      return true;
    const auto *BO = dyn_cast_or_null<BinaryOperator>(cilk::onlyStatement(FS->getBody()));
    if (!BO || BO->getOpcode() != BO_Assign)
      return true;
    const auto *OC = dyn_cast<CXXOperatorCallExpr>(BO->getLHS()->IgnoreParens());
    if (!OC || OC->getNumArgs() != 2 ||
        (OC->getOperator() != OO_Call && OC->getOperator() != OO_Subscript))
      return true;
    auto *V = dyn_cast<DeclRefExpr>(OC->getArg(0)->IgnoreParenImpCasts());
    const auto *I = dyn_cast<DeclRefExpr>(OC->getArg(1)->IgnoreParenImpCasts());
    const auto *VD = V ? dyn_cast<VarDecl>(V->getDecl()) : nullptr;
    const ASTContext &Ctx = C->Var->getASTContext();
    std::optional<uint64_t> Count = cilk::constantTripCount(*C, Ctx);
    std::optional<llvm::APSInt> Lo =
        C->Lo->isValueDependent() ? std::nullopt : C->Lo->getIntegerConstantExpr(Ctx);
    std::optional<llvm::APSInt> Step =
        !C->Step ? std::optional(llvm::APSInt::get(1))
        : C->Step->isValueDependent() ? std::nullopt
                                      : C->Step->getIntegerConstantExpr(Ctx);
    if (!VD || !I || I->getDecl() != C->Var || !Count || !Lo || *Lo != 0 ||
        !Step || *Step != 1)
      return true;
    Reads.insert(V); // the fill, not a write
    if (!Fills.try_emplace(VD, Fill{C->Var, BO->getRHS(), *Count}).second)
      Refilled.insert(VD);
    return true;
  }

  /// An argument bound to a const reference parameter is only read (a CM
  /// vector passed to an operator or a constructor).
  void readThroughConstReference(const Expr *Arg, QualType Param) {
    if (!Param->isReferenceType() ||
        !Param->getPointeeType().isConstQualified())
      return;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Arg->IgnoreParenImpCasts()))
      Reads.insert(DRE);
  }
  bool VisitCallExpr(CallExpr *CE) {
    const FunctionDecl *FD = CE->getDirectCallee();
    if (!FD)
      return true;
    // A member operator's object is its first argument.
    unsigned Skip = isa<CXXOperatorCallExpr>(CE) && isa<CXXMethodDecl>(FD) ? 1 : 0;
    for (unsigned I = Skip; I < CE->getNumArgs() && I - Skip < FD->getNumParams(); ++I)
      readThroughConstReference(CE->getArg(I), FD->getParamDecl(I - Skip)->getType());
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *CE) {
    const CXXConstructorDecl *Ctor = CE->getConstructor();
    for (unsigned I = 0; Ctor && I < CE->getNumArgs() && I < Ctor->getNumParams(); ++I)
      readThroughConstReference(CE->getArg(I), Ctor->getParamDecl(I)->getType());
    return true;
  }

  /// A const member (`*p` of a SYCL multi_ptr) only reads its object;
  /// but C for Metal's const v(i) and v[i] give a writable element of v.
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *OC) {
    bool Element = OC->getOperator() == OO_Call || OC->getOperator() == OO_Subscript;
    if (const auto *M = dyn_cast_or_null<CXXMethodDecl>(OC->getDirectCallee()))
      if (M->isConst() && OC->getNumArgs() >= 1 &&
          !(Element && M->getReturnType()->isLValueReferenceType() &&
            !M->getReturnType()->getPointeeType().isConstQualified()))
        if (const auto *DRE =
                dyn_cast<DeclRefExpr>(OC->getArg(0)->IgnoreParenImpCasts()))
          Reads.insert(DRE);
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    // Casts are visited before the references inside them.
    // A const local may be passed by reference (a CM vector built from it).
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (!Reads.count(DRE) && !VD->getType().isConstQualified())
        Written.insert(VD);
    return true;
  }
  bool VisitVarDecl(VarDecl *VD) {
    if (VD->isLocalVarDecl())
      Inside.insert(VD);
    if (VD->isLocalVarDecl() && !VD->isStaticLocal() && VD->getInit() &&
        VD->getType()->isIntegralOrEnumerationType() &&
        !VD->getType()->isReferenceType())
      Declared.push_back(VD);
    return true;
  }
};

/// Which pairs of accesses (the earlier one, the later one) a walk found.
using Findings = std::set<std::pair<const Expr *, const Expr *>>;

class RaceWalk {
  ASTContext &Ctx;
  const ProgramModel &Model;
  const Kernel &K;
  GroupShape Shape;
  Findings *Found = nullptr;      // record, do not report
  const Findings *Only = nullptr; // report only these
  Reporter &R;
  const RaceRule &Rule;
  llvm::DenseSet<const Expr *> BarrierCalls;
  llvm::DenseSet<const FunctionDecl *> Waits;
  ReadOnlyLocals Locals;
  std::vector<Item> Items;
  std::vector<Access> Interval;
  llvm::SmallVector<Step, 4> Path;
  llvm::SmallVector<std::pair<const Expr *, bool>, 4> Guards;
  llvm::DenseSet<const Expr *> Reported;
  bool Stopped = false;
  std::vector<std::unique_ptr<Nest>> Nests;
  const Nest *CurrentNest = nullptr;
  // Loop variables given a value (a fill loop's index, element by element).
  mutable llvm::SmallVector<std::pair<const VarDecl *, int64_t>, 2> Bindings;

public:
  RaceWalk(ASTContext &Ctx, const ProgramModel &Model, const Kernel &K,
           Reporter &R, const RaceRule &Rule, const Stmt *Body,
           const GroupShape &Shape, Findings *Found = nullptr,
           const Findings *Only = nullptr)
      : Ctx(Ctx), Model(Model), K(K), Shape(Shape), Found(Found), Only(Only),
        R(R), Rule(Rule), Locals(Body) {
    for (const BarrierSite &B : Model.Barriers)
      if (B.Dialect == Rule.Dialect)
        BarrierCalls.insert(B.Call);
    // Making group-local data (SYCL's group_local_memory) may end with a
    // barrier that publishes its initial value.
    for (const GroupLocalVar &G : Model.GroupLocals)
      if (G.Dialect == Rule.Dialect && G.Call)
        BarrierCalls.insert(G.Call);
    Waits = functionsThatWait(Model, K.Body, Rule.Dialect);
    if (Rule.SharedNests)
      return; // work-items exist inside nests only
    for (int64_t A = 0; A < Shape.Size[0]; ++A)
      for (int64_t B = 0; B < Shape.Size[1]; ++B)
        for (int64_t C = 0; C < Shape.Size[2]; ++C)
          Items.push_back({A, B, C});
  }

  void walk(const Stmt *S) {
    if (Stopped || !S)
      return;
    if (mayWait(S)) {
      // Straight-line barriers end the interval; one inside a loop or a
      // branch ends it too (nothing before it is paired with anything
      // after it, and nothing inside is looked at).
      if (const auto *CS = dyn_cast<CompoundStmt>(S))
        return walkBlock(CS);
      Interval.clear();
      return;
    }
    if (jumps(S)) {
      Stopped = true;
      return;
    }
    if (Rule.SharedNests && !CurrentNest)
      if (const llvm::SmallVector<const ForStmt *, 3> *Loops = sharedNest(S))
        return walkNest(*Loops);
    if (const auto *CS = dyn_cast<CompoundStmt>(S))
      return walkBlock(CS);
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      if (If->getInit() || If->getConditionVariable() || If->isConsteval() ||
          !evaluable(If->getCond()))
        return; // may or may not run: not provable
      Guards.push_back({If->getCond(), true});
      walkGuarded(If->getThen());
      Guards.back().second = false;
      walkGuarded(If->getElse());
      Guards.pop_back();
      return;
    }
    if (Rule.SharedNests && !CurrentNest)
      return; // serial code: every thread alike
    if (isa<Expr>(S) || isa<DeclStmt>(S) || isa<NullStmt>(S)) {
      std::vector<Access> New;
      collect(S, New);
      for (Access &A : New)
        if (locate(A))
          add(std::move(A));
    }
    // Loops, switches and the rest may not run: skipped.
  }

private:
  void walkBlock(const CompoundStmt *CS) {
    bool Guarded = !Guards.empty();
    for (const Stmt *Child : CS->body()) {
      Path.push_back({CS, Child, Guarded, CurrentNest != nullptr});
      walk(Child);
      Path.pop_back();
    }
  }

  /// A branch that is not a block is its own block level for fix-its.
  void walkGuarded(const Stmt *S) {
    if (!S)
      return;
    if (isa<CompoundStmt>(S))
      return walk(S);
    Path.push_back({nullptr, S, true, CurrentNest != nullptr});
    walk(S);
    Path.pop_back();
  }

  /// The second-level nest `S` starts, if it is one of the kernel's.
  const llvm::SmallVector<const ForStmt *, 3> *sharedNest(const Stmt *S) const {
    auto L = cilk::asParallelLoop(S, Ctx.getSourceManager());
    if (!L)
      return nullptr;
    for (const auto &Loops : K.SharedNests)
      if (!Loops.empty() && Loops.front() == L->For)
        return &Loops;
    return nullptr;
  }

  /// Walks the body of a nest once, for all its iterations; a nest whose
  /// loops are not constant is not looked at.
  void walkNest(const llvm::SmallVector<const ForStmt *, 3> &Loops) {
    auto N = std::make_unique<Nest>();
    uint64_t Total = 1;
    for (const ForStmt *FS : Loops) {
      auto C = cilk::analyzeLoop(FS);
      std::optional<uint64_t> Count = C ? cilk::constantTripCount(*C, Ctx) : std::nullopt;
      auto Constant = [&](const Expr *E) -> std::optional<int64_t> {
        if (!E)
          return 1;
        if (E->isValueDependent())
          return std::nullopt;
        if (auto V = E->getIntegerConstantExpr(Ctx); V && V->getSignificantBits() <= 32)
          return V->getExtValue();
        return std::nullopt;
      };
      std::optional<int64_t> First = C ? Constant(C->Lo) : std::nullopt;
      std::optional<int64_t> Stride = C ? Constant(C->Step) : std::nullopt;
      if (!Count || !*Count || !First || !Stride || !C->Var->getType()->isIntegerType())
        return;
      Total *= *Count;
      if (Total > 4096)
        return;
      N->Vars.push_back(C->Var);
      N->First.push_back(*First);
      N->Stride.push_back(C->StepNegated ? -*Stride : *Stride);
      N->Count.push_back(int64_t(*Count));
    }
    CurrentNest = N.get();
    Nests.push_back(std::move(N));
    Items.clear();
    const Nest &Cur = *CurrentNest;
    for (int64_t A = 0; A < Cur.Count[0]; ++A)
      for (int64_t B = 0; B < (Cur.Count.size() > 1 ? Cur.Count[1] : 1); ++B)
        for (int64_t C = 0; C < (Cur.Count.size() > 2 ? Cur.Count[2] : 1); ++C)
          Items.push_back({A, B, C});
    const Stmt *Body = Loops.back()->getBody();
    if (isa<CompoundStmt>(Body)) {
      walk(Body);
    } else {
      Path.push_back({nullptr, Body, false, true});
      walk(Body);
      Path.pop_back();
    }
    Items.clear();
    CurrentNest = nullptr;
  }

  bool mayWait(const Stmt *S) const {
    if (!S)
      return false;
    if (const auto *E = dyn_cast<Expr>(S); E && BarrierCalls.count(E))
      return true;
    if (const auto *CE = dyn_cast<CallExpr>(S)) {
      const FunctionDecl *Callee = CE->getDirectCallee();
      const FunctionDecl *Def = nullptr;
      if (!Callee)
        return true; // through a pointer: unknown
      if (Callee->hasBody(Def)) {
        if (Waits.count(Def))
          return true;
      } else if (!Callee->getBuiltinID() &&
                 !Ctx.getSourceManager().isInSystemHeader(
                     Callee->getLocation())) {
        return true; // defined elsewhere: unknown
      }
    }
    if (isa<LambdaExpr>(S))
      return false;
    for (const Stmt *C : S->children())
      if (mayWait(C))
        return true;
    return false;
  }

  static bool jumps(const Stmt *S) {
    if (!S || isa<LambdaExpr>(S))
      return false;
    if (isa<ReturnStmt>(S) || isa<BreakStmt>(S) || isa<ContinueStmt>(S) ||
        isa<GotoStmt>(S) || isa<IndirectGotoStmt>(S) || isa<LabelStmt>(S) ||
        isa<CXXThrowExpr>(S) || isa<CoreturnStmt>(S) || isa<CXXTryStmt>(S))
      return true;
    for (const Stmt *C : S->children())
      if (jumps(C))
        return true;
    return false;
  }

  /// What an expression denotes of group-local data: the data itself, a
  /// pointer to its first element (an array decayed, a local pointer
  /// initialised from one), or a handle the data is reached through with
  /// `*` (SYCL's multi_ptr).
  enum class Denotes { Data, FirstElement, Handle };
  struct Resolved {
    const GroupLocalVar *G;
    Denotes Kind;
  };

  std::optional<Resolved> resolve(const Expr *E, unsigned Depth = 0) const {
    if (!E || Depth > 16)
      return std::nullopt;
    E = E->IgnoreParens();
    if (const auto *FE = dyn_cast<FullExpr>(E))
      return resolve(FE->getSubExpr(), Depth + 1);
    if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(E))
      return resolve(MT->getSubExpr(), Depth + 1);
    if (const auto *BT = dyn_cast<CXXBindTemporaryExpr>(E))
      return resolve(BT->getSubExpr(), Depth + 1);
    if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E)) {
      switch (ICE->getCastKind()) {
      case CK_LValueToRValue:
      case CK_NoOp:
        return resolve(ICE->getSubExpr(), Depth + 1);
      case CK_ArrayToPointerDecay: {
        auto R = resolve(ICE->getSubExpr(), Depth + 1);
        if (R && R->Kind == Denotes::Data)
          return Resolved{R->G, Denotes::FirstElement};
        return std::nullopt;
      }
      default:
        return std::nullopt;
      }
    }
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
      // A copy of a handle is the same handle.
      const CXXConstructorDecl *Ctor = CE->getConstructor();
      if (CE->getNumArgs() == 1 && Ctor &&
          (Ctor->isCopyConstructor() || Ctor->isMoveConstructor())) {
        auto R = resolve(CE->getArg(0), Depth + 1);
        if (R && R->Kind == Denotes::Handle)
          return R;
      }
      return std::nullopt;
    }
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(Call)) {
        if (OC->getOperator() != OO_Star || OC->getNumArgs() != 1)
          return std::nullopt;
        auto R = resolve(OC->getArg(0), Depth + 1);
        if (R && R->Kind == Denotes::Handle)
          return Resolved{R->G, Denotes::Data};
        return std::nullopt;
      }
      for (const GroupLocalVar &G : Model.GroupLocals)
        if (G.Call == Call && G.Dialect == Rule.Dialect)
          return Resolved{&G, Denotes::Handle};
      return std::nullopt;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      if (!VD)
        return std::nullopt;
      if (const GroupLocalVar *G = Model.groupLocal(VD))
        return G->Dialect == Rule.Dialect
                   ? std::optional(Resolved{G, Denotes::Data})
                   : std::nullopt;
      if (Locals.keepsInitialValue(VD))
        return resolve(VD->getInit(), Depth + 1);
    }
    return std::nullopt;
  }

  /// The group-local data `E` is a scalar element of, through as many
  /// subscripts as the data's array type has, with the data as the access
  /// spells it.
  const GroupLocalVar *element(const Expr *E,
                               llvm::SmallVectorImpl<const Expr *> &Indices,
                               std::string *Name = nullptr) const {
    E = E->IgnoreParens();
    if (!E->getType()->isArithmeticType())
      return nullptr;
    llvm::SmallVector<const Expr *, 3> Reversed;
    const Expr *Base = E;
    for (;;) {
      if (const auto *AS = dyn_cast<ArraySubscriptExpr>(Base)) {
        Reversed.push_back(AS->getIdx());
        Base = AS->getBase()->IgnoreParens();
        continue;
      }
      // a[i][j]: the outer subscript's base is a[i], decayed.
      if (const auto *ICE = dyn_cast<ImplicitCastExpr>(Base);
          ICE && ICE->getCastKind() == CK_ArrayToPointerDecay &&
          isa<ArraySubscriptExpr>(ICE->getSubExpr()->IgnoreParens())) {
        Base = ICE->getSubExpr()->IgnoreParens();
        continue;
      }
      break;
    }
    std::optional<Resolved> R = resolve(Base);
    if (!R || R->Kind == Denotes::Handle ||
        (R->Kind == Denotes::FirstElement) != !Reversed.empty())
      return nullptr;
    QualType T = R->G->Var ? R->G->Var->getType() : R->G->Type;
    unsigned Rank = 0;
    for (; const auto *AT = Ctx.getAsConstantArrayType(T);
         T = AT->getElementType())
      ++Rank;
    if (Rank != Reversed.size() || !T->isArithmeticType())
      return nullptr;
    Indices.assign(Reversed.rbegin(), Reversed.rend());
    if (Name)
      *Name = spellData(R->G, Base);
    return R->G;
  }

  /// The data's name as the access writes it, `s` or `(*tile)`.
  std::string spellData(const GroupLocalVar *G, const Expr *Base) const {
    const SourceManager &SM = Ctx.getSourceManager();
    if (const auto *ICE = dyn_cast<ImplicitCastExpr>(Base))
      Base = ICE->getSubExpr();
    CharSourceRange Range = Lexer::makeFileCharRange(
        CharSourceRange::getTokenRange(Base->getSourceRange()), SM,
        Ctx.getLangOpts());
    llvm::StringRef Text =
        Range.isValid() ? Lexer::getSourceText(Range, SM, Ctx.getLangOpts())
                        : "";
    if (!Text.empty() && Text.size() <= 40 && !Text.contains('\n'))
      return Text.str();
    return G->Var ? G->Var->getName().str() : "group-local data";
  }

  /// The group-local accesses `S` surely makes when it runs.
  void collect(const Stmt *S, std::vector<Access> &Out) const {
    if (!S || isa<LambdaExpr>(S))
      return;
    auto Add = [&](const Expr *E, bool Read, bool Write) {
      llvm::SmallVector<const Expr *, 3> Indices;
      std::string Name;
      if (const GroupLocalVar *G = element(E, Indices, &Name)) {
        Out.push_back({G, std::move(Name), E, Read, Write, {}, {}, {}});
        for (const Expr *I : Indices)
          collect(I, Out);
        return true;
      }
      return false;
    };
    if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
      if (BO->isAssignmentOp() && Add(BO->getLHS(), BO->isCompoundAssignmentOp(), true))
        return collect(BO->getRHS(), Out);
      if (BO->isLogicalOp())
        return collect(BO->getLHS(), Out); // the right side may not run
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(S);
        UO && UO->isIncrementDecrementOp() && Add(UO->getSubExpr(), true, true))
      return;
    if (const auto *ICE = dyn_cast<ImplicitCastExpr>(S);
        ICE && ICE->getCastKind() == CK_LValueToRValue &&
        Add(ICE->getSubExpr(), true, false))
      return;
    if (const auto *CO = dyn_cast<AbstractConditionalOperator>(S))
      return collect(CO->getCond(), Out);
    if (const auto *CE = dyn_cast<CallExpr>(S); CE && Rule.Dialect == DialectKind::Cm)
      if (std::optional<Access> A = slmBlock(CE))
        Out.push_back(std::move(*A));
      else if (std::optional<Access> A = slmScattered(CE))
        Out.push_back(std::move(*A));
    for (const Stmt *C : S->children())
      collect(C, Out);
  }

  /// C for Metal: cm_slm_block_read(handle, offset, dst) and
  /// cm_slm_block_write(handle, offset, src) on a vector or matrix, the
  /// handle a local that keeps the value cm_slm_alloc gave it.
  std::optional<Access> slmBlock(const CallExpr *CE) const {
    const FunctionDecl *FD = CE->getDirectCallee();
    const SourceManager &SM = Ctx.getSourceManager();
    if (!FD || !FD->getIdentifier() || CE->getNumArgs() != 3 ||
        !SM.isInSystemHeader(SM.getExpansionLoc(FD->getLocation())))
      return std::nullopt;
    bool Write = FD->getName() == "cm_slm_block_write";
    if (!Write && FD->getName() != "cm_slm_block_read")
      return std::nullopt;
    const VarDecl *Handle = slmHandle(CE->getArg(0));
    if (!Handle)
      return std::nullopt;
    // vector<T, N> or matrix<T, R, C>, not a reference to part of one.
    const CXXRecordDecl *RD = CE->getArg(2)->getType()->getAsCXXRecordDecl();
    auto Object = cmObject(CE->getArg(2)->getType());
    if (!RD || !Object || RD->getName().ends_with("_ref"))
      return std::nullopt;
    int64_t Bytes = Ctx.getTypeSizeInChars(Object->first).getQuantity() * Object->second;
    if (Bytes <= 0 || Bytes > 256)
      return std::nullopt;
    Access A{nullptr, Handle->getName().str(), CE, !Write, Write, {}, {}, {}};
    A.Handle = Handle;
    A.Offset = CE->getArg(1);
    A.Bytes = Bytes;
    return A;
  }

  /// C for Metal: the local that holds the value cm_slm_alloc gave it
  /// `E` reads.
  const VarDecl *slmHandle(const Expr *E) const {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    const auto *Handle = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!Handle || !Locals.keepsInitialValue(Handle))
      return nullptr;
    const auto *Alloc = dyn_cast<CallExpr>(Handle->getInit()->IgnoreParenImpCasts());
    const FunctionDecl *AllocFn = Alloc ? Alloc->getDirectCallee() : nullptr;
    if (!AllocFn || !AllocFn->getIdentifier() || AllocFn->getName() != "cm_slm_alloc")
      return nullptr;
    return Handle;
  }

  /// The element type and count of a C for Metal object type: vector<T, N>,
  /// matrix<T, R, C> and their _ref views.
  static std::optional<std::pair<QualType, int64_t>> cmObject(QualType T) {
    const auto *RD = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
        T.getNonReferenceType()->getAsCXXRecordDecl());
    if (!RD || !RD->getIdentifier())
      return std::nullopt;
    llvm::StringRef N = RD->getName();
    if (N != "vector" && N != "matrix" && N != "vector_ref" && N != "matrix_ref")
      return std::nullopt;
    const DeclContext *NS = RD->getDeclContext();
    const auto *CM = dyn_cast<NamespaceDecl>(NS);
    if (!CM || CM->getName() != "cm")
      return std::nullopt;
    const TemplateArgumentList &Args = RD->getTemplateArgs();
    if (Args.size() < 2 || Args[0].getKind() != TemplateArgument::Type)
      return std::nullopt;
    int64_t Count = 1;
    for (unsigned I = 1; I < Args.size(); ++I) {
      if (Args[I].getKind() != TemplateArgument::Integral)
        return std::nullopt;
      Count *= Args[I].getAsIntegral().getExtValue();
    }
    if (Count <= 0 || Count > 512)
      return std::nullopt;
    return std::pair(Args[0].getAsType(), Count);
  }

  /// C for Metal's scattered SLM accesses: cm_slm_read/write (elements at
  /// handle + address * element size), their _scaled forms (at handle +
  /// address), cm_slm_read4/write4 (the channels a constant mask enables,
  /// 4 bytes each, at handle + address * 4 + channel * 4) and cm_slm_atomic
  /// (4 bytes at handle + address * 4, read and written).
  std::optional<Access> slmScattered(const CallExpr *CE) const {
    const FunctionDecl *FD = CE->getDirectCallee();
    const SourceManager &SM = Ctx.getSourceManager();
    if (!FD || !FD->getIdentifier() || CE->getNumArgs() < 3 ||
        !SM.isInSystemHeader(SM.getExpansionLoc(FD->getLocation())))
      return std::nullopt;
    llvm::StringRef Name = FD->getName();
    bool Atomic = Name == "cm_slm_atomic";
    bool Four = Name.starts_with("cm_slm_read4") || Name.starts_with("cm_slm_write4");
    bool Scaled = Name.ends_with("_scaled");
    llvm::StringRef Base = Scaled ? Name.drop_back(7) : Name;
    bool Write = Base == "cm_slm_write" || Base == "cm_slm_write4";
    if (!Atomic && !Write && Base != "cm_slm_read" && Base != "cm_slm_read4")
      return std::nullopt;
    const VarDecl *Handle = slmHandle(CE->getArg(0));
    if (!Handle)
      return std::nullopt;
    const Expr *Addresses = CE->getArg(Atomic ? 2 : 1);
    auto Lanes = cmObject(Addresses->getType());
    if (!Lanes)
      return std::nullopt;
    Access A{nullptr, Handle->getName().str(), CE, !Write, Write || Atomic, {}, {}, {}};
    A.Handle = Handle;
    A.Addresses = Addresses;
    A.Atomic = Atomic;
    A.Channels.push_back(0);
    if (Atomic) {
      A.Bytes = 4;
      A.Scale = 4;
      return A;
    }
    auto Data = cmObject(CE->getArg(2)->getType());
    if (!Data || Data->first->isDependentType())
      return std::nullopt;
    A.Bytes = Ctx.getTypeSizeInChars(Data->first).getQuantity();
    A.Scale = Scaled ? 1 : A.Bytes;
    if (Four) {
      std::optional<int64_t> Mask =
          CE->getNumArgs() == 4 ? integerConstant(Ctx, CE->getArg(3)) : std::nullopt;
      if (!Mask || A.Bytes != 4)
        return std::nullopt;
      A.Scale = Scaled ? 1 : 4;
      A.Channels.clear();
      for (int C = 0; C < 4; ++C)
        if (!(*Mask & (1 << C)) &&
            int64_t(A.Channels.size() + 1) * Lanes->second <= Data->second)
          A.Channels.push_back(C);
    }
    return A;
  }

  /// A C for Metal vector's element values for work-item `L` (one value,
  /// Scalar, for a scalar broadcast to every element): vectors made from a
  /// scalar, a constant array, or a fill loop, and element-wise arithmetic
  /// on them.
  struct Lanes {
    llvm::SmallVector<int64_t, 16> V;
    bool Scalar = false;
  };
  std::optional<Lanes> lanes(const Expr *E, const Item &L, unsigned Depth = 0) const {
    if (!E || Depth > 32)
      return std::nullopt;
    E = E->IgnoreParens();
    if (E->getType()->isIntegralOrEnumerationType()) {
      std::optional<int64_t> V = eval(E, L, Depth + 1);
      if (!V)
        return std::nullopt;
      return Lanes{{*V}, true};
    }
    if (const auto *FE = dyn_cast<FullExpr>(E))
      return lanes(FE->getSubExpr(), L, Depth + 1);
    if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(E))
      return lanes(MT->getSubExpr(), L, Depth + 1);
    if (const auto *BT = dyn_cast<CXXBindTemporaryExpr>(E))
      return lanes(BT->getSubExpr(), L, Depth + 1);
    if (const auto *CE = dyn_cast<CastExpr>(E)) {
      switch (CE->getCastKind()) {
      case CK_NoOp:
      case CK_LValueToRValue:
      case CK_ConstructorConversion:
        return lanes(CE->getSubExpr(), L, Depth + 1);
      default:
        return std::nullopt;
      }
    }
    auto Object = cmObject(E->getType());
    if (!Object)
      return std::nullopt;
    auto [Element, Count] = *Object;
    // The values an element of type `Element` holds; none if one would
    // not fit.
    auto Fit = [&, Element = Element, Count = Count](std::optional<Lanes> In) -> std::optional<Lanes> {
      if (!In || !Element->isIntegerType())
        return std::nullopt;
      if (In->Scalar)
        In->V.assign(Count, In->V[0]);
      if (int64_t(In->V.size()) != Count)
        return std::nullopt;
      In->Scalar = false;
      unsigned Bits = Ctx.getIntWidth(Element);
      bool Signed = Element->isSignedIntegerType();
      for (int64_t V : In->V)
        if (Signed ? !llvm::isIntN(std::min(Bits, 64u), V)
                   : V < 0 || (Bits < 63 && V >> Bits))
          return std::nullopt;
      return In;
    };
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
      if (CE->getNumArgs() != 1)
        return std::nullopt;
      const Expr *Arg = CE->getArg(0)->IgnoreParenImpCasts();
      if (const auto *DRE = dyn_cast<DeclRefExpr>(Arg);
          DRE && Ctx.getAsConstantArrayType(Arg->getType())) {
        // vector<T, N> v(table): the first N elements of a constant array.
        const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        const auto *Init = VD && VD->getType().isConstant(Ctx)
                               ? dyn_cast_or_null<InitListExpr>(VD->getInit())
                               : nullptr;
        if (!Init || Init->getNumInits() < Count)
          return std::nullopt;
        Lanes Out;
        for (int64_t I = 0; I < Count; ++I) {
          std::optional<int64_t> V = integerConstant(Ctx, Init->getInit(I));
          if (!V)
            return std::nullopt;
          Out.V.push_back(*V);
        }
        return Fit(Out);
      }
      return Fit(lanes(CE->getArg(0), L, Depth + 1));
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      if (!VD)
        return std::nullopt;
      if (const ReadOnlyLocals::Fill *F = Locals.fillOf(VD)) {
        if (int64_t(F->Count) != Count)
          return std::nullopt;
        Lanes Out;
        for (int64_t I = 0; I < Count; ++I) {
          Bindings.push_back({F->Index, I});
          std::optional<int64_t> V = eval(F->Value, L, Depth + 1);
          Bindings.pop_back();
          if (!V)
            return std::nullopt;
          Out.V.push_back(*V);
        }
        return Fit(Out);
      }
      if (Locals.keepsInitialValue(VD) && !VD->getType()->isReferenceType())
        return lanes(VD->getInit(), L, Depth + 1);
      return std::nullopt;
    }
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E)) {
      const FunctionDecl *FD = OC->getDirectCallee();
      const SourceManager &SM = Ctx.getSourceManager();
      if (!FD || OC->getNumArgs() != 2 || isa<CXXMethodDecl>(FD) ||
          !SM.isInSystemHeader(SM.getExpansionLoc(FD->getLocation())))
        return std::nullopt;
      BinaryOperatorKind Op;
      switch (OC->getOperator()) {
      case OO_Plus: Op = BO_Add; break;
      case OO_Minus: Op = BO_Sub; break;
      case OO_Star: Op = BO_Mul; break;
      case OO_Slash: Op = BO_Div; break;
      case OO_Percent: Op = BO_Rem; break;
      case OO_Amp: Op = BO_And; break;
      case OO_Pipe: Op = BO_Or; break;
      case OO_Caret: Op = BO_Xor; break;
      case OO_LessLess: Op = BO_Shl; break;
      case OO_GreaterGreater: Op = BO_Shr; break;
      default: return std::nullopt;
      }
      std::optional<Lanes> A = lanes(OC->getArg(0), L, Depth + 1);
      std::optional<Lanes> B = A ? lanes(OC->getArg(1), L, Depth + 1) : std::nullopt;
      if (!A || !B || (A->Scalar && B->Scalar))
        return std::nullopt;
      size_t N = A->Scalar ? B->V.size() : A->V.size();
      if ((!A->Scalar && A->V.size() != N) || (!B->Scalar && B->V.size() != N))
        return std::nullopt;
      Lanes Out;
      for (size_t I = 0; I < N; ++I) {
        std::optional<int64_t> V = apply(Op, A->V[A->Scalar ? 0 : I], B->V[B->Scalar ? 0 : I]);
        if (!V)
          return std::nullopt;
        Out.V.push_back(*V);
      }
      return Fit(Out);
    }
    return std::nullopt;
  }

  /// `E`'s value for work-item `L`; none where an unsigned value would
  /// wrap around (the arithmetic here is on mathematical integers).
  std::optional<int64_t> eval(const Expr *E, const Item &L,
                              unsigned Depth = 0) const {
    std::optional<int64_t> V = evalUnchecked(E, L, Depth);
    if (V && *V < 0 && E->getType()->isUnsignedIntegerOrEnumerationType())
      return std::nullopt;
    return V;
  }

  std::optional<int64_t> evalUnchecked(const Expr *E, const Item &L,
                                       unsigned Depth) const {
    if (!E || Depth > 32)
      return std::nullopt;
    E = E->IgnoreParens();
    if (const auto *FE = dyn_cast<FullExpr>(E))
      return eval(FE->getSubExpr(), L, Depth + 1);
    if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(E))
      return eval(MT->getSubExpr(), L, Depth + 1);
    if (CurrentNest)
      if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
        for (size_t D = 0; D < CurrentNest->Vars.size(); ++D)
          if (DRE->getDecl() == CurrentNest->Vars[D])
            return CurrentNest->First[D] + CurrentNest->Stride[D] * L[D];
    if (std::optional<unsigned> Dim = Rule.LocalId ? Rule.LocalId(E) : std::nullopt)
      return localId(*Dim, L);
    if (!E->isValueDependent() && E->getType()->isIntegralOrEnumerationType())
      if (std::optional<llvm::APSInt> V = E->getIntegerConstantExpr(Ctx))
        if (V->getSignificantBits() <= 32)
          return V->getExtValue();
    if (const auto *CE = dyn_cast<CastExpr>(E)) {
      switch (CE->getCastKind()) {
      case CK_LValueToRValue:
      case CK_NoOp:
      case CK_IntegralCast:
        return eval(CE->getSubExpr(), L, Depth + 1);
      case CK_IntegralToBoolean:
        if (auto V = eval(CE->getSubExpr(), L, Depth + 1))
          return *V != 0;
        return std::nullopt;
      default:
        return std::nullopt;
      }
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      for (auto [Var, Value] : Bindings)
        if (Var == VD)
          return Value;
      auto It = VD ? Locals.Values.find(VD) : Locals.Values.end();
      if (It == Locals.Values.end())
        return std::nullopt;
      return eval(It->second, L, Depth + 1);
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      auto V = eval(UO->getSubExpr(), L, Depth + 1);
      if (!V)
        return std::nullopt;
      switch (UO->getOpcode()) {
      case UO_Plus: return V;
      case UO_Minus: return -*V;
      case UO_LNot: return *V == 0;
      default: return std::nullopt;
      }
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      auto A = eval(BO->getLHS(), L, Depth + 1);
      auto B = eval(BO->getRHS(), L, Depth + 1);
      if (!A || !B)
        return std::nullopt;
      return apply(BO->getOpcode(), *A, *B);
    }
    return std::nullopt;
  }

  /// `A Op B` on mathematical integers; none outside 32 bits.
  static std::optional<int64_t> apply(BinaryOperatorKind Op, int64_t A0, int64_t B0) {
    auto Bounded = [](int64_t V) -> std::optional<int64_t> {
      if (V > INT32_MAX || V < INT32_MIN)
        return std::nullopt;
      return V;
    };
    std::optional<int64_t> A = A0, B = B0;
    {
      switch (Op) {
      case BO_Add: return Bounded(*A + *B);
      case BO_Sub: return Bounded(*A - *B);
      case BO_Mul: return Bounded(*A * *B);
      case BO_Div: return *B ? Bounded(*A / *B) : std::nullopt;
      case BO_Rem: return *B ? Bounded(*A % *B) : std::nullopt;
      case BO_Shl: return *A >= 0 && *B >= 0 && *B < 31 ? Bounded(*A << *B) : std::nullopt;
      case BO_Shr: return *A >= 0 && *B >= 0 && *B < 63 ? std::optional<int64_t>(*A >> *B) : std::nullopt;
      case BO_And: return *A & *B;
      case BO_Or: return *A | *B;
      case BO_Xor: return *A ^ *B;
      case BO_LT: return *A < *B;
      case BO_GT: return *A > *B;
      case BO_LE: return *A <= *B;
      case BO_GE: return *A >= *B;
      case BO_EQ: return *A == *B;
      case BO_NE: return *A != *B;
      case BO_LAnd: return *A && *B;
      case BO_LOr: return *A || *B;
      default: return std::nullopt;
      }
    }
    return std::nullopt;
  }

  std::optional<int64_t> localId(unsigned Dim, const Item &L) const {
    const uint32_t *Size = Shape.Size;
    switch (Dim) {
    case 0: case 1: case 2:
      return L[Dim];
    case RaceRule::LinearLastFastest: {
      unsigned Rank = std::max(1u, Shape.Rank);
      int64_t Id = 0;
      for (unsigned I = 0; I < Rank; ++I)
        Id = Id * Size[I] + L[I];
      return Id;
    }
    case RaceRule::LinearFirstFastest:
      return L[0] + Size[0] * (L[1] + int64_t(Size[1]) * L[2]);
    default:
      return std::nullopt;
    }
  }

  bool evaluable(const Expr *E) const {
    for (const Item &L : Items)
      if (!eval(E, L))
        return false;
    return true;
  }

  /// Fills in which work-items make `A` and where; false when that is not
  /// known for every work-item.
  bool locate(Access &A) const {
    llvm::SmallVector<const Expr *, 3> Indices;
    if (!A.Offset)
      element(A.E, Indices);
    A.Path = Path;
    A.In = CurrentNest;
    for (const Item &L : Items) {
      bool Runs = true;
      for (auto [Cond, Want] : Guards) {
        std::optional<int64_t> V = eval(Cond, L);
        if (!V)
          return false;
        Runs &= (*V != 0) == Want;
      }
      if (!Runs)
        continue;
      if (A.Addresses) { // each lane's bytes, in each channel
        std::optional<Lanes> At = lanes(A.Addresses, L);
        if (!At)
          return false;
        for (int64_t Lane : At->V) {
          if (Lane < 0)
            return false;
          for (int C : A.Channels)
            for (int64_t B = 0; B < A.Bytes; ++B) {
              A.Who.push_back(L);
              A.Where.push_back({Lane * A.Scale + 4 * C + B});
            }
        }
        continue;
      }
      if (A.Offset) { // the block's bytes, from a 16-byte boundary
        std::optional<int64_t> V = eval(A.Offset, L);
        if (!V || *V < 0)
          return false;
        for (int64_t B = 0; B < A.Bytes; ++B) {
          A.Who.push_back(L);
          A.Where.push_back({(*V & ~int64_t(15)) + B});
        }
        continue;
      }
      Element Where;
      for (const Expr *I : Indices) {
        std::optional<int64_t> V = eval(I, L);
        if (!V)
          return false;
        Where.push_back(*V);
      }
      A.Who.push_back(L);
      A.Where.push_back(std::move(Where));
    }
    return true;
  }

  /// A work-item of `Before` (a write) that touches the element some other
  /// work-item of `After` touches, as (index into Before, into After).
  std::optional<std::pair<size_t, size_t>>
  collision(const Access &Before, const Access &After) const {
    if (Rule.SharedNests)
      return nestCollision(Before, After);
    // Up to two writers of each element, so one of them differs from any
    // given work-item.
    std::map<Element, std::pair<size_t, size_t>> Writers;
    constexpr size_t None = ~size_t(0);
    for (size_t I = 0; I < Before.Who.size(); ++I) {
      auto [It, New] = Writers.try_emplace(Before.Where[I], I, None);
      if (!New && It->second.second == None &&
          Before.Who[It->second.first] != Before.Who[I])
        It->second.second = I;
    }
    for (size_t J = 0; J < After.Who.size(); ++J) {
      auto It = Writers.find(After.Where[J]);
      if (It == Writers.end())
        continue;
      auto [First, Second] = It->second;
      if (Before.Who[First] != After.Who[J])
        return std::pair(First, J);
      if (Second != None)
        return std::pair(Second, J);
    }
    return std::nullopt;
  }

  /// Cilk: a pair of iterations that run in different threads whatever
  /// the group's size T >= 2 (see the file comment), the closest pair.
  static std::optional<std::pair<size_t, size_t>>
  nestCollision(const Access &Before, const Access &After) {
    std::map<Element, llvm::SmallVector<size_t, 2>> Writers;
    for (size_t I = 0; I < Before.Who.size(); ++I)
      Writers[Before.Where[I]].push_back(I);
    uint64_t Divisor = 0, Closest = UINT64_MAX;
    std::pair<size_t, size_t> Witness;
    for (size_t J = 0; J < After.Who.size(); ++J) {
      auto It = Writers.find(After.Where[J]);
      if (It == Writers.end())
        continue;
      int64_t KJ = After.In->linear(After.Who[J]);
      for (size_t I : It->second) {
        int64_t D = Before.In->linear(Before.Who[I]) - KJ;
        uint64_t Abs = uint64_t(D < 0 ? -D : D);
        if (!Abs)
          continue;
        Divisor = std::gcd(Divisor, Abs);
        if (Abs < Closest) {
          Closest = Abs;
          Witness = {I, J};
        }
        if (Divisor == 1 && Closest == 1)
          return Witness;
      }
    }
    if (Divisor == 1)
      return Witness;
    return std::nullopt;
  }

  void add(Access B) {
    // Bounds the work on long straight-line code; later accesses are
    // simply not looked at.
    if (Interval.size() >= 64)
      return;
    if (B.Write && !B.Atomic)
      if (auto C = collision(B, B)) {
        report(B, B, *C);
        Interval.push_back(std::move(B));
        return;
      }
    for (const Access &A : Interval) {
      if (!A.Write || A.Var != B.Var || A.Handle != B.Handle ||
          sameStatement(A, B) || (A.Atomic && B.Atomic))
        continue;
      if (auto C = collision(A, B)) {
        report(A, B, *C);
        break;
      }
    }
    Interval.push_back(std::move(B));
  }

  static bool sameStatement(const Access &A, const Access &B) {
    return A.Path.size() == B.Path.size() && !A.Path.empty() &&
           A.Path.back().Child == B.Path.back().Child;
  }

  std::string spell(const Item &L, const Nest *In = nullptr) const {
    std::string S = "(";
    if (In) { // Cilk: the iteration, by its loop variables
      for (size_t D = 0; D < In->Vars.size(); ++D)
        S += (D ? ", " : "") + In->Vars[D]->getName().str() + " = " +
             std::to_string(In->First[D] + In->Stride[D] * L[D]);
      return S + ")";
    }
    for (unsigned I = 0; I < std::max(1u, Shape.Rank); ++I)
      S += (I ? ", " : "") + std::to_string(L[I]);
    return S + ")";
  }

  static std::string spell(const Access &A, const Element &E) {
    if (A.Handle)
      return "byte " + std::to_string(E[0]) + " of " + A.Name;
    std::string S = A.Name;
    for (int64_t I : E)
      S += "[" + std::to_string(I) + "]";
    return S;
  }

  void report(const Access &A, const Access &B, std::pair<size_t, size_t> C) {
    bool Self = &A == &B;
    if (Found) {
      Found->insert({A.E, B.E});
      return;
    }
    if (Only && !Only->count({A.E, B.E}))
      return;
    if (!Reported.insert(B.E).second)
      return;
    R.report(B.E->getBeginLoc(), Diag::warn_slmc_group_local_race)
        << (B.Atomic ? 2 : B.Read && !Self ? 0 : 1)
        << spell(B, B.Where[C.second]) << spell(B.Who[C.second], B.In)
        << spell(A.Who[C.first], A.In) << (A.Atomic ? 1 : 0)
        << B.E->getSourceRange();
    if (Self)
      return; // one statement: no barrier can separate the writes
    R.report(A.E->getBeginLoc(), Diag::note_slmc_race_write)
        << spell(A.Who[C.first], A.In) << spell(A, A.Where[C.first])
        << (A.Atomic ? 1 : 0) << A.E->getSourceRange();
    // The barrier goes before the statement that holds B in the innermost
    // block holding both, when that block runs for every work-item.
    for (size_t I = 0; I < A.Path.size() && I < B.Path.size(); ++I) {
      if (A.Path[I].Block != B.Path[I].Block)
        return;
      if (A.Path[I].Child == B.Path[I].Child)
        continue;
      if (A.Path[I].Guarded || !A.Path[I].Block || A.Path[I].InNest)
        return;
      const Stmt *At = B.Path[I].Child;
      const SourceManager &SM = Ctx.getSourceManager();
      // A Cilk loop starts with the attribute its keyword expands to.
      SourceLocation Loc = At->getBeginLoc(), Start;
      if (Loc.isMacroID() &&
          Lexer::isAtStartOfMacroExpansion(Loc, SM, Ctx.getLangOpts(), &Start))
        Loc = Start;
      auto D = R.report(Loc, Diag::note_slmc_race_barrier);
      // Array notation's loops are in the pre-pass's text, not the user's.
      auto L = cilk::asParallelLoop(At, SM);
      bool Rewritten = L && L->Kind == cilk::LoopKind::Section;
      if (!Rule.Barrier.empty() && Loc.isFileID() && !Rewritten)
        D << FixItHint::CreateInsertion(
            Loc, Rule.Barrier + "\n" +
                     Lexer::getIndentationForLine(Loc, SM).str());
      return;
    }
  }
};

} // namespace

llvm::DenseSet<const FunctionDecl *>
functionsThatWait(const ProgramModel &Model, const FunctionDecl *Root,
                  DialectKind Dialect) {
  auto Reach = Model.reachableFrom(Root);
  auto DefOf = [](const FunctionDecl *FD) -> const FunctionDecl * {
    const FunctionDecl *Def = nullptr;
    return FD && FD->hasBody(Def) ? Def : nullptr;
  };
  llvm::DenseSet<const FunctionDecl *> Waits;
  for (const BarrierSite &B : Model.Barriers)
    if (B.Dialect == Dialect)
      if (const FunctionDecl *Def = DefOf(B.Function); Def && Reach.count(Def))
        Waits.insert(Def);
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (auto &[Fn, Edge] : Reach) {
      auto It = Model.Calls.find(Fn);
      if (Waits.count(Fn) || It == Model.Calls.end())
        continue;
      for (const CallEdge &E : It->second)
        if (Waits.count(DefOf(E.Callee))) {
          Waits.insert(Fn);
          Changed = true;
          break;
        }
    }
  }
  return Waits;
}

void checkGroupLocalRaces(ASTContext &Ctx, const ProgramModel &Model,
                          const Kernel &K, Reporter &R, const RaceRule &Rule) {
  const FunctionDecl *Def = nullptr;
  if (Rule.SharedNests) {
    if (!K.UsesWorkGroups || K.Loops.empty() || K.Loops.size() > 2 ||
        !K.Body->hasBody(Def) || Def->isDependentContext())
      return;
    const Stmt *Body = K.Loops.back()->getBody();
    RaceWalk(Ctx, Model, K, R, Rule, Body, K.Shape).walk(Body);
    return;
  }
  if (Rule.AnyGroupOfTwo) {
    if (!K.UsesWorkGroups || !K.Body->hasBody(Def) || Def->isDependentContext())
      return;
    const Stmt *Body = Def->getBody();
    GroupShape Pairs[3];
    for (unsigned D = 0; D < 3; ++D) {
      Pairs[D].Rank = D == 0 ? 1 : 3; // (0) and (1): linear ids in every pair
      Pairs[D].Size[D] = 2;
      Pairs[D].Static = true;
    }
    Findings InY, InZ, InBoth;
    RaceWalk(Ctx, Model, K, R, Rule, Body, Pairs[1], &InY).walk(Body);
    RaceWalk(Ctx, Model, K, R, Rule, Body, Pairs[2], &InZ).walk(Body);
    for (const auto &F : InY)
      if (InZ.count(F))
        InBoth.insert(F);
    RaceWalk(Ctx, Model, K, R, Rule, Body, Pairs[0], nullptr, &InBoth).walk(Body);
    return;
  }
  if (!K.UsesWorkGroups || !K.Shape.Static || !K.Shape.threads() ||
      K.Shape.threads() > 4096 || !K.Body->hasBody(Def) ||
      Def->isDependentContext())
    return;
  const Stmt *Body = Def->getBody();
  RaceWalk(Ctx, Model, K, R, Rule, Body, K.Shape).walk(Body);
}

} // namespace slmc
