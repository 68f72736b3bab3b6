//===- Checker.h - Dialect rule checkers -----------------------*- C++ -*-===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Checkers read the program model and the AST and report through the
// compilation's DiagnosticsEngine. They never depend on lowering, so the
// same checkers serve the plugin, slmc++, clang-tidy and clangd.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_CHECKS_CHECKER_H
#define SLMC_CHECKS_CHECKER_H

#include "Checks/Uniformity.h"
#include "Basic/Diagnostics.h"
#include "Model/Model.h"

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/DenseSet.h"

#include <memory>
#include <vector>

namespace slmc {

struct CheckOptions {
  /// Group-local bytes one work-group may use. 64 KiB is the SLM of most
  /// Intel GPUs; the runtime checks the real device limit before launching.
  uint64_t GroupMemoryLimit = 64 * 1024;
  /// Device code is built from this translation unit (not only the CPU
  /// fallback's host copy), so what kernels call must be defined in it.
  bool DeviceCode = true;
};

class Checker {
public:
  virtual ~Checker() = default;
  virtual void check(clang::ASTContext &Ctx, const ProgramModel &Model,
                     Reporter &R) = 0;
};

std::unique_ptr<Checker> createAmpChecker();
std::unique_ptr<Checker> createSyclChecker();
std::unique_ptr<Checker> createCmChecker();
std::unique_ptr<Checker> createCilkChecker();
std::unique_ptr<Checker> createGroupMemoryChecker(const CheckOptions &Opts);
std::unique_ptr<Checker> createDefinitionChecker(const CheckOptions &Opts);

/// A dialect's barrier rule: which barriers are its own, the warning to
/// give, and which expressions carry the work-item's identity.
struct BarrierRule {
  DialectKind Dialect;
  Diag Warning; // "%select{barrier|call to %1, which waits on one,}0 ..."
  Diag Because; // note at the work-item-dependent part of the condition
  std::function<Uniformity::Seed(const clang::Expr *)> Classify;
};

/// Warns about barriers of `K` (or calls that reach one) under
/// work-item-dependent control flow.
void checkDivergentBarriers(const ProgramModel &Model, const Kernel &K,
                            Reporter &R, const BarrierRule &Rule);

/// Functions reachable from `Root` that wait on one of the dialect's
/// barriers, themselves or through calls.
llvm::DenseSet<const clang::FunctionDecl *>
functionsThatWait(const ProgramModel &Model, const clang::FunctionDecl *Root,
                  DialectKind Dialect);

/// A dialect's words for the race check: which expressions read the
/// work-item's local id (and in which dimension of the group shape, or
/// which linear id), and the barrier statement a fix-it inserts ("" for
/// none).
struct RaceRule {
  /// LocalId's answers beyond a dimension: the work-item's linear id in the
  /// group, with the last dimension varying fastest (SYCL) or the first.
  static constexpr unsigned LinearLastFastest = 3;
  static constexpr unsigned LinearFirstFastest = 4;

  DialectKind Dialect;
  std::function<std::optional<unsigned>(const clang::Expr *)> LocalId;
  std::string Barrier;
  /// Cilk Plus: the work-items are the iterations of second-level nests,
  /// dealt out cyclically (iteration k of a nest runs in thread k mod T)
  /// to a number T of threads known only at run time; see RaceChecker.cpp.
  bool SharedNests = false;
  /// C for Metal: the host sizes thread groups at run time, so a race is
  /// reported only when every group of two threads or more has it.
  bool AnyGroupOfTwo = false;
};

/// Warns about group-local elements that one work-item writes and another
/// reads or writes with no barrier in between, where the group shape (static,
/// or any group of two or more work-items) and the index expressions prove
/// it.
void checkGroupLocalRaces(clang::ASTContext &Ctx, const ProgramModel &Model,
                          const Kernel &K, Reporter &R, const RaceRule &Rule);

/// Rules checked even when clang reported errors (they explain some of
/// them): variable-length array parameters, SYCL group_local_memory's type.
void runEarlyChecks(clang::ASTContext &Ctx, Reporter &R);

/// SYCL: the type group_local_memory makes is trivially destructible (at
/// each call, template instantiations included).
void checkSyclGroupLocalMemoryTypes(clang::ASTContext &Ctx, Reporter &R);

/// Runs every checker over the model.
void runChecks(clang::ASTContext &Ctx, const ProgramModel &Model, Reporter &R,
               const CheckOptions &Opts);

/// Notes "called from X here" for each step from `Root` to `Target`, using
/// the edges of ProgramModel::reachableFrom.
void notePath(Reporter &R,
              const llvm::DenseMap<const clang::FunctionDecl *, CallEdge> &Reach,
              const clang::FunctionDecl *Target);
/// The same for one path of ProgramModel::callPaths, innermost call first.
void notePath(Reporter &R, const CallPath &Path);

} // namespace slmc

#endif // SLMC_CHECKS_CHECKER_H
