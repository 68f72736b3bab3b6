//===- SlmcClangd.cpp - clangd with slmc's dialects and checks ------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
//   slmc-clangd [clangd options] [--group-memory-limit=<bytes>]
//   slmc-clangd --check=FILE [options]   (prints what an editor would show)
//
// Debian's clangd 22 with one feature module linked in. For every preamble
// and AST clangd builds, the module does what the plugin does in a clang
// process, at the same point (the preprocessor exists, parsing has not
// started): it puts slmc's header directory first among the system include
// directories and includes slmc/prelude.h before the main file. For the
// main-file AST (not the preamble) it also runs slmc's consumer after
// clangd's, so the checkers report through the compilation's
// DiagnosticsEngine exactly as in slmc++ -fsyntax-only; clangd turns those
// diagnostics, their notes and fix-its into LSP diagnostics and code actions.
// Every user file is read with its Cilk Plus array notation rewritten, as in
// slmc++ (installPrepass in Prepass/PrepassFileSystem.h).
//
// Compile commands come from compile_commands.json as usual; slmc-clangd
// adds nothing to them. clang's driver does not know slmc++'s own options
// (--group-memory-limit=...): a project's .clangd removes them (see
// docs/editors.md), and the module reads them from the compilation database
// itself, found as clangd finds it (and the plugin's
// -fplugin-arg-slmc-group-memory-limit=, which clangd drops with -fplugin).
//
//===----------------------------------------------------------------------===//
#include "CheckMode.h"
#include "ClangdInterface.h"

#include "Frontend/Frontend.h"
#include "Prepass/PrepassFileSystem.h"

#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendOptions.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

using namespace clang;

namespace {

// Set once in main(), before clangd starts any thread.
std::string ResourceIncludeDir;
std::string CompileCommandsDir; // clangd's --compile-commands-dir
slmc::CheckOptions DefaultOptions;

/// The slmc++ options of a file's compile command. Compilation databases
/// are loaded once and reloaded when their file changes; AST builds run on
/// several threads.
class SlmcOptionsFromDatabase {
public:
  slmc::CheckOptions optionsFor(llvm::StringRef File) {
    slmc::CheckOptions Opts = DefaultOptions;
    std::lock_guard<std::mutex> Lock(Mutex);
    tooling::CompilationDatabase *DB = databaseFor(File);
    if (!DB)
      return Opts;
    std::vector<tooling::CompileCommand> Cmds = DB->getCompileCommands(File);
    if (Cmds.empty())
      return Opts;
    for (llvm::StringRef A : Cmds.front().CommandLine) {
      unsigned long long N = 0;
      // slmc++'s option, or the plugin's in a clang++ -fplugin command.
      if ((A.consume_front("--group-memory-limit=") ||
           A.consume_front("-fplugin-arg-slmc-group-memory-limit=")) &&
          !A.getAsInteger(0, N) && N)
        Opts.GroupMemoryLimit = N;
    }
    return Opts;
  }

private:
  struct Loaded {
    llvm::sys::TimePoint<> Modified;
    std::unique_ptr<tooling::CompilationDatabase> DB;
  };

  // As clangd looks: --compile-commands-dir, or the nearest directory up
  // from the file with compile_commands.json or build/compile_commands.json.
  tooling::CompilationDatabase *databaseFor(llvm::StringRef File) {
    if (!CompileCommandsDir.empty())
      return load(CompileCommandsDir + "/compile_commands.json");
    for (llvm::StringRef Dir = llvm::sys::path::parent_path(File); !Dir.empty();
         Dir = llvm::sys::path::parent_path(Dir)) {
      for (const char *Rel : {"compile_commands.json", "build/compile_commands.json"}) {
        llvm::SmallString<256> P(Dir);
        llvm::sys::path::append(P, Rel);
        if (llvm::sys::fs::exists(P))
          return load(P);
      }
    }
    return nullptr;
  }

  tooling::CompilationDatabase *load(llvm::StringRef Path) {
    llvm::sys::fs::file_status Status;
    if (llvm::sys::fs::status(Path, Status))
      return nullptr;
    Loaded &L = Cache[Path];
    if (L.DB && L.Modified == Status.getLastModificationTime())
      return L.DB.get();
    std::string Error;
    L.DB = tooling::JSONCompilationDatabase::loadFromFile(
        Path, Error, tooling::JSONCommandLineSyntax::AutoDetect);
    if (L.DB) // files not listed (headers) get their neighbours' command
      L.DB = tooling::inferMissingCompileCommands(std::move(L.DB));
    L.Modified = Status.getLastModificationTime();
    return L.DB.get();
  }

  std::mutex Mutex;
  llvm::StringMap<Loaded> Cache;
};

SlmcOptionsFromDatabase &optionsDatabase() {
  static SlmcOptionsFromDatabase *DB = new SlmcOptionsFromDatabase;
  return *DB;
}

class SlmcListener : public clangd::FeatureModule::ASTListener {
public:
  void beforeExecute(CompilerInstance &CI) override {
    slmc::injectPrelude(CI, ResourceIncludeDir);
    // Cilk Plus array notation, in the main file and in every user header,
    // as slmc++ reads it (lines kept, so diagnostics and fix-its land on the
    // user's lines); in the preamble too (its headers, and the GNU gfx
    // attribute in the main file's leading directives).
    slmc::installPrepass(CI.getPreprocessor(), ResourceIncludeDir);
    if (CI.getPreprocessorOpts().GeneratePreamble) {
      // The preamble: the main file's leading #includes, parsed once and
      // reused while they do not change. clangd skips the bodies of the
      // functions there; slmc's rules follow calls into them (a helper in
      // a header that waits on a barrier, or uses group-local memory), so
      // parse them as the compiler does. The checkers run on the main AST.
      CI.getFrontendOpts().SkipFunctionBodies = false;
      return;
    }
    if (!CI.hasASTConsumer() || CI.getFrontendOpts().Inputs.empty())
      return;
    slmc::CheckOptions Opts = optionsDatabase().optionsFor(
        CI.getFrontendOpts().Inputs[0].getFile());
    std::vector<std::unique_ptr<ASTConsumer>> Consumers;
    Consumers.push_back(CI.takeASTConsumer());
    Consumers.push_back(std::make_unique<slmc::SlmcConsumer>(CI, Opts));
    CI.setASTConsumer(std::make_unique<MultiplexConsumer>(std::move(Consumers)));
  }
};

class SlmcModule final : public clangd::FeatureModule {
public:
  std::unique_ptr<ASTListener> astListeners() override {
    return std::make_unique<SlmcListener>();
  }
};

clangd::FeatureModuleRegistry::Add<SlmcModule>
    Registered("slmc", "C++ AMP, SYCL, CM and Cilk syntax and checks");

/// The value of clangd option --Name in Args ("--Name=V" or "--Name V").
std::optional<std::string> optionValue(const std::vector<std::string> &Args,
                                       llvm::StringRef Name) {
  std::optional<std::string> Value;
  for (size_t I = 0; I < Args.size(); ++I) {
    llvm::StringRef A = Args[I];
    if (!A.consume_front("--") && !A.consume_front("-"))
      continue;
    if (!A.consume_front(Name))
      continue;
    if (A.consume_front("="))
      Value = A.str();
    else if (A.empty() && I + 1 < Args.size())
      Value = Args[++I];
  }
  return Value;
}

} // namespace

int main(int argc, char **argv) {
  std::string Self = llvm::sys::fs::getMainExecutable(
      argv[0], reinterpret_cast<void *>(&optionValue));
  ResourceIncludeDir = slmc::resourceIncludeDirFor(Self);

  // slmc-clangd's own options are taken out before clangd parses the rest.
  std::vector<std::string> Args;
  std::string CheckFile;
  for (int I = 1; I < argc; ++I) {
    llvm::StringRef A = argv[I];
    unsigned long long N = 0;
    if (A.consume_front("--group-memory-limit=")) {
      if (A.getAsInteger(0, N) || N == 0) {
        fprintf(stderr, "slmc-clangd: invalid %s\n", argv[I]);
        return 1;
      }
      DefaultOptions.GroupMemoryLimit = N;
    } else if (A.consume_front("--check=")) {
      CheckFile = A.str();
      continue; // the check runs a server with the other options
    }
    Args.push_back(argv[I]);
  }

  // What clangd will read from its options (also from $CLANGD_FLAGS).
  std::vector<std::string> All = Args;
  if (const char *Env = std::getenv("CLANGD_FLAGS")) {
    llvm::SmallVector<llvm::StringRef> Words;
    llvm::StringRef(Env).split(Words, ' ', -1, /*KeepEmpty=*/false);
    All.insert(All.begin(), Words.begin(), Words.end());
  }
  if (auto Dir = optionValue(All, "compile-commands-dir")) {
    llvm::SmallString<256> Abs(*Dir);
    llvm::sys::fs::make_absolute(Abs);
    CompileCommandsDir = std::string(Abs);
  }
  // clangd looks for clang's builtin headers next to its own binary; ours is
  // not there, so point it at the clang slmc was built with.
  if (!optionValue(All, "resource-dir"))
    Args.insert(Args.begin(), "--resource-dir=" SLMC_CLANG_RESOURCE_DIR);

  if (!CheckFile.empty())
    return slmc::clangd::runCheck(CheckFile, Self, Args);

  std::vector<char *> Argv = {argv[0]};
  for (std::string &A : Args)
    if (!llvm::StringRef(A).starts_with("--group-memory-limit="))
      Argv.push_back(A.data());
  Argv.push_back(nullptr);
  return clang::clangd::clangdMain(int(Argv.size()) - 1, Argv.data());
}
