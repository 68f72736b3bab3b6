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
// The error points at the allocation that takes the kernel over the limit,
// counting allocations in the order the kernel makes them: by where they
// are written in the kernel, an allocation in a called function where the
// kernel makes the call. The other allocations, the kernel and the total
// are notes.
//
//===----------------------------------------------------------------------===//
#include "Checks/Checker.h"

#include "clang/Basic/SourceManager.h"

#include <algorithm>

using namespace clang;

namespace slmc {
namespace {

/// One allocation of a kernel: a variable, or a call creating storage on
/// one call path (SYCL makes one per path).
struct Contributor {
  const GroupLocalVar *G;
  CallPath Path; // from the kernel's function to where G is written
  uint64_t Bytes;
  /// Where the kernel makes it: each call on the path, then G itself.
  llvm::SmallVector<SourceLocation, 5> Order;
};

class GroupMemoryChecker : public Checker {
public:
  explicit GroupMemoryChecker(const CheckOptions &Opts) : Opts(Opts) {}

  void check(ASTContext &Ctx, const ProgramModel &Model, Reporter &R) override {
    const SourceManager &SM = Ctx.getSourceManager();
    for (const Kernel &K : Model.Kernels) {
      auto Reach = Model.reachableFrom(K.Body);
      std::vector<Contributor> Used;
      for (const GroupLocalVar &G : Model.GroupLocals) {
        const FunctionDecl *Def = nullptr;
        if (!G.Function || !G.Function->hasBody(Def) || !Reach.count(Def) ||
            !G.SizeInBytes)
          continue;
        // A loop-nest kernel owns only the data declared inside it.
        if (K.Region && G.Var && Def == G.Function &&
            !writtenWithin(SM, K.Region->getSourceRange(), G.Var->getLocation()))
          continue;
        std::vector<CallPath> Paths = Model.callPaths(K.Body, Def);
        if (Paths.empty())
          Paths.emplace_back();
        // Storage a call in a helper creates exists once per call path; a
        // variable once, first made where the first path reaches it.
        if (!(G.Call && G.Dialect == DialectKind::Sycl))
          Paths.resize(1);
        for (CallPath &P : Paths) {
          Contributor C{&G, std::move(P), *G.SizeInBytes, {}};
          for (const PathStep &S : C.Path)
            C.Order.push_back(SM.getExpansionLoc(S.Site->getBeginLoc()));
          C.Order.push_back(SM.getExpansionLoc(G.location()));
          Used.push_back(std::move(C));
        }
      }
      std::stable_sort(Used.begin(), Used.end(),
                       [&](const Contributor &A, const Contributor &B) {
                         return std::lexicographical_compare(
                             A.Order.begin(), A.Order.end(), B.Order.begin(),
                             B.Order.end(), [&](SourceLocation X, SourceLocation Y) {
                               return SM.isBeforeInTranslationUnit(X, Y);
                             });
                       });
      uint64_t Total = 0;
      for (const Contributor &C : Used)
        Total += C.Bytes;
      if (Total <= Opts.GroupMemoryLimit)
        continue;
      uint64_t Before = 0;
      size_t Over = 0;
      while (Before + Used[Over].Bytes <= Opts.GroupMemoryLimit)
        Before += Used[Over++].Bytes;
      report(SM, K, Used, Over, Before, Total, R);
    }
  }

private:
  void report(const SourceManager &SM, const Kernel &K,
              const std::vector<Contributor> &Used, size_t Over, uint64_t Before,
              uint64_t Total, Reporter &R) {
    const Contributor &C = Used[Over];
    uint64_t Reached = Before + C.Bytes;
    std::string Limit = std::to_string(Opts.GroupMemoryLimit);
    if (C.G->Dialect == DialectKind::Cm && C.G->Call && Before == 0 &&
        Used.size() == 1) {
      // CM's one allocation is the kernel's whole shared local memory, made
      // in the kernel function itself: nothing more to note.
      R.report(C.G->Call->getArg(0)->getBeginLoc(), Diag::err_cm_slm_init_over_limit)
          << std::to_string(C.Bytes) << Limit
          << C.G->Call->getArg(0)->getSourceRange();
      return;
    }
    if (Before == 0) {
      R.report(C.G->location(), Diag::err_group_memory_over_limit)
          << describe(*C.G) << std::to_string(C.Bytes) << Limit;
    } else {
      R.report(C.G->location(), Diag::err_group_memory_over_limit_total)
          << describe(*C.G) << std::to_string(Reached) << Limit;
    }
    notePath(R, C.Path);
    unsigned Where = K.Launch ? 0 : K.Region ? 2 : 1;
    // At the file location: a Cilk nest starts with the _Cilk_for macro, and
    // an editor shows no note whose place is inside a macro definition.
    R.report(SM.getFileLoc(K.location()), Diag::note_group_memory_kernel)
        << Where << K.Body << unsigned(Total != Reached) << std::to_string(Total);
    for (size_t I = 0; I < Used.size(); ++I) {
      if (I == Over)
        continue;
      const Contributor &O = Used[I];
      // Storage made on a call path is shown where the kernel makes the
      // call: every path to one helper would otherwise point at one line.
      if (O.G->Call && O.G->Dialect == DialectKind::Sycl && !O.Path.empty())
        R.report(O.Path.front().Site->getBeginLoc(), Diag::note_group_local_through_call)
            << describe(*O.G) << O.Path.back().Callee << std::to_string(O.Bytes);
      else
        R.report(O.G->location(), Diag::note_group_local_var_size)
            << describe(*O.G) << std::to_string(O.Bytes);
    }
  }

  /// The variable, or the call as written ('group_local_memory<int[64]>').
  static std::string describe(const GroupLocalVar &G) {
    if (G.Var)
      return "'" + G.Var->getName().str() + "'";
    std::string Callee = G.Call->getDirectCallee()->getNameAsString();
    if (G.Dialect == DialectKind::Sycl)
      Callee += "<" + G.Type.getAsString() + ">";
    return "'" + Callee + "'";
  }

  CheckOptions Opts;
};

} // namespace

std::unique_ptr<Checker> createGroupMemoryChecker(const CheckOptions &Opts) {
  return std::make_unique<GroupMemoryChecker>(Opts);
}

} // namespace slmc
