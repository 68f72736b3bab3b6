//===- sycl/detail/reduction.hpp - SYCL 2020 reductions -------------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// SYCL 2020 §4.9.2: sycl::reduction, sycl::reducer and
// property::reduction::initialize_to_identity, for a USM pointer, a
// one-element buffer or a span of a fixed extent (an array reduction),
// with the known-identity operations or any combiner (with or without an
// identity).
//
// handler::parallel_for(range | nd_range, reductions..., kernel) runs each
// kernel with these steps (handler.hpp):
//   1. every work-item gets a private reducer per reduction, starting from
//      the identity, and the kernel combines into it;
//   2. after the kernel every work-item of a group combines its reducers
//      with the group algorithm's tree (group_algorithm.hpp), and the
//      group's first work-item writes one partial result per group;
//   3. a second kernel, one work-group, combines the partial results and,
//      unless initialize_to_identity, the variable's old value, and writes
//      the variable.
// So any combiner works, in any order the groups finish: the combiner
// only has to be associative and commutative, as the standard requires.
// Work-items of a range kernel that lie past the range (the last group of
// a range that is not a multiple of the group size) skip the kernel but
// still take part in step 2.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_SYCL_DETAIL_REDUCTION_HPP
#define SLMC_SYCL_DETAIL_REDUCTION_HPP

#include "sycl/detail/accessor.hpp"
#include "sycl/detail/functional.hpp"
#include "sycl/detail/group_algorithm.hpp"
#include "sycl/detail/item.hpp"

#include <cstddef>
#include <limits>
#include <memory>
#include <tuple>
#include <utility>
#include <type_traits>

namespace sycl {

// ---- span (SYCL 2020 §4.7.8) ------------------------------------------------------
inline constexpr size_t dynamic_extent = std::numeric_limits<size_t>::max();

/// A view of `size()` contiguous elements: what array reductions take.
template <typename T, size_t Extent = dynamic_extent> class span {
public:
  using element_type = T;
  using value_type = typename std::remove_cv<T>::type;
  using size_type = size_t;
  using pointer = T *;
  using reference = T &;
  using iterator = T *;
  static constexpr size_t extent = Extent;

  template <size_t E = Extent, typename = typename std::enable_if<E == 0 || E == dynamic_extent>::type>
  constexpr span() noexcept : data_(nullptr), size_(0) {}
  constexpr span(T *data, size_t count) : data_(data), size_(count) {}
  template <size_t N, typename = typename std::enable_if<Extent == dynamic_extent || N == Extent>::type>
  constexpr span(T (&array)[N]) noexcept : data_(array), size_(N) {}

  SLMC_HD constexpr T *data() const noexcept { return data_; }
  SLMC_HD constexpr size_t size() const noexcept { return size_; }
  SLMC_HD constexpr size_t size_bytes() const noexcept { return size_ * sizeof(T); }
  SLMC_HD constexpr bool empty() const noexcept { return size_ == 0; }
  SLMC_HD constexpr T &operator[](size_t i) const { return data_[i]; }
  SLMC_HD constexpr T *begin() const noexcept { return data_; }
  SLMC_HD constexpr T *end() const noexcept { return data_ + size_; }

private:
  T *data_;
  size_t size_;
};
template <typename T, size_t N> span(T (&)[N]) -> span<T, N>;

template <typename T, typename BinaryOperation, int Dimensions = 0, typename Desc = void>
class reducer;

namespace detail {

/// Where a reduction's result goes and how values combine; what the
/// kernels carry (trivially copyable: no buffer, only its memory).
/// `Extent` elements (1 for a scalar reduction) are reduced side by side.
template <typename T, typename Op, size_t Extent, bool HasIdentity, bool Array>
struct reduction_desc {
  using value_type = T;
  using operation = Op;
  static constexpr size_t extent = Extent;
  static constexpr bool has_identity = HasIdentity;
  using reducer_type = reducer<T, Op, Array ? 1 : 0, reduction_desc>;

  T *out;
  T identity;
  Op op;
  bool initialize_to_identity;
};

/// One element's running value. Without an identity a value may be
/// absent (a work-item that combined nothing).
template <typename T, bool HasIdentity> struct reduction_slot {
  T value;
  SLMC_HD void start(const T &identity) { value = identity; }
  template <typename Op> SLMC_HD void combine(const Op &op, const T &x) { value = T(op(value, x)); }
};
template <typename T> struct reduction_slot<T, false> {
  T value;
  bool has;
  SLMC_HD void start(const T &) { has = false; }
  template <typename Op> SLMC_HD void combine(const Op &op, const T &x) {
    value = has ? T(op(value, x)) : x;
    has = true;
  }
};

/// Whether a reducer's combiner is F<T> or F<> (the operators' condition).
template <template <typename> class F, typename Op, typename T>
inline constexpr bool is_combiner =
    std::is_same<Op, F<T>>::value || std::is_same<Op, F<void>>::value;

/// What step 2 and 3 move between work-items: the slot as a value the
/// group tree can combine.
template <typename T, typename Op, bool HasIdentity> struct slot_ops {
  using carried = T;
  SLMC_HD static carried carry(const reduction_slot<T, true> &s) { return s.value; }
  SLMC_HD static carried from(const T &x) { return x; }
  SLMC_HD static carried empty(const T &identity) { return identity; }
  struct combiner {
    Op op;
    SLMC_HD T operator()(const T &a, const T &b) const { return T(op(a, b)); }
  };
  SLMC_HD static bool present(const carried &) { return true; }
  SLMC_HD static const T &value(const carried &c) { return c; }
};
template <typename T, typename Op> struct slot_ops<T, Op, false> {
  using carried = maybe<T>;
  SLMC_HD static carried carry(const reduction_slot<T, false> &s) {
    return carried{s.value, s.has};
  }
  SLMC_HD static carried from(const T &x) { return carried{x, true}; }
  SLMC_HD static carried empty(const T &) { return carried{T(), false}; }
  using combiner = maybe_op<Op>;
  SLMC_HD static bool present(const carried &c) { return c.has; }
  SLMC_HD static const T &value(const carried &c) { return c.value; }
};

} // namespace detail

// ---- reducer (§4.9.2.3) -----------------------------------------------------------
/// The kernel's view of one work-item's running value.
template <typename T, typename BinaryOperation, typename Desc>
class reducer<T, BinaryOperation, 0, Desc> {
  static constexpr bool HasIdentity = Desc::has_identity;

public:
  using value_type = T;
  using binary_operation = BinaryOperation;
  static constexpr int dimensions = 0;

  reducer(const reducer &) = delete;
  reducer &operator=(const reducer &) = delete;

  SLMC_HD reducer &combine(const T &partial) {
    slot_.combine(op_, partial);
    return *this;
  }
  template <bool H = HasIdentity, typename = typename std::enable_if<H>::type>
  SLMC_HD T identity() const {
    return identity_;
  }

  // §4.9.2.3's operators, each for the combiner it means.
  template <typename Op = BinaryOperation,
            typename = typename std::enable_if<detail::is_combiner<plus, Op, T>>::type>
  SLMC_HD reducer &operator+=(const T &x) {
    return combine(x);
  }
  template <typename Op = BinaryOperation,
            typename = typename std::enable_if<detail::is_combiner<multiplies, Op, T>>::type>
  SLMC_HD reducer &operator*=(const T &x) {
    return combine(x);
  }
  template <typename Op = BinaryOperation,
            typename = typename std::enable_if<detail::is_combiner<bit_and, Op, T>>::type>
  SLMC_HD reducer &operator&=(const T &x) {
    return combine(x);
  }
  template <typename Op = BinaryOperation,
            typename = typename std::enable_if<detail::is_combiner<bit_or, Op, T>>::type>
  SLMC_HD reducer &operator|=(const T &x) {
    return combine(x);
  }
  template <typename Op = BinaryOperation,
            typename = typename std::enable_if<detail::is_combiner<bit_xor, Op, T>>::type>
  SLMC_HD reducer &operator^=(const T &x) {
    return combine(x);
  }
  template <typename Op = BinaryOperation,
            typename = typename std::enable_if<detail::is_combiner<plus, Op, T> &&
                                               std::is_integral<T>::value>::type>
  SLMC_HD reducer &operator++() {
    return combine(T(1));
  }
  template <typename Op = BinaryOperation,
            typename = typename std::enable_if<detail::is_combiner<plus, Op, T> &&
                                               std::is_integral<T>::value>::type>
  SLMC_HD void operator++(int) {
    combine(T(1));
  }

  // slmc: the kernel wrappers' side.
  SLMC_HD reducer(const T &identity, const BinaryOperation &op) : identity_(identity), op_(op) {
    slot_.start(identity);
  }
  SLMC_HD const detail::reduction_slot<T, HasIdentity> &slmc_slot() const { return slot_; }

private:
  T identity_;
  BinaryOperation op_;
  detail::reduction_slot<T, HasIdentity> slot_;
};

/// An array reduction's reducer: `r[i]` is element i's reducer.
template <typename T, typename BinaryOperation, typename Desc>
class reducer<T, BinaryOperation, 1, Desc> {
  using element = reducer<T, BinaryOperation, 0, Desc>;
  static constexpr size_t Extent = Desc::extent;

public:
  using value_type = T;
  using binary_operation = BinaryOperation;
  static constexpr int dimensions = 1;

  reducer(const reducer &) = delete;
  reducer &operator=(const reducer &) = delete;

  SLMC_HD element &operator[](size_t index) { return elements_[index]; }
  template <bool H = Desc::has_identity, typename = typename std::enable_if<H>::type>
  SLMC_HD T identity() const {
    return elements_[0].identity();
  }

  SLMC_HD reducer(const T &identity, const BinaryOperation &op)
      : reducer(identity, op, std::make_index_sequence<Extent>()) {}
  SLMC_HD const element &slmc_element(size_t i) const { return elements_[i]; }

private:
  template <size_t... I>
  SLMC_HD reducer(const T &identity, const BinaryOperation &op, std::index_sequence<I...>)
      : elements_{{(void(I), identity), op}...} {}

  element elements_[Extent];
};

namespace detail {

/// What sycl::reduction returns: the description plus, for a buffer, the
/// buffer itself (kept alive while the command group holds it).
template <typename Desc> struct reduction_object {
  using desc_type = Desc;
  Desc desc;
  std::shared_ptr<void> keep_alive;
};

template <typename T> struct is_reduction : std::false_type {};
template <typename D> struct is_reduction<reduction_object<D>> : std::true_type {};
template <typename T>
inline constexpr bool is_reduction_v = is_reduction<typename std::decay<T>::type>::value;

/// parallel_for's `Rest...`: one or more reductions, then the kernel.
template <typename... Rest> struct reductions_then_kernel {
  template <size_t... I> static constexpr bool leading(std::index_sequence<I...>) {
    return (is_reduction_v<typename std::tuple_element<I, std::tuple<Rest...>>::type> && ...);
  }
  static constexpr bool value =
      sizeof...(Rest) >= 2 && leading(std::make_index_sequence<sizeof...(Rest) - 1>());
};
template <> struct reductions_then_kernel<> : std::false_type {};
template <typename... Rest>
using if_reductions =
    typename std::enable_if<reductions_then_kernel<Rest...>::value>::type;

template <typename T, typename Op, size_t Extent, bool HasIdentity, bool Array>
reduction_object<reduction_desc<T, Op, Extent, HasIdentity, Array>>
make_reduction(T *out, const T &identity, const Op &op, const property_list &props) {
  using Desc = reduction_desc<T, Op, Extent, HasIdentity, Array>;
  return reduction_object<Desc>{
      Desc{out, identity, op, props.has_property<property::reduction::initialize_to_identity>()},
      nullptr};
}

template <typename T, typename Op> T identity_or_value(const Op &) {
  if constexpr (has_known_identity<Op, T>::value)
    return known_identity<Op, T>::value;
  else
    return T();
}

template <typename T> void check_reduction_type() {
  static_assert(std::is_trivially_copyable<T>::value,
                "sycl::reduction: the reduced type must be trivially copyable");
}

template <typename BufferT> void check_reduction_buffer(const BufferT &b) {
  if (b.size() != 1)
    throw sycl::exception(make_error_code(errc::invalid),
                          "sycl::reduction: the buffer must hold exactly one element (it has " +
                              std::to_string(b.size()) + ")");
}

} // namespace detail

// ---- reduction (§4.9.2.1) ---------------------------------------------------------
/// A USM pointer's element, with the combiner's known identity (or none).
template <typename T, typename BinaryOperation>
auto reduction(T *var, BinaryOperation combiner, const property_list &props = {}) {
  detail::check_reduction_type<T>();
  constexpr bool Known = has_known_identity<BinaryOperation, T>::value;
  return detail::make_reduction<T, BinaryOperation, 1, Known, false>(
      var, detail::identity_or_value<T>(combiner), combiner, props);
}
/// A USM pointer's element with the caller's identity.
template <typename T, typename BinaryOperation>
auto reduction(T *var, const T &identity, BinaryOperation combiner,
               const property_list &props = {}) {
  detail::check_reduction_type<T>();
  return detail::make_reduction<T, BinaryOperation, 1, true, false>(var, identity, combiner,
                                                                    props);
}

/// A one-element buffer.
template <typename T, int N, typename A, typename BinaryOperation>
auto reduction(buffer<T, N, A> vars, handler &, BinaryOperation combiner,
               const property_list &props = {}) {
  detail::check_reduction_type<T>();
  detail::check_reduction_buffer(vars);
  constexpr bool Known = has_known_identity<BinaryOperation, T>::value;
  auto r = detail::make_reduction<T, BinaryOperation, 1, Known, false>(
      vars.slmc_data(), detail::identity_or_value<T>(combiner), combiner, props);
  r.keep_alive = std::make_shared<buffer<T, N, A>>(vars);
  return r;
}
template <typename T, int N, typename A, typename BinaryOperation>
auto reduction(buffer<T, N, A> vars, handler &, const T &identity, BinaryOperation combiner,
               const property_list &props = {}) {
  detail::check_reduction_type<T>();
  detail::check_reduction_buffer(vars);
  auto r = detail::make_reduction<T, BinaryOperation, 1, true, false>(vars.slmc_data(), identity,
                                                                      combiner, props);
  r.keep_alive = std::make_shared<buffer<T, N, A>>(vars);
  return r;
}

/// An array reduction: each element of the span is reduced on its own.
template <typename T, size_t Extent, typename BinaryOperation>
auto reduction(span<T, Extent> vars, BinaryOperation combiner,
               const property_list &props = {}) {
  static_assert(Extent != dynamic_extent,
                "sycl::reduction: a span reduction needs a span of a fixed extent");
  detail::check_reduction_type<T>();
  constexpr bool Known = has_known_identity<BinaryOperation, T>::value;
  if constexpr (Extent != dynamic_extent)
    return detail::make_reduction<T, BinaryOperation, Extent, Known, true>(
        vars.data(), detail::identity_or_value<T>(combiner), combiner, props);
}
template <typename T, size_t Extent, typename BinaryOperation>
auto reduction(span<T, Extent> vars, const T &identity, BinaryOperation combiner,
               const property_list &props = {}) {
  static_assert(Extent != dynamic_extent,
                "sycl::reduction: a span reduction needs a span of a fixed extent");
  detail::check_reduction_type<T>();
  if constexpr (Extent != dynamic_extent)
    return detail::make_reduction<T, BinaryOperation, Extent, true, true>(vars.data(), identity,
                                                                          combiner, props);
}

namespace detail {

/// Step 2 for one reduction: the group combines its work-items' reducers;
/// the first work-item writes the group's partial results.
template <typename Desc, typename Reducer, typename G>
SLMC_HD void reduce_group(const Desc &d, const Reducer &r, const G &g, size_t group_index,
                          void *partials) {
  using T = typename Desc::value_type;
  using Ops = slot_ops<T, typename Desc::operation, Desc::has_identity>;
  using C = typename Ops::carried;
  C *out = static_cast<C *>(partials) + group_index * Desc::extent;
  typename Ops::combiner op{d.op};
  for (size_t e = 0; e < Desc::extent; ++e) {
    C mine;
    if constexpr (Reducer::dimensions == 0)
      mine = Ops::carry(r.slmc_slot());
    else
      mine = Ops::carry(r.slmc_element(e).slmc_slot());
    C total = group_reduce(g, mine, op);
    if (group_item(g) == 0)
      out[e] = total;
  }
}

/// Step 3 for one reduction: one work-group (as large as the device allows,
/// up to 1024) combines `groups` partial results per element and writes the
/// variable.
template <typename Desc> struct reduction_finish_kernel {
  Desc d;
  const void *partials;
  size_t groups;

  SLMC_HD void operator()() const {
    using T = typename Desc::value_type;
    using Ops = slot_ops<T, typename Desc::operation, Desc::has_identity>;
    using C = typename Ops::carried;
    const C *in = static_cast<const C *>(partials);
    const group<1> g = item_factory::make_nd_item<1>(id<1>()).get_group();
    typename Ops::combiner op{d.op};
    const size_t i = group_item(g), n = group_items(g);
    for (size_t e = 0; e < Desc::extent; ++e) {
      // Four independent running values, so that the loads of a work-item
      // overlap (one chain of dependent loads is what limits this kernel).
      C a0 = Ops::empty(d.identity), a1 = a0, a2 = a0, a3 = a0;
      size_t k = i;
      for (; k + 3 * n < groups; k += 4 * n) {
        a0 = op(a0, in[k * Desc::extent + e]);
        a1 = op(a1, in[(k + n) * Desc::extent + e]);
        a2 = op(a2, in[(k + 2 * n) * Desc::extent + e]);
        a3 = op(a3, in[(k + 3 * n) * Desc::extent + e]);
      }
      for (; k < groups; k += n)
        a0 = op(a0, in[k * Desc::extent + e]);
      C total = group_reduce(g, C(op(op(a0, a1), op(a2, a3))), op);
      if (i == 0) {
        if (!d.initialize_to_identity)
          total = op(Ops::from(d.out[e]), total);
        if (Ops::present(total))
          d.out[e] = Ops::value(total);
      }
    }
  }
};

/// Bytes of partial results a reduction needs for `groups` work-groups.
template <typename Desc> constexpr size_t partial_bytes(size_t groups) {
  using Ops = slot_ops<typename Desc::value_type, typename Desc::operation, Desc::has_identity>;
  return align_up(groups * Desc::extent * sizeof(typename Ops::carried), 64);
}

} // namespace detail
} // namespace sycl

#endif // SLMC_SYCL_DETAIL_REDUCTION_HPP
