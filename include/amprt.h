//===- amprt.h - MSVC's C++ AMP runtime header, for slmc ------------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// MSVC documents accelerator, accelerator_view, completion_future,
// runtime_exception and amp_uninitialize as declared here, and programs
// include it by name; slmc's <amp.h> holds all of them.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_AMPRT_H
#define SLMC_AMPRT_H

#include <amp.h>

#endif // SLMC_AMPRT_H
