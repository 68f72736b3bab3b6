//===- CmLowering.cpp - C for Metal kernels to offload C++ ----------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// CM kernels are launched by name from host code (<cm_rt.h>), so each one
// keeps its extern "C" name as the device entry point:
//
//   extern "C" _GENX_MAIN_ void k(SurfaceIndex s, int n) { body }
// ->
//   extern "C" SLMC_HD void slmc_cm_body_k(SurfaceIndex s, int n) { body }
//   ...
//   extern "C" SLMC_KERNEL void k(SurfaceIndex a0, int a1)      // devices
//   { [[clang::always_inline]] slmc_cm_body_k(a0, a1); }
//   extern "C" void slmc_cm_cpu_k(void **args)                  // CPU fallback
//   { slmc_cm_body_k(*(SurfaceIndex *)args[0], *(int *)args[1]); }
//   extern "C" int slmc_cm_group_k(void **args)                 // as loops
//   { if (!slmc_cpu_work_item_loops(nullptr)) return 0; slmc_cm_body_k(...); return 1; }
//
//   cm_slm_init(N)  ->  cm_slm_init(::slmc::cm_slm_size<(N)>{}, slmc_site<K>{})
//
// A per-thread global (`_GENX_` on a file-scope variable, see
// Model/CmThreadGlobals.h) becomes a variable of each kernel body that
// needs it, passed by reference as a leading parameter to each function
// between the body and its uses, under a name of its own:
//
//   _GENX_ int hits = 1;             ->  int hits = 1;   (host code's, if any)
//   _GENX_ void bump() { ++hits; }   ->  void bump(int &slmc_cm_thread_0_hits)
//                                        { ++slmc_cm_thread_0_hits; }
//   ... _GENX_MAIN_ void k(...) {    ->  void slmc_cm_body_k(...) {
//     bump(); }                            int slmc_cm_thread_0_hits = 1;
//                                          bump(slmc_cm_thread_0_hits); }
//
// and every function the kernels call becomes host-and-device.
//
//===----------------------------------------------------------------------===//
#include "Lowering/Lowering.h"

#include "Model/CmThreadGlobals.h"
#include "Model/ModelBuilder.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include "llvm/ADT/DenseSet.h"

#include <cstring>
#include <set>

using namespace clang;

namespace slmc {
namespace {

/// Whether a kernel parameter carries an SVM address: an svmptr_t (seen
/// through its typedef, as the runtime must move such addresses into
/// device copies of the caller's memory) or a pointer.
bool isSvmAddress(QualType T) {
  if (T->isPointerType())
    return true;
  for (const TypedefType *TT = T->getAs<TypedefType>(); TT;
       TT = TT->desugar()->getAs<TypedefType>())
    if (TT->getDecl()->getName() == "svmptr_t")
      return true;
  return false;
}

class CmLowering : public DialectLowering {
public:
  void lower(const ProgramModel &Model, LoweringContext &L) override {
    ASTContext &Ctx = L.astContext();
    for (const Kernel &K : Model.Kernels)
      if (K.Dialect == DialectKind::Cm)
        lowerKernel(Ctx, Model, K, L);
    for (const GroupLocalVar &G : Model.GroupLocals) {
      if (G.Dialect != DialectKind::Cm || !G.Call || G.Call->getNumArgs() != 1)
        continue;
      L.addPrologue("namespace { template <int N> struct slmc_site : ::slmc::site_base {}; }");
      const Expr *Size = G.Call->getArg(0);
      L.insertBefore(Size->getBeginLoc(), "::slmc::cm_slm_size<(");
      L.insertAfterToken(Size->getEndLoc(),
                         ")>{}, slmc_site<" + std::to_string(L.nextSite()) + ">{}");
    }
    CmThreadGlobals Globals = findCmThreadGlobals(Ctx, Model);
    if (!Globals.empty())
      lowerThreadGlobals(Ctx, Model, Globals, L);
  }

private:
  void lowerThreadGlobals(ASTContext &Ctx, const ProgramModel &Model,
                          const CmThreadGlobals &G, LoweringContext &L) {
    const SourceManager &SM = Ctx.getSourceManager();
    PrintingPolicy Policy = Ctx.getPrintingPolicy();
    Policy.FullyQualifiedName = true;
    Policy.SuppressScope = false;
    auto declare = [&](QualType T, const std::string &Name) {
      std::string Text;
      llvm::raw_string_ostream OS(Text);
      T.print(OS, Policy, Name);
      return Text;
    };
    auto joined = [&](llvm::ArrayRef<const VarDecl *> Vars, auto Each) {
      std::string Text;
      for (const VarDecl *V : Vars)
        Text += (Text.empty() ? "" : ", ") + Each(V);
      return Text;
    };

    // The global itself keeps what host code may use, without `_GENX_`.
    for (const VarDecl *V : G.Vars)
      for (const VarDecl *D : V->redecls())
        if (const AnnotateAttr *A = findAnnotation(D, "slmc.hd"))
          L.replace(keywordRange(SM, A->getLocation()), "");

    // Each kernel body's copies, initialised as the globals are.
    llvm::DenseSet<const FunctionDecl *> Bodies;
    for (const Kernel &K : Model.Kernels) {
      const FunctionDecl *Def = nullptr;
      if (K.Dialect != DialectKind::Cm || !K.Body->hasBody(Def))
        continue;
      Bodies.insert(writtenFunction(Def));
      auto It = G.Needs.find(writtenFunction(Def));
      const auto *Body = dyn_cast<CompoundStmt>(Def->getBody());
      if (It == G.Needs.end() || !Body)
        continue;
      std::string Decls;
      for (const VarDecl *V : It->second) {
        std::string Init = initializer(Ctx, V), Name = G.localName(V);
        if (!Init.empty()) {
          Decls += " " + declare(V->getType(), Name) + Init + ";";
          continue;
        }
        std::string T = V->getType().getAsString(Policy);
        Decls += " ::slmc::cm::thread_global<" + T + " > " + Name + "_storage; " +
                 declare(Ctx.getLValueReferenceType(V->getType()), Name) + " = " + Name +
                 "_storage.start();";
      }
      L.insertAfterToken(Body->getLBracLoc(), Decls);
    }

    // Parameters of the functions between the bodies and the uses.
    for (const auto &[F, Vars] : G.Needs) {
      if (Bodies.count(F))
        continue;
      std::string Params = joined(Vars, [&](const VarDecl *V) {
        return declare(Ctx.getLValueReferenceType(V->getType()), G.localName(V));
      });
      for (const FunctionDecl *D : F->redecls()) {
        if (!L.isUserFile(D->getLocation()))
          continue;
        if (D->getNumParams()) {
          L.insertBefore(D->getParamDecl(0)->getBeginLoc(), Params + ", ");
          continue;
        }
        FunctionTypeLoc FTL = D->getFunctionTypeLoc();
        if (!FTL)
          continue;
        // `f(void)` has no parameter to go before.
        CharSourceRange Inside = CharSourceRange::getCharRange(
            FTL.getLParenLoc().getLocWithOffset(1), FTL.getRParenLoc());
        if (Lexer::getSourceText(Inside, SM, Ctx.getLangOpts()).trim() == "void")
          L.replace(SourceRange(FTL.getLParenLoc(), FTL.getRParenLoc()), "(" + Params + ")");
        else
          L.insertBefore(FTL.getRParenLoc(), Params);
      }
    }

    // The calls pass them on; the uses name them.
    for (const CmThreadGlobals::Call &C : G.Calls) {
      std::string Args = joined(G.Needs.find(C.Callee)->second,
                                [&](const VarDecl *V) { return G.localName(V); });
      const CallExpr *CE = C.Site;
      if (CE->getNumArgs() && !isa<CXXDefaultArgExpr>(CE->getArg(0)))
        L.insertBefore(CE->getArg(0)->getBeginLoc(), Args + ", ");
      else
        L.insertBefore(CE->getRParenLoc(), Args);
    }
    for (const DeclRefExpr *Use : G.Uses)
      L.replace(Use->getSourceRange(), G.localName(cast<VarDecl>(Use->getDecl())));
  }

  /// `_GENX_` functions are inlined into the kernels, as cmc inlines them
  /// (and `_GENX_STACKCALL_` ones are not).
  void inlineGenxFunction(ASTContext &Ctx, const FunctionDecl *FD, LoweringContext &L) {
    const SourceManager &SM = Ctx.getSourceManager();
    if (const FunctionDecl *P = FD->getTemplateInstantiationPattern())
      FD = P;
    for (const FunctionDecl *D : FD->redecls()) {
      SourceLocation Loc = D->getInnerLocStart();
      if (!findAnnotation(D, "slmc.cm.genx") || Loc.isInvalid() ||
          !L.isUserFile(Loc) || !Inlined.insert(SM.getExpansionLoc(Loc)).second)
        continue;
      L.insertBefore(SM.getExpansionLoc(Loc), "__attribute__((always_inline)) ");
    }
  }

  /// The global's initializer as written (`= 1`, `{1, 2}`, `(3)`), or
  /// nothing.
  static std::string initializer(ASTContext &Ctx, const VarDecl *V) {
    const SourceManager &SM = Ctx.getSourceManager();
    if (!V->getInit())
      return "";
    // From the end of the declarator (its name, or its array bounds) to
    // the end of the declaration.
    SourceLocation After = SM.getFileLoc(V->getLocation());
    if (const TypeSourceInfo *TSI = V->getTypeSourceInfo()) {
      SourceLocation TypeEnd = SM.getFileLoc(TSI->getTypeLoc().getEndLoc());
      if (SM.isBeforeInTranslationUnit(After, TypeEnd))
        After = TypeEnd;
    }
    SourceLocation Begin =
        Lexer::getLocForEndOfToken(After, 0, SM, Ctx.getLangOpts());
    SourceLocation End = Lexer::getLocForEndOfToken(SM.getFileLoc(V->getEndLoc()), 0, SM,
                                                    Ctx.getLangOpts());
    return Lexer::getSourceText(CharSourceRange::getCharRange(Begin, End), SM,
                                Ctx.getLangOpts())
        .str();
  }

  /// Makes a declaration of a kernel template (or of an explicit
  /// specialisation) host and device code without writing the attributes:
  /// its explicit instantiations, written without them, must match it.
  static void makeImplicitlyDeviceCode(ASTContext &Ctx, const FunctionDecl *D,
                                       LoweringContext &L) {
    const SourceManager &SM = Ctx.getSourceManager();
    SourceLocation Begin = SM.getExpansionLoc(
        D->getDescribedFunctionTemplate()
            ? D->getDescribedFunctionTemplate()->getBeginLoc()
            : D->getOuterLocStart());
    SourceLocation End = SM.getExpansionLoc(D->getEndLoc());
    if (!D->doesThisDeclarationHaveABody()) {
      // After the declaration's semicolon: a pragma inside it is an error.
      Token Semi;
      SourceLocation Next = Lexer::getLocForEndOfToken(End, 0, SM, Ctx.getLangOpts());
      if (Lexer::getRawToken(Next, Semi, SM, Ctx.getLangOpts(), /*IgnoreWhiteSpace=*/true) ||
          !Semi.is(tok::semi))
        return;
      End = Semi.getLocation();
    }
    if (const AnnotateAttr *A = findAnnotation(D, "slmc.cm.kernel"))
      L.replace(keywordRange(SM, A->getLocation()), "");
    L.insertBefore(Begin, "SLMC_HD_BEGIN ");
    L.insertAfterToken(End, " SLMC_HD_END");
  }

  std::set<SourceLocation> Inlined;
  /// Kernel templates (and explicit specialisations) already made device
  /// code.
  std::set<const FunctionDecl *> DeviceTemplates;

  void lowerKernel(ASTContext &Ctx, const ProgramModel &Model, const Kernel &K,
                   LoweringContext &L) {
    const FunctionDecl *FD = K.Body;
    PrintingPolicy Policy = Ctx.getPrintingPolicy();
    Policy.FullyQualifiedName = true;
    Policy.SuppressScope = false;
    // Name: what the host asks for; Symbol: the entry points' name;
    // Body: what they call.
    std::string Name, Symbol, Body;
    if (FD->getPrimaryTemplate()) {
      // An instance of a kernel template keeps its name; the host names it
      // with its template arguments, as Intel's compiler does ("k<16, 16>").
      llvm::raw_string_ostream NameOS(Name), BodyOS(Body);
      FD->getNameForDiagnostic(NameOS, Ctx.getPrintingPolicy(), /*Qualified=*/false);
      FD->getNameForDiagnostic(BodyOS, Policy, /*Qualified=*/true);
      // Members of an unnamed namespace are found through the global one.
      for (size_t At; (At = Body.find("(anonymous namespace)::")) != std::string::npos;)
        Body.erase(At, std::strlen("(anonymous namespace)::"));
      Body = "::" + Body;
      Symbol = "slmc_cm_" + FD->getNameAsString() + "_" + std::to_string(L.nextSite());
      const FunctionDecl *Written =
          FD->getTemplateSpecializationKind() == TSK_ExplicitSpecialization
              ? FD
              : FD->getTemplateInstantiationPattern();
      for (const FunctionDecl *D : Written->redecls())
        if (DeviceTemplates.insert(D).second)
          makeImplicitlyDeviceCode(Ctx, D, L);
    } else {
      Name = Symbol = FD->getNameAsString();
      Body = "slmc_cm_body_" + Name;
      for (const FunctionDecl *D : FD->redecls()) {
        if (const AnnotateAttr *A = findAnnotation(D, "slmc.cm.kernel"))
          L.replace(keywordRange(Ctx.getSourceManager(), A->getLocation()), "SLMC_HD");
        L.replace(SourceRange(D->getLocation(), D->getLocation()), Body);
      }
    }

    std::string Params, Args, CpuArgs, Signature = Symbol + "(";
    for (unsigned I = 0; I < FD->getNumParams(); ++I) {
      QualType T = FD->getParamDecl(I)->getType();
      std::string TS = T.getAsString(Policy), A = "a" + std::to_string(I);
      std::string Sep = I ? ", " : "";
      Params += Sep + TS + " " + A;
      Args += Sep + A;
      CpuArgs += Sep + "*static_cast<" + TS + " *>(args[" + std::to_string(I) + "])";
      const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
      Signature += (I ? "," : "") +
                   (RD && RD->getName() == "SurfaceIndex" ? std::string("surface")
                    : isSvmAddress(T)
                        ? std::string("svm")
                        : "value" + std::to_string(
                                        Ctx.getTypeSizeInChars(T).getQuantity()));
    }
    Signature += ")";
    if (Name != Symbol && Name.find(';') == std::string::npos)
      Signature += "=" + Name;
    L.addProgramKernel(Signature);
    // The body is inlined into the entry point, as Intel's compiler inlines
    // every function of a kernel: a call keeps the kernel's arguments (its
    // surfaces) behind by-value objects the argument split cannot reach.
    L.addEpilogue("extern \"C\" SLMC_KERNEL void " + Symbol + "(" + Params +
                  ") { [[clang::always_inline]] " + Body + "(" + Args + "); }\n");
    L.addEpilogue("extern \"C\" void slmc_cm_cpu_" + Symbol + "(void **args) { " +
                  (FD->getNumParams() ? "" : "(void)args; ") + Body + "(" +
                  CpuArgs + "); }\n");
    // The thread group as loops over its threads (slmc_cpu_group_fn).
    L.addEpilogue("extern \"C\" int slmc_cm_group_" + Symbol + "(void **args) { " +
                  (FD->getNumParams() ? "" : "(void)args; ") +
                  "if (!slmc_cpu_work_item_loops(nullptr)) return 0; " + Body + "(" +
                  CpuArgs + "); return 1; }\n");
    for (const auto &[Fn, Edge] : Model.reachableFrom(FD))
      if (Fn != FD) {
        L.makeDeviceCallable(Fn);
        inlineGenxFunction(Ctx, Fn, L);
      }
  }
};

} // namespace

std::unique_ptr<DialectLowering> createCmLowering() {
  return std::make_unique<CmLowering>();
}

} // namespace slmc
