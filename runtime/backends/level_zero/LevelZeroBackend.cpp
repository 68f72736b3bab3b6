//===- LevelZeroBackend.cpp - Level Zero backend (placeholder) ------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Placeholder: the Level Zero backend is not built yet.
//
//===----------------------------------------------------------------------===//
#include "Backend.h"

namespace slmc::rt {

std::unique_ptr<Backend> createLevelZeroBackend(std::string &WhyNot) {
  WhyNot = "not built";
  return nullptr;
}

} // namespace slmc::rt
