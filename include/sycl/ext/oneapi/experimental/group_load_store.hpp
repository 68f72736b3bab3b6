//===- sycl/ext/oneapi/experimental/group_load_store.hpp ------------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// sycl_ext_oneapi_group_load_store: a work-group or sub-group reads or
// writes a range of memory together, each work-item N elements of it
//
//   group_load(g, in_ptr, out, properties{data_placement_striped});
//   group_store(g, in, out_ptr);
//
// where `out`/`in` is one value, a sycl::span<T, N> or a sycl::vec<T, N>.
// Work-item i (g.get_local_linear_id()) of a group of R takes elements
// i * N + k (data_placement_blocked, the default) or i + R * k
// (data_placement_striped), k < N. These are group functions: every
// work-item of g calls them, and, as DPC++'s general path does, each starts
// and ends with a barrier of g, so group-local memory written before a
// group_store is complete for all, and a group_load sees what the group
// wrote before it. contiguous_memory and full_group are accepted; they
// promise what slmc does not need.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_SYCL_EXT_ONEAPI_EXPERIMENTAL_GROUP_LOAD_STORE_HPP
#define SLMC_SYCL_EXT_ONEAPI_EXPERIMENTAL_GROUP_LOAD_STORE_HPP

#include "sycl/sycl.hpp"
#include "sycl/ext/oneapi/kernel_properties.hpp"

#include <iterator>
#include <type_traits>

#define SYCL_EXT_ONEAPI_GROUP_LOAD_STORE 1

namespace sycl {
namespace ext {
namespace oneapi {
namespace experimental {

enum class data_placement_enum { blocked, striped };

struct data_placement_key {
  template <data_placement_enum Placement>
  using value_t =
      property_value<data_placement_key,
                     std::integral_constant<int, static_cast<int>(Placement)>>;
};
template <int Placement>
struct property_value<data_placement_key, std::integral_constant<int, Placement>> {
  using key_t = data_placement_key;
  static constexpr data_placement_enum value = data_placement_enum(Placement);
};
template <data_placement_enum Placement>
inline constexpr data_placement_key::value_t<Placement> data_placement;
inline constexpr data_placement_key::value_t<data_placement_enum::blocked>
    data_placement_blocked;
inline constexpr data_placement_key::value_t<data_placement_enum::striped>
    data_placement_striped;

struct contiguous_memory_key {
  using value_t = property_value<contiguous_memory_key>;
};
inline constexpr contiguous_memory_key::value_t contiguous_memory;

struct full_group_key {
  using value_t = property_value<full_group_key>;
};
inline constexpr full_group_key::value_t full_group;

namespace detail {

template <typename Properties> constexpr bool striped() {
  if constexpr (Properties::template has_property<data_placement_key>())
    return decltype(Properties::template get_property<data_placement_key>())::value ==
           data_placement_enum::striped;
  else
    return false;
}

/// Where element k of work-item `item` of `items` lies.
template <bool Striped, size_t N>
SLMC_HD inline size_t element_index(size_t item, size_t items, size_t k) {
  return Striped ? item + items * k : item * N + k;
}

template <typename Iterator>
using iterator_value_t = typename std::remove_cv<
    typename std::iterator_traits<Iterator>::value_type>::type;

template <typename Group, typename Properties>
using if_group_and_properties = typename std::enable_if<
    sycl::is_group_v<typename std::decay<Group>::type> &&
    is_property_list_v<Properties>>::type;

template <typename Group, typename InputIt, typename T, size_t N, typename Properties>
SLMC_HD void load(Group g, InputIt in, T *out) {
  static_assert(std::is_convertible<iterator_value_t<InputIt>, T>::value,
                "group_load: the memory's elements do not convert to the result's");
  constexpr bool Striped = striped<Properties>();
  group_barrier(g);
  const size_t item = g.get_local_linear_id(), items = g.get_local_linear_range();
  if constexpr (std::is_convertible<iterator_value_t<InputIt>, T>::value)
    for (size_t k = 0; k < N; ++k)
      out[k] = in[element_index<Striped, N>(item, items, k)];
  group_barrier(g);
}

template <typename Group, typename T, size_t N, typename OutputIt, typename Properties>
SLMC_HD void store(Group g, const T *in, OutputIt out) {
  static_assert(std::is_convertible<T, iterator_value_t<OutputIt>>::value,
                "group_store: the values do not convert to the memory's elements");
  constexpr bool Striped = striped<Properties>();
  group_barrier(g);
  const size_t item = g.get_local_linear_id(), items = g.get_local_linear_range();
  if constexpr (std::is_convertible<T, iterator_value_t<OutputIt>>::value)
    for (size_t k = 0; k < N; ++k)
      out[element_index<Striped, N>(item, items, k)] = in[k];
  group_barrier(g);
}

} // namespace detail

// ---- Loads -------------------------------------------------------------------

template <typename Group, typename InputIt, typename T, size_t N,
          typename Properties = empty_properties_t,
          typename = detail::if_group_and_properties<Group, Properties>>
SLMC_HD void group_load(Group g, InputIt in_ptr, sycl::span<T, N> out,
                        Properties = {}) {
  static_assert(N != sycl::dynamic_extent,
                "group_load: the span needs a fixed extent (elements per work-item)");
  detail::load<Group, InputIt, T, N, Properties>(g, in_ptr, out.data());
}

template <typename Group, typename InputIt, typename T, int N,
          typename Properties = empty_properties_t,
          typename = detail::if_group_and_properties<Group, Properties>>
SLMC_HD void group_load(Group g, InputIt in_ptr, sycl::vec<T, N> &out, Properties = {}) {
  T values[N];
  detail::load<Group, InputIt, T, size_t(N), Properties>(g, in_ptr, values);
  for (int k = 0; k < N; ++k)
    out[k] = values[k];
}

template <typename Group, typename InputIt, typename T,
          typename Properties = empty_properties_t,
          typename = detail::if_group_and_properties<Group, Properties>,
          typename = typename std::enable_if<
              std::is_convertible<detail::iterator_value_t<InputIt>, T>::value>::type>
SLMC_HD void group_load(Group g, InputIt in_ptr, T &out, Properties = {}) {
  detail::load<Group, InputIt, T, 1, Properties>(g, in_ptr, &out);
}

// ---- Stores ------------------------------------------------------------------

template <typename Group, typename T, size_t N, typename OutputIt,
          typename Properties = empty_properties_t,
          typename = detail::if_group_and_properties<Group, Properties>>
SLMC_HD void group_store(Group g, const sycl::span<T, N> in, OutputIt out_ptr,
                         Properties = {}) {
  static_assert(N != sycl::dynamic_extent,
                "group_store: the span needs a fixed extent (elements per work-item)");
  detail::store<Group, typename std::remove_cv<T>::type, N, OutputIt, Properties>(
      g, in.data(), out_ptr);
}

template <typename Group, typename T, int N, typename OutputIt,
          typename Properties = empty_properties_t,
          typename = detail::if_group_and_properties<Group, Properties>>
SLMC_HD void group_store(Group g, const sycl::vec<T, N> &in, OutputIt out_ptr,
                         Properties = {}) {
  T values[N];
  for (int k = 0; k < N; ++k)
    values[k] = in[k];
  detail::store<Group, T, size_t(N), OutputIt, Properties>(g, values, out_ptr);
}

template <typename Group, typename T, typename OutputIt,
          typename Properties = empty_properties_t,
          typename = detail::if_group_and_properties<Group, Properties>,
          typename = typename std::enable_if<
              std::is_convertible<T, detail::iterator_value_t<OutputIt>>::value>::type>
SLMC_HD void group_store(Group g, const T &in, OutputIt out_ptr, Properties = {}) {
  detail::store<Group, T, 1, OutputIt, Properties>(g, &in, out_ptr);
}

} // namespace experimental
} // namespace oneapi
} // namespace ext
} // namespace sycl

#endif // SLMC_SYCL_EXT_ONEAPI_EXPERIMENTAL_GROUP_LOAD_STORE_HPP
