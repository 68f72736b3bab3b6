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
// Each call site gets its own tag type, so <sycl/...> gives it its own
// group-local storage (slmc::group_local_storage<T, Site>). Plain functions
// a kernel calls become host-and-device functions (SYCL needs no
// annotation on them; offload C++ does).
//
//===----------------------------------------------------------------------===//
#include "Lowering/Lowering.h"

namespace slmc {
namespace {

class SyclLowering : public DialectLowering {
public:
  void lower(const ProgramModel &Model, LoweringContext &L) override {
    for (const GroupLocalVar &G : Model.GroupLocals) {
      if (G.Dialect != DialectKind::Sycl || !G.Call || G.Call->getNumArgs() == 0)
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
