//===- sycl/detail/atomic.hpp - atomic_ref --------------------------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// atomic_ref over Clang's scoped atomic builtins, which carry the memory
// scope to the device compilers (SPIR-V scopes; PTX uses system scope for
// all of them, which is stronger).
//
// Two SPIR-V details: LLVM's SPIR-V backend turns atomic loads and stores
// into plain OpLoad/OpStore, so in the SPIR-V pass a load is an atomic OR
// with zero and a store an atomic exchange; and floating-point read-modify-
// write operations are compare-exchange loops there (atomic float add needs
// an extension that the driver does not enable).
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_SYCL_DETAIL_ATOMIC_HPP
#define SLMC_SYCL_DETAIL_ATOMIC_HPP

#include "sycl/detail/common.hpp"

namespace sycl {
namespace detail {

SLMC_HD constexpr int builtin_order(memory_order o) {
  return o == memory_order::relaxed   ? __ATOMIC_RELAXED
         : o == memory_order::acquire ? __ATOMIC_ACQUIRE
         : o == memory_order::release ? __ATOMIC_RELEASE
         : o == memory_order::acq_rel ? __ATOMIC_ACQ_REL
                                      : __ATOMIC_SEQ_CST;
}

/// The order of a load or of a compare-exchange failure: no release part.
SLMC_HD constexpr int builtin_load_order(memory_order o) {
  return o == memory_order::relaxed                                  ? __ATOMIC_RELAXED
         : o == memory_order::release                                ? __ATOMIC_RELAXED
         : o == memory_order::acquire || o == memory_order::acq_rel ? __ATOMIC_ACQUIRE
                                                                    : __ATOMIC_SEQ_CST;
}

SLMC_HD constexpr int builtin_store_order(memory_order o) {
  return o == memory_order::relaxed                                  ? __ATOMIC_RELAXED
         : o == memory_order::acquire                                ? __ATOMIC_RELAXED
         : o == memory_order::release || o == memory_order::acq_rel ? __ATOMIC_RELEASE
                                                                    : __ATOMIC_SEQ_CST;
}

SLMC_HD constexpr int builtin_scope(memory_scope s) {
  return s == memory_scope::work_item    ? __MEMORY_SCOPE_SINGLE
         : s == memory_scope::sub_group  ? __MEMORY_SCOPE_WVFRNT
         : s == memory_scope::work_group ? __MEMORY_SCOPE_WRKGRP
         : s == memory_scope::device     ? __MEMORY_SCOPE_DEVICE
                                         : __MEMORY_SCOPE_SYSTEM;
}

template <size_t Size> struct atomic_bits;
template <> struct atomic_bits<4> { using type = uint32_t; };
template <> struct atomic_bits<8> { using type = uint64_t; };

// The builtins need constant orders and scopes to give the best code; after
// inlining they are, and Clang handles the rest with a switch.
#define SLMC_SYCL_ORDER(o) ::sycl::detail::builtin_order(o)
#define SLMC_SYCL_SCOPE(s) ::sycl::detail::builtin_scope(s)

template <typename T> SLMC_HD T atomic_load(T *p, memory_order o, memory_scope s) {
#if defined(SLMC_PASS_SPIRV)
  using B = typename atomic_bits<sizeof(T)>::type;
  B bits = __scoped_atomic_fetch_or(reinterpret_cast<B *>(p), B(0), SLMC_SYCL_ORDER(o),
                                    SLMC_SYCL_SCOPE(s));
  T r;
  __builtin_memcpy(&r, &bits, sizeof(T));
  return r;
#else
  T r;
  __scoped_atomic_load(p, &r, builtin_load_order(o), SLMC_SYCL_SCOPE(s));
  return r;
#endif
}

template <typename T> SLMC_HD T atomic_exchange(T *p, T v, memory_order o, memory_scope s) {
  T r;
  __scoped_atomic_exchange(p, &v, &r, SLMC_SYCL_ORDER(o), SLMC_SYCL_SCOPE(s));
  return r;
}

template <typename T> SLMC_HD void atomic_store(T *p, T v, memory_order o, memory_scope s) {
#if defined(SLMC_PASS_SPIRV)
  (void)atomic_exchange(p, v, o, s);
#else
  __scoped_atomic_store(p, &v, builtin_store_order(o), SLMC_SYCL_SCOPE(s));
#endif
}

#if defined(SLMC_PASS_SPIRV)
/// SPIR-V's Scope operand.
SLMC_HD constexpr int spirv_scope(memory_scope s) {
  return s == memory_scope::work_item    ? 4
         : s == memory_scope::sub_group  ? 3
         : s == memory_scope::work_group ? 2
         : s == memory_scope::device     ? 1
                                         : 0;
}

/// SPIR-V's memory semantics for an order: the ordering bit and, unless
/// relaxed, the storage classes it orders (the object may be in either).
SLMC_HD constexpr int spirv_semantics(int builtin) {
  return builtin == __ATOMIC_RELAXED ? 0
         : (builtin == __ATOMIC_ACQUIRE   ? 0x2
            : builtin == __ATOMIC_RELEASE ? 0x4
            : builtin == __ATOMIC_ACQ_REL ? 0x8
                                          : 0x10) |
               slmc::kSemWorkgroupMemory | slmc::kSemCrossWorkgroupMemory;
}
#endif

template <typename T>
SLMC_HD bool atomic_cas(T *p, T &expected, T desired, bool weak, memory_order success,
                        memory_order failure, memory_scope s) {
#if defined(SLMC_PASS_SPIRV)
  // clang's cmpxchg yields a {value, success} pair; carried around a retry
  // loop, the optimiser makes a phi of that pair, which LLVM 22's SPIR-V
  // backend turns into an invalid function. OpAtomicCompareExchange through
  // its builtin returns the old value alone: success is that value equal to
  // `expected` bit for bit (as compare_exchange compares), and on failure
  // `expected` becomes the value the operation saw, as C++ requires. A
  // strong exchange is a valid weak one.
  (void)weak;
  using B = typename atomic_bits<sizeof(T)>::type;
  B e, d;
  __builtin_memcpy(&e, &expected, sizeof(T));
  __builtin_memcpy(&d, &desired, sizeof(T));
  const B old = ::__spirv_AtomicCompareExchange(
      reinterpret_cast<B *>(p), spirv_scope(s),
      spirv_semantics(builtin_order(success)),
      spirv_semantics(builtin_load_order(failure)), d, e);
  if (old == e)
    return true;
  __builtin_memcpy(&expected, &old, sizeof(T));
  return false;
#else
  return __scoped_atomic_compare_exchange(p, &expected, &desired, weak,
                                          SLMC_SYCL_ORDER(success),
                                          builtin_load_order(failure), SLMC_SYCL_SCOPE(s));
#endif
}

/// Read-modify-write as a compare-exchange loop (floating point on SPIR-V,
/// min/max of floating point everywhere).
template <typename T, typename Op>
SLMC_HD T atomic_cas_loop(T *p, Op op, memory_order o, memory_scope s) {
  T old = atomic_load(p, memory_order::relaxed, s);
  while (!atomic_cas(p, old, op(old), true, o, memory_order::relaxed, s)) {
  }
  return old;
}

} // namespace detail

/// Atomic operations on an object in global or group-local memory.
template <typename T, memory_order DefaultOrder, memory_scope DefaultScope,
          access::address_space AddressSpace = access::address_space::generic_space>
class atomic_ref {
  static_assert(std::is_integral<T>::value || std::is_floating_point<T>::value ||
                    std::is_pointer<T>::value,
                "atomic_ref: T must be an integral, floating-point or pointer type");
  static_assert(sizeof(T) == 4 || sizeof(T) == 8,
                "atomic_ref: T must be 4 or 8 bytes wide");
  static_assert(AddressSpace == access::address_space::generic_space ||
                    AddressSpace == access::address_space::global_space ||
                    AddressSpace == access::address_space::local_space ||
                    AddressSpace == access::address_space::ext_intel_global_device_space,
                "atomic_ref: the address space must be generic, global or local");

  static constexpr bool is_int = std::is_integral<T>::value;
  static constexpr bool is_fp = std::is_floating_point<T>::value;
  using diff_t = typename std::conditional<std::is_pointer<T>::value, std::ptrdiff_t, T>::type;

public:
  using value_type = T;
  using difference_type = diff_t;
  static constexpr size_t required_alignment = sizeof(T);
  static constexpr bool is_always_lock_free = true;
  static constexpr memory_order default_read_order =
      DefaultOrder == memory_order::acq_rel ? memory_order::acquire
      : DefaultOrder == memory_order::release ? memory_order::relaxed
                                              : DefaultOrder;
  static constexpr memory_order default_write_order =
      DefaultOrder == memory_order::acq_rel ? memory_order::release
      : DefaultOrder == memory_order::acquire ? memory_order::relaxed
                                              : DefaultOrder;
  static constexpr memory_order default_read_modify_write_order = DefaultOrder;
  static constexpr memory_scope default_scope = DefaultScope;

  SLMC_HD explicit atomic_ref(T &ref) : p_(&ref) {}
  SLMC_HD atomic_ref(const atomic_ref &) = default;
  atomic_ref &operator=(const atomic_ref &) = delete;

  SLMC_HD bool is_lock_free() const noexcept { return true; }

  SLMC_HD void store(T v, memory_order o = default_write_order,
                     memory_scope s = default_scope) const {
    detail::atomic_store(p_, v, o, s);
  }
  SLMC_HD T operator=(T v) const {
    store(v);
    return v;
  }
  SLMC_HD T load(memory_order o = default_read_order, memory_scope s = default_scope) const {
    return detail::atomic_load(p_, o, s);
  }
  SLMC_HD operator T() const { return load(); }
  SLMC_HD T exchange(T v, memory_order o = default_read_modify_write_order,
                     memory_scope s = default_scope) const {
    return detail::atomic_exchange(p_, v, o, s);
  }

  SLMC_HD bool compare_exchange_weak(T &expected, T desired, memory_order success,
                                     memory_order failure,
                                     memory_scope s = default_scope) const {
    return detail::atomic_cas(p_, expected, desired, true, success, failure, s);
  }
  SLMC_HD bool compare_exchange_weak(T &expected, T desired,
                                     memory_order o = default_read_modify_write_order,
                                     memory_scope s = default_scope) const {
    return compare_exchange_weak(expected, desired, o, o, s);
  }
  SLMC_HD bool compare_exchange_strong(T &expected, T desired, memory_order success,
                                       memory_order failure,
                                       memory_scope s = default_scope) const {
    return detail::atomic_cas(p_, expected, desired, false, success, failure, s);
  }
  SLMC_HD bool compare_exchange_strong(T &expected, T desired,
                                       memory_order o = default_read_modify_write_order,
                                       memory_scope s = default_scope) const {
    return compare_exchange_strong(expected, desired, o, o, s);
  }

  // ---- Arithmetic (integral, floating point, pointer) ----
  SLMC_HD T fetch_add(diff_t v, memory_order o = default_read_modify_write_order,
                      memory_scope s = default_scope) const {
    if constexpr (is_int) {
      return __scoped_atomic_fetch_add(p_, v, SLMC_SYCL_ORDER(o), SLMC_SYCL_SCOPE(s));
    } else if constexpr (is_fp) {
#if defined(SLMC_PASS_SPIRV)
      return detail::atomic_cas_loop(p_, [v](T x) { return x + v; }, o, s);
#else
      return __scoped_atomic_fetch_add(p_, v, SLMC_SYCL_ORDER(o), SLMC_SYCL_SCOPE(s));
#endif
    } else {
      return detail::atomic_cas_loop(p_, [v](T x) { return x + v; }, o, s);
    }
  }
  SLMC_HD T fetch_sub(diff_t v, memory_order o = default_read_modify_write_order,
                      memory_scope s = default_scope) const {
    if constexpr (is_int) {
      return __scoped_atomic_fetch_sub(p_, v, SLMC_SYCL_ORDER(o), SLMC_SYCL_SCOPE(s));
    } else {
      return fetch_add(-v, o, s);
    }
  }
  SLMC_HD T operator+=(diff_t v) const { return fetch_add(v) + v; }
  SLMC_HD T operator-=(diff_t v) const { return fetch_sub(v) - v; }

  // ---- Integral and floating point ----
  template <typename U = T, typename = typename std::enable_if<!std::is_pointer<U>::value>::type>
  SLMC_HD T fetch_min(T v, memory_order o = default_read_modify_write_order,
                      memory_scope s = default_scope) const {
    if constexpr (is_int)
      return __scoped_atomic_fetch_min(p_, v, SLMC_SYCL_ORDER(o), SLMC_SYCL_SCOPE(s));
    else
      return detail::atomic_cas_loop(p_, [v](T x) { return v < x ? v : x; }, o, s);
  }
  template <typename U = T, typename = typename std::enable_if<!std::is_pointer<U>::value>::type>
  SLMC_HD T fetch_max(T v, memory_order o = default_read_modify_write_order,
                      memory_scope s = default_scope) const {
    if constexpr (is_int)
      return __scoped_atomic_fetch_max(p_, v, SLMC_SYCL_ORDER(o), SLMC_SYCL_SCOPE(s));
    else
      return detail::atomic_cas_loop(p_, [v](T x) { return v > x ? v : x; }, o, s);
  }

  // ---- Integral only ----
  template <typename U = T, typename = typename std::enable_if<std::is_integral<U>::value>::type>
  SLMC_HD T fetch_and(T v, memory_order o = default_read_modify_write_order,
                      memory_scope s = default_scope) const {
    return __scoped_atomic_fetch_and(p_, v, SLMC_SYCL_ORDER(o), SLMC_SYCL_SCOPE(s));
  }
  template <typename U = T, typename = typename std::enable_if<std::is_integral<U>::value>::type>
  SLMC_HD T fetch_or(T v, memory_order o = default_read_modify_write_order,
                     memory_scope s = default_scope) const {
    return __scoped_atomic_fetch_or(p_, v, SLMC_SYCL_ORDER(o), SLMC_SYCL_SCOPE(s));
  }
  template <typename U = T, typename = typename std::enable_if<std::is_integral<U>::value>::type>
  SLMC_HD T fetch_xor(T v, memory_order o = default_read_modify_write_order,
                      memory_scope s = default_scope) const {
    return __scoped_atomic_fetch_xor(p_, v, SLMC_SYCL_ORDER(o), SLMC_SYCL_SCOPE(s));
  }
  template <typename U = T, typename = typename std::enable_if<std::is_integral<U>::value>::type>
  SLMC_HD T operator&=(T v) const { return fetch_and(v) & v; }
  template <typename U = T, typename = typename std::enable_if<std::is_integral<U>::value>::type>
  SLMC_HD T operator|=(T v) const { return fetch_or(v) | v; }
  template <typename U = T, typename = typename std::enable_if<std::is_integral<U>::value>::type>
  SLMC_HD T operator^=(T v) const { return fetch_xor(v) ^ v; }

  template <typename U = T, typename = typename std::enable_if<!std::is_floating_point<U>::value>::type>
  SLMC_HD T operator++(int) const { return fetch_add(1); }
  template <typename U = T, typename = typename std::enable_if<!std::is_floating_point<U>::value>::type>
  SLMC_HD T operator--(int) const { return fetch_sub(1); }
  template <typename U = T, typename = typename std::enable_if<!std::is_floating_point<U>::value>::type>
  SLMC_HD T operator++() const { return fetch_add(1) + 1; }
  template <typename U = T, typename = typename std::enable_if<!std::is_floating_point<U>::value>::type>
  SLMC_HD T operator--() const { return fetch_sub(1) - 1; }

private:
  T *p_;
};

#undef SLMC_SYCL_ORDER
#undef SLMC_SYCL_SCOPE

} // namespace sycl

#endif // SLMC_SYCL_DETAIL_ATOMIC_HPP
