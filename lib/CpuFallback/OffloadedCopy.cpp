//===- OffloadedCopy.cpp - the CPU fallback from the offload compilation --===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A pass plugin (clang -fpass-plugin=slmcOffloadedCopy.so) for sources whose
// meaning depends on ICC's `__GFX__` macro. ICC compiled such a file twice:
// the host compilation without `__GFX__`, the offload (target) compilation
// with it. slmc++ does the same: the host pass compiles the host code (and
// the host version of each nest) without the macro, and a separate
// compilation of the same lowered source with the macro (-emit-llvm, no
// optimisation) gives the kernels' CPU fallback entries, which are offloaded
// code run on the host.
//
// This pass links that module (-slmc-offloaded-copy=<file.bc>) into the host
// module at the start of the pipeline:
//  * the CPU entries (slmc::cpu_entry<F>, cpu_group_entry<F> and their
//    _dynamic forms) of the host module are replaced by the offload
//    module's, matched by mangled name as device images are matched to the
//    host's kernel handles;
//  * every other function of the offload module becomes a private copy (a
//    function under `#ifdef __GFX__` keeps its offloaded meaning inside
//    kernels and its host meaning in host code);
//  * a global variable both modules define is the host's one object, as it
//    is when one module holds both; one only the offload module defines is
//    its own;
//  * the offload module's static constructors are dropped: its kernel
//    registrations are the host's, and, as on a GPU, offloaded code sees
//    global data only as constant-initialised or set by host code.
//
//===----------------------------------------------------------------------===//
#include "llvm/ADT/StringRef.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Plugins/PassPlugin.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"

#include <map>
#include <string>
#include <vector>

using namespace llvm;

static cl::opt<std::string>
    OffloadedCopyFile("slmc-offloaded-copy",
                      cl::desc("Bitcode of the offload compilation whose CPU "
                               "kernel entries replace the host module's"),
                      cl::value_desc("file"));

namespace {

constexpr const char *Suffix = ".slmc.offloaded";

/// The runtime's CPU entries (slmc/offload.h), by mangled-name prefix.
bool isCpuEntry(StringRef Name) {
  for (StringRef Prefix : {"_ZN4slmc9cpu_entryI", "_ZN4slmc15cpu_group_entryI",
                           "_ZN4slmc17cpu_entry_dynamicI",
                           "_ZN4slmc23cpu_group_entry_dynamicI"})
    if (Name.starts_with(Prefix))
      return true;
  return false;
}

class OffloadedCopyPass : public PassInfoMixin<OffloadedCopyPass> {
public:
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    if (OffloadedCopyFile.empty())
      return PreservedAnalyses::all();
    LLVMContext &Ctx = M.getContext();
    auto Buffer = MemoryBuffer::getFile(OffloadedCopyFile);
    if (!Buffer) {
      Ctx.emitError("slmc: cannot read the offload compilation '" +
                    OffloadedCopyFile + "': " + Buffer.getError().message());
      return PreservedAnalyses::all();
    }
    Expected<std::unique_ptr<Module>> Parsed = parseBitcodeFile(**Buffer, Ctx);
    if (!Parsed) {
      Ctx.emitError("slmc: the offload compilation '" + OffloadedCopyFile +
                    "' is not LLVM bitcode: " + toString(Parsed.takeError()));
      return PreservedAnalyses::all();
    }
    std::unique_ptr<Module> Copy = std::move(*Parsed);

    std::vector<std::string> Entries;
    for (Function &F : M)
      if (!F.isDeclaration() && isCpuEntry(F.getName()))
        Entries.push_back(F.getName().str());
    for (const std::string &Name : Entries) {
      Function *Offloaded = Copy->getFunction(Name);
      if (!Offloaded || Offloaded->isDeclaration()) {
        Ctx.emitError("slmc: kernel '" + demangle(Name) +
                      "' has no CPU version in the compilation with __GFX__ "
                      "defined; code under '#ifdef __GFX__' must not change "
                      "which kernels a function launches");
        return PreservedAnalyses::all();
      }
    }

    prepare(*Copy, M);
    if (Linker::linkModules(M, std::move(Copy))) {
      Ctx.emitError("slmc: cannot link the compilation with __GFX__ defined "
                    "into the host module");
      return PreservedAnalyses::all();
    }

    // The shared globals: the host's object.
    for (auto &[Name, Host] : SharedGlobals) {
      GlobalVariable *Mine = M.getNamedGlobal(Name + Suffix);
      if (!Mine)
        continue;
      Mine->replaceAllUsesWith(Host);
      Mine->eraseFromParent();
    }
    // The entries: the offloaded version, under the host's name.
    for (const std::string &Name : Entries) {
      Function *Host = M.getFunction(Name);
      Function *Offloaded = M.getFunction(Name + Suffix);
      if (!Host || !Offloaded)
        continue;
      Offloaded->setLinkage(Host->getLinkage());
      Offloaded->setVisibility(Host->getVisibility());
      Offloaded->setComdat(Host->getComdat());
      Host->replaceAllUsesWith(Offloaded);
      Host->eraseFromParent();
      Offloaded->setName(Name);
    }
    removeDeadCopies(M);
    return PreservedAnalyses::none();
  }

  static bool isRequired() { return true; }

private:
  /// Gives every definition of the offload module a private name, keeps
  /// the globals the host defines too for replacement, drops what only
  /// the offload module's startup used.
  void prepare(Module &Copy, Module &Host) {
    for (StringRef Name : {"llvm.global_ctors", "llvm.global_dtors", "llvm.used",
                           "llvm.compiler.used"})
      if (GlobalVariable *G = Copy.getNamedGlobal(Name))
        G->eraseFromParent();
    for (GlobalVariable &G : Copy.globals()) {
      if (G.isDeclaration())
        continue;
      if (GlobalVariable *H = Host.getNamedGlobal(G.getName()))
        if (!H->isDeclaration() && H->getValueType() == G.getValueType() &&
            !G.hasPrivateLinkage())
          SharedGlobals[G.getName().str()] = H;
    }
    auto Privatise = [&](GlobalValue &GV) {
      if (GV.isDeclaration() || GV.getName().empty())
        return;
      // The entries stay external until linked: the linker brings in a
      // local definition only when something already linked uses it.
      bool Entry = isa<Function>(GV) && isCpuEntry(GV.getName());
      GV.setName(GV.getName() + Suffix);
      GV.setLinkage(Entry ? GlobalValue::ExternalLinkage : GlobalValue::InternalLinkage);
      GV.setVisibility(GlobalValue::DefaultVisibility);
      if (auto *GO = dyn_cast<GlobalObject>(&GV))
        GO->setComdat(nullptr);
      Copied.push_back(GV.getName().str());
    };
    for (Function &F : Copy)
      Privatise(F);
    for (GlobalVariable &G : Copy.globals())
      Privatise(G);
    for (GlobalAlias &A : Copy.aliases())
      Privatise(A);
    for (GlobalIFunc &I : Copy.ifuncs())
      Privatise(I);
    Copy.getComdatSymbolTable().clear();
  }

  /// The offload module's own registration data and whatever else nothing
  /// in the host module reaches.
  void removeDeadCopies(Module &M) {
    for (bool Changed = true; Changed;) {
      Changed = false;
      for (const std::string &Name : Copied) {
        GlobalValue *GV = M.getNamedValue(Name);
        if (!GV || !GV->hasLocalLinkage())
          continue;
        GV->removeDeadConstantUsers();
        if (!GV->use_empty())
          continue;
        GV->eraseFromParent();
        Changed = true;
      }
    }
  }

  std::map<std::string, GlobalVariable *> SharedGlobals;
  std::vector<std::string> Copied;
};

} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "slmc-offloaded-copy", "1", [](PassBuilder &PB) {
            PB.registerPipelineStartEPCallback(
                [](ModulePassManager &MPM, OptimizationLevel) {
                  MPM.addPass(OffloadedCopyPass());
                });
          }};
}
