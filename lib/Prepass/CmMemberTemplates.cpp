//===- CmMemberTemplates.cpp - C for Metal member templates in templates --===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "Prepass/CmMemberTemplates.h"

namespace slmc {

bool isCmSource(llvm::StringRef Text) {
  return Text.contains("_GENX_") || Text.contains("cm/cm.h") ||
         Text.contains("<cm.h>") || Text.contains("\"cm.h\"");
}

std::optional<std::string> insertCmTemplateKeywords(llvm::StringRef Text) {
  static constexpr llvm::StringRef Names[] = {"select", "replicate", "format"};
  if (!isCmSource(Text))
    return std::nullopt;
  return insertTemplateKeywords(Text, Names);
}

} // namespace slmc
