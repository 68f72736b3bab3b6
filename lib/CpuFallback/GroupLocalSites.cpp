//===- GroupLocalSites.cpp - One group-local block per call path (CPU) ----===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// SYCL's group_local_memory called in a function a kernel calls makes one
// allocation per call path, as DPC++ gives after inlining; a call made again
// (in a loop) is the same allocation. The device passes inline each path
// into its kernel and give every remaining call a variable of its own
// (lowerGroupLocalAllocations, Driver/DeviceCode.cpp). This is the CPU
// fallback's half, at the start of the host pass's pipeline: every function
// that calls slmc_cpu_group_local_alloc, directly or not, is inlined into
// its direct callers until the calls are in functions no one calls directly
// (the kernels' CPU entries, reached through the runtime's pointers); each
// call left becomes slmc_cpu_group_local_site with a number of its own, and
// the runtime gives every number one block per work-group.
//
// A function also used otherwise than by direct calls (its address taken)
// keeps its calls as they are and shares their numbers among its callers;
// the check pass has refused what would reach it so (recursion, function
// pointers to allocating helpers are errors on the device).
//
//===----------------------------------------------------------------------===//
#include "CpuFallback/GroupLocalSites.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace slmc {

namespace {

constexpr const char *kAlloc = "slmc_cpu_group_local_alloc";
constexpr const char *kSite = "slmc_cpu_group_local_site";
constexpr unsigned kMaxRounds = 64;

/// Whether constant `C` only leads to the lists that name functions for
/// the compiler's sake (slmc's headers annotate entry points), which do
/// not call them.
bool onlyInLists(const Constant *C) {
  if (const auto *GV = dyn_cast<GlobalVariable>(C))
    return GV->getName() == "llvm.global.annotations" || GV->getName() == "llvm.used" ||
           GV->getName() == "llvm.compiler.used";
  if (C->use_empty())
    return false;
  for (const User *U : C->users())
    if (!isa<Constant>(U) || !onlyInLists(cast<Constant>(U)))
      return false;
  return true;
}

/// Whether `F` is called directly, by others than itself, and used in no
/// other way (but in those lists).
bool onlyCalledDirectly(Function &F) {
  F.removeDeadConstantUsers();
  bool Called = false;
  for (User *U : F.users()) {
    if (auto *C = dyn_cast<Constant>(U); C && onlyInLists(C))
      continue;
    auto *CB = dyn_cast<CallBase>(U);
    if (!CB || CB->getCalledOperand() != &F || CB->getFunction() == &F)
      return false;
    Called = true;
  }
  return Called;
}

} // namespace

PreservedAnalyses GroupLocalSitesPass::run(Module &M, ModuleAnalysisManager &) {
  Function *Alloc = M.getFunction(kAlloc);
  if (!Alloc || Alloc->use_empty())
    return PreservedAnalyses::all();
  bool Changed = false;
  for (unsigned Round = 0; Round < kMaxRounds; ++Round) {
    SmallSetVector<Function *, 8> Holders;
    for (User *U : Alloc->users())
      if (auto *CB = dyn_cast<CallBase>(U))
        if (CB->getCalledOperand() == Alloc && onlyCalledDirectly(*CB->getFunction()))
          Holders.insert(CB->getFunction());
    if (Holders.empty())
      break;
    bool Inlined = false;
    for (Function *F : Holders) {
      SmallVector<CallBase *, 4> Sites;
      for (User *U : F->users())
        if (auto *CB = dyn_cast<CallBase>(U))
          Sites.push_back(CB);
      for (CallBase *CB : Sites) {
        InlineFunctionInfo IFI;
        Inlined |= InlineFunction(*CB, IFI).isSuccess();
      }
      if (F->use_empty() && F->isDiscardableIfUnused())
        F->eraseFromParent();
    }
    Changed |= Inlined;
    if (!Inlined)
      break;
  }
  // Number the calls left: one block each.
  LLVMContext &Ctx = M.getContext();
  FunctionCallee Site =
      M.getOrInsertFunction(kSite, Alloc->getFunctionType()->getReturnType(),
                            Alloc->getFunctionType()->getParamType(0),
                            Alloc->getFunctionType()->getParamType(1), Type::getInt32Ty(Ctx));
  uint32_t N = 0;
  for (User *U : make_early_inc_range(Alloc->users())) {
    auto *CI = dyn_cast<CallInst>(U);
    if (!CI || CI->getCalledOperand() != Alloc)
      continue;
    IRBuilder<> B(CI);
    CallInst *New = B.CreateCall(
        Site, {CI->getArgOperand(0), CI->getArgOperand(1), B.getInt32(N++)});
    New->takeName(CI);
    CI->replaceAllUsesWith(New);
    CI->eraseFromParent();
    Changed = true;
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace slmc
