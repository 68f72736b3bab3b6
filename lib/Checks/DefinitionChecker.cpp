//===- DefinitionChecker.cpp - Device calls need a definition in the TU ---===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// slmc++ builds each translation unit's device code on its own and never
// links device modules, so every function kernel code calls must be defined
// in the translation unit. A SYCL_EXTERNAL function defined in another file
// (DPC++ links device code across files) would otherwise reach LLVM's
// SPIR-V backend as an unknown function. C++ AMP and ICC's graphics offload
// had the same rule; C for Metal compiles a kernel file whole.
//
// The host's copy of the kernels (the CPU fallback) is linked as ordinary
// code, so the rule holds only when device code is built.
//
//===----------------------------------------------------------------------===//
#include "Checks/Checker.h"

#include "clang/AST/DeclCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace slmc {
namespace {

/// Names reserved to the implementation (`__x`, `_X`): the device headers'
/// built-ins (`__spirv_*`, `__nv_*`, ...), which the backends provide.
bool isReservedName(const FunctionDecl *FD) {
  const IdentifierInfo *II = FD->getIdentifier();
  if (!II)
    return false;
  llvm::StringRef N = II->getName();
  return N.starts_with("__") ||
         (N.size() > 1 && N[0] == '_' && N[1] >= 'A' && N[1] <= 'Z');
}

class DefinitionChecker : public Checker {
public:
  explicit DefinitionChecker(const CheckOptions &Opts) : Opts(Opts) {}

  void check(ASTContext &Ctx, const ProgramModel &Model, Reporter &R) override {
    if (!Opts.DeviceCode)
      return;
    const SourceManager &SM = Ctx.getSourceManager();
    llvm::DenseSet<const FunctionDecl *> Reported;
    for (const Kernel &K : Model.Kernels) {
      std::vector<const FunctionDecl *> Roots;
      if (K.Region) {
        // A loop-nest kernel is the nest, not the host function around it.
        const llvm::DenseMap<const FunctionDecl *, CallEdge> NoReach;
        for (const CallEdge &E : directCalls(K.Region, /*IntoLambdas=*/true)) {
          checkCall(SM, Model, K, E, NoReach, Reported, R);
          Roots.push_back(E.Callee);
        }
      } else {
        Roots.push_back(K.Body);
        Roots.insert(Roots.end(), K.OtherInstances.begin(), K.OtherInstances.end());
      }
      for (const FunctionDecl *Root : Roots) {
        auto Reach = Model.reachableFrom(Root);
        for (const auto &[Fn, Edge] : Reach) {
          auto It = Model.Calls.find(Fn);
          if (It == Model.Calls.end())
            continue;
          for (const CallEdge &E : It->second)
            checkCall(SM, Model, K, E, Reach, Reported, R);
        }
      }
    }
  }

private:
  /// Whether a call to `FD` needs its definition in the device module.
  bool needsDefinition(const SourceManager &SM, const ProgramModel &Model,
                       const Kernel &K, const FunctionDecl *FD) const {
    if (FD->isDefined() || FD->getBuiltinID() || FD->isDeleted() ||
        FD->isDefaulted() || FD->isTrivial() || FD->isImplicit() ||
        FD->isPureVirtual() || isReservedName(FD))
      return false;
    // Library functions: the device headers provide what kernels may call,
    // and other checks name the ones they may not.
    for (const FunctionDecl *D : FD->redecls())
      if (SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation())))
        return false;
    // C++ AMP and Cilk Plus: a function not declared for the device is
    // their own checkers' error.
    if (K.Dialect == DialectKind::Amp || K.Dialect == DialectKind::Cilk) {
      const Restriction *Rs = Model.restrictionOf(FD);
      if (!Rs || !Rs->Device)
        return false;
    }
    return true;
  }

  void checkCall(const SourceManager &SM, const ProgramModel &Model,
                 const Kernel &K, const CallEdge &E,
                 const llvm::DenseMap<const FunctionDecl *, CallEdge> &Reach,
                 llvm::DenseSet<const FunctionDecl *> &Reported, Reporter &R) {
    const FunctionDecl *Callee = E.Callee->getCanonicalDecl();
    if (!E.Site || !needsDefinition(SM, Model, K, Callee) ||
        !Reported.insert(Callee).second)
      return;
    R.report(E.Site->getBeginLoc(), Diag::err_slmc_device_call_undefined)
        << Callee << E.Site->getSourceRange();
    // The caller is the function whose body holds the call.
    for (const auto &[Fn, Edges] : Model.Calls)
      if (Reach.count(Fn) &&
          llvm::any_of(Edges, [&](const CallEdge &X) { return X.Site == E.Site; })) {
        notePath(R, Reach, Fn);
        break;
      }
    R.report(Callee->getLocation(), Diag::note_slmc_no_device_link) << Callee;
  }

  CheckOptions Opts;
};

} // namespace

std::unique_ptr<Checker> createDefinitionChecker(const CheckOptions &Opts) {
  return std::make_unique<DefinitionChecker>(Opts);
}

} // namespace slmc
