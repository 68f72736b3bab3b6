//===- sycl/ext/oneapi/free_function_queries.hpp - this_work_item ---------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// sycl_ext_oneapi_free_function_queries: the calling work-item's nd_item and
// work-group from any function an nd_range kernel calls, without passing
// them down (how code migrated from CUDA reaches them). Both spellings:
// this_work_item::get_nd_item<N>() / get_work_group<N>() / get_sub_group()
// and the earlier experimental::this_nd_item<N>() / this_group<N>() /
// this_sub_group().
//
// Work-item objects read the device's work-item builtins on every query, so
// making one here is exact, with one exception: an nd_range launched with
// the deprecated offset; its free-function nd_item has a zero offset.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_SYCL_EXT_ONEAPI_FREE_FUNCTION_QUERIES_HPP
#define SLMC_SYCL_EXT_ONEAPI_FREE_FUNCTION_QUERIES_HPP

#include "sycl/detail/core.hpp"

#define SYCL_EXT_ONEAPI_FREE_FUNCTION_QUERIES 1

namespace sycl {
namespace ext {
namespace oneapi {
namespace this_work_item {

template <int Dimensions> SLMC_HD nd_item<Dimensions> get_nd_item() {
  return sycl::detail::item_factory::make_nd_item<Dimensions>(id<Dimensions>());
}
template <int Dimensions> SLMC_HD group<Dimensions> get_work_group() {
  return group<Dimensions>();
}
SLMC_HD inline sub_group get_sub_group() { return sub_group(); }

} // namespace this_work_item

namespace experimental {
template <int Dimensions> SLMC_HD nd_item<Dimensions> this_nd_item() {
  return this_work_item::get_nd_item<Dimensions>();
}
template <int Dimensions> SLMC_HD group<Dimensions> this_group() {
  return this_work_item::get_work_group<Dimensions>();
}
SLMC_HD inline sub_group this_sub_group() { return sub_group(); }
namespace this_work_item {
using oneapi::this_work_item::get_nd_item;
using oneapi::this_work_item::get_sub_group;
using oneapi::this_work_item::get_work_group;
} // namespace this_work_item
} // namespace experimental

} // namespace oneapi
} // namespace ext
} // namespace sycl

#endif // SLMC_SYCL_EXT_ONEAPI_FREE_FUNCTION_QUERIES_HPP
