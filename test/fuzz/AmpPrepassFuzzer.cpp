//===- AmpPrepassFuzzer.cpp - Fuzzing the C++ AMP pre-pass -----------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The C++ AMP pre-pass (MSVC's `void main()` and member templates called
// without `template`, Prepass/AmpMsvcSource) reads every C++ AMP file
// before Clang does, so it must take any text: never crash or loop. Beyond
// memory safety the harness checks its promises: text that is not C++ AMP
// code is left alone, every line keeps its place, and what it replaces is
// only `void` of main (each other change is an insertion).
//
//===----------------------------------------------------------------------===//
#include "Prepass/AmpMsvcSource.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Text(reinterpret_cast<const char *>(Data), Size);
  std::optional<std::string> Out = slmc::rewriteAmpMsvcSource(Text);
  if (!Out)
    return 0;
  if (!slmc::isAmpSource(Text))
    __builtin_trap(); // documented: only C++ AMP files change
  if (std::count(Out->begin(), Out->end(), '\n') != std::count(Text.begin(), Text.end(), '\n'))
    __builtin_trap(); // lines moved
  // With every `void` read as `int ` on both sides (main's is rewritten
  // so), the input is a subsequence of the output.
  auto VoidAsInt = [](std::string S) {
    for (size_t At = S.find("void"); At != std::string::npos; At = S.find("void", At + 4))
      S.replace(At, 4, "int ");
    return S;
  };
  const std::string In = VoidAsInt(Text), Back = VoidAsInt(*Out);
  size_t J = 0;
  for (char C : Back)
    if (J < In.size() && C == In[J])
      ++J;
  if (J != In.size())
    __builtin_trap(); // something of the input was lost
  return 0;
}
