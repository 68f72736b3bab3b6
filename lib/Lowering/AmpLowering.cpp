//===- AmpLowering.cpp - C++ AMP to offload C++ ---------------------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
//   restrict(amp)        ->  SLMC_RESTRICT_AMP      (host and device)
//   restrict(cpu)        ->  SLMC_RESTRICT_CPU      (host only)
//   restrict(amp, cpu)   ->  SLMC_RESTRICT_AMP_CPU
//   tile_static T x;     ->  SLMC_GROUP_LOCAL T x;  (__shared__ on devices)
//
// Kernels need no rewriting: <amp.h>'s parallel_for_each instantiates the
// one kernel entry of slmc/offload.h for each kernel functor.
//
//===----------------------------------------------------------------------===//
#include "Lowering/Lowering.h"

namespace slmc {
namespace {

class AmpLowering : public DialectLowering {
public:
  void lower(const ProgramModel &Model, LoweringContext &L) override {
    for (const RestrictionSite &S : Model.RestrictionSites) {
      if (S.Dialect != DialectKind::Amp)
        continue;
      const char *Macro = S.Parsed.Device && S.Parsed.Host ? "SLMC_RESTRICT_AMP_CPU"
                          : S.Parsed.Device               ? "SLMC_RESTRICT_AMP"
                                                          : "SLMC_RESTRICT_CPU";
      L.replace(S.Spelling, Macro);
    }
    for (const GroupLocalVar &G : Model.GroupLocals)
      if (G.Dialect == DialectKind::Amp)
        L.replace(G.Keyword, "SLMC_GROUP_LOCAL");
  }
};

} // namespace

std::unique_ptr<DialectLowering> createAmpLowering() {
  return std::make_unique<AmpLowering>();
}

} // namespace slmc
