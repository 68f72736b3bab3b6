//===- sycl/detail/half.hpp - sycl::half, the 16-bit IEEE float ------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// sycl::half (SYCL 2020 §4.14.1) is IEEE 754 binary16. It wraps Clang's
// _Float16, which every pass has (x86-64 host and check pass, spirv64,
// nvptx64): a half operation rounds its exact result once to binary16, on
// the CPU as on the devices (SPIR-V OpFAdd on half, PTX add.f16).
//
// Arithmetic between two halves gives a half; with float or double the
// half is widened first (as for any floating type), with an integer the
// integer is converted to half.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_SYCL_DETAIL_HALF_HPP
#define SLMC_SYCL_DETAIL_HALF_HPP

#include "sycl/detail/common.hpp"

#include <limits>

namespace sycl {

class half;

namespace detail {
template <typename T>
inline constexpr bool is_arith_v = std::is_arithmetic<T>::value && !std::is_same<T, bool>::value;
} // namespace detail

class half {
public:
  half() = default;
  template <typename T, typename = typename std::enable_if<std::is_arithmetic<T>::value>::type>
  SLMC_HD constexpr half(T x) : v_(static_cast<_Float16>(x)) {}
  SLMC_HD constexpr operator float() const { return static_cast<float>(v_); }

  /// The binary16 value as Clang's type (for the math built-ins).
  SLMC_HD constexpr _Float16 native() const { return v_; }
  SLMC_HD static constexpr half from_native(_Float16 v) { return half(v, 0); }
  SLMC_HD static constexpr half from_bits(uint16_t b) {
    return from_native(__builtin_bit_cast(_Float16, b));
  }
  SLMC_HD constexpr uint16_t bits() const { return __builtin_bit_cast(uint16_t, v_); }

  SLMC_HD constexpr half operator-() const { return from_native(-v_); }
  SLMC_HD constexpr half operator+() const { return *this; }
  SLMC_HD constexpr half &operator++() { v_ = v_ + (_Float16)1; return *this; }
  SLMC_HD constexpr half &operator--() { v_ = v_ - (_Float16)1; return *this; }
  SLMC_HD constexpr half operator++(int) { half t = *this; ++*this; return t; }
  SLMC_HD constexpr half operator--(int) { half t = *this; --*this; return t; }

#define SLMC_HALF_OP(op)                                                       \
  friend SLMC_HD constexpr half operator op(half a, half b) {                  \
    return from_native(a.v_ op b.v_);                                          \
  }                                                                            \
  template <typename T, typename = typename std::enable_if<detail::is_arith_v<T>>::type> \
  friend SLMC_HD constexpr auto operator op(half a, T b) {                     \
    if constexpr (std::is_floating_point<T>::value)                            \
      return static_cast<T>(a.v_) op b;                                        \
    else                                                                       \
      return a op half(b);                                                     \
  }                                                                            \
  template <typename T, typename = typename std::enable_if<detail::is_arith_v<T>>::type> \
  friend SLMC_HD constexpr auto operator op(T a, half b) {                     \
    if constexpr (std::is_floating_point<T>::value)                            \
      return a op static_cast<T>(b.v_);                                        \
    else                                                                       \
      return half(a) op b;                                                     \
  }                                                                            \
  SLMC_HD constexpr half &operator op##=(half b) {                             \
    v_ = v_ op b.v_;                                                           \
    return *this;                                                              \
  }                                                                            \
  template <typename T, typename = typename std::enable_if<detail::is_arith_v<T>>::type> \
  SLMC_HD constexpr half &operator op##=(T b) {                                \
    *this = half(*this op b);                                                  \
    return *this;                                                              \
  }
  SLMC_HALF_OP(+)
  SLMC_HALF_OP(-)
  SLMC_HALF_OP(*)
  SLMC_HALF_OP(/)
#undef SLMC_HALF_OP

#define SLMC_HALF_CMP(op)                                                      \
  friend SLMC_HD constexpr bool operator op(half a, half b) { return a.v_ op b.v_; } \
  template <typename T, typename = typename std::enable_if<detail::is_arith_v<T>>::type> \
  friend SLMC_HD constexpr bool operator op(half a, T b) {                     \
    if constexpr (std::is_floating_point<T>::value)                            \
      return static_cast<T>(a.v_) op b;                                        \
    else                                                                       \
      return static_cast<float>(a.v_) op static_cast<float>(b);                \
  }                                                                            \
  template <typename T, typename = typename std::enable_if<detail::is_arith_v<T>>::type> \
  friend SLMC_HD constexpr bool operator op(T a, half b) {                     \
    if constexpr (std::is_floating_point<T>::value)                            \
      return a op static_cast<T>(b.v_);                                        \
    else                                                                       \
      return static_cast<float>(a) op static_cast<float>(b.v_);                \
  }
  SLMC_HALF_CMP(==)
  SLMC_HALF_CMP(!=)
  SLMC_HALF_CMP(<)
  SLMC_HALF_CMP(<=)
  SLMC_HALF_CMP(>)
  SLMC_HALF_CMP(>=)
#undef SLMC_HALF_CMP

private:
  SLMC_HD constexpr half(_Float16 v, int) : v_(v) {}
  _Float16 v_;
};

static_assert(sizeof(half) == 2 && alignof(half) == 2, "sycl::half is binary16");

namespace detail {
template <typename T> struct is_half : std::false_type {};
template <> struct is_half<half> : std::true_type {};
/// float, double and half: SYCL's genfloat element types.
template <typename T>
inline constexpr bool is_genfloat_v = std::is_same<T, float>::value ||
                                      std::is_same<T, double>::value ||
                                      std::is_same<T, half>::value;
} // namespace detail

} // namespace sycl

namespace std {
template <> struct numeric_limits<sycl::half> {
  static constexpr bool is_specialized = true;
  static constexpr bool is_signed = true;
  static constexpr bool is_integer = false;
  static constexpr bool is_exact = false;
  static constexpr bool has_infinity = true;
  static constexpr bool has_quiet_NaN = true;
  static constexpr bool has_signaling_NaN = true;
  static constexpr float_denorm_style has_denorm = denorm_present;
  static constexpr bool has_denorm_loss = false;
  static constexpr float_round_style round_style = round_to_nearest;
  static constexpr bool is_iec559 = true;
  static constexpr bool is_bounded = true;
  static constexpr bool is_modulo = false;
  static constexpr int digits = 11;
  static constexpr int digits10 = 3;
  static constexpr int max_digits10 = 5;
  static constexpr int radix = 2;
  static constexpr int min_exponent = -13;
  static constexpr int min_exponent10 = -4;
  static constexpr int max_exponent = 16;
  static constexpr int max_exponent10 = 4;
  static constexpr bool traps = false;
  static constexpr bool tinyness_before = false;
  SLMC_HD static constexpr sycl::half min() noexcept { return sycl::half::from_bits(0x0400); }
  SLMC_HD static constexpr sycl::half max() noexcept { return sycl::half::from_bits(0x7bff); }
  SLMC_HD static constexpr sycl::half lowest() noexcept { return sycl::half::from_bits(0xfbff); }
  SLMC_HD static constexpr sycl::half epsilon() noexcept { return sycl::half::from_bits(0x1400); }
  SLMC_HD static constexpr sycl::half round_error() noexcept { return sycl::half::from_bits(0x3800); }
  SLMC_HD static constexpr sycl::half infinity() noexcept { return sycl::half::from_bits(0x7c00); }
  SLMC_HD static constexpr sycl::half quiet_NaN() noexcept { return sycl::half::from_bits(0x7e00); }
  SLMC_HD static constexpr sycl::half signaling_NaN() noexcept { return sycl::half::from_bits(0x7d00); }
  SLMC_HD static constexpr sycl::half denorm_min() noexcept { return sycl::half::from_bits(0x0001); }
};

template <> struct hash<sycl::half> {
  size_t operator()(sycl::half h) const noexcept { return hash<uint16_t>()(h.bits()); }
};
} // namespace std

#endif // SLMC_SYCL_DETAIL_HALF_HPP
