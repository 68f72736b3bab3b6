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
// and every function the kernels call becomes host-and-device.
//
//===----------------------------------------------------------------------===//
#include "Lowering/Lowering.h"

#include "Model/ModelBuilder.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"

using namespace clang;

namespace slmc {
namespace {

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
  }

private:
  void lowerKernel(ASTContext &Ctx, const ProgramModel &Model, const Kernel &K,
                   LoweringContext &L) {
    const FunctionDecl *FD = K.Body;
    std::string Name = FD->getNameAsString();
    std::string Body = "slmc_cm_body_" + Name;
    for (const FunctionDecl *D : FD->redecls()) {
      if (const AnnotateAttr *A = findAnnotation(D, "slmc.cm.kernel"))
        L.replace(keywordRange(Ctx.getSourceManager(), A->getLocation()), "SLMC_HD");
      L.replace(SourceRange(D->getLocation(), D->getLocation()), Body);
    }

    PrintingPolicy Policy = Ctx.getPrintingPolicy();
    Policy.FullyQualifiedName = true;
    Policy.SuppressScope = false;
    std::string Params, Args, CpuArgs, Signature = Name + "(";
    for (unsigned I = 0; I < FD->getNumParams(); ++I) {
      QualType T = FD->getParamDecl(I)->getType();
      std::string TS = T.getAsString(Policy), A = "a" + std::to_string(I);
      std::string Sep = I ? ", " : "";
      Params += Sep + TS + " " + A;
      Args += Sep + A;
      CpuArgs += Sep + "*static_cast<" + TS + " *>(args[" + std::to_string(I) + "])";
      const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
      Signature += (I ? "," : "") +
                   (RD && RD->getName() == "SurfaceIndex"
                        ? std::string("surface")
                        : "value" + std::to_string(
                                        Ctx.getTypeSizeInChars(T).getQuantity()));
    }
    Signature += ")";
    L.addProgramKernel(Signature);
    // The body is inlined into the entry point, as Intel's compiler inlines
    // every function of a kernel: a call keeps the kernel's arguments (its
    // surfaces) behind by-value objects the argument split cannot reach.
    L.addEpilogue("extern \"C\" SLMC_KERNEL void " + Name + "(" + Params +
                  ") { [[clang::always_inline]] " + Body + "(" + Args + "); }\n");
    L.addEpilogue("extern \"C\" void slmc_cm_cpu_" + Name + "(void **args) { " +
                  (FD->getNumParams() ? "" : "(void)args; ") + Body + "(" +
                  CpuArgs + "); }\n");
    // The thread group as loops over its threads (slmc_cpu_group_fn).
    L.addEpilogue("extern \"C\" int slmc_cm_group_" + Name + "(void **args) { " +
                  (FD->getNumParams() ? "" : "(void)args; ") +
                  "if (!slmc_cpu_work_item_loops(nullptr)) return 0; " + Body + "(" +
                  CpuArgs + "); return 1; }\n");
    for (const auto &[Fn, Edge] : Model.reachableFrom(FD))
      if (Fn != FD)
        L.makeDeviceCallable(Fn);
  }
};

} // namespace

std::unique_ptr<DialectLowering> createCmLowering() {
  return std::make_unique<CmLowering>();
}

} // namespace slmc
