//===- CmThreadGlobals.h - C for Metal per-thread globals -------*- C++ -*-===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `_GENX_` on a file-scope variable declares a per-thread global in cmc:
// every CM thread has its own copy, for the thread's whole run, which the
// thread's functions share. slmc runs a CM thread as one call of the
// kernel's body, so the copy becomes a variable of that body, and each
// function between the body and a use of the global takes it by reference,
// as a leading parameter (CmLowering). This finds what that takes: the
// globals, the functions that need each, and the calls that must pass it.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_MODEL_CMTHREADGLOBALS_H
#define SLMC_MODEL_CMTHREADGLOBALS_H

#include "Model/Model.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <vector>

namespace slmc {

struct CmThreadGlobals {
  /// The per-thread globals (their definitions), in declaration order.
  std::vector<const clang::VarDecl *> Vars;
  /// For each function the CM kernels reach (its template pattern, if it is
  /// an instantiation), the globals it needs: those it uses and those its
  /// callees need, in `Vars` order. Kernels are keys too. A lambda's body
  /// counts as its enclosing function's (it captures the variable).
  llvm::DenseMap<const clang::FunctionDecl *, llvm::SmallVector<const clang::VarDecl *, 2>>
      Needs;
  /// Uses of a global inside those functions (each is renamed).
  std::vector<const clang::DeclRefExpr *> Uses;
  /// Calls of a function that needs globals, from one that has them.
  struct Call {
    const clang::CallExpr *Site;
    const clang::FunctionDecl *Callee; // a key of Needs
  };
  std::vector<Call> Calls;
  /// What cannot pass a global: a function that needs one, called as an
  /// operator, constructed, or named without a call, and calls of such a
  /// function from code no kernel reaches.
  struct Problem {
    clang::SourceLocation Loc;
    const clang::FunctionDecl *Callee;
    const clang::VarDecl *Var; // one of the globals it needs
    bool Unreached;            // else: not called by name
  };
  std::vector<Problem> Problems;
  /// Uses of a global in a default argument: it is evaluated at each call,
  /// where only a parameter holds the thread's copy, and a default argument
  /// cannot name a parameter.
  std::vector<const clang::DeclRefExpr *> DefaultArgUses;

  bool empty() const { return Vars.empty(); }
  /// The name the kernel's copy of `VD`, and each parameter for it, have.
  std::string localName(const clang::VarDecl *VD) const;
};

/// Whether `VD` is a per-thread global: `_GENX_` on a variable of
/// namespace scope, in user code.
bool isCmThreadGlobal(const clang::VarDecl *VD);

CmThreadGlobals findCmThreadGlobals(clang::ASTContext &Ctx, const ProgramModel &Model);

/// The function whose text declares `FD` (its template pattern, if any).
const clang::FunctionDecl *writtenFunction(const clang::FunctionDecl *FD);

} // namespace slmc

#endif
