//===- sycl/detail/multi_ptr.hpp - multi_ptr and its aliases --------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A pointer tagged with the address space it points into. Device code here
// uses generic pointers (the device compilers infer the real address space),
// so every decoration holds a plain T*; the tag stays part of the type, as
// programs spell it.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_SYCL_DETAIL_MULTI_PTR_HPP
#define SLMC_SYCL_DETAIL_MULTI_PTR_HPP

#include "sycl/detail/common.hpp"

namespace sycl {

namespace detail {
/// Accessors expose their data to multi_ptr through slmc_data().
template <typename A, typename T, typename = void> struct has_slmc_data : std::false_type {};
template <typename A, typename T>
struct has_slmc_data<A, T, decltype(void(static_cast<T *>(std::declval<const A &>().slmc_data())))>
    : std::true_type {};
} // namespace detail

template <typename ElementType, access::address_space Space,
          access::decorated DecorateAddress = access::decorated::legacy>
class multi_ptr {
public:
  using element_type = ElementType;
  using value_type = typename std::remove_cv<ElementType>::type;
  using difference_type = std::ptrdiff_t;
  using pointer = ElementType *;
  using reference = ElementType &;
  using iterator_category = std::random_access_iterator_tag;
  static constexpr bool is_decorated = DecorateAddress == access::decorated::yes;
  static constexpr access::address_space address_space = Space;

  SLMC_HD multi_ptr() : p_(nullptr) {}
  SLMC_HD multi_ptr(std::nullptr_t) : p_(nullptr) {}
  SLMC_HD multi_ptr(ElementType *p) : p_(p) {}
  /// Between decorations of the same space, and to const.
  template <typename U, access::decorated D,
            typename = typename std::enable_if<std::is_convertible<U *, ElementType *>::value>::type>
  SLMC_HD multi_ptr(const multi_ptr<U, Space, D> &o) : p_(o.get_raw()) {}
  /// Any space converts to generic.
  template <typename U, access::address_space S, access::decorated D,
            access::address_space Me = Space,
            typename = typename std::enable_if<
                Me == access::address_space::generic_space && S != Me &&
                std::is_convertible<U *, ElementType *>::value>::type>
  SLMC_HD multi_ptr(const multi_ptr<U, S, D> &o) : p_(o.get_raw()) {}
  /// From an accessor (global or local).
  template <typename A, typename = typename std::enable_if<
                            detail::has_slmc_data<A, ElementType>::value>::type>
  SLMC_HD multi_ptr(const A &acc) : p_(acc.slmc_data()) {}

  SLMC_HD ElementType &operator*() const { return *p_; }
  SLMC_HD ElementType *operator->() const { return p_; }
  SLMC_HD ElementType &operator[](std::ptrdiff_t i) const { return p_[i]; }

  SLMC_HD ElementType *get() const { return p_; }
  SLMC_HD ElementType *get_raw() const { return p_; }
  SLMC_HD ElementType *get_decorated() const { return p_; }
  SLMC_HD operator ElementType *() const { return p_; }
  /// multi_ptr<T> converts to multi_ptr<void> / multi_ptr<const void>.
  template <typename V, access::decorated D,
            typename = typename std::enable_if<std::is_void<V>::value>::type>
  SLMC_HD operator multi_ptr<V, Space, D>() const {
    return multi_ptr<V, Space, D>(static_cast<V *>(p_));
  }

  SLMC_HD multi_ptr &operator++() { ++p_; return *this; }
  SLMC_HD multi_ptr operator++(int) { multi_ptr t(*this); ++p_; return t; }
  SLMC_HD multi_ptr &operator--() { --p_; return *this; }
  SLMC_HD multi_ptr operator--(int) { multi_ptr t(*this); --p_; return t; }
  SLMC_HD multi_ptr &operator+=(std::ptrdiff_t n) { p_ += n; return *this; }
  SLMC_HD multi_ptr &operator-=(std::ptrdiff_t n) { p_ -= n; return *this; }
  SLMC_HD friend multi_ptr operator+(const multi_ptr &a, std::ptrdiff_t n) { return multi_ptr(a.p_ + n); }
  SLMC_HD friend multi_ptr operator+(std::ptrdiff_t n, const multi_ptr &a) { return multi_ptr(a.p_ + n); }
  SLMC_HD friend multi_ptr operator-(const multi_ptr &a, std::ptrdiff_t n) { return multi_ptr(a.p_ - n); }
  SLMC_HD friend std::ptrdiff_t operator-(const multi_ptr &a, const multi_ptr &b) { return a.p_ - b.p_; }

  SLMC_HD friend bool operator==(const multi_ptr &a, const multi_ptr &b) { return a.p_ == b.p_; }
  SLMC_HD friend bool operator!=(const multi_ptr &a, const multi_ptr &b) { return a.p_ != b.p_; }
  SLMC_HD friend bool operator<(const multi_ptr &a, const multi_ptr &b) { return a.p_ < b.p_; }
  SLMC_HD friend bool operator>(const multi_ptr &a, const multi_ptr &b) { return a.p_ > b.p_; }
  SLMC_HD friend bool operator<=(const multi_ptr &a, const multi_ptr &b) { return a.p_ <= b.p_; }
  SLMC_HD friend bool operator>=(const multi_ptr &a, const multi_ptr &b) { return a.p_ >= b.p_; }
  SLMC_HD friend bool operator==(const multi_ptr &a, std::nullptr_t) { return a.p_ == nullptr; }
  SLMC_HD friend bool operator!=(const multi_ptr &a, std::nullptr_t) { return a.p_ != nullptr; }
  SLMC_HD friend bool operator==(std::nullptr_t, const multi_ptr &a) { return a.p_ == nullptr; }
  SLMC_HD friend bool operator!=(std::nullptr_t, const multi_ptr &a) { return a.p_ != nullptr; }

  /// A hint; nothing to do here.
  SLMC_HD void prefetch(size_t) const {}

private:
  ElementType *p_;
};

/// multi_ptr<void> and multi_ptr<const void>: no dereference or arithmetic.
#define SLMC_SYCL_VOID_MULTI_PTR(CV)                                               \
  template <access::address_space Space, access::decorated DecorateAddress>       \
  class multi_ptr<CV void, Space, DecorateAddress> {                               \
  public:                                                                          \
    using element_type = CV void;                                                  \
    using difference_type = std::ptrdiff_t;                                        \
    using pointer = CV void *;                                                     \
    static constexpr bool is_decorated = DecorateAddress == access::decorated::yes; \
    static constexpr access::address_space address_space = Space;                  \
    SLMC_HD multi_ptr() : p_(nullptr) {}                                           \
    SLMC_HD multi_ptr(std::nullptr_t) : p_(nullptr) {}                             \
    SLMC_HD multi_ptr(CV void *p) : p_(p) {}                                       \
    template <typename U, access::decorated D>                                     \
    SLMC_HD multi_ptr(const multi_ptr<U, Space, D> &o) : p_(o.get_raw()) {}        \
    SLMC_HD CV void *get() const { return p_; }                                    \
    SLMC_HD CV void *get_raw() const { return p_; }                                \
    SLMC_HD CV void *get_decorated() const { return p_; }                          \
    SLMC_HD operator CV void *() const { return p_; }                              \
    template <typename U, access::decorated D>                                     \
    SLMC_HD explicit operator multi_ptr<U, Space, D>() const {                     \
      return multi_ptr<U, Space, D>(static_cast<U *>(p_));                         \
    }                                                                              \
    SLMC_HD friend bool operator==(const multi_ptr &a, const multi_ptr &b) { return a.p_ == b.p_; } \
    SLMC_HD friend bool operator!=(const multi_ptr &a, const multi_ptr &b) { return a.p_ != b.p_; } \
                                                                                   \
  private:                                                                         \
    CV void *p_;                                                                   \
  };
SLMC_SYCL_VOID_MULTI_PTR()
SLMC_SYCL_VOID_MULTI_PTR(const)
#undef SLMC_SYCL_VOID_MULTI_PTR

template <typename T, access::decorated D = access::decorated::legacy>
using global_ptr = multi_ptr<T, access::address_space::global_space, D>;
template <typename T, access::decorated D = access::decorated::legacy>
using local_ptr = multi_ptr<T, access::address_space::local_space, D>;
template <typename T, access::decorated D = access::decorated::legacy>
using private_ptr = multi_ptr<T, access::address_space::private_space, D>;
template <typename T, access::decorated D = access::decorated::legacy>
using constant_ptr = multi_ptr<T, access::address_space::constant_space, D>;
template <typename T, access::decorated D = access::decorated::legacy>
using generic_ptr = multi_ptr<T, access::address_space::generic_space, D>;
template <typename T> using raw_global_ptr = global_ptr<T, access::decorated::no>;
template <typename T> using raw_local_ptr = local_ptr<T, access::decorated::no>;
template <typename T> using raw_private_ptr = private_ptr<T, access::decorated::no>;
template <typename T> using decorated_global_ptr = global_ptr<T, access::decorated::yes>;
template <typename T> using decorated_local_ptr = local_ptr<T, access::decorated::yes>;
template <typename T> using decorated_private_ptr = private_ptr<T, access::decorated::yes>;

/// Tags a pointer with the address space the caller knows it points into.
template <access::address_space Space, access::decorated D, typename T>
SLMC_HD multi_ptr<T, Space, D> address_space_cast(T *p) {
  return multi_ptr<T, Space, D>(p);
}

template <typename T, access::address_space Space, access::decorated D>
SLMC_HD multi_ptr<T, Space, D> make_ptr(T *p) {
  return multi_ptr<T, Space, D>(p);
}

} // namespace sycl

#endif // SLMC_SYCL_DETAIL_MULTI_PTR_HPP
