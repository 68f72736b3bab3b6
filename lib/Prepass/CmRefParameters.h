//===- CmRefParameters.h - C for Metal values bound to _ref parameters ----===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Intel's C for Metal compiler binds a vector or matrix argument to a
// vector_ref / matrix_ref parameter by reference, and deduces a function
// template's arguments through it:
//
//   template <typename T, int N>
//   _GENX_ void transpose(matrix_ref<T, N, N> in, matrix_ref<T, N, N> out);
//   matrix<int, 8, 8> a, b;
//   transpose(a, b);                      // T = int, N = 8; writes b
//
// In slmc the four are C++ classes, and C++ deduces only through base
// classes: `could not match 'matrix_ref' against 'matrix'`. Making matrix
// derive from matrix_ref would give every matrix a pointer to itself (and
// keep it out of registers), so the pre-pass adds, after each namespace-
// scope function template with a by-value _ref parameter, an overload of
// the same name and arity that takes any arguments and passes those at
// _ref positions through ::slmc::cm::detail::as_ref (a view of a vector or
// matrix, anything else as it is). It takes part only when one of those
// arguments is a vector or a matrix, and only if the call it makes is
// valid; a call through it means what cmc's does. Overloads of one name,
// scope and arity share one such overload, placed after the last of them.
//
// The added text goes on the line of the function's closing brace, so
// lines are kept. Function templates written by macros, in classes, with
// parameter packs, or only declared are left alone (explicit template
// arguments still work for them).
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_PREPASS_CMREFPARAMETERS_H
#define SLMC_PREPASS_CMREFPARAMETERS_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace slmc {

/// `Text` with a forwarding overload after the function templates that
/// take a vector_ref or matrix_ref by value; none if there is none (or
/// `Text` is not C for Metal code).
std::optional<std::string> addCmRefForwarders(llvm::StringRef Text);

} // namespace slmc

#endif // SLMC_PREPASS_CMREFPARAMETERS_H
