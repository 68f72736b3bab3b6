//===- DeviceCode.cpp -----------------------------------------------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "Driver/DeviceCode.h"
#include "Driver/SpirvPrintf.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/CallingConv.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Object/OffloadBinary.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/CRC.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/IPO/Internalize.h"
#include "llvm/Analysis/Utils/Local.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/LowerAtomic.h"

#include "spirv-tools/libspirv.h"

using namespace llvm;

namespace slmc::driver {

TempFiles::~TempFiles() {
  if (Keep)
    return;
  for (const std::string &F : Files)
    sys::fs::remove(F);
}

std::string TempFiles::make(StringRef Stem, StringRef Ext) {
  SmallString<256> Path;
  if (Keep) {
    Path = Stem;
    Path += ".";
    Path += Ext;
  } else if (std::error_code EC = sys::fs::createTemporaryFile(Stem, Ext, Path)) {
    errs() << "slmc++: error: cannot create a temporary file: " << EC.message() << "\n";
    return {};
  }
  Files.push_back(std::string(Path));
  return std::string(Path);
}

std::string deviceOptLevel(const Options &Opts) {
  // Unoptimised SPIR-V from LLVM's backend does not validate (non-constant
  // access-chain indices), so device code is optimised at least a little.
  if (Opts.OptLevel.empty())
    return "-O3";
  if (Opts.OptLevel == "-O0")
    return "-O1";
  return Opts.OptLevel;
}

std::vector<std::string> deviceFlags(const Toolchain &TC, const Options &Opts) {
  std::vector<std::string> F = {"-isystem", TC.ResourceInclude};
  F.insert(F.end(), Opts.CommonFlags.begin(), Opts.CommonFlags.end());
  F.push_back(deviceOptLevel(Opts));
  // The check pass has reported the source's warnings once; the later
  // passes compile the same source (errors still show).
  F.push_back("-w");
  return F;
}

static bool readWords(StringRef Path, std::vector<uint32_t> &Words) {
  auto Buf = MemoryBuffer::getFile(Path);
  if (!Buf || (*Buf)->getBufferSize() % 4)
    return false;
  Words.resize((*Buf)->getBufferSize() / 4);
  memcpy(Words.data(), (*Buf)->getBufferStart(), (*Buf)->getBufferSize());
  return true;
}

static bool writeWords(StringRef Path, ArrayRef<uint32_t> Words) {
  std::error_code EC;
  raw_fd_ostream OS(Path, EC, sys::fs::OF_None);
  if (EC) {
    errs() << "slmc++: error: cannot write '" << Path << "': " << EC.message() << "\n";
    return false;
  }
  OS.write(reinterpret_cast<const char *>(Words.data()), Words.size() * 4);
  return true;
}

//===----------------------------------------------------------------------===//
// Device code pipeline
//
// Both device passes stop clang after its front end (bitcode, no LLVM
// passes) and run the rest themselves: internalize (in process), opt with
// the options clang's driver passes for the target, [PTX: split small
// switches (in process)], llc. With no symbol made internal, that is the
// code clang would make; PTX adds 32-bit shared addresses and nvcc-like
// unrolling (docs/gpu.md has what each step measured on an H100).
//===----------------------------------------------------------------------===//

namespace {

std::unique_ptr<Module> readModule(StringRef Path, LLVMContext &Ctx) {
  SMDiagnostic Err;
  std::unique_ptr<Module> M = parseIRFile(Path, Err, Ctx);
  if (!M)
    errs() << "slmc++: error: cannot read device code '" << Path
           << "': " << Err.getMessage() << "\n";
  return M;
}

bool writeModule(const Module &M, StringRef Path) {
  std::error_code EC;
  raw_fd_ostream OS(Path, EC, sys::fs::OF_None);
  if (EC) {
    errs() << "slmc++: error: cannot write '" << Path << "': " << EC.message() << "\n";
    return false;
  }
  WriteBitcodeToFile(M, OS);
  return true;
}

/// Runs one in-process step on a bitcode file: `Step` changes the module
/// read from `In`, which is then written to `Out`. Shown by -v and -###.
bool runModuleStep(const Options &Opts, StringRef Name, StringRef In, StringRef Out,
                   function_ref<bool(Module &)> Step) {
  if (Opts.Verbose || Opts.DryRun)
    errs() << "slmc++: " << Name << " (in process): " << In << " -> " << Out << "\n";
  if (Opts.DryRun)
    return true;
  LLVMContext Ctx;
  std::unique_ptr<Module> M = readModule(In, Ctx);
  if (!M)
    return false;
  if (!Step(*M))
    return false;
  return writeModule(*M, Out);
}

bool isKernel(const Function &F) {
  return F.getCallingConv() == CallingConv::PTX_Kernel ||
         F.getCallingConv() == CallingConv::SPIR_KERNEL;
}

/// Kernel entry points are the only symbols of a device module that
/// anything outside it uses: the runtime finds them by name
/// (cuModuleGetFunction, zeKernelCreate), and device modules are never
/// linked with each other. Every other function and variable becomes
/// internal, so that the optimiser sees all the callers of each: LLVM's
/// inliner keeps a large function with external linkage as a call even
/// where it has one caller (a C for Metal kernel's outlined body, its
/// _GENX_ helpers), and their vector arguments then live in local memory.
void internalizeAllButKernels(Module &M) {
  internalizeModule(M, [](const GlobalValue &GV) {
    const auto *F = dyn_cast<Function>(&GV);
    return F && isKernel(*F);
  });
}

/// Group-local storage made by a call that stands for several call paths
/// (a SYCL group_local_memory call in a helper a kernel calls twice, or in
/// a template): DPC++ gives each path its own allocation after inlining, and
/// so does this. Every function that calls __slmc_group_local_alloc,
/// directly or not, is inlined into its callers until each call is in a
/// kernel; then each call becomes a group-local variable of its own (its
/// size and alignment are constants), which a call made again in a loop
/// reuses. The check pass has already refused calls under divergent
/// control flow and in recursion; what remains here (a call through a
/// function pointer) is an error.
bool lowerGroupLocalAllocations(Module &M, StringRef SourceName) {
  Function *Alloc = M.getFunction("__slmc_group_local_alloc");
  if (!Alloc)
    return true;
  auto fail = [&](const Function *F, const Twine &Why) {
    errs() << "slmc++: error: in '" << SourceName << "': group-local memory allocated in '"
           << demangle(F->getName()) << "' " << Why << "\n";
    return false;
  };
  // slmc's headers mark entry points with annotations, which device code
  // does not need; they would count as uses of the functions to inline.
  if (GlobalVariable *Annotations = M.getNamedGlobal("llvm.global.annotations"))
    Annotations->eraseFromParent();
  for (unsigned Round = 0;; ++Round) {
    SmallSetVector<Function *, 8> Holders;
    for (User *U : Alloc->users()) {
      auto *CB = dyn_cast<CallBase>(U);
      if (!CB || CB->getCalledOperand() != Alloc)
        return fail(Alloc, "is used other than by calls");
      if (!isKernel(*CB->getFunction()))
        Holders.insert(CB->getFunction());
    }
    if (Holders.empty())
      break;
    if (Round == 64)
      return fail(Holders.front(), "is reached through more than 64 nested calls");
    for (Function *F : Holders) {
      SmallVector<CallBase *, 4> Sites;
      F->removeDeadConstantUsers();
      for (User *U : F->users()) {
        auto *CB = dyn_cast<CallBase>(U);
        if (!CB || CB->getCalledOperand() != F)
          return fail(F, "is reached through a function pointer; each call path needs "
                         "its own allocation, so the call must be direct");
        if (CB->getFunction() == F)
          return fail(F, "is reached through recursion");
        Sites.push_back(CB);
      }
      if (Sites.empty())
        return fail(F, "is not reached from any kernel");
      for (CallBase *CB : Sites) {
        InlineFunctionInfo IFI;
        InlineResult R = InlineFunction(*CB, IFI);
        if (!R.isSuccess())
          return fail(F, Twine("cannot be inlined into its caller: ") + R.getFailureReason());
      }
      F->eraseFromParent();
    }
  }
  unsigned N = 0;
  for (User *U : make_early_inc_range(Alloc->users())) {
    auto *CB = cast<CallBase>(U);
    auto *Size = dyn_cast<ConstantInt>(CB->getArgOperand(0));
    auto *AlignArg = dyn_cast<ConstantInt>(CB->getArgOperand(1));
    if (!Size || !AlignArg || !isPowerOf2_64(AlignArg->getZExtValue()))
      return fail(CB->getFunction(), "has no constant size and alignment");
    auto *Ty = ArrayType::get(Type::getInt8Ty(M.getContext()),
                              std::max<uint64_t>(Size->getZExtValue(), 1));
    // Address space 3 is group-local memory in both device targets (SPIR-V
    // Workgroup, PTX .shared), as clang gives __shared__ variables.
    auto *GV = new GlobalVariable(M, Ty, /*isConstant=*/false, GlobalValue::InternalLinkage,
                                  UndefValue::get(Ty), "slmc_group_local_" + Twine(N++),
                                  nullptr, GlobalValue::NotThreadLocal, 3);
    GV->setAlignment(Align(AlignArg->getZExtValue()));
    CB->replaceAllUsesWith(ConstantExpr::getPointerBitCastOrAddrSpaceCast(GV, CB->getType()));
    CB->eraseFromParent();
  }
  Alloc->eraseFromParent();
  return true;
}

/// Turns each call of the mark function `MarkName` (made by slmc::kernel_entry
/// in the SPIR-V pass only, see SLMC_MARK_KERNEL_REQUIREMENTS) into the
/// kernel's `MetadataName` metadata, whose operands are the call's arguments
/// as 32-bit constants; LLVM's SPIR-V backend emits that metadata as an
/// execution mode. Every argument must be a non-zero constant.
bool applyKernelMarks(Module &M, StringRef SourceName, StringRef MarkName,
                      StringRef MetadataName, StringRef What) {
  Function *Mark = M.getFunction(MarkName);
  if (!Mark)
    return true;
  LLVMContext &Ctx = M.getContext();
  for (User *U : make_early_inc_range(Mark->users())) {
    auto *CB = dyn_cast<CallBase>(U);
    Function *K = CB ? CB->getFunction() : nullptr;
    SmallVector<Metadata *, 3> Operands;
    for (unsigned I = 0; CB && I < CB->arg_size(); ++I)
      if (auto *C = dyn_cast<ConstantInt>(CB->getArgOperand(I)); C && !C->isZero())
        Operands.push_back(ConstantAsMetadata::get(
            ConstantInt::get(Type::getInt32Ty(Ctx), C->getZExtValue())));
    if (!K || !isKernel(*K) || Operands.size() != CB->arg_size()) {
      errs() << "slmc++: error: in '" << SourceName << "': a required " << What
             << " is not constant in a kernel entry\n";
      return false;
    }
    K->setMetadata(MetadataName, MDNode::get(Ctx, Operands));
    CB->eraseFromParent();
  }
  Mark->eraseFromParent();
  return true;
}

/// SYCL's reqd_sub_group_size becomes intel_reqd_sub_group_size metadata
/// (the SubgroupSize execution mode: IGC compiles the kernel for exactly
/// that many lanes); a work-group shape fixed by the dialect (C++ AMP tiles)
/// becomes reqd_work_group_size (LocalSize: IGC compiles for that shape, as
/// for OpenCL C's reqd_work_group_size).
bool applyKernelRequirements(Module &M, StringRef SourceName) {
  return applyKernelMarks(M, SourceName, "__slmc_reqd_sub_group_size",
                          "intel_reqd_sub_group_size", "sub-group size") &&
         applyKernelMarks(M, SourceName, "__slmc_reqd_work_group_size",
                          "reqd_work_group_size", "work-group shape");
}

/// Whether a * b + c may become one fused operation in device code: as in
/// OpenCL C and CUDA, unless the command line's last -ffp-contract= says
/// off.
bool contractionAllowed(const Options &Opts) {
  bool Allowed = true;
  for (StringRef F : Opts.CommonFlags)
    if (F.consume_front("-ffp-contract="))
      Allowed = F != "off";
  return Allowed;
}

/// LLVM's NVPTX backend aborts ("Copy one register into another with a
/// different width") on a device function with a `byval` parameter under
/// -nvptx-short-ptr: a SYCL kernel's lambda, which takes its nd_item by
/// value, once it is too large to be inlined into the kernel. So every
/// internal function gets a pointer to a copy its caller makes instead, which
/// is what byval means; the optimiser removes the copies it can.
void copyByValueArguments(Module &M) {
  const DataLayout &DL = M.getDataLayout();
  for (Function &F : M) {
    if (F.isDeclaration() || !F.hasLocalLinkage() || F.getCallingConv() == CallingConv::PTX_Kernel)
      continue;
    SmallVector<unsigned, 2> ByVal;
    for (Argument &A : F.args())
      if (A.hasByValAttr())
        ByVal.push_back(A.getArgNo());
    if (ByVal.empty() || any_of(F.users(), [&](User *U) {
          auto *Call = dyn_cast<CallBase>(U);
          return !Call || Call->getCalledOperand() != &F;
        }))
      continue;
    for (User *U : F.users()) {
      auto *Call = cast<CallBase>(U);
      IRBuilder<> Entry(&*Call->getFunction()->getEntryBlock().getFirstInsertionPt());
      IRBuilder<> At(Call);
      for (unsigned No : ByVal) {
        Type *Ty = F.getParamByValType(No);
        Align A = F.getParamAlign(No).value_or(DL.getABITypeAlign(Ty));
        AllocaInst *Copy = Entry.CreateAlloca(Ty, DL.getAllocaAddrSpace(), nullptr, "byval.copy");
        Copy->setAlignment(A);
        Value *Ptr = Copy;
        if (Copy->getType() != Call->getArgOperand(No)->getType())
          Ptr = Entry.CreateAddrSpaceCast(Copy, Call->getArgOperand(No)->getType());
        At.CreateMemCpy(Ptr, A, Call->getArgOperand(No), Call->getParamAlign(No).value_or(A),
                        DL.getTypeAllocSize(Ty));
        Call->setArgOperand(No, Ptr);
        Call->removeParamAttr(No, Attribute::ByVal);
      }
    }
    for (unsigned No : ByVal)
      F.removeParamAttr(No, Attribute::ByVal);
  }
}

/// SimplifyCFG folds consecutive tests of one value, such as
///   if (r == 0) { a } if (r == N - 1) { b }
/// into `switch (r) { case 0: a; case N - 1: b }`, which the NVPTX backend
/// emits as a compare-and-branch tree: ptxas cannot predicate that, so the
/// global loads of `a` and `b` are issued one after the other instead of
/// back to back (what nvcc's PTX, which keeps the two ifs, gets). This
/// turns a switch of at most MaxCases cases back into such a chain of
/// conditional blocks, where that is exact: each case goes to its own block,
/// reached only from the switch, that jumps to the default destination, and
/// that destination has no PHIs (only one case block runs either way).
void splitSmallSwitches(Module &M) {
  constexpr unsigned MaxCases = 4;
  for (Function &F : M) {
    SmallVector<SwitchInst *, 8> Switches;
    for (BasicBlock &BB : F)
      if (auto *SI = dyn_cast<SwitchInst>(BB.getTerminator()))
        Switches.push_back(SI);
    for (SwitchInst *SI : Switches) {
      BasicBlock *Head = SI->getParent(), *Join = SI->getDefaultDest();
      unsigned N = SI->getNumCases();
      if (N == 0 || N > MaxCases || Join == Head || isa<PHINode>(Join->begin()))
        continue;
      SmallVector<std::pair<ConstantInt *, BasicBlock *>, 4> Cases;
      bool Exact = true;
      for (const auto &C : SI->cases()) {
        BasicBlock *Body = C.getCaseSuccessor();
        auto *Br = dyn_cast<BranchInst>(Body->getTerminator());
        Exact = Exact && Body != Join && Body->getSinglePredecessor() == Head && Br &&
                Br->isUnconditional() && Br->getSuccessor(0) == Join;
        Cases.push_back({C.getCaseValue(), Body});
      }
      if (!Exact)
        continue;
      Value *X = SI->getCondition();
      BasicBlock *Test = Head;
      for (unsigned I = 0; I < N; ++I) {
        auto [Value, Body] = Cases[I];
        BasicBlock *Next = I + 1 == N ? Join
                                      : BasicBlock::Create(M.getContext(), "", &F,
                                                           Body->getNextNode());
        IRBuilder<> B(Test);
        if (Test == Head)
          B.SetInsertPoint(SI);
        B.SetCurrentDebugLocation(SI->getDebugLoc());
        B.CreateCondBr(B.CreateICmpEQ(X, Value), Body, Next);
        Body->replacePhiUsesWith(Head, Test);
        if (Next != Join)
          Body->getTerminator()->setSuccessor(0, Next);
        Test = Next;
      }
      SI->eraseFromParent();
    }
  }
}

/// SPIR-V's address spaces in LLVM (clang's spirv64 target).
enum : unsigned { kSpirvGlobalAS = 1, kSpirvGenericAS = 4 };

/// Collects the pointer loads of a kernel argument's memory, through
/// address arithmetic. False when the memory may be written or escapes
/// (a store, a call, a pointer compared or converted): then a loaded pointer
/// may be one the kernel put there.
/// Atomics on a work-item's own variables (C++ AMP lets a kernel call
/// atomic_exchange(&local, v)) become plain loads and stores: no other
/// work-item can see such a variable, and PTX has no atomics on its local
/// state space (the driver's JIT refuses `atom.local`).
void lowerPrivateAtomics(Module &M, unsigned PrivateAddressSpace) {
  SmallVector<Instruction *, 8> Work;
  for (Function &F : M)
    for (Instruction &I : instructions(F)) {
      Value *Ptr = nullptr;
      if (auto *RMW = dyn_cast<AtomicRMWInst>(&I))
        Ptr = RMW->getPointerOperand();
      else if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I))
        Ptr = CX->getPointerOperand();
      if (Ptr && (Ptr->getType()->getPointerAddressSpace() == PrivateAddressSpace ||
                  isa<AllocaInst>(getUnderlyingObject(Ptr))))
        Work.push_back(&I);
    }
  for (Instruction *I : Work) {
    if (auto *RMW = dyn_cast<AtomicRMWInst>(I))
      lowerAtomicRMWInst(RMW);
    else
      lowerAtomicCmpXchgInst(cast<AtomicCmpXchgInst>(I));
  }
}

bool collectArgumentLoads(Value *Ptr, SmallVectorImpl<LoadInst *> &Loads,
                          SmallPtrSetImpl<Value *> &Seen) {
  if (!Seen.insert(Ptr).second)
    return true;
  for (User *U : Ptr->users()) {
    if (auto *L = dyn_cast<LoadInst>(U)) {
      if (L->isVolatile() || L->getPointerOperand() != Ptr)
        return false;
      if (auto *T = dyn_cast<PointerType>(L->getType());
          T && T->getAddressSpace() == kSpirvGenericAS)
        Loads.push_back(L);
    } else if (isa<GetElementPtrInst>(U) || isa<BitCastInst>(U) ||
               isa<AddrSpaceCastInst>(U)) {
      if (!collectArgumentLoads(U, Loads, Seen))
        return false;
    } else {
      return false;
    }
  }
  return true;
}

/// A pointer a kernel reads from its own argument object points to global
/// memory (or is null, or is never dereferenced): the object was made on the
/// host, where no group-local or private address exists, from USM pointers,
/// buffers' and accessors' data and array_views (a local accessor keeps an
/// offset, not a pointer). HIP's address space being generic, such pointers
/// are generic after clang, and IGC then tests the address space of every
/// access through them at run time (a branch per load, store or atomic).
/// Casting each loaded pointer to global and back lets
/// infer-address-spaces give their accesses the global address space, as
/// OpenCL C's `__global` parameters have it. Only where the kernel never
/// writes its argument object, which could put another pointer there.
void markKernelObjectPointersGlobal(Module &M) {
  for (Function &F : M) {
    if (F.getCallingConv() != CallingConv::SPIR_KERNEL || F.isDeclaration())
      continue;
    for (Argument &A : F.args()) {
      if (!A.getType()->isPointerTy())
        continue;
      SmallVector<LoadInst *, 8> Loads;
      SmallPtrSet<Value *, 16> Seen;
      if (!collectArgumentLoads(&A, Loads, Seen))
        continue;
      for (LoadInst *L : Loads) {
        IRBuilder<> B(L->getNextNode());
        Value *Global = B.CreateAddrSpaceCast(
            L, PointerType::get(M.getContext(), kSpirvGlobalAS));
        Value *Generic = B.CreateAddrSpaceCast(Global, L->getType());
        L->replaceUsesWithIf(Generic, [&](Use &U) { return U.getUser() != Global; });
      }
    }
  }
}

/// A group-local variable that every work-item of a kernel sets to the same
/// kernel argument before reading it (how SYCL's local accessors find the
/// launch's dynamic group-local memory, an argument in the Workgroup
/// address space, kept generic in the variable): each read a store
/// dominates is that argument, which infer-address-spaces then follows back
/// to the Workgroup address space. Without this every access to a local
/// accessor was generic (IGC: a run-time address-space test per access).
/// Stores left without readers go too.
void forwardGroupLocalArgumentSlots(Module &M) {
  constexpr unsigned kSpirvWorkgroupAS = 3;
  SmallVector<GlobalVariable *, 4> Slots;
  for (GlobalVariable &GV : M.globals())
    if (GV.getAddressSpace() == kSpirvWorkgroupAS)
      Slots.push_back(&GV);
  for (GlobalVariable *GV : Slots) {
    SmallVector<StoreInst *, 4> Stores;
    SmallVector<LoadInst *, 8> Loads;
    bool Simple = true;
    // Accessed directly or through its generic address (a constant cast).
    SmallVector<Value *, 2> Addresses = {GV};
    for (User *U : GV->users())
      if (auto *CE = dyn_cast<ConstantExpr>(U);
          CE && CE->getOpcode() == Instruction::AddrSpaceCast)
        Addresses.push_back(CE);
    for (Value *Address : Addresses)
      for (User *U : Address->users()) {
        if (auto *S = dyn_cast<StoreInst>(U);
            S && S->getPointerOperand() == Address && !S->isVolatile())
          Stores.push_back(S);
        else if (auto *L = dyn_cast<LoadInst>(U); L && !L->isVolatile())
          Loads.push_back(L);
        else if (Address != GV || !llvm::is_contained(Addresses, U))
          Simple = false;
      }
    if (!Simple || Stores.empty())
      continue;
    // What each kernel stores: one value, made from one of its arguments.
    DenseMap<Function *, Value *> Stored;
    for (StoreInst *S : Stores) {
      Value *V = S->getValueOperand();
      Function *F = S->getFunction();
      auto [It, New] = Stored.try_emplace(F, V);
      if (!isa<Argument>(V->stripPointerCasts()) || F->getCallingConv() != CallingConv::SPIR_KERNEL ||
          (!New && It->second != V))
        Simple = false;
    }
    if (!Simple)
      continue;
    DenseMap<Function *, std::unique_ptr<DominatorTree>> Trees;
    bool AllForwarded = true;
    for (LoadInst *L : Loads) {
      Function *F = L->getFunction();
      auto It = Stored.find(F);
      if (It == Stored.end() || It->second->getType() != L->getType()) {
        AllForwarded = false;
        continue;
      }
      std::unique_ptr<DominatorTree> &DT = Trees[F];
      if (!DT)
        DT = std::make_unique<DominatorTree>(*F);
      if (llvm::none_of(Stores, [&](StoreInst *S) {
            return S->getFunction() == F && DT->dominates(S, L);
          })) {
        AllForwarded = false;
        continue;
      }
      L->replaceAllUsesWith(It->second);
      L->eraseFromParent();
    }
    if (AllForwarded) {
      for (StoreInst *S : Stores)
        S->eraseFromParent();
      GV->removeDeadConstantUsers();
      if (GV->use_empty() && GV->hasLocalLinkage())
        GV->eraseFromParent();
    }
  }
}

/// Collects the loads of a by-value kernel argument at constant byte offsets
/// from its start. False when the object is used any other way, or read
/// as something the split cannot pass as a parameter of its own (an
/// aggregate, a vector, a bool, a pointer not to global or generic memory).
bool collectConstantOffsetLoads(Value *Ptr, int64_t Offset, const DataLayout &DL,
                                SmallVectorImpl<std::pair<LoadInst *, int64_t>> &Loads) {
  for (User *U : Ptr->users()) {
    if (auto *L = dyn_cast<LoadInst>(U)) {
      Type *T = L->getType();
      bool Passable = (T->isIntegerTy() && T->getIntegerBitWidth() % 8 == 0) ||
                      T->isFloatingPointTy();
      if (auto *PT = dyn_cast<PointerType>(T))
        Passable = PT->getAddressSpace() == kSpirvGlobalAS ||
                   PT->getAddressSpace() == kSpirvGenericAS;
      if (!L->isSimple() || L->getPointerOperand() != Ptr || !Passable || Offset < 0)
        return false;
      Loads.emplace_back(L, Offset);
    } else if (auto *G = dyn_cast<GetElementPtrInst>(U)) {
      APInt Delta(DL.getIndexTypeSizeInBits(G->getType()), 0);
      if (G->getPointerOperand() != Ptr || !G->accumulateConstantOffset(DL, Delta) ||
          !collectConstantOffsetLoads(G, Offset + Delta.getSExtValue(), DL, Loads))
        return false;
    } else if (isa<AddrSpaceCastInst>(U) || isa<BitCastInst>(U)) {
      if (!collectConstantOffsetLoads(U, Offset, DL, Loads))
        return false;
    } else {
      return false;
    }
  }
  return true;
}

/// Kernels take what they capture as one by-value object (a C++ AMP or
/// SYCL lambda, a functor). IGC reads such an object's pointers as 64-bit
/// addresses (stateless A64 messages, a 64-bit add per access), where a
/// pointer parameter of its own gets a binding table entry and 32-bit
/// offsets, as OpenCL C's `__global` parameters do: eight to sixteen
/// instructions per access in a SIMD32 kernel. So each kernel whose
/// by-value argument is only read, at constant offsets, takes each field it
/// reads as a parameter of its own instead (pointers as global pointers: the
/// object was made on the host), and the runtime passes the bytes of the
/// launch's argument at those offsets (`Layouts`: kernel name -> one word
/// per parameter, `A` for launch argument A as it is, `A:OFFSET:SIZE` for
/// those bytes of it; a trailing group-local parameter is not listed).
void splitKernelArgumentObjects(Module &M, std::map<std::string, std::string> &Layouts) {
  const DataLayout &DL = M.getDataLayout();
  LLVMContext &Ctx = M.getContext();
  SmallVector<Function *, 8> Kernels;
  for (Function &F : M)
    if (F.getCallingConv() == CallingConv::SPIR_KERNEL && !F.isDeclaration() &&
        F.use_empty() && llvm::any_of(F.args(), [](Argument &A) { return A.hasByValAttr(); }))
      Kernels.push_back(&F);
  for (Function *F : Kernels) {
    struct Field {
      int64_t Offset;
      Type *Ty;
      SmallVector<LoadInst *, 2> Loads;
    };
    struct Param {
      unsigned Arg;
      Type *Ty;
      std::vector<Field> Fields; // empty: the argument as it is
    };
    std::vector<Param> Params;
    bool Split = false;
    for (Argument &A : F->args()) {
      Param P{A.getArgNo(), A.getType(), {}};
      SmallVector<std::pair<LoadInst *, int64_t>, 16> Loads;
      if (Type *Obj = A.getParamByValType();
          Obj && collectConstantOffsetLoads(&A, 0, DL, Loads) &&
          llvm::all_of(Loads, [&](auto &L) {
            return uint64_t(L.second) + DL.getTypeStoreSize(L.first->getType()) <=
                   DL.getTypeAllocSize(Obj);
          })) {
        std::map<std::pair<int64_t, Type *>, Field> ByField; // in offset order
        for (auto &[L, Off] : Loads) {
          Field &Fd = ByField[{Off, L->getType()}];
          Fd.Offset = Off;
          Fd.Ty = L->getType();
          Fd.Loads.push_back(L);
        }
        for (auto &[Key, Fd] : ByField) {
          Param FP{A.getArgNo(), Fd.Ty, {Fd}};
          if (Fd.Ty->isPointerTy())
            FP.Ty = PointerType::get(Ctx, kSpirvGlobalAS);
          Params.push_back(std::move(FP));
        }
        Split = true;
        continue;
      }
      Params.push_back(std::move(P));
    }
    if (!Split)
      continue;

    std::vector<Type *> Types;
    for (Param &P : Params)
      Types.push_back(P.Ty);
    Function *NF = Function::Create(FunctionType::get(F->getReturnType(), Types, false),
                                    F->getLinkage(), F->getAddressSpace(), "", &M);
    NF->setCallingConv(F->getCallingConv());
    NF->setAttributes(AttributeList::get(Ctx, F->getAttributes().getFnAttrs(),
                                         F->getAttributes().getRetAttrs(), {}));
    NF->copyMetadata(F, 0);
    NF->setComdat(F->getComdat());
    NF->setVisibility(F->getVisibility());
    NF->splice(NF->end(), F);
    IRBuilder<> B(&*NF->getEntryBlock().getFirstInsertionPt());
    std::string Layout;
    for (auto [I, P] : llvm::enumerate(Params)) {
      Argument *New = NF->getArg(I);
      Argument *Old = F->getArg(P.Arg);
      bool Last = I + 1 == Params.size();
      if (P.Fields.empty()) {
        New->takeName(Old);
        // Attributes of a parameter passed as it is stay.
        for (Attribute Att : F->getAttributes().getParamAttrs(P.Arg))
          NF->addParamAttr(I, Att);
        Old->replaceAllUsesWith(New);
        // Dynamic group-local memory: the runtime's own trailing parameter.
        auto *PT = dyn_cast<PointerType>(P.Ty);
        if (Last && PT && PT->getAddressSpace() == 3 && !Old->hasByValAttr())
          break;
        Layout += (Layout.empty() ? "" : " ") + std::to_string(P.Arg);
        continue;
      }
      const Field &Fd = P.Fields.front();
      Value *V = New;
      if (Fd.Ty != P.Ty) // a generic pointer, passed as a global one
        V = B.CreateAddrSpaceCast(New, Fd.Ty);
      for (LoadInst *L : Fd.Loads) {
        L->replaceAllUsesWith(V);
        L->eraseFromParent();
      }
      Layout += (Layout.empty() ? "" : " ") + std::to_string(P.Arg) + ":" +
                std::to_string(Fd.Offset) + ":" +
                std::to_string(DL.getTypeStoreSize(Fd.Ty).getFixedValue());
    }
    // What is left of the old object's address arithmetic reads nothing.
    for (Argument &A : F->args())
      A.replaceAllUsesWith(PoisonValue::get(A.getType()));
    NF->takeName(F);
    Layouts[NF->getName().str()] = Layout;
    F->eraseFromParent();
  }
}

/// The level of opt's default pipeline for a device optimisation level
/// (deviceOptLevel: -O1 and up): "1", "2", "3", "s" or "z".
std::string pipelineLevel(StringRef Level) {
  StringRef L = Level.drop_front(2); // "-O3" -> "3"
  if (L == "s" || L == "z" || L == "1" || L == "2")
    return L.str();
  if (L.empty() || L == "g")
    return "1";
  return "3"; // -O3, -O4 and up, -Ofast
}

/// llc knows -O0 to -O3; clang generates code for -Os and -Oz at -O2.
std::string codegenLevel(StringRef Level) {
  std::string L = pipelineLevel(Level);
  return "-O" + (L == "s" || L == "z" ? std::string("2") : L);
}

/// The string entry that holds an image's checksum, and the checksum: the
/// runtime's reader (runtime/lib/FatBinary.h) computes the same over what
/// it reads, namely the image kind and offload kind (little-endian 16-bit
/// each), every other string in key order (key, NUL, value, NUL), and the
/// bytes.
constexpr StringLiteral kImageChecksumKey = "slmc.checksum";

std::string imageChecksum(const object::OffloadBinary::OffloadingImage &Image) {
  uint8_t Kinds[4] = {uint8_t(Image.TheImageKind), uint8_t(Image.TheImageKind >> 8),
                      uint8_t(Image.TheOffloadKind), uint8_t(Image.TheOffloadKind >> 8)};
  uint32_t Crc = llvm::crc32(0, Kinds);
  std::vector<std::pair<StringRef, StringRef>> Strings(Image.StringData.begin(),
                                                       Image.StringData.end());
  llvm::sort(Strings);
  for (const auto &[Key, Value] : Strings) {
    if (Key == kImageChecksumKey)
      continue;
    static const uint8_t Nul = 0;
    for (StringRef S : {Key, Value}) {
      Crc = llvm::crc32(Crc, arrayRefFromStringRef(S));
      Crc = llvm::crc32(Crc, ArrayRef<uint8_t>(Nul));
    }
  }
  Crc = llvm::crc32(Crc, arrayRefFromStringRef(Image.Image->getBuffer()));
  return "crc32:" + utohexstr(Crc, /*LowerCase=*/true, /*Width=*/8);
}

} // namespace

/// Whether a kernel of the module keeps a variable in private memory after
/// optimisation (an array SROA could not split: C for Metal's vectors).
bool keepsPrivateArrays(const Module &M) {
  for (const Function &F : M)
    if (isKernel(F))
      for (const Instruction &I : instructions(F))
        if (isa<AllocaInst>(I))
          return true;
  return false;
}

/// The base a pointer is reached from through GEPs, and those GEPs
/// (outermost first).
static Value *gepBase(Value *P, SmallVectorImpl<GEPOperator *> &Chain) {
  while (auto *GEP = dyn_cast<GEPOperator>(P)) {
    Chain.push_back(GEP);
    P = GEP->getPointerOperand();
  }
  return P;
}

/// IGC gives a kernel's buffer argument a binding-table entry (32-bit
/// offsets, as an OpenCL C `__global` parameter gets) only where it can trace
/// every access to that argument plus an offset. Two pointers LLVM makes
/// defeat that, and the accesses become 64-bit addresses (stateless `a64`
/// messages, an `addc` pair per half of each SIMD32 add):
///  - a select between two pointers into one buffer, what LLVM makes of
///    `c ? p[i + 1] : p[i]`;
///  - a pointer induction variable, what LLVM makes of `p[i * w + k]` in a
///    loop over k (a phi of the first address and the address plus a step).
/// Each such select or phi becomes the common base plus a select or phi of
/// byte offsets: the same addresses. Run after the last optimisation, which
/// would fold them back.
void offsetsNotPointers(Module &M) {
  const DataLayout &DL = M.getDataLayout();
  SmallVector<Instruction *, 8> Work;
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if ((isa<SelectInst>(I) || isa<PHINode>(I)) && I.getType()->isPointerTy())
        Work.push_back(&I);
  SmallVector<Instruction *, 8> Dead;
  for (Instruction *I : Work) {
    // Each pointer operand: its GEPs and the pointer they start from, which
    // is the common base or (for a phi: a loop's step) the phi itself.
    SmallVector<Value *, 4> Incoming;
    if (auto *S = dyn_cast<SelectInst>(I))
      Incoming = {S->getTrueValue(), S->getFalseValue()};
    else
      Incoming.append(cast<PHINode>(I)->incoming_values().begin(),
                      cast<PHINode>(I)->incoming_values().end());
    SmallVector<SmallVector<GEPOperator *, 2>, 4> Chains(Incoming.size());
    Value *Base = nullptr;
    bool Ok = true, AnyGEP = false;
    for (size_t K = 0; K < Incoming.size() && Ok; ++K) {
      Value *Root = gepBase(Incoming[K], Chains[K]);
      AnyGEP |= !Chains[K].empty();
      if (Root == I)
        Ok = !Chains[K].empty() && isa<PHINode>(I);
      else if (!Base)
        Base = Root;
      else
        Ok = Root == Base;
    }
    // A base defined inside the phi's block would not dominate the phi.
    if (!Ok || !Base || !AnyGEP || isa<PHINode>(Base) ||
        (isa<Instruction>(Base) && isa<PHINode>(I) &&
         cast<Instruction>(Base)->getParent() == I->getParent()))
      continue;
    Type *IndexTy = DL.getIndexType(I->getType());
    bool InBounds = true;
    // The offset of one operand, computed at `At`; `Self` stands for the
    // phi's own offset.
    auto Offset = [&](ArrayRef<GEPOperator *> Chain, Instruction *At, Value *Self) {
      IRBuilder<> B(At);
      Value *Sum = Self ? Self : ConstantInt::get(IndexTy, 0);
      for (GEPOperator *GEP : Chain) {
        InBounds &= GEP->isInBounds();
        Sum = B.CreateAdd(Sum, emitGEPOffset(&B, DL, GEP));
      }
      return Sum;
    };
    Value *Chosen;
    if (auto *S = dyn_cast<SelectInst>(I)) {
      Value *T = Offset(Chains[0], S, nullptr), *F = Offset(Chains[1], S, nullptr);
      Chosen = IRBuilder<>(S).CreateSelect(S->getCondition(), T, F);
    } else {
      auto *P = cast<PHINode>(I);
      // The base must be available where the offsets replace the pointer.
      if (auto *BI = dyn_cast<Instruction>(Base)) {
        DominatorTree DT(*P->getFunction());
        if (!DT.dominates(BI, P->getParent()))
          continue;
      }
      PHINode *Off = PHINode::Create(IndexTy, P->getNumIncomingValues(), "", P->getIterator());
      for (unsigned K = 0; K < P->getNumIncomingValues(); ++K) {
        Value *Root = Incoming[K];
        SmallVector<GEPOperator *, 2> Unused;
        bool SelfStep = gepBase(Root, Unused) == P;
        Off->addIncoming(Offset(Chains[K], P->getIncomingBlock(K)->getTerminator(),
                                SelfStep ? Off : nullptr),
                         P->getIncomingBlock(K));
      }
      Chosen = Off;
    }
    IRBuilder<> B(I->getParent(), I->getParent()->getFirstInsertionPt());
    if (isa<SelectInst>(I))
      B.SetInsertPoint(I);
    Value *Address = InBounds ? B.CreateInBoundsGEP(B.getInt8Ty(), Base, Chosen)
                              : B.CreateGEP(B.getInt8Ty(), Base, Chosen);
    Address->takeName(I);
    I->replaceAllUsesWith(Address);
    Dead.push_back(I);
  }
  // The replaced pointers, and the address arithmetic only they used.
  SmallVector<WeakTrackingVH, 8> Operands;
  for (Instruction *I : Dead) {
    for (Value *Op : I->operands())
      Operands.push_back(Op);
    I->eraseFromParent();
  }
  for (WeakTrackingVH &Op : Operands)
    if (auto *OpI = dyn_cast_or_null<Instruction>(Op))
      RecursivelyDeleteTriviallyDeadInstructions(OpI);
}

/// LLVM's SPIR-V backend aborts on `llvm.bitreverse` (OpBitReverse needs
/// the Shader capability or SPV_KHR_bit_instructions, which OpenCL drivers
/// need not have), and LLVM's optimiser makes that intrinsic of the usual
/// swap-halves-bytes-nibbles-pairs-bits idiom. Each call becomes that idiom
/// again (a byte swap, which SPIR-V has, then three mask-and-shift steps),
/// or, for a width that is not a whole number of bytes, one step per bit.
/// Run after the last optimisation, which would find the intrinsic again.
void lowerBitReverse(Module &M) {
  SmallVector<IntrinsicInst *, 4> Calls;
  for (Function &F : M)
    if (F.getIntrinsicID() == Intrinsic::bitreverse)
      for (User *U : F.users())
        if (auto *II = dyn_cast<IntrinsicInst>(U))
          Calls.push_back(II);
  for (IntrinsicInst *II : Calls) {
    IRBuilder<> B(II);
    Value *X = II->getArgOperand(0);
    Type *Ty = X->getType();
    unsigned Bits = Ty->getScalarSizeInBits();
    auto Splat = [&](const APInt &V) { return ConstantInt::get(Ty, V); };
    Value *R;
    if (Bits % 8 == 0) {
      R = Bits > 8 ? B.CreateUnaryIntrinsic(Intrinsic::bswap, X) : X;
      for (unsigned Shift : {4u, 2u, 1u}) {
        // The low bit of each 2*Shift-bit field: 0x0f.., 0x33.., 0x55..
        APInt Mask(Bits, 0);
        for (unsigned I = 0; I < Bits; ++I)
          if ((I / Shift) % 2 == 0)
            Mask.setBit(I);
        Value *Low = B.CreateAnd(R, Splat(Mask));
        Value *High = B.CreateAnd(B.CreateLShr(R, Splat(APInt(Bits, Shift))), Splat(Mask));
        R = B.CreateOr(B.CreateShl(Low, Splat(APInt(Bits, Shift))), High);
      }
    } else {
      R = Constant::getNullValue(Ty);
      for (unsigned I = 0; I < Bits; ++I) {
        Value *Bit = B.CreateAnd(B.CreateLShr(X, Splat(APInt(Bits, I))), Splat(APInt(Bits, 1)));
        R = B.CreateOr(R, B.CreateShl(Bit, Splat(APInt(Bits, Bits - 1 - I))));
      }
    }
    II->replaceAllUsesWith(R);
    II->eraseFromParent();
  }
}

/// LLVM's SPIR-V backend compares pointers with OpPtrEqual and
/// OpPtrNotEqual (SPIR-V 1.4), which IGC refuses ("does not support the
/// following opcode: 401"); comparing their addresses as integers is what
/// OpenCL C compilers emit. Run after the last optimisation, which would
/// fold the conversions back.
void comparePointersAsIntegers(Module &M) {
  const DataLayout &DL = M.getDataLayout();
  for (Function &F : M)
    for (Instruction &I : make_early_inc_range(instructions(F))) {
      auto *Cmp = dyn_cast<ICmpInst>(&I);
      if (!Cmp || !Cmp->getOperand(0)->getType()->isPointerTy())
        continue;
      IRBuilder<> B(Cmp);
      Type *Int = DL.getIntPtrType(Cmp->getOperand(0)->getType());
      Value *L = B.CreatePtrToInt(Cmp->getOperand(0), Int);
      Value *R = B.CreatePtrToInt(Cmp->getOperand(1), Int);
      Value *New = B.CreateICmp(Cmp->getPredicate(), L, R);
      New->takeName(Cmp);
      Cmp->replaceAllUsesWith(New);
      Cmp->eraseFromParent();
    }
}

bool compileSpirv(const Toolchain &TC, const Options &Opts, TempFiles &Temps,
                  StringRef Lowered, StringRef SourceName, StringRef Out,
                  std::map<std::string, std::string> *ImageStrings, bool *PrintfUnsupported) {
  StringRef Stem = sys::path::stem(SourceName);
  std::string Bitcode = Temps.make(Stem, "spirv.bc");
  if (Bitcode.empty())
    return false;
  std::vector<std::string> Args = {"-x",           "hip",         "--offload=spirv64",
                                   "-nogpulib",    "-nogpuinc",   "--cuda-device-only",
                                   "-emit-llvm",   "-c",          "-Xclang",
                                   "-disable-llvm-passes"};
  for (std::string &F : deviceFlags(TC, Opts))
    Args.push_back(std::move(F));
  Args.insert(Args.end(), {Lowered.str(), "-o", Bitcode});
  if (runProgram(TC.Clang, Args, Opts.Verbose, Opts.DryRun) != 0)
    return false;

  std::string Internal = Temps.make(Stem, "spirv.int.bc");
  if (Internal.empty() ||
      !runModuleStep(Opts, "internalize all but kernels", Bitcode, Internal,
                     [&](Module &M) {
                       internalizeAllButKernels(M);
                       // Without it LLVM's SPIR-V backend gives every kernel
                       // the ContractionOff execution mode (no mad on IGC).
                       if (contractionAllowed(Opts))
                         M.getOrInsertNamedMetadata("opencl.enable.FP_CONTRACT");
                       return applyKernelRequirements(M, SourceName) &&
                              lowerGroupLocalAllocations(M, SourceName);
                     }))
    return false;

  // The version comes from the target triple's sub-architecture.
  std::string Triple = "spirv64v" + Opts.SpirvVersion + "-unknown-unknown";
  // clang's pipeline for HIP on spirv64 (its driver turns the vectorisers
  // off there), keeping 32-bit induction variables 32-bit: indvars widens
  // them to the 64-bit index type, which Intel GPUs before Xe-HPC add with
  // addc pairs (the C++ AMP matrix multiply: 151 -> 131 instructions on
  // tgllp), and IGC compiles several kernels SIMD32 as it does their
  // OpenCL C twins instead of SIMD16. Then, HIP's default address space being generic, let
  // group-local and global accesses use their own address spaces again
  // (Intel GPUs access generic pointers more slowly).
  // A kernel's argument object becomes one parameter per field it reads
  // (splitKernelArgumentObjects); pointers read from an object that stays
  // are global (markKernelObjectPointersGlobal), a local accessor's memory is the
  // kernel's Workgroup argument (forwardGroupLocalArgumentSlots): seen once
  // the kernel's body is inlined into it, so between the pipeline and
  // infer-address-spaces.
  // Loop strength reduction, which llc would run, makes pointer induction
  // variables (a 64-bit address per access on Intel GPUs, see
  // offsetsNotPointers) and 64-bit counters that IGC does worse with than
  // with the loops as written (the SYCL matrix multiply: 251 -> 180
  // instructions on tgllp without it). Only kernels that keep arrays in
  // private memory (C for Metal's vectors) gain from it: their scratch
  // addresses step instead of being recomputed (cm n-body 5428 -> 4631). So
  // it runs in opt for those modules, before offsetsNotPointers, and never
  // in llc.
  bool PrivateArrays = false;
  std::string Pipelined = Temps.make(Stem, "spirv.o3.bc");
  std::string Marked = Temps.make(Stem, "spirv.global.bc");
  std::string Optimised = Temps.make(Stem, "spirv.opt.bc");
  if (Pipelined.empty() || Marked.empty() || Optimised.empty() ||
      runProgram(TC.Opt,
                 {"-mtriple=" + Triple,
                  "-passes=default<O" + pipelineLevel(deviceOptLevel(Opts)) + ">",
                  "-vectorize-loops=false", "-vectorize-slp=false", "-indvars-widen-indvars=false",
                  "-discard-value-names", Internal, "-o", Pipelined},
                 Opts.Verbose, Opts.DryRun) != 0 ||
      !runModuleStep(Opts, "address spaces of kernel pointers", Pipelined, Marked,
                     [&](Module &M) {
                       std::map<std::string, std::string> Layouts;
                       if (Opts.SplitKernelArguments)
                         splitKernelArgumentObjects(M, Layouts);
                       if (ImageStrings)
                         for (auto &[Kernel, Layout] : Layouts)
                           (*ImageStrings)["slmc.args." + Kernel] = Layout;
                       markKernelObjectPointersGlobal(M);
                       forwardGroupLocalArgumentSlots(M);
                       PrivateArrays = keepsPrivateArrays(M);
                       return true;
                     }) ||
      runProgram(TC.Opt,
                 {"-mtriple=" + Triple,
                  // As in clang's pipelines: opt's instcombine alone aborts
                  // when one run leaves more to combine (a statement of
                  // sycl::stream did), which only costs a missed fold.
                  std::string("-passes=infer-address-spaces,instcombine<no-verify-fixpoint>") +
                      (PrivateArrays ? ",loop(loop-reduce)" : ""),
                  "-discard-value-names", Marked, "-o", Optimised},
                 Opts.Verbose, Opts.DryRun) != 0)
    return false;
  std::string Legal = Temps.make(Stem, "spirv.legal.bc");
  if (Legal.empty() ||
      !runModuleStep(Opts, "what the SPIR-V backend or IGC lacks, offset selects", Optimised,
                     Legal, [&](Module &M) {
                       lowerBitReverse(M);
                       comparePointersAsIntegers(M);
                       offsetsNotPointers(M);
                       return moveStringsToConstantSpace(M, SourceName, PrintfUnsupported);
                     }))
    return false;
  // No loop strength reduction (see PrivateArrays), and no CodeGenPrepare:
  // it makes llvm.uadd.with.overflow of a decrementing loop's test, which
  // the backend emits as OpIAddCarry and IGC refuses without a word; IGC
  // does what else it would do (C for Metal's n-body: 3521 -> 3374
  // instructions on tgllp, the other benchmarks within 2).
  std::vector<std::string> LlcArgs = {"-mtriple=" + Triple, "-filetype=obj",
                                      codegenLevel(deviceOptLevel(Opts)), "-disable-lsr",
                                      "-disable-cgp", Legal, "-o", Out.str()};
  if (!runBackend(TC.Llc, LlcArgs, Opts.Verbose, Opts.DryRun, "SPIR-V backend", SourceName))
    return false;
  if (Opts.DryRun)
    return true;
  std::vector<uint32_t> Words;
  std::string Message;
  bool Read = readWords(Out, Words);
  // The SPIR-V backend's printf format needs its pointer type (SpirvPrintf.h).
  if (Read && pointPrintfAtChars(Words) && !writeWords(Out, Words))
    return false;
  if (!Read || !validateSpirv(Words, Opts.SpirvVersion, Message)) {
    errs() << "slmc++: error: the SPIR-V generated for '" << SourceName
           << "' does not validate: " << Message << "\n";
    return false;
  }
  return true;
}

/// CUDA's libdevice, whose __nv_* functions the SYCL math built-ins call in
/// PTX: $SLMC_LIBDEVICE, else under $CUDA_PATH / $CUDA_HOME, else the
/// newest /usr/local/cuda*, else Debian's nvidia-cuda-toolkit. Empty when
/// there is none.
static std::string findLibdevice() {
  if (const char *P = getenv("SLMC_LIBDEVICE"))
    return sys::fs::exists(P) ? std::string(P) : std::string();
  std::vector<std::string> Roots;
  for (const char *Var : {"CUDA_PATH", "CUDA_HOME"})
    if (const char *P = getenv(Var))
      Roots.push_back(P);
  std::vector<std::string> Local;
  std::error_code EC;
  for (sys::fs::directory_iterator I("/usr/local", EC), E; I != E && !EC; I.increment(EC))
    if (sys::path::filename(I->path()).starts_with("cuda"))
      Local.push_back(I->path());
  // cuda-12.4 before cuda-13.0 before cuda (a link to one of them): newest first.
  llvm::sort(Local, [](const std::string &A, const std::string &B) { return A > B; });
  Roots.insert(Roots.end(), Local.begin(), Local.end());
  for (const std::string &R : Roots) {
    SmallString<256> F(R);
    sys::path::append(F, "nvvm", "libdevice", "libdevice.10.bc");
    if (sys::fs::exists(F))
      return std::string(F);
  }
  for (const char *F : {"/usr/lib/nvidia-cuda-toolkit/libdevice/libdevice.10.bc",
                        "/usr/lib/cuda/nvvm/libdevice/libdevice.10.bc"})
    if (sys::fs::exists(F))
      return F;
  return {};
}

/// A math function left undefined because libdevice was not linked: an
/// error, or with `Optional` a warning (the PTX image is left out).
static bool reportMissingLibdevice(const Module &M, StringRef SourceName, bool Optional) {
  for (const Function &F : M)
    if (F.isDeclaration() && F.getName().starts_with("__nv_") && !F.use_empty()) {
      errs() << "slmc++: " << (Optional ? "warning" : "error") << ": device code of '"
             << SourceName << "' calls '" << F.getName().drop_front(5)
             << "' (a math built-in), which PTX takes from CUDA's libdevice; "
                "libdevice.10.bc was not found: set CUDA_PATH or SLMC_LIBDEVICE"
             << (Optional ? "; no PTX is built for this file (its kernels run on "
                            "the other devices)"
                          : "")
             << "\n";
      return true;
    }
  return false;
}

bool compilePtx(const Toolchain &TC, const Options &Opts, TempFiles &Temps,
                StringRef Lowered, StringRef SourceName, StringRef Out,
                bool *LibdeviceMissing) {
  StringRef Stem = sys::path::stem(SourceName);
  std::string Bitcode = Temps.make(Stem, "nvptx.bc");
  if (Bitcode.empty())
    return false;
  std::vector<std::string> Args = {"-x",
                                   "cuda",
                                   "--cuda-gpu-arch=" + Opts.CudaArch,
                                   "--cuda-device-only",
                                   "-nocudainc",
                                   "-nocudalib",
                                   "-Wno-unknown-cuda-version",
                                   // 32-bit group-local, constant and local
                                   // addresses, as nvcc has them
                                   "-fcuda-short-ptr",
                                   "-emit-llvm",
                                   "-c",
                                   "-Xclang",
                                   "-disable-llvm-passes"};
  for (std::string &F : deviceFlags(TC, Opts))
    Args.push_back(std::move(F));
  // Only the functions the module calls are linked (and made internal).
  std::string Libdevice = findLibdevice();
  if (!Libdevice.empty())
    Args.insert(Args.end(), {"-Xclang", "-mlink-builtin-bitcode", "-Xclang", Libdevice,
                             "-DSLMC_HAVE_LIBDEVICE=1"});
  Args.insert(Args.end(), {Lowered.str(), "-o", Bitcode});
  if (runProgram(TC.Clang, Args, Opts.Verbose, Opts.DryRun) != 0)
    return false;

  // opt and llc take the processor and the PTX version clang chose for
  // the module (its functions' "target-cpu" and "target-features").
  std::string Cpu = Opts.CudaArch, Features = "<the module's target-features>";
  std::string Internal = Temps.make(Stem, "nvptx.int.bc");
  if (Internal.empty() ||
      !runModuleStep(Opts, "internalize all but kernels", Bitcode, Internal, [&](Module &M) {
        if (reportMissingLibdevice(M, SourceName, LibdeviceMissing)) {
          if (LibdeviceMissing)
            *LibdeviceMissing = true;
          return false;
        }
        internalizeAllButKernels(M);
        copyByValueArguments(M);
        Features.clear();
        for (const Function &F : M)
          if (F.hasFnAttribute("target-cpu")) {
            Cpu = F.getFnAttribute("target-cpu").getValueAsString().str();
            Features = F.getFnAttribute("target-features").getValueAsString().str();
            break;
          }
        return lowerGroupLocalAllocations(M, SourceName);
      }))
    return false;
  std::vector<std::string> Target = {"-mtriple=nvptx64-nvidia-cuda", "-mcpu=" + Cpu,
                                     "-nvptx-short-ptr"};
  if (!Features.empty())
    Target.push_back("-mattr=" + Features);

  std::string Level = pipelineLevel(deviceOptLevel(Opts));
  std::vector<std::string> OptArgs = Target;
  // After the pipeline, group-local accesses get their address space back
  // and their alignment from it (infer-alignment): the loads and stores
  // were generic while O3 ran, and the alignment of a generic pointer to a
  // group-local array is not known. llc's load/store vectorizer widens
  // only accesses whose alignment says so, so without this every
  // group-local access of a register-tiled kernel stayed a 32-bit
  // ld.shared where nvcc emits ld.shared.v4.
  OptArgs.insert(OptArgs.end(), {"-passes=default<O" + Level +
                                     ">,infer-address-spaces,infer-alignment",
                                 // as clang's driver sets for CUDA device code
                                 "-enable-memcpyopt-without-libcalls",
                                 "-discard-value-names",
                                 // Code common to the cases of a switch made
                                 // from ifs stays in the cases, so that the
                                 // switch can be split again (splitSmallSwitches)
                                 "-simplifycfg-sink-common=false"});
  if (Level == "2" || Level == "3") {
    // Unrolling as nvcc's NVVM does it, where ptxas does not make up for
    // LLVM's NVPTX defaults. A loop with a run-time trip count, such as a
    // grid-stride loop, is unrolled 4 times (LLVM leaves it alone: it
    // counts computing the trip count of `i += stride` as too expensive);
    // a loop with a constant one by up to 4 within a threshold of 300
    // (LLVM on other targets; 75 on NVPTX). With few threads, the loads
    // each thread has in flight set the bandwidth.
    // A loop with a constant trip count is unrolled completely within a
    // size of 1000 (LLVM: 300): a register-tiled inner product (16 steps of
    // a 4x4 tile of fma) then indexes its group-local tiles with constants,
    // and its loads become ld.shared.v4, as nvcc makes of the same loop.
    OptArgs.insert(OptArgs.end(), {"-unroll-partial-threshold=300", "-unroll-max-count=4",
                                   "-unroll-threshold=1000",
                                   "-scev-cheap-expansion-budget=16"});
  }
  std::string Optimised = Temps.make(Stem, "nvptx.opt.bc");
  std::string Final = Temps.make(Stem, "nvptx.final.bc");
  if (Optimised.empty() || Final.empty())
    return false;
  OptArgs.insert(OptArgs.end(), {Internal, "-o", Optimised});
  if (runProgram(TC.Opt, OptArgs, Opts.Verbose, Opts.DryRun) != 0 ||
      !runModuleStep(Opts, "split small switches", Optimised, Final, [](Module &M) {
        splitSmallSwitches(M);
        lowerPrivateAtomics(M, /*NVPTX local=*/5);
        return true;
      }))
    return false;

  // Written to a file first (also for `-o -`) to be fixed up for the driver.
  std::string File = Out == "-" ? Temps.make("slmc-ptx", "ptx") : Out.str();
  if (File.empty())
    return false;
  std::vector<std::string> LlcArgs = Target;
  // CUDA's default -ffp-contract=fast: a * b + c may become one fma.
  LlcArgs.insert(LlcArgs.end(), {codegenLevel(deviceOptLevel(Opts)),
                                 contractionAllowed(Opts) ? "-fp-contract=fast"
                                                          : "-fp-contract=off",
                                 Final, "-o", File});
  if (!runBackend(TC.Llc, LlcArgs, Opts.Verbose, Opts.DryRun, "NVPTX backend", SourceName))
    return false;
  if (Opts.DryRun)
    return true;
  if (!fixPtxForDriver(File))
    return false;
  if (Out == "-") {
    auto Buf = MemoryBuffer::getFile(File);
    if (!Buf)
      return false;
    outs() << (*Buf)->getBuffer();
  }
  return true;
}

bool fixPtxForDriver(StringRef Path) {
  // The dynamic group memory parameter of slmc::kernel_entry_dynamic is a
  // pointer to address space 3 in every pass (so the kernel's mangled name
  // agrees), which NVPTX spells `.ptr .shared`; the CUDA driver rejects such
  // entry parameters although ptxas accepts them. The parameter is unused in
  // PTX (the memory is the kernel's extern .shared array): make it plain.
  auto Buf = MemoryBuffer::getFile(Path);
  if (!Buf) {
    errs() << "slmc++: error: cannot read '" << Path << "'\n";
    return false;
  }
  static const Regex SharedParam(" \\.ptr \\.shared( \\.align [0-9]+)?");
  std::string Text = std::string((*Buf)->getBuffer()), Fixed;
  StringRef Rest = Text;
  bool Changed = false;
  while (!Rest.empty()) {
    auto [Line, Tail] = Rest.split('\n');
    std::string L = Line.str();
    if (Line.contains(".param") && SharedParam.match(Line)) {
      L = SharedParam.sub("", Line);
      Changed = true;
    }
    Fixed += L;
    if (Rest.size() > Line.size()) // a newline followed
      Fixed += '\n';
    Rest = Tail;
  }
  if (!Changed)
    return true;
  std::error_code EC;
  raw_fd_ostream OS(Path, EC, sys::fs::OF_Text);
  if (EC) {
    errs() << "slmc++: error: cannot write '" << Path << "': " << EC.message() << "\n";
    return false;
  }
  OS << Fixed;
  return true;
}

bool validateSpirv(ArrayRef<uint32_t> Words, StringRef Version,
                   std::string &Message) {
  spv_target_env Env = StringSwitch<spv_target_env>(Version)
                           .Case("1.0", SPV_ENV_UNIVERSAL_1_0)
                           .Case("1.1", SPV_ENV_UNIVERSAL_1_1)
                           .Case("1.2", SPV_ENV_UNIVERSAL_1_2)
                           .Case("1.3", SPV_ENV_UNIVERSAL_1_3)
                           .Default(SPV_ENV_UNIVERSAL_1_4);
  spv_context Ctx = spvContextCreate(Env);
  spv_diagnostic Diag = nullptr;
  spv_const_binary_t Bin = {Words.data(), Words.size()};
  spv_result_t R = spvValidate(Ctx, &Bin, &Diag);
  if (R != SPV_SUCCESS)
    Message = Diag && Diag->error ? Diag->error : "unknown validation error";
  if (R == SPV_SUCCESS && Words.size() > 1) {
    // The module must not claim a newer version than asked for.
    unsigned Major = (Words[1] >> 16) & 0xff, Minor = (Words[1] >> 8) & 0xff;
    std::string Got = std::to_string(Major) + "." + std::to_string(Minor);
    if (Got > Version.str()) {
      Message = "module has version " + Got + ", asked for " + Version.str();
      R = SPV_ERROR_INVALID_BINARY;
    }
  }
  spvDiagnosticDestroy(Diag);
  spvContextDestroy(Ctx);
  return R == SPV_SUCCESS;
}

bool packageImages(const std::vector<DeviceImageFile> &Images, StringRef Out,
                   const std::vector<std::string> &Kernels) {
  std::string KernelList = llvm::join(Kernels, ";");
  SmallString<0> Package;
  for (const DeviceImageFile &I : Images) {
    auto Buf = MemoryBuffer::getFile(I.Path);
    if (!Buf) {
      errs() << "slmc++: error: cannot read '" << I.Path << "'\n";
      return false;
    }
    object::OffloadBinary::OffloadingImage Image;
    MapVector<StringRef, StringRef> Strings;
    if (I.TheKind == DeviceImageFile::Spirv) {
      Image.TheImageKind = object::IMG_SPIRV;
      Image.TheOffloadKind = object::OFK_HIP;
      Image.StringData["triple"] = "spirv64-unknown-unknown";
    } else if (I.TheKind == DeviceImageFile::Ptx) {
      Image.TheImageKind = object::IMG_PTX;
      Image.TheOffloadKind = object::OFK_Cuda;
      Image.StringData["triple"] = "nvptx64-nvidia-cuda";
    } else {
      Image.TheImageKind = object::IMG_Object;
      Image.TheOffloadKind = object::OFK_None;
      Image.StringData["triple"] = "x86_64-unknown-linux-gnu";
    }
    if (!Kernels.empty())
      Image.StringData["slmc.kernels"] = KernelList;
    Image.StringData["arch"] = I.Arch;
    for (const auto &[Key, Value] : I.Strings)
      Image.StringData[Key] = Value;
    Image.StringData["producer"] = "slmc";
    Image.Image = std::move(*Buf);
    // The runtime checks it before anything reads the image further, hands
    // it to a driver or, for host objects, to the dynamic loader (which
    // trusts what it maps). Written last: it covers every other string.
    std::string Checksum = imageChecksum(Image);
    Image.StringData[kImageChecksumKey] = Checksum;
    SmallString<0> Bin = object::OffloadBinary::write(Image);
    Package.append(Bin.begin(), Bin.end());
    while (Package.size() % object::OffloadBinary::getAlignment())
      Package.push_back('\0');
  }
  Package.append(8, '\0'); // the terminator the runtime scans for
  std::error_code EC;
  raw_fd_ostream OS(Out, EC, sys::fs::OF_None);
  if (EC) {
    errs() << "slmc++: error: cannot write '" << Out << "': " << EC.message() << "\n";
    return false;
  }
  OS << Package;
  return true;
}

} // namespace slmc::driver
