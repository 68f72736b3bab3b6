//===- CheckInstrumentation.cpp - slmc++ -fslmc-check's LLVM pass ---------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A pass plugin (clang -fpass-plugin=slmcCheck.so) that slmc++ loads into
// the host pass under -fslmc-check. It instruments the host copies of
// kernels, the functions reachable from their CPU entries (isCpuEntry), for the CPU fallback's race and barrier
// checks (SLMC_CHECK, docs/diagnostics.md):
//
//  * every load, store and memory intrinsic whose address may be
//    group-local calls slmc_check_load / slmc_check_store[_value] first,
//    every atomic slmc_check_atomic (stack and ordinary globals are left
//    alone: a work-item's stack is its own, and group-local data is
//    thread_local on the CPU);
//  * taking the address of a thread_local variable (the host pass's
//    group-local variables) calls slmc_check_region with its size and name,
//    so the runtime knows the group's group-local ranges;
//  * a call in the user's code of slmc_cpu_barrier, or of a function that
//    waits at a barrier, is preceded by slmc_check_barrier with its line;
//  * each CPU entry starts with slmc_check_enter (the runtime can then say
//    when a kernel was not instrumented);
//  * an access whose address is computed from one group-local variable (a
//    thread_local's address, or a call path's group_local_memory block of a
//    constant size) is tested against the variable's bounds when
//    SLMC_CHECK=bounds (or races) is on: outside them, slmc_check_bounds
//    reports it and the access is skipped (a load reads 0), so the check
//    stops at the first overflow without corrupting the group's memory.
//
// The race hooks are called only when libslmrt's slmc_check_races is set
// (SLMC_CHECK=races): otherwise an access costs a load and a branch.
// Each hook gets the access's source line as a constant string: the
// innermost inlined location outside slmc's own headers (the user's line
// rather than an accessor's operator[]).
//
// It runs last in the optimisation pipeline, as the sanitizers do, so that
// instrumentation neither blocks nor multiplies optimisations; code compiled
// without -fslmc-check has no hooks at all.
//
//===----------------------------------------------------------------------===//
#include "CpuFallback/GroupLocalSites.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Plugins/PassPlugin.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#include <optional>

using namespace llvm;

namespace {

/// slmc::cpu_entry<F>, slmc::cpu_entry_dynamic<F> (slmc/offload.h) and the
/// CPU entries of CM program kernels (slmc_cm_cpu_<kernel>, CmLowering).
bool isCpuEntry(const Function &F) {
  StringRef N = F.getName();
  return N.starts_with("_ZN4slmc9cpu_entryI") || N.starts_with("_ZN4slmc17cpu_entry_dynamicI") ||
         N.starts_with("slmc_cm_cpu_");
}

/// slmc's headers are copied to <libdir>/slmc/include in the build and the
/// install tree alike.
bool isLibraryFile(StringRef Dir, StringRef File) {
  auto In = [](StringRef P) {
    return P.contains("/slmc/include/") || P.ends_with("/slmc/include");
  };
  return In(File) || (!sys::path::is_absolute(File) && In(Dir));
}

class Instrumenter {
public:
  explicit Instrumenter(Module &M)
      : M(M), Ctx(M.getContext()), DL(M.getDataLayout()), Ptr(PointerType::get(Ctx, 0)),
        I64(Type::getInt64Ty(Ctx)), I32(Type::getInt32Ty(Ctx)), Void(Type::getVoidTy(Ctx)) {
    Load = M.getOrInsertFunction("slmc_check_load", Void, Ptr, I64, Ptr);
    Store = M.getOrInsertFunction("slmc_check_store", Void, Ptr, I64, Ptr);
    StoreValue = M.getOrInsertFunction("slmc_check_store_value", Void, Ptr, I64, I64, Ptr);
    Region = M.getOrInsertFunction("slmc_check_region", Void, Ptr, I64, Ptr);
    Atomic = M.getOrInsertFunction("slmc_check_atomic", Void, Ptr, I64, Ptr);
    Bounds = M.getOrInsertFunction("slmc_check_bounds", Void, Ptr, I64, I64, I64, I32,
                                   Ptr, Ptr);
    BoundsOn = M.getOrInsertGlobal("slmc_check_bounds_on", Type::getInt32Ty(Ctx));
    Barrier = M.getOrInsertFunction("slmc_check_barrier", Void, Ptr);
    Enter = M.getOrInsertFunction("slmc_check_enter", Void);
    Active = M.getOrInsertGlobal("slmc_check_races", Type::getInt32Ty(Ctx));
  }

  bool run() {
    SetVector<Function *> Work;
    for (Function &F : M)
      if (!F.isDeclaration() && isCpuEntry(F))
        Work.insert(&F);
    // Everything a CPU entry calls directly, transitively.
    for (size_t I = 0; I < Work.size(); ++I)
      for (Instruction &Inst : instructions(*Work[I]))
        if (auto *CB = dyn_cast<CallBase>(&Inst))
          if (Function *Callee = CB->getCalledFunction())
            if (!Callee->isDeclaration() && !Callee->isIntrinsic())
              Work.insert(Callee);
    // Functions that wait at a barrier: without inlining (-O0) the user's
    // line is where such a function is called.
    bool Changed = true;
    while (Changed) {
      Changed = false;
      for (Function *F : Work)
        if (!Waits.count(F))
          for (Instruction &Inst : instructions(*F))
            if (auto *CB = dyn_cast<CallBase>(&Inst))
              if (Function *Callee = CB->getCalledFunction())
                if (Callee->getName() == "slmc_cpu_barrier" || Waits.count(Callee)) {
                  Waits.insert(F);
                  Changed = true;
                  break;
                }
    }
    for (Function *F : Work)
      instrument(*F);
    return !Work.empty();
  }

private:
  void instrument(Function &F) {
    SmallVector<Instruction *, 64> Insts;
    for (Instruction &I : instructions(F))
      Insts.push_back(&I);
    for (Instruction *I : Insts) {
      bounds(I);
      if (auto *LI = dyn_cast<LoadInst>(I)) {
        if (LI->isAtomic())
          atomic(LI, LI->getPointerOperand(), LI->getType());
        else if (mayBeGroupLocal(LI->getPointerOperand()))
          access(LI, LI->getPointerOperand(), LI->getType(), nullptr);
      } else if (auto *SI = dyn_cast<StoreInst>(I)) {
        if (SI->isAtomic())
          atomic(SI, SI->getPointerOperand(), SI->getValueOperand()->getType());
        else if (mayBeGroupLocal(SI->getPointerOperand()))
          access(SI, SI->getPointerOperand(), SI->getValueOperand()->getType(),
                 SI->getValueOperand());
      } else if (auto *RMW = dyn_cast<AtomicRMWInst>(I)) {
        atomic(RMW, RMW->getPointerOperand(), RMW->getValOperand()->getType());
      } else if (auto *CX = dyn_cast<AtomicCmpXchgInst>(I)) {
        atomic(CX, CX->getPointerOperand(), CX->getNewValOperand()->getType());
      } else if (auto *MI = dyn_cast<MemIntrinsic>(I)) {
        memIntrinsic(MI);
      } else if (auto *II = dyn_cast<IntrinsicInst>(I)) {
        if (II->getIntrinsicID() == Intrinsic::threadlocal_address)
          region(II);
      } else if (auto *CB = dyn_cast<CallBase>(I)) {
        // A barrier's line: a call in the user's code of the barrier or of
        // a function that waits at one (calls inside slmc's headers would
        // name the header).
        if (Function *Callee = CB->getCalledFunction())
          if (Callee->getName() == "slmc_cpu_barrier" || Waits.count(Callee))
            if (const DILocation *L = userLocation(CB))
              IRBuilder<>(CB).CreateCall(Barrier, {text(lineOf(L))});
      }
    }
    if (isCpuEntry(F))
      IRBuilder<>(&*F.getEntryBlock().getFirstInsertionPt()).CreateCall(Enter, {});
  }

  /// A group-local variable an address is computed from: where it starts,
  /// its size and its name.
  struct Variable {
    Value *Base;
    uint64_t Bytes;
    Constant *Name;
  };

  /// The group-local variable `P` points into, when its address is computed
  /// from one (through GEPs and casts): a thread_local's address, or a
  /// group_local_memory block of a constant size (slmc_cpu_group_local_site,
  /// slmc_cpu_group_local_alloc).
  std::optional<Variable> variableOf(Value *P) {
    // (getUnderlyingObject would look through llvm.threadlocal.address to
    // the global, whose address here is not the running thread's.)
    Value *U = P;
    for (unsigned Steps = 0; Steps < 64; ++Steps) {
      if (auto *GEP = dyn_cast<GEPOperator>(U))
        U = GEP->getPointerOperand();
      else if (auto *Cast = dyn_cast<BitCastOperator>(U))
        U = Cast->getOperand(0);
      else
        break;
    }
    if (auto *II = dyn_cast<IntrinsicInst>(U)) {
      if (II->getIntrinsicID() != Intrinsic::threadlocal_address)
        return std::nullopt;
      auto *GV = dyn_cast<GlobalVariable>(II->getArgOperand(0)->stripPointerCasts());
      if (!GV || !GV->isThreadLocal() || !GV->getValueType()->isSized())
        return std::nullopt;
      return Variable{II, DL.getTypeAllocSize(GV->getValueType()).getFixedValue(),
                      text(variableName(*GV))};
    }
    if (auto *CI = dyn_cast<CallInst>(U))
      if (Function *Callee = CI->getCalledFunction())
        if (Callee->getName() == "slmc_cpu_group_local_site" ||
            Callee->getName() == "slmc_cpu_group_local_alloc")
          if (auto *Size = dyn_cast<ConstantInt>(CI->getArgOperand(0)))
            return Variable{CI, Size->getZExtValue(), text("group_local_memory")};
    return std::nullopt;
  }

  /// Tests an access of `N` bytes at `P` against the bounds of the variable
  /// it is computed from, when SLMC_CHECK=bounds is on. Kind: 0 read, 1
  /// write, 2 atomic.
  void bounds(Instruction *I) {
    auto Check = [&](Value *P, Value *N, int Kind) -> Value * {
      if (P->getType()->getPointerAddressSpace() != 0)
        return nullptr;
      std::optional<Variable> V = variableOf(P);
      if (!V)
        return nullptr;
      IRBuilder<> B(I);
      Value *Off = B.CreateSub(B.CreatePtrToInt(P, I64), B.CreatePtrToInt(V->Base, I64));
      Value *End = B.CreateAdd(Off, N);
      // Past the end, or before the start (the end then wraps below Off).
      Value *Out = B.CreateOr(B.CreateICmpUGT(End, ConstantInt::get(I64, V->Bytes)),
                              B.CreateICmpULT(End, Off));
      Value *On = B.CreateICmpNE(B.CreateLoad(I32, BoundsOn), B.getInt32(0));
      Value *Bad = B.CreateAnd(On, Out);
      Pending.push_back({Bad, {P, N, Off, ConstantInt::get(I64, V->Bytes),
                               B.getInt32(Kind), V->Name, location(I)}});
      return Bad;
    };
    Pending.clear();
    auto Size = [&](Type *T) -> Value * {
      TypeSize S = DL.getTypeStoreSize(T);
      return S.isScalable() ? nullptr : ConstantInt::get(I64, S.getFixedValue());
    };
    if (auto *LI = dyn_cast<LoadInst>(I)) {
      if (Value *N = Size(LI->getType()))
        Check(LI->getPointerOperand(), N, LI->isAtomic() ? 2 : 0);
    } else if (auto *SI = dyn_cast<StoreInst>(I)) {
      if (Value *N = Size(SI->getValueOperand()->getType()))
        Check(SI->getPointerOperand(), N, SI->isAtomic() ? 2 : 1);
    } else if (auto *RMW = dyn_cast<AtomicRMWInst>(I)) {
      if (Value *N = Size(RMW->getValOperand()->getType()))
        Check(RMW->getPointerOperand(), N, 2);
    } else if (auto *CX = dyn_cast<AtomicCmpXchgInst>(I)) {
      if (Value *N = Size(CX->getNewValOperand()->getType()))
        Check(CX->getPointerOperand(), N, 2);
    } else if (auto *MI = dyn_cast<MemIntrinsic>(I)) {
      Value *N = IRBuilder<>(MI).CreateZExtOrTrunc(MI->getLength(), I64);
      if (auto *MT = dyn_cast<MemTransferInst>(MI))
        Check(MT->getRawSource(), N, 0);
      Check(MI->getRawDest(), N, 1);
    }
    if (Pending.empty())
      return;
    // Outside: report and skip the access (its value is 0).
    IRBuilder<> B(I);
    Value *Bad = Pending[0].first;
    for (size_t K = 1; K < Pending.size(); ++K)
      Bad = B.CreateOr(Bad, Pending[K].first);
    Instruction *ThenTerm = nullptr, *ElseTerm = nullptr;
    SplitBlockAndInsertIfThenElse(Bad, I->getIterator(), &ThenTerm, &ElseTerm);
    IRBuilder<> Then(ThenTerm);
    for (auto &[Cond, Args] : Pending) {
      (void)Cond;
      Then.CreateCall(Bounds, Args);
    }
    BasicBlock *Tail = I->getParent();
    I->moveBefore(ElseTerm->getIterator());
    if (!I->getType()->isVoidTy()) {
      PHINode *Phi = PHINode::Create(I->getType(), 2, "", Tail->begin());
      I->replaceAllUsesWith(Phi);
      Phi->addIncoming(Constant::getNullValue(I->getType()), ThenTerm->getParent());
      Phi->addIncoming(I, ElseTerm->getParent());
    }
  }
  SmallVector<std::pair<Value *, SmallVector<Value *, 7>>, 2> Pending;

  /// Group-local data is reached through a thread_local's address (or a
  /// pointer the runtime handed out); a work-item's stack and ordinary
  /// globals never are.
  static bool mayBeGroupLocal(Value *P) {
    const Value *U = getUnderlyingObject(P, /*MaxLookup=*/0);
    if (isa<AllocaInst>(U))
      return false;
    if (auto *GV = dyn_cast<GlobalVariable>(U))
      return GV->isThreadLocal();
    return true;
  }

  void access(Instruction *I, Value *P, Type *T, Value *Stored) {
    TypeSize Size = DL.getTypeStoreSize(T);
    if (Size.isScalable() || P->getType()->getPointerAddressSpace() != 0)
      return;
    IRBuilder<> B(I);
    Value *N = ConstantInt::get(I64, Size.getFixedValue());
    if (!Stored) {
      raceHook(I, Load, {P, N, location(I)});
      return;
    }
    // The value too, when it fits in 64 bits: a write that leaves memory
    // as it was is not reported (every work-item storing the same value).
    uint64_t Bits = DL.getTypeSizeInBits(T).getFixedValue();
    if (Bits <= 64 && Bits == Size.getFixedValue() * 8 &&
        (T->isIntegerTy() || T->isFloatingPointTy() || T->isPointerTy())) {
      Value *V = Stored;
      if (T->isPointerTy())
        V = B.CreatePtrToInt(V, I64);
      else if (T->isFloatingPointTy())
        V = B.CreateBitCast(V, B.getIntNTy(unsigned(Bits)));
      V = B.CreateZExtOrTrunc(V, I64);
      raceHook(I, StoreValue, {P, N, V, location(I)});
      return;
    }
    raceHook(I, Store, {P, N, location(I)});
  }

  /// A race hook call before `Before`, made only when SLMC_CHECK=races is
  /// on: an instrumented program without it pays a load and a branch per
  /// access, not a call.
  void raceHook(Instruction *Before, FunctionCallee Hook, ArrayRef<Value *> Args) {
    IRBuilder<> B(Before);
    Value *On = B.CreateICmpNE(B.CreateLoad(B.getInt32Ty(), Active), B.getInt32(0));
    Instruction *Then = SplitBlockAndInsertIfThen(On, Before->getIterator(), false);
    IRBuilder<>(Then).CreateCall(Hook, Args);
  }

  /// Atomics race only with non-atomic accesses.
  void atomic(Instruction *I, Value *P, Type *T) {
    TypeSize Size = DL.getTypeStoreSize(T);
    if (Size.isScalable() || P->getType()->getPointerAddressSpace() != 0 ||
        !mayBeGroupLocal(P))
      return;
    raceHook(I, Atomic, {P, ConstantInt::get(I64, Size.getFixedValue()), location(I)});
  }

  void memIntrinsic(MemIntrinsic *MI) {
    IRBuilder<> B(MI);
    Value *N = B.CreateZExtOrTrunc(MI->getLength(), I64);
    if (auto *MT = dyn_cast<MemTransferInst>(MI))
      if (MT->getSourceAddressSpace() == 0 && mayBeGroupLocal(MT->getRawSource()))
        raceHook(MI, Load, {MT->getRawSource(), N, location(MI)});
    if (MI->getDestAddressSpace() == 0 && mayBeGroupLocal(MI->getRawDest()))
      raceHook(MI, Store, {MI->getRawDest(), N, location(MI)});
  }

  void region(IntrinsicInst *II) {
    auto *GV = dyn_cast<GlobalVariable>(II->getArgOperand(0)->stripPointerCasts());
    if (!GV)
      return;
    uint64_t Size = DL.getTypeAllocSize(GV->getValueType()).getFixedValue();
    raceHook(II->getNextNode(), Region, {II, ConstantInt::get(I64, Size), text(variableName(*GV))});
  }

  /// The variable's name as the user wrote it ("tile"), or for storage
  /// that slmc's headers create, what it holds.
  static std::string variableName(const GlobalVariable &GV) {
    std::string D = demangle(GV.getName().str());
    // A local static demangles as "<function>::<name>": the name is after
    // the last "::" outside brackets.
    int Depth = 0;
    size_t Cut = std::string::npos;
    for (size_t I = 0; I < D.size(); ++I) {
      char C = D[I];
      if (C == '<' || C == '(')
        ++Depth;
      else if ((C == '>' || C == ')') && Depth > 0)
        --Depth;
      else if (Depth == 0 && C == ':' && I + 1 < D.size() && D[I + 1] == ':')
        Cut = I + 2;
    }
    std::string Name = Cut == std::string::npos ? D : D.substr(Cut);
    static const char Storage[] = "slmc::group_local_storage<";
    size_t S = D.find(Storage);
    if (Name == "storage" && S != std::string::npos) {
      // slmc::group_local_storage<T, Site>(): name T.
      size_t Begin = S + sizeof(Storage) - 1, End = Begin;
      for (int Depth2 = 0; End < D.size(); ++End) {
        char C = D[End];
        if (C == '<' || C == '(' || C == '[')
          ++Depth2;
        else if (C == '>' || C == ')' || C == ']')
          --Depth2;
        if (Depth2 == 0 && C == ',')
          break;
      }
      return "group-local " + D.substr(Begin, End - Begin);
    }
    return Name;
  }

  /// The innermost inlined location outside slmc's headers, if any.
  static const DILocation *userLocation(Instruction *I) {
    for (const DILocation *L = I->getDebugLoc().get(); L; L = L->getInlinedAt())
      if (!isLibraryFile(L->getDirectory(), L->getFilename()))
        return L;
    return nullptr;
  }

  static std::string lineOf(const DILocation *L) {
    return (L->getFilename() + ":" + Twine(L->getLine())).str();
  }

  /// "file:line" of the innermost inlined location outside slmc's headers.
  Constant *location(Instruction *I) {
    const DILocation *Chosen = nullptr;
    for (const DILocation *L = I->getDebugLoc().get(); L; L = L->getInlinedAt()) {
      if (!Chosen)
        Chosen = L; // all in the headers: the innermost
      if (!isLibraryFile(L->getDirectory(), L->getFilename())) {
        Chosen = L;
        break;
      }
    }
    if (!Chosen)
      return text("?");
    return text((Chosen->getFilename() + ":" + Twine(Chosen->getLine())).str());
  }

  Constant *text(const std::string &S) {
    GlobalVariable *&GV = Strings[S];
    if (!GV) {
      Constant *Init = ConstantDataArray::getString(Ctx, S);
      GV = new GlobalVariable(M, Init->getType(), /*isConstant=*/true,
                              GlobalValue::PrivateLinkage, Init, "slmc.check.text");
      GV->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
    }
    return GV;
  }

  Module &M;
  LLVMContext &Ctx;
  const DataLayout &DL;
  PointerType *Ptr;
  IntegerType *I64, *I32;
  Type *Void;
  FunctionCallee Load, Store, StoreValue, Atomic, Region, Barrier, Enter, Bounds;
  Constant *Active;   // libslmrt's flag: SLMC_CHECK=races is on
  Constant *BoundsOn; // libslmrt's flag: SLMC_CHECK=bounds (or races) is on
  StringMap<GlobalVariable *> Strings;
  SmallPtrSet<Function *, 16> Waits; // functions that wait at a barrier
};

struct SlmcCheckPass : PassInfoMixin<SlmcCheckPass> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    return Instrumenter(M).run() ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }
  static bool isRequired() { return true; } // also at -O0
};

} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "slmc-check", "1", [](PassBuilder &PB) {
            // One group-local block per call path, as without the checks.
            PB.registerPipelineStartEPCallback([](ModulePassManager &MPM, OptimizationLevel) {
              MPM.addPass(slmc::GroupLocalSitesPass());
            });
            PB.registerOptimizerLastEPCallback(
                [](ModulePassManager &MPM, OptimizationLevel, ThinOrFullLTOPhase) {
                  MPM.addPass(SlmcCheckPass());
                });
          }};
}
