//===- SyclModelBuilder.cpp - SYCL constructs into the model --------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Reads what <sycl/...> leaves in the AST:
//   group_local_memory[_for_overwrite]<T>(g, args...)
//        annotate("slmc.entry:sycl.group_local_memory[_for_overwrite]")
//   parallel_for(nd_range, k) / parallel_for(range, k) / single_task(k)
//        annotate("slmc.entry:sycl.parallel_for.nd_range" | ".range" |
//                 "sycl.single_task"); the kernel functor is the last argument
//   group_barrier(g), nd_item::barrier()   barriers
//   reduce_over_group(g, ...), ...         group functions (wait on barriers)
//
//===----------------------------------------------------------------------===//
#include "Prepass/KernelAttributes.h"
#include "Model/FunctionScopeVisitor.h"
#include "Model/ModelBuilder.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSwitch.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"

#include <vector>

using namespace clang;

namespace slmc {
namespace {

bool inSyclNamespace(const Decl *D) {
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      if (NS->getName() == "sycl" && NS->getParent()->isTranslationUnit())
        return true;
  return false;
}

const FunctionDecl *functorBody(QualType T) {
  const CXXRecordDecl *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  if (!RD)
    return nullptr;
  if (RD->isLambda())
    return RD->getLambdaCallOperator();
  for (const CXXMethodDecl *M : RD->methods())
    if (M->getOverloadedOperator() == OO_Call)
      return M;
  return nullptr;
}

class SyclVisitor : public FunctionScopeVisitor<SyclVisitor> {
public:
  SyclVisitor(ASTContext &Ctx, ProgramModel &Model)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Model(Model) {}

  // The second pass (SyclModelBuilder::build, visitInstantiations): the
  // launches written with a dependent argument or object (`q.submit([&](auto
  // &h) { h.parallel_for(...); })`, a functor `K<T>{...}` launched in a
  // function template), whose callee only the instantiation has.
  bool VisitCallExpr(CallExpr *CE) {
    const FunctionDecl *Callee = CE->getDirectCallee();
    if (!Callee)
      return true;
    if (InstantiationsOnly) {
      const FunctionDecl *Fn = currentFunction();
      if (!Fn || Fn->isDependentContext())
        return true;
      bool NdRange = findAnnotation(Callee, "slmc.entry:sycl.parallel_for.nd_range");
      if (NdRange || findAnnotation(Callee, "slmc.entry:sycl.parallel_for.range") ||
          findAnnotation(Callee, "slmc.entry:sycl.single_task"))
        return addKernel(CE, NdRange, /*IfNew=*/true);
      // The barriers of instantiated code: the first pass saw their
      // templates' only.
      if (inInstantiation(Fn))
        addBarrier(CE, Callee);
      return true;
    }
    if (isGroupLocalMemory(Callee)) {
      // In a template (a generic command-group lambda's kernel, say) the
      // instantiations are the calls that run: addInstantiatedGroupLocals
      // finds those a kernel reaches.
      if (currentFunction() && currentFunction()->isDependentContext())
        return true;
      return addGroupLocal(CE, Callee, currentFunction());
    }
    bool NdRange = findAnnotation(Callee, "slmc.entry:sycl.parallel_for.nd_range");
    if (NdRange || findAnnotation(Callee, "slmc.entry:sycl.parallel_for.range") ||
        findAnnotation(Callee, "slmc.entry:sycl.single_task"))
      return addKernel(CE, NdRange);
    addBarrier(CE, Callee);
    return true;
  }

  void addBarrier(const CallExpr *CE, const FunctionDecl *Callee) {
    if (inSyclNamespace(Callee) &&
        ((isWorkGroupFunction(Callee) && !onSubGroup(Callee)) ||
         (isa<CXXMethodDecl>(Callee) && Callee->getName() == "barrier" &&
          cast<CXXMethodDecl>(Callee)->getParent()->getName() == "nd_item")))
      Model.Barriers.push_back({DialectKind::Sycl, CE, currentFunction(),
                                Callee->getName() == "group_barrier" ||
                                        Callee->getName() == "barrier"
                                    ? nullptr
                                    : writtenName(Callee)});
  }


  static bool isGroupLocalMemory(const FunctionDecl *Callee) {
    return findAnnotation(Callee, "slmc.entry:sycl.group_local_memory") ||
           findAnnotation(Callee, "slmc.entry:sycl.group_local_memory_for_overwrite");
  }

  /// The traversal sees function templates as written, where a call whose
  /// arguments depend on a template parameter has no callee yet; each
  /// instantiation a kernel reaches has its own, resolved call.
  void addInstantiatedGroupLocals() {
    llvm::DenseSet<const CallExpr *> Known;
    for (const GroupLocalVar &G : Model.GroupLocals)
      Known.insert(G.Call);
    for (const Kernel &K : Model.Kernels) {
      if (K.Dialect != DialectKind::Sycl)
        continue;
      Model.addCallGraphFrom(K.Body);
      for (const FunctionDecl *Other : K.OtherInstances)
        Model.addCallGraphFrom(Other);
      // Breadth-first in call order, so that the model (and the order of
      // diagnostics) does not depend on where declarations were allocated.
      const FunctionDecl *Root = nullptr;
      if (!K.Body->hasBody(Root))
        continue;
      std::vector<const FunctionDecl *> Order{Root};
      llvm::DenseSet<const FunctionDecl *> Seen{Root};
      for (size_t I = 0; I < Order.size(); ++I) {
        auto It = Model.Calls.find(Order[I]);
        if (It == Model.Calls.end())
          continue;
        for (const CallEdge &E : It->second) {
          const auto *CE = dyn_cast<CallExpr>(E.Site);
          if (CE && isGroupLocalMemory(E.Callee) && Known.insert(CE).second)
            addGroupLocal(CE, E.Callee, Order[I]);
          const FunctionDecl *Def = nullptr;
          if (E.Callee->hasBody(Def) && Seen.insert(Def).second)
            Order.push_back(Def);
        }
      }
    }
  }

private:
  /// group_barrier and the group functions: each waits on a work-group
  /// barrier when called on a work-group.
  static bool isWorkGroupFunction(const FunctionDecl *FD) {
    if (!FD->getIdentifier())
      return false;
    return llvm::StringSwitch<bool>(FD->getName())
        .Cases({"group_barrier", "group_broadcast", "any_of_group", "all_of_group",
                "none_of_group", "reduce_over_group"}, true)
        .Cases({"exclusive_scan_over_group", "inclusive_scan_over_group", "joint_reduce",
                "joint_any_of", "joint_all_of", "joint_none_of"}, true)
        .Cases({"joint_exclusive_scan", "joint_inclusive_scan"}, true)
        .Default(false);
  }
  /// The template a specialisation comes from: diagnostics name it as
  /// written, without the deduced arguments.
  static const FunctionDecl *writtenName(const FunctionDecl *FD) {
    if (const FunctionTemplateDecl *T = FD->getPrimaryTemplate())
      return T->getTemplatedDecl();
    return FD;
  }
  /// Sub-group functions need only the sub-group to converge, which the
  /// work-item uniformity analysis cannot tell apart.
  static bool onSubGroup(const FunctionDecl *FD) {
    if (FD->getNumParams() == 0)
      return false;
    const CXXRecordDecl *RD =
        FD->getParamDecl(0)->getType().getNonReferenceType()->getAsCXXRecordDecl();
    return RD && RD->getIdentifier() && RD->getName() == "sub_group";
  }

  bool addGroupLocal(const CallExpr *CE, const FunctionDecl *Callee,
                     const FunctionDecl *Fn) {
    // The lowered form passes a site tag first; the model describes the
    // call as written, so only un-lowered calls appear here.
    const TemplateArgumentList *Args = Callee->getTemplateSpecializationArgs();
    if (!Args || Args->size() < 1 || Args->get(0).getKind() != TemplateArgument::Type)
      return true;
    GroupLocalVar G;
    G.Dialect = DialectKind::Sycl;
    G.Call = CE;
    G.Function = Fn;
    G.Type = Args->get(0).getAsType();
    G.Keyword = keywordRange(SM, CE->getCallee()->getBeginLoc());
    G.Init = GroupLocalInit::OnceByOneItem;
    if (!G.Type->isDependentType() && !G.Type->isIncompleteType()) {
      G.SizeInBytes = Ctx.getTypeSizeInChars(G.Type).getQuantity();
      G.Alignment = Ctx.getTypeAlignInChars(G.Type).getQuantity();
    }
    Model.GroupLocals.push_back(G);
    return true;
  }

  /// IfNew: a launch in an instantiation, unless the template's own launch
  /// (same place, same kernel function) is in the model already.
  bool addKernel(const CallExpr *CE, bool NdRange, bool IfNew = false) {
    if (CE->getNumArgs() < 1)
      return true;
    Kernel K;
    K.Dialect = DialectKind::Sycl;
    K.Launch = CE;
    const Expr *Arg = CE->getArg(CE->getNumArgs() - 1);
    K.Body = functorBody(Arg->getType());
    if (IfNew && K.Body)
      for (Kernel &Known : Model.Kernels)
        if (Known.Dialect == DialectKind::Sycl &&
            (Known.Launch->getBeginLoc() == CE->getBeginLoc() ||
             patternOf(Known.Body) == patternOf(K.Body))) {
          if (Known.Body != K.Body && !llvm::is_contained(Known.OtherInstances, K.Body))
            Known.OtherInstances.push_back(K.Body);
          return true;
        }
    K.UsesWorkGroups = NdRange;
    if (NdRange)
      for (const Expr *A : CE->arguments())
        if (staticLocalRange(A, K.Shape))
          break;
    if (K.Body)
      Model.Kernels.push_back(K);
    return true;
  }

  static const FunctionDecl *patternOf(const FunctionDecl *FD) {
    if (!FD)
      return nullptr;
    if (const FunctionDecl *P = FD->getTemplateInstantiationPattern())
      return P;
    return FD;
  }

  /// The work-group shape of an nd_range written in the launch with a
  /// constant local range: `nd_range<2>(global, range<2>(16, 16))`,
  /// `nd_range<1>{n, 64}`.
  bool staticLocalRange(const Expr *E, GroupShape &Shape) const {
    const auto *CE = dyn_cast<CXXConstructExpr>(constructed(E));
    if (!CE || !isSyclClass(CE->getType(), "nd_range") || CE->getNumArgs() < 2)
      return false;
    const auto *Local = dyn_cast<CXXConstructExpr>(constructed(CE->getArg(1)));
    if (!Local || !isSyclClass(Local->getType(), "range") ||
        Local->getNumArgs() < 1 || Local->getNumArgs() > 3)
      return false;
    GroupShape S;
    S.Rank = Local->getNumArgs();
    for (unsigned I = 0; I < S.Rank; ++I) {
      const Expr *A = Local->getArg(I);
      std::optional<llvm::APSInt> V;
      if (!A->isValueDependent())
        V = A->getIntegerConstantExpr(Ctx);
      if (!V || V->isNegative() || V->getActiveBits() > 31 || V->isZero())
        return false;
      S.Size[I] = uint32_t(V->getZExtValue());
    }
    S.Static = true;
    Shape = S;
    return true;
  }

  /// The construction `E` amounts to, through temporaries, conversions and
  /// copies.
  static const Expr *constructed(const Expr *E) {
    for (unsigned Guard = 0; Guard < 16; ++Guard) {
      E = E->IgnoreParens();
      if (const auto *FE = dyn_cast<FullExpr>(E))
        E = FE->getSubExpr();
      else if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(E))
        E = MT->getSubExpr();
      else if (const auto *BT = dyn_cast<CXXBindTemporaryExpr>(E))
        E = BT->getSubExpr();
      else if (const auto *C = dyn_cast<CastExpr>(E);
               C && (C->getCastKind() == CK_NoOp ||
                     C->getCastKind() == CK_ConstructorConversion))
        E = C->getSubExpr();
      else if (const auto *CE = dyn_cast<CXXConstructExpr>(E);
               CE && CE->getNumArgs() == 1 && CE->getConstructor() &&
               (CE->getConstructor()->isCopyConstructor() ||
                CE->getConstructor()->isMoveConstructor()))
        E = CE->getArg(0);
      else
        return E;
    }
    return E;
  }

  static bool isSyclClass(QualType T, llvm::StringRef Name) {
    const CXXRecordDecl *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
    return RD && RD->getIdentifier() && RD->getName() == Name &&
           inSyclNamespace(RD);
  }

  ASTContext &Ctx;
  const SourceManager &SM;
  ProgramModel &Model;
};

/// The SYCL kernel attributes of the translation unit, on lambdas and on
/// functors' call operators, in template instantiations too (a dependent
/// argument is attached only there, and a kernel launched in a template has
/// no callee the kernel visitor could follow).
class KernelAttributeVisitor : public RecursiveASTVisitor<KernelAttributeVisitor> {
public:
  explicit KernelAttributeVisitor(ProgramModel &Model) : Model(Model) {}
  bool shouldVisitTemplateInstantiations() const { return true; }

  bool VisitLambdaExpr(LambdaExpr *LE) {
    addAll(LE->getCallOperator(), LE, nullptr);
    // A generic lambda's pattern (return type `auto`) loses the type's
    // attributes; its specialisations keep them.
    if (const FunctionTemplateDecl *T = LE->getDependentCallOperator())
      for (const FunctionDecl *Spec : T->specializations())
        addAll(Spec, LE, nullptr);
    return true;
  }
  bool VisitCXXMethodDecl(CXXMethodDecl *MD) {
    if (MD->getOverloadedOperator() == OO_Call && !MD->getParent()->isLambda())
      addAll(MD, nullptr, MD);
    return true;
  }

private:
  /// The annotations the attributes became: the pre-pass respells each as
  /// an annotation of the call operator or of its type (KernelAttributes.h).
  void addAll(const FunctionDecl *Body, const LambdaExpr *LE, const CXXMethodDecl *MD) {
    for (const auto *A : Body->specific_attrs<AnnotateAttr>())
      if (std::optional<KernelAttributeKind> Kind = kindOf(A->getAnnotation(), false))
        add(*Kind, A, A->args_begin(), A->args_end(), LE, MD);
    // The function type's attributes (the type, not its TypeLoc: a
    // lambda instantiated from a template keeps them only there).
    for (QualType T = Body->getType(); !T.isNull();) {
      const auto *AT = T->getAs<AttributedType>();
      if (!AT)
        break;
      if (const auto *A = dyn_cast_or_null<AnnotateTypeAttr>(AT->getAttr()))
        if (std::optional<KernelAttributeKind> Kind = kindOf(A->getAnnotation(), true))
          add(*Kind, A, A->args_begin(), A->args_end(), LE, MD);
      T = AT->getModifiedType();
    }
  }

  static std::optional<KernelAttributeKind> kindOf(StringRef Annotation, bool OnType) {
    for (KernelAttributeKind K :
         {KernelAttributeKind::RequiredSubGroupSize, KernelAttributeKind::RequiredWorkGroupSize,
          KernelAttributeKind::WorkGroupSizeHint})
      if (Annotation == kernelAttributeAnnotation(K, OnType) ||
          Annotation == kernelAttributeAnnotation(K, OnType, /*Short=*/true))
        return K;
    return std::nullopt;
  }

  void add(KernelAttributeKind Kind, const Attr *A, Expr *const *Begin, Expr *const *End,
           const LambdaExpr *LE, const CXXMethodDecl *MD) {
    for (const KernelAttributeUse &U : Model.KernelAttributes)
      if (U.Attr.getBegin() == A->getRange().getBegin())
        return; // another instantiation, or a redeclaration's inherited copy
    KernelAttributeUse U;
    U.Kind = Kind;
    U.Args.assign(Begin, End);
    U.Attr = A->getRange();
    U.Lambda = LE;
    U.CallOperator = MD;
    Model.KernelAttributes.push_back(U);
  }

  ProgramModel &Model;
};

class SyclModelBuilder : public ModelBuilder {
public:
  void build(ASTContext &Ctx, ProgramModel &Model) override {
    SyclVisitor V(Ctx, Model);
    V.TraverseDecl(Ctx.getTranslationUnitDecl());
    SyclVisitor Instantiations(Ctx, Model);
    Instantiations.visitInstantiations();
    Instantiations.TraverseDecl(Ctx.getTranslationUnitDecl());
    V.addInstantiatedGroupLocals();
    KernelAttributeVisitor(Model).TraverseDecl(Ctx.getTranslationUnitDecl());
  }
};

} // namespace

std::unique_ptr<ModelBuilder> createSyclModelBuilder() {
  return std::make_unique<SyclModelBuilder>();
}

} // namespace slmc
