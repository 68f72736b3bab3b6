//===- sycl/detail/group_algorithm.hpp - SYCL 2020 group functions --------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// SYCL 2020 §4.17.3-4: group_broadcast, any/all/none_of_group,
// reduce_over_group, exclusive/inclusive_scan_over_group and the joint_*
// algorithms, for work-groups (sub-groups: sub_group.hpp).
//
// Every backend runs the same code: values meet in a per-type group-local
// scratch array (slmc::group_local_storage, so Workgroup memory in SPIR-V,
// .shared in PTX, a per-group thread_local on the CPU fallback) and work-group
// barriers order the steps. Reductions are a tree, scans Hillis-Steele; each
// algorithm ends with a barrier after its last read, so the next call may
// reuse the scratch. Like every group function they must be reached by all
// work-items of the group (the barrier checks see their barriers).
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_SYCL_DETAIL_GROUP_ALGORITHM_HPP
#define SLMC_SYCL_DETAIL_GROUP_ALGORITHM_HPP

#include "sycl/detail/functional.hpp"
#include "sycl/detail/item.hpp"

namespace sycl {

template <typename T> struct is_group : std::false_type {};
template <int N> struct is_group<group<N>> : std::true_type {};
template <typename T> inline constexpr bool is_group_v = is_group<T>::value;

namespace detail {

/// Work-items of the largest work-group any slmc backend launches (the CPU
/// fallback's and CUDA's limit; Level Zero devices allow at most this).
constexpr size_t kGroupScratchItems = 1024;

template <typename T> struct group_scratch_site : slmc::site_base {};
template <typename T> struct group_reduce_site : slmc::site_base {};

/// One slot per work-item, shared by every group algorithm on T.
template <typename T> SLMC_HD T *group_scratch() {
  static_assert(std::is_trivially_copyable<T>::value,
                "SYCL group algorithms: T must be trivially copyable");
  return *slmc::group_local_storage<T[kGroupScratchItems], group_scratch_site<T>>();
}

template <typename G> struct is_work_group : std::false_type {};
template <int N> struct is_work_group<group<N>> : std::true_type {};
/// The algorithms below are for work-groups; sub_group.hpp has sub-groups'.
template <typename G>
using if_group = typename std::enable_if<is_work_group<typename std::decay<G>::type>::value>::type;

template <int N> SLMC_HD size_t group_item(const group<N> &g) {
  return g.get_local_linear_id();
}
template <int N> SLMC_HD size_t group_items(const group<N> &g) {
  return g.get_local_linear_range();
}
template <int N> SLMC_HD void group_sync(const group<N> &) { slmc::group_barrier_local(); }

SLMC_HD inline size_t pow2_ceil(size_t n) {
  size_t p = 1;
  while (p < n) p <<= 1;
  return p;
}

} // namespace detail
class sub_group;
namespace detail {
// The sub-group primitives (sub_group.hpp), which a work-group reduction
// starts with on GPUs.
SLMC_HD inline uint32_t sg_id();
SLMC_HD inline uint32_t sg_lane();
SLMC_HD inline uint32_t sg_count();
template <typename T, typename Op> SLMC_HD T group_reduce(const sub_group &g, T x, Op op);
template <typename G> SLMC_HD sub_group sub_group_of(const G &);

/// Every work-item's `x` combined with `op`.
///
/// On GPUs each sub-group combines its values with shuffles, its first
/// work-item stores the result, and after one barrier every work-item
/// combines the sub-groups' results (a few per group): two barriers,
/// where a tree over the group would take one per level.
///
/// The CPU fallback (the host pass) runs a group's work-items one after
/// another (its sub-groups have one work-item unless a kernel asks for
/// more), so there the first work-item combines the scratch in one loop.
template <typename G, typename T, typename Op> SLMC_HD T group_reduce(const G &g, T x, Op op) {
#if !defined(SLMC_DEVICE_PASS)
  T *s = group_scratch<T>();
  const size_t i = group_item(g), n = group_items(g);
  s[i] = x;
  group_sync(g);
  if (i == 0) {
    T acc = s[0];
    for (size_t k = 1; k < n; ++k)
      acc = T(op(acc, s[k]));
    s[0] = acc;
  }
  group_sync(g);
  T r = s[0];
#else
  // One slot per sub-group: sub-groups have at least 8 work-items.
  T *p = *slmc::group_local_storage<T[kGroupScratchItems / 8], group_reduce_site<T>>();
  T part = group_reduce(sub_group_of(g), x, op);
  if (sg_lane() == 0)
    p[sg_id()] = part;
  group_sync(g);
  T r = p[0];
  for (uint32_t k = 1, n = sg_count(); k < n; ++k)
    r = T(op(r, p[k]));
#endif
  group_sync(g);
  return r;
}

/// Inclusive and exclusive prefix combinations in local linear id order;
/// `identity` is the exclusive result of the first work-item.
template <typename T> struct scan_result {
  T inclusive;
  T exclusive;
};
template <typename G, typename T, typename Op>
SLMC_HD scan_result<T> group_scan(const G &g, T x, Op op, T identity) {
  T *s = group_scratch<T>();
  const size_t i = group_item(g), n = group_items(g);
  s[i] = x;
  group_sync(g);
#if !defined(SLMC_DEVICE_PASS)
  // The CPU fallback: one loop by the first work-item (see group_reduce).
  if (i == 0)
    for (size_t k = 1; k < n; ++k)
      s[k] = T(op(s[k - 1], s[k]));
  group_sync(g);
#else
  for (size_t offset = 1; offset < n; offset *= 2) {
    T v = s[i];
    if (i >= offset)
      v = T(op(s[i - offset], v));
    group_sync(g);
    s[i] = v;
    group_sync(g);
  }
#endif
  scan_result<T> r{s[i], i ? s[i - 1] : identity};
  group_sync(g);
  return r;
}

template <typename G, typename T> SLMC_HD T group_bcast(const G &g, T x, size_t from) {
  T *s = group_scratch<T>();
  if (group_item(g) == from)
    s[0] = x;
  group_sync(g);
  T r = s[0];
  group_sync(g);
  return r;
}

template <typename G> SLMC_HD bool group_any(const G &g, bool p) {
  int *flag = group_scratch<int>();
  if (group_item(g) == 0)
    flag[0] = 0;
  group_sync(g);
  if (p)
    flag[0] = 1; // every writer stores the same value
  group_sync(g);
  bool r = flag[0] != 0;
  group_sync(g);
  return r;
}

/// A value or nothing: joint algorithms without an init value combine
/// work-items that may have had no element.
template <typename T> struct maybe {
  T value;
  bool has;
};
template <typename Op> struct maybe_op {
  Op op;
  template <typename T> SLMC_HD maybe<T> operator()(const maybe<T> &a, const maybe<T> &b) const {
    if (!a.has) return b;
    if (!b.has) return a;
    return maybe<T>{T(op(a.value, b.value)), true};
  }
};

// Sub-groups run the joint algorithms below with their own primitives
// (shuffles; defined in sub_group.hpp). Declared here so that the joint
// algorithms' qualified calls see them.
} // namespace detail
class sub_group;
namespace detail {
SLMC_HD inline size_t group_item(const sub_group &g);
SLMC_HD inline size_t group_items(const sub_group &g);
template <typename T, typename Op> SLMC_HD T group_reduce(const sub_group &g, T x, Op op);
template <typename T, typename Op>
SLMC_HD scan_result<T> group_scan(const sub_group &g, T x, Op op, T identity);
template <typename T> SLMC_HD T group_bcast(const sub_group &g, T x, size_t from);
SLMC_HD inline bool group_any(const sub_group &g, bool p);

/// The joint algorithms take work-groups and sub-groups.
template <typename G>
using if_joint_group = typename std::enable_if<
    is_work_group<typename std::decay<G>::type>::value ||
    std::is_same<typename std::decay<G>::type, sub_group>::value>::type;

template <typename Ptr>
using pointee = typename std::remove_cv<
    typename std::remove_reference<decltype(*std::declval<Ptr>())>::type>::type;

/// Elements in [first, last). For pointers this is integer arithmetic on
/// the addresses: `last - first == 0` would fold into a pointer comparison
/// (OpPtrEqual in SPIR-V, which IGC rejects).
template <typename Ptr> SLMC_HD size_t distance(Ptr first, Ptr last) {
  if constexpr (std::is_pointer<Ptr>::value)
    return size_t((uintptr_t(last) - uintptr_t(first)) /
                  sizeof(typename std::remove_pointer<Ptr>::type));
  else
    return size_t(last - first);
}

template <typename Op, typename T> SLMC_HD constexpr T identity_for() {
  static_assert(has_known_identity<Op, T>::value,
                "exclusive scan without an init value: the operation must have a known "
                "identity for T (sycl::known_identity)");
  return known_identity<Op, T>::value;
}

template <typename G, typename InPtr, typename OutPtr, typename T, typename Op>
SLMC_HD OutPtr joint_scan(const G &g, InPtr first, InPtr last, OutPtr result, Op op,
                          maybe<T> carry, bool inclusive, T empty_value) {
  const size_t i = group_item(g), n = group_items(g);
  const size_t count = detail::distance(first, last);
  maybe_op<Op> mop{op};
  for (size_t base = 0; base < count; base += n) {
    const size_t at = base + i;
    maybe<T> v{T(), false};
    if (at < count)
      v = maybe<T>{T(first[at]), true};
    scan_result<maybe<T>> s = group_scan(g, v, mop, maybe<T>{T(), false});
    // The chunk's total is the last work-item's inclusive value.
    maybe<T> total = group_bcast(g, s.inclusive, n - 1);
    if (at < count) {
      maybe<T> r = mop(carry, inclusive ? s.inclusive : s.exclusive);
      result[at] = r.has ? r.value : empty_value;
    }
    carry = mop(carry, total);
  }
  return result + count;
}

} // namespace detail

// ---- Barrier and broadcast ----------------------------------------------------------
template <typename Group, typename T, typename = detail::if_group<Group>>
SLMC_HD T group_broadcast(Group g, T x) {
  return detail::group_bcast(g, x, 0);
}
template <typename Group, typename T, typename = detail::if_group<Group>>
SLMC_HD T group_broadcast(Group g, T x, typename Group::linear_id_type local_linear_id) {
  return detail::group_bcast(g, x, size_t(local_linear_id));
}
template <typename Group, typename T, typename = detail::if_group<Group>>
SLMC_HD T group_broadcast(Group g, T x, typename Group::id_type local_id) {
  return detail::group_bcast(g, x, detail::linearize(local_id, g.get_local_range()));
}

// ---- any / all / none ---------------------------------------------------------------
template <typename Group, typename = detail::if_group<Group>>
SLMC_HD bool any_of_group(Group g, bool pred) {
  return detail::group_any(g, pred);
}
template <typename Group, typename = detail::if_group<Group>>
SLMC_HD bool all_of_group(Group g, bool pred) {
  return !any_of_group(g, !pred);
}
template <typename Group, typename = detail::if_group<Group>>
SLMC_HD bool none_of_group(Group g, bool pred) {
  return !any_of_group(g, pred);
}
template <typename Group, typename T, typename Predicate, typename = detail::if_group<Group>>
SLMC_HD bool any_of_group(Group g, T x, Predicate pred) {
  return any_of_group(g, bool(pred(x)));
}
template <typename Group, typename T, typename Predicate, typename = detail::if_group<Group>>
SLMC_HD bool all_of_group(Group g, T x, Predicate pred) {
  return all_of_group(g, bool(pred(x)));
}
template <typename Group, typename T, typename Predicate, typename = detail::if_group<Group>>
SLMC_HD bool none_of_group(Group g, T x, Predicate pred) {
  return none_of_group(g, bool(pred(x)));
}

template <typename Group, typename Ptr, typename Predicate, typename = detail::if_joint_group<Group>>
SLMC_HD bool joint_any_of(Group g, Ptr first, Ptr last, Predicate pred) {
  bool p = false;
  const size_t n = detail::group_items(g), count = detail::distance(first, last);
  for (size_t at = detail::group_item(g); at < count; at += n)
    p = p || bool(pred(first[at]));
  return any_of_group(g, p);
}
template <typename Group, typename Ptr, typename Predicate, typename = detail::if_joint_group<Group>>
SLMC_HD bool joint_all_of(Group g, Ptr first, Ptr last, Predicate pred) {
  bool p = true;
  const size_t n = detail::group_items(g), count = detail::distance(first, last);
  for (size_t at = detail::group_item(g); at < count; at += n)
    p = p && bool(pred(first[at]));
  return all_of_group(g, p);
}
template <typename Group, typename Ptr, typename Predicate, typename = detail::if_joint_group<Group>>
SLMC_HD bool joint_none_of(Group g, Ptr first, Ptr last, Predicate pred) {
  return !joint_any_of(g, first, last, pred);
}

// ---- Reductions -----------------------------------------------------------------------
template <typename Group, typename T, typename BinaryOperation,
          typename = detail::if_group<Group>>
SLMC_HD T reduce_over_group(Group g, T x, BinaryOperation binary_op) {
  return detail::group_reduce(g, x, binary_op);
}
template <typename Group, typename V, typename T, typename BinaryOperation,
          typename = detail::if_group<Group>>
SLMC_HD T reduce_over_group(Group g, V x, T init, BinaryOperation binary_op) {
  return T(binary_op(init, detail::group_reduce(g, T(x), binary_op)));
}

template <typename Group, typename Ptr, typename BinaryOperation,
          typename = detail::if_joint_group<Group>>
SLMC_HD detail::pointee<Ptr> joint_reduce(Group g, Ptr first, Ptr last,
                                          BinaryOperation binary_op) {
  using T = detail::pointee<Ptr>;
  detail::maybe_op<BinaryOperation> mop{binary_op};
  detail::maybe<T> part{T(), false};
  const size_t n = detail::group_items(g), count = detail::distance(first, last);
  for (size_t at = detail::group_item(g); at < count; at += n)
    part = mop(part, detail::maybe<T>{T(first[at]), true});
  return detail::group_reduce(g, part, mop).value;
}
template <typename Group, typename Ptr, typename T, typename BinaryOperation,
          typename = detail::if_joint_group<Group>>
SLMC_HD T joint_reduce(Group g, Ptr first, Ptr last, T init, BinaryOperation binary_op) {
  detail::maybe_op<BinaryOperation> mop{binary_op};
  detail::maybe<T> part{T(), false};
  const size_t n = detail::group_items(g), count = detail::distance(first, last);
  for (size_t at = detail::group_item(g); at < count; at += n)
    part = mop(part, detail::maybe<T>{T(first[at]), true});
  detail::maybe<T> all = detail::group_reduce(g, part, mop);
  return all.has ? T(binary_op(init, all.value)) : init;
}

// ---- Scans ------------------------------------------------------------------------------
template <typename Group, typename T, typename BinaryOperation,
          typename = detail::if_group<Group>>
SLMC_HD T exclusive_scan_over_group(Group g, T x, BinaryOperation binary_op) {
  return detail::group_scan(g, x, binary_op, detail::identity_for<BinaryOperation, T>())
      .exclusive;
}
template <typename Group, typename V, typename T, typename BinaryOperation,
          typename = detail::if_group<Group>>
SLMC_HD T exclusive_scan_over_group(Group g, V x, T init, BinaryOperation binary_op) {
  // The first work-item's exclusive value is init alone; the others' have
  // a prefix (the identity passed is never used).
  T r = detail::group_scan(g, T(x), binary_op, T(x)).exclusive;
  return detail::group_item(g) == 0 ? init : T(binary_op(init, r));
}
template <typename Group, typename T, typename BinaryOperation,
          typename = detail::if_group<Group>>
SLMC_HD T inclusive_scan_over_group(Group g, T x, BinaryOperation binary_op) {
  return detail::group_scan(g, x, binary_op, x).inclusive;
}
template <typename Group, typename V, typename BinaryOperation, typename T,
          typename = detail::if_group<Group>>
SLMC_HD T inclusive_scan_over_group(Group g, V x, BinaryOperation binary_op, T init) {
  return T(binary_op(init, detail::group_scan(g, T(x), binary_op, T(x)).inclusive));
}

template <typename Group, typename InPtr, typename OutPtr, typename BinaryOperation,
          typename = detail::if_joint_group<Group>>
SLMC_HD OutPtr joint_exclusive_scan(Group g, InPtr first, InPtr last, OutPtr result,
                                    BinaryOperation binary_op) {
  using T = detail::pointee<OutPtr>;
  return detail::joint_scan(g, first, last, result, binary_op, detail::maybe<T>{T(), false},
                            false, detail::identity_for<BinaryOperation, T>());
}
template <typename Group, typename InPtr, typename OutPtr, typename T,
          typename BinaryOperation, typename = detail::if_joint_group<Group>>
SLMC_HD OutPtr joint_exclusive_scan(Group g, InPtr first, InPtr last, OutPtr result, T init,
                                    BinaryOperation binary_op) {
  return detail::joint_scan(g, first, last, result, binary_op, detail::maybe<T>{init, true},
                            false, init);
}
template <typename Group, typename InPtr, typename OutPtr, typename BinaryOperation,
          typename = detail::if_joint_group<Group>>
SLMC_HD OutPtr joint_inclusive_scan(Group g, InPtr first, InPtr last, OutPtr result,
                                    BinaryOperation binary_op) {
  using T = detail::pointee<OutPtr>;
  return detail::joint_scan(g, first, last, result, binary_op, detail::maybe<T>{T(), false},
                            true, T());
}
template <typename Group, typename InPtr, typename OutPtr, typename BinaryOperation,
          typename T, typename = detail::if_joint_group<Group>>
SLMC_HD OutPtr joint_inclusive_scan(Group g, InPtr first, InPtr last, OutPtr result,
                                    BinaryOperation binary_op, T init) {
  return detail::joint_scan(g, first, last, result, binary_op, detail::maybe<T>{init, true},
                            true, init);
}

} // namespace sycl

#endif // SLMC_SYCL_DETAIL_GROUP_ALGORITHM_HPP
