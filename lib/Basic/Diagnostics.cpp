//===- Diagnostics.cpp ------------------------------------------------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "Basic/Diagnostics.h"

#include "clang/Basic/DiagnosticOptions.h"

using namespace clang;

namespace slmc {
namespace {
// Pedantic: a warning that only -pedantic, -Wpedantic or its own -W name
// turns on (what the specification does not promise, though slmc accepts it).
enum class Level { Error, Warning, Pedantic, Note, Remark };

struct DiagInfo {
  Level L;
  const char *Group;
  const char *Text;
};

const DiagInfo Infos[] = {
#define SLMC_DIAG(Name, Lvl, Group, Text) {Level::Lvl, Group, Text},
#include "Basic/Diagnostics.def"
};

DiagnosticIDs::Level toClang(Level L) {
  switch (L) {
  case Level::Error: return DiagnosticIDs::Error;
  case Level::Warning:
  case Level::Pedantic: return DiagnosticIDs::Warning;
  case Level::Note: return DiagnosticIDs::Note;
  case Level::Remark: return DiagnosticIDs::Remark;
  }
  return DiagnosticIDs::Error;
}
} // namespace

llvm::StringRef diagGroup(Diag D) { return Infos[unsigned(D)].Group; }

bool isPedanticDiag(Diag D) { return Infos[unsigned(D)].L == Level::Pedantic; }

std::vector<llvm::StringRef> allWarningGroups() {
  std::vector<llvm::StringRef> Groups;
  for (const DiagInfo &I : Infos)
    if (*I.Group && std::find(Groups.begin(), Groups.end(), I.Group) == Groups.end())
      Groups.push_back(I.Group);
  return Groups;
}

bool isSlmcWarningOption(llvm::StringRef Option) {
  Option.consume_front("no-");
  Option.consume_front("error=");
  Option.consume_front("no-error=");
  return Option == "slmc" || Option.starts_with("slmc-");
}

Reporter::Reporter(DiagnosticsEngine &Engine, const DiagnosticOptions &Options)
    : Reporter(Engine, Options, nullptr) {}

Reporter::Reporter(DiagnosticsEngine &Engine, const DiagnosticOptions &Options,
                   Emitter Emit)
    : Engine(Engine), Emit(std::move(Emit)) {
  for (unsigned I = 0; I != unsigned(Diag::NumDiags); ++I) {
    const DiagInfo &Info = Infos[I];
    DiagnosticIDs::Level L = toClang(Info.L);
    if (Info.L == Level::Warning || Info.L == Level::Pedantic) {
      // Custom diagnostics escape clang's -W handling, so apply it here:
      // -w, -Werror, then the options naming our groups, last one wins, as
      // clang does for its own groups. "-Wslmc" names them all.
      llvm::StringRef Group = Info.Group;
      bool Pedantic = Info.L == Level::Pedantic;
      bool Enabled = !Pedantic || Options.Pedantic || Options.PedanticErrors;
      bool AsError = Engine.getWarningsAsErrors() || (Pedantic && Options.PedanticErrors);
      for (llvm::StringRef W : Options.Warnings) {
        bool Neg = W.consume_front("no-");
        bool Err = W.consume_front("error=");
        if (Pedantic && W == "pedantic") {
          Enabled = !Neg;
          continue;
        }
        if (W != Group && W != "slmc")
          continue;
        if (Pedantic && W == "slmc" && !Neg)
          continue; // -Wslmc names the default-on warnings
        if (Err)
          AsError = !Neg, Enabled |= !Neg;
        else
          Enabled = !Neg;
      }
      if (Engine.getIgnoreAllWarnings() || !Enabled)
        L = DiagnosticIDs::Ignored;
      else if (AsError)
        L = DiagnosticIDs::Error;
    }
    Levels[I] = L;
    if (!this->Emit)
      IDs[I] = Engine.getDiagnosticIDs()->getCustomDiagID(L, Info.Text);
  }
}

DiagnosticBuilder Reporter::report(SourceLocation Loc, Diag D) {
  if (Emit)
    return Emit(Loc, D, Levels[unsigned(D)], Infos[unsigned(D)].Text);
  return Engine.Report(Loc, IDs[unsigned(D)]);
}

} // namespace slmc
