//===- sycl/ext/oneapi/kernel_properties.hpp - kernel launch properties ---===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// sycl_ext_oneapi_properties and sycl_ext_oneapi_kernel_properties: the
// compile-time properties a kernel carries, passed to a launch
//
//   q.parallel_for(nd_range, properties{work_group_size<8, 8>}, kernel);
//
// or returned by a functor's `get(properties_tag)`. work_group_size<...>
// means what [[sycl::reqd_work_group_size(...)]] means (the slowest
// dimension first), sub_group_size<N> what [[sycl::reqd_sub_group_size(N)]]
// means; work_group_size_hint<...> is accepted and changes nothing. The
// SYCL handler reads them from the kernel's type (kernel_properties_of).
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_SYCL_EXT_ONEAPI_KERNEL_PROPERTIES_HPP
#define SLMC_SYCL_EXT_ONEAPI_KERNEL_PROPERTIES_HPP

#include "slmc/offload.h"

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#define SYCL_EXT_ONEAPI_PROPERTIES 1
#define SYCL_EXT_ONEAPI_KERNEL_PROPERTIES 1

namespace sycl {
namespace ext {
namespace oneapi {
namespace experimental {

/// The argument of a kernel functor's `get` that returns its properties.
struct properties_tag {};

/// A property's value: its key and its compile-time parameters.
template <typename Key, typename... Values> struct property_value {
  using key_t = Key;
};

struct work_group_size_key {
  template <size_t... Dims>
  using value_t = property_value<work_group_size_key, std::integral_constant<size_t, Dims>...>;
};
struct work_group_size_hint_key {
  template <size_t... Dims>
  using value_t =
      property_value<work_group_size_hint_key, std::integral_constant<size_t, Dims>...>;
};
struct sub_group_size_key {
  template <uint32_t Size>
  using value_t = property_value<sub_group_size_key, std::integral_constant<uint32_t, Size>>;
};

template <size_t... Dims>
struct property_value<work_group_size_key, std::integral_constant<size_t, Dims>...> {
  using key_t = work_group_size_key;
  static constexpr size_t dims[] = {Dims...};
  constexpr size_t operator[](int d) const { return dims[d]; }
};
template <size_t... Dims>
struct property_value<work_group_size_hint_key, std::integral_constant<size_t, Dims>...> {
  using key_t = work_group_size_hint_key;
  static constexpr size_t dims[] = {Dims...};
  constexpr size_t operator[](int d) const { return dims[d]; }
};
template <uint32_t Size>
struct property_value<sub_group_size_key, std::integral_constant<uint32_t, Size>> {
  using key_t = sub_group_size_key;
  static constexpr uint32_t value = Size;
};

// Each property checks its parameters where it is named, in its variable's
// initializer, and not in its value's class: a class whose static assertion
// fails has no members, and each later use of the property (the launch,
// the handler's queries) would report an error again.
template <size_t... Dims>
inline constexpr work_group_size_key::value_t<Dims...> work_group_size = [] {
  static_assert(sizeof...(Dims) >= 1 && sizeof...(Dims) <= 3,
                "work_group_size takes one to three dimensions");
  static_assert(((Dims > 0) && ...), "work_group_size: the dimensions must be positive");
  return work_group_size_key::value_t<Dims...>{};
}();
template <size_t... Dims>
inline constexpr work_group_size_hint_key::value_t<Dims...> work_group_size_hint = [] {
  static_assert(sizeof...(Dims) >= 1 && sizeof...(Dims) <= 3,
                "work_group_size_hint takes one to three dimensions");
  return work_group_size_hint_key::value_t<Dims...>{};
}();
template <uint32_t Size>
inline constexpr sub_group_size_key::value_t<Size> sub_group_size = [] {
  static_assert(Size > 0, "sub_group_size: the size must be positive");
  return sub_group_size_key::value_t<Size>{};
}();

/// A set of property values, one per key.
template <typename... Props> class properties {
public:
  constexpr properties() = default;
  template <size_t N = sizeof...(Props), typename = typename std::enable_if<(N > 0)>::type>
  constexpr explicit properties(Props...) {}

  template <typename Key> static constexpr bool has_property() {
    return (std::is_same<typename Props::key_t, Key>::value || ...);
  }
  template <typename Key> static constexpr auto get_property() {
    static_assert(has_property<Key>(), "get_property: the properties have no such key");
    return find<Key, Props...>();
  }

private:
  template <typename Key, typename P, typename... Rest> static constexpr auto find() {
    if constexpr (std::is_same<typename P::key_t, Key>::value)
      return P{};
    else
      return find<Key, Rest...>();
  }
};
template <typename... Props> properties(Props...) -> properties<Props...>;
using empty_properties_t = properties<>;

template <typename T> struct is_property_list : std::false_type {};
template <typename... Props> struct is_property_list<properties<Props...>> : std::true_type {};
template <typename T> inline constexpr bool is_property_list_v = is_property_list<T>::value;

} // namespace experimental
} // namespace oneapi
} // namespace ext

namespace detail {
namespace props = ext::oneapi::experimental;

/// The properties a kernel carries: what its `get(properties_tag)` returns,
/// or none.
template <typename K, typename = void> struct kernel_properties_of {
  using type = props::empty_properties_t;
};
template <typename K>
struct kernel_properties_of<
    K, std::void_t<decltype(std::declval<const K &>().get(props::properties_tag{}))>> {
  using type =
      typename std::decay<decltype(std::declval<const K &>().get(props::properties_tag{}))>::type;
};

/// work_group_size in a kernel's properties, as SYCL writes it (dims 0:
/// none).
template <typename P> struct written_shape_of_property {
  static constexpr slmc::written_group_shape value = {0, {0, 0, 0}};
};
template <size_t... Dims>
struct written_shape_of_property<props::work_group_size_key::value_t<Dims...>> {
  // Four or more dimensions are no shape (the property's own check says so).
  static constexpr size_t n = sizeof...(Dims) <= 3 ? sizeof...(Dims) : 0;
  static constexpr size_t given[] = {Dims..., 0};
  static constexpr slmc::written_group_shape value = {
      unsigned(n), {n > 0 ? given[0] : 0, n > 1 ? given[1] : 0, n > 2 ? given[2] : 0}};
};
template <typename Props> struct written_shape_of_properties;
template <typename... P> struct written_shape_of_properties<props::properties<P...>> {
  static constexpr slmc::written_group_shape value() {
    slmc::written_group_shape found = {0, {0, 0, 0}};
    ((found = written_shape_of_property<P>::value.dims ? written_shape_of_property<P>::value
                                                       : found),
     ...);
    return found;
  }
};
template <typename K>
constexpr slmc::written_group_shape property_work_group_size() {
  return written_shape_of_properties<typename kernel_properties_of<K>::type>::value();
}

/// sub_group_size in a kernel's properties (0: none).
template <typename Props> struct sub_group_size_of_properties;
template <typename... P> struct sub_group_size_of_properties<props::properties<P...>> {
  static constexpr uint32_t value() {
    uint32_t found = 0;
    ((found = std::is_same<typename P::key_t, props::sub_group_size_key>::value
                  ? sub_group_size_value<P>()
                  : found),
     ...);
    return found;
  }
  template <typename V> static constexpr uint32_t sub_group_size_value() {
    if constexpr (std::is_same<typename V::key_t, props::sub_group_size_key>::value)
      return V::value;
    else
      return 0;
  }
};
template <typename K> constexpr uint32_t property_sub_group_size() {
  return sub_group_size_of_properties<typename kernel_properties_of<K>::type>::value();
}

/// A kernel launched with properties: the kernel itself plus a
/// `get(properties_tag)` that returns them.
template <typename K, typename Props> struct kernel_with_properties : K {
  SLMC_HD explicit kernel_with_properties(const K &k) : K(k) {}
  using K::operator();
  SLMC_HD Props get(props::properties_tag) const { return Props(); }
};
template <typename Props, typename K>
kernel_with_properties<K, Props> with_properties(const K &kernel) {
  return kernel_with_properties<K, Props>(kernel);
}

} // namespace detail
} // namespace sycl

#endif // SLMC_SYCL_EXT_ONEAPI_KERNEL_PROPERTIES_HPP
