//===- sycl/usm.hpp - Unified shared memory -------------------------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// malloc_device / malloc_shared / malloc_host / free and the queue's memory
// operations are part of the core (sycl/detail/queue.hpp); this header is
// here for programs that include it by name.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_SYCL_USM_HPP
#define SLMC_SYCL_USM_HPP

#include "sycl/detail/core.hpp"

#endif // SLMC_SYCL_USM_HPP
