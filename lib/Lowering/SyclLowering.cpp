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
//   [=](nd_item<2> it) [[sycl::reqd_work_group_size(Y, X)]] { ... }
//     -> ::slmc::with_work_group_size<(Y), (X)>([=](nd_item<2> it) ... { ... })
//   struct K { [[sycl::reqd_work_group_size(Y, X)]] void operator()(...) const {...}
//     -> ... {...} static constexpr ::slmc::written_group_shape
//                  slmc_written_work_group_size = {2, {(Y), (X)}};
//
// The kernel functor then carries its requirements into slmc::launch and
// slmc::kernel_entry (slmc/offload.h) and, for the work-group shape, into
// the SYCL handler, which checks the nd_range against it. A
// work_group_size_hint is only removed.
//
//===----------------------------------------------------------------------===//
#include "Lowering/Lowering.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
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
      for (const clang::FunctionDecl *Other : K.OtherInstances)
        for (const auto &[Fn, Edge] : Model.reachableFrom(Other))
          L.makeDeviceCallable(Fn);
    }
    for (const KernelAttributeUse &U : Model.KernelAttributes)
      lowerKernelAttribute(U, L);
    for (const Kernel &K : Model.Kernels)
      if (K.Dialect == DialectKind::Sycl)
        requireLaunchShape(Model, K, L);
  }

private:
  /// The size as code that means the same before the lambda or after the
  /// call operator: the argument as written (a template parameter, a macro,
  /// a constant), or its value when it was written inside a macro.
  llvm::DenseSet<const clang::LambdaExpr *> Shaped;

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

  /// A lambda written in an nd_range launch whose local range is constant
  /// (`nd_range<1>(n, 128)`) only ever runs with that shape: it gets the
  /// requirement reqd_work_group_size would give it, so the device code
  /// compiles for that shape (LocalSize, constant local sizes) and the CPU
  /// fallback compiles its work-item loops for it. Not in templates (one
  /// lambda text there stands for every instantiation) nor in macros.
  void requireLaunchShape(const ProgramModel &Model, const Kernel &K, LoweringContext &L) {
    const auto *Call = llvm::dyn_cast_or_null<clang::CallExpr>(K.Launch);
    if (!K.UsesWorkGroups || !K.Shape.Static || !Call || Call->getNumArgs() == 0)
      return;
    const auto *Lambda = llvm::dyn_cast<clang::LambdaExpr>(
        Call->getArg(Call->getNumArgs() - 1)->IgnoreImplicit()->IgnoreParens());
    if (!Lambda || !Shaped.insert(Lambda).second)
      return;
    // Launch properties (work_group_size<...>) are the user's requirement:
    // the launch is checked against them, not compiled from the nd_range.
    for (const clang::Expr *A : Call->arguments())
      if (const clang::CXXRecordDecl *RD = A->getType()->getAsCXXRecordDecl();
          RD && RD->getIdentifier() && RD->getName() == "properties")
        return;
    const clang::DeclContext *DC = Lambda->getLambdaClass()->getDeclContext();
    for (; DC; DC = DC->getParent())
      if (DC->isDependentContext() ||
          (llvm::isa<clang::FunctionDecl>(DC) && llvm::cast<clang::FunctionDecl>(DC)->isTemplateInstantiation()) ||
          llvm::isa<clang::ClassTemplateSpecializationDecl>(DC))
        return;
    for (const KernelAttributeUse &U : Model.KernelAttributes)
      if (U.Lambda == Lambda && U.Kind == KernelAttributeKind::RequiredWorkGroupSize)
        return; // written by hand
    const clang::SourceManager &SM = L.astContext().getSourceManager();
    clang::SourceLocation Begin = Lambda->getBeginLoc(), End = Lambda->getEndLoc();
    if (Begin.isMacroID() || End.isMacroID() || SM.isInSystemHeader(Begin))
      return;
    std::string Args;
    for (unsigned I = 0; I < K.Shape.Rank; ++I)
      Args += (I ? ", " : "") + std::to_string(K.Shape.Size[I]);
    L.insertBefore(Begin, "::slmc::with_work_group_size<" + Args + ">(");
    L.insertAfterToken(End, ")");
  }

  void lowerKernelAttribute(const KernelAttributeUse &U, LoweringContext &L) {
    // The annotation has served; in device code it would keep the call
    // operator alive through llvm.global.annotations.
    L.replace(U.Attr, "");
    if (U.Kind == KernelAttributeKind::WorkGroupSizeHint)
      return;
    const bool SubGroup = U.Kind == KernelAttributeKind::RequiredSubGroupSize;
    if (U.Args.empty() || U.Args.size() > (SubGroup ? 1u : 3u))
      return; // diagnosed
    std::string Args;
    for (const clang::Expr *E : U.Args) {
      std::optional<std::string> Text = sizeText(E, L);
      if (!Text)
        return; // dependent text inside a macro: cannot be repeated elsewhere
      Args += (Args.empty() ? "" : ", ") + *Text;
    }
    if (U.Lambda) {
      L.insertBefore(U.Lambda->getBeginLoc(), std::string(SubGroup ? "::slmc::with_sub_group_size<"
                                                                   : "::slmc::with_work_group_size<") +
                                                  Args + ">(");
      L.insertAfterToken(U.Lambda->getEndLoc(), ")");
      return;
    }
    // A functor class: the member goes right after the call operator's
    // declaration in the class, in its access region (public, or SYCL could
    // not call it).
    const clang::FunctionDecl *Decl = U.CallOperator;
    for (const clang::FunctionDecl *R : U.CallOperator->redecls())
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
    L.insertAfterToken(End, SubGroup
                                ? " static constexpr unsigned slmc_reqd_sub_group_size = " + Args + ";"
                                : " static constexpr ::slmc::written_group_shape "
                                  "slmc_written_work_group_size = {" +
                                      std::to_string(U.Args.size()) + ", {" + Args + "}};");
  }

};

} // namespace

std::unique_ptr<DialectLowering> createSyclLowering() {
  return std::make_unique<SyclLowering>();
}

} // namespace slmc
