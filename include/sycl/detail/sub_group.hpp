//===- sycl/detail/sub_group.hpp - Sub-groups and their group functions ---===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// sycl::sub_group and the group functions over it. Sub-group sizes:
//
//   backend       size                     how
//   -----------   ----------------------   ---------------------------------
//   PTX (CUDA)    32 (the warp)            shfl.sync, bar.warp.sync; work-items
//                                          are split by local linear id, the
//                                          last sub-group may be partial
//   SPIR-V        8, 16 or 32, as IGC      SubgroupSize and friends,
//                 compiles the kernel      OpGroupNonUniformShuffle
//   CPU fallback  1, or the kernel's         work-items are fibers; exchanges
//                 reqd_sub_group_size      go through the runtime
//                 (1 to 64)                (slmc_cpu_sub_group_shuffle)
//
// Every function exchanges values through an indexed shuffle, so one
// implementation serves all three: scans are Hillis-Steele over shuffles,
// reductions read the last lane's inclusive scan. Values travel as 32-bit
// words (any trivially copyable T). A full sub-group of 2^k lanes reduces
// with a butterfly instead.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_SYCL_DETAIL_SUB_GROUP_HPP
#define SLMC_SYCL_DETAIL_SUB_GROUP_HPP

#include "sycl/detail/group_algorithm.hpp"

#if defined(SLMC_PASS_SPIRV)
SLMC_DEVICE_ONLY uint32_t __spirv_BuiltInSubgroupSize();
SLMC_DEVICE_ONLY uint32_t __spirv_BuiltInSubgroupMaxSize();
SLMC_DEVICE_ONLY uint32_t __spirv_BuiltInSubgroupLocalInvocationId();
SLMC_DEVICE_ONLY uint32_t __spirv_BuiltInSubgroupId();
SLMC_DEVICE_ONLY uint32_t __spirv_BuiltInNumSubgroups();
SLMC_DEVICE_ONLY uint32_t __spirv_GroupNonUniformShuffle(int, uint32_t, uint32_t);
#endif

namespace sycl {
namespace detail {

#if defined(SLMC_PASS_PTX)
constexpr uint32_t kWarp = 32;
#endif
#if !defined(SLMC_PASS_SPIRV)
SLMC_HD inline uint32_t linear_local_id() {
  return slmc::local_id(0) +
         slmc::local_size(0) * (slmc::local_id(1) + slmc::local_size(1) * slmc::local_id(2));
}
SLMC_HD inline uint32_t linear_local_size() {
  return slmc::local_size(0) * slmc::local_size(1) * slmc::local_size(2);
}
#endif
#if !defined(SLMC_PASS_SPIRV) && !defined(SLMC_PASS_PTX)
/// The CPU fallback's sub-group size for this launch.
inline uint32_t cpu_sg_size() { return slmc_cpu_current_item()->sub_group_size; }
#endif

SLMC_HD inline uint32_t sg_lane() {
#if defined(SLMC_PASS_SPIRV)
  return __spirv_BuiltInSubgroupLocalInvocationId();
#elif defined(SLMC_PASS_PTX)
  return linear_local_id() % kWarp;
#else
  return linear_local_id() % cpu_sg_size();
#endif
}
/// Work-items in the calling sub-group.
SLMC_HD inline uint32_t sg_size() {
#if defined(SLMC_PASS_SPIRV)
  return __spirv_BuiltInSubgroupSize();
#elif defined(SLMC_PASS_PTX)
  uint32_t first = linear_local_id() / kWarp * kWarp, n = linear_local_size();
  return n - first < kWarp ? n - first : kWarp;
#else
  const uint32_t size = cpu_sg_size();
  uint32_t first = linear_local_id() / size * size, n = linear_local_size();
  return n - first < size ? n - first : size;
#endif
}
SLMC_HD inline uint32_t sg_max_size() {
#if defined(SLMC_PASS_SPIRV)
  return __spirv_BuiltInSubgroupMaxSize();
#elif defined(SLMC_PASS_PTX)
  return kWarp;
#else
  return cpu_sg_size();
#endif
}
SLMC_HD inline uint32_t sg_id() {
#if defined(SLMC_PASS_SPIRV)
  return __spirv_BuiltInSubgroupId();
#elif defined(SLMC_PASS_PTX)
  return linear_local_id() / kWarp;
#else
  return linear_local_id() / cpu_sg_size();
#endif
}
SLMC_HD inline uint32_t sg_count() {
#if defined(SLMC_PASS_SPIRV)
  return __spirv_BuiltInNumSubgroups();
#elif defined(SLMC_PASS_PTX)
  return (linear_local_size() + kWarp - 1) / kWarp;
#else
  return (linear_local_size() + cpu_sg_size() - 1) / cpu_sg_size();
#endif
}

#if defined(SLMC_PASS_PTX)
/// The lanes of the calling sub-group (all 32 unless it is the last, partial
/// one).
SLMC_HD inline uint32_t sg_mask() {
  uint32_t n = sg_size();
  return n == kWarp ? ~0u : (1u << n) - 1;
}
#endif

SLMC_HD inline void sg_barrier() {
#if defined(SLMC_PASS_SPIRV)
  __spirv_ControlBarrier(3 /* Subgroup */, 3, slmc::kSemAcqRel | slmc::kSemWorkgroupMemory |
                                                  slmc::kSemCrossWorkgroupMemory);
#elif defined(SLMC_PASS_PTX)
  __nvvm_bar_warp_sync(sg_mask());
#else
  slmc_cpu_sub_group_barrier();
#endif
}

SLMC_HD inline uint32_t sg_shuffle_word(uint32_t v, uint32_t from) {
#if defined(SLMC_PASS_SPIRV)
  return __spirv_GroupNonUniformShuffle(3 /* Subgroup */, v, from);
#elif defined(SLMC_PASS_PTX)
  return uint32_t(__nvvm_shfl_sync_idx_i32(sg_mask(), int(v), int(from), 0x1f));
#else
  return slmc_cpu_sub_group_shuffle(v, from);
#endif
}

/// Lane `from`'s x; every lane of the sub-group must call it.
template <typename T> SLMC_HD T sg_shuffle(T x, uint32_t from) {
  static_assert(std::is_trivially_copyable<T>::value,
                "SYCL sub-group functions: T must be trivially copyable");
  constexpr size_t words = (sizeof(T) + 3) / 4;
  uint32_t w[words] = {};
  __builtin_memcpy(w, &x, sizeof(T));
  for (size_t i = 0; i < words; ++i) w[i] = sg_shuffle_word(w[i], from);
  T r;
  __builtin_memcpy(&r, w, sizeof(T));
  return r;
}

template <typename T, typename Op> SLMC_HD T sg_inclusive_scan(T x, Op op) {
  const uint32_t lane = sg_lane(), n = sg_size();
  for (uint32_t offset = 1; offset < n; offset *= 2) {
    T y = sg_shuffle(x, lane >= offset ? lane - offset : lane);
    if (lane >= offset)
      x = T(op(y, x));
  }
  return x;
}

} // namespace detail

class sub_group {
public:
  using id_type = id<1>;
  using range_type = range<1>;
  using linear_id_type = uint32_t;
  static constexpr int dimensions = 1;
  static constexpr memory_scope fence_scope = memory_scope::sub_group;

  SLMC_HD sub_group() {}

  SLMC_HD id<1> get_group_id() const { return id<1>(detail::sg_id()); }
  SLMC_HD id<1> get_local_id() const { return id<1>(detail::sg_lane()); }
  SLMC_HD range<1> get_local_range() const { return range<1>(detail::sg_size()); }
  SLMC_HD range<1> get_group_range() const { return range<1>(detail::sg_count()); }
  SLMC_HD range<1> get_max_local_range() const { return range<1>(detail::sg_max_size()); }
  SLMC_HD uint32_t get_group_linear_id() const { return detail::sg_id(); }
  SLMC_HD uint32_t get_local_linear_id() const { return detail::sg_lane(); }
  SLMC_HD uint32_t get_group_linear_range() const { return detail::sg_count(); }
  SLMC_HD uint32_t get_local_linear_range() const { return detail::sg_size(); }
  SLMC_HD bool leader() const { return detail::sg_lane() == 0; }
};

template <> struct is_group<sub_group> : std::true_type {};

SLMC_HD inline void group_barrier(sub_group, memory_scope = memory_scope::sub_group) {
  detail::sg_barrier();
}

// ---- Exchanges ---------------------------------------------------------------------
template <typename T> SLMC_HD T select_from_group(sub_group, T x, id<1> remote_local_id) {
  return detail::sg_shuffle(x, uint32_t(remote_local_id[0]));
}
/// Lane (own + delta)'s x; lanes whose source is past the sub-group keep
/// their own (the specification leaves it unspecified).
template <typename T> SLMC_HD T shift_group_left(sub_group, T x, uint32_t delta = 1) {
  const uint32_t lane = detail::sg_lane(), from = lane + delta;
  return detail::sg_shuffle(x, from < detail::sg_size() ? from : lane);
}
template <typename T> SLMC_HD T shift_group_right(sub_group, T x, uint32_t delta = 1) {
  const uint32_t lane = detail::sg_lane();
  return detail::sg_shuffle(x, lane >= delta ? lane - delta : lane);
}
template <typename T> SLMC_HD T permute_group_by_xor(sub_group, T x, uint32_t mask) {
  const uint32_t lane = detail::sg_lane(), from = lane ^ mask;
  return detail::sg_shuffle(x, from < detail::sg_size() ? from : lane);
}

// ---- Group functions ------------------------------------------------------------------
template <typename T> SLMC_HD T group_broadcast(sub_group, T x) {
  return detail::sg_shuffle(x, 0);
}
template <typename T> SLMC_HD T group_broadcast(sub_group, T x, uint32_t local_linear_id) {
  return detail::sg_shuffle(x, local_linear_id);
}
template <typename T> SLMC_HD T group_broadcast(sub_group, T x, id<1> local_id) {
  return detail::sg_shuffle(x, uint32_t(local_id[0]));
}

SLMC_HD inline bool any_of_group(sub_group, bool pred) {
  uint32_t any = detail::sg_inclusive_scan(uint32_t(pred), bit_or<uint32_t>());
  return detail::sg_shuffle(any, detail::sg_size() - 1) != 0;
}
SLMC_HD inline bool all_of_group(sub_group g, bool pred) { return !any_of_group(g, !pred); }
SLMC_HD inline bool none_of_group(sub_group g, bool pred) { return !any_of_group(g, pred); }
template <typename T, typename Predicate>
SLMC_HD bool any_of_group(sub_group g, T x, Predicate pred) {
  return any_of_group(g, bool(pred(x)));
}
template <typename T, typename Predicate>
SLMC_HD bool all_of_group(sub_group g, T x, Predicate pred) {
  return all_of_group(g, bool(pred(x)));
}
template <typename T, typename Predicate>
SLMC_HD bool none_of_group(sub_group g, T x, Predicate pred) {
  return none_of_group(g, bool(pred(x)));
}

template <typename T, typename BinaryOperation>
SLMC_HD T reduce_over_group(sub_group g, T x, BinaryOperation binary_op) {
  return detail::group_reduce(g, x, binary_op);
}
template <typename V, typename T, typename BinaryOperation>
SLMC_HD T reduce_over_group(sub_group g, V x, T init, BinaryOperation binary_op) {
  return T(binary_op(init, reduce_over_group(g, T(x), binary_op)));
}
template <typename T, typename BinaryOperation>
SLMC_HD T inclusive_scan_over_group(sub_group, T x, BinaryOperation binary_op) {
  return detail::sg_inclusive_scan(x, binary_op);
}
template <typename V, typename BinaryOperation, typename T>
SLMC_HD T inclusive_scan_over_group(sub_group, V x, BinaryOperation binary_op, T init) {
  return T(binary_op(init, detail::sg_inclusive_scan(T(x), binary_op)));
}
template <typename T, typename BinaryOperation>
SLMC_HD T exclusive_scan_over_group(sub_group, T x, BinaryOperation binary_op) {
  const uint32_t lane = detail::sg_lane();
  T before = detail::sg_shuffle(detail::sg_inclusive_scan(x, binary_op), lane ? lane - 1 : 0);
  return lane ? before : detail::identity_for<BinaryOperation, T>();
}
template <typename V, typename T, typename BinaryOperation>
SLMC_HD T exclusive_scan_over_group(sub_group, V x, T init, BinaryOperation binary_op) {
  const uint32_t lane = detail::sg_lane();
  T before =
      detail::sg_shuffle(detail::sg_inclusive_scan(T(x), binary_op), lane ? lane - 1 : 0);
  return lane ? T(binary_op(init, before)) : init;
}

// ---- The joint algorithms' primitives over a sub-group ------------------------------
namespace detail {
template <typename G> SLMC_HD sub_group sub_group_of(const G &) { return sub_group(); }
SLMC_HD inline size_t group_item(const sub_group &) { return sg_lane(); }
SLMC_HD inline size_t group_items(const sub_group &) { return sg_size(); }
template <typename T, typename Op> SLMC_HD T group_reduce(const sub_group &, T x, Op op) {
  const uint32_t n = sg_size();
  if (n == sg_max_size() && (n & (n - 1)) == 0) {
    // A full sub-group of 2^k lanes: a butterfly, k exchanges. Partners
    // combine the same two values, so with a commutative operation (as
    // reductions require) every lane ends with the same bits.
    const uint32_t lane = sg_lane();
    for (uint32_t m = n / 2; m > 0; m /= 2)
      x = T(op(x, sg_shuffle(x, lane ^ m)));
    return x;
  }
  return sg_shuffle(sg_inclusive_scan(x, op), n - 1);
}
template <typename T, typename Op>
SLMC_HD scan_result<T> group_scan(const sub_group &, T x, Op op, T identity) {
  const uint32_t lane = sg_lane();
  T inclusive = sg_inclusive_scan(x, op);
  T before = sg_shuffle(inclusive, lane ? lane - 1 : 0);
  return scan_result<T>{inclusive, lane ? before : identity};
}
template <typename T> SLMC_HD T group_bcast(const sub_group &, T x, size_t from) {
  return sg_shuffle(x, uint32_t(from));
}
SLMC_HD inline bool group_any(const sub_group &g, bool p) { return any_of_group(g, p); }
} // namespace detail

template <int Dimensions> SLMC_HD sub_group nd_item<Dimensions>::get_sub_group() const {
  return sub_group();
}

} // namespace sycl

#endif // SLMC_SYCL_DETAIL_SUB_GROUP_HPP
