//===- sycl/detail/core.hpp - The SYCL 2020 core of slmc's library --------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The subset of SYCL 2020 that slmc's programs use: queues, handlers,
// nd_range/range kernels, work-item queries, barriers, USM, buffers and
// accessors, local_accessor, atomic_ref, sycl::stream and sycl::exception. Each header
// says how its part maps onto slmc/offload.h and libslmrt.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_SYCL_DETAIL_CORE_HPP
#define SLMC_SYCL_DETAIL_CORE_HPP

#include "sycl/detail/common.hpp"
#include "sycl/detail/exception.hpp"
#include "sycl/detail/item.hpp"
#include "sycl/detail/multi_ptr.hpp"
#include "sycl/detail/atomic.hpp"
#include "sycl/detail/half.hpp"
#include "sycl/detail/vec.hpp"
#include "sycl/detail/marray.hpp"
#include "sycl/detail/math.hpp"
#include "sycl/detail/cmath.hpp"
#include "sycl/detail/functional.hpp"
#include "sycl/detail/group_algorithm.hpp"
#include "sycl/detail/sub_group.hpp"
#include "sycl/detail/device.hpp"
#include "sycl/detail/accessor.hpp"
#include "sycl/detail/handler.hpp"
#include "sycl/detail/queue.hpp"
#include "sycl/detail/stream.hpp"

#endif // SLMC_SYCL_DETAIL_CORE_HPP
