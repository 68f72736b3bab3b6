//===- amp.h - C++ AMP for slmc -------------------------------------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The C++ AMP library surface for programs compiled by slmc++, in namespace
// Concurrency with the alias concurrency, as MSVC declares them (so programs
// may reopen namespace Concurrency, and reopening the alias is an error as
// there):
//
//   index, extent, tiled_extent, tiled_index, tile_barrier and the fences;
//   array, array_view (sections, projections, synchronize, refresh, ...);
//   copy and copy_async; parallel_for_each over extents of rank 1 to 3 and
//   tiled extents of 1 to 3 dimensions, with or without an accelerator_view;
//   accelerator, accelerator_view, completion_future, access_type; the
//   atomic functions; runtime_exception and its subclasses; direct3d's HLSL
//   intrinsics (its Direct3D interop is refused at compile time).
//   <amp_math.h> adds fast_math and precise_math, <amp_short_vectors.h>
//   graphics' short vectors, norm and unorm, <amp_graphics.h> textures.
//
// It is written in slmc's offload C++ (slmc/offload.h): one source serves the
// device passes (SPIR-V, PTX), the host pass (with the CPU fallback) and the
// check pass. Every declaration is visible in every pass; what kernels may
// call is SLMC_HD, and host-only statements inside such functions are wrapped
// in SLMC_HOST_ONLY.
//
// Dimension mapping: the last (fastest varying) AMP dimension is the device's
// x dimension; for rank 2, index[0] is y and index[1] is x.
//
// Memory. array data lives in the runtime's shared memory (slmc_malloc_shared),
// which host and device both address. An array_view of host memory works on
// that memory directly on the CPU fallback; on a GPU it keeps a shared copy
// that kernels and host accesses through the view use, written back to the
// host memory by synchronize() or when the last copy of the view goes away.
// Launches on a GPU are asynchronous: host accesses through an array or a
// view first wait for the kernels launched so far.
//
// Arrays in kernels. C++ AMP kernels hold arrays by reference, so the kernel
// functor holds the host address of the array object, which a GPU cannot
// read when the object is on the host's stack. Each array therefore keeps a
// device-visible twin of its object (extent and data pointer) in shared
// memory, and every launch copies the kernel functor and replaces each
// pointer-sized, pointer-aligned value equal to the address of a live array
// with the address of that array's twin; see detail::array_registry. This
// runs on every backend, the CPU fallback included, so the same code path is
// tested everywhere. It serves kernel functors with array& members. Lambdas
// that capture an array by reference ([&], [&a]) cannot keep the reference
// in device code: slmc's lowering rewrites each such capture into a pointer
// to the twin, detail::device_ref (see there).
//
// CPU fallback. Tiled kernels run as the runtime runs every kernel there
// (a fiber per work-item, switching at barriers). Simple (untiled) kernels
// can have neither barriers nor tile_static data: they run as about 1024
// host-only work-items, each looping over a range of the extent.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_AMP_H
#define SLMC_AMP_H

// (The POSIX ::index clash and the CUDA wrapper macros are handled by
// slmc/detail/early.h, included first in every pass.)
#include "slmc/offload.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <cmath> // MSVC's <amp.h> brings in the C math functions
#include <cstdio>
#include <cstring>
#include <cwchar>
#include <exception>
#include <future>
#include <iostream>
#include <iterator>
#include <mutex>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

namespace Concurrency {}
namespace concurrency = Concurrency;

namespace Concurrency {

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

// HRESULT values that C++ AMP reports in get_error_code().
namespace detail {
enum : int {
  E_FAIL_CODE = int(0x80004005),
  E_INVALIDARG_CODE = int(0x80070057),
  E_OUTOFMEMORY_CODE = int(0x8007000E),
  E_NOTIMPL_CODE = int(0x80004001),
  E_DEVICE_REMOVED_CODE = int(0x887A0005),
};
} // namespace detail

class invalid_compute_domain : public runtime_exception {
public:
  explicit invalid_compute_domain(const char *message) noexcept
      : runtime_exception(message, detail::E_INVALIDARG_CODE) {}
  invalid_compute_domain() noexcept
      : runtime_exception("invalid compute domain", detail::E_INVALIDARG_CODE) {}
};

class out_of_memory : public runtime_exception {
public:
  explicit out_of_memory(const char *message) noexcept
      : runtime_exception(message, detail::E_OUTOFMEMORY_CODE) {}
  out_of_memory() noexcept
      : runtime_exception("out of memory", detail::E_OUTOFMEMORY_CODE) {}
};

class unsupported_feature : public runtime_exception {
public:
  explicit unsupported_feature(const char *message) noexcept
      : runtime_exception(message, detail::E_NOTIMPL_CODE) {}
  unsupported_feature() noexcept
      : runtime_exception("unsupported feature", detail::E_NOTIMPL_CODE) {}
};

/// The error code is the device-removed HRESULT; the reason, which the
/// specification keeps apart, is what the device reported (the same code
/// unless one is given).
class accelerator_view_removed : public runtime_exception {
public:
  accelerator_view_removed(const char *message, int view_removed_reason) noexcept
      : runtime_exception(message, detail::E_DEVICE_REMOVED_CODE),
        reason_(view_removed_reason) {}
  explicit accelerator_view_removed(int view_removed_reason) noexcept
      : runtime_exception("accelerator_view removed", detail::E_DEVICE_REMOVED_CODE),
        reason_(view_removed_reason) {}
  explicit accelerator_view_removed(const char *message) noexcept
      : accelerator_view_removed(message, detail::E_DEVICE_REMOVED_CODE) {}
  int get_view_removed_reason() const noexcept { return reason_; }

private:
  int reason_;
};

// ---- Runtime glue (host only) ------------------------------------------------
namespace detail {
[[noreturn]] inline void throw_runtime(slmc_status s, const char *what) {
  std::string m = std::string(what) + ": " + slmc_last_error();
  if (s == SLMC_ERROR_OUT_OF_MEMORY)
    throw out_of_memory(m.c_str());
  if (s == SLMC_ERROR_RESOURCE_LIMIT)
    throw invalid_compute_domain(m.c_str());
  throw runtime_exception(m.c_str(), E_FAIL_CODE);
}

inline void check(slmc_status s, const char *what) {
  if (s != SLMC_SUCCESS)
    throw_runtime(s, what);
}

/// The backend the runtime runs kernels on (initialises the runtime).
inline slmc_backend current_backend() {
  slmc_backend b = SLMC_BACKEND_CPU;
  check(slmc_get_backend(&b), "no accelerator");
  return b;
}

/// Set by every launch on an asynchronous (GPU) backend; cleared once the
/// host has waited for the kernels. The CPU fallback launches synchronously.
inline std::atomic<bool> kernels_pending{false};

inline void wait_for_kernels() {
  slmc_status st = slmc_synchronize();
  kernels_pending.store(false, std::memory_order_relaxed);
  check(st, "a kernel failed");
}

/// Called before the host touches data that kernels may be writing.
inline void host_access() {
  if (kernels_pending.load(std::memory_order_relaxed))
    wait_for_kernels();
}

/// Element `off` of an array's or a view's data. Their data is always
/// device (global) memory, and in device code saying so lets the compiler
/// use global loads and stores instead of generic ones (which IGC tests for
/// their address space at each access: docs/intel.md).
///
/// On the CPU fallback the access also keeps Direct3D 11's buffer rules,
/// which every C++ AMP program written for MSVC ran under: a read outside
/// the buffer an array or view lies in gives zero, and a write there is
/// dropped. Real programs rely on it (tiled scans and reductions that read
/// and write a padded last tile); without it they corrupt the heap or
/// crash. The buffer, not the view's extent, is the bound, as in Direct3D.
/// GPUs run the unchecked access (docs/user-guide.md says what they do);
/// `-DSLMC_AMP_BUFFER_BOUNDS=0` drops the check on the CPU too.
#ifndef SLMC_AMP_BUFFER_BOUNDS
#define SLMC_AMP_BUFFER_BOUNDS 1
#endif

/// An element's offset from a view's or an array's data. GPUs compute it in
/// 32 unsigned bits (an extent's size is unsigned int), which costs them no
/// 64-bit multiply (Intel Gen12 emulates those: docs/intel.md). The CPU
/// computes it in signed 64 bits: an index that moves with a work-item loop
/// then stays an affine expression of the loop's counter, so the buffer
/// check below can be made once per loop (slmc++'s work-item loops).
#if defined(SLMC_PASS_SPIRV) || defined(SLMC_PASS_PTX)
typedef unsigned offset_t;
#else
typedef ptrdiff_t offset_t;
#endif

/// The bytes of the buffer an array's or a view's data lies in.
struct buffer_bounds {
  const char *first = nullptr;
  size_t bytes = 0;

  buffer_bounds() = default;
  SLMC_HD buffer_bounds(const void *p, size_t n) : first(static_cast<const char *>(p)), bytes(n) {}
};

#if !defined(SLMC_PASS_SPIRV) && !defined(SLMC_PASS_PTX)
/// Where an out-of-bounds access goes: zero for a read, a place for a write
/// that nothing reads back (libslmrt's, one per thread; the work-item that
/// asked uses the reference within its expression, before another asks).
template <class T> [[gnu::cold]] T &out_of_bounds_element() {
  static_assert(alignof(T) <= 64, "an element type aligned to more than 64 bytes");
  return *static_cast<T *>(slmc_cpu_out_of_bounds_sink(sizeof(T)));
}
#endif

template <class T>
SLMC_HD T &element(T *data, ptrdiff_t off, const buffer_bounds &bounds) {
#if defined(SLMC_PASS_SPIRV) || defined(SLMC_PASS_PTX)
  (void)bounds;
  auto *global = (__attribute__((address_space(1))) T *)data;
  return *(T *)(global + off);
#elif SLMC_AMP_BUFFER_BOUNDS
  // In elements: one unsigned compare of the index against an invariant
  // count, which slmc++'s work-item loops test once per loop instead,
  // running a copy of the loop without it where every index is in bounds.
  size_t first = (uintptr_t(data) - uintptr_t(bounds.first)) / sizeof(T);
  if (__builtin_expect(size_t(off) + first < bounds.bytes / sizeof(T), 1))
    return data[off];
  return out_of_bounds_element<T>();
#else
  (void)bounds;
  return data[off];
#endif
}

/// Whether the calling thread runs a work-item of the CPU fallback.
inline bool in_cpu_kernel() { return slmc_cpu_current_item() != nullptr; }

#if !defined(SLMC_PASS_SPIRV) && !defined(SLMC_PASS_PTX)
/// MSVC's std::wcout and printf share the console freely. glibc gives stdout
/// one orientation, wide or narrow, set by its first write, and drops the
/// other kind silently after that; Microsoft's samples print the device's
/// name with wcout, then their results with printf. So, in C++ AMP
/// programs, wcout, wcerr and wclog write through the narrow streams,
/// character by character in the current locale (one it cannot represent
/// fails the stream, as MSVC's does in the "C" locale).
class wide_to_narrow_buf : public std::wstreambuf {
public:
  explicit wide_to_narrow_buf(std::streambuf *to) : to_(to) {}

protected:
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof()))
      return traits_type::not_eof(c);
    char bytes[MB_LEN_MAX];
    std::mbstate_t state{};
    size_t n = std::wcrtomb(bytes, traits_type::to_char_type(c), &state);
    if (n == size_t(-1) || to_->sputn(bytes, std::streamsize(n)) != std::streamsize(n))
      return traits_type::eof();
    return c;
  }
  int sync() override { return to_->pubsync(); }

private:
  std::streambuf *to_;
};
struct wide_streams_as_narrow {
  wide_streams_as_narrow() {
    static std::ios_base::Init streams; // constructed before they are used
    static wide_to_narrow_buf out(std::cout.rdbuf()), err(std::cerr.rdbuf()),
        log(std::clog.rdbuf());
    std::wcout.rdbuf(&out);
    std::wcerr.rdbuf(&err);
    std::wclog.rdbuf(&log);
  }
};
inline wide_streams_as_narrow wide_streams_as_narrow_once;
#endif

/// Shared (host- and device-visible) memory; null for zero bytes.
inline void *allocate_shared(size_t bytes, const char *what) {
  if (bytes == 0)
    return nullptr;
  void *p = nullptr;
  check(slmc_malloc_shared(&p, bytes), what);
  return p;
}

inline void free_shared(void *p) {
  if (p)
    slmc_free(p);
}

// (std::void_t is C++17; MSVC's C++ AMP programs are often built as C++14.)
template <class...> struct make_void {
  typedef void type;
};
template <class It, class = void> struct is_iterator : std::false_type {};
template <class It>
struct is_iterator<It, typename make_void<typename std::iterator_traits<It>::iterator_category>::type>
    : std::true_type {};
} // namespace detail

// ---- index and extent -------------------------------------------------------
template <int N> class index {
  static_assert(N > 0, "index rank must be positive");

public:
  static const int rank = N;
  typedef int value_type;

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
  SLMC_HD explicit index(int components[]) {
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
  /// Increments (decrements) every component, as C++ AMP does.
  SLMC_HD index &operator++() { return *this += 1; }
  SLMC_HD index &operator--() { return *this -= 1; }
  SLMC_HD index operator++(int) { index r(*this); *this += 1; return r; }
  SLMC_HD index operator--(int) { index r(*this); *this -= 1; return r; }

  SLMC_HD friend index operator+(index a, const index &b) { return a += b; }
  SLMC_HD friend index operator-(index a, const index &b) { return a -= b; }
  SLMC_HD friend index operator+(index a, int s) { return a += s; }
  SLMC_HD friend index operator-(index a, int s) { return a -= s; }
  SLMC_HD friend index operator*(index a, int s) { return a *= s; }
  SLMC_HD friend index operator/(index a, int s) { return a /= s; }
  SLMC_HD friend index operator%(index a, int s) { return a %= s; }
  SLMC_HD friend index operator+(int s, index a) { return a += s; }
  SLMC_HD friend index operator*(int s, index a) { return a *= s; }
  SLMC_HD friend index operator-(int s, const index &a) {
    index r;
    for (int i = 0; i < N; ++i) r.v_[i] = s - a.v_[i];
    return r;
  }
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
  typedef int value_type;

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
  SLMC_HD explicit extent(int components[]) {
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

  SLMC_HD extent &operator+=(const index<N> &o) { for (int i = 0; i < N; ++i) v_[i] += o[i]; return *this; }
  SLMC_HD extent &operator-=(const index<N> &o) { for (int i = 0; i < N; ++i) v_[i] -= o[i]; return *this; }
  SLMC_HD extent &operator+=(const extent &o) { for (int i = 0; i < N; ++i) v_[i] += o.v_[i]; return *this; }
  SLMC_HD extent &operator-=(const extent &o) { for (int i = 0; i < N; ++i) v_[i] -= o.v_[i]; return *this; }
  SLMC_HD extent &operator+=(int s) { for (int i = 0; i < N; ++i) v_[i] += s; return *this; }
  SLMC_HD extent &operator-=(int s) { for (int i = 0; i < N; ++i) v_[i] -= s; return *this; }
  SLMC_HD extent &operator*=(int s) { for (int i = 0; i < N; ++i) v_[i] *= s; return *this; }
  SLMC_HD extent &operator/=(int s) { for (int i = 0; i < N; ++i) v_[i] /= s; return *this; }
  SLMC_HD extent &operator%=(int s) { for (int i = 0; i < N; ++i) v_[i] %= s; return *this; }
  SLMC_HD extent &operator++() { return *this += 1; }
  SLMC_HD extent &operator--() { return *this -= 1; }
  SLMC_HD extent operator++(int) { extent r(*this); *this += 1; return r; }
  SLMC_HD extent operator--(int) { extent r(*this); *this -= 1; return r; }

  SLMC_HD friend extent operator+(extent a, const index<N> &b) { return a += b; }
  SLMC_HD friend extent operator-(extent a, const index<N> &b) { return a -= b; }
  SLMC_HD friend extent operator+(extent a, const extent &b) { return a += b; }
  SLMC_HD friend extent operator-(extent a, const extent &b) { return a -= b; }
  SLMC_HD friend extent operator+(extent a, int s) { return a += s; }
  SLMC_HD friend extent operator-(extent a, int s) { return a -= s; }
  SLMC_HD friend extent operator*(extent a, int s) { return a *= s; }
  SLMC_HD friend extent operator/(extent a, int s) { return a /= s; }
  SLMC_HD friend extent operator%(extent a, int s) { return a %= s; }
  SLMC_HD friend extent operator+(int s, extent a) { return a += s; }
  SLMC_HD friend extent operator*(int s, extent a) { return a *= s; }
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
  typedef extent<detail::tile_rank<D0, D1, D2>::value> base;

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
  SLMC_HD tiled_extent(const extent<rank> &e) : base(e) {}

  SLMC_HD extent<rank> get_tile_extent() const {
    int t[3] = {D0, D1, D2};
    return extent<rank>(t);
  }
  // MSVC's ext.tile_extent (as tiled_index's).
#if defined(__has_declspec_attribute)
#if __has_declspec_attribute(property)
#pragma push_macro("__declspec")
#undef __declspec // the check pass's prelude makes it an annotation
  __declspec(property(get = get_tile_extent)) extent<rank> tile_extent;
#pragma pop_macro("__declspec")
#endif
#endif
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

/// Memory fences for the threads of a tile, without a barrier.
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
  SLMC_HD tiled_index(const tiled_index &o)
      : global(o.global), local(o.local), tile(o.tile),
        tile_origin(o.tile_origin), barrier() {}
  SLMC_HD operator const index<rank>() const { return global; }
  SLMC_HD extent<rank> get_tile_extent() const {
    int t[3] = {D0, D1, D2};
    return extent<rank>(t);
  }  // MSVC's tidx.tile_extent, where __declspec(property) is on (slmc++
  // turns it on).
#if defined(__has_declspec_attribute)
#if __has_declspec_attribute(property)
#pragma push_macro("__declspec")
#undef __declspec // the check pass's prelude makes it an annotation
  __declspec(property(get = get_tile_extent)) extent<rank> tile_extent;
#pragma pop_macro("__declspec")
#endif
#endif
};

// ---- Atomics ------------------------------------------------------------------
// Work on global (array, array_view) and tile_static memory alike: the
// pointer is generic. Relaxed ordering at device scope, as on the GPUs C++
// AMP targets; the barriers order them.
#define SLMC_AMP_ATOMIC_RMW(NAME, BUILTIN)                                       \
  SLMC_HD inline int NAME(int *dest, int value) {                                \
    return BUILTIN(dest, value, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE);        \
  }                                                                              \
  SLMC_HD inline unsigned int NAME(unsigned int *dest, unsigned int value) {     \
    return BUILTIN(dest, value, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE);        \
  }
SLMC_AMP_ATOMIC_RMW(atomic_fetch_add, __scoped_atomic_fetch_add)
SLMC_AMP_ATOMIC_RMW(atomic_fetch_sub, __scoped_atomic_fetch_sub)
SLMC_AMP_ATOMIC_RMW(atomic_fetch_and, __scoped_atomic_fetch_and)
SLMC_AMP_ATOMIC_RMW(atomic_fetch_or, __scoped_atomic_fetch_or)
SLMC_AMP_ATOMIC_RMW(atomic_fetch_xor, __scoped_atomic_fetch_xor)
SLMC_AMP_ATOMIC_RMW(atomic_fetch_max, __scoped_atomic_fetch_max)
SLMC_AMP_ATOMIC_RMW(atomic_fetch_min, __scoped_atomic_fetch_min)
SLMC_AMP_ATOMIC_RMW(atomic_exchange, __scoped_atomic_exchange_n)
#undef SLMC_AMP_ATOMIC_RMW

SLMC_HD inline int atomic_fetch_inc(int *dest) { return atomic_fetch_add(dest, 1); }
SLMC_HD inline unsigned int atomic_fetch_inc(unsigned int *dest) { return atomic_fetch_add(dest, 1u); }
SLMC_HD inline int atomic_fetch_dec(int *dest) { return atomic_fetch_sub(dest, 1); }
SLMC_HD inline unsigned int atomic_fetch_dec(unsigned int *dest) { return atomic_fetch_sub(dest, 1u); }

/// If *dest equals *expected_value, stores value and returns true; otherwise
/// loads *dest into *expected_value and returns false.
SLMC_HD inline bool atomic_compare_exchange(int *dest, int *expected_value, int value) {
  return __scoped_atomic_compare_exchange_n(dest, expected_value, value, false,
                                            __ATOMIC_RELAXED, __ATOMIC_RELAXED,
                                            __MEMORY_SCOPE_DEVICE);
}
SLMC_HD inline bool atomic_compare_exchange(unsigned int *dest, unsigned int *expected_value,
                                            unsigned int value) {
  return __scoped_atomic_compare_exchange_n(dest, expected_value, value, false,
                                            __ATOMIC_RELAXED, __ATOMIC_RELAXED,
                                            __MEMORY_SCOPE_DEVICE);
}

SLMC_HD inline float atomic_exchange(float *dest, float value) {
  return __builtin_bit_cast(
      float, __scoped_atomic_exchange_n(reinterpret_cast<unsigned int *>(dest),
                                        __builtin_bit_cast(unsigned int, value),
                                        __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE));
}

/// Floating-point atomic add. PTX and the host have it natively; SPIR-V needs
/// an extension (SPV_EXT_shader_atomic_float_add) that slmc does not enable,
/// so there it is a compare-and-swap loop.
SLMC_HD inline float atomic_fetch_add(float *dest, float value) {
#if defined(SLMC_PASS_SPIRV)
  unsigned int *p = reinterpret_cast<unsigned int *>(dest);
  unsigned int old = __scoped_atomic_load_n(p, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE);
  while (!__scoped_atomic_compare_exchange_n(
      p, &old, __builtin_bit_cast(unsigned int, __builtin_bit_cast(float, old) + value),
      false, __ATOMIC_RELAXED, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE)) {
  }
  return __builtin_bit_cast(float, old);
#else
  return __scoped_atomic_fetch_add(dest, value, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE);
#endif
}
SLMC_HD inline float atomic_fetch_sub(float *dest, float value) {
  return atomic_fetch_add(dest, -value);
}

// ---- accelerator, accelerator_view, completion_future -------------------------
/// The result of an asynchronous operation. Copies complete before copy_async
/// returns, so most futures are ready at once; a marker waits for the kernels
/// launched before it when waited on.
class completion_future {
public:
  completion_future() = default;
  explicit completion_future(std::shared_future<void> f) : f_(std::move(f)) {}

  static completion_future ready() {
    std::promise<void> p;
    p.set_value();
    return completion_future(p.get_future().share());
  }

  void get() const { f_.get(); }
  void wait() const { if (f_.valid()) f_.wait(); }
  bool valid() const { return f_.valid(); }
  template <class Rep, class Period>
  std::future_status wait_for(const std::chrono::duration<Rep, Period> &d) const {
    return f_.wait_for(d);
  }
  template <class Clock, class Duration>
  std::future_status wait_until(const std::chrono::time_point<Clock, Duration> &t) const {
    return f_.wait_until(t);
  }
  operator std::shared_future<void>() const { return f_; }

  /// Runs `func` once the operation has completed (here, on this thread,
  /// after waiting for it).
  template <class Functor> void then(const Functor &func) const {
    wait();
    func();
  }

private:
  std::shared_future<void> f_;
};

class accelerator;
class accelerator_view;

enum queuing_mode { queuing_mode_immediate, queuing_mode_automatic };

/// Whether the host may read or write an array's memory (C++ AMP 1.2).
/// slmc's arrays always live in memory that host and device both address,
/// so every type is honoured (none forbids nothing extra: host accesses
/// still work); arrays report the type they were created with.
enum access_type {
  access_type_none = 0,
  access_type_read = 1 << 0,
  access_type_write = 1 << 1,
  access_type_read_write = access_type_read | access_type_write,
  access_type_auto = int(1u << 31),
};

namespace detail {
/// Per device: its default CPU access type for arrays, whether a program
/// set it, and whether an array has used it (after which it is fixed).
/// Atomic: arrays are created on several host threads at once.
struct cpu_access_default {
  std::atomic<access_type> type{access_type_read_write};
  std::atomic<bool> set{false}, used{false};
};
inline cpu_access_default &cpu_access_of(slmc_backend b) {
  static cpu_access_default d[8];
  return d[unsigned(b) & 7u];
}
/// The access type an array gets on device `b` when it asks for `t`.
inline access_type resolve_access(slmc_backend b, access_type t) {
  cpu_access_default &d = cpu_access_of(b);
  d.used.store(true);
  return t == access_type_auto ? d.type.load() : t;
}
} // namespace detail

namespace direct3d {
accelerator_view create_accelerator_view(accelerator &acc, bool disable_timeout,
                                         queuing_mode qmode);
bool is_timeout_disabled(const accelerator_view &av);
} // namespace direct3d

/// A queue of work on a device. slmc's runtime has one in-order queue per
/// process, on the device it chose; every view of that device is that queue.
class accelerator_view {
public:
  accelerator_view() : backend_(detail::current_backend()) {}

  /// Waits until every kernel launched so far has finished.
  void wait() const { detail::wait_for_kernels(); }
  void flush() const {}
  /// A future that completes once the work queued so far has completed.
  completion_future create_marker() const {
    return completion_future(std::async(std::launch::deferred, [] {
                               detail::wait_for_kernels();
                             }).share());
  }
  inline accelerator get_accelerator() const;
  bool get_is_debug() const { return false; }
  unsigned int get_version() const { return 0x00010000; }
  Concurrency::queuing_mode get_queuing_mode() const { return queuing_mode; }
  bool get_is_auto_selection() const { return is_auto_selection; }

  // MSVC's properties (__declspec(property) there), as values: a view's
  // properties never change.
  bool is_debug = false;
  unsigned int version = 0x00010000;
  Concurrency::queuing_mode queuing_mode = queuing_mode_automatic;
  bool is_auto_selection = false;

  /// The same view: copies of one view compare equal, views made by
  /// create_view do not (the default view of a device is one view).
  bool operator==(const accelerator_view &o) const {
    return backend_ == o.backend_ && id_ == o.id_;
  }
  bool operator!=(const accelerator_view &o) const { return !(*this == o); }

  /// Throws unless this view is on the device the runtime runs kernels on.
  void check_current(const char *what) const {
    if (backend_ != detail::current_backend())
      throw runtime_exception(
          (std::string(what) + ": this accelerator_view is not on the device "
                               "the program runs on; slmc runs kernels on one "
                               "device per process (accelerator::set_default "
                               "chooses it)").c_str(),
          detail::E_INVALIDARG_CODE);
  }

private:
  friend class accelerator;
  template <class, int> friend class array;
  /// A view of the host: the cpu accelerator's, WARP's or REF's.
  bool on_host() const { return backend_ == SLMC_BACKEND_CPU; }
  friend accelerator_view direct3d::create_accelerator_view(accelerator &, bool,
                                                          Concurrency::queuing_mode);
  friend bool direct3d::is_timeout_disabled(const accelerator_view &);
  explicit accelerator_view(slmc_backend b,
                            Concurrency::queuing_mode q = queuing_mode_automatic,
                            unsigned id = 0)
      : queuing_mode(q), backend_(b), id_(id) {}
  /// A new view's identity (0: a device's default view).
  static unsigned next_id() {
    static std::atomic<unsigned> last{0};
    return ++last;
  }
  slmc_backend backend_;
  unsigned id_ = 0;
  bool timeout_disabled_ = false;

public:
#if defined(__has_declspec_attribute)
#if __has_declspec_attribute(property)
  // MSVC's av.accelerator, where __declspec(property) is on (slmc++ turns
  // it on). Last in the class: after it, `accelerator` in the class's scope
  // names the property, not the type.
#pragma push_macro("__declspec")
#undef __declspec // the check pass's prelude makes it an annotation
  __declspec(property(get = get_accelerator)) Concurrency::accelerator accelerator;
#pragma pop_macro("__declspec")
#endif
#endif
};

namespace detail {
/// The device paths, members of a class template so that C++14 programs
/// (whose static constexpr members are not inline) find their definitions
/// in every translation unit.
template <class = void> struct device_paths {
  static constexpr const wchar_t default_accelerator[] = L"default";
  static constexpr const wchar_t cpu_accelerator[] = L"cpu";
  static constexpr const wchar_t level_zero_accelerator[] = L"level_zero";
  static constexpr const wchar_t cuda_accelerator[] = L"cuda";
  /// Direct3D's software devices: the reference rasterizer and WARP, MSVC's
  /// CPU device that runs kernels. slmc's CPU fallback takes WARP's place
  /// (its device path), so that programs which set aside `cpu` (MSVC's runs
  /// no kernels) and `direct3d\\ref` (too slow) keep it; both of those
  /// names still reach the CPU fallback, as accelerators of their own.
  static constexpr const wchar_t direct3d_ref[] = L"direct3d\\ref";
  static constexpr const wchar_t direct3d_warp[] = L"direct3d\\warp";
};
#if __cplusplus < 201703L
template <class T> constexpr const wchar_t device_paths<T>::default_accelerator[];
template <class T> constexpr const wchar_t device_paths<T>::cpu_accelerator[];
template <class T> constexpr const wchar_t device_paths<T>::level_zero_accelerator[];
template <class T> constexpr const wchar_t device_paths<T>::cuda_accelerator[];
template <class T> constexpr const wchar_t device_paths<T>::direct3d_ref[];
template <class T> constexpr const wchar_t device_paths<T>::direct3d_warp[];
#endif
} // namespace detail

/// A device: the one slmc's runtime chose (SLMC_DEVICE, set_default, else the
/// best present) or, from get_all or a device path, any device present.
class accelerator : public detail::device_paths<> {
public:

  accelerator() : accelerator(std::wstring(default_accelerator)) {}
  explicit accelerator(const std::wstring &device_path)
      : default_view(backend_of(device_path)), backend_(default_view.backend_),
        path_(device_path == cpu_accelerator || device_path == direct3d_ref
                  ? device_path
                  : path_of(backend_)) {
    load_info();
  }

  /// Every device present, the default one first.
  static std::vector<accelerator> get_all() {
    std::vector<accelerator> all;
    slmc_backend current = detail::current_backend();
    all.push_back(accelerator(current, 0));
    const slmc_backend order[3] = {SLMC_BACKEND_LEVEL_ZERO, SLMC_BACKEND_CUDA,
                                   SLMC_BACKEND_CPU};
    for (slmc_backend b : order)
      if (b != current && slmc_backend_available(b))
        all.push_back(accelerator(b, 0));
    all.push_back(accelerator(std::wstring(cpu_accelerator))); // as MSVC lists it
    return all;
  }
  /// Chooses the device kernels run on; false once the runtime is in use
  /// with another device, or if there is no such device.
  static bool set_default(const std::wstring &device_path) {
    slmc_backend b;
    try {
      b = backend_of(device_path);
    } catch (const runtime_exception &) {
      return false;
    }
    return slmc_select_backend(b) == SLMC_SUCCESS;
  }
  /// The view that lets the runtime choose the device: the one it chose.
  static accelerator_view get_auto_selection_view() {
    accelerator_view v;
    v.is_auto_selection = true;
    return v;
  }

  std::wstring get_device_path() const { return path_; }
  std::wstring get_description() const {
    return path_ == cpu_accelerator ? L"CPU accelerator"
           : path_ == direct3d_ref  ? L"Software Adapter"
                                    : widen(info_.name);
  }
  /// Dedicated memory in KiB, as C++ AMP reports it.
  size_t get_dedicated_memory() const { return info_.global_memory / 1024; }
  unsigned int get_version() const { return 0x00010000; }
  bool get_is_emulated() const { return backend_ == SLMC_BACKEND_CPU; }
  bool get_has_display() const { return false; }
  bool get_is_debug() const { return false; }
  bool get_supports_double_precision() const { return true; }
  bool get_supports_limited_double_precision() const { return true; }
  /// Every slmc device reaches host memory (slmc_malloc_shared).
  bool get_supports_cpu_shared_memory() const { return true; }
  /// The CPU access type of arrays created on this device that ask for
  /// access_type_auto: read_write unless the program set another.
  access_type get_default_cpu_access_type() const {
    return detail::cpu_access_of(backend_).type;
  }
  /// Sets it, once, before any array has used it; false otherwise.
  /// access_type_auto keeps the runtime's choice (read_write).
  bool set_default_cpu_access_type(access_type t) {
    detail::cpu_access_default &d = detail::cpu_access_of(backend_);
    if (d.used.load() || d.set.exchange(true))
      return false;
    if (t != access_type_auto) d.type.store(t);
    return true;
  }

  accelerator_view get_default_view() const { return default_view; }
  accelerator_view create_view(Concurrency::queuing_mode q = queuing_mode_automatic) const {
    return accelerator_view(backend_, q, accelerator_view::next_id());
  }

  /// The same device: the same device path.
  bool operator==(const accelerator &o) const { return path_ == o.path_; }
  bool operator!=(const accelerator &o) const { return !(*this == o); }

private:
  accelerator(slmc_backend b, int) : default_view(b), backend_(b), path_(path_of(b)) {
    load_info();
  }

  static std::wstring path_of(slmc_backend b) {
    return b == SLMC_BACKEND_CPU ? std::wstring(direct3d_warp)
                                 : widen(slmc_backend_name(b));
  }

  static slmc_backend backend_of(const std::wstring &path) {
    if (path == default_accelerator || path.empty())
      return detail::current_backend();
    if (path == cpu_accelerator || path == direct3d_ref || path == direct3d_warp)
      return SLMC_BACKEND_CPU;
    if (path == level_zero_accelerator) return SLMC_BACKEND_LEVEL_ZERO;
    if (path == cuda_accelerator) return SLMC_BACKEND_CUDA;
    throw runtime_exception("accelerator: unknown device path (use default, "
                            "direct3d\\warp, direct3d\\ref, cpu, level_zero or cuda)",
                            detail::E_INVALIDARG_CODE);
  }
  static std::wstring widen(const char *s) {
    std::wstring w;
    for (; s && *s; ++s) w += wchar_t(*s);
    return w;
  }
  void load_info() {
    std::memset(&info_, 0, sizeof info_);
    info_.backend = backend_;
    if (backend_ == detail::current_backend()) {
      detail::check(slmc_get_device_info(&info_), "accelerator");
    } else {
      // Another device present: the runtime describes only the one in use.
      std::snprintf(info_.name, sizeof info_.name, "%s", slmc_backend_name(backend_));
    }
    default_cpu_access_type.backend = backend_;
    description = get_description();
    device_path = get_device_path();
    dedicated_memory = get_dedicated_memory();
    is_emulated = get_is_emulated();
  }

public:
  accelerator_view default_view;

  // MSVC's properties (__declspec(property) there), as values: they do not
  // change while the program runs. default_cpu_access_type reads the
  // device's current setting.
  std::wstring description;
  std::wstring device_path;
  size_t dedicated_memory = 0;
  unsigned int version = 0x00010000;
  bool is_emulated = false;
  bool has_display = false;
  bool is_debug = false;
  bool supports_double_precision = true;
  bool supports_limited_double_precision = true;
  bool supports_cpu_shared_memory = true;
  struct cpu_access_property {
    slmc_backend backend;
    operator access_type() const { return detail::cpu_access_of(backend).type; }
  } default_cpu_access_type;

private:
  slmc_backend backend_;
  std::wstring path_;
  slmc_device_info info_;
};

// (Concurrency::accelerator: in the class's scope `accelerator` is the
// property.)
inline Concurrency::accelerator accelerator_view::get_accelerator() const {
  using acc = Concurrency::accelerator;
  return acc(backend_ == detail::current_backend()
                 ? std::wstring(acc::default_accelerator)
                 : std::wstring(backend_ == SLMC_BACKEND_CPU    ? acc::direct3d_warp
                                : backend_ == SLMC_BACKEND_CUDA ? acc::cuda_accelerator
                                                                : acc::level_zero_accelerator));
}

// ---- array_view -------------------------------------------------------------
template <class T, int N> class array;
template <class T, int N> class array_view;

namespace detail {
struct view_access;
/// A view with storage of its own holding a copy of `a`'s elements.
template <class T, int N> array_view<T, N> owned_copy(const array<T, N> &a);

/// Host-side state shared by all copies of one array_view of host memory (or
/// of storage the view allocated itself): the host memory and the
/// device-visible storage the kernels and the view use.
/// Launches on a GPU so far: a view's device copy may have changed since.
inline std::atomic<unsigned long long> gpu_launches{0};

struct view_state;
/// Views whose host memory the host wrote through them since their device
/// copy was last filled; copied to the device before the next launch.
struct host_written_views {
  std::mutex mutex;
  std::vector<view_state *> views;
  static host_written_views &get() {
    static host_written_views w;
    return w;
  }
};

struct view_state {
  std::atomic<int> refs{1};
  void *host = nullptr;   // the user's memory; null when the view owns storage
  void *device = nullptr; // what kernels see; == host on the CPU fallback
  size_t bytes = 0;
  bool writable = false;
  bool owns = false;      // device was allocated here
  // A view that copies host memory (a GPU) keeps both copies coherent, so
  // that the host reads and writes the user's memory through the view as
  // in C++ AMP (where the CPU's copy is that memory): `host_newer` when the
  // host wrote through the view since the device copy was filled (it is
  // then on host_written_views), `device_written` when a copy() wrote the
  // device copy; kernels may have written it when launches happened since
  // `seen_launches`.
  bool host_newer = false;
  bool device_written = false;
  unsigned long long seen_launches = 0;

  /// A view of `bytes` of host memory.
  static view_state *create(void *host, size_t bytes, bool writable) {
    view_state *s = new view_state;
    s->host = host;
    s->bytes = bytes;
    s->writable = writable;
    s->device = host;
    slmc_backend b;
    try {
      b = current_backend();
    } catch (...) {
      delete s;
      throw;
    }
    if (b == SLMC_BACKEND_CPU || bytes == 0)
      return s; // the CPU fallback works on the user's memory directly
    slmc_status st = slmc_malloc_shared(&s->device, bytes);
    if (st != SLMC_SUCCESS) {
      delete s;
      throw_runtime(st, "array_view: cannot copy data to the accelerator");
    }
    s->owns = true;
    s->seen_launches = gpu_launches.load(std::memory_order_relaxed);
    // The device copy is filled when first needed (the next launch, or a
    // copy), as C++ AMP's: until then the host's memory is the data, and
    // writes to it that do not go through the view still count.
    try {
      host_written_views &w = host_written_views::get();
      std::lock_guard<std::mutex> lock(w.mutex);
      w.views.push_back(s);
      s->host_newer = true;
    } catch (...) {
      slmc_free(s->device);
      delete s;
      throw;
    }
    return s;
  }
  /// A view with its own storage of `bytes` (zeroed).
  static view_state *create_owned(size_t bytes) {
    view_state *s = new view_state;
    s->bytes = bytes;
    s->writable = true;
    try {
      s->device = allocate_shared(bytes, "array_view");
      s->owns = s->device != nullptr;
      if (bytes) check(slmc_memset(s->device, 0, bytes), "array_view");
    } catch (...) {
      if (s->owns) slmc_free(s->device);
      delete s;
      throw;
    }
    return s;
  }
  bool copies() const { return owns && host; }
  bool device_newer() const {
    return device_written ||
           (writable && seen_launches != gpu_launches.load(std::memory_order_relaxed));
  }
  /// Writes kernel results back to the host memory.
  void synchronize() {
    wait_for_kernels();
    if (copies() && !host_newer && device_newer())
      pull("array_view::synchronize");
  }
  /// The host memory changed behind the view's back: copy it again.
  void refresh() {
    wait_for_kernels();
    if (copies()) {
      check(slmc_memcpy(device, host, bytes), "array_view::refresh");
      device_written = false;
      seen_launches = gpu_launches.load(std::memory_order_relaxed);
      forget_host_writes();
    }
  }
  /// Where the host reads or writes the element at `device_address` of the
  /// device copy: in the user's memory, brought up to date first.
  void *host_side(const void *device_address, bool write) {
    if (device_newer() && !host_newer)
      pull("array_view");
    if (write && !host_newer) {
      host_written_views &w = host_written_views::get();
      std::lock_guard<std::mutex> lock(w.mutex);
      w.views.push_back(this);
      host_newer = true;
    }
    return static_cast<char *>(host) +
           (static_cast<const char *>(device_address) - static_cast<const char *>(device));
  }
  /// Before the device copy is read or written other than by a kernel (a
  /// copy): it takes the host's writes; `write`: it becomes the newer one.
  void device_side(bool write) {
    if (!copies())
      return;
    if (host_newer)
      push();
    if (write)
      device_written = true;
  }
  void pull(const char *what) {
    check(slmc_memcpy(host, device, bytes), what);
    device_written = false;
    seen_launches = gpu_launches.load(std::memory_order_relaxed);
  }
  void push() {
    check(slmc_memcpy(device, host, bytes), "array_view: copying host writes to the accelerator");
    forget_host_writes();
  }
  void forget_host_writes() {
    if (!host_newer)
      return;
    host_written_views &w = host_written_views::get();
    std::lock_guard<std::mutex> lock(w.mutex);
    w.views.erase(std::remove(w.views.begin(), w.views.end(), this), w.views.end());
    host_newer = false;
  }
  /// Before a launch: every view the host wrote through gives the device
  /// its data.
  static void before_launch() {
    host_written_views &w = host_written_views::get();
    std::vector<view_state *> views;
    {
      std::lock_guard<std::mutex> lock(w.mutex);
      if (w.views.empty())
        return;
      views.swap(w.views);
    }
    host_access();
    for (view_state *v : views) {
      v->host_newer = false;
      check(slmc_memcpy(v->device, v->host, v->bytes),
            "parallel_for_each: copying host writes to the accelerator");
    }
  }
  void retain() { refs.fetch_add(1, std::memory_order_relaxed); }
  void release() {
    if (refs.fetch_sub(1, std::memory_order_acq_rel) != 1)
      return;
    if (owns) {
      // Destroying the last view publishes the results, as in C++ AMP; a
      // destructor must not throw, so a failure here is not reported.
      slmc_status st = slmc_synchronize();
      kernels_pending.store(false, std::memory_order_relaxed);
      if (st == SLMC_SUCCESS && host && !host_newer && device_newer())
        slmc_memcpy(host, device, bytes);
      forget_host_writes();
      slmc_free(device);
    }
    delete this;
  }
};

/// Copies the elements of a rank-N block between two strided layouts whose
/// last dimension is contiguous, row by row.
template <int N, class RowFn>
void for_each_row(const extent<N> &e, const int *pa, const int *pb, RowFn row) {
  for (int i = 0; i < N; ++i)
    if (e[i] <= 0) return;
  int idx[N] = {};
  for (;;) {
    ptrdiff_t oa = 0, ob = 0;
    for (int i = 0; i < N - 1; ++i) {
      oa += ptrdiff_t(idx[i]) * pa[i];
      ob += ptrdiff_t(idx[i]) * pb[i];
    }
    row(oa, ob, size_t(e[N - 1]));
    int d = N - 2;
    for (; d >= 0; --d) {
      if (++idx[d] < e[d]) break;
      idx[d] = 0;
    }
    if (d < 0) return;
  }
}

template <int N> SLMC_HD void dense_pitch(const extent<N> &e, int *pitch) {
  pitch[N - 1] = 1;
  for (int i = N - 2; i >= 0; --i) pitch[i] = pitch[i + 1] * e[i + 1];
}

/// C++ AMP's element limit (extent::size() is unsigned int): arrays and
/// views index in 32 bits, so a larger extent is refused where data is
/// made, not left to wrap silently.
template <int N> void check_element_count(const extent<N> &e, const char *what) {
  unsigned long long n = 1;
  for (int i = 0; i < N; ++i) {
    n *= (unsigned long long)(e[i] < 0 ? 0 : e[i]);
    if (n > 0xffffffffULL)
      throw runtime_exception((std::string(what) + ": the extent holds more than 2^32 - 1 "
                               "elements, C++ AMP's limit (extent::size() is unsigned int)")
                                  .c_str(),
                              E_INVALIDARG_CODE);
  }
}

[[noreturn]] inline void throw_bad_section() {
  throw runtime_exception("section: the section is outside the view",
                          E_INVALIDARG_CODE);
}
} // namespace detail

/// A view of data that kernels and the host read and write: of host memory,
/// of an array, or of storage of its own. Copies share the data.
template <class T, int N = 1> class array_view {
  static_assert(N > 0, "array_view rank must be positive");
  template <class, int> friend class array_view;
  template <class, int> friend class array;
  friend struct detail::view_access;
  typedef typename std::remove_const<T>::type nc_type;

public:
  static const int rank = N;
  typedef T value_type;

  concurrency::extent<N> extent;

  // Views of host memory.
  array_view(const concurrency::extent<N> &e, T *src) : extent(e) { init(src); }
  array_view(int e0, T *src) : extent(e0) { init(src); }
  array_view(int e0, int e1, T *src) : extent(e0, e1) { init(src); }
  array_view(int e0, int e1, int e2, T *src) : extent(e0, e1, e2) { init(src); }
  /// A C array, rank 1 (Visual Studio 2013).
  template <class A, int Size, int M = N,
            class = typename std::enable_if<M == 1 && std::is_same<
                typename std::remove_const<A>::type, nc_type>::value>::type>
  explicit array_view(A (&src)[Size]) : extent(Size) { init(src); }
  // MSVC declares the pointer constructors restrict(amp, cpu). In device
  // code an array_view's data is global memory (see detail::element), so
  // amp code gets only the view of no memory (`array_view<T>(0, nullptr)`,
  // a placeholder); a view of tile_static or private memory would not be
  // global and is refused, as a call to a cpu-only constructor.
  SLMC_HD array_view(const concurrency::extent<N> &e, std::nullptr_t) : extent(e) { init_null(); }
  SLMC_HD array_view(int e0, std::nullptr_t) : extent(e0) { init_null(); }
  SLMC_HD array_view(int e0, int e1, std::nullptr_t) : extent(e0, e1) { init_null(); }
  SLMC_HD array_view(int e0, int e1, int e2, std::nullptr_t) : extent(e0, e1, e2) { init_null(); }
  /// A container, rank 1, its size the extent (Visual Studio 2013).
  template <class Container, class = decltype(std::declval<Container &>().data()),
            class = decltype(std::declval<Container &>().size()), int M = N,
            class = typename std::enable_if<M == 1>::type>
  explicit array_view(Container &c) : extent(int(c.size())) { init(c); }

  template <class Container, class = decltype(std::declval<Container &>().data()),
            class = decltype(std::declval<Container &>().size())>
  array_view(const concurrency::extent<N> &e, Container &c) : extent(e) { init(c); }
  template <class Container, class = decltype(std::declval<Container &>().data()),
            class = decltype(std::declval<Container &>().size())>
  array_view(int e0, Container &c) : extent(e0) { init(c); }
  template <class Container, class = decltype(std::declval<Container &>().data()),
            class = decltype(std::declval<Container &>().size())>
  array_view(int e0, int e1, Container &c) : extent(e0, e1) { init(c); }
  template <class Container, class = decltype(std::declval<Container &>().data()),
            class = decltype(std::declval<Container &>().size())>
  array_view(int e0, int e1, int e2, Container &c) : extent(e0, e1, e2) { init(c); }

  // Views with storage of their own (T not const).
  explicit array_view(const concurrency::extent<N> &e) : extent(e) { init_owned(); }
  explicit array_view(int e0) : extent(e0) { init_owned(); }
  array_view(int e0, int e1) : extent(e0, e1) { init_owned(); }
  array_view(int e0, int e1, int e2) : extent(e0, e1, e2) { init_owned(); }

  // A view of a temporary array: MSVC binds it (C4239) and the view keeps
  // the buffer alive; here the view takes the elements into storage of its
  // own, which nothing else can reach, so the meaning is the same.
  array_view(array<nc_type, N> &&a) : array_view(detail::owned_copy(a)) {}

  // Views of an array.
  SLMC_HD array_view(array<nc_type, N> &a)
      : extent(a.extent), data_(a.data_), bounds_(a.buffer()) {
    detail::dense_pitch(extent, pitch_);
  }
  template <class U = T, class = typename std::enable_if<std::is_const<U>::value>::type>
  SLMC_HD array_view(const array<nc_type, N> &a)
      : extent(a.extent), data_(a.data_), bounds_(a.buffer()) {
    detail::dense_pitch(extent, pitch_);
  }

  SLMC_HD array_view(const array_view &o)
      : extent(o.extent), data_(o.data_), bounds_(o.bounds_), state_(o.state_) {
    copy_pitch(o.pitch_);
    adopt_state();
  }
  /// array_view<T> converts to array_view<const T>.
  template <class U, class = typename std::enable_if<
                         std::is_same<const U, T>::value && !std::is_same<U, T>::value>::type>
  SLMC_HD array_view(const array_view<U, N> &o)
      : extent(o.extent), data_(o.data_), bounds_(o.bounds_), state_(o.state_) {
    copy_pitch(o.pitch_);
    adopt_state();
  }
  SLMC_HD array_view &operator=(const array_view &o) {
    if (this != &o) {
      SLMC_HOST_ONLY(if (o.state_ && !detail::in_cpu_kernel()) o.state_->retain();
                     if (state_) state_->release();)
      extent = o.extent;
      data_ = o.data_;
      bounds_ = o.bounds_;
      copy_pitch(o.pitch_);
      state_ = o.state_;
      SLMC_HOST_ONLY(if (detail::in_cpu_kernel()) state_ = nullptr;)
    }
    return *this;
  }
  SLMC_HD ~array_view() { SLMC_HOST_ONLY(if (state_) state_->release();) }

  SLMC_HD concurrency::extent<N> get_extent() const { return extent; }

  SLMC_HD T &operator[](const index<N> &idx) const { return at(offset(idx)); }
  SLMC_HD T &operator()(const index<N> &idx) const { return at(offset(idx)); }

  /// Rank 1: the element. Higher ranks: the projection on the first index.
  template <int M = N, typename std::enable_if<M == 1, int>::type = 0>
  SLMC_HD T &operator[](int i0) const { return at(i0); }
  template <int M = N, typename std::enable_if<(M > 1), int>::type = 0>
  SLMC_HD array_view<T, M - 1> operator[](int i0) const { return project(i0); }
  template <int M = N, typename std::enable_if<M == 1, int>::type = 0>
  SLMC_HD T &operator()(int i0) const { return at(i0); }
  template <int M = N, typename std::enable_if<(M > 1), int>::type = 0>
  SLMC_HD array_view<T, M - 1> operator()(int i0) const { return project(i0); }
  SLMC_HD T &operator()(int i0, int i1) const {
    static_assert(N == 2, "array_view(i0, i1) needs rank 2");
    return at(detail::offset_t(i0) * detail::offset_t(pitch_[0]) + detail::offset_t(i1));
  }
  SLMC_HD T &operator()(int i0, int i1, int i2) const {
    static_assert(N == 3, "array_view(i0, i1, i2) needs rank 3");
    return at(detail::offset_t(i0) * detail::offset_t(pitch_[0]) + detail::offset_t(i1) * detail::offset_t(pitch_[N - 2]) +
              detail::offset_t(i2));
  }

  /// The sub-view of `ext` elements from `origin`.
  SLMC_HD array_view section(const index<N> &origin, const concurrency::extent<N> &ext) const {
    SLMC_HOST_ONLY(check_section(origin, ext);)
    return array_view(ext, data_ + offset(origin), pitch_, bounds_, state_);
  }
  SLMC_HD array_view section(const index<N> &origin) const {
    concurrency::extent<N> ext;
    for (int i = 0; i < N; ++i) ext[i] = extent[i] - origin[i];
    return section(origin, ext);
  }
  SLMC_HD array_view section(const concurrency::extent<N> &ext) const {
    return section(index<N>(), ext);
  }
  SLMC_HD array_view section(int i0, int e0) const {
    static_assert(N == 1, "section(i0, e0) needs rank 1");
    return section(index<N>(i0), concurrency::extent<N>(e0));
  }
  SLMC_HD array_view section(int i0, int i1, int e0, int e1) const {
    static_assert(N == 2, "section(i0, i1, e0, e1) needs rank 2");
    return section(index<N>(i0, i1), concurrency::extent<N>(e0, e1));
  }
  SLMC_HD array_view section(int i0, int i1, int i2, int e0, int e1, int e2) const {
    static_assert(N == 3, "section(i0, i1, i2, e0, e1, e2) needs rank 3");
    return section(index<N>(i0, i1, i2), concurrency::extent<N>(e0, e1, e2));
  }

  /// A rank-1 view seen with another shape (the view must be contiguous).
  template <int K>
  SLMC_HD array_view<T, K> view_as(const concurrency::extent<K> &ext) const {
    static_assert(N == 1, "view_as needs a view of rank 1");
    int pitch[K];
    detail::dense_pitch(ext, pitch);
    return array_view<T, K>(ext, data_, pitch, bounds_, state_);
  }

  /// A rank-1 view's elements as elements of type U (the same memory,
  /// extent.size() * sizeof(T) / sizeof(U) of them; const stays const).
  template <class U>
  SLMC_HD array_view<typename std::conditional<std::is_const<T>::value, const U, U>::type, 1>
  reinterpret_as() const {
    static_assert(N == 1, "reinterpret_as needs a view of rank 1");
    typedef typename std::conditional<std::is_const<T>::value, const U, U>::type R;
    int n = int(size_t(extent.size()) * sizeof(T) / sizeof(U));
    int pitch[1] = {1};
    return array_view<R, 1>(concurrency::extent<1>(n), reinterpret_cast<R *>(data_), pitch,
                            bounds_, state_);
  }

  /// Pointer to the first element (on the host, of the memory the view
  /// was made from, as in C++ AMP).
  SLMC_HD T *data() const {
    SLMC_HOST_ONLY(if (!detail::in_cpu_kernel()) {
      detail::host_access();
      if (state_ && state_->copies())
        return static_cast<T *>(state_->host_side(data_, !std::is_const<T>::value));
    })
    return data_;
  }

  /// Writes kernel results back to the memory the view was made from.
  void synchronize() const {
    if (state_) state_->synchronize();
    else detail::wait_for_kernels();
  }
  completion_future synchronize_async() const {
    synchronize();
    return completion_future::ready();
  }
  void synchronize(const accelerator_view &) const { synchronize(); }
  completion_future synchronize_async(const accelerator_view &) const {
    return synchronize_async();
  }
  /// The current contents need not reach the accelerator. Views copy their
  /// data when made, so this is only a hint here.
  void discard_data() const {}
  /// The host memory behind the view changed other than through the view.
  void refresh() const {
    if (state_) state_->refresh();
  }
  accelerator_view get_source_accelerator_view() const { return accelerator_view(); }

  void copy_to(const array_view<nc_type, N> &dest) const;
  void copy_to(array<nc_type, N> &dest) const;

private:
  SLMC_HD array_view(const concurrency::extent<N> &e, T *data, const int *pitch,
                     const detail::buffer_bounds &bounds, detail::view_state *st)
      : extent(e), data_(data), bounds_(bounds), state_(st) {
    copy_pitch(pitch);
    adopt_state();
  }

  SLMC_HD void copy_pitch(const int *p) {
    for (int i = 0; i < N; ++i) pitch_[i] = p[i];
  }
  /// Copies made on the host hold a reference to the shared state; copies
  /// made inside kernels (CPU fallback) do not need one.
  SLMC_HD void adopt_state() {
    SLMC_HOST_ONLY(if (state_) {
      if (detail::in_cpu_kernel()) state_ = nullptr;
      else state_->retain();
    })
  }
  SLMC_HD array_view<T, (N > 1 ? N - 1 : 1)> project(int i0) const {
    concurrency::extent<(N > 1 ? N - 1 : 1)> e;
    for (int i = 1; i < N; ++i) e[i - 1] = extent[i];
    return array_view<T, (N > 1 ? N - 1 : 1)>(e, data_ + i0 * pitch_[0], pitch_ + 1, bounds_,
                                              state_);
  }

  SLMC_HD T &at(ptrdiff_t off) const {
    // Host code reads through the view only after the kernels that wrote
    // it, and in the memory the view was made from.
    // (Kernels on the CPU fallback skip all of it: the CPU work-item loops
    // know slmc_cpu_current_item() is not null, so none of it is left in
    // their code.)
    SLMC_HOST_ONLY(if (!detail::in_cpu_kernel()) {
      detail::host_access();
      if (state_ && state_->copies())
        return host_element(off);
    })
    return detail::element(data_, off, bounds_);
  }
  T &host_element(ptrdiff_t off) const {
    return *static_cast<T *>(state_->host_side(data_ + off, !std::is_const<T>::value));
  }
  // An extent holds at most 2^32 - 1 elements (extent::size() is unsigned
  // int), so an offset inside a view fits in 32 unsigned bits. Computed
  // there, it costs GPUs no 64-bit multiply (Intel Gen12 emulates those:
  // docs/intel.md).
  // The innermost dimension is always contiguous (pitch 1: every view is a
  // section, projection or reshaping of a dense one), so it needs no
  // multiply; Gen12 spends eight instructions on a SIMD32 32-bit one.
  SLMC_HD detail::offset_t offset(const index<N> &idx) const {
    detail::offset_t l = detail::offset_t(idx[N - 1]);
    for (int i = 0; i < N - 1; ++i) l += detail::offset_t(idx[i]) * detail::offset_t(pitch_[i]);
    return l;
  }
  void check_section(const index<N> &origin, const concurrency::extent<N> &ext) const {
    for (int i = 0; i < N; ++i)
      if (origin[i] < 0 || ext[i] < 0 || origin[i] + ext[i] > extent[i])
        detail::throw_bad_section();
  }
  template <class Container> void init(Container &c) {
    if (size_t(c.size()) < size_t(extent.size()))
      throw runtime_exception("array_view: the container is smaller than the extent",
                              detail::E_INVALIDARG_CODE);
    init(c.data());
  }
  SLMC_HD void init_null() {
    detail::dense_pitch(extent, pitch_);
    data_ = nullptr;
  }
  void init(T *src) {
    detail::check_element_count(extent, "array_view");
    detail::dense_pitch(extent, pitch_);
    size_t bytes = size_t(extent.size()) * sizeof(T);
    state_ = detail::view_state::create(const_cast<nc_type *>(src), bytes,
                                        !std::is_const<T>::value);
    data_ = static_cast<T *>(state_->device);
    bounds_ = detail::buffer_bounds(data_, bytes);
  }
  void init_owned() {
    static_assert(!std::is_const<T>::value,
                  "an array_view with storage of its own needs a non-const type");
    detail::check_element_count(extent, "array_view");
    detail::dense_pitch(extent, pitch_);
    state_ = detail::view_state::create_owned(size_t(extent.size()) * sizeof(T));
    data_ = static_cast<T *>(state_->device);
    bounds_ = detail::buffer_bounds(data_, size_t(extent.size()) * sizeof(T));
  }

  T *data_ = nullptr;
  int pitch_[N];                         // elements between consecutive indices; pitch_[N - 1] == 1
  detail::buffer_bounds bounds_;         // the whole buffer (sections share it)
  detail::view_state *state_ = nullptr;  // null for views of arrays
};

// ---- array --------------------------------------------------------------------
namespace detail {
/// Maps the host address of every live array object to its device-visible
/// twin; launches use it to redirect kernels' references to arrays.
class array_registry {
public:
  static array_registry &get() {
    static array_registry r;
    return r;
  }
  void add(const void *object, void *twin) {
    std::lock_guard<std::mutex> l(m_);
    twins_[object] = twin;
    live_.store(twins_.size(), std::memory_order_relaxed);
  }
  void remove(const void *object) {
    std::lock_guard<std::mutex> l(m_);
    twins_.erase(object);
    live_.store(twins_.size(), std::memory_order_relaxed);
  }
  /// Replaces, in the bytes of a kernel functor, each pointer-aligned value
  /// that is the address of a live array by the address of its twin.
  void relocate(unsigned char *bytes, size_t size) {
    if (live_.load(std::memory_order_relaxed) == 0)
      return;
    std::lock_guard<std::mutex> l(m_);
    for (size_t off = 0; off + sizeof(void *) <= size; off += alignof(void *)) {
      const void *p;
      std::memcpy(&p, bytes + off, sizeof p);
      auto it = twins_.find(p);
      if (it != twins_.end())
        std::memcpy(bytes + off, &it->second, sizeof(void *));
    }
  }

private:
  std::mutex m_;
  std::unordered_map<const void *, void *> twins_;
  std::atomic<size_t> live_{0};
};
} // namespace detail

/// Data of the accelerator, in the runtime's shared memory. Kernels capture
/// arrays by reference.
template <class T, int N = 1> class array {
  static_assert(N > 0, "array rank must be positive");
  static_assert(std::is_trivially_copyable<T>::value,
                "array elements must be trivially copyable");
  template <class, int> friend class array_view;
  template <class, int> friend class array;
  friend struct detail::view_access;

public:
  static const int rank = N;
  typedef T value_type;

  concurrency::extent<N> extent;

  explicit array(const concurrency::extent<N> &e) : extent(e) { allocate(); }
  explicit array(int e0) : extent(e0) { allocate(); }
  array(int e0, int e1) : extent(e0, e1) { allocate(); }
  array(int e0, int e1, int e2) : extent(e0, e1, e2) { allocate(); }

  // On a view, with the CPU access type (access_type_auto: the device's
  // default_cpu_access_type).
  array(const concurrency::extent<N> &e, accelerator_view av,
        access_type cpu_access = access_type_auto)
      : extent(e) { allocate(&av, cpu_access); }
  array(int e0, accelerator_view av, access_type cpu_access = access_type_auto)
      : extent(e0) { allocate(&av, cpu_access); }
  array(int e0, int e1, accelerator_view av, access_type cpu_access = access_type_auto)
      : extent(e0, e1) { allocate(&av, cpu_access); }
  array(int e0, int e1, int e2, accelerator_view av,
        access_type cpu_access = access_type_auto)
      : extent(e0, e1, e2) { allocate(&av, cpu_access); }
  // Staging arrays (5.1.1): on `av`, meant to be copied to and from
  // `associated`, which get_associated_accelerator_view() names (all memory
  // is shared, so nothing else differs).
  array(const concurrency::extent<N> &e, accelerator_view av, accelerator_view associated)
      : extent(e) { allocate(&av, access_type_auto, &associated); }
  array(int e0, accelerator_view av, accelerator_view associated)
      : extent(e0) { allocate(&av, access_type_auto, &associated); }
  array(int e0, int e1, accelerator_view av, accelerator_view associated)
      : extent(e0, e1) { allocate(&av, access_type_auto, &associated); }
  array(int e0, int e1, int e2, accelerator_view av, accelerator_view associated)
      : extent(e0, e1, e2) { allocate(&av, access_type_auto, &associated); }
  template <class It, class = typename std::enable_if<detail::is_iterator<It>::value>::type>
  array(const concurrency::extent<N> &e, It first, accelerator_view av,
        accelerator_view associated)
      : extent(e) { allocate(&av, access_type_auto, &associated); fill(first); }
  template <class It, class = typename std::enable_if<detail::is_iterator<It>::value>::type>
  array(const concurrency::extent<N> &e, It first, It last, accelerator_view av,
        accelerator_view associated)
      : extent(e) { allocate(&av, access_type_auto, &associated); fill(first, last); }
  template <class It, class = typename std::enable_if<detail::is_iterator<It>::value>::type>
  array(int e0, It first, accelerator_view av, accelerator_view associated)
      : extent(e0) { allocate(&av, access_type_auto, &associated); fill(first); }
  template <class It, class = typename std::enable_if<detail::is_iterator<It>::value>::type>
  array(int e0, It first, It last, accelerator_view av, accelerator_view associated)
      : extent(e0) { allocate(&av, access_type_auto, &associated); fill(first, last); }
  template <class It, class = typename std::enable_if<detail::is_iterator<It>::value>::type>
  array(int e0, int e1, It first, accelerator_view av, accelerator_view associated)
      : extent(e0, e1) { allocate(&av, access_type_auto, &associated); fill(first); }
  template <class It, class = typename std::enable_if<detail::is_iterator<It>::value>::type>
  array(int e0, int e1, It first, It last, accelerator_view av, accelerator_view associated)
      : extent(e0, e1) { allocate(&av, access_type_auto, &associated); fill(first, last); }
  template <class It, class = typename std::enable_if<detail::is_iterator<It>::value>::type>
  array(int e0, int e1, int e2, It first, accelerator_view av, accelerator_view associated)
      : extent(e0, e1, e2) { allocate(&av, access_type_auto, &associated); fill(first); }
  template <class It, class = typename std::enable_if<detail::is_iterator<It>::value>::type>
  array(int e0, int e1, int e2, It first, It last, accelerator_view av,
        accelerator_view associated)
      : extent(e0, e1, e2) {
    allocate(&av, access_type_auto, &associated);
    fill(first, last);
  }

  // Initialised from host data: [first, last) or extent.size() elements.
  template <class It, class = typename std::enable_if<detail::is_iterator<It>::value>::type>
  array(const concurrency::extent<N> &e, It first) : extent(e) { allocate(); fill(first); }
  template <class It, class = typename std::enable_if<detail::is_iterator<It>::value>::type>
  array(const concurrency::extent<N> &e, It first, It last) : extent(e) { allocate(); fill(first, last); }
  template <class It, class = typename std::enable_if<detail::is_iterator<It>::value>::type>
  array(int e0, It first) : extent(e0) { allocate(); fill(first); }
  template <class It, class = typename std::enable_if<detail::is_iterator<It>::value>::type>
  array(int e0, It first, It last) : extent(e0) { allocate(); fill(first, last); }
  template <class It, class = typename std::enable_if<detail::is_iterator<It>::value>::type>
  array(int e0, int e1, It first) : extent(e0, e1) { allocate(); fill(first); }
  template <class It, class = typename std::enable_if<detail::is_iterator<It>::value>::type>
  array(int e0, int e1, It first, It last) : extent(e0, e1) { allocate(); fill(first, last); }
  template <class It, class = typename std::enable_if<detail::is_iterator<It>::value>::type>
  array(int e0, int e1, int e2, It first) : extent(e0, e1, e2) { allocate(); fill(first); }
  template <class It, class = typename std::enable_if<detail::is_iterator<It>::value>::type>
  array(int e0, int e1, int e2, It first, It last) : extent(e0, e1, e2) { allocate(); fill(first, last); }
  template <class It, class = typename std::enable_if<detail::is_iterator<It>::value>::type>
  array(const concurrency::extent<N> &e, It first, accelerator_view av,
        access_type cpu_access = access_type_auto)
      : extent(e) { allocate(&av, cpu_access); fill(first); }
  template <class It, class = typename std::enable_if<detail::is_iterator<It>::value>::type>
  array(const concurrency::extent<N> &e, It first, It last, accelerator_view av,
        access_type cpu_access = access_type_auto)
      : extent(e) { allocate(&av, cpu_access); fill(first, last); }
  template <class It, class = typename std::enable_if<detail::is_iterator<It>::value>::type>
  array(int e0, It first, accelerator_view av, access_type cpu_access = access_type_auto)
      : extent(e0) { allocate(&av, cpu_access); fill(first); }
  template <class It, class = typename std::enable_if<detail::is_iterator<It>::value>::type>
  array(int e0, It first, It last, accelerator_view av,
        access_type cpu_access = access_type_auto)
      : extent(e0) { allocate(&av, cpu_access); fill(first, last); }
  template <class It, class = typename std::enable_if<detail::is_iterator<It>::value>::type>
  array(int e0, int e1, It first, accelerator_view av,
        access_type cpu_access = access_type_auto)
      : extent(e0, e1) { allocate(&av, cpu_access); fill(first); }
  template <class It, class = typename std::enable_if<detail::is_iterator<It>::value>::type>
  array(int e0, int e1, It first, It last, accelerator_view av,
        access_type cpu_access = access_type_auto)
      : extent(e0, e1) { allocate(&av, cpu_access); fill(first, last); }
  template <class It, class = typename std::enable_if<detail::is_iterator<It>::value>::type>
  array(int e0, int e1, int e2, It first, accelerator_view av,
        access_type cpu_access = access_type_auto)
      : extent(e0, e1, e2) { allocate(&av, cpu_access); fill(first); }
  template <class It, class = typename std::enable_if<detail::is_iterator<It>::value>::type>
  array(int e0, int e1, int e2, It first, It last, accelerator_view av,
        access_type cpu_access = access_type_auto)
      : extent(e0, e1, e2) { allocate(&av, cpu_access); fill(first, last); }

  explicit array(const array_view<const T, N> &src) : extent(src.extent) {
    allocate();
    src.copy_to(*this);
  }
  explicit array(const array_view<T, N> &src) : extent(src.extent) {
    allocate();
    src.copy_to(*this);
  }
  array(const array_view<const T, N> &src, accelerator_view av,
        access_type cpu_access = access_type_auto)
      : extent(src.extent) {
    allocate(&av, cpu_access);
    src.copy_to(*this);
  }
  array(const array_view<const T, N> &src, accelerator_view av, accelerator_view associated)
      : extent(src.extent) {
    allocate(&av, access_type_auto, &associated);
    src.copy_to(*this);
  }

  /// A deep copy.
  array(const array &o) : extent(o.extent) {
    allocate(&o.view_, o.cpu_access_type, &o.associated_); // on the same view (5.1)
    detail::host_access();
    if (bytes()) detail::check(slmc_memcpy(data_, o.data_, bytes()), "array copy");
  }
  array(array &&o) noexcept
      : extent(o.extent), data_(o.data_), twin_(o.twin_), view_(o.view_),
        associated_(o.associated_), cpu_access_type(o.cpu_access_type) {
    o.data_ = nullptr;
    o.twin_ = nullptr;
    o.extent = concurrency::extent<N>();
    if (twin_) {
      detail::array_registry::get().remove(&o);
      publish();
    }
  }
  array &operator=(const array &o) {
    if (this != &o) {
      array tmp(o);
      *this = std::move(tmp);
    }
    return *this;
  }
  array &operator=(array &&o) noexcept {
    if (this != &o) {
      release();
      extent = o.extent;
      data_ = o.data_;
      twin_ = o.twin_;
      view_ = o.view_;
      associated_ = o.associated_;
      o.data_ = nullptr;
      o.twin_ = nullptr;
      o.extent = concurrency::extent<N>();
      if (twin_) {
        detail::array_registry::get().remove(&o);
        publish();
      }
    }
    return *this;
  }
  array &operator=(const array_view<const T, N> &src) {
    src.copy_to(*this);
    return *this;
  }
  ~array() { release(); }

  SLMC_HD concurrency::extent<N> get_extent() const { return extent; }
  /// The view the array was made on (the default view unless one was given).
  accelerator_view get_accelerator_view() const { return view_; }
  accelerator_view get_associated_accelerator_view() const { return associated_; }
  /// The CPU access type the array was created with (auto resolved).
  access_type get_cpu_access_type() const { return cpu_access_type; }

  SLMC_HD T &operator[](const index<N> &idx) { return at(offset(idx)); }
  SLMC_HD const T &operator[](const index<N> &idx) const { return at(offset(idx)); }
  SLMC_HD T &operator()(const index<N> &idx) { return at(offset(idx)); }
  SLMC_HD const T &operator()(const index<N> &idx) const { return at(offset(idx)); }

  template <int M = N, typename std::enable_if<M == 1, int>::type = 0>
  SLMC_HD T &operator[](int i0) { return at(i0); }
  template <int M = N, typename std::enable_if<M == 1, int>::type = 0>
  SLMC_HD const T &operator[](int i0) const { return at(i0); }
  template <int M = N, typename std::enable_if<(M > 1), int>::type = 0>
  SLMC_HD array_view<T, M - 1> operator[](int i0) { return array_view<T, N>(*this)[i0]; }
  template <int M = N, typename std::enable_if<(M > 1), int>::type = 0>
  SLMC_HD array_view<const T, M - 1> operator[](int i0) const {
    return array_view<const T, N>(*this)[i0];
  }
  template <int M = N, typename std::enable_if<M == 1, int>::type = 0>
  SLMC_HD T &operator()(int i0) { return at(i0); }
  template <int M = N, typename std::enable_if<M == 1, int>::type = 0>
  SLMC_HD const T &operator()(int i0) const { return at(i0); }
  SLMC_HD T &operator()(int i0, int i1) {
    static_assert(N == 2, "array(i0, i1) needs rank 2");
    return at(detail::offset_t(i0) * detail::offset_t(extent[1]) + detail::offset_t(i1));
  }
  SLMC_HD const T &operator()(int i0, int i1) const {
    static_assert(N == 2, "array(i0, i1) needs rank 2");
    return at(detail::offset_t(i0) * detail::offset_t(extent[1]) + detail::offset_t(i1));
  }
  SLMC_HD T &operator()(int i0, int i1, int i2) {
    static_assert(N == 3, "array(i0, i1, i2) needs rank 3");
    return at((detail::offset_t(i0) * detail::offset_t(extent[1]) + detail::offset_t(i1)) * detail::offset_t(extent[2]) +
              detail::offset_t(i2));
  }
  SLMC_HD const T &operator()(int i0, int i1, int i2) const {
    static_assert(N == 3, "array(i0, i1, i2) needs rank 3");
    return at((detail::offset_t(i0) * detail::offset_t(extent[1]) + detail::offset_t(i1)) * detail::offset_t(extent[2]) +
              detail::offset_t(i2));
  }

  SLMC_HD array_view<T, N> section(const index<N> &origin, const concurrency::extent<N> &e) {
    return array_view<T, N>(*this).section(origin, e);
  }
  SLMC_HD array_view<const T, N> section(const index<N> &origin,
                                         const concurrency::extent<N> &e) const {
    return array_view<const T, N>(*this).section(origin, e);
  }
  SLMC_HD array_view<T, N> section(const index<N> &origin) {
    return array_view<T, N>(*this).section(origin);
  }
  SLMC_HD array_view<const T, N> section(const index<N> &origin) const {
    return array_view<const T, N>(*this).section(origin);
  }
  SLMC_HD array_view<T, N> section(const concurrency::extent<N> &e) {
    return array_view<T, N>(*this).section(e);
  }
  SLMC_HD array_view<const T, N> section(const concurrency::extent<N> &e) const {
    return array_view<const T, N>(*this).section(e);
  }
  // The rank-specific forms of the specification's array synopsis (5.1).
  SLMC_HD array_view<T, N> section(int i0, int e0) {
    return array_view<T, N>(*this).section(i0, e0);
  }
  SLMC_HD array_view<const T, N> section(int i0, int e0) const {
    return array_view<const T, N>(*this).section(i0, e0);
  }
  SLMC_HD array_view<T, N> section(int i0, int i1, int e0, int e1) {
    return array_view<T, N>(*this).section(i0, i1, e0, e1);
  }
  SLMC_HD array_view<const T, N> section(int i0, int i1, int e0, int e1) const {
    return array_view<const T, N>(*this).section(i0, i1, e0, e1);
  }
  SLMC_HD array_view<T, N> section(int i0, int i1, int i2, int e0, int e1, int e2) {
    return array_view<T, N>(*this).section(i0, i1, i2, e0, e1, e2);
  }
  SLMC_HD array_view<const T, N> section(int i0, int i1, int i2, int e0, int e1,
                                         int e2) const {
    return array_view<const T, N>(*this).section(i0, i1, i2, e0, e1, e2);
  }
  template <int K> SLMC_HD array_view<T, K> view_as(const concurrency::extent<K> &e) {
    static_assert(N == 1, "view_as needs an array of rank 1");
    return array_view<T, 1>(*this).view_as(e);
  }
  template <int K>
  SLMC_HD array_view<const T, K> view_as(const concurrency::extent<K> &e) const {
    static_assert(N == 1, "view_as needs an array of rank 1");
    return array_view<const T, 1>(*this).view_as(e);
  }
  /// The data as a rank-1 view of another element type.
  template <class U> SLMC_HD array_view<U, 1> reinterpret_as() {
    int n = int(size_t(extent.size()) * sizeof(T) / sizeof(U));
    int pitch[1] = {1};
    return array_view<U, 1>(concurrency::extent<1>(n), reinterpret_cast<U *>(data_),
                            pitch, buffer(), nullptr);
  }
  template <class U> SLMC_HD array_view<const U, 1> reinterpret_as() const {
    int n = int(size_t(extent.size()) * sizeof(T) / sizeof(U));
    int pitch[1] = {1};
    return array_view<const U, 1>(concurrency::extent<1>(n),
                                  reinterpret_cast<const U *>(data_), pitch, buffer(), nullptr);
  }

  SLMC_HD T *data() {
    SLMC_HOST_ONLY(if (!detail::in_cpu_kernel()) detail::host_access();)
    return data_;
  }
  SLMC_HD const T *data() const {
    SLMC_HOST_ONLY(if (!detail::in_cpu_kernel()) detail::host_access();)
    return data_;
  }

  void copy_to(array &dest) const;
  void copy_to(const array_view<T, N> &dest) const;

  operator std::vector<T>() const {
    detail::host_access();
    return std::vector<T>(data_, data_ + extent.size());
  }

private:
  size_t bytes() const { return size_t(extent.size()) * sizeof(T); }

  void allocate(const accelerator_view *av = nullptr,
                access_type cpu_access = access_type_auto,
                const accelerator_view *associated = nullptr) {
    if (av) {
      // A view of the host (the cpu accelerator's, as staging arrays are
      // made, or WARP's and REF's) is usable whatever device kernels run
      // on: every array's memory is shared with the host.
      if (!av->on_host())
        av->check_current("array");
      view_ = *av;
    }
    associated_ = associated ? *associated : view_;
    cpu_access_type = detail::resolve_access(detail::current_backend(), cpu_access);
    for (int i = 0; i < N; ++i)
      if (extent[i] < 0)
        throw runtime_exception("array: negative extent", detail::E_INVALIDARG_CODE);
    detail::check_element_count(extent, "array");
    data_ = static_cast<T *>(detail::allocate_shared(bytes(), "array"));
    try {
      if (data_) detail::check(slmc_memset(data_, 0, bytes()), "array");
      twin_ = detail::allocate_shared(sizeof(array), "array");
    } catch (...) {
      detail::free_shared(data_);
      throw;
    }
    publish();
  }
  /// Copies this object (extent and data pointer) to its twin, which kernels
  /// see instead of this object.
  void publish() {
    std::memcpy(twin_, static_cast<const void *>(this), sizeof(array));
    detail::array_registry::get().add(this, twin_);
  }
  void release() noexcept {
    if (!twin_ && !data_)
      return;
    // Kernels in flight may still use the data.
    if (detail::kernels_pending.load(std::memory_order_relaxed)) {
      slmc_synchronize();
      detail::kernels_pending.store(false, std::memory_order_relaxed);
    }
    if (twin_) detail::array_registry::get().remove(this);
    detail::free_shared(data_);
    detail::free_shared(twin_);
    data_ = nullptr;
    twin_ = nullptr;
  }
  template <class It> void fill(It first) {
    std::copy_n(first, extent.size(), data_);
  }
  template <class It> void fill(It first, It last) {
    size_t n = size_t(std::distance(first, last));
    if (n < size_t(extent.size()))
      throw runtime_exception("array: fewer source elements than the extent",
                              detail::E_INVALIDARG_CODE);
    std::copy_n(first, extent.size(), data_);
  }
  SLMC_HD T &at(ptrdiff_t off) const {
    SLMC_HOST_ONLY(if (!detail::in_cpu_kernel()) detail::host_access();)
    return detail::element(data_, off, buffer());
  }
  SLMC_HD detail::buffer_bounds buffer() const {
    return detail::buffer_bounds(data_, size_t(extent.size()) * sizeof(T));
  }
  // In 32 unsigned bits, as array_view::offset (an extent's size is
  // unsigned int).
  SLMC_HD detail::offset_t offset(const index<N> &idx) const {
    detail::offset_t l = detail::offset_t(idx[0]);
    for (int i = 1; i < N; ++i) l = l * detail::offset_t(extent[i]) + detail::offset_t(idx[i]);
    return l;
  }

  T *data_ = nullptr;
  void *twin_ = nullptr; // device-visible copy of this object
  accelerator_view view_;
  accelerator_view associated_; // a staging array's (else view_)

public:
  /// MSVC's property (read it only).
  access_type cpu_access_type = access_type_read_write;
};

// ---- copy -----------------------------------------------------------------------
// Copies complete before they return (after the kernels launched before them);
// copy_async returns a completed future.
namespace detail {
/// What copies need of views and arrays beyond their public interface.
struct view_access {
  /// The device copy of a view's elements, for a copy that reads it, or
  /// writes it when `write`.
  template <class T, int N> static T *data(const array_view<T, N> &v, bool write) {
    if (v.state_)
      v.state_->device_side(write);
    return v.data_;
  }
  template <class T, int N> static const int *pitch(const array_view<T, N> &v) {
    return v.pitch_;
  }
  template <class T, int N> static void *twin(const array<T, N> &a) { return a.twin_; }
};

/// The device-visible twin of an array object: what a kernel that captured
/// `a` by reference has to use instead of `a` on a GPU (clang refuses
/// by-reference captures of host variables in device lambdas). The lowering
/// of a kernel lambda's by-reference capture of an array `a` (explicit `&a`,
/// or implicit under `[&]`) is: the capture becomes the init-capture
///   slmc_ref_a = ::concurrency::detail::device_ref(a)
/// (by value: a pointer) and every use of `a` in the body `(*slmc_ref_a)`.
template <class T, int N> array<T, N> *device_ref(array<T, N> &a) {
  return static_cast<array<T, N> *>(view_access::twin(a));
}
template <class T, int N> const array<T, N> *device_ref(const array<T, N> &a) {
  return static_cast<const array<T, N> *>(view_access::twin(a));
}

template <class T, int N>
void copy_block(const T *src, const int *sp, T *dst, const int *dp, const extent<N> &e) {
  host_access();
  for_each_row(e, sp, dp, [&](ptrdiff_t os, ptrdiff_t od, size_t n) {
    std::memmove(static_cast<void *>(dst + od), static_cast<const void *>(src + os),
                 n * sizeof(T));
  });
}

inline void check_same_extent(bool same) {
  if (!same)
    throw runtime_exception("copy: the source and destination extents differ",
                            E_INVALIDARG_CODE);
}

template <class It> void check_source_size(It first, It last, size_t needed) {
  if (size_t(std::distance(first, last)) < needed)
    throw runtime_exception("copy: fewer source elements than the destination holds",
                            E_INVALIDARG_CODE);
}

/// Host iterator -> view, row by row.
template <class It, class T, int N> It copy_in(It first, const array_view<T, N> &dest) {
  host_access();
  T *d = view_access::data(dest, true);
  const int *p = view_access::pitch(dest);
  for_each_row(dest.extent, p, p, [&](ptrdiff_t, ptrdiff_t od, size_t n) {
    for (size_t i = 0; i < n; ++i, ++first) d[od + ptrdiff_t(i)] = *first;
  });
  return first;
}

/// View -> host iterator, row by row.
template <class T, int N, class Out> Out copy_out(const array_view<T, N> &src, Out dest) {
  host_access();
  const T *s = view_access::data(src, false);
  const int *p = view_access::pitch(src);
  for_each_row(src.extent, p, p, [&](ptrdiff_t os, ptrdiff_t, size_t n) {
    dest = std::copy_n(s + os, n, dest);
  });
  return dest;
}
} // namespace detail

template <class T, int N>
void array_view<T, N>::copy_to(const array_view<nc_type, N> &dest) const {
  detail::check_same_extent(extent == dest.extent);
  if (state_)
    state_->device_side(false);
  if (dest.state_)
    dest.state_->device_side(true);
  detail::copy_block<nc_type, N>(data_, pitch_, dest.data_, dest.pitch_, extent);
}
template <class T, int N> void array_view<T, N>::copy_to(array<nc_type, N> &dest) const {
  copy_to(array_view<nc_type, N>(dest));
}
template <class T, int N> void array<T, N>::copy_to(array &dest) const {
  array_view<const T, N>(*this).copy_to(dest);
}
template <class T, int N> void array<T, N>::copy_to(const array_view<T, N> &dest) const {
  array_view<const T, N>(*this).copy_to(dest);
}

namespace detail {
template <class T, int N> array_view<T, N> owned_copy(const array<T, N> &a) {
  array_view<T, N> v(a.extent);
  a.copy_to(v);
  return v;
}
} // namespace detail

// Between arrays and views.
template <class T, int N> void copy(const array<T, N> &src, array<T, N> &dest) {
  src.copy_to(dest);
}
template <class T, int N> void copy(const array<T, N> &src, const array_view<T, N> &dest) {
  src.copy_to(dest);
}
template <class T, int N> void copy(const array_view<const T, N> &src, array<T, N> &dest) {
  src.copy_to(dest);
}
template <class T, int N> void copy(const array_view<T, N> &src, array<T, N> &dest) {
  src.copy_to(dest);
}
template <class T, int N>
void copy(const array_view<const T, N> &src, const array_view<T, N> &dest) {
  src.copy_to(dest);
}
template <class T, int N>
void copy(const array_view<T, N> &src, const array_view<T, N> &dest) {
  src.copy_to(dest);
}

// From host iterators: [first, last), or as many elements as `dest` holds.
template <class It, class T, int N,
          class = typename std::enable_if<detail::is_iterator<It>::value>::type>
void copy(It first, It last, array<T, N> &dest) {
  detail::check_source_size(first, last, dest.extent.size());
  detail::copy_in(first, array_view<T, N>(dest));
}
template <class It, class T, int N,
          class = typename std::enable_if<detail::is_iterator<It>::value>::type>
void copy(It first, array<T, N> &dest) {
  detail::copy_in(first, array_view<T, N>(dest));
}
template <class It, class T, int N,
          class = typename std::enable_if<detail::is_iterator<It>::value>::type>
void copy(It first, It last, const array_view<T, N> &dest) {
  detail::check_source_size(first, last, dest.extent.size());
  detail::copy_in(first, dest);
}
template <class It, class T, int N,
          class = typename std::enable_if<detail::is_iterator<It>::value>::type>
void copy(It first, const array_view<T, N> &dest) {
  detail::copy_in(first, dest);
}

// To host iterators.
template <class Out, class T, int N,
          class = typename std::enable_if<detail::is_iterator<Out>::value>::type>
void copy(const array<T, N> &src, Out dest) {
  detail::copy_out(array_view<const T, N>(src), dest);
}
template <class Out, class T, int N,
          class = typename std::enable_if<detail::is_iterator<Out>::value>::type>
void copy(const array_view<T, N> &src, Out dest) {
  detail::copy_out(src, dest);
}

/// Every form of copy, returning a future (complete: the copy is done).
template <class... Args>
auto copy_async(Args &&...args)
    -> decltype(concurrency::copy(std::forward<Args>(args)...), completion_future()) {
  concurrency::copy(std::forward<Args>(args)...);
  return completion_future::ready();
}

// ---- parallel_for_each ------------------------------------------------------
namespace detail {
/// One work-item of a tiled kernel: rebuilds the tiled_index from the
/// work-item builtins and calls the user's kernel.
template <class Kernel, int D0, int D1, int D2> struct tiled_launcher {
  Kernel kernel;

  // Always launched with the tile as its work-group (run_tiled), device x
  // being the last tile dimension: IGC compiles for that shape.
  static constexpr slmc::group_shape slmc_reqd_work_group_size = {
      unsigned(D2 ? D2 : D1 ? D1 : D0), unsigned(D2 ? D1 : D1 ? D0 : 1),
      unsigned(D2 ? D0 : 1)};

  SLMC_HD void operator()() const {
    typedef tiled_index<D0, D1, D2> TI;
    const int r = TI::rank;
    int l[3], t[3], o[3], g[3];
    const int dims[3] = {D0, D1, D2};
    for (int i = 0; i < r; ++i) {
      int d = r - 1 - i; // AMP dimension i is device dimension d
      l[i] = int(slmc::local_id(d));
      // run_tiled launches extent / tile groups of an extent that is an
      // int: every index below is non-negative and fits in an int, which
      // lets the compiler drop the `>= 0` half of extent::contains.
      const uint32_t group = slmc::group_id(d);
      __builtin_assume(group <= uint32_t(INT_MAX / dims[i]));
      t[i] = int(group);
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

  // The fixed shape run_extent launches it with.
  static constexpr slmc::group_shape slmc_reqd_work_group_size =
      N == 1 ? slmc::group_shape{256, 1, 1}
             : N == 2 ? slmc::group_shape{16, 16, 1} : slmc::group_shape{16, 8, 4};

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

/// A simple (non-tiled) kernel on the CPU fallback: such kernels have no
/// barriers and no tile_static data, so one work-item runs a whole range of
/// the extent (in row-major order) in a loop, with no fiber per index.
template <class Kernel, int N> struct cpu_range_launcher {
  Kernel kernel;
  extent<N> domain;
  long long per_item; // indices per work-item
  long long total;    // indices in the extent

  void operator()() const {
    const long long first = (long long)slmc_cpu_current_item()->group_id.x * per_item;
    const long long last = std::min(first + per_item, total);
    index<N> idx;
    long long rest = first;
    for (int d = N - 1; d >= 0; --d) {
      idx[d] = int(rest % domain[d]);
      rest /= domain[d];
    }
    for (long long l = first; l < last; ++l) {
      // Inlined whatever its size: then the accessors' "in a kernel?" test
      // (slmc_cpu_current_item, the same throughout) leaves the loop, which
      // can vectorise.
      [[clang::always_inline]] kernel(idx);
      for (int d = N - 1; d >= 0; --d) { // next index, last dimension fastest
        if (++idx[d] < domain[d] || d == 0) break;
        idx[d] = 0;
      }
    }
  }
};

inline void check_launch(slmc_status s) {
  if (s == SLMC_SUCCESS) {
    if (current_backend() != SLMC_BACKEND_CPU) {
      kernels_pending.store(true, std::memory_order_relaxed);
      gpu_launches.fetch_add(1, std::memory_order_relaxed);
    }
    return;
  }
  std::string m = std::string("parallel_for_each: ") + slmc_last_error();
  if (s == SLMC_ERROR_RESOURCE_LIMIT)
    throw invalid_compute_domain(m.c_str());
  if (s == SLMC_ERROR_OUT_OF_MEMORY)
    throw out_of_memory(m.c_str());
  throw runtime_exception(m.c_str(), E_FAIL_CODE);
}

/// The bytes of a work-item functor as kernels get them: references to
/// arrays point at the arrays' device-visible twins (see array_registry).
template <class F> struct relocated {
  alignas(F) unsigned char bytes[sizeof(F)];
  explicit relocated(const F &f) {
    std::memcpy(bytes, static_cast<const void *>(&f), sizeof(F));
    array_registry::get().relocate(bytes, sizeof(F));
  }
  const F &get() const { return *reinterpret_cast<const F *>(bytes); }
};

/// Launches a work-item functor on the device the runtime chose.
template <class F>
void launch(const F &f, const uint32_t groups[3], const uint32_t size[3]) {
  view_state::before_launch();
  relocated<F> r(f);
  check_launch(slmc::launch(r.get(), slmc_dim3{groups[0], groups[1], groups[2]},
                            slmc_dim3{size[0], size[1], size[2]}));
}

/// Launches a functor that exists for the host only (no device kernel is
/// instantiated); the runtime runs it on the CPU fallback.
template <class F> void launch_host_only(const F &f, uint32_t groups) {
  relocated<F> r(f);
  void *args[1] = {const_cast<F *>(&r.get())};
  size_t sizes[1] = {sizeof(F)};
  slmc_launch_params p{};
  p.group_count = slmc_dim3{groups, 1, 1};
  p.group_size = slmc_dim3{1, 1, 1};
  p.dynamic_group_memory = 0;
  p.num_args = 1;
  p.args = args;
  p.arg_sizes = sizes;
  check_launch(slmc_launch(nullptr, &slmc::cpu_entry<F>, &p));
}

template <int D0, int D1, int D2, class Kernel>
void run_tiled(const tiled_extent<D0, D1, D2> &domain, const Kernel &kernel) {
  const int r = tiled_extent<D0, D1, D2>::rank;
  const int dims[3] = {D0, D1, D2};
  uint32_t groups[3] = {1, 1, 1}, size[3] = {1, 1, 1};
  for (int i = 0; i < r; ++i) {
    if (domain[i] < 0 || domain[i] % dims[i] != 0)
      throw invalid_compute_domain(
          "parallel_for_each: the extent is not a multiple of the tile extent "
          "(use pad() or truncate())");
    if (domain[i] == 0) return;
    groups[r - 1 - i] = uint32_t(domain[i] / dims[i]);
    size[r - 1 - i] = uint32_t(dims[i]);
  }
  launch(tiled_launcher<Kernel, D0, D1, D2>{kernel}, groups, size);
}

template <int N, class Kernel>
void run_extent(const extent<N> &domain, const Kernel &kernel) {
  static_assert(N >= 1 && N <= 3, "parallel_for_each supports ranks 1 to 3");
  constexpr slmc::group_shape s = extent_launcher<Kernel, N>::slmc_reqd_work_group_size;
  const uint32_t shape[3] = {s.x, s.y, s.z};
  uint32_t groups[3] = {1, 1, 1};
  for (int i = 0; i < N; ++i) {
    if (domain[i] < 0)
      throw invalid_compute_domain("parallel_for_each: negative extent");
    if (domain[i] == 0) return;
    int d = N - 1 - i;
    groups[d] = (uint32_t(domain[i]) + shape[d] - 1) / shape[d];
  }
  if (current_backend() == SLMC_BACKEND_CPU) {
    // About 1024 ranges of indices, one per work-item.
    long long total = 1;
    for (int i = 0; i < N; ++i) total *= domain[i];
    const long long per = (total + 1023) / 1024;
    launch_host_only(cpu_range_launcher<Kernel, N>{kernel, domain, per, total},
                     uint32_t((total + per - 1) / per));
    return;
  }
  launch(extent_launcher<Kernel, N>{kernel, domain}, groups, shape);
}
} // namespace detail

// Every overload is marked for slmc's model builder, which finds kernels by
// these annotations; the kernel is always the last argument and the tile
// dimensions the first three template arguments.

template <int D0, int D1, int D2, class Kernel>
SLMC_ENTRY_POINT("amp.parallel_for_each.tiled")
void parallel_for_each(const tiled_extent<D0, D1, D2> &domain, const Kernel &kernel) {
  detail::run_tiled(domain, kernel);
}

template <int D0, int D1, int D2, class Kernel>
SLMC_ENTRY_POINT("amp.parallel_for_each.tiled")
void parallel_for_each(const accelerator_view &av, const tiled_extent<D0, D1, D2> &domain,
                       const Kernel &kernel) {
  av.check_current("parallel_for_each");
  detail::run_tiled(domain, kernel);
}

template <int N, class Kernel>
SLMC_ENTRY_POINT("amp.parallel_for_each")
void parallel_for_each(const extent<N> &domain, const Kernel &kernel) {
  detail::run_extent(domain, kernel);
}

template <int N, class Kernel>
SLMC_ENTRY_POINT("amp.parallel_for_each")
void parallel_for_each(const accelerator_view &av, const extent<N> &domain,
                       const Kernel &kernel) {
  av.check_current("parallel_for_each");
  detail::run_extent(domain, kernel);
}

// ---- direct3d ---------------------------------------------------------------
// The HLSL intrinsics of MSVC's Concurrency::direct3d, with HLSL's meaning on
// every backend (plain integer and float code, so every pass lowers them the
// same way), and its Direct3D interop, which has no Direct3D device to work
// with here and is refused at compile time.
#define SLMC_AMP_NO_D3D(what)                                                  \
  = delete(what ": Direct3D interop needs a Direct3D 11 device, and slmc "     \
                "runs C++ AMP on Level Zero, CUDA or the CPU (no Direct3D)")

} // namespace Concurrency

struct IUnknown; // the COM interface of Direct3D objects (never defined here)

namespace Concurrency {
namespace direct3d {
/// |x|; abs(INT_MIN) is INT_MIN, as HLSL's two's-complement negation gives.
SLMC_HD inline int abs(int x) { return x < 0 ? int(0u - unsigned(x)) : x; }

/// min(max(x, lo), hi) as HLSL computes it (a NaN operand yields the other).
SLMC_HD inline float clamp(float x, float lo, float hi) {
  return __builtin_fminf(__builtin_fmaxf(x, lo), hi);
}
SLMC_HD inline int clamp(int x, int lo, int hi) {
  return x < lo ? (lo < hi ? lo : hi) : (x < hi ? x : hi);
}

/// The number of set bits.
SLMC_HD inline unsigned int countbits(unsigned int x) {
  return unsigned(__builtin_popcount(x));
}

/// The position (0 = least significant) of the highest bit that differs
/// from the sign bit: the highest 1 of a non-negative value, the highest 0
/// of a negative one; -1 for 0 and -1, as HLSL's firstbithigh on int.
SLMC_HD inline int firstbithigh(int x) {
  unsigned u = x < 0 ? ~unsigned(x) : unsigned(x);
  return u == 0 ? -1 : 31 - __builtin_clz(u);
}

/// The position of the lowest set bit; -1 for 0.
SLMC_HD inline int firstbitlow(int x) {
  return x == 0 ? -1 : __builtin_ctz(unsigned(x));
}

SLMC_HD inline int imax(int x, int y) { return x > y ? x : y; }
SLMC_HD inline int imin(int x, int y) { return x < y ? x : y; }
SLMC_HD inline unsigned int umax(unsigned int x, unsigned int y) { return x > y ? x : y; }
SLMC_HD inline unsigned int umin(unsigned int x, unsigned int y) { return x < y ? x : y; }

/// x * y + z (integers wrap, as on Direct3D).
SLMC_HD inline float mad(float x, float y, float z) { return x * y + z; }
SLMC_HD inline double mad(double x, double y, double z) { return x * y + z; }
SLMC_HD inline int mad(int x, int y, int z) {
  return int(unsigned(x) * unsigned(y) + unsigned(z));
}
SLMC_HD inline unsigned int mad(unsigned int x, unsigned int y, unsigned int z) {
  return x * y + z;
}

/// HLSL's noise exists for Direct3D 9 texture shaders only: MSVC's kernels
/// cannot use it either, and slmc has no Perlin noise of the same values.
float noise(float x) = delete(
    "Concurrency::direct3d::noise is HLSL's Perlin noise, which no compute "
    "shader (and no slmc backend) provides; write the noise function in C++");

/// Degrees to radians.
SLMC_HD inline float radians(float x) { return x * 0.0174532925199432958f; }

/// 1 / x.
SLMC_HD inline float rcp(float x) { return 1.0f / x; }
SLMC_HD inline double rcp(double x) { return 1.0 / x; }

/// The bits of x in reverse order.
SLMC_HD inline unsigned int reversebits(unsigned int x) {
  // LLVM makes llvm.bitreverse of it (PTX: brev); for SPIR-V, which lacks
  // OpBitReverse in OpenCL environments, slmc++ turns that back into shifts.
  return __builtin_bitreverse32(x);
}

/// x clamped to [0, 1]; NaN gives 0, as Direct3D's saturate.
SLMC_HD inline float saturate(float x) { return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f; }

/// -1, 0 or 1 (0 for a NaN, which compares neither way).
SLMC_HD inline int sign(int x) { return (x > 0) - (x < 0); }
SLMC_HD inline int sign(float x) { return (x > 0.0f) - (x < 0.0f); }

/// Hermite interpolation between 0 and 1 as x goes from lo to hi: 0 below
/// lo, 1 above hi.
SLMC_HD inline float smoothstep(float lo, float hi, float x) {
  float t = saturate((x - lo) / (hi - lo));
  return t * t * (3.0f - 2.0f * t);
}

/// 1 when x >= y, else 0 (HLSL's argument order: the edge comes first).
SLMC_HD inline float step(float y, float x) { return x >= y ? 1.0f : 0.0f; }

// Direct3D interop.
accelerator_view create_accelerator_view(IUnknown *d3d_device,
                                         queuing_mode qmode = queuing_mode_automatic)
    SLMC_AMP_NO_D3D("create_accelerator_view from a Direct3D device");
/// A view on `acc` whose kernels the Direct3D watchdog would not stop: slmc's
/// backends impose no such timeout (Level Zero: only SLMC_TIMEOUT_MS).
inline accelerator_view create_accelerator_view(accelerator &acc, bool disable_timeout,
                                                queuing_mode qmode = queuing_mode_automatic) {
  accelerator_view av = acc.create_view(qmode);
  av.timeout_disabled_ = disable_timeout;
  return av;
}
inline bool is_timeout_disabled(const accelerator_view &av) { return av.timeout_disabled_; }
IUnknown *get_device(const accelerator_view &av)
    SLMC_AMP_NO_D3D("get_device");
template <class T, int N>
IUnknown *get_buffer(const array<T, N> &a) SLMC_AMP_NO_D3D("get_buffer");
template <class T, int N>
array<T, N> make_array(const extent<N> &e, const accelerator_view &av,
                       IUnknown *d3d_buffer) SLMC_AMP_NO_D3D("make_array");
void d3d_access_lock(accelerator_view &av) SLMC_AMP_NO_D3D("d3d_access_lock");
bool d3d_access_try_lock(accelerator_view &av) SLMC_AMP_NO_D3D("d3d_access_try_lock");
void d3d_access_unlock(accelerator_view &av) SLMC_AMP_NO_D3D("d3d_access_unlock");
struct adopt_d3d_access_lock_t {};
class scoped_d3d_access_lock {
public:
  explicit scoped_d3d_access_lock(accelerator_view &av)
      SLMC_AMP_NO_D3D("scoped_d3d_access_lock");
  scoped_d3d_access_lock(accelerator_view &av, adopt_d3d_access_lock_t)
      SLMC_AMP_NO_D3D("scoped_d3d_access_lock");
};
} // namespace direct3d

} // namespace Concurrency

#endif // SLMC_AMP_H
