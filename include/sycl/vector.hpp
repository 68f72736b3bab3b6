//===- sycl/vector.hpp - DPC++'s per-feature header -----------------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// DPC++ splits <sycl/sycl.hpp> into headers per feature, which its own tests
// and the programs written against them include alone. slmc's SYCL is one
// piece: each of these brings all of it.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_SYCL_VECTOR_HPP
#define SLMC_SYCL_VECTOR_HPP

#include "sycl/sycl.hpp"

#endif // SLMC_SYCL_VECTOR_HPP
