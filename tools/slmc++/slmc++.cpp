//===- slmc++.cpp - The slmc compiler driver ------------------------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "Driver/Driver.h"

int main(int argc, const char **argv) { return slmc::driver::run(argc, argv); }
