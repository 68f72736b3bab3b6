//===- WorkItemLoops.cpp - work-groups as loops over work-items -----------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A pass plugin (clang -fpass-plugin=slmcWorkItemLoops.so) that slmc++ loads
// into the host pass. It turns each kernel's work-group entry
// (slmc::cpu_group_entry<F>, slmc/offload.h) into a function that runs a
// whole work-group with loops over its work-items instead of one fiber per
// work-item, so the CPU fallback needs no context switch at a barrier and
// the loops can be vectorised across work-items.
//
// The entry starts `if (!slmc_cpu_work_item_loops(nullptr)) return 0;` and
// then runs one work-item. After the kernel is inlined into it:
//
//  * the code is cut at each barrier (slmc_cpu_barrier) into regions: a
//    region is what a work-item runs from the entry or from a barrier until
//    it reaches the next barrier or returns;
//  * each region becomes a loop nest over the group's work-items (z, y, x;
//    x innermost, as consecutive work-items) around a copy of its blocks;
//    the copy's exits record which barrier each work-item reached, and the
//    group goes on with that barrier's region (every work-item must reach
//    the same one: otherwise the entry returns 2, barrier divergence);
//  * values that live across a barrier, and the kernel's stack variables,
//    get one slot per work-item in storage the runtime lends
//    (slmc_cpu_work_item_storage);
//  * slmc_cpu_current_item() reads a copy of the group's item whose local
//    id the loops set.
//
// Then the marker call becomes `1`. Kernels it cannot transform (a barrier
// behind an indirect call, sub-group functions, exception handling,
// variable-length arrays, ...) keep the call with the reason as argument: the
// entry returns 0 and the runtime runs that kernel on fibers, saying why
// under SLMC_VERBOSE. Group-local memory is unaffected: static thread_local
// variables are one copy per running group either way.
//
// It runs at the start of the optimisation pipeline (after the inliner and
// the loop simplifications, before the vectoriser), on a copy of the entry,
// which replaces the entry only when the result verifies.
//
//===----------------------------------------------------------------------===//
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/IR/PassManager.h"
#include "llvm/IR/ProfDataUtils.h"
#include "llvm/IR/ValueMap.h"
#include "llvm/IR/Verifier.h"
#include "CpuFallback/GroupLocalSites.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Plugins/PassPlugin.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/GVN.h"
#include "llvm/Transforms/Scalar/LICM.h"
#include "llvm/Transforms/Scalar/LoopPassManager.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Scalar/SimpleLoopUnswitch.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"
#include "llvm/Transforms/Utils/LowerAtomic.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <array>
#include <functional>
#include <optional>

using namespace llvm;

namespace {

// slmc/runtime.h's names.
constexpr const char *kMarker = "slmc_cpu_work_item_loops";
constexpr const char *kStorage = "slmc_cpu_work_item_storage";
constexpr const char *kCurrentItem = "slmc_cpu_current_item";
constexpr const char *kBarrier = "slmc_cpu_barrier";
constexpr const char *kFixedShape = "slmc_cpu_fixed_group_shape";
constexpr const char *kIsaLevel = "slmc_cpu_isa_level";
// Metadata on the latch branch of each loop over a row of work-items.
constexpr const char *kWorkItemLoopMD = "slmc.work-item-loop";
// Functions whose meaning depends on running as one of a group's fibers.
constexpr const char *kFiberOnly[] = {"slmc_cpu_sub_group_barrier",
                                      "slmc_cpu_sub_group_shuffle",
                                      "slmc_cpu_group_local_alloc",
                                      "slmc_cpu_group_local_site"};

// slmc_cpu_item (slmc/runtime.h; the runtime asserts this layout): local_id
// at 0, local_size at 24, 64 bytes in all.
constexpr uint64_t kItemBytes = 64;
constexpr uint64_t kLocalSizeOffset = 24;
constexpr uint64_t kLocalIdBytes = 12; // local_id: x, y, z
// Entry results the runtime reads.
constexpr int kRanGroup = 1, kDiverged = 2, kUseFibers = 0;

// -mllvm -slmc-split-work-item-rows=0: no index-set splitting (to compare).
cl::opt<bool> SplitRows("slmc-split-work-item-rows", cl::init(true), cl::Hidden,
                        cl::desc("Split work-item rows at the edges their tests make"));

// -mllvm -slmc-cut-barrier-loops=0: no barriers added around loops whose
// trip count the group shares (to compare).
cl::opt<bool> CutBarrierLoops("slmc-cut-barrier-loops", cl::init(true), cl::Hidden,
                              cl::desc("Give loops that wait at a barrier and whose "
                                       "trip count is the group's regions of their own"));

// -mllvm -slmc-cpu-isa-versions=0: one version of each group entry, for the
// target the host pass compiles for.
cl::opt<bool> IsaVersions("slmc-cpu-isa-versions", cl::init(true), cl::Hidden,
                          cl::desc("Compile x86-64 work-group entries for each "
                                   "micro-architecture level and pick one at run time"));

/// Copies of `Blocks` in `F`, named with `Suffix`, wired to each other
/// (`VMap`: original to copy, blocks and values).
SmallVector<BasicBlock *, 32> cloneBlocks(ArrayRef<BasicBlock *> Blocks,
                                          ValueToValueMapTy &VMap, const Twine &Suffix,
                                          Function &F) {
  SmallVector<BasicBlock *, 32> Copies;
  for (BasicBlock *BB : Blocks) {
    BasicBlock *Copy = CloneBasicBlock(BB, VMap, Suffix, &F);
    VMap[BB] = Copy;
    Copies.push_back(Copy);
  }
  for (BasicBlock *Copy : Copies)
    for (Instruction &I : *Copy)
      RemapInstruction(&I, VMap, RF_NoModuleLevelChanges | RF_IgnoreMissingLocals);
  return Copies;
}

std::string readable(StringRef Name) {
  std::string D = demangle(Name.str());
  return D.size() > 160 ? D.substr(0, 157) + "..." : D;
}

/// Which values can be computed again instead of being saved across a
/// barrier: pure, speculatable arithmetic over constants, the entry's
/// argument, prolog values, reads of the kernel's functor (which no
/// work-item writes: on GPUs each has its own copy) and reads of the item.
enum class Remat { No, Uniform, PerItem };

class Rematerialiser {
public:
  Rematerialiser(Function &F, BasicBlock &Prolog, AllocaInst &Item,
                 const DenseSet<AllocaInst *> &Private)
      : F(F), Prolog(Prolog), Item(Item), Private(Private) {}

  Remat kind(Value *V, unsigned Depth = 0) {
    if (isa<Constant>(V) || isa<Argument>(V))
      return Remat::Uniform;
    auto *I = dyn_cast<Instruction>(V);
    if (!I)
      return Remat::No;
    if (I == &Item)
      return Remat::PerItem;
    if (I->getParent() == &Prolog)
      return isa<AllocaInst>(I) && Private.contains(cast<AllocaInst>(I)) ? Remat::PerItem
                                                  : Remat::Uniform;
    auto Known = Kinds.find(I);
    if (Known != Kinds.end())
      return Known->second;
    if (Depth > 12)
      return Remat::No;
    Remat K = Remat::No;
    if (auto *L = dyn_cast<LoadInst>(I)) {
      if (!L->isVolatile() && !L->isAtomic()) {
        const Value *Base = getUnderlyingObject(L->getPointerOperand());
        int64_t Offset = 0;
        if (Base == &Item)
          // The group's fields (its id, sizes, counts) are the same for
          // every item; only the local id at the start is each item's.
          K = GetPointerBaseWithConstantOffset(L->getPointerOperand(), Offset,
                                               F.getDataLayout()) == &Item &&
                      Offset >= int64_t(kLocalIdBytes)
                  ? Remat::Uniform
                  : Remat::PerItem;
        else if (isFunctor(Base))
          K = operands(I, Depth);
        else if (GroupSlots.contains(Base))
          K = Remat::Uniform; // written only where the group runs as one
      }
    } else if (!isa<PHINode>(I) && !I->mayReadOrWriteMemory() &&
               isSafeToSpeculativelyExecute(I) && !I->isTerminator()) {
      K = operands(I, Depth);
    }
    Kinds[I] = K;
    return K;
  }

  /// A copy of `V`'s computation before `At` (operands first).
  Value *copyAt(Value *V, BasicBlock::iterator At,
                DenseMap<Value *, Value *> &Memo) {
    auto *I = dyn_cast<Instruction>(V);
    if (!I || I->getParent() == &Prolog || I == &Item)
      return V;
    if (Value *Done = Memo.lookup(I))
      return Done;
    Instruction *Copy = I->clone();
    for (Use &Op : Copy->operands())
      Op.set(copyAt(Op.get(), At, Memo));
    Copy->insertBefore(At);
    Copy->setName(I->getName() + ".again");
    Memo[I] = Copy;
    return Copy;
  }

  /// `Slot` holds a value the group has once (transform()'s uniform
  /// regions): its reads are the same for every work-item. Answers so far
  /// are dropped: reads of the slot replace the value's uses.
  void addGroupSlot(AllocaInst *Slot) {
    GroupSlots.insert(Slot);
    Kinds.clear();
  }

private:
  Remat operands(Instruction *I, unsigned Depth) {
    Remat K = Remat::Uniform;
    for (Value *Op : I->operands()) {
      Remat O = kind(Op, Depth + 1);
      if (O == Remat::No)
        return Remat::No;
      if (O == Remat::PerItem)
        K = Remat::PerItem;
    }
    return K;
  }

  /// The functor: `args[0]` loaded from the entry's argument.
  bool isFunctor(const Value *Base) const {
    if (isa<Argument>(Base))
      return true; // the args array itself
    auto *L = dyn_cast<LoadInst>(Base);
    return L && isa<Argument>(getUnderlyingObject(L->getPointerOperand()));
  }

  Function &F;
  BasicBlock &Prolog;
  AllocaInst &Item;
  const DenseSet<AllocaInst *> &Private;
  DenseSet<const Value *> GroupSlots;
  /// Answers so far. The transformation erases instructions while this is
  /// in use, and a new instruction (a phi, say) may then get an erased one's
  /// address: a ValueMap forgets an erased key, so no stale answer is read
  /// for it (a copy of a phi would recurse around its loop forever).
  struct KindsConfig : ValueMapConfig<Instruction *> {
    enum { FollowRAUW = false };
  };
  ValueMap<Instruction *, Remat, KindsConfig> Kinds;
};

/// Tests at the start of a region that send the work-items failing them
/// straight to a barrier or to the end (`if (tid < stride) ...; barrier`,
/// `if (tid == 0) ...`, `if (i >= rows || j >= cols) return;`): the region's
/// loop over x then runs, row by row, over the items that pass only.
struct Guard {
  BasicBlock *Block = nullptr;  // ends in the test
  BasicBlock *Active = nullptr; // the successor the passing items take
  /// A test of the row's ids and group invariants only (`r == 0`, `i <
  /// rows`): the row's items all pass or all fail. Passing is `RowTest` true,
  /// or false where `Negate`.
  Value *RowTest = nullptr;
  bool Negate = false;
  /// Otherwise the passing items are those with `x + Offset Pred Bound`
  /// (Offset, Bound: row-invariant; Offset may be absent).
  CmpInst::Predicate Pred = CmpInst::BAD_ICMP_PREDICATE;
  Value *Bound = nullptr, *Offset = nullptr;
};

struct Narrowing {
  SmallVector<Guard, 6> Guards;
  unsigned InactiveTarget = 0; // region (or the exit) the others go on with
};

class RegionGuards {
  static constexpr unsigned kMaxGuards = 6;

public:
  RegionGuards(Rematerialiser &Remat, AllocaInst &Item, const DataLayout &DL)
      : Remat(Remat), Item(Item), DL(DL) {}

  /// The region's guards, from its start block on, while each test's
  /// failing side does nothing until one and the same barrier (or the end).
  std::optional<Narrowing> find(BasicBlock *Start,
                                const DenseMap<BasicBlock *, unsigned> &BarrierId,
                                unsigned Exit) {
    Narrowing N;
    BasicBlock *B = Start;
    while (N.Guards.size() < kMaxGuards) {
      // Every item that reaches a later test passed the earlier ones.
      if (B != Start && B->getSinglePredecessor() != N.Guards.back().Block)
        break;
      auto *Br = dyn_cast<BranchInst>(B->getTerminator());
      if (!Br || !Br->isConditional() || Br->getSuccessor(0) == Br->getSuccessor(1))
        break;
      // The failing items skip the whole block: it must not do anything
      // they would miss (stores, calls, saving a value across a barrier).
      if (any_of(*B, [](Instruction &I) {
            return I.mayHaveSideEffects() || isa<PHINode>(I);
          }))
        break;
      std::optional<unsigned> Target;
      unsigned Side = 2;
      while (Side-- > 0) { // the false side first
        Target = doesNothingUntil(Br->getSuccessor(Side), BarrierId, Exit);
        if (Target && (N.Guards.empty() || *Target == N.InactiveTarget))
          break;
        Target.reset();
      }
      if (!Target)
        break;
      // The passing items are those for which every leaf test holds (the
      // condition true: `a && b`), or fails (the condition false: `a || b`).
      const bool PassOnTrue = Side == 1;
      SmallVector<Value *, 4> Leaves;
      if (!conjuncts(Br->getCondition(), PassOnTrue, Leaves) ||
          N.Guards.size() + Leaves.size() > kMaxGuards)
        break;
      SmallVector<Guard, 4> Tests;
      for (Value *Leaf : Leaves) {
        std::optional<Guard> G = test(Leaf);
        if (!G)
          break;
        if (!PassOnTrue) {
          if (G->RowTest)
            G->Negate = true;
          else
            G->Pred = CmpInst::getInversePredicate(G->Pred);
        }
        if (!G->RowTest && G->Pred == ICmpInst::ICMP_NE)
          break;
        G->Block = B;
        G->Active = Br->getSuccessor(1 - Side);
        Tests.push_back(*G);
      }
      if (Tests.size() != Leaves.size())
        break;
      N.InactiveTarget = *Target;
      N.Guards.append(Tests.begin(), Tests.end());
      B = Tests.back().Active;
    }
    if (N.Guards.empty())
      return std::nullopt;
    return N;
  }

  /// In a row's loop header: the x ids [Lo, Hi) of the row (`Y`, `Z`) of
  /// `LX` items that pass every guard (Lo >= Hi: none).
  std::pair<Value *, Value *> activeRange(IRBuilder<> &B, const Narrowing &N, Value *Y,
                                          Value *Z, Value *LX) {
    Type *I64 = B.getInt64Ty();
    Value *Lo = nullptr, *Hi = nullptr, *RowPasses = B.getTrue();
    DenseMap<Value *, Value *> Memo;
    for (const Guard &G : N.Guards) {
      if (G.RowTest) {
        // (Frozen: a test after `&&` may be poison where an earlier one
        // fails.)
        Value *T = B.CreateFreeze(atRow(G.RowTest, B, Y, Z, Memo));
        RowPasses = B.CreateAnd(RowPasses, G.Negate ? B.CreateNot(T) : T);
        continue;
      }
      auto [L, H] = interval(B, G, Y, Z, LX, Memo);
      Lo = Lo ? B.CreateBinaryIntrinsic(Intrinsic::umax, Lo, L) : L;
      Hi = Hi ? B.CreateBinaryIntrinsic(Intrinsic::umin, Hi, H) : H;
    }
    if (!Lo) {
      Lo = B.getInt64(0);
      Hi = LX;
    }
    return {Lo, B.CreateSelect(RowPasses, Hi, Lo)};
  }

  /// `A Pred B` as a test of `x + Offset` against a row-invariant bound,
  /// if it is one (never a row test).
  std::optional<Guard> comparison(CmpInst::Predicate Pred, Value *A, Value *B) {
    if (rowInvariant(A) && rowInvariant(B))
      return std::nullopt;
    Guard G;
    G.Pred = Pred;
    G.Bound = B;
    if (!isLocalX(A, G.Offset)) {
      std::swap(A, G.Bound);
      G.Pred = CmpInst::getSwappedPredicate(G.Pred);
      if (!isLocalX(A, G.Offset))
        return std::nullopt;
    }
    if (!rowInvariant(G.Bound) || G.Bound->getType()->getIntegerBitWidth() > 64 ||
        (G.Offset && (ICmpInst::isUnsigned(G.Pred) ||
                      G.Bound->getType()->getIntegerBitWidth() > 32)))
      return std::nullopt;
    return G;
  }

  /// In a row's loop header: the x ids [Lo, Hi), within [0, LX], of the
  /// row's items for which `G`'s test (not a row test, not `!=`) holds.
  std::pair<Value *, Value *> interval(IRBuilder<> &B, const Guard &G, Value *Y,
                                       Value *Z, Value *LX,
                                       DenseMap<Value *, Value *> &Memo) {
    Type *I64 = B.getInt64Ty();
    Value *U = B.CreateFreeze(atRow(G.Bound, B, Y, Z, Memo));
    if (G.Offset) // exact: the sum does not wrap (nsw), both fit 32 bits
      U = B.CreateSub(B.CreateSExt(U, I64),
                      B.CreateSExt(B.CreateFreeze(atRow(G.Offset, B, Y, Z, Memo)), I64));
    else
      U = CmpInst::isSigned(G.Pred) ? B.CreateSExtOrTrunc(U, I64)
                                    : B.CreateZExtOrTrunc(U, I64);
    return range(B, G.Pred, U, LX);
  }

  /// Whether `V` is the same for all items of a row, and its value for
  /// row (`Y`, `Z`) computed at `B`.
  bool sameForRow(Value *V) { return rowInvariant(V); }
  bool sameForGroup(Value *V) { return Remat.kind(V) == Remat::Uniform; }
  /// Whether `V` depends on the local y and z ids and constants only: a
  /// test of it (`r == 0`) picks the same rows in every group.
  bool localRowOnly(Value *V) { return ofRowIds(V, /*GroupInvariants=*/false); }
  Value *forRow(Value *V, IRBuilder<> &B, Value *Y, Value *Z,
                DenseMap<Value *, Value *> &Memo) {
    return atRow(V, B, Y, Z, Memo);
  }

private:
  Rematerialiser &Remat;
  AllocaInst &Item;
  const DataLayout &DL;
  DenseMap<Value *, Value *> UniformCopies;

  /// The local id a value loads from the item: 0 (x), 1 (y), 2 (z), or -1.
  int localIdField(const Value *V) const {
    auto *L = dyn_cast<LoadInst>(V);
    int64_t Offset = 0;
    if (!L || !L->isSimple() || !L->getType()->isIntegerTy(32) ||
        GetPointerBaseWithConstantOffset(L->getPointerOperand(), Offset, DL) != &Item)
      return -1;
    return Offset == 0 ? 0 : Offset == 4 ? 1 : Offset == 8 ? 2 : -1;
  }

  /// Whether `V` is the same for all items of a row: computed from group
  /// invariants and the y and z ids only.
  bool rowInvariant(Value *V) { return ofRowIds(V, /*GroupInvariants=*/true); }

  /// Pure arithmetic on the y and z ids and constants, or (with
  /// `GroupInvariants`) on anything the same for the whole group.
  bool ofRowIds(Value *V, bool GroupInvariants, unsigned Depth = 0) {
    if (GroupInvariants ? Remat.kind(V) == Remat::Uniform : isa<Constant>(V))
      return true;
    if (int Field = localIdField(V); Field >= 0)
      return Field > 0;
    auto *I = dyn_cast<Instruction>(V);
    if (!I || Depth > 8 || isa<PHINode>(I) || I->mayReadOrWriteMemory() ||
        !isSafeToSpeculativelyExecute(I))
      return false;
    return all_of(I->operands(),
                  [&](Value *Op) { return ofRowIds(Op, GroupInvariants, Depth + 1); });
  }

  /// A copy of row-invariant `V` computed at `B` for row (`Y`, `Z`).
  Value *atRow(Value *V, IRBuilder<> &B, Value *Y, Value *Z,
               DenseMap<Value *, Value *> &Memo) {
    if (Value *Done = Memo.lookup(V))
      return Done;
    Value *R;
    if (Remat.kind(V) == Remat::Uniform) {
      DenseMap<Value *, Value *> Copies;
      R = Remat.copyAt(V, B.GetInsertPoint(), Copies);
    } else if (int Field = localIdField(V); Field > 0) {
      R = B.CreateTrunc(Field == 1 ? Y : Z, B.getInt32Ty());
    } else {
      Instruction *C = cast<Instruction>(V)->clone();
      for (Use &Op : C->operands())
        Op.set(atRow(Op.get(), B, Y, Z, Memo));
      R = B.Insert(C);
    }
    Memo[V] = R;
    return R;
  }

  /// `V` as the x id plus `Offset`: the id's load, maybe widened or
  /// narrowed to at least 16 bits (ids are below 1024: such casts keep the
  /// value, signed or not), plus a row-invariant offset through `add nsw`
  /// (then widened by sign only).
  bool isLocalX(Value *V, Value *&Offset) {
    Offset = nullptr;
    bool OnlySExt = true; // the casts outside the addition
    while (true) {
      if (auto *Cast = dyn_cast<CastInst>(V)) {
        if (!isa<ZExtInst>(Cast) && !isa<SExtInst>(Cast) &&
            !(isa<TruncInst>(Cast) && Cast->getType()->getIntegerBitWidth() >= 16))
          return false;
        if (!Offset && !isa<SExtInst>(Cast))
          OnlySExt = false;
        V = Cast->getOperand(0);
        continue;
      }
      auto *Add = dyn_cast<BinaryOperator>(V);
      if (Add && Add->getOpcode() == Instruction::Add && Add->hasNoSignedWrap() &&
          !Offset && OnlySExt && Add->getType()->getIntegerBitWidth() <= 32) {
        Value *A = Add->getOperand(0), *B = Add->getOperand(1);
        if (rowInvariant(A))
          std::swap(A, B);
        if (!rowInvariant(B))
          return false;
        Offset = B;
        V = A;
        continue;
      }
      return localIdField(V) == 0;
    }
  }

  /// The leaf tests of `C` that must all be `Value` for `C` to be `Value`:
  /// the operands of nested `&&` (for true) or `||` (for false), in either
  /// form (`and`/`or` of i1, or the short-circuit `select`).
  static bool conjuncts(Value *C, bool Value, SmallVectorImpl<llvm::Value *> &Leaves) {
    using namespace PatternMatch;
    llvm::Value *A, *B;
    if (Value ? match(C, m_LogicalAnd(m_Value(A), m_Value(B)))
              : match(C, m_LogicalOr(m_Value(A), m_Value(B))))
      return Leaves.size() < 8 && conjuncts(A, Value, Leaves) &&
             conjuncts(B, Value, Leaves);
    Leaves.push_back(C);
    return true;
  }

  /// What a branch condition tests, if it is a guard's kind of test.
  std::optional<Guard> test(Value *C) {
    Guard G;
    if (rowInvariant(C)) {
      G.RowTest = C;
      return G;
    }
    auto *Cmp = dyn_cast<ICmpInst>(C);
    if (!Cmp)
      return std::nullopt;
    return comparison(Cmp->getPredicate(), Cmp->getOperand(0), Cmp->getOperand(1));
  }

  /// Where an item that enters `BB` goes on when `BB` and the empty blocks
  /// after it do nothing but branch: a barrier's region, `Exit` (a return),
  /// or nothing.
  static std::optional<unsigned>
  doesNothingUntil(BasicBlock *BB, const DenseMap<BasicBlock *, unsigned> &BarrierId,
                   unsigned Exit) {
    for (unsigned Steps = 0; Steps < 8; ++Steps) {
      if (auto It = BarrierId.find(BB); It != BarrierId.end())
        return It->second;
      if (BB->size() != 1) // phis or other instructions
        return std::nullopt;
      Instruction *T = BB->getTerminator();
      if (isa<ReturnInst>(T))
        return Exit;
      auto *Br = dyn_cast<BranchInst>(T);
      if (!Br || Br->isConditional())
        return std::nullopt;
      BB = Br->getSuccessor(0);
    }
    return std::nullopt;
  }

  /// The x ids [Lo, Hi) in [0, LX) with `x Pred U` (U: 64 bits, read as
  /// signed for signed predicates).
  static std::pair<Value *, Value *> range(IRBuilder<> &B, CmpInst::Predicate Pred,
                                           Value *U, Value *LX) {
    const bool Signed = CmpInst::isSigned(Pred);
    // U clamped to [0, LX], and whether it names an item.
    Value *Clamped = Signed ? B.CreateBinaryIntrinsic(Intrinsic::smax, U, B.getInt64(0)) : U;
    Clamped = B.CreateBinaryIntrinsic(Intrinsic::umin, Clamped, LX);
    Value *InRange = Signed ? B.CreateAnd(B.CreateICmpSGE(U, B.getInt64(0)),
                                          B.CreateICmpSLT(U, LX))
                            : B.CreateICmpULT(U, LX);
    Value *AfterU = B.CreateAdd(Clamped, B.CreateZExt(InRange, B.getInt64Ty()));
    switch (ICmpInst::getUnsignedPredicate(Pred)) {
    case ICmpInst::ICMP_ULT:
      return {B.getInt64(0), Clamped};
    case ICmpInst::ICMP_ULE:
      return {B.getInt64(0), AfterU};
    case ICmpInst::ICMP_UGT:
      return {AfterU, LX};
    case ICmpInst::ICMP_UGE:
      return {Clamped, LX};
    default: // ICMP_EQ
      return {Clamped, AfterU};
    }
  }
};

/// Loops that wait at a barrier on every iteration and that every
/// work-item leaves after the same iteration (`for (s = n / 2; s > 0;
/// s /= 2) { barrier; if (lid < s) ... }`, the tree reduction of most
/// oneAPI and CUDA samples) get more barriers: where the loop is entered, at
/// the start of its header and of its latch, and where it is left. All the
/// work-items reach each of them together, as they reach the loop's own
/// barrier, so they order nothing new; what they change is where regions
/// start. The loop's own counting (`s /= 2`, `s > 0`) becomes regions of
/// their own that the group runs once (transform()'s uniform regions), and
/// the work between starts right after a barrier, where a guard (`lid < s`)
/// narrows its work-item loop to the items that pass.
///
/// Only loops in rotated form qualify (one latch, which is also the only
/// block that leaves the loop): a work-item that enters one runs its body,
/// and so its barrier, at least once, which the dialects' rules then ask of
/// every work-item. The test that leaves must be the same for the whole
/// group, which `alike` establishes by induction over the iterations:
/// header phis whose incoming values are alike are alike. And the loop
/// must carry nothing else: a value of each work-item's carried around it
/// would go through the added regions' slots every iteration (C for
/// Metal's n-body step, whose force sums are such values, ran 20 times
/// slower).
class BarrierLoopCuts {
public:
  BarrierLoopCuts(Function &F, Rematerialiser &Remat) : F(F), Remat(Remat) {}

  /// Adds the barriers (copies of `Barriers[0]`) and appends them to
  /// `Barriers`. Returns how many loops were cut.
  unsigned run(SmallVectorImpl<CallInst *> &Barriers) {
    if (Barriers.empty())
      return 0;
    DominatorTree DT(F);
    LoopInfo LI(DT);
    SmallVector<Loop *, 8> Candidates;
    for (Loop *L : LI.getLoopsInPreorder()) {
      BasicBlock *Latch = L->getLoopLatch();
      if (!Latch || L->getExitingBlock() != Latch ||
          is_contained(predecessors(L->getHeader()), &F.getEntryBlock()))
        continue; // (no barrier goes in the entry block)
      bool Waits = any_of(Barriers, [&](CallInst *B) {
        return L->contains(B->getParent()) && DT.dominates(B->getParent(), Latch);
      });
      if (!Waits)
        continue;
      Candidates.push_back(L);
      for (PHINode &P : L->getHeader()->phis())
        Phis.insert(&P);
    }
    // The largest set of header phis consistent with itself.
    for (bool Changed = true; Changed;) {
      Changed = false;
      Memo.clear();
      for (PHINode *P : SmallVector<PHINode *, 16>(Phis.begin(), Phis.end()))
        if (!all_of(P->incoming_values(), [&](Value *V) { return alike(V); })) {
          Phis.erase(P);
          Changed = true;
          Memo.clear();
        }
    }
    // Where the barriers go, decided before any is added (the loops'
    // analyses would go stale).
    SmallVector<Instruction *, 16> At;
    SmallVector<std::pair<BasicBlock *, BasicBlock *>, 8> Edges;
    unsigned Cut = 0;
    for (Loop *L : Candidates) {
      BasicBlock *Header = L->getHeader(), *Latch = L->getLoopLatch();
      auto *Br = dyn_cast<BranchInst>(Latch->getTerminator());
      SmallVector<std::pair<BasicBlock *, BasicBlock *>, 2> Exits;
      L->getExitEdges(Exits);
      if (!Br || !Br->isConditional() || !alike(Br->getCondition()) || Exits.size() != 1 ||
          Header->phis().empty() ||
          !all_of(Header->phis(), [&](PHINode &P) { return Phis.contains(&P); }))
        continue;
      ++Cut;
      for (BasicBlock *Pred : predecessors(Header))
        if (!L->contains(Pred))
          Edges.push_back({Pred, Header});
      Edges.push_back(Exits.front());
      At.push_back(&*Header->getFirstInsertionPt());
      if (Latch != Header)
        At.push_back(&*Latch->getFirstInsertionPt());
    }
    for (auto [From, To] : Edges) {
      if (From->getSingleSuccessor() == To)
        At.push_back(From->getTerminator());
      else if (To->getSinglePredecessor() == From)
        At.push_back(&*To->getFirstInsertionPt());
      else if (is_contained(successors(From), To))
        if (BasicBlock *Mid = SplitCriticalEdge(From, To))
          At.push_back(Mid->getTerminator());
      // (Otherwise the edge is already split, for another loop.)
    }
    for (Instruction *I : At) {
      // Next to a barrier already: nothing to add.
      if (isBarrier(I) || (I->getPrevNode() && isBarrier(I->getPrevNode())))
        continue;
      auto *B = cast<CallInst>(Barriers.front()->clone());
      B->insertBefore(I->getIterator());
      Barriers.push_back(B);
    }
    return Cut;
  }

private:
  Function &F;
  Rematerialiser &Remat;
  DenseSet<PHINode *> Phis; // header phis taken to be alike
  DenseMap<Value *, bool> Memo;

  static bool isBarrier(const Instruction *I) {
    auto *CI = dyn_cast<CallInst>(I);
    return CI && CI->getCalledFunction() && CI->getCalledFunction()->getName() == kBarrier;
  }

  /// Whether `V` is the same for every work-item of the group, if `Phis`
  /// are.
  bool alike(Value *V, unsigned Depth = 0) {
    if (Remat.kind(V) == Remat::Uniform)
      return true;
    auto *I = dyn_cast<Instruction>(V);
    if (!I || Depth > 12)
      return false;
    if (auto *P = dyn_cast<PHINode>(I))
      return Phis.contains(P);
    if (auto It = Memo.find(I); It != Memo.end())
      return It->second;
    bool R = !I->mayReadOrWriteMemory() && isSafeToSpeculativelyExecute(I) &&
             !I->isTerminator() &&
             all_of(I->operands(), [&](Value *Op) { return alike(Op, Depth + 1); });
    Memo[I] = R;
    return R;
  }
};

class WorkGroupEntry {
public:
  WorkGroupEntry(Function &Entry, CallInst &Marker)
      : G(Entry), M(*Entry.getParent()), Marker(&Marker) {}

  /// Rewrites the entry, or leaves it returning 0 with the reason in the
  /// marker's argument. Returns whether it changed the module.
  bool run(function_ref<void(Function &)> Simplify) {
    if (!inlineItemFunctions() || !check()) {
      giveUp();
      return true;
    }
    // What the inlining opened up (the functor's fields out of its copy,
    // mostly), before deciding what crosses a barrier.
    Simplify(G);
    Marker = nullptr;
    for (Instruction &I : instructions(G))
      if (auto *CI = dyn_cast<CallInst>(&I))
        if (CI->getCalledFunction() && CI->getCalledFunction()->getName() == kMarker)
          Marker = CI;
    if (!Marker) {
      Why = "internal error: the marker call went away";
      return false;
    }
    ValueToValueMapTy VMap;
    Function *Copy = CloneFunction(&G, VMap);
    CallInst *CopyMarker = cast<CallInst>(VMap[Marker]);
    std::string Failure;
    if (!transform(*Copy, *CopyMarker) || verifyFunction(*Copy, nullptr)) {
      Copy->eraseFromParent();
      Why = Why.empty() ? "internal error: the work-item loops did not verify"
                        : Why;
      giveUp();
      return true;
    }
    // The entry now also returns 2: facts inferred about its result go.
    Copy->removeRetAttr(Attribute::Range);
    Copy->setComdat(G.getComdat());
    Copy->setLinkage(G.getLinkage());
    Copy->setVisibility(G.getVisibility());
    G.replaceAllUsesWith(Copy);
    Copy->takeName(&G);
    G.eraseFromParent();
    Result = Copy;
    return true;
  }

  Function *transformed() const { return Result; }

private:
  Function &G;
  Module &M;
  CallInst *Marker;
  std::string Why;
  Function *Result = nullptr;

  // ---- Before the copy: inline what the loops must see ----------------

  static bool isFiberOnly(const Function *F) {
    if (!F)
      return false;
    for (const char *N : kFiberOnly)
      if (F->getName() == N)
        return true;
    return F->getName().starts_with("slmc_check_");
  }

  /// Functions defined here that (maybe indirectly) wait at a barrier, read
  /// the work-item's ids or need fibers: every call of one must be inlined.
  DenseSet<const Function *> itemFunctions() {
    DenseSet<const Function *> Set;
    bool Changed = true;
    while (Changed) {
      Changed = false;
      for (Function &F : M) {
        if (F.isDeclaration() || Set.contains(&F) || &F == &G)
          continue;
        for (Instruction &I : instructions(F)) {
          auto *CB = dyn_cast<CallBase>(&I);
          if (!CB)
            continue;
          const Function *Callee = CB->getCalledFunction();
          bool Item = !Callee ? !CB->isInlineAsm()
                              : Set.contains(Callee) || isFiberOnly(Callee) ||
                                    Callee->getName() == kBarrier ||
                                    Callee->getName() == kCurrentItem;
          if (Item) {
            Set.insert(&F);
            Changed = true;
            break;
          }
        }
      }
    }
    return Set;
  }

  bool inlineItemFunctions() {
    DenseSet<const Function *> Item = itemFunctions();
    for (unsigned Round = 0; Round < 4096; ++Round) {
      CallBase *Next = nullptr;
      for (Instruction &I : instructions(G))
        if (auto *CB = dyn_cast<CallBase>(&I))
          if (Function *Callee = CB->getCalledFunction())
            if (!Callee->isDeclaration() && Item.contains(Callee)) {
              Next = CB;
              break;
            }
      if (!Next)
        return true;
      std::string Name = readable(Next->getCalledFunction()->getName());
      InlineFunctionInfo IFI;
      InlineResult R = InlineFunction(*Next, IFI);
      if (!R.isSuccess()) {
        Why = "cannot inline '" + Name + "' (" + R.getFailureReason() + ")";
        return false;
      }
    }
    Why = "too many nested calls to inline (recursion?)";
    return false;
  }

  bool check() {
    for (Instruction &I : instructions(G)) {
      if (isa<InvokeInst>(I) || isa<LandingPadInst>(I) || isa<ResumeInst>(I) ||
          isa<CallBrInst>(I) || I.isEHPad()) {
        Why = "the kernel has exception-handling code";
        return false;
      }
      if (auto *A = dyn_cast<AllocaInst>(&I))
        if (!A->isStaticAlloca()) {
          Why = "the kernel has a variable-length array";
          return false;
        }
      auto *CB = dyn_cast<CallBase>(&I);
      if (!CB || CB->isInlineAsm())
        continue;
      Function *Callee = CB->getCalledFunction();
      if (!Callee) {
        Why = "the kernel makes an indirect call";
        return false;
      }
      if (isFiberOnly(Callee)) {
        StringRef N = Callee->getName();
        Why = N.starts_with("slmc_cpu_sub_group_")
                  ? "the kernel uses sub-group barriers or shuffles"
              : N.starts_with("slmc_cpu_group_local_")
                  ? "the kernel allocates group-local memory in a function it "
                    "calls"
                  : "the kernel is instrumented for SLMC_CHECK";
        return false;
      }
      if (CB->hasFnAttr(Attribute::ReturnsTwice)) {
        Why =
            "the kernel calls " + Callee->getName().str() + " (returns twice)";
        return false;
      }
    }
    return true;
  }

  void giveUp() {
    IRBuilder<> B(Marker);
    Constant *Text = B.CreateGlobalString(Why, "slmc.wi.why");
    Marker->setArgOperand(0, Text);
  }

  // ---- On the copy ------------------------------------------------------

  struct Region {
    BasicBlock *Start = nullptr;
    SmallVector<BasicBlock *, 16> Blocks; // in discovery order
    DenseSet<BasicBlock *> Set;
  };

  /// A region's loop over one row of work-items, as transform() builds it.
  struct RowLoop {
    BasicBlock *YHead, *XHead, *XLatch, *YLatch;
    PHINode *X, *Y;
    Value *Z, *XLo, *XHi, *LX;
    ICmpInst *More;                  // the latch's `x + 1 < XHi`
    SmallVector<BasicBlock *, 32> Body; // XHead .. XLatch
  };

  /// Index-set splitting of a row's loop at the edges its tests make: a
  /// body that tests `x + offset` against row-invariant bounds (a tile's
  /// first or last item, `j == cols - 1`; a clamp `min(j, cols - 1)`; `j <
  /// cols`) gets a copy in which each test has the value it has in the
  /// middle of the row, and the row runs as the items before the middle
  /// range (the full body), the middle range (the copy, free of those
  /// tests and so vectorisable) and the items after it (the full body
  /// again). Which value is "the middle's": `==` false, `!=` true; an
  /// order test against a bound that varies (a size) holds below it, one
  /// against a constant (with an offset: `j > 0`) holds above it; a test of
  /// the bare local id against a constant (`lx < 4`: a halo's first items,
  /// or most of the tile) is left alone.
  ///
  /// Tests of the row have the middle rows' value too (`i == 0`: the
  /// middle range is empty in the grid's first row). Tests of the local row
  /// alone (`r == 0`, `switch (r)`: a tile's halo rows, a fixed share of
  /// every group) get a copy per value besides: the halo rows' middle runs
  /// through the copy made for them.
  void splitAtEdges(Function &F, RowLoop &L, RegionGuards &Guards) {
    constexpr unsigned kMaxSplits = 8, kMaxInstructions = 1500, kMaxRowKinds = 4;
    unsigned Size = 0;
    for (BasicBlock *BB : L.Body)
      Size += BB->size();
    if (!SplitRows || !L.More || Size > kMaxInstructions)
      return;

    // A copy of the body; its instructions' originals in `Original`.
    ValueToValueMapTy VMap;
    SmallVector<BasicBlock *, 32> Main = cloneBlocks(L.Body, VMap, ".mid", F);
    DenseMap<Instruction *, Instruction *> Original;
    for (BasicBlock *BB : L.Body)
      for (Instruction &I : *BB)
        Original[cast<Instruction>(VMap[&I])] = &I;

    // What the middle copy changed, in order, to make the other copies.
    struct Edit {
      Instruction *Orig;  // in the body
      enum { Bool, Lhs, Rhs, Case } Kind;
      bool Value = false; // Bool: the test's value
      ConstantInt *Cond = nullptr; // Case: the switch's condition
    };
    SmallVector<Edit, 8> Edits;
    struct Split {
      Guard G;
      bool Holds; // the test's value in the middle range
      // Or a test of the row (`r == 0`, a switch on the row's id): the
      // middle range is empty in rows where it has another value (or runs
      // through a copy made for that value: `LocalRow`).
      Value *Row = nullptr;
      SmallVector<ConstantInt *, 4> Cases; // a switch's: the row is none
      bool LocalRow = false;
      unsigned EditIndex = 0;
    };
    SmallVector<Split, 8> Splits;
    // Rounds: a clamp replaced by its operand exposes the tests of it
    // (`min(j, cols - 1) > 0` becomes `j > 0`).
    for (unsigned Round = 0; Round < 3 && Splits.size() < kMaxSplits; ++Round) {
      bool Changed = false;
      // A switch on `x + offset` (what the simplifier makes of `if (c == 0)
      // ...; if (c == 15) ...`): every case is a point the middle avoids.
      for (BasicBlock *BB : Main) {
        auto *Switch = dyn_cast<SwitchInst>(BB->getTerminator());
        if (!Switch || Splits.size() + Switch->getNumCases() > kMaxSplits)
          continue;
        SmallVector<Split, 4> Points;
        if (Guards.sameForGroup(Switch->getCondition()))
          continue; // the same for the group: unswitching's business
        if (Guards.sameForRow(Switch->getCondition())) {
          Points.push_back({Guard(), false, Switch->getCondition()});
          Points.back().LocalRow = Guards.localRowOnly(Switch->getCondition());
          for (auto &Case : Switch->cases())
            Points.back().Cases.push_back(Case.getCaseValue());
        } else {
          for (auto &Case : Switch->cases())
            if (std::optional<Guard> G = Guards.comparison(
                    ICmpInst::ICMP_EQ, Switch->getCondition(), Case.getCaseValue()))
              Points.push_back({*G, false});
          if (Points.size() != Switch->getNumCases())
            continue;
        }
        if (Points.empty() || Switch->getNumCases() == 0)
          continue;
        // The default in the copy: the switch on a value no case names (the
        // clean-up folds it, and the cases' blocks with it). Among NumCases
        // + 1 values one is no case, if the type has that many.
        auto *Ty = cast<IntegerType>(Switch->getCondition()->getType());
        uint64_t None = 0;
        while (None <= Switch->getNumCases() && isUIntN(Ty->getBitWidth(), None) &&
               Switch->findCaseValue(ConstantInt::get(Ty, None)) != Switch->case_default())
          ++None;
        if (None > Switch->getNumCases() || !isUIntN(Ty->getBitWidth(), None))
          continue;
        for (Split &P : Points)
          P.EditIndex = Edits.size();
        Splits.append(Points.begin(), Points.end());
        Edits.push_back({Original.lookup(Switch), Edit::Case, false, ConstantInt::get(Ty, None)});
        Switch->setCondition(Edits.back().Cond);
        Changed = true;
      }
      for (BasicBlock *BB : Main)
        for (Instruction &I : *BB) {
          if (I.use_empty() || Splits.size() >= kMaxSplits)
            continue;
          CmpInst::Predicate Pred;
          Value *A, *B;
          auto *MinMax = dyn_cast<MinMaxIntrinsic>(&I);
          if (auto *Cmp = dyn_cast<ICmpInst>(&I)) {
            Pred = Cmp->getPredicate();
            A = Cmp->getOperand(0);
            B = Cmp->getOperand(1);
          } else if (MinMax) { // min(a, b) is `a Pred b ? a : b`
            Pred = MinMax->getPredicate();
            A = MinMax->getLHS();
            B = MinMax->getRHS();
          } else {
            continue;
          }
          if (!MinMax && ICmpInst::isEquality(Pred) && Guards.sameForRow(&I) &&
              !Guards.sameForGroup(&I)) {
            // `r == 0`: false in the middle rows.
            const bool Holds = Pred == ICmpInst::ICMP_NE;
            Splits.push_back({Guard(), Holds, &I});
            Splits.back().LocalRow = Guards.localRowOnly(&I);
            Splits.back().EditIndex = Edits.size();
            Edits.push_back({Original.lookup(&I), Edit::Bool, Holds});
            I.replaceAllUsesWith(ConstantInt::getBool(I.getType(), Holds));
            Changed = true;
            continue;
          }
          std::optional<Guard> G = Guards.comparison(Pred, A, B);
          if (!G)
            continue;
          bool Holds;
          if (ICmpInst::isEquality(G->Pred)) {
            Holds = G->Pred == ICmpInst::ICMP_NE;
          } else if (isa<Constant>(G->Bound) && !G->Offset) {
            continue;
          } else {
            const bool Below = ICmpInst::isLT(G->Pred) || ICmpInst::isLE(G->Pred);
            Holds = isa<Constant>(G->Bound) ? !Below : Below;
          }
          Splits.push_back({*G, Holds});
          if (MinMax)
            Edits.push_back({Original.lookup(&I), Holds ? Edit::Lhs : Edit::Rhs});
          else
            Edits.push_back({Original.lookup(&I), Edit::Bool, Holds});
          I.replaceAllUsesWith(MinMax ? (Holds ? A : B)
                                      : ConstantInt::getBool(I.getType(), Holds));
          Changed = true;
        }
      if (!Changed)
        break;
    }
    if (Splits.empty()) {
      for (BasicBlock *Copy : Main)
        Copy->dropAllReferences();
      for (BasicBlock *Copy : Main)
        Copy->eraseFromParent();
      return;
    }

    // The kinds of row the local-row tests make: the middle rows (kind 0,
    // the copy above) and, per test and value other than the middle's, the
    // rows with that value (kind k, a copy of its own).
    struct RowKind {
      unsigned Split;
      ConstantInt *Case; // the switch's value, or null: the test's other value
    };
    SmallVector<RowKind, 4> Kinds;
    for (unsigned I = 0; I < Splits.size(); ++I) {
      const Split &S = Splits[I];
      if (!S.Row || !S.LocalRow)
        continue;
      if (S.Cases.empty())
        Kinds.push_back({I, nullptr});
      for (ConstantInt *K : S.Cases)
        Kinds.push_back({I, K});
    }
    if (Kinds.size() > kMaxRowKinds || Size * (Kinds.size() + 1) > kMaxInstructions) {
      for (Split &S : Splits)
        S.LocalRow = false; // such rows run the full body, as other row tests
      Kinds.clear();
    }
    struct MidLoop {
      BasicBlock *Head, *Latch;
      PHINode *X;
      ICmpInst *More;
    };
    auto MidOf = [&](ValueToValueMapTy &VM) {
      return MidLoop{cast<BasicBlock>(VM[L.XHead]), cast<BasicBlock>(VM[L.XLatch]),
                     cast<PHINode>(VM[L.X]), cast<ICmpInst>(VM[L.More])};
    };
    SmallVector<MidLoop, 5> Mids = {MidOf(VMap)};
    for (unsigned K = 0; K < Kinds.size(); ++K) {
      ValueToValueMapTy KMap;
      cloneBlocks(L.Body, KMap, ".mid" + Twine(K + 1), F);
      for (unsigned E = 0; E < Edits.size(); ++E) {
        const Edit &Ed = Edits[E];
        auto *I = cast<Instruction>(KMap[Ed.Orig]);
        const bool Changed = E == Splits[Kinds[K].Split].EditIndex;
        switch (Ed.Kind) {
        case Edit::Case:
          cast<SwitchInst>(I)->setCondition(Changed ? Kinds[K].Case : Ed.Cond);
          break;
        case Edit::Bool:
          I->replaceAllUsesWith(ConstantInt::getBool(I->getType(), Ed.Value != Changed));
          break;
        case Edit::Lhs:
        case Edit::Rhs:
          I->replaceAllUsesWith(cast<MinMaxIntrinsic>(I)->getOperand(Ed.Kind == Edit::Rhs));
          break;
        }
      }
      Mids.push_back(MidOf(KMap));
    }

    // The middle range [MLo, MHi) in the row's header: where every test has
    // its middle value, within the row's items [XLo, XHi); and the row's
    // kind.
    LLVMContext &C = F.getContext();
    IRBuilder<> B(L.YHead->getTerminator());
    DenseMap<Value *, Value *> Memo;
    Value *MLo = L.XLo, *MHi = L.XHi;
    Value *RowMiddle = B.getTrue();
    Value *Kind = B.getInt32(0), *AnyOther = B.getFalse();
    for (unsigned I = 0; I < Splits.size(); ++I) {
      const Split &S = Splits[I];
      if (S.Row) {
        Value *V = B.CreateFreeze(Guards.forRow(S.Row, B, L.Y, L.Z, Memo));
        Value *Middle = S.Cases.empty() ? B.CreateICmpEQ(V, B.getInt1(S.Holds)) : B.getTrue();
        for (ConstantInt *K : S.Cases)
          Middle = B.CreateAnd(Middle, B.CreateICmpNE(V, K));
        if (!S.LocalRow) {
          RowMiddle = B.CreateAnd(RowMiddle, Middle);
          continue;
        }
        // One local-row test away from the middle: that test's kind; two:
        // none (the full body).
        Value *Other = B.CreateNot(Middle);
        RowMiddle = B.CreateAnd(RowMiddle, B.CreateNot(B.CreateAnd(AnyOther, Other)));
        AnyOther = B.CreateOr(AnyOther, Other);
        for (unsigned K = 0; K < Kinds.size(); ++K)
          if (Kinds[K].Split == I)
            Kind = B.CreateSelect(Kinds[K].Case ? B.CreateICmpEQ(V, Kinds[K].Case) : Other,
                                  B.getInt32(K + 1), Kind);
        continue;
      }
      Guard G = S.G;
      Value *Lo, *Hi;
      if (ICmpInst::isEquality(G.Pred)) {
        // Items other than the one at the point: the larger side of it.
        G.Pred = ICmpInst::ICMP_EQ;
        auto [P, PEnd] = Guards.interval(B, G, L.Y, L.Z, L.LX, Memo);
        Value *Before = B.CreateICmpSGE(B.CreateSub(P, L.XLo), B.CreateSub(L.XHi, PEnd));
        Lo = B.CreateSelect(Before, L.XLo, PEnd);
        Hi = B.CreateSelect(Before, P, L.XHi);
      } else {
        if (!S.Holds)
          G.Pred = CmpInst::getInversePredicate(G.Pred);
        std::tie(Lo, Hi) = Guards.interval(B, G, L.Y, L.Z, L.LX, Memo);
      }
      MLo = B.CreateBinaryIntrinsic(Intrinsic::umax, MLo, Lo);
      MHi = B.CreateBinaryIntrinsic(Intrinsic::umin, MHi, Hi);
    }
    MLo = B.CreateBinaryIntrinsic(Intrinsic::umin, MLo, L.XHi, nullptr, "mid.lo");
    MHi = B.CreateBinaryIntrinsic(Intrinsic::umax, MHi, MLo);
    MHi = B.CreateSelect(RowMiddle, MHi, MLo, "mid.hi");

    // Before, middle, after: the full body runs [XLo, MLo), then the copy
    // for the row's kind [MLo, MHi), then the full body again [MHi, XHi).
    BasicBlock *SegHead = BasicBlock::Create(C, L.XHead->getName() + ".part", &F, L.XHead);
    BasicBlock *SegDone = BasicBlock::Create(C, L.XHead->getName() + ".part.done", &F);
    BasicBlock *MidPre = BasicBlock::Create(C, L.XHead->getName() + ".mid.pre", &F);
    L.YHead->getTerminator()->replaceSuccessorWith(L.XHead, SegHead);
    IRBuilder<> SB(SegHead);
    PHINode *After = SB.CreatePHI(Type::getInt1Ty(C), 3, "after.mid");
    After->addIncoming(SB.getFalse(), L.YHead);
    Value *SegLo = SB.CreateSelect(After, MHi, L.XLo);
    Value *SegHi = SB.CreateSelect(After, L.XHi, MLo);
    SB.CreateCondBr(SB.CreateICmpULT(SegLo, SegHi), L.XHead, SegDone);
    L.X->setIncomingBlock(L.X->getBasicBlockIndex(L.YHead), SegHead);
    L.X->setIncomingValueForBlock(SegHead, SegLo);
    L.More->setOperand(1, SegHi);
    L.XLatch->getTerminator()->replaceSuccessorWith(L.YLatch, SegDone);
    IRBuilder<>(SegDone).CreateCondBr(After, L.YLatch, MidPre);
    IRBuilder<> MB(MidPre);
    BasicBlock *MidKinds = MidPre;
    if (Mids.size() > 1) {
      MidKinds = BasicBlock::Create(C, L.XHead->getName() + ".mid.kind", &F);
      IRBuilder<> KB(MidKinds);
      SwitchInst *SW = KB.CreateSwitch(Kind, Mids[0].Head, Mids.size() - 1);
      for (unsigned K = 1; K < Mids.size(); ++K)
        SW->addCase(KB.getInt32(K), Mids[K].Head);
    }
    MB.CreateCondBr(MB.CreateICmpULT(MLo, MHi), Mids.size() > 1 ? MidKinds : Mids[0].Head,
                    SegHead);
    After->addIncoming(SB.getTrue(), MidPre);
    for (MidLoop &Mid : Mids) {
      // The copy is made to be vectorised: a tile's row is short enough
      // (its trip count known to be at most 16) that the vectoriser would
      // otherwise refuse any run-time check or scalar remainder; and the
      // items left over after whole vectors (the middle of a 16-item row
      // is 14) are better run masked where the target can.
      auto Hint = [&](const char *Name) {
        return MDNode::get(C, {MDString::get(C, Name),
                               ConstantAsMetadata::get(ConstantInt::getTrue(C))});
      };
      MDNode *Id = MDNode::getDistinct(C, {nullptr, Hint("llvm.loop.vectorize.enable")});
      Id->replaceOperandWith(0, Id);
      Mid.More->getParent()->getTerminator()->setMetadata(LLVMContext::MD_loop, Id);
      Mid.X->setIncomingBlock(Mid.X->getBasicBlockIndex(L.YHead), MidKinds);
      Mid.X->setIncomingValueForBlock(MidKinds, MLo);
      Mid.More->setOperand(1, MHi);
      Mid.Latch->getTerminator()->replaceSuccessorWith(L.YLatch, SegHead);
      After->addIncoming(SB.getTrue(), Mid.Latch);
    }
  }

  bool transform(Function &F, CallInst &Mark) {
    LLVMContext &C = F.getContext();
    Type *I32 = Type::getInt32Ty(C), *I64 = Type::getInt64Ty(C);
    PointerType *Ptr = PointerType::getUnqual(C);
    const DataLayout &DL = M.getDataLayout();

    // The kernel part only: `return 0` unless the marker says 1.
    BasicBlock *MarkBlock = Mark.getParent();
    Mark.replaceAllUsesWith(ConstantInt::get(Mark.getType(), 1));
    Mark.eraseFromParent();
    SimplifyInstructionsInBlock(MarkBlock);
    ConstantFoldTerminator(MarkBlock, true);
    removeUnreachableBlocks(F);

    // The shape every group of this kernel has, if the entry promises one:
    // the loops are compiled for it.
    std::optional<std::array<uint64_t, 3>> FixedShape;
    for (Instruction &I : make_early_inc_range(instructions(F)))
      if (auto *CI = dyn_cast<CallInst>(&I))
        if (CI->getCalledFunction() && CI->getCalledFunction()->getName() == kFixedShape) {
          std::array<uint64_t, 3> S;
          bool Constant = CI->arg_size() == 3;
          for (unsigned D = 0; D < 3 && Constant; ++D) {
            auto *V = dyn_cast<ConstantInt>(CI->getArgOperand(D));
            Constant = V && V->getZExtValue() > 0;
            S[D] = Constant ? V->getZExtValue() : 0;
          }
          if (Constant && !FixedShape)
            FixedShape = S;
          CI->eraseFromParent();
        }

    // A new entry block holds the allocas and the group's set-up.
    BasicBlock *Body = &F.getEntryBlock();
    BasicBlock *Prolog = BasicBlock::Create(C, "wi.prolog", &F, Body);
    SmallVector<AllocaInst *, 16> Allocas;
    for (Instruction &I : make_early_inc_range(*Body))
      if (auto *A = dyn_cast<AllocaInst>(&I)) {
        A->moveBefore(Prolog->end());
        Allocas.push_back(A);
      }

    // The group's item, and the copy the kernel reads, whose local id the
    // loops set.
    IRBuilder<> IB(Prolog);
    FunctionCallee CurrentFn = M.getOrInsertFunction(kCurrentItem, Ptr);
    CallInst *GroupItem = IB.CreateCall(CurrentFn, {}, "group.item");
    AllocaInst *Item = IB.CreateAlloca(
        ArrayType::get(Type::getInt8Ty(C), kItemBytes), nullptr, "item");
    Item->setAlignment(Align(8));
    IB.CreateMemCpy(Item, Align(8), GroupItem, Align(8), kItemBytes);
    for (Instruction &I : make_early_inc_range(instructions(F)))
      if (auto *CI = dyn_cast<CallInst>(&I))
        if (CI != GroupItem && CI->getCalledFunction() &&
            CI->getCalledFunction()->getName() == kCurrentItem) {
          CI->replaceAllUsesWith(Item);
          CI->eraseFromParent();
        }
    // Barrier calls each alone in a block; the block after one starts its
    // region.
    Function *BarrierFn = M.getFunction(kBarrier);
    SmallVector<CallInst *, 8> Barriers;
    if (BarrierFn)
      for (User *U : BarrierFn->users())
        if (auto *CI = dyn_cast<CallInst>(U))
          if (CI->getFunction() == &F)
            Barriers.push_back(CI);
    if (CutBarrierLoops) {
      // (Every stack variable counts as each work-item's here.)
      DenseSet<AllocaInst *> AllPrivate(Allocas.begin(), Allocas.end());
      class Rematerialiser Early(F, *Prolog, *Item, AllPrivate);
      // (The prolog's branch comes at the end; the analyses need one now.)
      BranchInst *ToBody = BranchInst::Create(Body, Prolog);
      BarrierLoopCuts(F, Early).run(Barriers);
      ToBody->eraseFromParent();
    }
    // Source order, so region numbers are stable.
    DenseMap<const BasicBlock *, unsigned> Order;
    for (BasicBlock &BB : F)
      Order[&BB] = Order.size();
    llvm::sort(Barriers, [&](CallInst *A, CallInst *B) {
      if (A->getParent() != B->getParent())
        return Order[A->getParent()] < Order[B->getParent()];
      return A->comesBefore(B);
    });
    SmallVector<BasicBlock *, 8> BarrierBlocks;
    SmallVector<Region, 8> Regions(1);
    Regions[0].Start = Body;
    DenseMap<BasicBlock *, unsigned> BarrierId; // barrier block -> region
    for (CallInst *B : Barriers) {
      BasicBlock *BB = B->getParent();
      if (&BB->front() != B)
        BB = SplitBlock(BB, B);
      BasicBlock *After = SplitBlock(BB, B->getNextNode());
      BarrierBlocks.push_back(BB);
      BarrierId[BB] = Regions.size();
      Regions.emplace_back();
      Regions.back().Start = After;
    }
    const unsigned Exit = Regions.size();

    // Regions: blocks reachable from their start without crossing a barrier.
    for (Region &R : Regions) {
      SmallVector<BasicBlock *, 16> Work{R.Start};
      R.Set.insert(R.Start);
      while (!Work.empty()) {
        BasicBlock *BB = Work.pop_back_val();
        R.Blocks.push_back(BB);
        for (BasicBlock *S : successors(BB))
          if (!BarrierId.count(S) && R.Set.insert(S).second)
            Work.push_back(S);
      }
    }
    // Blocks from which each barrier can be reached (any path).
    SmallVector<DenseSet<BasicBlock *>, 8> Reaches(Regions.size());
    for (unsigned K = 1; K < Regions.size(); ++K) {
      SmallVector<BasicBlock *, 16> Work{BarrierBlocks[K - 1]};
      while (!Work.empty()) {
        BasicBlock *BB = Work.pop_back_val();
        for (BasicBlock *P : predecessors(BB))
          if (P != Prolog && Reaches[K].insert(P).second)
            Work.push_back(P);
      }
    }

    // Stack variables whose contents a work-item needs after a barrier get
    // a copy per work-item; the others (most: scratch arrays used between
    // two barriers) stay one, which SROA can keep in registers.
    DenseSet<AllocaInst *> Private;
    if (Regions.size() > 1)
      for (AllocaInst *A : Allocas) {
        SmallPtrSet<BasicBlock *, 16> UseBlocks;
        SmallVector<Instruction *, 16> Work{A};
        SmallPtrSet<Instruction *, 16> Seen{A};
        bool Escapes = false;
        while (!Work.empty() && !Escapes) {
          Instruction *P = Work.pop_back_val();
          for (Use &U : P->uses()) {
            auto *User = cast<Instruction>(U.getUser());
            UseBlocks.insert(User->getParent());
            if (isa<GetElementPtrInst>(User) || isa<CastInst>(User) || isa<PHINode>(User) ||
                isa<SelectInst>(User)) {
              if (Seen.insert(User).second)
                Work.push_back(User);
            } else if (auto *St = dyn_cast<StoreInst>(User)) {
              Escapes = St->getValueOperand() == P;
            } else if (!isa<LoadInst>(User) && !isa<MemIntrinsic>(User) &&
                       !User->isLifetimeStartOrEnd() && !isa<DbgInfoIntrinsic>(User)) {
              Escapes = true; // a call or an atomic: anything may follow
            }
          }
        }
        bool Crosses = Escapes;
        for (unsigned K = 1; K < Regions.size() && !Crosses; ++K) {
          bool Before = false, After = false;
          for (BasicBlock *BB : UseBlocks) {
            Before |= Reaches[K].contains(BB);
            After |= Regions[K].Set.contains(BB);
          }
          Crosses = Before && After;
        }
        if (Crosses)
          Private.insert(A);
      }
    class Rematerialiser Rematerialiser(F, *Prolog, *Item, Private);
    RegionGuards Guards(Rematerialiser, *Item, DL);

    // Values some work-item needs after a barrier that it computed before.
    auto UseBlock = [](Use &U) {
      auto *User = cast<Instruction>(U.getUser());
      if (auto *Phi = dyn_cast<PHINode>(User))
        return Phi->getIncomingBlock(U);
      return User->getParent();
    };
    // A use in region K sees a value from before barrier K only where the
    // region reaches it without running the definition again: the blocks
    // region K reaches from its start avoiding the defining block.
    DenseMap<std::pair<unsigned, BasicBlock *>, DenseSet<BasicBlock *>> Avoiding;
    auto AvoidingDef = [&](unsigned K, BasicBlock *Def) -> const DenseSet<BasicBlock *> & {
      auto [It, New] = Avoiding.try_emplace({K, Def});
      if (New && Regions[K].Start != Def) {
        DenseSet<BasicBlock *> &Set = It->second;
        SmallVector<BasicBlock *, 16> Work{Regions[K].Start};
        Set.insert(Regions[K].Start);
        while (!Work.empty())
          for (BasicBlock *S : successors(Work.pop_back_val()))
            if (S != Def && Regions[K].Set.contains(S) && Set.insert(S).second)
              Work.push_back(S);
      }
      return It->second;
    };
    SmallVector<Instruction *, 32> Demoted;
    if (Regions.size() > 1)
      for (BasicBlock &BB : F) {
        if (&BB == Prolog || BarrierId.count(&BB))
          continue;
        for (Instruction &I : BB) {
          if (I.getType()->isVoidTy() || isa<AllocaInst>(I))
            continue;
          bool Crosses = false;
          for (Use &U : I.uses()) {
            BasicBlock *UB = UseBlock(U);
            if (UB == &BB)
              continue; // later in the defining block: no barrier between
            for (unsigned K = 1; K < Regions.size() && !Crosses; ++K)
              Crosses = Reaches[K].contains(&BB) && Regions[K].Set.contains(UB) &&
                        AvoidingDef(K, &BB).contains(UB);
            if (Crosses)
              break;
          }
          if (Crosses)
            Demoted.push_back(&I);
        }
      }
    // Those computed from the group's invariants are computed once, in the
    // prolog; those from the work-item's id too are computed again where
    // used; the others are saved.
    SmallVector<Instruction *, 32> Hoisted, Recomputed;
    llvm::erase_if(Demoted, [&](Instruction *I) {
      switch (Rematerialiser.kind(I)) {
      case Remat::Uniform:
        Hoisted.push_back(I);
        return true;
      case Remat::PerItem:
        Recomputed.push_back(I);
        return true;
      case Remat::No:
        return false;
      }
      return false;
    });
    // Regions in which nothing is any one work-item's (a loop's counting
    // between the barriers BarrierLoopCuts adds) run once per group: they
    // have no effect but the values they leave and the barrier they go on
    // to, and those are the same for every work-item. The values such
    // regions alone define are kept once for the group (a group slot, which
    // reads as uniform in the regions after). Decided together: a region is
    // uniform while what it reads is, and a value is the group's while
    // every region that defines it is uniform.
    SmallVector<bool, 8> UniformRegion(Regions.size(), false);
    SetVector<Instruction *> GroupValues;
    if (Regions.size() > 1) {
      GroupValues.insert(Demoted.begin(), Demoted.end());
      UniformRegion.assign(Regions.size(), true);
      auto IsUniform = [&](Region &R) {
        auto Alike = [&](Value *V) {
          if (auto *I = dyn_cast<Instruction>(V))
            if (GroupValues.contains(I) || R.Set.contains(I->getParent()))
              return true; // (the latter is checked in its turn)
          return Rematerialiser.kind(V) == Remat::Uniform;
        };
        for (BasicBlock *BB : R.Blocks)
          for (Instruction &I : *BB) {
            if (is_contained(Demoted, &I) && !GroupValues.contains(&I))
              return false; // saved for each work-item
            if (auto *P = dyn_cast<PHINode>(&I)) {
              for (unsigned In = 0; In < P->getNumIncomingValues(); ++In)
                if (R.Set.contains(P->getIncomingBlock(In)) &&
                    !Alike(P->getIncomingValue(In)))
                  return false;
              continue;
            }
            if (isa<ReturnInst>(I) || isa<UnreachableInst>(I))
              continue; // (the copy branches to the exit instead)
            if (auto *Br = dyn_cast<BranchInst>(&I)) {
              if (Br->isConditional() && !Alike(Br->getCondition()))
                return false;
              continue;
            }
            if (auto *Switch = dyn_cast<SwitchInst>(&I)) {
              if (!Alike(Switch->getCondition()))
                return false;
              continue;
            }
            if (I.isTerminator())
              return false;
            if (I.mayHaveSideEffects() ||
                (I.mayReadFromMemory() && Rematerialiser.kind(&I) != Remat::Uniform) ||
                !all_of(I.operands(), Alike))
              return false;
          }
        return true;
      };
      for (bool Changed = true; Changed;) {
        Changed = false;
        for (unsigned K = 0; K < Regions.size(); ++K)
          if (UniformRegion[K] && !IsUniform(Regions[K])) {
            UniformRegion[K] = false;
            Changed = true;
          }
        for (Instruction *I : SmallVector<Instruction *, 16>(GroupValues.begin(),
                                                             GroupValues.end()))
          for (unsigned K = 0; K < Regions.size(); ++K)
            if (!UniformRegion[K] && Regions[K].Set.contains(I->getParent())) {
              GroupValues.remove(I);
              Changed = true;
              break;
            }
      }
      llvm::erase_if(Demoted, [&](Instruction *I) { return GroupValues.contains(I); });
    }

    // Per-work-item slots: demoted values, then (with barriers) the
    // kernel's stack variables. Layout: slot after slot, each an array over
    // the group's work-items.
    struct Slot {
      Value *Of;
      uint64_t Stride;
      Align Alignment;
      Value *Base = nullptr;
    };
    SmallVector<Slot, 32> Slots;
    for (Instruction *I : Demoted)
      Slots.push_back({I, DL.getTypeAllocSize(I->getType()),
                       DL.getABITypeAlign(I->getType())});
    for (AllocaInst *A : Allocas)
      if (Private.contains(A)) {
        Align Al = A->getAlign();
        uint64_t Bytes = DL.getTypeAllocSize(A->getAllocatedType()) *
                         cast<ConstantInt>(A->getArraySize())->getZExtValue();
        Slots.push_back({A, alignTo(std::max<uint64_t>(Bytes, 1), Al), Al});
      }

    // The rest of the prolog: local sizes, the storage.
    IRBuilder<> B(Prolog);
    Value *SizeAddr = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), GroupItem,
                                                   kLocalSizeOffset);
    Value *LX = B.CreateZExt(B.CreateLoad(I32, SizeAddr, "lx"), I64);
    Value *LY = B.CreateZExt(
        B.CreateLoad(I32, B.CreateConstInBoundsGEP1_64(I32, SizeAddr, 1), "ly"),
        I64);
    Value *LZ = B.CreateZExt(
        B.CreateLoad(I32, B.CreateConstInBoundsGEP1_64(I32, SizeAddr, 2), "lz"),
        I64);
    if (FixedShape) {
      // A group of another shape (a launch the promise did not foresee)
      // runs on fibers.
      Value *Differs = B.CreateOr(
          B.CreateOr(B.CreateICmpNE(LX, B.getInt64((*FixedShape)[0])),
                     B.CreateICmpNE(LY, B.getInt64((*FixedShape)[1]))),
          B.CreateICmpNE(LZ, B.getInt64((*FixedShape)[2])));
      BasicBlock *OtherShape = BasicBlock::Create(C, "wi.other_shape", &F);
      BasicBlock *Go = BasicBlock::Create(C, "wi.shape_ok", &F);
      B.CreateCondBr(Differs, OtherShape, Go);
      IRBuilder<> OB(OtherShape);
      std::string Why = "its work-groups are not of the shape it requires (" +
                        std::to_string((*FixedShape)[0]) + "x" +
                        std::to_string((*FixedShape)[1]) + "x" +
                        std::to_string((*FixedShape)[2]) + ")";
      OB.CreateCall(M.getOrInsertFunction(kMarker, I32, Ptr),
                    {OB.CreateGlobalString(Why, "slmc.wi.shape")});
      OB.CreateRet(ConstantInt::get(F.getReturnType(), kUseFibers));
      B.SetInsertPoint(Go);
      LX = B.getInt64((*FixedShape)[0]);
      LY = B.getInt64((*FixedShape)[1]);
      LZ = B.getInt64((*FixedShape)[2]);
    }
    Value *Items = B.CreateMul(B.CreateMul(LX, LY), LZ, "items");
    AllocaInst *MinNext = B.CreateAlloca(I32, nullptr, "next.min");
    AllocaInst *MaxNext = B.CreateAlloca(I32, nullptr, "next.max");
    AllocaInst *State = B.CreateAlloca(I32, nullptr, "region");
    if (!Slots.empty()) {
      uint64_t Offset = 0; // bytes per work-item before each slot
      Align Max(16);
      for (Slot &S : Slots)
        Max = std::max(Max, S.Alignment);
      SmallVector<uint64_t, 32> Offsets;
      for (Slot &S : Slots) {
        Offset = alignTo(Offset, Max);
        Offsets.push_back(Offset);
        Offset += S.Stride;
      }
      Offset = alignTo(Offset, Max);
      FunctionCallee StorageFn = M.getOrInsertFunction(kStorage, Ptr, I64, I64);
      Value *Storage = B.CreateCall(
          StorageFn,
          {B.CreateMul(Items, B.getInt64(Offset)), B.getInt64(Max.value())},
          "wi.storage");
      BasicBlock *NoStorage = BasicBlock::Create(C, "wi.no_storage", &F);
      BasicBlock *Go = BasicBlock::Create(C, "wi.go", &F);
      B.CreateCondBr(B.CreateIsNull(Storage), NoStorage, Go);
      IRBuilder<>(NoStorage).CreateRet(
          ConstantInt::get(F.getReturnType(), kUseFibers));
      B.SetInsertPoint(Go);
      for (unsigned I = 0; I < Slots.size(); ++I)
        Slots[I].Base = B.CreateInBoundsGEP(
            B.getInt8Ty(), Storage, B.CreateMul(Items, B.getInt64(Offsets[I])),
            "slot");
    }
    BasicBlock *PrologEnd = B.GetInsertBlock();
    for (Instruction *I : Hoisted) {
      DenseMap<Value *, Value *> Memo;
      I->replaceAllUsesWith(Rematerialiser.copyAt(I, PrologEnd->end(), Memo));
    }
    for (Instruction *I : Recomputed)
      for (Use &U : make_early_inc_range(I->uses())) {
        auto *User = cast<Instruction>(U.getUser());
        BasicBlock::iterator At = User->getIterator();
        if (auto *Phi = dyn_cast<PHINode>(User))
          At = Phi->getIncomingBlock(U)->getTerminator()->getIterator();
        DenseMap<Value *, Value *> Memo;
        U.set(Rematerialiser.copyAt(I, At, Memo));
      }

    // The group's values: one slot each, read where used, written where
    // defined (only in regions that run once).
    for (Instruction *I : GroupValues) {
      Type *T = I->getType();
      auto *Slot = new AllocaInst(T, DL.getAllocaAddrSpace(), nullptr,
                                  DL.getPrefTypeAlign(T), I->getName() + ".group",
                                  Prolog->getFirstInsertionPt());
      for (Use &U : make_early_inc_range(I->uses())) {
        auto *User = cast<Instruction>(U.getUser());
        Instruction *Before = User;
        if (auto *Phi = dyn_cast<PHINode>(User))
          Before = Phi->getIncomingBlock(U)->getTerminator();
        U.set(new LoadInst(T, Slot, I->getName() + ".g", Before->getIterator()));
      }
      BasicBlock::iterator After = isa<PHINode>(I) ? I->getParent()->getFirstNonPHIIt()
                                                   : std::next(I->getIterator());
      new StoreInst(I, Slot, After);
      Rematerialiser.addGroupSlot(Slot);
    }

    // Placeholder for "this work-item's linear id", one per use, replaced
    // in each region's copy.
    Function *WiFn =
        Function::Create(FunctionType::get(I64, false),
                         GlobalValue::PrivateLinkage, "slmc.wi.linear", M);
    auto AddressAt = [&](Slot &S, Instruction *Before) {
      IRBuilder<> U(Before);
      Value *Wi = U.CreateCall(WiFn);
      return U.CreateInBoundsGEP(U.getInt8Ty(), S.Base,
                                 U.CreateMul(Wi, U.getInt64(S.Stride)));
    };
    auto InsertionFor = [&](Use &U) -> Instruction * {
      auto *User = cast<Instruction>(U.getUser());
      if (auto *Phi = dyn_cast<PHINode>(User))
        return Phi->getIncomingBlock(U)->getTerminator();
      return User;
    };

    for (Slot &S : Slots) {
      if (auto *A = dyn_cast<AllocaInst>(S.Of)) {
        for (Use &U : make_early_inc_range(A->uses())) {
          auto *User = cast<Instruction>(U.getUser());
          if (User->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(User)) {
            User->eraseFromParent();
            continue;
          }
          U.set(AddressAt(S, InsertionFor(U)));
        }
        A->replaceAllUsesWith(PoisonValue::get(A->getType())); // debug records
        A->eraseFromParent();
        continue;
      }
      auto *I = cast<Instruction>(S.Of);
      Type *T = I->getType();
      DenseMap<BasicBlock *, Value *> AtEnd; // one reload per incoming block
      for (Use &U : make_early_inc_range(I->uses())) {
        Instruction *Before = InsertionFor(U);
        bool Phi = isa<PHINode>(U.getUser());
        if (Phi) {
          Value *&V = AtEnd[Before->getParent()];
          if (!V)
            V = IRBuilder<>(Before).CreateAlignedLoad(
                T, AddressAt(S, Before), S.Alignment, I->getName() + ".wi");
          U.set(V);
        } else {
          U.set(IRBuilder<>(Before).CreateAlignedLoad(
              T, AddressAt(S, Before), S.Alignment, I->getName() + ".wi"));
        }
      }
      Instruction *After = isa<PHINode>(I)
                               ? &*I->getParent()->getFirstNonPHIIt()
                               : I->getNextNode();
      IRBuilder<>(After).CreateAlignedStore(I, AddressAt(S, After),
                                            S.Alignment);
    }

    // One loop nest per region around a copy of its blocks.
    BasicBlock *Dispatch = BasicBlock::Create(C, "wi.dispatch", &F);
    BasicBlock *Finish = BasicBlock::Create(C, "wi.finish", &F);
    BasicBlock *Diverged = BasicBlock::Create(C, "wi.diverged", &F);
    IRBuilder<>(Finish).CreateRet(
        ConstantInt::get(F.getReturnType(), kRanGroup));
    IRBuilder<>(Diverged).CreateRet(
        ConstantInt::get(F.getReturnType(), kDiverged));
    SmallVector<BasicBlock *, 8> Entries; // each region's loop pre-header
    struct Pending {
      BasicBlock *Done;
      unsigned Single; // the one region it can go on with, or ~0u
    };
    SmallVector<Pending, 8> Dones;
    for (unsigned K = 0; K < Regions.size(); ++K) {
      Region &R = Regions[K];
      auto *Pre = BasicBlock::Create(C, "r" + Twine(K) + ".pre", &F);
      auto *ZHead = BasicBlock::Create(C, "r" + Twine(K) + ".z", &F);
      auto *YHead = BasicBlock::Create(C, "r" + Twine(K) + ".y", &F);
      auto *XHead = BasicBlock::Create(C, "r" + Twine(K) + ".x", &F);
      auto *XLatch = BasicBlock::Create(C, "r" + Twine(K) + ".x.latch", &F);
      auto *YLatch = BasicBlock::Create(C, "r" + Twine(K) + ".y.latch", &F);
      auto *ZLatch = BasicBlock::Create(C, "r" + Twine(K) + ".z.latch", &F);
      auto *Done = BasicBlock::Create(C, "r" + Twine(K) + ".done", &F);
      Entries.push_back(Pre);
      // A uniform region's nest runs one work-item, (0, 0, 0).
      const bool Once = UniformRegion[K];
      Value *RX = Once ? B.getInt64(1) : LX, *RY = Once ? B.getInt64(1) : LY,
            *RZ = Once ? B.getInt64(1) : LZ;
      std::optional<Narrowing> Narrow;
      if (!Once)
        Narrow = Guards.find(R.Start, BarrierId, Exit);

      // Copy the blocks; exits go to the latch with the next region.
      ValueToValueMapTy VMap;
      SmallVector<BasicBlock *, 16> Copies;
      for (BasicBlock *BB : R.Blocks) {
        BasicBlock *Copy = CloneBasicBlock(BB, VMap, ".r" + Twine(K), &F);
        VMap[BB] = Copy;
        Copies.push_back(Copy);
      }
      IRBuilder<> LB(XLatch);
      PHINode *Next = LB.CreatePHI(I32, 4, "next");
      DenseMap<unsigned, BasicBlock *> Stubs;
      auto StubFor = [&](unsigned Target) {
        BasicBlock *&S = Stubs[Target];
        if (!S) {
          S = BasicBlock::Create(C, "r" + Twine(K) + ".to" + Twine(Target), &F,
                                 XLatch);
          IRBuilder<>(S).CreateBr(XLatch);
          Next->addIncoming(ConstantInt::get(I32, Target), S);
        }
        return S;
      };
      for (BasicBlock *Copy : Copies) {
        Instruction *T = Copy->getTerminator();
        if (isa<ReturnInst>(T)) {
          IRBuilder<>(T).CreateBr(StubFor(Exit));
          T->eraseFromParent();
          continue;
        }
        for (unsigned S = 0; S < T->getNumSuccessors(); ++S) {
          auto It = BarrierId.find(T->getSuccessor(S));
          if (It != BarrierId.end())
            T->setSuccessor(S, StubFor(It->second));
        }
      }
      for (BasicBlock *Copy : Copies)
        for (Instruction &I : *Copy)
          RemapInstruction(&I, VMap,
                           RF_NoModuleLevelChanges | RF_IgnoreMissingLocals);
      // PHI entries from blocks outside the region never run in this copy.
      DenseSet<BasicBlock *> CopySet(Copies.begin(), Copies.end());
      for (BasicBlock *Copy : Copies)
        for (PHINode &Phi : make_early_inc_range(Copy->phis()))
          for (unsigned I = Phi.getNumIncomingValues(); I-- > 0;)
            if (!CopySet.contains(Phi.getIncomingBlock(I)))
              Phi.removeIncomingValue(I, /*DeletePHIIfEmpty=*/false);

      // The loop nest.
      if (Narrow)
        // Each guard's copy goes straight to its passing side (the failing
        // side's stub stays in Stubs: the row's header counts the items
        // the loop skips).
        for (const Guard &G : Narrow->Guards) {
          auto *Test = cast<BasicBlock>(VMap[G.Block]);
          auto *Active = cast<BasicBlock>(VMap[G.Active]);
          for (BasicBlock *Succ : successors(Test))
            if (Succ != Active)
              Succ->removePredecessor(Test);
          Instruction *Old = Test->getTerminator();
          IRBuilder<>(Old).CreateBr(Active);
          Old->eraseFromParent();
        }
      IRBuilder<> PB(Pre);
      const bool Several = Stubs.size() > 1;
      if (Several) {
        PB.CreateStore(PB.getInt32(~0u), MinNext);
        PB.CreateStore(PB.getInt32(0), MaxNext);
      }
      PB.CreateBr(ZHead);
      IRBuilder<> ZB(ZHead);
      PHINode *Z = ZB.CreatePHI(I64, 2, "z");
      ZB.CreateBr(YHead);
      IRBuilder<> YB(YHead);
      PHINode *Y = YB.CreatePHI(I64, 2, "y");
      Value *Row =
          YB.CreateMul(YB.CreateAdd(YB.CreateMul(Z, LY), Y), LX, "row");
      Value *XLo = YB.getInt64(0), *XHi = RX;
      if (Narrow) {
        std::tie(XLo, XHi) = Guards.activeRange(YB, *Narrow, Y, Z, LX);
        if (Several) {
          // The row's items the loop skips go on with the guards' target.
          Value *Skipped = YB.CreateICmpNE(YB.CreateSub(XHi, XLo), LX);
          Value *Target = YB.getInt32(Narrow->InactiveTarget);
          YB.CreateStore(YB.CreateBinaryIntrinsic(
                             Intrinsic::umin, YB.CreateLoad(I32, MinNext),
                             YB.CreateSelect(Skipped, Target, YB.getInt32(~0u))),
                         MinNext);
          YB.CreateStore(YB.CreateBinaryIntrinsic(
                             Intrinsic::umax, YB.CreateLoad(I32, MaxNext),
                             YB.CreateSelect(Skipped, Target, YB.getInt32(0))),
                         MaxNext);
        }
        YB.CreateCondBr(YB.CreateICmpSLT(XLo, XHi), XHead, YLatch);
      } else {
        YB.CreateBr(XHead);
      }
      IRBuilder<> XB(XHead);
      PHINode *X = XB.CreatePHI(I64, 2, "x");
      Value *Wi = XB.CreateAdd(Row, X, "wi");
      XB.CreateStore(XB.CreateTrunc(X, I32), Item);
      XB.CreateStore(XB.CreateTrunc(Y, I32),
                     XB.CreateConstInBoundsGEP1_64(I32, Item, 1));
      XB.CreateStore(XB.CreateTrunc(Z, I32),
                     XB.CreateConstInBoundsGEP1_64(I32, Item, 2));
      XB.CreateBr(cast<BasicBlock>(VMap[R.Start]));
      if (Several) {
        LB.CreateStore(LB.CreateBinaryIntrinsic(
                           Intrinsic::umin, LB.CreateLoad(I32, MinNext), Next),
                       MinNext);
        LB.CreateStore(LB.CreateBinaryIntrinsic(
                           Intrinsic::umax, LB.CreateLoad(I32, MaxNext), Next),
                       MaxNext);
      }
      Value *X1 = LB.CreateAdd(X, LB.getInt64(1), "x.next", true, true);
      Value *XMore = LB.CreateICmpULT(X1, XHi);
      LB.CreateCondBr(XMore, XHead, YLatch)
          ->setMetadata(kWorkItemLoopMD, MDNode::get(C, {}));
      IRBuilder<> YL(YLatch);
      Value *Y1 = YL.CreateAdd(Y, YL.getInt64(1), "y.next", true, true);
      YL.CreateCondBr(YL.CreateICmpULT(Y1, RY), YHead, ZLatch);
      IRBuilder<> ZL(ZLatch);
      Value *Z1 = ZL.CreateAdd(Z, ZL.getInt64(1), "z.next", true, true);
      ZL.CreateCondBr(ZL.CreateICmpULT(Z1, RZ), ZHead, Done);
      Z->addIncoming(ZB.getInt64(0), Pre);
      Z->addIncoming(Z1, ZLatch);
      Y->addIncoming(YB.getInt64(0), ZHead);
      Y->addIncoming(Y1, YLatch);
      X->addIncoming(XLo, YHead);
      X->addIncoming(X1, XLatch);

      // This work-item's id in the copy.
      for (BasicBlock *Copy : Copies)
        for (Instruction &I : make_early_inc_range(*Copy))
          if (auto *CI = dyn_cast<CallInst>(&I))
            if (CI->getCalledFunction() == WiFn) {
              CI->replaceAllUsesWith(Wi);
              CI->eraseFromParent();
            }

      if (!Once) {
        SmallVector<BasicBlock *, 32> Body{XHead};
        Body.append(Copies.begin(), Copies.end());
        SmallVector<std::pair<unsigned, BasicBlock *>, 4> Exits(Stubs.begin(), Stubs.end());
        llvm::sort(Exits, less_first()); // a stable order of the copies
        for (auto &Exit : Exits)
          Body.push_back(Exit.second);
        Body.push_back(XLatch);
        RowLoop L{YHead, XHead, XLatch, YLatch, X, Y, Z, XLo, XHi, LX,
                  dyn_cast<ICmpInst>(XMore), Body};
        splitAtEdges(F, L, Guards);
      }

      if (Stubs.empty()) { // every path ends in unreachable code
        IRBuilder<>(Done).CreateUnreachable();
        Next->eraseFromParent();
        continue;
      }
      if (!Several) {
        Dones.push_back({Done, Stubs.begin()->first});
        continue;
      }
      IRBuilder<> DB(Done);
      Value *Lo = DB.CreateLoad(I32, MinNext),
            *Hi = DB.CreateLoad(I32, MaxNext);
      BasicBlock *Same = BasicBlock::Create(C, "r" + Twine(K) + ".uniform", &F);
      DB.CreateCondBr(DB.CreateICmpEQ(Lo, Hi), Same, Diverged);
      IRBuilder<> SB(Same);
      SB.CreateStore(Lo, State);
      SB.CreateBr(Dispatch);
    }
    for (Pending &P : Dones)
      IRBuilder<>(P.Done).CreateBr(P.Single == Exit ? Finish
                                                    : Entries[P.Single]);

    IRBuilder<> DB(Dispatch);
    SwitchInst *Switch = DB.CreateSwitch(DB.CreateLoad(I32, State, "region"),
                                         Finish, Regions.size());
    for (unsigned K = 0; K < Regions.size(); ++K)
      Switch->addCase(DB.getInt32(K), Entries[K]);
    IRBuilder<> EB(PrologEnd);
    EB.CreateBr(Entries[0]);

    // The original blocks are dead now.
    SmallVector<BasicBlock *, 32> Dead;
    for (BasicBlock &BB : F)
      if (BB.hasNPredecessors(0) && &BB != Prolog)
        Dead.push_back(&BB);
    // Blocks only dead blocks reach (loops among the originals).
    DenseSet<BasicBlock *> Live;
    SmallVector<BasicBlock *, 32> Work{Prolog};
    Live.insert(Prolog);
    while (!Work.empty())
      for (BasicBlock *S : successors(Work.pop_back_val()))
        if (Live.insert(S).second)
          Work.push_back(S);
    Dead.clear();
    for (BasicBlock &BB : F)
      if (!Live.contains(&BB))
        Dead.push_back(&BB);
    // (A guard's failing side can be such a block: its stub, when only
    // the skipped items went there. The latch's phi forgets it.)
    for (BasicBlock *BB : Dead)
      for (BasicBlock *S : successors(BB))
        if (Live.contains(S))
          S->removePredecessor(BB, /*KeepOneInputPHIs=*/true);
    for (BasicBlock *BB : Dead)
      BB->dropAllReferences();
    for (BasicBlock *BB : Dead)
      for (Instruction &I : *BB)
        if (!I.use_empty()) { // a copy kept a value of the originals
          Why = "internal error: a value crosses a barrier unsaved";
          I.replaceAllUsesWith(PoisonValue::get(I.getType()));
        }
    for (BasicBlock *BB : Dead)
      BB->eraseFromParent();
    if (!WiFn->use_empty()) {
      Why = "internal error: a work-item id outside the loops";
      WiFn->replaceAllUsesWith(PoisonValue::get(WiFn->getType()));
    }
    WiFn->eraseFromParent();
    return Why.empty();
  }
};

/// Whether every object `Ptr` may point into is group-local memory: a
/// thread_local variable (slmc/offload.h's SLMC_GROUP_LOCAL on the host).
bool pointsToGroupLocal(Value *Ptr) {
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(Ptr, Objects);
  if (Objects.empty())
    return false;
  for (const Value *O : Objects) {
    if (auto *II = dyn_cast<IntrinsicInst>(O);
        II && II->getIntrinsicID() == Intrinsic::threadlocal_address)
      O = II->getArgOperand(0)->stripPointerCasts();
    auto *G = dyn_cast<GlobalVariable>(O);
    if (!G || !G->isThreadLocal())
      return false;
  }
  return true;
}

/// A work-group runs on one thread from start to end as loops, so nothing
/// else touches its group-local memory meanwhile: atomic operations on it
/// (the histogram's bins) can be plain loads and stores, which vectorise
/// and cost no locked bus cycle. Atomics on other memory stay.
unsigned demoteGroupLocalAtomics(Function &F) {
  SmallVector<Instruction *, 16> Atomics;
  for (Instruction &I : instructions(F))
    if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
      if (pointsToGroupLocal(RMW->getPointerOperand()))
        Atomics.push_back(RMW);
    } else if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I)) {
      if (pointsToGroupLocal(CX->getPointerOperand()))
        Atomics.push_back(CX);
    }
  for (Instruction *I : Atomics) {
    if (auto *RMW = dyn_cast<AtomicRMWInst>(I))
      lowerAtomicRMWInst(RMW);
    else
      lowerAtomicCmpXchgInst(cast<AtomicCmpXchgInst>(I));
  }
  return Atomics.size();
}

/// Tells the optimiser what every dialect guarantees: group-local memory
/// and the memory a kernel reaches through its captures (buffers, views,
/// accessors) are different address spaces, so a store to a tile never
/// changes what a load from a buffer reads. Accesses to group-local
/// variables get one alias scope; accesses through pointers the launch
/// passed in (loaded from the functor, at any depth), to the kernel's own
/// stack or to non-group-local globals are marked as not in it. Without it
/// the vectoriser checks at run time that the tile and the buffer do not
/// overlap, and it will not do that in loops as short as a tile's row.
/// Pointers of unknown origin (kept across a barrier, computed from an
/// integer) get nothing. Returns the accesses marked.
unsigned scopeGroupLocalAccesses(Function &F) {
  if (F.arg_empty())
    return 0;
  Argument *Args = F.getArg(0);
  // A load chain from the functor: args[i], then what it points to, ...
  std::function<bool(const Value *, unsigned)> FromLaunch = [&](const Value *O, unsigned Depth) {
    if (O == Args)
      return true;
    auto *L = dyn_cast<LoadInst>(O);
    return L && Depth < 6 && FromLaunch(getUnderlyingObject(L->getPointerOperand()), Depth + 1);
  };
  auto NotGroupLocal = [&](Value *Ptr) {
    SmallVector<const Value *, 4> Objects;
    getUnderlyingObjects(Ptr, Objects);
    return !Objects.empty() && all_of(Objects, [&](const Value *O) {
      if (auto *G = dyn_cast<GlobalVariable>(O))
        return !G->isThreadLocal();
      return isa<AllocaInst>(O) || FromLaunch(O, 0);
    });
  };
  MDBuilder MDB(F.getContext());
  MDNode *Domain = MDB.createAnonymousAliasScopeDomain("slmc.group-local");
  MDNode *Scope = MDB.createAnonymousAliasScope(Domain, "slmc.group-local.memory");
  MDNode *Scopes = MDNode::get(F.getContext(), {Scope});
  unsigned Marked = 0;
  for (Instruction &I : instructions(F)) {
    Value *Ptr = getLoadStorePointerOperand(&I);
    if (!Ptr) {
      if (auto *RMW = dyn_cast<AtomicRMWInst>(&I))
        Ptr = RMW->getPointerOperand();
      else if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I))
        Ptr = CX->getPointerOperand();
      else
        continue;
    }
    unsigned Kind;
    if (pointsToGroupLocal(Ptr))
      Kind = LLVMContext::MD_alias_scope;
    else if (NotGroupLocal(Ptr))
      Kind = LLVMContext::MD_noalias;
    else
      continue;
    I.setMetadata(Kind, MDNode::concatenate(I.getMetadata(Kind), Scopes));
    ++Marked;
  }
  return Marked;
}

/// The kernel's functor (the bytes `args[0]` points to, and `args`) is
/// not written while the group runs: the launch keeps it until the kernel
/// is done, and the entry's own copy is what a `mutable` kernel writes. Its
/// loads, which the optimiser forwards from that copy to the original, are
/// marked invariant so that they leave the work-item loops even where the
/// loops store to memory the optimiser cannot tell apart from it
/// (group-local arrays are `thread_local`).
unsigned markFunctorLoadsInvariant(Function &F) {
  if (F.arg_empty())
    return 0;
  Argument *Args = F.getArg(0);
  auto FromFunctor = [&](const Value *Ptr) {
    const Value *Base = getUnderlyingObject(Ptr);
    if (Base == Args)
      return true; // the args array
    auto *L = dyn_cast<LoadInst>(Base);
    return L && getUnderlyingObject(L->getPointerOperand()) == Args; // args[i]
  };
  unsigned Marked = 0;
  MDNode *Empty = MDNode::get(F.getContext(), {});
  for (Instruction &I : instructions(F))
    if (auto *L = dyn_cast<LoadInst>(&I))
      if (L->isSimple() && FromFunctor(L->getPointerOperand())) {
        L->setMetadata(LLVMContext::MD_invariant_load, Empty);
        ++Marked;
      }
  return Marked;
}

/// Versions of a transformed entry for the x86-64 micro-architecture levels
/// above the baseline the program is built for (x86-64-v3: AVX2 and FMA;
/// x86-64-v4: AVX-512), and a dispatcher in the entry's place that runs the
/// one the runtime names (slmc_cpu_isa_level: the host's level, capped by
/// SLMC_CPU_ISA). The work-item loops are where a kernel spends its time and
/// what the vectoriser widens; a program built for baseline x86-64, as
/// distributions build, would otherwise run them 4 floats wide on a machine
/// that does 16. Only entries built for plain x86-64: a user's -march is
/// kept. Returns the versions made.
unsigned addIsaVersions(Function &F) {
  Module &M = *F.getParent();
  if (!IsaVersions || !Triple(M.getTargetTriple()).isX86_64() ||
      F.getFnAttribute("target-cpu").getValueAsString() != "x86-64")
    return 0;
  LLVMContext &Ctx = M.getContext();
  // The dispatcher takes the entry's name and uses; the entry becomes the
  // baseline version.
  Function *D = Function::Create(F.getFunctionType(), F.getLinkage(), F.getAddressSpace(),
                                 "", &M);
  D->copyAttributesFrom(&F);
  D->setComdat(F.getComdat());
  D->takeName(&F);
  F.replaceAllUsesWith(D);
  F.setName(D->getName() + ".x86_64");
  F.setLinkage(GlobalValue::InternalLinkage);
  F.setVisibility(GlobalValue::DefaultVisibility);
  F.setComdat(nullptr);
  struct Level {
    unsigned Number;
    const char *Cpu, *Suffix;
  };
  const Level Levels[] = {{4, "x86-64-v4", ".x86_64_v4"}, {3, "x86-64-v3", ".x86_64_v3"}};
  SmallVector<std::pair<unsigned, Function *>, 2> Versions;
  for (const Level &L : Levels) {
    ValueToValueMapTy VM;
    Function *V = CloneFunction(&F, VM);
    V->setName(D->getName() + L.Suffix);
    V->addFnAttr("target-cpu", L.Cpu);
    Versions.push_back({L.Number, V});
  }
  Versions.push_back({0, &F});

  // entry: switch (slmc_cpu_isa_level()) { case 4: return v4(args); ... }
  FunctionCallee Ask = M.getOrInsertFunction(kIsaLevel, Type::getInt32Ty(Ctx));
  if (auto *AskFn = dyn_cast<Function>(Ask.getCallee()))
    AskFn->setDoesNotThrow();
  BasicBlock *Entry = BasicBlock::Create(Ctx, "entry", D);
  IRBuilder<> B(Entry);
  Value *Lvl = B.CreateCall(Ask);
  SmallVector<Value *, 2> Args;
  for (Argument &A : D->args())
    Args.push_back(&A);
  auto CallVersion = [&](Function *V, StringRef Name) {
    BasicBlock *BB = BasicBlock::Create(Ctx, Name, D);
    IRBuilder<> VB(BB);
    CallInst *CI = VB.CreateCall(V, Args);
    CI->setTailCall();
    if (CI->getType()->isVoidTy())
      VB.CreateRetVoid();
    else
      VB.CreateRet(CI);
    return BB;
  };
  BasicBlock *Base = CallVersion(&F, "x86_64");
  SwitchInst *SW = B.CreateSwitch(Lvl, Base, 2);
  for (auto [Number, V] : Versions)
    if (Number)
      SW->addCase(B.getInt32(Number),
                  CallVersion(V, V->getName().substr(D->getName().size() + 1)));
  return Versions.size() - 1;
}

/// The first and the last value over loop `L`'s iterations 0..Btc of an
/// index that only rises (or only falls) with it: an affine recurrence of
/// `L` with a small constant step, sign- or zero-extended, plus terms
/// invariant in `L`. `NoWrap` collects what must hold at run time for the
/// index to have moved without wrapping (checked before the loop).
struct IndexRange {
  const SCEV *First, *Last;
  int Direction; // +1 rising, -1 falling, 0 invariant
};
std::optional<IndexRange> indexRange(const SCEV *S, const Loop *L, const SCEV *Btc,
                                     ScalarEvolution &SE,
                                     SmallVectorImpl<std::pair<const SCEV *, const SCEV *>> &NoWrap,
                                     SmallVectorImpl<bool> &NoWrapSigned) {
  if (SE.isLoopInvariant(S, L))
    return IndexRange{S, S, 0};
  if (auto *AR = dyn_cast<SCEVAddRecExpr>(S)) {
    auto *Step = dyn_cast<SCEVConstant>(AR->getStepRecurrence(SE));
    if (AR->getLoop() != L || !AR->isAffine() || !Step || Step->getAPInt().isZero() ||
        Step->getAPInt().abs().getActiveBits() > 16)
      return std::nullopt;
    const SCEV *Last = AR->evaluateAtIteration(SE.getTruncateOrZeroExtend(Btc, AR->getType()), SE);
    return IndexRange{AR->getStart(), Last, Step->getAPInt().isNegative() ? -1 : 1};
  }
  if (auto *Ext = dyn_cast<SCEVIntegralCastExpr>(S)) {
    bool Signed = isa<SCEVSignExtendExpr>(S);
    if ((!Signed && !isa<SCEVZeroExtendExpr>(S)) ||
        Ext->getOperand()->getType()->getIntegerBitWidth() < 32)
      return std::nullopt;
    auto R = indexRange(Ext->getOperand(), L, Btc, SE, NoWrap, NoWrapSigned);
    if (!R || R->Direction == 0)
      return std::nullopt;
    // Monotonic in the narrow type, without wrapping there.
    NoWrap.push_back(R->Direction > 0 ? std::make_pair(R->First, R->Last)
                                      : std::make_pair(R->Last, R->First));
    NoWrapSigned.push_back(Signed);
    return IndexRange{Signed ? SE.getSignExtendExpr(R->First, S->getType())
                             : SE.getZeroExtendExpr(R->First, S->getType()),
                      Signed ? SE.getSignExtendExpr(R->Last, S->getType())
                             : SE.getZeroExtendExpr(R->Last, S->getType()),
                      R->Direction};
  }
  if (auto *Add = dyn_cast<SCEVAddExpr>(S)) {
    IndexRange Sum{SE.getZero(S->getType()), SE.getZero(S->getType()), 0};
    for (const SCEV *Op : Add->operands()) {
      auto R = indexRange(Op, L, Btc, SE, NoWrap, NoWrapSigned);
      if (!R || (R->Direction && Sum.Direction && R->Direction != Sum.Direction))
        return std::nullopt;
      Sum.First = SE.getAddExpr(Sum.First, R->First);
      Sum.Last = SE.getAddExpr(Sum.Last, R->Last);
      Sum.Direction = Sum.Direction ? Sum.Direction : R->Direction;
    }
    return Sum;
  }
  return std::nullopt;
}

/// C++ AMP's buffer rules (<amp.h>'s detail::element) test each access's
/// element index against its buffer's element count, a likely-taken
/// `br (icmp ult Index, Count)`. In a loop where the index moves by a
/// constant step, whether every iteration passes is known before the loop
/// from its first and last index. This computes that in the preheader and
/// makes each such check `AllIn || check`; unswitching then gives the loop
/// a version without the checks, which vectorises, beside the one with
/// them for loops that do leave their buffers. Returns the checks guarded.
unsigned guardRangeChecks(Function &F, FunctionAnalysisManager &FAM) {
  auto &LI = FAM.getResult<LoopAnalysis>(F);
  auto &DT = FAM.getResult<DominatorTreeAnalysis>(F);
  auto &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
  unsigned Guarded = 0;
  for (Loop *L : LI.getLoopsInPreorder()) {
    if (!L->isInnermost())
      continue;
    // (The strided loops' interchange leaves its work-item loop without one.)
    BasicBlock *Pre = L->getLoopPreheader();
    if (!Pre) {
      Pre = InsertPreheaderForLoop(L, &DT, &LI, nullptr, /*PreserveLCSSA=*/false);
      if (!Pre)
        continue;
      SE.forgetLoop(L);
    }
    // `zext nneg` of a signed index (what the optimiser makes of a sext
    // under `if (i >= 0)`, C++ AMP's contains()) hides from scalar
    // evolution that the index moves with the loop; a sext means the same
    // for the values it allows.
    bool Widened = false;
    for (BasicBlock *BB : L->blocks())
      for (Instruction &I : make_early_inc_range(*BB))
        if (auto *ZExt = dyn_cast<ZExtInst>(&I); ZExt && ZExt->hasNonNeg()) {
          auto *SExt = new SExtInst(ZExt->getOperand(0), ZExt->getType(), "", ZExt->getIterator());
          SExt->takeName(ZExt);
          ZExt->replaceAllUsesWith(SExt);
          ZExt->eraseFromParent();
          Widened = true;
        }
    if (Widened)
      SE.forgetLoop(L);
    // The exact count (one exit): the index's no-wrap flags, which the
    // expanded first and last index may carry, hold up to it.
    const SCEV *Btc = SE.getBackedgeTakenCount(L);
    if (isa<SCEVCouldNotCompute>(Btc) || !Btc->getType()->isIntegerTy() ||
        Btc->getType()->getIntegerBitWidth() > 64)
      continue;
    struct Check {
      BranchInst *Br;
      const SCEV *First, *Last, *Count;
      bool Rising;
      SmallVector<std::pair<const SCEV *, const SCEV *>, 2> NoWrap; // low <= high
      SmallVector<bool, 2> NoWrapSigned;
    };
    SmallVector<Check, 4> Checks;
    SCEVExpander Expander(SE, "slmc.range");
    for (BasicBlock *BB : L->blocks()) {
      auto *Br = dyn_cast<BranchInst>(BB->getTerminator());
      if (!Br || !Br->isConditional())
        continue;
      auto *Cmp = dyn_cast<ICmpInst>(Br->getCondition());
      uint64_t Taken = 0, NotTaken = 0;
      if (!Cmp || Cmp->getPredicate() != ICmpInst::ICMP_ULT ||
          !extractBranchWeights(*Br, Taken, NotTaken) || Taken <= NotTaken ||
          !Cmp->getOperand(0)->getType()->isIntegerTy(64))
        continue;
      const SCEV *Count = SE.getSCEV(Cmp->getOperand(1));
      SmallVector<std::pair<const SCEV *, const SCEV *>, 2> NoWrap;
      SmallVector<bool, 2> NoWrapSigned;
      auto Range = indexRange(SE.getSCEV(Cmp->getOperand(0)), L, Btc, SE, NoWrap, NoWrapSigned);
      if (!Range || Range->Direction == 0 || !SE.isLoopInvariant(Count, L))
        continue;
      Instruction *At = Pre->getTerminator();
      auto Expandable = [&](const SCEV *X) { return Expander.isSafeToExpandAt(X, At); };
      if (!Expandable(Range->First) || !Expandable(Range->Last) || !Expandable(Count) ||
          !all_of(NoWrap, [&](auto &P) { return Expandable(P.first) && Expandable(P.second); }))
        continue;
      Check C{Br, Range->First, Range->Last, Count, Range->Direction > 0, {}, {}};
      C.NoWrap.assign(NoWrap.begin(), NoWrap.end());
      C.NoWrapSigned.assign(NoWrapSigned.begin(), NoWrapSigned.end());
      Checks.push_back(std::move(C));
    }
    if (Checks.empty())
      continue;
    // At most 2^15 iterations: with a step below 2^16 an index of 32 bits
    // or more cannot wrap all the way round, so first <= last (for a
    // rising index) says it did not wrap at all.
    if (!Expander.isSafeToExpandAt(Btc, Pre->getTerminator()))
      continue;
    Value *Iterations = Expander.expandCodeFor(Btc, nullptr, Pre->getTerminator());
    IRBuilder<> B(Pre->getTerminator());
    unsigned Bits = Iterations->getType()->getIntegerBitWidth();
    Value *AllIn = B.CreateICmpULE(
        Iterations, B.getInt(APInt::getLowBitsSet(Bits, std::min(15u, Bits))));
    for (const Check &C : Checks) {
      Value *First = Expander.expandCodeFor(C.First, nullptr, Pre->getTerminator());
      Value *Last = Expander.expandCodeFor(C.Last, nullptr, Pre->getTerminator());
      Value *Count = Expander.expandCodeFor(C.Count, nullptr, Pre->getTerminator());
      B.SetInsertPoint(Pre->getTerminator());
      Value *Low = C.Rising ? First : Last, *High = C.Rising ? Last : First;
      AllIn = B.CreateAnd(AllIn, B.CreateICmpULE(Low, High));
      AllIn = B.CreateAnd(AllIn, B.CreateICmpULT(High, Count));
      for (auto [Pair, Signed] : zip(C.NoWrap, C.NoWrapSigned)) {
        Value *NarrowLow = Expander.expandCodeFor(Pair.first, nullptr, Pre->getTerminator());
        Value *NarrowHigh = Expander.expandCodeFor(Pair.second, nullptr, Pre->getTerminator());
        B.SetInsertPoint(Pre->getTerminator());
        AllIn = B.CreateAnd(AllIn, Signed ? B.CreateICmpSLE(NarrowLow, NarrowHigh)
                                          : B.CreateICmpULE(NarrowLow, NarrowHigh));
      }
    }
    // Frozen: a loop left unswitched must not branch on poison.
    AllIn = B.CreateFreeze(AllIn, "slmc.in.bounds");
    for (const Check &C : Checks) {
      IRBuilder<> At(C.Br);
      C.Br->setCondition(At.CreateOr(AllIn, C.Br->getCondition()));
    }
    Guarded += Checks.size();
  }
  return Guarded;
}

/// A work-item loop whose items each run a grid-stride loop (`for (i = gid;
/// i < n; i += stride)`: the histogram's words) runs it item after item,
/// each item striding through memory `stride` elements at a time. Between
/// barriers the items may run in any order that keeps each item's own, so
/// the two loops are interchanged: step k runs iteration k of every item
/// still in its loop, and consecutive items read consecutive elements. The
/// items still in their loops at step k > 0 are a prefix of the row, since
/// each starts one element after the one before (i = c + x): those with
/// c + x + k * stride < n. At step 0 all are (the loop is rotated: every
/// item runs its first iteration).
///
/// Only the simple shape: a work-item loop whose body is the item's loop
/// and arithmetic on x around it, the item's loop carrying nothing but i
/// from one iteration to the next, and none of its values used after it.
/// Returns whether it changed `F`.
bool interchangeStridedLoop(Function &F, FunctionAnalysisManager &FAM) {
  LoopInfo &LI = FAM.getResult<LoopAnalysis>(F);
  ScalarEvolution &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
  for (Loop *X : LI.getLoopsInPreorder()) {
    if (X->getSubLoops().size() != 1)
      continue;
    Loop *L = X->getSubLoops().front();
    BasicBlock *XPre = X->getLoopPreheader(), *XLatch = X->getLoopLatch(),
               *XExit = X->getExitBlock(), *LLatch = L->getLoopLatch();
    if (!XPre || !XLatch || !XExit || X->getExitingBlock() != XLatch || !LLatch ||
        !L->getLoopPreheader() || !L->getExitBlock() || L->getExitingBlock() != LLatch ||
        !L->getSubLoops().empty() ||
        !XLatch->getTerminator()->getMetadata(kWorkItemLoopMD))
      continue;
    // x: +1 from lo while below hi (`x + 1 < hi`, or `x < hi - 1` as the
    // simplifier writes it for a constant).
    ICmpInst *XCmp = X->getLatchCmpInst();
    if (!XCmp || XCmp->getPredicate() != ICmpInst::ICMP_ULT ||
        cast<BranchInst>(XLatch->getTerminator())->getSuccessor(0) != X->getHeader())
      continue;
    PHINode *XIv = nullptr;
    Instruction *XStepInst = nullptr;
    for (PHINode &P : X->getHeader()->phis()) {
      auto *Step = dyn_cast<BinaryOperator>(P.getIncomingValueForBlock(XLatch));
      if (Step && Step->getOpcode() == Instruction::Add && Step->getOperand(0) == &P &&
          match(Step->getOperand(1), PatternMatch::m_One()) &&
          (XCmp->getOperand(0) == Step || XCmp->getOperand(0) == &P)) {
        XIv = &P;
        XStepInst = Step;
      }
    }
    if (!XIv || XStepInst->getParent() != XLatch)
      continue;
    Value *Lo = XIv->getIncomingValueForBlock(XPre), *Hi = XCmp->getOperand(1);
    const bool CmpOfNext = XCmp->getOperand(0) == XStepInst;
    if (!CmpOfNext && XCmp->getOperand(0) != XIv)
      continue;
    auto Inside = [&](Value *V) {
      auto *In = dyn_cast<Instruction>(V);
      return In && X->contains(In->getParent());
    };
    if (Inside(Lo) || Inside(Hi))
      continue;
    // Every item reaches the item's loop (no branch around it) and runs
    // its first iteration (the loop is rotated). Before it, arithmetic on
    // x; after it, anything (the code runs again, after the steps, for
    // each item: `sums[x] = sum`).
    for (PHINode &P : make_early_inc_range(XExit->phis()))
      if (P.use_empty())
        P.eraseFromParent(); // dead LCSSA phis
    SmallPtrSet<BasicBlock *, 8> After;
    for (BasicBlock *B = L->getExitBlock(); B && X->contains(B) && !After.contains(B);
         B = B == XLatch ? nullptr : B->getSingleSuccessor())
      After.insert(B);
    bool Simple = After.contains(XLatch);
    for (BasicBlock *BB : X->blocks()) {
      if (L->contains(BB))
        continue;
      auto *T = dyn_cast<BranchInst>(BB->getTerminator());
      if (!T || (BB != XLatch && T->isConditional()))
        Simple = false;
      if (!After.contains(BB))
        for (Instruction &I : *BB)
          if (I.mayReadOrWriteMemory() || I.mayHaveSideEffects() ||
              (isa<PHINode>(I) && &I != XIv))
            Simple = false;
    }
    if (!Simple)
      continue;
    // The item's loop: i + stride (no signed wrap) while below n (the
    // same for the row); other values carried (sums) leave it only for the
    // code after it, through its exit's phis.
    BasicBlock *LH = L->getHeader();
    auto *Br = dyn_cast<BranchInst>(LLatch->getTerminator());
    if (!Br || !Br->isConditional() || Br->getSuccessor(0) != LH)
      continue;
    auto *Cmp = dyn_cast<ICmpInst>(Br->getCondition());
    PHINode *I = nullptr;
    for (PHINode &P : LH->phis())
      if (Cmp && P.getIncomingValueForBlock(LLatch) == Cmp->getOperand(0))
        I = &P;
    if (!I)
      continue;
    SmallVector<PHINode *, 4> Carried;
    for (PHINode &P : LH->phis())
      if (&P != I) {
        auto *In = dyn_cast<Instruction>(P.getIncomingValueForBlock(L->getLoopPreheader()));
        if (In && L->contains(In->getParent()))
          Simple = false;
        Carried.push_back(&P);
      }
    // L's values outside L: a carried value's last, in the code after the
    // loop (or the exit's phis of it).
    for (BasicBlock *BB : L->blocks())
      for (Instruction &In : *BB)
        for (User *U : In.users()) {
          auto *UI = cast<Instruction>(U);
          if (L->contains(UI->getParent()))
            continue;
          auto *P = dyn_cast<PHINode>(UI);
          const bool Last = any_of(Carried, [&](PHINode *C) {
            return C->getIncomingValueForBlock(LLatch) == &In;
          });
          if (!Last || !After.contains(UI->getParent()) ||
              (P && (P->getParent() != L->getExitBlock() || P->getNumIncomingValues() != 1)))
            Simple = false;
        }
    if (!Simple || Carried.size() > 4)
      continue;
    auto *Inc = dyn_cast<BinaryOperator>(I->getIncomingValueForBlock(LLatch));
    if (!Cmp || Cmp->getPredicate() != ICmpInst::ICMP_SLT || !Inc ||
        Cmp->getOperand(0) != Inc || Inc->getOpcode() != Instruction::Add ||
        !Inc->hasNoSignedWrap() || !I->getType()->isIntegerTy())
      continue;
    Value *N = Cmp->getOperand(1);
    auto *Rec = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(I));
    if (!Rec || Rec->getLoop() != L || !Rec->isAffine() || Inside(N))
      continue;
    auto *Stride = dyn_cast<SCEVConstant>(Rec->getStepRecurrence(SE));
    auto *Start = dyn_cast<SCEVAddRecExpr>(Rec->getStart());
    if (!Stride || !Stride->getAPInt().isStrictlyPositive() || !Start ||
        Start->getLoop() != X || !Start->isAffine() || !Start->getStepRecurrence(SE)->isOne())
      continue;

    // The steps: k from 0, the row's prefix [lo, hik) each.
    LLVMContext &C = F.getContext();
    Type *T = I->getType(), *XT = XIv->getType();
    BasicBlock *XH = X->getHeader();
    BasicBlock *KHead = BasicBlock::Create(C, "k.head", &F, XH);
    BasicBlock *KLatch = BasicBlock::Create(C, "k.latch", &F);
    SCEVExpander Exp(SE, "slmc.k");
    Value *S0 = Exp.expandCodeFor(Start->getStart(), T, XPre->getTerminator());
    XPre->getTerminator()->replaceSuccessorWith(XH, KHead);
    IRBuilder<> KB(KHead);
    PHINode *K = KB.CreatePHI(T, 2, "k");
    K->addIncoming(ConstantInt::get(T, 0), XPre);
    // At step k the items with s0 + (x - lo) + k * stride < n run.
    Value *Offset = KB.CreateAdd(S0, KB.CreateMul(K, Stride->getValue()), "k.offset");
    Value *Room = KB.CreateBinaryIntrinsic(Intrinsic::smax, KB.CreateSub(N, Offset),
                                           ConstantInt::get(T, 0));
    if (!CmpOfNext) // x < hi - 1: the last item is hi - 1
      Hi = KB.CreateAdd(Hi, ConstantInt::get(Hi->getType(), 1));
    Value *Row = KB.CreateSub(Hi, Lo);
    Type *W = IntegerType::get(C, std::max(T->getIntegerBitWidth(), XT->getIntegerBitWidth()));
    Value *Count = KB.CreateZExtOrTrunc(
        KB.CreateBinaryIntrinsic(Intrinsic::umin, KB.CreateZExt(Room, W), KB.CreateZExt(Row, W)),
        XT);
    // Step 0 runs every item, as the rotated loop did.
    Value *First = KB.CreateICmpEQ(K, ConstantInt::get(T, 0));
    Value *HiK = KB.CreateAdd(Lo, KB.CreateSelect(First, Row, Count), "k.hi");
    Value *Go = KB.CreateOr(First, KB.CreateICmpUGT(HiK, Lo));

    // Each carried value, item by item across the steps (a row has at
    // most 1024 items).
    IRBuilder<> AB(&*F.getEntryBlock().getFirstInsertionPt());
    SmallVector<AllocaInst *, 4> Slots;
    for (PHINode *P : Carried)
      Slots.push_back(AB.CreateAlloca(ArrayType::get(P->getType(), 1024), nullptr,
                                      P->getName() + ".items"));

    auto CloneX = [&](ValueToValueMapTy &VM, const Twine &Suffix) {
      cloneBlocks(X->getBlocks(), VM, Suffix, F);
    };
    auto SlotOf = [&](IRBuilder<> &B, unsigned J, Value *XV) {
      return B.CreateInBoundsGEP(Slots[J]->getAllocatedType(), Slots[J],
                                 {B.getInt64(0), B.CreateZExtOrTrunc(B.CreateSub(XV, Lo),
                                                                     B.getInt64Ty())});
    };

    // One step: a copy of X whose item loop runs one iteration, with i =
    // s0 + (x - lo) + k * stride and the carried values in their slots,
    // and without the code after it.
    ValueToValueMapTy VM;
    CloneX(VM, ".k");
    auto *XC = cast<PHINode>(VM[XIv]);
    XC->setIncomingBlock(XC->getBasicBlockIndex(XPre), KHead);
    auto *IC = cast<PHINode>(VM[I]);
    IRBuilder<> IB(&*cast<BasicBlock>(VM[LH])->getFirstInsertionPt());
    Value *Item = IB.CreateZExtOrTrunc(IB.CreateSub(XC, Lo), T);
    IC->replaceAllUsesWith(IB.CreateAdd(Offset, Item, "i.k"));
    IC->eraseFromParent();
    auto *LLatchC = cast<BasicBlock>(VM[LLatch]);
    auto *XLatchC = cast<BasicBlock>(VM[XLatch]);
    IRBuilder<> SB(LLatchC->getTerminator());
    for (unsigned J = 0; J < Carried.size(); ++J) {
      auto *PC = cast<PHINode>(VM[Carried[J]]);
      Value *Init = PC->getIncomingValueForBlock(cast<BasicBlock>(VM[L->getLoopPreheader()]));
      Value *Next = PC->getIncomingValueForBlock(LLatchC);
      Value *Addr = SlotOf(IB, J, XC);
      PC->replaceAllUsesWith(IB.CreateSelect(First, Init, IB.CreateLoad(PC->getType(), Addr)));
      PC->eraseFromParent();
      SB.CreateStore(Next, Addr);
    }
    // Straight on to the latch: the code after the item's loop runs later.
    BranchInst::Create(XLatchC, LLatchC->getTerminator()->getIterator());
    LLatchC->getTerminator()->eraseFromParent();
    Instruction *OldXBr = XLatchC->getTerminator();
    IRBuilder<> XLB(OldXBr);
    Value *More = XLB.CreateICmpULT(VM[XStepInst], HiK);
    Instruction *NewXBr = XLB.CreateCondBr(More, cast<BasicBlock>(VM[XH]), KLatch);
    NewXBr->copyMetadata(*OldXBr);
    OldXBr->eraseFromParent();
    // The copies of the code after the loop in the latch go (the blocks
    // before the latch are unreachable now).
    for (Instruction &In : make_early_inc_range(reverse(*XLatchC)))
      if (&In != NewXBr && &In != More && &In != VM[XStepInst]) {
        In.replaceAllUsesWith(PoisonValue::get(In.getType()));
        In.eraseFromParent();
      }

    // After the steps, the code after the item's loop, item by item: a
    // copy of X without the item's loop, its exit's phis reading the
    // slots. It ends the loop as X did.
    ValueToValueMapTy PM;
    CloneX(PM, ".after");
    BasicBlock *KDone = BasicBlock::Create(C, "k.done", &F);
    KB.CreateCondBr(Go, cast<BasicBlock>(VM[XH]), KDone);
    IRBuilder<>(KDone).CreateBr(cast<BasicBlock>(PM[XH]));
    auto *XA = cast<PHINode>(PM[XIv]);
    XA->setIncomingBlock(XA->getBasicBlockIndex(XPre), KDone);
    auto *LPreA = cast<BasicBlock>(PM[L->getLoopPreheader()]);
    auto *LExitA = cast<BasicBlock>(PM[L->getExitBlock()]);
    IRBuilder<> RB(&*LExitA->getFirstInsertionPt());
    SmallPtrSet<BasicBlock *, 8> LCopy;
    for (BasicBlock *B : L->blocks())
      LCopy.insert(cast<BasicBlock>(PM[B]));
    for (unsigned J = 0; J < Carried.size(); ++J) {
      auto *NextA = cast<Instruction>(PM[Carried[J]->getIncomingValueForBlock(LLatch)]);
      Value *Result = RB.CreateLoad(NextA->getType(), SlotOf(RB, J, XA));
      for (Use &U : make_early_inc_range(NextA->uses())) {
        auto *UI = cast<Instruction>(U.getUser());
        if (LCopy.contains(UI->getParent()))
          continue; // in the loop's copy, which goes
        if (auto *P = dyn_cast<PHINode>(UI); P && P->getParent() == LExitA)
          P->replaceAllUsesWith(Result); // the exit's phi of it
        else
          U.set(Result);
      }
    }
    for (PHINode &P : make_early_inc_range(LExitA->phis()))
      if (P.use_empty())
        P.eraseFromParent();
    LPreA->getTerminator()->replaceSuccessorWith(cast<BasicBlock>(PM[LH]), LExitA);
    // What follows X reads the copy's values; the entries for the old
    // latch go with it.
    auto *XLatchA = cast<BasicBlock>(PM[XLatch]);
    for (PHINode &P : XExit->phis())
      if (int Index = P.getBasicBlockIndex(XLatch); Index >= 0) {
        Value *V = P.getIncomingValue(Index);
        P.addIncoming(PM.count(V) ? static_cast<Value *>(PM[V]) : V, XLatchA);
      }
    for (BasicBlock *BB : X->blocks())
      for (Instruction &In : *BB)
        for (Use &U : make_early_inc_range(In.uses())) {
          auto *User = cast<Instruction>(U.getUser());
          auto *P = dyn_cast<PHINode>(User);
          if (X->contains(User->getParent()) || (P && P->getIncomingBlock(U) == XLatch))
            continue; // (the exit's entries for the old latch: above)
          U.set(PM[&In]);
        }
    IRBuilder<> LB(KLatch);
    K->addIncoming(LB.CreateAdd(K, ConstantInt::get(T, 1), "k.next"), KLatch);
    LB.CreateBr(KHead);
    // The original loops, and the copies' dead ends, are unreachable now.
    removeUnreachableBlocks(F);
    return true;
  }
  return false;
}

/// Marks `convergent` every function that calls a convergent one (the
/// runtime's barriers and sub-group functions), transitively, at the start
/// of the pipeline. Clang marks only those declarations in C++: before the
/// inliner, a kernel's call of `tile_barrier::wait()` or of a user's helper
/// that waits was an ordinary call, and SimplifyCFG could copy it into both
/// sides of a branch on a work-item's private value; the work-items then
/// wait at two barriers, which the work-item loops report as divergence
/// (they run each barrier's region for the whole group). Convergent calls
/// are not copied so.
struct ConvergentCallersPass : PassInfoMixin<ConvergentCallersPass> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    SmallVector<Function *, 16> Work;
    for (Function &F : M)
      if (F.isConvergent() && !F.isIntrinsic())
        Work.push_back(&F);
    bool Changed = false;
    while (!Work.empty()) {
      Function *Callee = Work.pop_back_val();
      for (User *U : Callee->users()) {
        auto *Call = dyn_cast<CallBase>(U);
        if (!Call || Call->getCalledOperand() != Callee)
          continue;
        Function *Caller = Call->getFunction();
        if (Caller->isConvergent())
          continue;
        Caller->setConvergent();
        Work.push_back(Caller);
        Changed = true;
      }
    }
    return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
};

struct WorkItemLoopsPass : PassInfoMixin<WorkItemLoopsPass> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &MAM) {
    Function *Marker = M.getFunction(kMarker);
    if (!Marker)
      return PreservedAnalyses::all();
    SmallVector<std::pair<Function *, CallInst *>, 8> Entries;
    for (User *U : Marker->users())
      if (auto *CI = dyn_cast<CallInst>(U))
        if (CI->getCalledFunction() == Marker &&
            isa<ConstantPointerNull>(CI->getArgOperand(0)))
          Entries.push_back({CI->getFunction(), CI});
    if (Entries.empty())
      return PreservedAnalyses::all();
    FunctionAnalysisManager &FAM =
        MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
    SmallVector<Function *, 8> Done;
    for (auto [F, Call] : Entries) {
      WorkGroupEntry E(*F, *Call);
      FAM.invalidate(*F, PreservedAnalyses::none());
      E.run([&](Function &G) {
        FAM.invalidate(G, PreservedAnalyses::none()); // inlined into since
        FunctionPassManager Early;
        Early.addPass(SROAPass(SROAOptions::ModifyCFG));
        Early.addPass(EarlyCSEPass(true));
        Early.addPass(InstCombinePass());
        Early.run(G, FAM);
        FAM.clear(G, G.getName()); // G may be replaced and deleted
      });
      if (Function *T = E.transformed()) {
        demoteGroupLocalAtomics(*T);
        scopeGroupLocalAccesses(*T);
        markFunctorLoadsInvariant(*T);
        Done.push_back(T);
      }
    }
    // Tidy the loops for the vectoriser that runs next: the slots of
    // values that did not cross a barrier after all, the item copy's
    // fields, invariant loads out of the work-item loops.
    FunctionPassManager FPM;
    FPM.addPass(SROAPass(SROAOptions::ModifyCFG));
    FPM.addPass(EarlyCSEPass(true));
    FPM.addPass(InstCombinePass());
    FPM.addPass(SimplifyCFGPass());
    FPM.addPass(createFunctionToLoopPassAdaptor(LICMPass(LICMOptions()),
                                                /*UseMemorySSA=*/true));
    // Tests of the row's or the group's ids inside a work-item loop (a
    // halo row, `if (r == 0)`) are invariant there: versions of the loop
    // without them. The optimiser's own unswitching ran before the loops
    // existed.
    FPM.addPass(createFunctionToLoopPassAdaptor(
        SimpleLoopUnswitchPass(/*NonTrivial=*/true), /*UseMemorySSA=*/true));
    FPM.addPass(GVNPass());
    FPM.addPass(InstCombinePass());
    FPM.addPass(SimplifyCFGPass());
    for (Function *F : Done)
      FPM.run(*F, FAM);
    for (Function *F : Done)
      for (unsigned Round = 0; Round < 8 && interchangeStridedLoop(*F, FAM); ++Round)
        FAM.invalidate(*F, PreservedAnalyses::none());
    // Buffer checks of an index that moves with a loop: a version of the
    // loop without them where every iteration passes (guardRangeChecks).
    FunctionPassManager RangeChecks;
    RangeChecks.addPass(createFunctionToLoopPassAdaptor(
        SimpleLoopUnswitchPass(/*NonTrivial=*/true), /*UseMemorySSA=*/true));
    RangeChecks.addPass(InstCombinePass());
    RangeChecks.addPass(SimplifyCFGPass());
    for (Function *F : Done) {
      unsigned Guarded = guardRangeChecks(*F, FAM);
      FAM.invalidate(*F, PreservedAnalyses::none()); // preheaders, maybe
      if (Guarded)
        RangeChecks.run(*F, FAM);
    }
    for (Function *F : Done)
      addIsaVersions(*F);
    return PreservedAnalyses::none();
  }
  static bool isRequired() { return true; }
};

} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "slmc-work-item-loops", "1",
          [](PassBuilder &PB) {
            PB.registerPipelineStartEPCallback(
                [](ModulePassManager &MPM, OptimizationLevel Level) {
                  // At every level: without it, calls in loops would get
                  // a new block each time.
                  MPM.addPass(slmc::GroupLocalSitesPass());
                  if (Level != OptimizationLevel::O0)
                    MPM.addPass(ConvergentCallersPass());
                });
            PB.registerOptimizerEarlyEPCallback([](ModulePassManager &MPM,
                                                   OptimizationLevel Level,
                                                   ThinOrFullLTOPhase) {
              if (Level != OptimizationLevel::O0)
                MPM.addPass(WorkItemLoopsPass());
            });
            // `opt -passes=slmc-work-item-loops`, for the tests.
            PB.registerPipelineParsingCallback(
                [](StringRef Name, ModulePassManager &MPM,
                   ArrayRef<PassBuilder::PipelineElement>) {
                  if (Name == "slmc-group-local-sites") {
                    MPM.addPass(slmc::GroupLocalSitesPass());
                    return true;
                  }
                  if (Name == "slmc-convergent-callers") {
                    MPM.addPass(ConvergentCallersPass());
                    return true;
                  }
                  if (Name != "slmc-work-item-loops")
                    return false;
                  MPM.addPass(WorkItemLoopsPass());
                  return true;
                });
          }};
}
