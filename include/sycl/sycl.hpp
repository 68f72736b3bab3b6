//===- sycl/sycl.hpp - SYCL 2020 for slmc ---------------------------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Everything: the SYCL 2020 core that slmc supports, USM, the
// sycl_ext_oneapi_local_memory extension (SYCL_EXT_ONEAPI_LOCAL_MEMORY),
// sycl_ext_oneapi_free_function_queries and kernel printf
// (ext::oneapi::experimental::printf).
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_SYCL_SYCL_HPP
#define SLMC_SYCL_SYCL_HPP

#include "sycl/detail/core.hpp"
#include "sycl/usm.hpp"
#include "sycl/ext/oneapi/group_local_memory.hpp"
#include "sycl/ext/oneapi/free_function_queries.hpp"
#include "sycl/ext/oneapi/experimental/builtins.hpp"

// DPC++'s headers bring these in, and its programs use them unincluded.
#include <cassert>
#include <iostream>

#endif // SLMC_SYCL_SYCL_HPP
