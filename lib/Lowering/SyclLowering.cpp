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
// Each call site in a kernel's own function gets its own tag type, so
// <sycl/...> gives it its own group-local storage
// (slmc::group_local_storage<T, Site>). Calls in the functions a kernel
// calls stay as written: one site there may stand for several call paths
// (a helper called twice, a template's instantiations), and DPC++ gives
// each path its own allocation. The device passes do that after inlining
// (lowerGroupLocalAllocations in Driver/DeviceCode.cpp), the CPU fallback at
// run time (slmc_cpu_group_local_alloc). Plain functions a kernel calls
// become host-and-device functions (SYCL needs no annotation on them;
// offload C++ does).
//
//
//   [=](nd_item<1> it) [[sycl::reqd_sub_group_size(N)]] { ... }
//     -> ::slmc::with_sub_group_size<(N)>([=](nd_item<1> it) ... { ... })
//   struct K { [[sycl::reqd_sub_group_size(N)]] void operator()(...) const {...}
//     -> ... {...} static constexpr unsigned slmc_reqd_sub_group_size = (N);
//
// The kernel functor then carries its required sub-group size into
// slmc::launch and slmc::kernel_entry (slmc/offload.h).
//
//===----------------------------------------------------------------------===//
#include "Lowering/Lowering.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseSet.h"

namespace slmc {
namespace {

class SyclLowering : public DialectLowering {
public:
  void lower(const ProgramModel &Model, LoweringContext &L) override {
    llvm::DenseSet<const clang::FunctionDecl *> KernelBodies;
    for (const Kernel &K : Model.Kernels) {
      const clang::FunctionDecl *Def = nullptr;
      if (K.Dialect == DialectKind::Sycl && K.Body && K.Body->hasBody(Def))
        KernelBodies.insert(Def);
    }
    for (const GroupLocalVar &G : Model.GroupLocals) {
      if (G.Dialect != DialectKind::Sycl || !G.Call || G.Call->getNumArgs() == 0)
        continue;
      const clang::FunctionDecl *Fn = nullptr;
      if (!G.Function || !G.Function->hasBody(Fn) || !KernelBodies.count(Fn) ||
          Fn->isTemplateInstantiation() || Fn->isDependentContext())
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
    for (const SubGroupSizeRequirement &S : Model.SubGroupSizes)
      lowerRequiredSubGroupSize(S, L);
  }

private:
  /// The size as code that means the same before the lambda or after the
  /// call operator: the argument as written (a template parameter, a macro,
  /// a constant), or its value when it was written inside a macro.
  static std::optional<std::string> sizeText(const clang::Expr *E, LoweringContext &L) {
    clang::ASTContext &Ctx = L.astContext();
    const clang::SourceManager &SM = Ctx.getSourceManager();
    clang::CharSourceRange Range = clang::Lexer::makeFileCharRange(
        clang::CharSourceRange::getTokenRange(E->getSourceRange()), SM, Ctx.getLangOpts());
    if (Range.isValid())
      return "(" + clang::Lexer::getSourceText(Range, SM, Ctx.getLangOpts()).str() + ")";
    if (!E->isValueDependent())
      if (std::optional<llvm::APSInt> V = E->getIntegerConstantExpr(Ctx))
        return toString(*V, 10);
    return std::nullopt;
  }

  void lowerRequiredSubGroupSize(const SubGroupSizeRequirement &S, LoweringContext &L) {
    // The annotation has served; in device code it would keep the call
    // operator alive through llvm.global.annotations.
    L.replace(S.Attr, "");
    std::optional<std::string> Size = sizeText(S.Size, L);
    if (!Size)
      return; // dependent text inside a macro: cannot be repeated elsewhere
    if (S.Lambda) {
      L.insertBefore(S.Lambda->getBeginLoc(), "::slmc::with_sub_group_size<" + *Size + ">(");
      L.insertAfterToken(S.Lambda->getEndLoc(), ")");
      return;
    }
    // A functor class: the member goes right after the call operator's
    // declaration in the class, in its access region (public, or SYCL could
    // not call it).
    const clang::FunctionDecl *Decl = S.CallOperator;
    for (const clang::FunctionDecl *R : S.CallOperator->redecls())
      if (R->getLexicalDeclContext()->isRecord())
        Decl = R;
    clang::SourceLocation End = Decl->getEndLoc();
    if (!Decl->doesThisDeclarationHaveABody()) {
      std::optional<clang::Token> Semi = clang::Lexer::findNextToken(
          End, L.astContext().getSourceManager(), L.astContext().getLangOpts());
      if (!Semi || Semi->isNot(clang::tok::semi))
        return;
      End = Semi->getLocation();
    }
    L.insertAfterToken(End, " static constexpr unsigned slmc_reqd_sub_group_size = " + *Size + ";");
  }

};

} // namespace

std::unique_ptr<DialectLowering> createSyclLowering() {
  return std::make_unique<SyclLowering>();
}

} // namespace slmc
