//===- GroupMemoryChecker.cpp - Group-local memory within the limit -------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Adds up the statically sized group-local variables a kernel can reach and
// compares the sum with the configured limit. Shared by every dialect.
//
//===----------------------------------------------------------------------===//
#include "Checks/Checker.h"

#include "clang/Basic/SourceManager.h"

#include <algorithm>

using namespace clang;

namespace slmc {
namespace {

class GroupMemoryChecker : public Checker {
public:
  explicit GroupMemoryChecker(const CheckOptions &Opts) : Opts(Opts) {}

  void check(ASTContext &Ctx, const ProgramModel &Model, Reporter &R) override {
    for (const Kernel &K : Model.Kernels) {
      auto Reach = Model.reachableFrom(K.Body);
      uint64_t Total = 0;
      std::vector<const GroupLocalVar *> Used;
      std::vector<uint64_t> UsedCopies;
      for (const GroupLocalVar &G : Model.GroupLocals) {
        const FunctionDecl *Def = nullptr;
        if (!G.Function || !G.Function->hasBody(Def) || !Reach.count(Def) ||
            !G.SizeInBytes)
          continue;
        // A loop-nest kernel owns only the data declared inside it.
        if (K.Region && G.Var && Def == G.Function &&
            !writtenWithin(Ctx.getSourceManager(), K.Region->getSourceRange(),
                           G.Var->getLocation()))
          continue;
        // Storage a call in a helper creates exists once per call path.
        uint64_t Copies = 1;
        if (G.Call && G.Dialect == DialectKind::Sycl)
          Copies = std::max<size_t>(1, Model.callPaths(K.Body, Def).size());
        Total += *G.SizeInBytes * Copies;
        Used.push_back(&G);
        UsedCopies.push_back(Copies);
      }
      if (Total <= Opts.GroupMemoryLimit)
        continue;
      R.report(Ctx.getSourceManager().getExpansionLoc(K.location()),
               Diag::err_group_memory_over_limit)
          << "this kernel" << std::to_string(Total)
          << std::to_string(Opts.GroupMemoryLimit);
      for (size_t I = 0; I < Used.size(); ++I) {
        const GroupLocalVar *G = Used[I];
        std::string What = G->Var ? "'" + G->Var->getName().str() + "'"
                                  : "group-local memory of type '" +
                                        G->Type.getAsString() + "'";
        if (UsedCopies[I] > 1)
          What += " (reached through " + std::to_string(UsedCopies[I]) + " call paths)";
        R.report(G->location(), Diag::note_group_local_var_size)
            << What << std::to_string(*G->SizeInBytes * UsedCopies[I]);
      }
    }
  }

private:
  CheckOptions Opts;
};

} // namespace

std::unique_ptr<Checker> createGroupMemoryChecker(const CheckOptions &Opts) {
  return std::make_unique<GroupMemoryChecker>(Opts);
}

} // namespace slmc
