//===- CL/sycl.hpp - SYCL 1.2.1's header name -----------------------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// SYCL 2020 keeps <CL/sycl.hpp> and the cl::sycl namespace for code written
// for SYCL 1.2.1 (many oneAPI samples still include it): the same library
// as <sycl/sycl.hpp>.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_CL_SYCL_HPP
#define SLMC_CL_SYCL_HPP

#include "sycl/sycl.hpp"

namespace cl {
namespace sycl = ::sycl;
} // namespace cl

#endif // SLMC_CL_SYCL_HPP
