//===- Model.h - The dialect-neutral program model --------------*- C++ -*-===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What every later stage needs to know about a program, whatever dialect it
// is written in: its kernels and how they are launched, the shape of their
// work-groups, their group-local variables, their barriers, and the device
// call graph reachable from each kernel. Dialect model builders fill it from
// the AST; checkers read it (with the AST); lowering consumes it.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_MODEL_MODEL_H
#define SLMC_MODEL_MODEL_H

#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Expr.h"
#include "Prepass/KernelAttributes.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace slmc {

enum class DialectKind { Amp, Sycl, Cm, Cilk };
const char *dialectName(DialectKind K);

/// Where a function may run, as the dialect declared it (C++ AMP's
/// restrict(...), Cilk's target(gfx), ...).
struct Restriction {
  bool Device = false; // amp / gfx / device code
  bool Host = false;   // cpu
};

/// One place a restriction is written, e.g. `restrict(amp, cpu)`.
struct RestrictionSite {
  DialectKind Dialect;
  const clang::FunctionDecl *Function = nullptr;
  clang::SourceRange Spelling;        // the whole keyword (expansion range)
  llvm::SmallVector<std::string, 2> Specifiers; // as written: "amp", "cpu"
  Restriction Parsed;                 // the specifiers that were understood
};

/// How a group-local variable gets its first value.
enum class GroupLocalInit {
  Undefined,      // no initializer runs (C++ AMP tile_static)
  OnceByOneItem,  // one work-item constructs it, then a barrier
};

/// Group-local data: a declared variable (C++ AMP tile_static, Cilk
/// __thread_group_local) or storage a call creates (SYCL
/// group_local_memory<T>(...), CM cm_slm_init).
struct GroupLocalVar {
  DialectKind Dialect;
  const clang::VarDecl *Var = nullptr; // declared data
  const clang::CallExpr *Call = nullptr; // or the call creating it
  const clang::FunctionDecl *Function = nullptr; // where it is declared/created
  clang::QualType Type;
  clang::SourceRange Keyword; // the dialect keyword or callee as written
  GroupLocalInit Init = GroupLocalInit::Undefined;
  std::optional<uint64_t> SizeInBytes; // none while the type is dependent
  uint64_t Alignment = 1;

  clang::SourceLocation location() const {
    return Var ? Var->getLocation() : Call->getBeginLoc();
  }
};

struct BarrierSite {
  DialectKind Dialect;
  const clang::Expr *Call = nullptr;
  const clang::FunctionDecl *Function = nullptr; // where it is written
  /// A library function that waits on a barrier inside (a SYCL group
  /// function), reported by its name rather than as a barrier.
  const clang::FunctionDecl *Waiter = nullptr;
};

struct GroupShape {
  unsigned Rank = 0;           // 0: decided at run time
  uint32_t Size[3] = {1, 1, 1}; // in the dialect's dimension order
  bool Static = false;
  /// The launch's whole iteration space, when it is a compile-time
  /// constant (in the same dimension order), with where it is written.
  std::optional<std::array<int64_t, 3>> Domain;
  const clang::Expr *DomainExpr = nullptr;

  uint64_t threads() const {
    return uint64_t(Size[0]) * Size[1] * Size[2];
  }
};

struct Kernel {
  DialectKind Dialect;
  /// The function that runs once per work-item (a lambda's call operator,
  /// a functor's operator(), a kernel function).
  const clang::FunctionDecl *Body = nullptr;
  /// The kernel functor as passed (a lambda expression, ...), if any.
  const clang::Expr *Functor = nullptr;
  /// Where the kernel is launched (a parallel_for_each call, ...); null for
  /// kernels the host launches by name at run time (CM).
  const clang::Expr *Launch = nullptr;
  /// The same kernel in the other instantiations of the template that
  /// launches it (the checks look at `Body`, the first); what each calls
  /// is device code too.
  std::vector<const clang::FunctionDecl *> OtherInstances;
  bool UsesWorkGroups = false; // tiled / nd_range / thread-group launch
  GroupShape Shape;

  // Kernels written as loop nests (Cilk Plus); Body is then the function
  // the nest is written in.
  /// The statement that is the kernel: its outermost loop, with the
  /// attributes (offload pragma) in front of it.
  const clang::Stmt *Region = nullptr;
  /// The loops whose iterations are the work-groups (UsesWorkGroups) or the
  /// work-items, outermost first.
  llvm::SmallVector<const clang::ForStmt *, 3> Loops;
  /// Loop nests in the kernel whose iterations are shared among the
  /// work-items of a group (outermost loop first).
  std::vector<llvm::SmallVector<const clang::ForStmt *, 3>> SharedNests;
  /// The clauses of the `#pragma offload` in front of the nest, if any,
  /// and where the directive is.
  std::optional<std::string> OffloadClauses;
  clang::SourceLocation OffloadPragma;

  /// Where to report about the kernel as a whole.
  clang::SourceLocation location() const {
    return Launch   ? Launch->getBeginLoc()
           : Region ? Region->getBeginLoc()
                    : Body->getLocation();
  }
};

/// One edge of the device call graph.
struct CallEdge {
  const clang::FunctionDecl *Callee;
  const clang::Expr *Site;
};

/// A call to a C++ AMP function that has overloads differing only in their
/// restriction (§2.3.2). The check pass's Clang prefers the amp-capable one
/// (slmc/prelude.h), so the model resolves the call again for each context
/// the caller runs in.
struct RestrictionOverloadCall {
  const clang::Expr *Site = nullptr;
  /// The callee's name as written; invalid for operators and constructors.
  clang::SourceLocation NameLoc;
  const clang::FunctionDecl *Caller = nullptr;
  /// The whole overload set (canonical declarations; a template's pattern).
  llvm::SmallVector<const clang::FunctionDecl *, 3> Overloads;
  bool CpuContext = false, AmpContext = false;
  /// The overloads callable from each context of the caller (one when the
  /// call resolves, none or several when it is ill-formed).
  llvm::SmallVector<const clang::FunctionDecl *, 2> ForCpu, ForAmp;
};

/// One call on a call path: `Site`, in `Caller`'s body, calls `Callee`
/// (both definitions).
struct PathStep {
  const clang::FunctionDecl *Caller;
  const clang::Expr *Site;
  const clang::FunctionDecl *Callee;
};
using CallPath = llvm::SmallVector<PathStep, 4>;

/// A SYCL kernel attribute as written (reqd_sub_group_size,
/// reqd_work_group_size, work_group_size_hint; in template patterns too, so
/// its arguments may be dependent): on a lambda or on a functor's call
/// operator, whether or not the model sees the launch.
struct KernelAttributeUse {
  KernelAttributeKind Kind = KernelAttributeKind::RequiredSubGroupSize;
  llvm::SmallVector<const clang::Expr *, 3> Args;
  /// The annotation the pre-pass respelled it as (without the brackets).
  clang::SourceRange Attr;
  const clang::LambdaExpr *Lambda = nullptr;
  const clang::CXXMethodDecl *CallOperator = nullptr; // when not a lambda
};

class ProgramModel {
public:
  std::vector<Kernel> Kernels;
  std::vector<KernelAttributeUse> KernelAttributes;
  std::vector<GroupLocalVar> GroupLocals;
  std::vector<BarrierSite> Barriers;
  std::vector<RestrictionSite> RestrictionSites;
  /// Merged over redeclarations, keyed by canonical declaration.
  llvm::DenseMap<const clang::FunctionDecl *, Restriction> Restrictions;
  /// Declarations that carry a group-local keyword but cannot be group-local
  /// (parameters, members, functions, globals), with the keyword's range.
  struct MisplacedGroupLocal {
    DialectKind Dialect;
    const clang::Decl *D;
    clang::SourceRange Keyword;
  };
  std::vector<MisplacedGroupLocal> MisplacedGroupLocals;
  /// Calls to functions overloaded on their C++ AMP restriction.
  std::vector<RestrictionOverloadCall> RestrictionOverloads;
  /// The overload sets themselves, each declared in the translation unit.
  std::vector<llvm::SmallVector<const clang::FunctionDecl *, 3>>
      RestrictionOverloadSets;
  /// The device call graph: each function with a body and what it calls.
  llvm::DenseMap<const clang::FunctionDecl *, llvm::SmallVector<CallEdge, 4>>
      Calls;

  const Restriction *restrictionOf(const clang::FunctionDecl *FD) const;
  const GroupLocalVar *groupLocal(const clang::VarDecl *VD) const;

  /// Functions reachable from `Root` through calls with a body in the
  /// translation unit, with the edge that first reached each one.
  llvm::DenseMap<const clang::FunctionDecl *, CallEdge>
  reachableFrom(const clang::FunctionDecl *Root) const;

  /// Every call path from `Root`'s body to `Target` (the empty path when
  /// they are the same function), at most `Limit` of them. A path never
  /// goes through a function twice, so recursion adds no paths; see
  /// isRecursive.
  std::vector<CallPath> callPaths(const clang::FunctionDecl *Root,
                                  const clang::FunctionDecl *Target,
                                  unsigned Limit = 64) const;

  /// Whether `FD` can call itself, directly or through other functions.
  bool isRecursive(const clang::FunctionDecl *FD) const;

  /// Records the calls made by `FD`'s body (and, transitively, by its
  /// callees) if not done yet.
  void addCallGraphFrom(const clang::FunctionDecl *FD);
};

/// The calls and constructions written in `S`, in source order; with
/// `IntoLambdas`, also those in the bodies of lambdas written there.
llvm::SmallVector<CallEdge, 4> directCalls(const clang::Stmt *S, bool IntoLambdas);

/// Whether `Loc` is written inside `Range` (both taken where macros are
/// expanded, in one file).
bool writtenWithin(const clang::SourceManager &SM, clang::SourceRange Range,
                   clang::SourceLocation Loc);

} // namespace slmc

#endif // SLMC_MODEL_MODEL_H
