//===- Uniformity.h - Which control flow differs between work-items -*- C++
//-*-===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A barrier must be reached by every work-item of a group, so it must not sit
// under control flow whose condition differs between work-items. This is a
// conservative, syntactic taint analysis over one function body: values
// derived from the work-item's identity (seeded by the dialect: C++ AMP's
// index parameters, SYCL's nd_item, CM's cm_local_id, ...) taint every
// variable assigned from them; a condition that reads a tainted value is
// divergent, and so is everything after a return/break/continue it guards.
// Shared by every dialect's barrier rule.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_CHECKS_UNIFORMITY_H
#define SLMC_CHECKS_UNIFORMITY_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <functional>

namespace slmc {

class Uniformity {
public:
  /// What the dialect knows about an expression: it reads the work-item's
  /// identity (a C++ AMP thread index), it is the same for the whole group
  /// whatever it contains (a tile index), or neither (look inside).
  enum class Seed { None, Divergent, Uniform };

  Uniformity(const clang::FunctionDecl *F,
             std::function<Seed(const clang::Expr *)> Classify);

  /// The innermost thread-dependent condition that controls whether `S`
  /// runs, or null when every work-item reaches it together.
  const clang::Expr *divergentCondition(const clang::Stmt *S) const;

  /// The tainted reference inside `E` (for a note), or null.
  const clang::Expr *taintedPart(const clang::Expr *E) const;

  /// What a note about a divergent condition points at and highlights:
  /// its tainted part, else the whole condition. Location and range are
  /// the same expression, as clangd shows a note by its range alone.
  const clang::Expr *blame(const clang::Expr *Cond) const {
    const clang::Expr *Why = taintedPart(Cond);
    return Why ? Why : Cond;
  }

private:
  bool isTainted(const clang::Expr *E) const;
  void computeTaint(const clang::Stmt *Body);
  void computeControl(const clang::Stmt *Body);

  std::function<Seed(const clang::Expr *)> Classify;
  llvm::DenseSet<const clang::VarDecl *> Tainted;
  llvm::DenseMap<const clang::Stmt *, const clang::Expr *> Control;
};

} // namespace slmc

#endif // SLMC_CHECKS_UNIFORMITY_H
