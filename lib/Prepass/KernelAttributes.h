//===- KernelAttributes.h - SYCL kernel attributes Clang does not know ----===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `[[sycl::reqd_sub_group_size(N)]]` and `[[intel::reqd_sub_group_size(N)]]`
// are unknown to Clang outside -fsycl: it warns and drops them, and a kernel
// written for 32-wide sub-groups would silently run with the backend's size.
// A Clang plugin cannot take them either (a C++11 attribute after a lambda's
// parameter list appertains to its type, which plugin attributes cannot).
// So the pre-pass that reads every user file respells them, in place and
// at the same length, as Clang annotations that carry the argument:
//
//   [=](nd_item<1> it) [[sycl::reqd_sub_group_size(32)]] { ... }
//   [=](nd_item<1> it) [[clang::annotate_type("sg",32)]] { ... }
//
//   [[intel::reqd_sub_group_size(16)]] void operator()(nd_item<1>) const;
//   [[clang::annotate("slmc.sg", 16)]] void operator()(nd_item<1>) const;
//
// (annotate_type where the attribute follows a declarator, as after a
// lambda's parameters; annotate where it starts a declaration). The model
// reads the annotation back (kRequiredSubGroupSizeAnnotation).
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_PREPASS_KERNELATTRIBUTES_H
#define SLMC_PREPASS_KERNELATTRIBUTES_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace slmc {

/// The annotation reqd_sub_group_size becomes: on a declaration
/// (clang::annotate) and on a function type (clang::annotate_type).
inline constexpr llvm::StringLiteral kRequiredSubGroupSizeAnnotation = "slmc.sg";
inline constexpr llvm::StringLiteral kRequiredSubGroupSizeTypeAnnotation = "sg";

/// `Text` with every reqd_sub_group_size attribute respelled (lines and
/// columns unchanged); none if there is none.
std::optional<std::string> rewriteKernelAttributes(llvm::StringRef Text);

/// Where each reqd_sub_group_size attribute of `Text` that the pre-pass
/// did not respell starts (at its `sycl`/`intel`): a door without the
/// pre-pass (the plugin alone) must not let Clang drop one.
std::vector<size_t> findUnrespelledKernelAttributes(llvm::StringRef Text);

} // namespace slmc

#endif // SLMC_PREPASS_KERNELATTRIBUTES_H
