//===- sycl/ext/oneapi/experimental/builtins.hpp - printf in kernels ------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// sycl::ext::oneapi::experimental::printf, as DPC++ declares it: C's printf
// in device code. The CPU fallback calls the host's printf (work-items print
// in the order the group's loops run them); PTX calls CUDA's vprintf, whose
// output the driver prints when the host waits; SPIR-V calls OpenCL.std's
// printf, which needs a string literal (or constant array) as the format,
// as DPC++'s does, and which Level Zero prints when the kernel ends.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_SYCL_EXT_ONEAPI_EXPERIMENTAL_BUILTINS_HPP
#define SLMC_SYCL_EXT_ONEAPI_EXPERIMENTAL_BUILTINS_HPP

#include "sycl/detail/core.hpp"

namespace sycl {
namespace ext {
namespace oneapi {
namespace experimental {

/// Always inlined, so that every device pass sees the format itself (the
/// SPIR-V pass moves literal formats to the constant address space).
template <typename FormatT, typename... Args>
[[gnu::always_inline]] SLMC_HD inline int printf(const FormatT *format,
                                                 Args... args) {
  static_assert(sizeof(FormatT) == 1, "printf: the format is a string of char");
  return __builtin_printf(reinterpret_cast<const char *>(format), args...);
}

} // namespace experimental
} // namespace oneapi
} // namespace ext
} // namespace sycl

#endif // SLMC_SYCL_EXT_ONEAPI_EXPERIMENTAL_BUILTINS_HPP
