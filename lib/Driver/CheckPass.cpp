//===- CheckPass.cpp - The in-process front end of slmc++ -----------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Parses one source exactly as `clang++ -fsyntax-only` would (the clang
// driver builds the invocation, so every diagnostic flag behaves as in
// clang), with the same prelude and checkers as the plugin, then lowers it.
//
//===----------------------------------------------------------------------===//
#include "Driver/CheckPass.h"

#include "Frontend/Frontend.h"
#include "Lowering/Lowering.h"

#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Driver/CreateInvocationFromArgs.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/FrontendAction.h"
#include "llvm/Support/VirtualFileSystem.h"

using namespace clang;

namespace slmc::driver {
namespace {

class CheckAction : public ASTFrontendAction {
public:
  CheckAction(const Toolchain &TC, const Options &Opts, llvm::StringRef PresumedName,
              LoweredSource *Lowered)
      : TC(TC), Opts(Opts), PresumedName(PresumedName), Lowered(Lowered) {}

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 llvm::StringRef) override {
    injectPrelude(CI, TC.ResourceInclude);
    CheckOptions CO;
    CO.GroupMemoryLimit = Opts.GroupMemoryLimit;
    SlmcConsumer::ModelCallback OnModel;
    if (Lowered)
      OnModel = [this](ASTContext &Ctx, const ProgramModel &Model, Reporter &R) {
        LoweringContext L(Ctx, R);
        if (lowerProgram(Model, L)) {
          Lowered->Text = L.output(PresumedName);
          Lowered->ProgramKernels = L.programKernels();
        }
      };
    return std::make_unique<SlmcConsumer>(CI, CO, std::move(OnModel));
  }

private:
  const Toolchain &TC;
  const Options &Opts;
  std::string PresumedName;
  LoweredSource *Lowered;
};

} // namespace

bool runCheckPass(const Toolchain &TC, const Options &Opts,
                  llvm::StringRef Source, LoweredSource *Lowered,
                  llvm::StringRef PresumedName) {
  std::vector<std::string> Args = {TC.Clang, "-fsyntax-only", "-x", "c++"};
  Args.insert(Args.end(), Opts.CommonFlags.begin(), Opts.CommonFlags.end());
  Args.insert(Args.end(), Opts.HostFlags.begin(), Opts.HostFlags.end());
  if (!Opts.OptLevel.empty())
    Args.push_back(Opts.OptLevel);
  Args.push_back(Source.str());
  std::vector<const char *> Argv;
  for (const std::string &A : Args)
    Argv.push_back(A.c_str());

  auto VFS = llvm::vfs::getRealFileSystem();
  DiagnosticOptions DriverDiagOpts;
  IntrusiveRefCntPtr<DiagnosticsEngine> DriverDiags =
      CompilerInstance::createDiagnostics(*VFS, DriverDiagOpts);
  CreateInvocationOptions CIOpts;
  CIOpts.Diags = DriverDiags;
  CIOpts.VFS = VFS;
  std::shared_ptr<CompilerInvocation> Inv = createInvocation(Argv, CIOpts);
  if (!Inv)
    return false;
  // slmc's warning groups are not clang's: keep them away from clang's
  // option processing (which would call them unknown) but in the options
  // our reporter reads.
  CompilerInstance CI(std::move(Inv));
  CI.createVirtualFileSystem(VFS);
  CI.createDiagnostics();
  for (const std::string &W : Opts.SlmcWarnings)
    CI.getDiagnosticOpts().Warnings.push_back(W.substr(2));
  CheckAction Action(TC, Opts, PresumedName.empty() ? Source : PresumedName, Lowered);
  // As in cc1: success is what the diagnostic client counted, so that
  // -verify turns expected errors into success.
  return CI.ExecuteAction(Action);
}

} // namespace slmc::driver
