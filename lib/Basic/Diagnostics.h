//===- Diagnostics.h - slmc's diagnostics through Clang's engine -*- C++ -*-===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// slmc reports through the DiagnosticsEngine of the compilation it runs in
// (the clang process with the plugin, slmc++, or clangd), so its messages
// get the same formatting, colours, notes, fix-its and -Werror handling as
// Clang's own. Warning groups are ours: Clang's custom diagnostics cannot
// join a -W group, so the reporter maps -W<group>/-Wno-<group>/-Werror=<group>
// from the compilation's DiagnosticOptions onto each warning itself.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_BASIC_DIAGNOSTICS_H
#define SLMC_BASIC_DIAGNOSTICS_H

#include "clang/Basic/Diagnostic.h"
#include "llvm/ADT/StringRef.h"

#include <functional>
#include <vector>

namespace clang {
class DiagnosticOptions;
}

namespace slmc {

enum class Diag : unsigned {
#define SLMC_DIAG(Name, Level, Group, Text) Name,
#include "Basic/Diagnostics.def"
  NumDiags
};

/// The -W group of a warning ("" if it has none), and whether a command-line
/// warning option names one of ours (so drivers can keep it from clang).
llvm::StringRef diagGroup(Diag D);
/// Whether `D` is a pedantic warning (off unless -pedantic or its -W name).
bool isPedanticDiag(Diag D);
bool isSlmcWarningOption(llvm::StringRef Option); // "slmc-...", "no-slmc-..."
std::vector<llvm::StringRef> allWarningGroups();

class Reporter {
public:
  /// Reports through `Engine` with custom diagnostic IDs (the plugin,
  /// slmc++, slmc-clangd).
  Reporter(clang::DiagnosticsEngine &Engine,
           const clang::DiagnosticOptions &Options);

  /// For hosts that create the diagnostics themselves (clang-tidy, whose
  /// checks own their diagnostics): `Emit` gets each diagnostic with its
  /// level after the -W options (Ignored when they turn it off) and its text.
  using Emitter = std::function<clang::DiagnosticBuilder(
      clang::SourceLocation, Diag, clang::DiagnosticIDs::Level,
      llvm::StringRef Text)>;
  Reporter(clang::DiagnosticsEngine &Engine,
           const clang::DiagnosticOptions &Options, Emitter Emit);

  clang::DiagnosticBuilder report(clang::SourceLocation Loc, Diag D);
  clang::DiagnosticsEngine &engine() { return Engine; }
  bool hasErrors() const { return Engine.hasErrorOccurred(); }

private:
  clang::DiagnosticsEngine &Engine;
  Emitter Emit;
  clang::DiagnosticIDs::Level Levels[unsigned(Diag::NumDiags)];
  unsigned IDs[unsigned(Diag::NumDiags)] = {};
};

} // namespace slmc

#endif // SLMC_BASIC_DIAGNOSTICS_H
