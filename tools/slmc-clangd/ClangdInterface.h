//===- ClangdInterface.h - The part of clangd 22 slmc-clangd uses -*- C++ -*-===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Debian ships clangd 22 as static libraries (libclangDaemon.a,
// libclangdMain.a, ...) but not its headers. slmc-clangd needs three things
// from it, declared here to match clangd 22's definitions:
//
//  - clangdMain(), the whole server behind clangd's own main();
//  - the feature-module interface: clangd builds one instance of every
//    class in its feature-module registry at start-up, and asks each, for
//    every AST and preamble it builds, for a listener whose beforeExecute()
//    runs once the preprocessor exists and before parsing starts;
//  - that registry.
//
// The declarations keep the layout clangd's code relies on (the order of
// the virtual functions and the one data member that FeatureModule's
// out-of-line initialize() fills in). CMake checks the clangd version; a
// new major version must be checked against its FeatureModule.h.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_TOOLS_CLANGD_INTERFACE_H
#define SLMC_TOOLS_CLANGD_INTERFACE_H

#include "llvm/Support/JSON.h"
#include "llvm/Support/Registry.h"

#include <chrono>
#include <memory>
#include <optional>
#include <vector>

namespace clang {
class CompilerInstance;
class Diagnostic;

namespace clangd {
struct Diag;
class LSPBinder;
class SymbolIndex;
class ThreadsafeFS;
class TUScheduler;
class Tweak;

int clangdMain(int argc, char *argv[]);

/// A point in time or "never", passed by value (a kind and a time point).
class Deadline {
  enum { Zero, Infinite, Finite } Kind = Infinite;
  std::chrono::steady_clock::time_point Time;
};

class FeatureModule {
public:
  virtual ~FeatureModule() = default;

  virtual void initializeLSP(LSPBinder &, const llvm::json::Object &,
                             llvm::json::Object &) {}

  struct Facilities {
    TUScheduler &Scheduler;
    const SymbolIndex *Index;
    const ThreadsafeFS &FS;
  };

  virtual void stop() {}
  virtual bool blockUntilIdle(Deadline) { return true; }
  virtual void contributeTweaks(std::vector<std::unique_ptr<Tweak>> &) {}

  /// Created for each AST or preamble build, used on one thread.
  struct ASTListener {
    virtual ~ASTListener() = default;
    /// After BeginSourceFile(), before FrontendAction::Execute().
    virtual void beforeExecute(CompilerInstance &) {}
    virtual void sawDiagnostic(const Diagnostic &, Diag &) {}
  };
  virtual std::unique_ptr<ASTListener> astListeners() { return nullptr; }

private:
  std::optional<Facilities> Fac; // set by clangd's FeatureModule::initialize
};

using FeatureModuleRegistry = llvm::Registry<FeatureModule>;

} // namespace clangd
} // namespace clang

#endif // SLMC_TOOLS_CLANGD_INTERFACE_H
