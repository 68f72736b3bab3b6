//===- amp.h - C++ AMP for slmc -------------------------------------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The C++ AMP library surface for programs compiled by slmc++: namespace
// concurrency (alias Concurrency), extent/index, tiled_extent/tiled_index,
// tile_barrier, array_view and parallel_for_each. Written in slmc's offload
// C++ (slmc/offload.h), so the same header serves the device passes, the host
// pass (with the CPU fallback) and the check pass.
//
// Dimension mapping: the last (fastest varying) AMP dimension is the device's
// x dimension; for rank 2, index[0] is y and index[1] is x.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_AMP_H
#define SLMC_AMP_H

#include "slmc/offload.h"

#include <atomic>
#include <exception>
#include <string>
#include <type_traits>

namespace concurrency {

// ---- Exceptions -----------------------------------------------------------
// Host-only declarations stay visible in the device passes, which parse the
// host code too (without generating it).
class runtime_exception : public std::exception {
public:
  runtime_exception(const char *message, int error_code) noexcept
      : message_(message ? message : ""), code_(error_code) {}
  explicit runtime_exception(int error_code) noexcept : code_(error_code) {}
  const char *what() const noexcept override { return message_.c_str(); }
  int get_error_code() const { return code_; }

private:
  std::string message_;
  int code_ = 0;
};

class invalid_compute_domain : public runtime_exception {
public:
  explicit invalid_compute_domain(const char *message) noexcept
      : runtime_exception(message, /*E_INVALIDARG*/ int(0x80070057)) {}
};

class out_of_memory : public runtime_exception {
public:
  explicit out_of_memory(const char *message) noexcept
      : runtime_exception(message, /*E_OUTOFMEMORY*/ int(0x8007000E)) {}
};

// ---- accelerator ------------------------------------------------------------
/// A queue of work on the device (the runtime has one, in order).
class accelerator_view {
public:
  /// Waits until every kernel launched so far has finished.
  void wait() const {
    slmc_status st = slmc_synchronize();
    if (st != SLMC_SUCCESS)
      throw runtime_exception(slmc_last_error(), int(0x80004005));
  }
  void flush() const {}
  bool operator==(const accelerator_view &) const { return true; }
  bool operator!=(const accelerator_view &) const { return false; }
};

/// The device slmc's runtime chose (SLMC_DEVICE, else the best present).
class accelerator {
public:
  accelerator() {
    slmc_status st = slmc_get_device_info(&info_);
    if (st != SLMC_SUCCESS)
      throw runtime_exception(slmc_last_error(), int(0x80004005));
  }
  accelerator_view get_default_view() const { return accelerator_view(); }
  std::wstring get_description() const {
    std::wstring w;
    for (const char *c = info_.name; *c; ++c) w += wchar_t(*c);
    return w;
  }
  /// Dedicated memory in KiB, as C++ AMP reports it.
  size_t get_dedicated_memory() const { return info_.global_memory / 1024; }
  bool get_is_emulated() const { return info_.backend == SLMC_BACKEND_CPU; }
  bool operator==(const accelerator &o) const { return info_.backend == o.info_.backend; }
  bool operator!=(const accelerator &o) const { return !(*this == o); }

  accelerator_view default_view;

private:
  slmc_device_info info_;
};

// ---- index and extent -------------------------------------------------------
template <int N> class index {
  static_assert(N > 0, "index rank must be positive");

public:
  static const int rank = N;
  SLMC_HD index() { for (int i = 0; i < N; ++i) v_[i] = 0; }
  SLMC_HD explicit index(int i0) {
    static_assert(N == 1, "index<N>(i0) needs rank 1");
    v_[0] = i0;
  }
  SLMC_HD index(int i0, int i1) {
    static_assert(N == 2, "index<N>(i0, i1) needs rank 2");
    v_[0] = i0; v_[1] = i1;
  }
  SLMC_HD index(int i0, int i1, int i2) {
    static_assert(N == 3, "index<N>(i0, i1, i2) needs rank 3");
    v_[0] = i0; v_[1] = i1; v_[2] = i2;
  }
  SLMC_HD explicit index(const int components[]) {
    for (int i = 0; i < N; ++i) v_[i] = components[i];
  }
  SLMC_HD int operator[](unsigned i) const { return v_[i]; }
  SLMC_HD int &operator[](unsigned i) { return v_[i]; }

  SLMC_HD index &operator+=(const index &o) { for (int i = 0; i < N; ++i) v_[i] += o.v_[i]; return *this; }
  SLMC_HD index &operator-=(const index &o) { for (int i = 0; i < N; ++i) v_[i] -= o.v_[i]; return *this; }
  SLMC_HD index &operator+=(int s) { for (int i = 0; i < N; ++i) v_[i] += s; return *this; }
  SLMC_HD index &operator-=(int s) { for (int i = 0; i < N; ++i) v_[i] -= s; return *this; }
  SLMC_HD index &operator*=(int s) { for (int i = 0; i < N; ++i) v_[i] *= s; return *this; }
  SLMC_HD index &operator/=(int s) { for (int i = 0; i < N; ++i) v_[i] /= s; return *this; }
  SLMC_HD index &operator%=(int s) { for (int i = 0; i < N; ++i) v_[i] %= s; return *this; }
  SLMC_HD index &operator++() { v_[N - 1] += 1; return *this; }
  SLMC_HD index &operator--() { v_[N - 1] -= 1; return *this; }

  SLMC_HD friend index operator+(index a, const index &b) { return a += b; }
  SLMC_HD friend index operator-(index a, const index &b) { return a -= b; }
  SLMC_HD friend index operator+(index a, int s) { return a += s; }
  SLMC_HD friend index operator-(index a, int s) { return a -= s; }
  SLMC_HD friend index operator*(index a, int s) { return a *= s; }
  SLMC_HD friend index operator/(index a, int s) { return a /= s; }
  SLMC_HD friend index operator%(index a, int s) { return a %= s; }
  SLMC_HD friend bool operator==(const index &a, const index &b) {
    for (int i = 0; i < N; ++i) if (a.v_[i] != b.v_[i]) return false;
    return true;
  }
  SLMC_HD friend bool operator!=(const index &a, const index &b) { return !(a == b); }

private:
  int v_[N];
};

template <int D0, int D1 = 0, int D2 = 0> class tiled_extent;

template <int N> class extent {
  static_assert(N > 0, "extent rank must be positive");

public:
  static const int rank = N;
  SLMC_HD extent() { for (int i = 0; i < N; ++i) v_[i] = 0; }
  SLMC_HD explicit extent(int e0) {
    static_assert(N == 1, "extent<N>(e0) needs rank 1");
    v_[0] = e0;
  }
  SLMC_HD extent(int e0, int e1) {
    static_assert(N == 2, "extent<N>(e0, e1) needs rank 2");
    v_[0] = e0; v_[1] = e1;
  }
  SLMC_HD extent(int e0, int e1, int e2) {
    static_assert(N == 3, "extent<N>(e0, e1, e2) needs rank 3");
    v_[0] = e0; v_[1] = e1; v_[2] = e2;
  }
  SLMC_HD explicit extent(const int components[]) {
    for (int i = 0; i < N; ++i) v_[i] = components[i];
  }
  SLMC_HD int operator[](unsigned i) const { return v_[i]; }
  SLMC_HD int &operator[](unsigned i) { return v_[i]; }

  /// Number of elements.
  SLMC_HD unsigned int size() const {
    unsigned int s = 1;
    for (int i = 0; i < N; ++i) s *= unsigned(v_[i]);
    return s;
  }
  SLMC_HD bool contains(const index<N> &idx) const {
    for (int i = 0; i < N; ++i)
      if (idx[i] < 0 || idx[i] >= v_[i]) return false;
    return true;
  }

  template <int T0> SLMC_HD tiled_extent<T0> tile() const {
    static_assert(N == 1, "tile<D0>() needs an extent of rank 1");
    return tiled_extent<T0>(*this);
  }
  template <int T0, int T1> SLMC_HD tiled_extent<T0, T1> tile() const {
    static_assert(N == 2, "tile<D0, D1>() needs an extent of rank 2");
    return tiled_extent<T0, T1>(*this);
  }
  template <int T0, int T1, int T2> SLMC_HD tiled_extent<T0, T1, T2> tile() const {
    static_assert(N == 3, "tile<D0, D1, D2>() needs an extent of rank 3");
    return tiled_extent<T0, T1, T2>(*this);
  }

  SLMC_HD friend bool operator==(const extent &a, const extent &b) {
    for (int i = 0; i < N; ++i) if (a.v_[i] != b.v_[i]) return false;
    return true;
  }
  SLMC_HD friend bool operator!=(const extent &a, const extent &b) { return !(a == b); }

private:
  int v_[N];
};

// ---- Tiles ------------------------------------------------------------------
namespace detail {
template <int D0, int D1, int D2> struct tile_rank {
  static const int value = D2 > 0 ? 3 : D1 > 0 ? 2 : 1;
};
} // namespace detail

/// An extent split into compile-time tiles; each tile runs as one
/// work-group sharing tile_static memory.
template <int D0, int D1, int D2>
class tiled_extent : public extent<detail::tile_rank<D0, D1, D2>::value> {
public:
  static const int rank = detail::tile_rank<D0, D1, D2>::value;
  static const int tile_dim0 = D0;
  static const int tile_dim1 = D1;
  static const int tile_dim2 = D2;
  static_assert(D0 > 0 && D1 >= 0 && D2 >= 0 && !(D1 == 0 && D2 > 0),
                "tile dimensions must be positive");
#if !defined(__SLMC__) // slmc's checker reports this at the launch instead
  static_assert(D0 * (D1 ? D1 : 1) * (D2 ? D2 : 1) <= 1024,
                "a tile holds at most 1024 threads");
#endif

  SLMC_HD tiled_extent() {}
  SLMC_HD tiled_extent(const extent<rank> &e) : extent<rank>(e) {}

  SLMC_HD extent<rank> get_tile_extent() const {
    int t[3] = {D0, D1, D2};
    return extent<rank>(t);
  }
  /// Rounds every dimension up to a multiple of the tile.
  SLMC_HD tiled_extent pad() const {
    tiled_extent r(*this);
    int t[3] = {D0, D1, D2};
    for (int i = 0; i < rank; ++i) r[i] = (r[i] + t[i] - 1) / t[i] * t[i];
    return r;
  }
  /// Rounds every dimension down to a multiple of the tile.
  SLMC_HD tiled_extent truncate() const {
    tiled_extent r(*this);
    int t[3] = {D0, D1, D2};
    for (int i = 0; i < rank; ++i) r[i] = r[i] / t[i] * t[i];
    return r;
  }
};

/// The barrier of a tile. Every wait is a work-group barrier.
class tile_barrier {
public:
  SLMC_HD void wait() const { slmc::group_barrier(); }
  SLMC_HD void wait_with_all_memory_fence() const { slmc::group_barrier(); }
  SLMC_HD void wait_with_global_memory_fence() const { slmc::group_barrier_global(); }
  SLMC_HD void wait_with_tile_static_memory_fence() const { slmc::group_barrier_local(); }
};

SLMC_HD inline void all_memory_fence(const tile_barrier &) { slmc::group_fence(); }
SLMC_HD inline void global_memory_fence(const tile_barrier &) { slmc::group_fence(); }
SLMC_HD inline void tile_static_memory_fence(const tile_barrier &) { slmc::group_fence(); }

template <int D0, int D1 = 0, int D2 = 0> class tiled_index {
public:
  static const int rank = detail::tile_rank<D0, D1, D2>::value;
  static const int tile_dim0 = D0;
  static const int tile_dim1 = D1;
  static const int tile_dim2 = D2;

  const index<rank> global;
  const index<rank> local;
  const index<rank> tile;
  const index<rank> tile_origin;
  const tile_barrier barrier;

  SLMC_HD tiled_index(const index<rank> &g, const index<rank> &l,
                      const index<rank> &t, const index<rank> &o)
      : global(g), local(l), tile(t), tile_origin(o), barrier() {}
  SLMC_HD operator const index<rank>() const { return global; }
  SLMC_HD extent<rank> get_tile_extent() const {
    int t[3] = {D0, D1, D2};
    return extent<rank>(t);
  }
};

// ---- array_view -------------------------------------------------------------
namespace detail {
[[noreturn]] inline void throw_runtime(slmc_status s, const char *what) {
  std::string m = std::string(what) + ": " + slmc_last_error();
  if (s == SLMC_ERROR_OUT_OF_MEMORY)
    throw out_of_memory(m.c_str());
  throw runtime_exception(m.c_str(), int(0x80004005) /*E_FAIL*/);
}

/// Set by every launch and cleared when the host has waited for them.
inline std::atomic<bool> kernels_pending{false};

/// Host-side state shared by all copies of one array_view: the user's host
/// memory and the device-visible copy the kernels use.
struct view_state {
  std::atomic<int> refs{1};
  void *host = nullptr;   // the user's memory
  void *device = nullptr; // what kernels see; == host on the CPU fallback
  size_t bytes = 0;
  bool writable = false;

  bool aliased() const { return device == host; }

  static view_state *create(void *host, size_t bytes, bool writable) {
    view_state *s = new view_state;
    s->host = host;
    s->bytes = bytes;
    s->writable = writable;
    slmc_backend b = SLMC_BACKEND_CPU;
    slmc_status st = slmc_get_backend(&b);
    if (st != SLMC_SUCCESS) {
      delete s;
      throw_runtime(st, "no accelerator");
    }
    if (b == SLMC_BACKEND_CPU || bytes == 0) {
      s->device = host; // the CPU fallback works on the user's memory directly
      return s;
    }
    st = slmc_malloc_shared(&s->device, bytes);
    if (st == SLMC_SUCCESS)
      st = slmc_memcpy(s->device, host, bytes);
    if (st != SLMC_SUCCESS) {
      if (s->device) slmc_free(s->device);
      delete s;
      throw_runtime(st, "array_view: cannot copy data to the accelerator");
    }
    return s;
  }
  void synchronize() {
    slmc_status st = slmc_synchronize();
    if (st == SLMC_SUCCESS && writable && !aliased())
      st = slmc_memcpy(host, device, bytes);
    if (st != SLMC_SUCCESS)
      throw_runtime(st, "array_view::synchronize");
  }
  /// Makes kernel results visible before the host reads through the view.
  void wait_for_host_access() {
    slmc_status st = slmc_synchronize();
    kernels_pending.store(false, std::memory_order_relaxed);
    if (st != SLMC_SUCCESS)
      throw_runtime(st, "array_view: a kernel failed");
  }
  void retain() { refs.fetch_add(1, std::memory_order_relaxed); }
  void release() {
    if (refs.fetch_sub(1, std::memory_order_acq_rel) != 1)
      return;
    if (writable && !aliased()) {
      // Destroying the last view publishes the results, as in C++ AMP; a
      // destructor must not throw, so a failure here is reported on stderr
      // by the runtime's error string only.
      if (slmc_synchronize() == SLMC_SUCCESS)
        slmc_memcpy(host, device, bytes);
    }
    if (!aliased()) slmc_free(device);
    delete this;
  }
};
} // namespace detail

/// A view of host data that kernels read and write. Data moves to the
/// accelerator when the view is made and back on synchronize() or when the
/// last copy of the view is destroyed.
template <class T, int N = 1> class array_view {
  static_assert(N > 0, "array_view rank must be positive");
  template <class, int> friend class array_view;
  using value_type_nc = typename std::remove_const<T>::type;

public:
  static const int rank = N;
  typedef T value_type;

  concurrency::extent<N> extent;

  array_view(const concurrency::extent<N> &e, T *src) : extent(e) { init(src); }
  array_view(int e0, T *src) : extent(e0) { init(src); }
  array_view(int e0, int e1, T *src) : extent(e0, e1) { init(src); }
  array_view(int e0, int e1, int e2, T *src) : extent(e0, e1, e2) { init(src); }

  template <class Container, class = decltype(std::declval<Container &>().data())>
  array_view(const concurrency::extent<N> &e, Container &c) : extent(e) { init(c.data()); }
  template <class Container, class = decltype(std::declval<Container &>().data())>
  array_view(int e0, Container &c) : extent(e0) { init(c.data()); }
  template <class Container, class = decltype(std::declval<Container &>().data())>
  array_view(int e0, int e1, Container &c) : extent(e0, e1) { init(c.data()); }
  template <class Container, class = decltype(std::declval<Container &>().data())>
  array_view(int e0, int e1, int e2, Container &c) : extent(e0, e1, e2) { init(c.data()); }

  SLMC_HD array_view(const array_view &o)
      : extent(o.extent), data_(o.data_), state_(o.state_) {
    SLMC_HOST_ONLY(if (state_) state_->retain();)
  }
  /// array_view<T> converts to array_view<const T>.
  template <class U, class = typename std::enable_if<
                         std::is_same<const U, T>::value && !std::is_same<U, T>::value>::type>
  SLMC_HD array_view(const array_view<U, N> &o)
      : extent(o.extent), data_(o.data_), state_(o.state_) {
    SLMC_HOST_ONLY(if (state_) state_->retain();)
  }
  SLMC_HD array_view &operator=(const array_view &o) {
    if (this != &o) {
      SLMC_HOST_ONLY(if (o.state_) o.state_->retain(); if (state_) state_->release();)
      extent = o.extent;
      data_ = o.data_;
      state_ = o.state_;
    }
    return *this;
  }
  SLMC_HD ~array_view() { SLMC_HOST_ONLY(if (state_) state_->release();) }

  SLMC_HD concurrency::extent<N> get_extent() const { return extent; }

  SLMC_HD T &operator[](const index<N> &idx) const { return at(linear(idx)); }
  SLMC_HD T &operator()(const index<N> &idx) const { return at(linear(idx)); }
  template <int M = N, class = typename std::enable_if<M == 1>::type>
  SLMC_HD T &operator[](int i0) const { return at(i0); }
  SLMC_HD T &operator()(int i0) const {
    static_assert(N == 1, "array_view(i0) needs rank 1");
    return at(i0);
  }
  SLMC_HD T &operator()(int i0, int i1) const {
    static_assert(N == 2, "array_view(i0, i1) needs rank 2");
    return at(i0 * extent[1] + i1);
  }
  SLMC_HD T &operator()(int i0, int i1, int i2) const {
    static_assert(N == 3, "array_view(i0, i1, i2) needs rank 3");
    return at((i0 * extent[1] + i1) * extent[2] + i2);
  }

  /// Pointer to the data as kernels see it (rank 1 views of host data).
  SLMC_HD T *data() const { return data_; }

  /// Copies kernel results back to the host memory the view was made from.
  void synchronize() const { if (state_) state_->synchronize(); }
  /// The current contents need not be copied to the accelerator. Data is
  /// copied when the view is made, so this is only a hint here.
  void discard_data() const {}
  void refresh() const {}

private:
  SLMC_HD T &at(int linear_index) const {
#if !defined(SLMC_DEVICE_PASS)
    // Host code reads through the view only after the kernels that wrote it.
    // (Kernels run on the host only on the CPU fallback, whose views alias
    // host memory and whose launches are synchronous: no wait there.)
    if (state_ && !state_->aliased() &&
        detail::kernels_pending.load(std::memory_order_relaxed))
      state_->wait_for_host_access();
#endif
    return data_[linear_index];
  }
  SLMC_HD int linear(const index<N> &idx) const {
    int l = idx[0];
    for (int i = 1; i < N; ++i) l = l * extent[i] + idx[i];
    return l;
  }
  void init(T *src) {
    size_t bytes = size_t(extent.size()) * sizeof(T);
    state_ = detail::view_state::create(
        const_cast<value_type_nc *>(src), bytes, !std::is_const<T>::value);
    data_ = static_cast<T *>(state_->device);
  }

  T *data_ = nullptr;
  detail::view_state *state_ = nullptr;
};

// ---- parallel_for_each ------------------------------------------------------
namespace detail {
/// One work-item of a tiled kernel: rebuilds the tiled_index from the
/// work-item builtins and calls the user's kernel.
template <class Kernel, int D0, int D1, int D2> struct tiled_launcher {
  Kernel kernel;

  SLMC_HD void operator()() const {
    typedef tiled_index<D0, D1, D2> TI;
    const int r = TI::rank;
    int l[3], t[3], o[3], g[3];
    const int dims[3] = {D0, D1, D2};
    for (int i = 0; i < r; ++i) {
      int d = r - 1 - i; // AMP dimension i is device dimension d
      l[i] = int(slmc::local_id(d));
      t[i] = int(slmc::group_id(d));
      o[i] = t[i] * dims[i];
      g[i] = o[i] + l[i];
    }
    TI idx{index<TI::rank>(g), index<TI::rank>(l), index<TI::rank>(t),
           index<TI::rank>(o)};
    kernel(idx);
  }
};

/// One work-item of a simple (non-tiled) kernel; the grid is rounded up, so
/// work-items outside the extent return at once.
template <class Kernel, int N> struct extent_launcher {
  Kernel kernel;
  extent<N> domain;

  SLMC_HD void operator()() const {
    int g[3];
    for (int i = 0; i < N; ++i) {
      int d = N - 1 - i;
      g[i] = int(slmc::group_id(d) * slmc::local_size(d) + slmc::local_id(d));
    }
    index<N> idx(g);
    if (!domain.contains(idx)) return;
    kernel(idx);
  }
};

inline void check_launch(slmc_status s) {
  kernels_pending.store(true, std::memory_order_relaxed);
  if (s == SLMC_SUCCESS) return;
  std::string m = std::string("parallel_for_each: ") + slmc_last_error();
  if (s == SLMC_ERROR_RESOURCE_LIMIT)
    throw invalid_compute_domain(m.c_str());
  throw_runtime(s, "parallel_for_each");
}
} // namespace detail

template <int D0, int D1, int D2, class Kernel>
SLMC_ENTRY_POINT("amp.parallel_for_each.tiled")
void parallel_for_each(const tiled_extent<D0, D1, D2> &domain, const Kernel &kernel) {
  const int r = tiled_extent<D0, D1, D2>::rank;
  const int dims[3] = {D0, D1, D2};
  uint32_t groups[3] = {1, 1, 1}, size[3] = {1, 1, 1};
  for (int i = 0; i < r; ++i) {
    if (domain[i] <= 0 || domain[i] % dims[i] != 0)
      throw invalid_compute_domain(
          "parallel_for_each: the extent is not a positive multiple of the "
          "tile extent (use pad() or truncate())");
    groups[r - 1 - i] = uint32_t(domain[i] / dims[i]);
    size[r - 1 - i] = uint32_t(dims[i]);
  }
  detail::tiled_launcher<Kernel, D0, D1, D2> f{kernel};
  detail::check_launch(slmc::launch(f, slmc_dim3{groups[0], groups[1], groups[2]},
                                    slmc_dim3{size[0], size[1], size[2]}));
}

template <int N, class Kernel>
SLMC_ENTRY_POINT("amp.parallel_for_each")
void parallel_for_each(const extent<N> &domain, const Kernel &kernel) {
  static_assert(N >= 1 && N <= 3, "parallel_for_each supports ranks 1 to 3");
  const uint32_t shape1[3] = {256, 1, 1}, shape2[3] = {16, 16, 1},
                 shape3[3] = {16, 8, 4};
  const uint32_t *shape = N == 1 ? shape1 : N == 2 ? shape2 : shape3;
  uint32_t groups[3] = {1, 1, 1};
  for (int i = 0; i < N; ++i) {
    if (domain[i] < 0)
      throw invalid_compute_domain("parallel_for_each: negative extent");
    if (domain[i] == 0) return;
    int d = N - 1 - i;
    groups[d] = (uint32_t(domain[i]) + shape[d] - 1) / shape[d];
  }
  detail::extent_launcher<Kernel, N> f{kernel, domain};
  detail::check_launch(slmc::launch(f, slmc_dim3{groups[0], groups[1], groups[2]},
                                    slmc_dim3{shape[0], shape[1], shape[2]}));
}

} // namespace concurrency

namespace Concurrency = concurrency;

#endif // SLMC_AMP_H
