//===- CmPrepassFuzzer.cpp - Fuzzing the C for Metal pre-passes ------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The C for Metal pre-passes (the `template` keyword before select,
// replicate and format; the forwarding overloads for _ref parameters; the
// channels of SIMD control flow blocks passed to what they write) read
// every C for Metal file before Clang does, so they must take any text:
// never crash or loop. Beyond memory safety the harness checks their
// promises: text that is not C for Metal code is left alone, every line
// keeps its place (diagnostics point at the user's lines), and the first
// two only insert (the input is a subsequence of the output).
//
//===----------------------------------------------------------------------===//
#include "Prepass/CmMemberTemplates.h"
#include "Prepass/CmRefParameters.h"
#include "Prepass/CmSimdControlFlow.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace {

void checkInsertionsOnly(const std::string &In, const std::optional<std::string> &Out) {
  if (!Out)
    return;
  if (!slmc::isCmSource(In))
    __builtin_trap(); // documented: only C for Metal files change
  if (std::count(Out->begin(), Out->end(), '\n') != std::count(In.begin(), In.end(), '\n'))
    __builtin_trap(); // lines moved
  size_t J = 0;
  for (char C : *Out)
    if (J < In.size() && C == In[J])
      ++J;
  if (J != In.size())
    __builtin_trap(); // something of the input was lost
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  // An exact-size copy (no terminating NUL read past the end by mistake
  // goes unnoticed).
  std::string Text(reinterpret_cast<const char *>(Data), Size);
  std::optional<std::string> Keywords = slmc::insertCmTemplateKeywords(Text);
  checkInsertionsOnly(Text, Keywords);
  const std::string &Next = Keywords ? *Keywords : Text;
  std::optional<std::string> Forwarded = slmc::addCmRefForwarders(Next);
  checkInsertionsOnly(Next, Forwarded);
  const std::string &Last = Forwarded ? *Forwarded : Next;
  std::optional<std::string> Masked = slmc::maskCmSimdControlFlow(Last);
  if (Masked && (!slmc::isCmSource(Last) ||
                 std::count(Masked->begin(), Masked->end(), '\n') !=
                     std::count(Last.begin(), Last.end(), '\n')))
    __builtin_trap(); // lines moved (it also renames and replaces tokens)
  return 0;
}
