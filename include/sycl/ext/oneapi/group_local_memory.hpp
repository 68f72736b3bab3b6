//===- sycl/ext/oneapi/group_local_memory.hpp - sycl_ext_oneapi_local_memory =//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// group_local_memory<T>(g, args...) gives every work-group one T, made
// before any work-item of the group gets the pointer (a work-group barrier
// publishes it); the storage lives until the group finishes the kernel.
// One work-item constructs; value-initialised scalars and arrays of them
// are zeroed by the whole group instead, each work-item a strided part.
// group_local_memory_for_overwrite<T>(g) default-initialises, which for
// trivially default-constructible types is nothing at all (no barrier).
//
// slmc++ rewrites each call site as group_local_memory<T>(slmc_site<K>{}, g,
// args...), where slmc_site<K> is a type of its own deriving from
// slmc::site_base; the overloads taking such a tag give each site its own
// group-local variable (slmc::group_local_storage<T, Site>): Workgroup
// memory in SPIR-V, .shared in PTX, a thread_local on the CPU fallback.
//
// The overloads without a tag are what the program calls as written: the
// check pass sees them (and reports the extension's type rules from them);
// calls in the functions a kernel calls, and programs built with the plugin
// alone (plain clang++, CPU fallback), run them, with storage per call path
// (slmc::group_local_alloc).
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_SYCL_EXT_ONEAPI_GROUP_LOCAL_MEMORY_HPP
#define SLMC_SYCL_EXT_ONEAPI_GROUP_LOCAL_MEMORY_HPP

#include "sycl/detail/core.hpp"

namespace sycl {
namespace ext {
namespace oneapi {
namespace detail {
/// Placement construction in group-local storage. Like slmc::construct_tag,
/// but the allocation function is not declared non-throwing, so a
/// new-expression does not test the storage's address for null first (in
/// SPIR-V 1.4 that test is an OpPtrEqual, which IGC rejects).
struct construct_here {};
} // namespace detail
} // namespace oneapi
} // namespace ext
} // namespace sycl

SLMC_HD inline __attribute__((returns_nonnull)) void *
operator new(size_t, void *where, sycl::ext::oneapi::detail::construct_here) {
  return where;
}

namespace sycl {
namespace ext {
namespace oneapi {

namespace detail {

template <typename G> struct is_sycl_group : std::false_type {};
template <int N> struct is_sycl_group<sycl::group<N>> : std::true_type {};

template <typename T, typename Group> constexpr bool glm_valid() {
  if constexpr (std::is_reference<T>::value || std::is_void<T>::value ||
                std::is_function<T>::value)
    return false;
  else
    return is_sycl_group<typename std::decay<Group>::type>::value &&
           std::is_trivially_destructible<T>::value;
}

/// The extension's rules on T and Group, as one message each. Where slmc's
/// check pass runs (__SLMC__: slmc++, the plugin, slmc-clangd, clang-tidy)
/// it reports a T that is not trivially destructible at the user's call,
/// naming T; a static_assert could only point here.
template <typename T, typename Group, bool ForOverwrite = false> constexpr bool glm_check() {
  constexpr bool group_ok = is_sycl_group<typename std::decay<Group>::type>::value;
  constexpr bool object = !std::is_reference<T>::value && !std::is_void<T>::value &&
                          !std::is_function<T>::value;
  if constexpr (!ForOverwrite) {
    static_assert(group_ok, "group_local_memory: Group must be sycl::group<N> (pass "
                            "item.get_group(), not the item)");
    static_assert(object, "group_local_memory: T must be an object type");
#if !defined(__SLMC__)
    static_assert(!object || std::is_trivially_destructible<T>::value,
                  "group_local_memory: T must be trivially destructible");
#endif
  } else {
    static_assert(group_ok, "group_local_memory_for_overwrite: Group must be "
                            "sycl::group<N> (pass item.get_group(), not the item)");
    static_assert(object, "group_local_memory_for_overwrite: T must be an object type");
#if !defined(__SLMC__)
    static_assert(!object || std::is_trivially_destructible<T>::value,
                  "group_local_memory_for_overwrite: T must be trivially destructible");
#endif
  }
  return glm_valid<T, Group>();
}

/// Arrays are made through a one-member aggregate: placement new of an
/// array type would be an array new.
template <typename T> struct glm_holder { T value; };

template <typename T, typename... Args> SLMC_HD void glm_construct(T *p, Args &&...args) {
  if constexpr (std::is_array<T>::value) {
    using H = glm_holder<T>;
    using E = typename std::remove_all_extents<T>::type;
    if constexpr (sizeof...(Args) == 0)
      new (static_cast<void *>(p), detail::construct_here{}) H(); // value-initialised
    else
      new (static_cast<void *>(p), detail::construct_here{})
          H{{static_cast<E>(std::forward<Args>(args))...}}; // aggregate initialisation
  } else if constexpr (sizeof...(Args) == 0) {
    new (static_cast<void *>(p), detail::construct_here{}) T();
  } else if constexpr (std::is_constructible<T, Args &&...>::value) {
    new (static_cast<void *>(p), detail::construct_here{}) T(std::forward<Args>(args)...);
  } else {
    new (static_cast<void *>(p), detail::construct_here{}) T{std::forward<Args>(args)...};
  }
}

template <typename T> SLMC_HD void glm_default_construct(T *p) {
  if constexpr (std::is_array<T>::value)
    new (static_cast<void *>(p), detail::construct_here{}) glm_holder<T>;
  else
    new (static_cast<void *>(p), detail::construct_here{}) T;
}

/// Value-initialisation of scalars (or arrays of them) is zeroing, which the
/// whole group shares: each work-item clears a strided part.
template <typename T>
inline constexpr bool glm_zero_init =
    std::is_scalar<typename std::remove_all_extents<T>::type>::value &&
    !std::is_member_pointer<typename std::remove_all_extents<T>::type>::value;

template <int Dims> SLMC_HD inline void glm_zero(void *p, size_t bytes, size_t align) {
  // Only the group's dimensions (the others have one work-item), and 32-bit
  // counters: group-local memory and groups are far below 2^32 bytes and
  // work-items, and Intel GPUs emulate 64-bit multiplies.
  uint32_t item = slmc::local_id(0), items = slmc::local_size(0);
  if constexpr (Dims > 1) {
    item += items * slmc::local_id(1);
    items *= slmc::local_size(1);
  }
  if constexpr (Dims > 2) {
    item += items * slmc::local_id(2);
    items *= slmc::local_size(2);
  }
  const uint32_t n = static_cast<uint32_t>(bytes);
  if (align >= 4 && n % 4 == 0) {
    uint32_t *w = static_cast<uint32_t *>(p);
    for (uint32_t i = item; i < n / 4; i += items) w[i] = 0;
  } else {
    unsigned char *b = static_cast<unsigned char *>(p);
    for (uint32_t i = item; i < n; i += items) b[i] = 0;
  }
}

/// Makes the group's T (every work-item calls this), then publishes it.
/// The barrier orders group-local memory, where the object is, as DPC++'s
/// does (its work-group barrier with WorkgroupMemory semantics): an Intel
/// GPU's global fence would flush the L1 cache for nothing.
template <typename Group, typename T, typename... Args>
SLMC_HD void glm_init(T *p, Args &&...args) {
  constexpr int Dims = std::decay<Group>::type::dimensions;
  if constexpr (sizeof...(Args) == 0 && glm_zero_init<T>) {
    glm_zero<Dims>(static_cast<void *>(p), sizeof(T), alignof(T));
  } else {
    if (slmc::is_group_leader<Dims>())
      glm_construct(p, std::forward<Args>(args)...);
  }
  slmc::group_barrier_local();
}

/// Default-initialisation: nothing to do (and nothing to publish) for types
/// whose default constructor is trivial.
template <typename Group, typename T> SLMC_HD void glm_init_for_overwrite(T *p) {
  if constexpr (!std::is_trivially_default_constructible<
                    typename std::remove_all_extents<T>::type>::value) {
    if (slmc::is_group_leader<std::decay<Group>::type::dimensions>())
      glm_default_construct(p);
    slmc::group_barrier_local();
  } else {
    (void)p;
  }
}

/// Storage of a call slmc++ did not tag: one block per call path (see
/// slmc::group_local_alloc).
template <typename T> SLMC_HD T *glm_path_storage() {
  void *p = slmc::group_local_alloc<sizeof(T), alignof(T)>();
#if !defined(SLMC_DEVICE_PASS)
  if (!p)
    throw sycl::exception(make_error_code(errc::kernel_not_supported),
                          "group_local_memory: called outside an nd_range kernel, or "
                          "out of host memory");
#endif
  return static_cast<T *>(p);
}

template <typename Group, typename R>
using if_not_site = typename std::enable_if<
    !std::is_base_of<slmc::site_base, typename std::decay<Group>::type>::value, R>::type;
template <typename Site, typename R>
using if_site = typename std::enable_if<
    std::is_base_of<slmc::site_base, typename std::decay<Site>::type>::value, R>::type;

} // namespace detail

template <typename T>
using group_local_ptr = multi_ptr<T, access::address_space::local_space>;

// ---- As written: group_local_memory<T>(g, args...) -----------------------------
template <typename T, typename Group, typename... Args>
SLMC_ENTRY_POINT("sycl.group_local_memory")
SLMC_HD detail::if_not_site<Group, multi_ptr<T, access::address_space::local_space>>
group_local_memory(Group g, Args &&...args) {
  (void)g;
  constexpr bool ok = detail::glm_check<T, Group>();
  T *p = nullptr;
  if constexpr (ok) {
    p = detail::glm_path_storage<T>();
    detail::glm_init<Group>(p, std::forward<Args>(args)...);
  }
  return multi_ptr<T, access::address_space::local_space>(p);
}

template <typename T, typename Group>
SLMC_ENTRY_POINT("sycl.group_local_memory_for_overwrite")
SLMC_HD detail::if_not_site<Group, multi_ptr<T, access::address_space::local_space>>
group_local_memory_for_overwrite(Group g) {
  (void)g;
  constexpr bool ok = detail::glm_check<T, Group, true>();
  T *p = nullptr;
  if constexpr (ok) {
    p = detail::glm_path_storage<T>();
    detail::glm_init_for_overwrite<Group>(p);
  }
  return multi_ptr<T, access::address_space::local_space>(p);
}

// ---- Rewritten by slmc++: group_local_memory<T>(slmc_site<K>{}, g, args...) -------
template <typename T, typename Site, typename Group, typename... Args>
SLMC_HD detail::if_site<Site, multi_ptr<T, access::address_space::local_space>>
group_local_memory(Site, Group g, Args &&...args) {
  (void)g;
  constexpr bool ok = detail::glm_check<T, Group>();
  T *p = nullptr;
  if constexpr (ok) {
    p = slmc::group_local_storage<T, typename std::decay<Site>::type>();
    detail::glm_init<Group>(p, std::forward<Args>(args)...);
  }
  return multi_ptr<T, access::address_space::local_space>(p);
}

template <typename T, typename Site, typename Group>
SLMC_HD detail::if_site<Site, multi_ptr<T, access::address_space::local_space>>
group_local_memory_for_overwrite(Site, Group g) {
  (void)g;
  constexpr bool ok = detail::glm_check<T, Group, true>();
  T *p = nullptr;
  if constexpr (ok) {
    p = slmc::group_local_storage<T, typename std::decay<Site>::type>();
    detail::glm_init_for_overwrite<Group>(p);
  }
  return multi_ptr<T, access::address_space::local_space>(p);
}

} // namespace oneapi
} // namespace ext
} // namespace sycl

#endif // SLMC_SYCL_EXT_ONEAPI_GROUP_LOCAL_MEMORY_HPP
