//===- SyclLowering.cpp - SYCL group_local_memory to offload C++ ----------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
//   group_local_memory<T>(g, args...)
//     -> group_local_memory<T>(slmc_site<K>{}, g, args...)
//
// Each call site in a kernel's own function gets its own tag type, so
// <sycl/...> gives it its own group-local storage
// (slmc::group_local_storage<T, Site>). Calls in the functions a kernel
// calls stay as written: one site there may stand for several call paths
// (a helper called twice, a template's instantiations), and DPC++ gives
// each path its own allocation. The device passes do that after inlining
// (lowerGroupLocalAllocations in Driver/DeviceCode.cpp), the CPU fallback at
// run time (slmc_cpu_group_local_alloc). Plain functions a kernel calls
// become host-and-device functions (SYCL needs no annotation on them;
// offload C++ does).
//
//===----------------------------------------------------------------------===//
#include "Lowering/Lowering.h"

#include "llvm/ADT/DenseSet.h"

namespace slmc {
namespace {

class SyclLowering : public DialectLowering {
public:
  void lower(const ProgramModel &Model, LoweringContext &L) override {
    llvm::DenseSet<const clang::FunctionDecl *> KernelBodies;
    for (const Kernel &K : Model.Kernels) {
      const clang::FunctionDecl *Def = nullptr;
      if (K.Dialect == DialectKind::Sycl && K.Body && K.Body->hasBody(Def))
        KernelBodies.insert(Def);
    }
    for (const GroupLocalVar &G : Model.GroupLocals) {
      if (G.Dialect != DialectKind::Sycl || !G.Call || G.Call->getNumArgs() == 0)
        continue;
      const clang::FunctionDecl *Fn = nullptr;
      if (!G.Function || !G.Function->hasBody(Fn) || !KernelBodies.count(Fn) ||
          Fn->isTemplateInstantiation() || Fn->isDependentContext())
        continue;
      L.addPrologue("namespace { template <int N> struct slmc_site : ::slmc::site_base {}; }");
      L.insertBefore(G.Call->getArg(0)->getBeginLoc(),
                     "slmc_site<" + std::to_string(L.nextSite()) + ">{}, ");
    }
    for (const Kernel &K : Model.Kernels) {
      if (K.Dialect != DialectKind::Sycl)
        continue;
      for (const auto &[Fn, Edge] : Model.reachableFrom(K.Body))
        L.makeDeviceCallable(Fn);
    }
  }
};

} // namespace

std::unique_ptr<DialectLowering> createSyclLowering() {
  return std::make_unique<SyclLowering>();
}

} // namespace slmc
