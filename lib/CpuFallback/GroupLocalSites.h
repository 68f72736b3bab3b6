//===- GroupLocalSites.h - One group-local block per call path (CPU) ------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_CPUFALLBACK_GROUPLOCALSITES_H
#define SLMC_CPUFALLBACK_GROUPLOCALSITES_H

#include "llvm/IR/PassManager.h"

namespace slmc {

/// Inlines the functions that allocate group-local memory into the
/// kernels' CPU entries and numbers each call left
/// (slmc_cpu_group_local_site): see GroupLocalSites.cpp.
struct GroupLocalSitesPass : llvm::PassInfoMixin<GroupLocalSitesPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace slmc

#endif // SLMC_CPUFALLBACK_GROUPLOCALSITES_H
