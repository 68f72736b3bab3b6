//===- sycl/detail/item.hpp - id, range, nd_range, item, nd_item, group ---===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Dimension mapping: SYCL dimension N-1 varies fastest and is the device's x
// dimension; for N = 2, dimension 0 is y and dimension 1 is x. Work-item
// objects hold no copy of the work-item builtins: every query reads them.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_SYCL_DETAIL_ITEM_HPP
#define SLMC_SYCL_DETAIL_ITEM_HPP

#include "sycl/detail/common.hpp"

#if defined(SLMC_PASS_SPIRV)
// Recognised by LLVM's SPIR-V backend, as offload.h's builtins.
SLMC_DEVICE_ONLY size_t __spirv_BuiltInGlobalInvocationId(int);
#endif

namespace sycl {

template <int Dimensions> class id;
template <int Dimensions> class range;
template <int Dimensions, bool WithOffset> class item;
template <int Dimensions> class nd_item;
template <int Dimensions> class group;
class sub_group;

// -fsycl-id-queries-fit-in-int (slmc++'s default, as DPC++'s): the program
// promises that every id and range a work-item query returns fits in an int,
// so device code computes them in 32 bits and tells the compiler so; GPUs
// without 64-bit integer units (Intel Gen12) then index without emulated
// 64-bit multiplies and adds. -fno-sycl-id-queries-fit-in-int defines it 0.
#ifndef SLMC_SYCL_ID_QUERIES_FIT_IN_INT
#define SLMC_SYCL_ID_QUERIES_FIT_IN_INT 1
#endif

namespace detail {

/// An id or range from a work-item query, as the promise above allows.
SLMC_HD inline size_t id_query(size_t v) {
#if SLMC_SYCL_ID_QUERIES_FIT_IN_INT && (defined(SLMC_PASS_SPIRV) || defined(SLMC_PASS_PTX))
  __builtin_assume(v <= 0x7fffffff);
#endif
  return v;
}

/// Global id `x` of the calling work-item (device dimension, no offset).
SLMC_HD inline size_t global_id_query(int x) {
#if SLMC_SYCL_ID_QUERIES_FIT_IN_INT && defined(SLMC_PASS_SPIRV)
  // IGC computes GlobalInvocationId in 32 bits (it assumes a launch of
  // fewer than 2^32 work-items in a dimension, as the promise does); a
  // product of the group builtins would be 64-bit arithmetic, since LLVM
  // widens any 32-bit form of it back.
  return __spirv_BuiltInGlobalInvocationId(x);
#else
  return size_t(slmc::group_id(x)) * slmc::local_size(x) + slmc::local_id(x);
#endif
}

/// The device dimension (0 = x) of SYCL dimension `d` of an N-dimensional
/// index space.
SLMC_HD constexpr int device_dim(int N, int d) { return N - 1 - d; }

template <typename S>
using if_scalar = typename std::enable_if<std::is_arithmetic<S>::value, int>::type;

/// Storage and element-wise arithmetic shared by id and range.
template <template <int> class Derived, int N> class array {
  static_assert(N >= 1 && N <= 3, "SYCL index spaces have 1 to 3 dimensions");

public:
  SLMC_HD size_t get(int d) const { return v_[d]; }
  SLMC_HD size_t &operator[](int d) { return v_[d]; }
  SLMC_HD size_t operator[](int d) const { return v_[d]; }

#define SLMC_SYCL_ARRAY_OP(op)                                                   \
  SLMC_HD friend Derived<N> operator op(const Derived<N> &a, const Derived<N> &b) { \
    Derived<N> r(a);                                                             \
    for (int i = 0; i < N; ++i) r.v_[i] = a.v_[i] op b.v_[i];                    \
    return r;                                                                    \
  }                                                                              \
  template <typename S, if_scalar<S> = 0>                                        \
  SLMC_HD friend Derived<N> operator op(const Derived<N> &a, S s) {              \
    Derived<N> r(a);                                                             \
    for (int i = 0; i < N; ++i) r.v_[i] = a.v_[i] op size_t(s);                  \
    return r;                                                                    \
  }                                                                              \
  template <typename S, if_scalar<S> = 0>                                        \
  SLMC_HD friend Derived<N> operator op(S s, const Derived<N> &a) {              \
    Derived<N> r(a);                                                             \
    for (int i = 0; i < N; ++i) r.v_[i] = size_t(s) op a.v_[i];                  \
    return r;                                                                    \
  }                                                                              \
  SLMC_HD Derived<N> &operator op##=(const Derived<N> &b) {                       \
    for (int i = 0; i < N; ++i) v_[i] = v_[i] op b.v_[i];                        \
    return static_cast<Derived<N> &>(*this);                                     \
  }                                                                              \
  template <typename S, if_scalar<S> = 0>                                        \
  SLMC_HD Derived<N> &operator op##=(S s) {                                       \
    for (int i = 0; i < N; ++i) v_[i] = v_[i] op size_t(s);                      \
    return static_cast<Derived<N> &>(*this);                                     \
  }
  SLMC_SYCL_ARRAY_OP(+)
  SLMC_SYCL_ARRAY_OP(-)
  SLMC_SYCL_ARRAY_OP(*)
  SLMC_SYCL_ARRAY_OP(/)
  SLMC_SYCL_ARRAY_OP(%)
  SLMC_SYCL_ARRAY_OP(<<)
  SLMC_SYCL_ARRAY_OP(>>)
  SLMC_SYCL_ARRAY_OP(&)
  SLMC_SYCL_ARRAY_OP(|)
  SLMC_SYCL_ARRAY_OP(^)
#undef SLMC_SYCL_ARRAY_OP

  SLMC_HD friend bool operator==(const Derived<N> &a, const Derived<N> &b) {
    for (int i = 0; i < N; ++i)
      if (a.v_[i] != b.v_[i]) return false;
    return true;
  }
  SLMC_HD friend bool operator!=(const Derived<N> &a, const Derived<N> &b) {
    return !(a == b);
  }
  template <typename S, if_scalar<S> = 0>
  SLMC_HD friend bool operator==(const Derived<N> &a, S s) {
    for (int i = 0; i < N; ++i)
      if (a.v_[i] != size_t(s)) return false;
    return true;
  }
  template <typename S, if_scalar<S> = 0>
  SLMC_HD friend bool operator!=(const Derived<N> &a, S s) { return !(a == s); }

protected:
  SLMC_HD array() { for (int i = 0; i < N; ++i) v_[i] = 0; }
  SLMC_HD array(size_t a, size_t b, size_t c) {
    size_t t[3] = {a, b, c};
    for (int i = 0; i < N; ++i) v_[i] = t[i];
  }
  size_t v_[N];
};

/// One-dimensional ids and items are also their only component. A plain
/// (not template) conversion, so that built-in subscripts (`ptr[i]`) and
/// casts to any integer type see it.
template <typename Derived, int N> struct size_conversion {};
template <typename Derived> struct size_conversion<Derived, 1> {
  SLMC_HD operator size_t() const { return static_cast<const Derived *>(this)->get_index0(); }
};

} // namespace detail

// ---- range --------------------------------------------------------------------
template <int Dimensions = 1> class range : public detail::array<range, Dimensions> {
  using base = detail::array<range, Dimensions>;

public:
  static constexpr int dimensions = Dimensions;

  SLMC_HD range() : base() {}
  template <int N = Dimensions, typename = typename std::enable_if<N == 1>::type>
  SLMC_HD range(size_t d0) : base(d0, 0, 0) {}
  template <int N = Dimensions, typename = typename std::enable_if<N == 2>::type>
  SLMC_HD range(size_t d0, size_t d1) : base(d0, d1, 0) {}
  template <int N = Dimensions, typename = typename std::enable_if<N == 3>::type>
  SLMC_HD range(size_t d0, size_t d1, size_t d2) : base(d0, d1, d2) {}

  /// Number of elements.
  SLMC_HD size_t size() const {
    size_t s = 1;
    for (int i = 0; i < Dimensions; ++i) s *= this->v_[i];
    return s;
  }
};
range(size_t)->range<1>;
range(size_t, size_t)->range<2>;
range(size_t, size_t, size_t)->range<3>;

// ---- id -------------------------------------------------------------------------
template <int Dimensions = 1>
class id : public detail::array<id, Dimensions>,
           public detail::size_conversion<id<Dimensions>, Dimensions> {
  using base = detail::array<id, Dimensions>;
  friend struct detail::size_conversion<id<Dimensions>, Dimensions>;
  SLMC_HD size_t get_index0() const { return this->v_[0]; }

public:
  static constexpr int dimensions = Dimensions;

  SLMC_HD id() : base() {}
  template <int N = Dimensions, typename = typename std::enable_if<N == 1>::type>
  SLMC_HD id(size_t d0) : base(d0, 0, 0) {}
  template <int N = Dimensions, typename = typename std::enable_if<N == 2>::type>
  SLMC_HD id(size_t d0, size_t d1) : base(d0, d1, 0) {}
  template <int N = Dimensions, typename = typename std::enable_if<N == 3>::type>
  SLMC_HD id(size_t d0, size_t d1, size_t d2) : base(d0, d1, d2) {}
  SLMC_HD id(const range<Dimensions> &r) : base() {
    for (int i = 0; i < Dimensions; ++i) this->v_[i] = r[i];
  }
};
id(size_t)->id<1>;
id(size_t, size_t)->id<2>;
id(size_t, size_t, size_t)->id<3>;

namespace detail {
/// Row-major linear index (dimension N-1 fastest).
template <int N> SLMC_HD size_t linearize(const id<N> &i, const range<N> &r) {
  size_t l = i[0];
  for (int d = 1; d < N; ++d) l = l * r[d] + i[d];
  return l;
}
/// A linear id from work-item queries (an id the promise covers too).
template <int N> SLMC_HD size_t linear_id_query(const id<N> &i, const range<N> &r) {
  return id_query(linearize(i, r));
}
} // namespace detail

// ---- nd_range -------------------------------------------------------------------
template <int Dimensions = 1> class nd_range {
public:
  static constexpr int dimensions = Dimensions;

  SLMC_HD nd_range(range<Dimensions> global_size, range<Dimensions> local_size,
                   id<Dimensions> offset = id<Dimensions>())
      : global_(global_size), local_(local_size), offset_(offset) {}

  SLMC_HD range<Dimensions> get_global_range() const { return global_; }
  SLMC_HD range<Dimensions> get_local_range() const { return local_; }
  SLMC_HD range<Dimensions> get_group_range() const {
    range<Dimensions> r;
    for (int i = 0; i < Dimensions; ++i) r[i] = local_[i] ? global_[i] / local_[i] : 0;
    return r;
  }
  /// Deprecated in SYCL 2020; supported.
  SLMC_HD id<Dimensions> get_offset() const { return offset_; }

  SLMC_HD friend bool operator==(const nd_range &a, const nd_range &b) {
    return a.global_ == b.global_ && a.local_ == b.local_ && a.offset_ == b.offset_;
  }
  SLMC_HD friend bool operator!=(const nd_range &a, const nd_range &b) { return !(a == b); }

private:
  range<Dimensions> global_;
  range<Dimensions> local_;
  id<Dimensions> offset_;
};

// ---- item (basic data-parallel kernels) -------------------------------------------
namespace detail {
struct item_factory;
}

template <int Dimensions = 1, bool WithOffset = true>
class item : public detail::size_conversion<item<Dimensions, WithOffset>, Dimensions> {
  friend struct detail::size_conversion<item<Dimensions, WithOffset>, Dimensions>;
  SLMC_HD size_t get_index0() const { return get_id(0); }

public:
  static constexpr int dimensions = Dimensions;

  item() = delete;

  SLMC_HD id<Dimensions> get_id() const { return id_; }
  SLMC_HD size_t get_id(int d) const { return detail::id_query(id_[d]); }
  SLMC_HD size_t operator[](int d) const { return get_id(d); }
  SLMC_HD range<Dimensions> get_range() const { return range_; }
  SLMC_HD size_t get_range(int d) const { return detail::id_query(range_[d]); }
  /// Deprecated in SYCL 2020; supported.
  SLMC_HD id<Dimensions> get_offset() const { return offset_; }
  SLMC_HD size_t get_linear_id() const {
    return detail::linear_id_query(id<Dimensions>(id_ - offset_), range_);
  }

  SLMC_HD operator id<Dimensions>() const { return id_; }

  SLMC_HD friend bool operator==(const item &a, const item &b) {
    return a.id_ == b.id_ && a.range_ == b.range_ && a.offset_ == b.offset_;
  }
  SLMC_HD friend bool operator!=(const item &a, const item &b) { return !(a == b); }

private:
  friend struct detail::item_factory;
  SLMC_HD item(const id<Dimensions> &i, const range<Dimensions> &r, const id<Dimensions> &o)
      : id_(i), range_(r), offset_(o) {}

  id<Dimensions> id_;
  range<Dimensions> range_;
  id<Dimensions> offset_;
};

// ---- group --------------------------------------------------------------------------
template <int Dimensions = 1> class group {
public:
  using id_type = id<Dimensions>;
  using range_type = range<Dimensions>;
  using linear_id_type = size_t;
  static constexpr int dimensions = Dimensions;
  static constexpr memory_scope fence_scope = memory_scope::work_group;

  SLMC_HD group() {}

  SLMC_HD id<Dimensions> get_group_id() const {
    id<Dimensions> r;
    for (int d = 0; d < Dimensions; ++d) r[d] = get_group_id(d);
    return r;
  }
  SLMC_HD size_t get_group_id(int d) const {
    return detail::id_query(slmc::group_id(detail::device_dim(Dimensions, d)));
  }
  /// The calling work-item's id within the group.
  SLMC_HD id<Dimensions> get_local_id() const {
    id<Dimensions> r;
    for (int d = 0; d < Dimensions; ++d) r[d] = get_local_id(d);
    return r;
  }
  SLMC_HD size_t get_local_id(int d) const {
    return detail::id_query(slmc::local_id(detail::device_dim(Dimensions, d)));
  }
  SLMC_HD range<Dimensions> get_local_range() const {
    range<Dimensions> r;
    for (int d = 0; d < Dimensions; ++d) r[d] = get_local_range(d);
    return r;
  }
  SLMC_HD size_t get_local_range(int d) const {
    return detail::id_query(slmc::local_size(detail::device_dim(Dimensions, d)));
  }
  SLMC_HD range<Dimensions> get_max_local_range() const { return get_local_range(); }
  SLMC_HD range<Dimensions> get_group_range() const {
    range<Dimensions> r;
    for (int d = 0; d < Dimensions; ++d) r[d] = get_group_range(d);
    return r;
  }
  SLMC_HD size_t get_group_range(int d) const {
    return detail::id_query(slmc::group_count(detail::device_dim(Dimensions, d)));
  }
  SLMC_HD range<Dimensions> get_global_range() const {
    range<Dimensions> r;
    for (int d = 0; d < Dimensions; ++d) r[d] = get_global_range(d);
    return r;
  }
  SLMC_HD size_t get_global_range(int d) const {
    return detail::id_query(get_group_range(d) * get_local_range(d));
  }
  SLMC_HD size_t operator[](int d) const { return get_group_id(d); }
  /// Deprecated: the group's id.
  SLMC_HD id<Dimensions> get_id() const { return get_group_id(); }
  SLMC_HD size_t get_group_linear_id() const {
    return detail::linear_id_query(get_group_id(), get_group_range());
  }
  SLMC_HD size_t get_local_linear_id() const {
    return detail::linear_id_query(get_local_id(), get_local_range());
  }
  SLMC_HD size_t get_group_linear_range() const { return get_group_range().size(); }
  SLMC_HD size_t get_local_linear_range() const { return get_local_range().size(); }
  /// True in one work-item of the group.
  SLMC_HD bool leader() const { return slmc::is_group_leader<Dimensions>(); }

  SLMC_HD friend bool operator==(const group &a, const group &b) {
    return a.get_group_id() == b.get_group_id();
  }
  SLMC_HD friend bool operator!=(const group &a, const group &b) { return !(a == b); }
};

/// Waits until every work-item of the group arrives; orders group-local and
/// global memory.
template <int Dimensions>
SLMC_HD inline void group_barrier(group<Dimensions>, memory_scope = memory_scope::work_group) {
  slmc::group_barrier();
}

SLMC_HD inline void atomic_fence(memory_order order, memory_scope scope) {
  (void)order;
  if (scope == memory_scope::work_group || scope == memory_scope::sub_group ||
      scope == memory_scope::work_item)
    slmc::group_fence();
  else
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

// ---- nd_item ----------------------------------------------------------------------
template <int Dimensions = 1> class nd_item {
public:
  static constexpr int dimensions = Dimensions;

  nd_item() = delete;

  SLMC_HD id<Dimensions> get_global_id() const {
    id<Dimensions> r;
    for (int d = 0; d < Dimensions; ++d) r[d] = get_global_id(d);
    return r;
  }
  SLMC_HD size_t get_global_id(int d) const {
#if SLMC_SYCL_ID_QUERIES_FIT_IN_INT && (defined(SLMC_PASS_SPIRV) || defined(SLMC_PASS_PTX))
    // The id with its offset fits in an int (checked at submit), so the sum
    // is a 32-bit one; a 64-bit offset would make every index derived from
    // the id 64-bit arithmetic (emulated on Intel Gen12: docs/intel.md).
    return size_t(unsigned(detail::global_id_query(detail::device_dim(Dimensions, d))) +
                  unsigned(offset_[d]));
#else
    return detail::id_query(detail::global_id_query(detail::device_dim(Dimensions, d)) +
                            offset_[d]);
#endif
  }
  SLMC_HD size_t get_global_linear_id() const {
    // Of the id without its offset: the device's own.
    id<Dimensions> r;
    for (int d = 0; d < Dimensions; ++d)
      r[d] = detail::id_query(detail::global_id_query(detail::device_dim(Dimensions, d)));
    return detail::linear_id_query(r, get_global_range());
  }
  SLMC_HD id<Dimensions> get_local_id() const { return group<Dimensions>().get_local_id(); }
  SLMC_HD size_t get_local_id(int d) const { return group<Dimensions>().get_local_id(d); }
  SLMC_HD size_t get_local_linear_id() const {
    return group<Dimensions>().get_local_linear_id();
  }
  SLMC_HD group<Dimensions> get_group() const { return group<Dimensions>(); }
  /// Defined in sub_group.hpp.
  SLMC_HD sub_group get_sub_group() const;
  SLMC_HD size_t get_group(int d) const { return group<Dimensions>().get_group_id(d); }
  SLMC_HD size_t get_group_linear_id() const {
    return group<Dimensions>().get_group_linear_id();
  }
  SLMC_HD range<Dimensions> get_group_range() const {
    return group<Dimensions>().get_group_range();
  }
  SLMC_HD size_t get_group_range(int d) const {
    return group<Dimensions>().get_group_range(d);
  }
  SLMC_HD range<Dimensions> get_global_range() const {
    return group<Dimensions>().get_global_range();
  }
  SLMC_HD size_t get_global_range(int d) const {
    return group<Dimensions>().get_global_range(d);
  }
  SLMC_HD range<Dimensions> get_local_range() const {
    return group<Dimensions>().get_local_range();
  }
  SLMC_HD size_t get_local_range(int d) const {
    return group<Dimensions>().get_local_range(d);
  }
  /// Deprecated in SYCL 2020; supported.
  SLMC_HD id<Dimensions> get_offset() const { return offset_; }
  SLMC_HD nd_range<Dimensions> get_nd_range() const {
    return nd_range<Dimensions>(get_global_range(), get_local_range(), offset_);
  }

  /// Work-group barrier; the fence space picks the memory it orders.
  SLMC_HD void barrier(access::fence_space space = access::fence_space::global_and_local) const {
    if (space == access::fence_space::local_space)
      slmc::group_barrier_local();
    else if (space == access::fence_space::global_space)
      slmc::group_barrier_global();
    else
      slmc::group_barrier();
  }
  /// Deprecated in SYCL 2020: a fence without a barrier.
  SLMC_HD void mem_fence(access::fence_space = access::fence_space::global_and_local) const {
    slmc::group_fence();
  }

private:
  friend struct detail::item_factory;
  SLMC_HD explicit nd_item(const id<Dimensions> &offset) : offset_(offset) {}

  id<Dimensions> offset_;
};

namespace detail {
/// Makes the work-item objects that kernels receive.
struct item_factory {
  template <int N>
  SLMC_HD static item<N, true> make_item(const id<N> &i, const range<N> &r, const id<N> &o) {
    return item<N, true>(i, r, o);
  }
  template <int N> SLMC_HD static nd_item<N> make_nd_item(const id<N> &offset) {
    return nd_item<N>(offset);
  }
};
} // namespace detail

} // namespace sycl

#endif // SLMC_SYCL_DETAIL_ITEM_HPP
