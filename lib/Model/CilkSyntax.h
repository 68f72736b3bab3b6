//===- CilkSyntax.h - Reading Cilk Plus constructs from the AST -*- C++ -*-===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// slmc/prelude.h and the pragma handlers leave Cilk Plus constructs in the
// AST as annotations (see docs/design-cilk.md):
//   _Cilk_for (...)            [[clang::annotate("slmc.cilk.for")]] for (...)
//   A[lo:len] = ...;           [[clang::annotate("slmc.cilk.section")]] for ...
//                              (slmc++'s array-notation pre-pass)
//   #pragma offload ...        [[clang::annotate("slmc.cilk.offload", "...")]]
//   _Thread_group              read from the text between `for` and `(`
// The model builder, the checker and the lowering read them through here.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_MODEL_CILKSYNTAX_H
#define SLMC_MODEL_CILKSYNTAX_H

#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace slmc::cilk {

enum class LoopKind {
  CilkFor,     // _Cilk_for / cilk_for
  ThreadGroup, // _Cilk_for _Thread_group
  Section,     // a loop of an array-notation statement
};

struct ParallelLoop {
  const clang::ForStmt *For = nullptr;
  const clang::Stmt *Written = nullptr; // the attributed statement
  LoopKind Kind = LoopKind::CilkFor;
};

/// The Cilk loop `S` is (looking through its attributes), if any.
std::optional<ParallelLoop> asParallelLoop(const clang::Stmt *S,
                                           const clang::SourceManager &SM);

/// What the pragma handlers (Frontend/CilkPragmas.cpp) saw in one
/// translation unit; the pragmas themselves leave nothing in the AST.
struct PragmaRecords {
  struct Offload {
    clang::SourceLocation Hash; // the directive
    std::string Clauses;
  };
  std::vector<Offload> Offloads;
  /// Every offload / offload_attribute directive (lowering blanks them).
  std::vector<clang::SourceLocation> Directives;
  /// Code between `#pragma offload_attribute(push, target(gfx))` and its pop.
  std::vector<clang::SourceRange> GfxRegions;
  std::vector<clang::SourceLocation> OpenPushes;
  /// Malformed offload_attribute pragmas (reported by the checker).
  std::vector<clang::SourceLocation> UnmatchedPops, UnknownAttributePragmas;
};

/// The offload_attribute regions and problems of the whole translation
/// unit: the handlers' records for included files, and for the main file a
/// scan of its text (clangd parses the main file's leading directives into
/// a preamble, where the handlers' records do not reach the main parse).
const PragmaRecords &offloadAttributeRegions(const clang::SourceManager &SM);

/// The records of the translation unit that `SM` belongs to (empty when
/// no handler ran, e.g. in a clang-tidy run without the prelude).
std::shared_ptr<PragmaRecords> pragmaRecords(const clang::SourceManager &SM);
/// Used by the handlers: creates the records of `SM`, and forgets them.
std::shared_ptr<PragmaRecords> createPragmaRecords(const clang::SourceManager &SM);
void forgetPragmaRecords(const clang::SourceManager &SM);

/// The `#pragma offload` written right before the statement `S`, if any.
std::optional<PragmaRecords::Offload> offloadPragma(const clang::Stmt *S,
                                                    const clang::SourceManager &SM);

/// The single statement a loop body consists of (looking through braces
/// around exactly one statement), or null.
const clang::Stmt *onlyStatement(const clang::Stmt *Body);

/// Comparison of a canonical loop's condition, `var <cmp> bound`.
enum class Compare { LT, LE, GT, GE, NE };

/// A loop in the canonical form Cilk Plus requires:
///   for (T var = lo; var <cmp> hi; var += step)   (or ++, --, -=, var = var + step)
struct CanonicalLoop {
  const clang::VarDecl *Var = nullptr;
  const clang::Expr *Lo = nullptr;
  const clang::Expr *Hi = nullptr;
  const clang::Expr *Step = nullptr; // null: 1
  bool StepNegated = false;          // -- or -=
  Compare Cmp = Compare::LT;
};

/// Reads a canonical loop; on failure sets `Why` to the part that is not
/// canonical and `Where` to it.
std::optional<CanonicalLoop> analyzeLoop(const clang::ForStmt *FS,
                                         std::string *Why = nullptr,
                                         clang::SourceLocation *Where = nullptr);

/// The loop's trip count when its bounds and step are constants.
std::optional<uint64_t> constantTripCount(const CanonicalLoop &L,
                                          const clang::ASTContext &Ctx);

/// Whether `FD` is declared __declspec(target(gfx_kernel)) (resp. any
/// gfx target).
bool isGfxKernel(const clang::FunctionDecl *FD);
bool isGfxFunction(const clang::FunctionDecl *FD);

} // namespace slmc::cilk

#endif // SLMC_MODEL_CILKSYNTAX_H

namespace slmc::cilk {

/// One clause of `#pragma offload target(gfx) ...`.
struct OffloadClause {
  std::string Name;               // target, if, in, out, inout, pin, ...
  std::string Argument;           // the text in parentheses
  std::vector<std::string> Vars;  // in/out/inout/pin: the variables
  std::string Length;             // in/out/inout/pin: length(...) if given
};

/// Splits the clause text the pragma handler kept; on a syntax error returns
/// nullopt and describes it in `Error`.
std::optional<std::vector<OffloadClause>> parseOffloadClauses(llvm::StringRef Text,
                                                              std::string &Error);

} // namespace slmc::cilk
