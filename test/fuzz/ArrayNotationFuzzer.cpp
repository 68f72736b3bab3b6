//===- ArrayNotationFuzzer.cpp - Fuzzing the Cilk array-notation pre-pass -===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The pre-pass reads every user file before Clang does, so it must take any
// text: it may refuse it with diagnostics, never crash or loop. Beyond
// memory safety the harness checks the pass's own promises: unchanged text
// when nothing was rewritten or when there are errors, diagnostics inside
// the text, and (as every token keeps its line) as many lines out as in.
//
//===----------------------------------------------------------------------===//
#include "Prepass/ArrayNotation.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  // An exact-size copy (no terminating NUL read past the end by mistake
  // goes unnoticed).
  std::string Text(reinterpret_cast<const char *>(Data), Size);
  slmc::ArrayNotationResult R = slmc::rewriteArrayNotation(Text);

  if ((!R.Changed || !R.Diags.empty()) && R.Text != Text)
    __builtin_trap(); // documented: the input unchanged
  unsigned Lines = unsigned(std::count(Text.begin(), Text.end(), '\n')) + 1;
  for (const slmc::PrepassDiagnostic &D : R.Diags)
    if (D.Line == 0 || D.Line > Lines || D.Column == 0 || D.Message.empty())
      __builtin_trap();
  if (R.Changed && R.Diags.empty() &&
      std::count(R.Text.begin(), R.Text.end(), '\n') !=
          std::count(Text.begin(), Text.end(), '\n'))
    __builtin_trap(); // lines moved: later diagnostics would point wrong

  // The printer reads the source lines the diagnostics name.
  std::string Printed;
  llvm::raw_string_ostream OS(Printed);
  slmc::printPrepassDiagnostics(OS, "fuzz.cpp", Text, R.Diags);
  return 0;
}
