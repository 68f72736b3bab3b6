//===- sycl/detail/functional.hpp - Function objects and known identities -===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// SYCL 2020 §4.17.2: sycl::plus ... sycl::logical_or (each with a
// transparent <void> form) and known_identity / has_known_identity, which
// the group algorithms use for exclusive scans without an init value.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_SYCL_DETAIL_FUNCTIONAL_HPP
#define SLMC_SYCL_DETAIL_FUNCTIONAL_HPP

#include "sycl/detail/common.hpp"

#include <functional>

namespace sycl {

#define SLMC_SYCL_BINARY_OP(name, expr)                                          \
  template <typename T = void> struct name {                                    \
    using result_type = T;                                                       \
    using first_argument_type = T;                                               \
    using second_argument_type = T;                                              \
    SLMC_HD T operator()(const T &x, const T &y) const { return expr; }          \
  };                                                                             \
  template <> struct name<void> {                                                \
    using is_transparent = void;                                                 \
    template <typename T, typename U>                                            \
    SLMC_HD auto operator()(T &&x, U &&y) const -> decltype(expr) {              \
      return expr;                                                               \
    }                                                                            \
  };
SLMC_SYCL_BINARY_OP(plus, x + y)
SLMC_SYCL_BINARY_OP(multiplies, x * y)
SLMC_SYCL_BINARY_OP(bit_and, x & y)
SLMC_SYCL_BINARY_OP(bit_or, x | y)
SLMC_SYCL_BINARY_OP(bit_xor, x ^ y)
SLMC_SYCL_BINARY_OP(logical_and, x && y)
SLMC_SYCL_BINARY_OP(logical_or, x || y)
#undef SLMC_SYCL_BINARY_OP

// minimum and maximum return the common type of their (possibly different)
// operands, as std::min cannot.
template <typename T = void> struct minimum {
  using result_type = T;
  SLMC_HD T operator()(const T &x, const T &y) const { return y < x ? y : x; }
};
template <> struct minimum<void> {
  using is_transparent = void;
  template <typename T, typename U>
  SLMC_HD typename std::common_type<T, U>::type operator()(const T &x, const U &y) const {
    return y < x ? y : x;
  }
};
template <typename T = void> struct maximum {
  using result_type = T;
  SLMC_HD T operator()(const T &x, const T &y) const { return x < y ? y : x; }
};
template <> struct maximum<void> {
  using is_transparent = void;
  template <typename T, typename U>
  SLMC_HD typename std::common_type<T, U>::type operator()(const T &x, const U &y) const {
    return x < y ? y : x;
  }
};

namespace ext::oneapi {
// DPC++'s earlier spellings of the function objects, which it still ships.
template <typename T = void> using plus = sycl::plus<T>;
template <typename T = void> using multiplies = sycl::multiplies<T>;
template <typename T = void> using bit_and = sycl::bit_and<T>;
template <typename T = void> using bit_or = sycl::bit_or<T>;
template <typename T = void> using bit_xor = sycl::bit_xor<T>;
template <typename T = void> using minimum = sycl::minimum<T>;
template <typename T = void> using maximum = sycl::maximum<T>;
} // namespace ext::oneapi

namespace detail {
/// Largest and lowest values of integer types, and infinities (every pass
/// folds these; <limits> is not what each device pass sees).
template <typename T> SLMC_HD constexpr T int_max() {
  return std::is_signed<T>::value ? T(~(T(1) << (sizeof(T) * 8 - 1))) : T(~T(0));
}
template <typename T> SLMC_HD constexpr T int_lowest() {
  return std::is_signed<T>::value ? T(T(1) << (sizeof(T) * 8 - 1)) : T(0);
}

template <typename BinaryOperation, typename T, typename = void> struct identity_of {
  static constexpr bool known = false;
};
#define SLMC_SYCL_IDENTITY(op, cond, ident)                                      \
  template <typename U, typename T>                                              \
  struct identity_of<op<U>, T,                                                   \
                     typename std::enable_if<(std::is_same<U, T>::value ||       \
                                              std::is_same<U, void>::value) &&   \
                                             (cond)>::type> {                    \
    static constexpr bool known = true;                                          \
    static constexpr T value_() { return ident; }                                \
  };
SLMC_SYCL_IDENTITY(plus, std::is_arithmetic<T>::value, T(0))
SLMC_SYCL_IDENTITY(multiplies, std::is_arithmetic<T>::value, T(1))
SLMC_SYCL_IDENTITY(bit_and, std::is_integral<T>::value, T(~T(0)))
SLMC_SYCL_IDENTITY(bit_or, std::is_integral<T>::value, T(0))
SLMC_SYCL_IDENTITY(bit_xor, std::is_integral<T>::value, T(0))
SLMC_SYCL_IDENTITY(logical_and, std::is_arithmetic<T>::value, T(true))
SLMC_SYCL_IDENTITY(logical_or, std::is_arithmetic<T>::value, T(false))
SLMC_SYCL_IDENTITY(minimum, std::is_integral<T>::value, int_max<T>())
SLMC_SYCL_IDENTITY(minimum, std::is_floating_point<T>::value,
                   T(__builtin_huge_val()))
SLMC_SYCL_IDENTITY(maximum, std::is_integral<T>::value, int_lowest<T>())
SLMC_SYCL_IDENTITY(maximum, std::is_floating_point<T>::value,
                   T(-__builtin_huge_val()))
// The standard function objects (DPC++'s sycl::plus is std::plus).
SLMC_SYCL_IDENTITY(std::plus, std::is_arithmetic<T>::value, T(0))
SLMC_SYCL_IDENTITY(std::multiplies, std::is_arithmetic<T>::value, T(1))
SLMC_SYCL_IDENTITY(std::bit_and, std::is_integral<T>::value, T(~T(0)))
SLMC_SYCL_IDENTITY(std::bit_or, std::is_integral<T>::value, T(0))
SLMC_SYCL_IDENTITY(std::bit_xor, std::is_integral<T>::value, T(0))
SLMC_SYCL_IDENTITY(std::logical_and, std::is_arithmetic<T>::value, T(true))
SLMC_SYCL_IDENTITY(std::logical_or, std::is_arithmetic<T>::value, T(false))
#undef SLMC_SYCL_IDENTITY
} // namespace detail

template <typename BinaryOperation, typename AccumulatorT>
struct has_known_identity
    : std::integral_constant<bool, detail::identity_of<typename std::decay<BinaryOperation>::type,
                                                       AccumulatorT>::known> {};
template <typename BinaryOperation, typename AccumulatorT>
inline constexpr bool has_known_identity_v =
    has_known_identity<BinaryOperation, AccumulatorT>::value;

template <typename BinaryOperation, typename AccumulatorT> struct known_identity {
  static_assert(has_known_identity<BinaryOperation, AccumulatorT>::value,
                "known_identity: this operation has no known identity for this type");
  static constexpr AccumulatorT value =
      detail::identity_of<typename std::decay<BinaryOperation>::type, AccumulatorT>::value_();
};
template <typename BinaryOperation, typename AccumulatorT>
inline constexpr AccumulatorT known_identity_v =
    known_identity<BinaryOperation, AccumulatorT>::value;

} // namespace sycl

#endif // SLMC_SYCL_DETAIL_FUNCTIONAL_HPP
