//===- KernelAttributes.h - SYCL kernel attributes Clang does not know ----===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// SYCL's kernel attributes `reqd_sub_group_size(N)`,
// `reqd_work_group_size(X[, Y[, Z]])` and `work_group_size_hint(...)`, in
// the `sycl::` and `intel::` namespaces, are unknown to Clang outside
// -fsycl: it warns and drops them, and a kernel written for 32-wide
// sub-groups (or for groups of exactly 128) would silently run with another
// shape.
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
// reads the annotation back (kernelAttributeAnnotation). SYCL 1.2.1's
// `[[cl::reqd_work_group_size(...)]]` and
// `[[cl::intel_reqd_sub_group_size(N)]]` are respelled too; where the
// spelling is too short for the usual annotation name, a shorter one is
// used.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_PREPASS_KERNELATTRIBUTES_H
#define SLMC_PREPASS_KERNELATTRIBUTES_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace slmc {

enum class KernelAttributeKind { RequiredSubGroupSize, RequiredWorkGroupSize, WorkGroupSizeHint };

/// The attribute's name as SYCL spells it (`reqd_sub_group_size`, ...).
llvm::StringRef kernelAttributeName(KernelAttributeKind Kind);

/// The annotation a kernel attribute becomes: on a declaration
/// (clang::annotate, `OnType` false) and on a function type
/// (clang::annotate_type); `Short`, the name used where the attribute's
/// spelling is too short for the other.
llvm::StringRef kernelAttributeAnnotation(KernelAttributeKind Kind, bool OnType,
                                          bool Short = false);

/// `Text` with every kernel attribute respelled (lines and columns
/// unchanged); none if there is none.
std::optional<std::string> rewriteKernelAttributes(llvm::StringRef Text);

/// Each kernel attribute of `Text` that the pre-pass did not respell: where
/// it starts (at its `sycl`/`intel`) and what it is. A door without the
/// pre-pass (the plugin alone) must not let Clang drop one.
std::vector<std::pair<size_t, KernelAttributeKind>>
findUnrespelledKernelAttributes(llvm::StringRef Text);

} // namespace slmc

#endif // SLMC_PREPASS_KERNELATTRIBUTES_H
