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
#include "Prepass/PrepassFileSystem.h"
#include "Lowering/Lowering.h"

#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Driver/CreateInvocationFromArgs.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/FrontendTool/Utils.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"
#include "llvm/Support/VirtualFileSystem.h"

using namespace clang;

namespace slmc::driver {
namespace {

/// Notes any test or use of `__GFX__`, the macro whose value differs between
/// ICC's host and offload compilations.
class GfxMacroUses : public PPCallbacks {
public:
  explicit GfxMacroUses(bool &Seen) : Seen(Seen) {}
  void Ifdef(SourceLocation, const Token &Name, const MacroDefinition &) override {
    note(Name);
  }
  void Ifndef(SourceLocation, const Token &Name, const MacroDefinition &) override {
    note(Name);
  }
  void Elifdef(SourceLocation, const Token &Name, const MacroDefinition &) override {
    note(Name);
  }
  void Elifndef(SourceLocation, const Token &Name, const MacroDefinition &) override {
    note(Name);
  }
  void Defined(const Token &Name, const MacroDefinition &, SourceRange) override {
    note(Name);
  }
  void MacroExpands(const Token &Name, const MacroDefinition &, SourceRange,
                    const MacroArgs *) override {
    note(Name);
  }

private:
  void note(const Token &Name) {
    if (const IdentifierInfo *II = Name.getIdentifierInfo())
      if (II->getName() == "__GFX__")
        Seen = true;
  }
  bool &Seen;
};

/// Where C++ AMP's `restrict(...)` is written, as the prelude's macro
/// expands it. The AST has a restriction only for what Clang parsed: a
/// function template body that delayed template parsing never parsed (its
/// call resolved to an overload restricted otherwise, as the check pass
/// prefers amp ones) has lambdas the later passes may still parse.
class RestrictSpellings : public PPCallbacks {
public:
  explicit RestrictSpellings(std::vector<SourceRange> &Out) : Out(Out) {}
  void MacroExpands(const Token &Name, const MacroDefinition &, SourceRange Range,
                    const MacroArgs *) override {
    if (const IdentifierInfo *II = Name.getIdentifierInfo())
      if (II->getName() == "restrict" && Range.getBegin().isFileID() &&
          Range.getEnd().isFileID())
        Out.push_back(Range);
  }

private:
  std::vector<SourceRange> &Out;
};

class CheckAction : public ASTFrontendAction {
public:
  CheckAction(const Toolchain &TC, const Options &Opts, llvm::StringRef Source,
              llvm::IntrusiveRefCntPtr<PrepassFileSystem> FS, LoweredSource *Lowered)
      : TC(TC), Opts(Opts), Source(Source), FS(std::move(FS)), Lowered(Lowered) {}

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 llvm::StringRef) override {
    injectPrelude(CI, TC.ResourceInclude);
    if (Lowered) {
      CI.getPreprocessor().addPPCallbacks(
          std::make_unique<GfxMacroUses>(Lowered->TestsGfxMacro));
      CI.getPreprocessor().addPPCallbacks(std::make_unique<RestrictSpellings>(Restricts));
    }
    reportPrepassErrors(CI, FS);
    CheckOptions CO;
    CO.GroupMemoryLimit = Opts.GroupMemoryLimit;
    CO.DeviceCode = Opts.Spirv || Opts.Ptx;
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
    L.setRestrictSpellings(Restricts);
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
  std::vector<SourceRange> Restricts; // filled while the source is read
};

} // namespace

namespace {

/// The dependency flags of the check pass, which runs with -fsyntax-only
/// and so cannot derive clang's defaults from the object file: with -MD or
/// -MMD the file is <output>.d (else <stem>.d) and the target <output>
/// (else <stem>.o), as clang++ would write them.
std::vector<std::string> checkPassDependencyFlags(const Options &Opts,
                                                  llvm::StringRef Source) {
  std::vector<std::string> Flags = Opts.DepFlags;
  auto Has = [&](llvm::StringRef F) { return llvm::is_contained(Flags, F); };
  if (!Has("-MD") && !Has("-MMD"))
    return Flags;
  llvm::SmallString<256> Stem(llvm::sys::path::stem(Source));
  if (!Has("-MF")) {
    llvm::SmallString<256> File(Stem);
    if (Opts.Output.empty())
      File += ".d";
    else
      File = Opts.Output, llvm::sys::path::replace_extension(File, "d");
    Flags.insert(Flags.end(), {"-MF", std::string(File)});
  }
  if (!Has("-MT") && !Has("-MQ"))
    Flags.insert(Flags.end(),
                 {"-MT", Opts.Output.empty() ? (Stem + ".o").str() : Opts.Output});
  return Flags;
}

/// A compiler instance for `Args` (a clang++ command line) as the clang
/// driver would make it, its files read through `FS` when given.
std::unique_ptr<CompilerInstance>
createFrontend(const std::vector<std::string> &Args,
               llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS = nullptr) {
  std::vector<const char *> Argv;
  for (const std::string &A : Args)
    Argv.push_back(A.c_str());
  auto RealFS = llvm::vfs::getRealFileSystem();
  DiagnosticOptions DriverDiagOpts;
  IntrusiveRefCntPtr<DiagnosticsEngine> DriverDiags =
      CompilerInstance::createDiagnostics(*RealFS, DriverDiagOpts);
  CreateInvocationOptions CIOpts;
  CIOpts.Diags = DriverDiags;
  CIOpts.VFS = RealFS;
  std::shared_ptr<CompilerInvocation> Inv = createInvocation(Argv, CIOpts);
  if (!Inv)
    return nullptr;
  return std::make_unique<CompilerInstance>(std::move(Inv));
}

std::vector<std::string> frontendArgs(const Toolchain &TC, const Options &Opts,
                                      llvm::ArrayRef<std::string> Mode) {
  std::vector<std::string> Args = {TC.Clang, "-x", "c++"};
  Args.insert(Args.end(), Mode.begin(), Mode.end());
  Args.insert(Args.end(), Opts.CommonFlags.begin(), Opts.CommonFlags.end());
  Args.insert(Args.end(), Opts.HostFlags.begin(), Opts.HostFlags.end());
  if (!Opts.OptLevel.empty())
    Args.push_back(Opts.OptLevel);
  return Args;
}

/// Any of clang's preprocessor actions (-E, -M, -MM, -dM), with the prelude.
class PreprocessWithPrelude : public WrapperFrontendAction {
public:
  PreprocessWithPrelude(std::unique_ptr<FrontendAction> Wrapped, std::string Dir,
                        CilkView View, bool *TestsGfxMacro)
      : WrapperFrontendAction(std::move(Wrapped)), ResourceInclude(std::move(Dir)),
        View(View), TestsGfxMacro(TestsGfxMacro) {}

  bool BeginSourceFileAction(CompilerInstance &CI) override {
    injectPrelude(CI, ResourceInclude, View);
    if (TestsGfxMacro)
      CI.getPreprocessor().addPPCallbacks(std::make_unique<GfxMacroUses>(*TestsGfxMacro));
    return WrapperFrontendAction::BeginSourceFileAction(CI);
  }

private:
  std::string ResourceInclude;
  CilkView View;
  bool *TestsGfxMacro;
};

/// Runs the preprocessor action of `Args` over `Source`.
bool preprocess(const Toolchain &TC, std::vector<std::string> Args,
                llvm::StringRef Output, llvm::StringRef Source, CilkView View,
                bool *TestsGfxMacro) {
  // createInvocation adds -fsyntax-only, which -E and -M leave unused.
  Args.push_back("-Qunused-arguments");
  if (!Output.empty())
    Args.insert(Args.end(), {"-o", Output.str()});
  Args.push_back(Source.str());
  std::unique_ptr<CompilerInstance> CI = createFrontend(Args);
  if (!CI)
    return false;
  CI->createVirtualFileSystem(llvm::vfs::getRealFileSystem());
  CI->createDiagnostics();
  std::unique_ptr<FrontendAction> Action = CreateFrontendAction(*CI);
  if (!Action)
    return false;
  PreprocessWithPrelude Wrapped(std::move(Action), TC.ResourceInclude, View, TestsGfxMacro);
  return CI->ExecuteAction(Wrapped);
}

} // namespace

bool runCheckPass(const Toolchain &TC, const Options &Opts,
                  llvm::StringRef Source, LoweredSource *Lowered) {
  std::vector<std::string> Args = frontendArgs(TC, Opts, {"-fsyntax-only"});
  std::vector<std::string> Deps = checkPassDependencyFlags(Opts, Source);
  Args.insert(Args.end(), Deps.begin(), Deps.end());
  Args.push_back(Source.str());
  std::unique_ptr<CompilerInstance> CI = createFrontend(Args);
  if (!CI)
    return false;
  // Every user file is read with its array notation rewritten.
  auto FS = llvm::makeIntrusiveRefCnt<PrepassFileSystem>(llvm::vfs::getRealFileSystem());
  FS->addSystemDirectories(CI->getHeaderSearchOpts());
  FS->addSystemDirectory(TC.ResourceInclude);
  CI->createVirtualFileSystem(FS);
  CI->createDiagnostics();
  // slmc's warning groups are not clang's: keep them away from clang's
  // option processing (which would call them unknown) but in the options
  // our reporter reads.
  for (const std::string &W : Opts.SlmcWarnings)
    CI->getDiagnosticOpts().Warnings.push_back(W.substr(2));
  CheckAction Action(TC, Opts, Source, FS, Lowered);
  // As in cc1: success is what the diagnostic client counted, so that
  // -verify turns expected errors into success.
  return CI->ExecuteAction(Action);
}

bool runPreprocessor(const Toolchain &TC, const Options &Opts, llvm::StringRef Source) {
  // The user's files as they are (ccache hashes this output; the array
  // notation pre-pass is not preprocessing).
  std::vector<std::string> Args = frontendArgs(TC, Opts, Opts.PreprocessFlags);
  Args.insert(Args.end(), Opts.DepFlags.begin(), Opts.DepFlags.end());
  bool TestsGfxMacro = false;
  if (!preprocess(TC, Args, Opts.Output, Source, CilkView::Offload, &TestsGfxMacro))
    return false;
  auto Has = [&](llvm::StringRef F) { return llvm::is_contained(Opts.PreprocessFlags, F); };
  if (!TestsGfxMacro || !Has("-E") || Has("-M") || Has("-MM"))
    return true;
  // The output is the offload compilation's text (`__GFX__` defined); the
  // host pass reads the source without the macro. A digest of that text
  // ends the output, so that whoever hashes it (ccache's preprocessor
  // mode) sees a change in host-only code too.
  llvm::SmallString<256> HostText;
  if (auto EC = llvm::sys::fs::createTemporaryFile("slmc-host", "ii", HostText)) {
    llvm::errs() << "slmc++: error: cannot create a temporary file: " << EC.message() << "\n";
    return false;
  }
  llvm::FileRemover Remove(HostText);
  if (!preprocess(TC, Args, HostText, Source, CilkView::Host, nullptr))
    return false;
  auto Text = llvm::MemoryBuffer::getFile(HostText);
  if (!Text)
    return false;
  std::string Line = "// slmc: host compilation (__GFX__ undefined) digest " +
                     llvm::utohexstr(llvm::xxh3_64bits((*Text)->getBuffer())) + "\n";
  if (Opts.Output.empty() || Opts.Output == "-") {
    llvm::outs() << Line;
    return true;
  }
  std::error_code EC;
  llvm::raw_fd_ostream Out(Opts.Output, EC, llvm::sys::fs::OF_Append | llvm::sys::fs::OF_Text);
  if (EC) {
    llvm::errs() << "slmc++: error: cannot write '" << Opts.Output << "': " << EC.message() << "\n";
    return false;
  }
  Out << Line;
  return true;
}

} // namespace slmc::driver
