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
#include "Frontend/PrepassFileSystem.h"
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
  CheckAction(const Toolchain &TC, const Options &Opts, llvm::StringRef Source,
              llvm::IntrusiveRefCntPtr<PrepassFileSystem> FS, LoweredSource *Lowered)
      : TC(TC), Opts(Opts), Source(Source), FS(std::move(FS)), Lowered(Lowered) {}

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 llvm::StringRef) override {
    injectPrelude(CI, TC.ResourceInclude);
    reportPrepassErrors(CI, FS);
    CheckOptions CO;
    CO.GroupMemoryLimit = Opts.GroupMemoryLimit;
    SlmcConsumer::ModelCallback OnModel;
    if (Lowered)
      OnModel = [this](ASTContext &Ctx, const ProgramModel &Model, Reporter &R) {
        lower(Ctx, Model, R);
      };
    return std::make_unique<SlmcConsumer>(CI, CO, std::move(OnModel));
  }

private:
  void lower(ASTContext &Ctx, const ProgramModel &Model, Reporter &R) {
    LoweringContext L(Ctx, R);
    std::vector<PrepassFileSystem::Entry> Prepassed = FS->rewritten();
    // `[:]` calls extent_of, which needs no include with Intel's compiler.
    for (const PrepassFileSystem::Entry &E : Prepassed)
      if (E.NeedsCilkHeader)
        L.addPrologue("#include <slmc/detail/array_notation.h>");
    if (!lowerProgram(Model, L))
      return;
    LoweredOutput Out = L.output(Source);
    if (Ctx.getDiagnostics().hasErrorOccurred())
      return;
    // Headers with array notation but nothing to lower are read rewritten
    // too (the main file's lowered text is already the rewritten one).
    std::optional<PrepassFileSystem::Entry> Main = FS->lookup(Source);
    for (PrepassFileSystem::Entry &E : Prepassed) {
      bool Known = (Main && Main->Path == E.Path) ||
                   llvm::any_of(Out.Headers,
                                [&](const LoweredFile &F) { return F.Path == E.Path; });
      if (E.Changed && !Known)
        Out.Headers.push_back({E.Path, std::move(E.Text)});
    }
    Lowered->Files = std::move(Out);
    Lowered->ProgramKernels = L.programKernels();
  }

  const Toolchain &TC;
  const Options &Opts;
  std::string Source;
  llvm::IntrusiveRefCntPtr<PrepassFileSystem> FS;
  LoweredSource *Lowered;
};

} // namespace

bool runCheckPass(const Toolchain &TC, const Options &Opts,
                  llvm::StringRef Source, LoweredSource *Lowered) {
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
  // Every user file is read with its array notation rewritten.
  auto FS = llvm::makeIntrusiveRefCnt<PrepassFileSystem>(VFS);
  FS->addSystemDirectories(Inv->getHeaderSearchOpts());
  FS->addSystemDirectory(TC.ResourceInclude);
  CompilerInstance CI(std::move(Inv));
  CI.createVirtualFileSystem(FS);
  CI.createDiagnostics();
  for (const std::string &W : Opts.SlmcWarnings)
    CI.getDiagnosticOpts().Warnings.push_back(W.substr(2));
  CheckAction Action(TC, Opts, Source, FS, Lowered);
  // As in cc1: success is what the diagnostic client counted, so that
  // -verify turns expected errors into success.
  return CI.ExecuteAction(Action);
}

} // namespace slmc::driver
