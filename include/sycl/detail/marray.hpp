//===- sycl/detail/marray.hpp - sycl::marray -------------------------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// sycl::marray<T, N> (SYCL 2020 §4.14.3): an array of any N elements of
// any type, with element-wise operators. Unlike vec, comparisons and
// logical operators give marray<bool, N>, and there are no swizzles.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_SYCL_DETAIL_MARRAY_HPP
#define SLMC_SYCL_DETAIL_MARRAY_HPP

#include "sycl/detail/common.hpp"
#include "sycl/detail/half.hpp"

namespace sycl {

template <typename T, size_t N> class marray;

namespace detail {
template <typename T> struct is_marray : std::false_type {};
template <typename T, size_t N> struct is_marray<marray<T, N>> : std::true_type {};
template <typename A> struct marray_arg_count : std::integral_constant<size_t, 1> {};
template <typename T, size_t N>
struct marray_arg_count<marray<T, N>> : std::integral_constant<size_t, N> {};
} // namespace detail

template <typename T, size_t N> class marray {
  static_assert(N > 0, "sycl::marray: the number of elements must be at least 1");
  static_assert(!std::is_const<T>::value && !std::is_volatile<T>::value &&
                    !std::is_reference<T>::value,
                "sycl::marray: the element type must be a cv-unqualified object type");
  template <typename, size_t> friend class marray;

public:
  using value_type = T;
  using reference = T &;
  using const_reference = const T &;
  using iterator = T *;
  using const_iterator = const T *;

  SLMC_HD constexpr marray() : d_{} {}
  SLMC_HD explicit constexpr marray(const T &x) : d_{} {
    for (size_t i = 0; i < N; ++i)
      d_[i] = x;
  }
  /// An element list: scalars convertible to T and marrays of T.
  template <typename A0, typename A1, typename... As,
            typename = typename std::enable_if<
                (detail::marray_arg_count<A0>::value + detail::marray_arg_count<A1>::value +
                 (0 + ... + detail::marray_arg_count<As>::value)) == N>::type>
  SLMC_HD constexpr marray(const A0 &a0, const A1 &a1, const As &...as) : d_{} {
    size_t i = 0;
    put(i, a0);
    put(i, a1);
    (put(i, as), ...);
  }
  SLMC_HD constexpr marray(const marray &) = default;
  SLMC_HD constexpr marray &operator=(const marray &) = default;
  SLMC_HD constexpr marray &operator=(const T &x) {
    for (size_t i = 0; i < N; ++i)
      d_[i] = x;
    return *this;
  }

  template <size_t K = N, typename = typename std::enable_if<K == 1>::type>
  SLMC_HD constexpr operator T() const {
    return d_[0];
  }

  SLMC_HD static constexpr size_t size() noexcept { return N; }
  SLMC_HD constexpr T &operator[](size_t i) { return d_[i]; }
  SLMC_HD constexpr const T &operator[](size_t i) const { return d_[i]; }
  SLMC_HD constexpr T *begin() { return d_; }
  SLMC_HD constexpr const T *begin() const { return d_; }
  SLMC_HD constexpr T *end() { return d_ + N; }
  SLMC_HD constexpr const T *end() const { return d_ + N; }

#define SLMC_MARRAY_BINOP(op)                                                  \
  template <typename U = T, typename = decltype(U() op U())>                   \
  friend SLMC_HD constexpr marray operator op(const marray &a, const marray &b) { \
    marray r;                                                                  \
    for (size_t i = 0; i < N; ++i)                                             \
      r.d_[i] = T(a.d_[i] op b.d_[i]);                                         \
    return r;                                                                  \
  }                                                                            \
  template <typename X, typename U = T, typename = decltype(U() op U()),       \
            typename = typename std::enable_if<std::is_convertible<X, T>::value && \
                                               !detail::is_marray<X>::value>::type> \
  friend SLMC_HD constexpr marray operator op(const marray &a, const X &b) {   \
    return a op marray(static_cast<T>(b));                                     \
  }                                                                            \
  template <typename X, typename U = T, typename = decltype(U() op U()),       \
            typename = typename std::enable_if<std::is_convertible<X, T>::value && \
                                               !detail::is_marray<X>::value>::type> \
  friend SLMC_HD constexpr marray operator op(const X &a, const marray &b) {   \
    return marray(static_cast<T>(a)) op b;                                     \
  }                                                                            \
  template <typename X> SLMC_HD constexpr marray &operator op##=(const X &b) { \
    return *this = *this op b;                                                 \
  }
  SLMC_MARRAY_BINOP(+)
  SLMC_MARRAY_BINOP(-)
  SLMC_MARRAY_BINOP(*)
  SLMC_MARRAY_BINOP(/)
  SLMC_MARRAY_BINOP(%)
  SLMC_MARRAY_BINOP(&)
  SLMC_MARRAY_BINOP(|)
  SLMC_MARRAY_BINOP(^)
  SLMC_MARRAY_BINOP(<<)
  SLMC_MARRAY_BINOP(>>)
#undef SLMC_MARRAY_BINOP

#define SLMC_MARRAY_RELOP(op)                                                  \
  friend SLMC_HD constexpr marray<bool, N> operator op(const marray &a, const marray &b) { \
    marray<bool, N> r;                                                         \
    for (size_t i = 0; i < N; ++i)                                             \
      r.d_[i] = bool(a.d_[i] op b.d_[i]);                                      \
    return r;                                                                  \
  }                                                                            \
  template <typename X, typename = typename std::enable_if<                    \
                            std::is_convertible<X, T>::value && !detail::is_marray<X>::value>::type> \
  friend SLMC_HD constexpr marray<bool, N> operator op(const marray &a, const X &b) { \
    return a op marray(static_cast<T>(b));                                     \
  }                                                                            \
  template <typename X, typename = typename std::enable_if<                    \
                            std::is_convertible<X, T>::value && !detail::is_marray<X>::value>::type> \
  friend SLMC_HD constexpr marray<bool, N> operator op(const X &a, const marray &b) { \
    return marray(static_cast<T>(a)) op b;                                     \
  }
  SLMC_MARRAY_RELOP(==)
  SLMC_MARRAY_RELOP(!=)
  SLMC_MARRAY_RELOP(<)
  SLMC_MARRAY_RELOP(>)
  SLMC_MARRAY_RELOP(<=)
  SLMC_MARRAY_RELOP(>=)
  SLMC_MARRAY_RELOP(&&)
  SLMC_MARRAY_RELOP(||)
#undef SLMC_MARRAY_RELOP

  SLMC_HD constexpr marray<bool, N> operator!() const {
    marray<bool, N> r;
    for (size_t i = 0; i < N; ++i)
      r.d_[i] = !d_[i];
    return r;
  }
  SLMC_HD constexpr marray operator~() const {
    marray r;
    for (size_t i = 0; i < N; ++i)
      r.d_[i] = T(~d_[i]);
    return r;
  }
  SLMC_HD constexpr marray operator+() const { return *this; }
  SLMC_HD constexpr marray operator-() const {
    marray r;
    for (size_t i = 0; i < N; ++i)
      r.d_[i] = T(-d_[i]);
    return r;
  }
  SLMC_HD constexpr marray &operator++() { return *this += T(1); }
  SLMC_HD constexpr marray &operator--() { return *this -= T(1); }
  SLMC_HD constexpr marray operator++(int) { marray t = *this; *this += T(1); return t; }
  SLMC_HD constexpr marray operator--(int) { marray t = *this; *this -= T(1); return t; }

private:
  template <typename A, typename = typename std::enable_if<!detail::is_marray<A>::value>::type>
  SLMC_HD constexpr void put(size_t &i, const A &x) {
    d_[i++] = static_cast<T>(x);
  }
  template <size_t M> SLMC_HD constexpr void put(size_t &i, const marray<T, M> &a) {
    for (size_t k = 0; k < M; ++k)
      d_[i++] = a.d_[k];
  }

  T d_[N];
};

template <class T, class... U>
marray(T, U...) -> marray<T, sizeof...(U) + 1>;

#define SLMC_MARRAY_ALIASES(prefix, type)                                      \
  using m##prefix##2 = marray<type, 2>;                                        \
  using m##prefix##3 = marray<type, 3>;                                        \
  using m##prefix##4 = marray<type, 4>;                                        \
  using m##prefix##8 = marray<type, 8>;                                        \
  using m##prefix##16 = marray<type, 16>;
SLMC_MARRAY_ALIASES(char, int8_t)
SLMC_MARRAY_ALIASES(uchar, uint8_t)
SLMC_MARRAY_ALIASES(short, int16_t)
SLMC_MARRAY_ALIASES(ushort, uint16_t)
SLMC_MARRAY_ALIASES(int, int32_t)
SLMC_MARRAY_ALIASES(uint, uint32_t)
SLMC_MARRAY_ALIASES(long, int64_t)
SLMC_MARRAY_ALIASES(ulong, uint64_t)
SLMC_MARRAY_ALIASES(half, half)
SLMC_MARRAY_ALIASES(float, float)
SLMC_MARRAY_ALIASES(double, double)
SLMC_MARRAY_ALIASES(bool, bool)
#undef SLMC_MARRAY_ALIASES

} // namespace sycl

#endif // SLMC_SYCL_DETAIL_MARRAY_HPP
