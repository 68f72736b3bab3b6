//===- SpirvPrintf.cpp - printf in SPIR-V device code ---------------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "Driver/SpirvPrintf.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#include <spirv/unified1/OpenCL.std.h>
#include <spirv/unified1/spirv.hpp>

#include <map>

using namespace llvm;

namespace slmc::driver {

namespace {

/// OpenCL's constant address space in clang's SPIR-V targets.
constexpr unsigned kConstantAS = 2;

/// The constant C string `P` points into (through address-space casts and
/// constant offsets) and the offset, or null.
GlobalVariable *constantString(Value *P, const DataLayout &DL,
                               int64_t &Offset) {
  Offset = 0;
  while (true) {
    if (auto *Cast = dyn_cast<AddrSpaceCastOperator>(P)) {
      P = Cast->getPointerOperand();
    } else if (auto *Cast = dyn_cast<BitCastOperator>(P)) {
      P = Cast->getOperand(0);
    } else if (auto *GEP = dyn_cast<GEPOperator>(P)) {
      APInt Off(DL.getIndexTypeSizeInBits(GEP->getType()), 0);
      if (!GEP->accumulateConstantOffset(DL, Off))
        return nullptr;
      Offset += Off.getSExtValue();
      P = GEP->getPointerOperand();
    } else {
      break;
    }
  }
  auto *GV = dyn_cast<GlobalVariable>(P);
  if (!GV || !GV->isConstant() || !GV->hasDefinitiveInitializer())
    return nullptr;
  auto *Data = dyn_cast<ConstantDataSequential>(GV->getInitializer());
  if (!Data || !Data->getElementType()->isIntegerTy(8) || !Data->isCString() ||
      Offset < 0 || uint64_t(Offset) >= Data->getNumElements())
    return nullptr;
  return GV;
}

/// The float that C's promotion of a variadic argument made `V` from: an
/// extension, or a double constant a float holds exactly. OpenCL C passes
/// such arguments as float where the device has no doubles (IGC refuses a
/// double there: tgllp, dg2), and every printf implementation takes both.
Value *floatPromotedToDouble(Value *V) {
  if (!V->getType()->isDoubleTy())
    return nullptr;
  if (auto *Ext = dyn_cast<FPExtInst>(V))
    return Ext->getOperand(0)->getType()->isFloatTy() ? Ext->getOperand(0)
                                                      : nullptr;
  if (auto *C = dyn_cast<ConstantFP>(V)) {
    APFloat F = C->getValueAPF();
    bool LosesInfo = false;
    F.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven, &LosesInfo);
    if (!LosesInfo)
      return ConstantFP::get(Type::getFloatTy(V->getContext()), F);
  }
  return nullptr;
}

/// `printf(c ? "a" : "b", ...)` becomes `c ? printf("a", ...) : printf("b",
/// ...)`: each call then has one constant format.
void splitSelectedFormats(Function &Printf) {
  SmallVector<CallInst *, 8> Work;
  for (User *U : Printf.users())
    if (auto *Call = dyn_cast<CallInst>(U);
        Call && Call->getCalledOperand() == &Printf)
      Work.push_back(Call);
  while (!Work.empty()) {
    CallInst *Call = Work.pop_back_val();
    Value *Format = Call->getArgOperand(0)->stripPointerCasts();
    Value *Cond, *IfTrue, *IfFalse;
    if (auto *Select = dyn_cast<SelectInst>(Format)) {
      Cond = Select->getCondition(), IfTrue = Select->getTrueValue();
      IfFalse = Select->getFalseValue();
    } else if (auto *Expr = dyn_cast<ConstantExpr>(Format);
               Expr && Expr->getOpcode() == Instruction::Select) {
      Cond = Expr->getOperand(0), IfTrue = Expr->getOperand(1),
      IfFalse = Expr->getOperand(2);
    } else {
      continue;
    }
    Type *FormatType = Call->getArgOperand(0)->getType();
    auto asFormat = [&](Value *V, Instruction *Before) -> Value * {
      return V->getType() == FormatType
                 ? V
                 : CastInst::CreatePointerBitCastOrAddrSpaceCast(
                       V, FormatType, "", Before->getIterator());
    };
    Instruction *ThenTerm, *ElseTerm;
    SplitBlockAndInsertIfThenElse(Cond, Call->getIterator(), &ThenTerm,
                                  &ElseTerm);
    auto *OnTrue = cast<CallInst>(Call->clone());
    auto *OnFalse = cast<CallInst>(Call->clone());
    OnTrue->insertBefore(ThenTerm->getIterator());
    OnFalse->insertBefore(ElseTerm->getIterator());
    OnTrue->setArgOperand(0, asFormat(IfTrue, OnTrue));
    OnFalse->setArgOperand(0, asFormat(IfFalse, OnFalse));
    if (!Call->use_empty()) {
      PHINode *Result =
          PHINode::Create(Call->getType(), 2, "", Call->getIterator());
      Result->addIncoming(OnTrue, OnTrue->getParent());
      Result->addIncoming(OnFalse, OnFalse->getParent());
      Call->replaceAllUsesWith(Result);
    }
    Call->eraseFromParent();
    Work.push_back(OnTrue);
    Work.push_back(OnFalse);
  }
}

} // namespace

bool moveStringsToConstantSpace(Module &M, StringRef SourceName,
                                bool *FormatNotConstant) {
  Function *Printf = M.getFunction("printf");
  if (!Printf || Printf->use_empty() || !Printf->isVarArg() ||
      Printf->arg_size() != 1 || !Printf->getArg(0)->getType()->isPointerTy())
    return true;
  if (Printf->getArg(0)->getType()->getPointerAddressSpace() == kConstantAS)
    return true; // already OpenCL's form
  splitSelectedFormats(*Printf);
  LLVMContext &Ctx = M.getContext();
  const DataLayout &DL = M.getDataLayout();
  FunctionType *PrintfType = FunctionType::get(
      Type::getInt32Ty(Ctx), {PointerType::get(Ctx, kConstantAS)},
      /*isVarArg=*/true);
  Printf->setName("printf.generic");
  Function *ConstantPrintf =
      Function::Create(PrintfType, GlobalValue::ExternalLinkage, "printf", M);
  ConstantPrintf->setCallingConv(Printf->getCallingConv());

  std::map<GlobalVariable *, GlobalVariable *> Copies;
  auto inConstantSpace = [&](GlobalVariable *GV, int64_t Offset) -> Constant * {
    GlobalVariable *&Copy = Copies[GV];
    if (!Copy) {
      Copy =
          new GlobalVariable(M, GV->getValueType(), /*isConstant=*/true,
                             GlobalValue::PrivateLinkage, GV->getInitializer(),
                             GV->getName() + ".constant", nullptr,
                             GlobalValue::NotThreadLocal, kConstantAS);
      Copy->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
      Copy->setAlignment(GV->getAlign());
    }
    if (Offset == 0)
      return Copy;
    return ConstantExpr::getInBoundsGetElementPtr(
        Type::getInt8Ty(Ctx), Copy,
        ConstantInt::get(Type::getInt64Ty(Ctx), Offset));
  };

  bool Ok = true;
  for (User *U : make_early_inc_range(Printf->users())) {
    auto *Call = dyn_cast<CallInst>(U);
    if (!Call || Call->getCalledOperand() != Printf) {
      errs() << "slmc++: error: '" << SourceName
             << "': device code takes the address of printf, which SPIR-V "
                "cannot call "
                "through a pointer\n";
      Ok = false;
      continue;
    }
    SmallVector<Value *, 8> Args;
    for (unsigned I = 0, E = Call->arg_size(); I != E; ++I) {
      Value *Arg = Call->getArgOperand(I);
      int64_t Offset;
      GlobalVariable *GV = Arg->getType()->isPointerTy()
                               ? constantString(Arg, DL, Offset)
                               : nullptr;
      if (GV) {
        Args.push_back(inConstantSpace(GV, Offset));
      } else if (I == 0) {
        if (Ok)
          errs() << "slmc++: " << (FormatNotConstant ? "warning" : "error")
                 << ": '" << SourceName << "': a printf in '"
                 << demangle(Call->getFunction()->getName())
                 << "' has a format that is not a string literal; SPIR-V's "
                    "printf (OpenCL C's) "
                    "takes only constant strings"
                 << (FormatNotConstant
                         ? ", so this file has no SPIR-V image (Level Zero "
                           "devices run its kernels on the CPU fallback)"
                         : "")
                 << "\n";
        Ok = false;
        Args.push_back(PoisonValue::get(PointerType::get(Ctx, kConstantAS)));
      } else if (Value *Narrow = I ? floatPromotedToDouble(Arg) : nullptr) {
        Args.push_back(Narrow);
      } else {
        Args.push_back(Arg); // a %p, or a %s that IGC prints as it can
      }
    }
    CallInst *New = CallInst::Create(PrintfType, ConstantPrintf, Args, "",
                                     Call->getIterator());
    New->setCallingConv(Call->getCallingConv());
    New->setDebugLoc(Call->getDebugLoc());
    New->takeName(Call);
    Call->replaceAllUsesWith(New);
    Call->eraseFromParent();
  }
  if (Printf->use_empty())
    Printf->eraseFromParent();
  for (auto &[Original, Copy] : Copies)
    if (Original->use_empty() && Original->hasLocalLinkage())
      Original->eraseFromParent();
  if (!Ok && FormatNotConstant)
    *FormatNotConstant = true;
  return Ok;
}

//===----------------------------------------------------------------------===//
// The SPIR-V binary
//===----------------------------------------------------------------------===//

namespace {

/// The SPIR-V header's opcodes, storage classes and OpenCL.std numbers.
constexpr uint32_t kOpExtInstImport = spv::OpExtInstImport, kOpExtInst = spv::OpExtInst,
                   kOpTypeInt = spv::OpTypeInt, kOpTypeArray = spv::OpTypeArray,
                   kOpTypePointer = spv::OpTypePointer, kOpConstant = spv::OpConstant,
                   kOpFunction = spv::OpFunction, kOpVariable = spv::OpVariable,
                   kOpInBoundsPtrAccessChain = spv::OpInBoundsPtrAccessChain,
                   kUniformConstant = spv::StorageClassUniformConstant,
                   kOpenClPrintf = OpenCLLIB::Printf;
/// Words of the module header before the first instruction.
constexpr size_t kHeaderWords = 5;

struct Instruction {
  size_t At;      // first word
  uint32_t Count; // words, the first included
  uint32_t opcode(const std::vector<uint32_t> &W) const {
    return W[At] & 0xffff;
  }
};

} // namespace

unsigned pointPrintfAtChars(std::vector<uint32_t> &Words) {
  if (Words.size() < kHeaderWords)
    return 0;
  std::vector<Instruction> List;
  for (size_t At = kHeaderWords; At < Words.size();) {
    uint32_t Count = Words[At] >> 16;
    if (Count == 0 || At + Count > Words.size())
      return 0; // malformed: left to the validator
    List.push_back({At, Count});
    At += Count;
  }

  // What the rewrite needs to know of the module.
  uint32_t OpenClSet = 0, Int32 = 0, Zero32 = 0;
  size_t Int32At = 0, FirstFunction = List.size();
  DenseMap<uint32_t, size_t> Defs; // id -> instruction, for types and variables
  std::map<uint32_t, uint32_t>
      CharPointers; // i8 type -> UniformConstant pointer to it
  for (size_t I = 0; I < List.size(); ++I) {
    const uint32_t *In = &Words[List[I].At];
    switch (List[I].opcode(Words)) {
    case kOpExtInstImport: {
      StringRef Name(reinterpret_cast<const char *>(In + 2),
                     (List[I].Count - 2) * 4);
      if (Name.starts_with(StringRef("OpenCL.std\0", 11)))
        OpenClSet = In[1];
      break;
    }
    case kOpTypeInt:
      Defs[In[1]] = I;
      if (In[2] == 32 && In[3] == 0 && !Int32) {
        Int32 = In[1];
        Int32At = I;
      }
      break;
    case kOpTypeArray:
    case kOpVariable:
      Defs[List[I].opcode(Words) == kOpVariable ? In[2] : In[1]] = I;
      break;
    case kOpTypePointer:
      Defs[In[1]] = I;
      if (In[2] == kUniformConstant)
        CharPointers.emplace(In[3], In[1]);
      break;
    case kOpConstant:
      if (In[1] == Int32 && List[I].Count == 4 && In[3] == 0 && !Zero32)
        Zero32 = In[2];
      break;
    case kOpFunction:
      FirstFunction = std::min(FirstFunction, I);
      break;
    }
  }
  if (!OpenClSet)
    return 0;

  // The 8-bit element type of a UniformConstant array variable, or 0.
  auto charArrayElement = [&](uint32_t Id) -> uint32_t {
    auto Var = Defs.find(Id);
    if (Var == Defs.end() || List[Var->second].opcode(Words) != kOpVariable)
      return 0;
    const uint32_t *V = &Words[List[Var->second].At];
    auto Ptr = Defs.find(V[1]);
    if (V[3] != kUniformConstant || Ptr == Defs.end() ||
        List[Ptr->second].opcode(Words) != kOpTypePointer)
      return 0;
    auto Array = Defs.find(Words[List[Ptr->second].At + 3]);
    if (Array == Defs.end() || List[Array->second].opcode(Words) != kOpTypeArray)
      return 0;
    auto Elem = Defs.find(Words[List[Array->second].At + 2]);
    if (Elem == Defs.end() || List[Elem->second].opcode(Words) != kOpTypeInt ||
        Words[List[Elem->second].At + 2] != 8)
      return 0;
    return Words[List[Elem->second].At + 1];
  };

  // New words to put before instruction I (a map keeps them in order).
  std::map<size_t, std::vector<uint32_t>> Before;
  uint32_t &Bound = Words[3];
  auto emit = [](std::vector<uint32_t> &To, uint32_t Op,
                 std::initializer_list<uint32_t> Ops) {
    To.push_back(uint32_t(Ops.size() + 1) << 16 | Op);
    To.insert(To.end(), Ops);
  };
  unsigned Rewritten = 0;
  for (size_t I = FirstFunction; I < List.size(); ++I) {
    uint32_t *In = &Words[List[I].At];
    if (List[I].opcode(Words) != kOpExtInst || List[I].Count < 6 ||
        In[3] != OpenClSet || In[4] != kOpenClPrintf)
      continue;
    for (uint32_t K = 5; K < List[I].Count; ++K) {
      uint32_t Char = charArrayElement(In[K]);
      if (!Char)
        continue;
      uint32_t &Pointer = CharPointers[Char];
      if (!Pointer) {
        // Declared right after the 8-bit type, which it names.
        Pointer = Bound++;
        emit(Before[Defs[Char] + 1], kOpTypePointer,
             {Pointer, kUniformConstant, Char});
      }
      if (!Zero32) {
        if (!Int32)
          return Rewritten; // printf returns a 32-bit int: not reached
        Zero32 = Bound++;
        emit(Before[Int32At + 1], kOpConstant, {Int32, Zero32, 0});
      }
      uint32_t First = Bound++;
      emit(Before[I], kOpInBoundsPtrAccessChain,
           {Pointer, First, In[K], Zero32, Zero32});
      In[K] = First;
      ++Rewritten;
    }
  }
  if (!Rewritten)
    return 0;
  std::vector<uint32_t> Out(Words.begin(), Words.begin() + kHeaderWords);
  for (size_t I = 0; I < List.size(); ++I) {
    auto Extra = Before.find(I);
    if (Extra != Before.end())
      Out.insert(Out.end(), Extra->second.begin(), Extra->second.end());
    Out.insert(Out.end(), Words.begin() + List[I].At,
               Words.begin() + List[I].At + List[I].Count);
  }
  Words = std::move(Out);
  return Rewritten;
}

} // namespace slmc::driver
