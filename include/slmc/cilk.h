//===- slmc/cilk.h - What lowered Cilk Plus offload code runs on ----------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// slmc lowers an offloaded Cilk Plus loop nest to a call of one of these
// templates with the nest's body as a lambda:
//
//   _Cilk_for _Thread_group (ty...) _Cilk_for _Thread_group (tx...) { B }
//     -> thread_groups<threads>(loop(ty...), loop(tx...), [=](ty, tx) { B' })
//   _Cilk_for (i...) S          (offloaded, no thread groups)
//     -> parallel_for(loop(i...), [=](i) { S })
//
// and, inside B', each second-level nest to
//
//   _Cilk_for (i...) _Cilk_for (j...) S  ->  share(loop(i...), loop(j...), [=](i, j) { S })
//
// One iteration of the first-level nest is one work-group; serial code runs
// in every work-item of it (it may not differ between them); share()
// deals the second-level iterations out to the group's work-items.
//
// The same lowered code is the host version: when no offload is active on
// the calling thread (a direct call of a gfx_kernel function, or an
// `if` clause that is false), the nest runs on the calling thread as a
// one-work-item group, share() runs every iteration and barriers return at
// once — a serial execution, which is what Intel's compiler did on the host.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_CILK_H
#define SLMC_CILK_H

#include "slmc/offload.h"
#include "slmc/detail/array_notation.h"
#include "slmc/detail/device_libm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <utility>

// The keywords as plain C++, for the passes after lowering (the check pass
// reads them through slmc/prelude.h instead).
#if !defined(SLMC_PRELUDE_H)
#define _Cilk_for for
#define _Thread_group
#define __thread_group_local
// Cilk Plus's __declspec spellings vanish; MSVC's others (a property, an
// alignment) stay Clang's.
#define SLMC_DECLSPEC_CILK(...)
#include "slmc/detail/cilk_declspec.h"
#endif

// Work-items per thread group, unless the lowering's choice is overridden
// with slmc++ --cilk-group-size=N.
#if defined(SLMC_CILK_GROUP_SIZE)
#define SLMC_CILK_THREADS(derived) SLMC_CILK_GROUP_SIZE
#else
#define SLMC_CILK_THREADS(derived) derived
#endif

namespace slmc {
namespace cilk {

/// True while running as a device work-item (a GPU, or a CPU-fallback
/// fiber); false on the host version of a nest.
SLMC_HD inline bool in_work_item() {
#if defined(SLMC_DEVICE_PASS)
  return true;
#else
  return slmc_cpu_current_item() != nullptr;
#endif
}

/// This work-item's number in its group and the group's size (1-D groups).
SLMC_HD inline uint32_t thread_index() { return in_work_item() ? local_id(0) : 0; }
SLMC_HD inline uint32_t thread_count() { return in_work_item() ? local_size(0) : 1; }

/// The thread that runs initializers of __thread_group_local data.
SLMC_HD inline bool is_master() { return thread_index() == 0; }

/// _gfx_gpgpu_thread_barrier(): a no-op in the host version.
SLMC_HD inline void barrier() { group_barrier(); }

/// A canonical Cilk loop `for (v = first; <count iterations>; v += step)`.
template <class T> struct loop {
  T first;
  long long step;
  unsigned long long count;
  SLMC_HD T at(unsigned long long k) const {
    return (T)((long long)first + (long long)k * step);
  }
};

enum compare { lt, le, gt, ge, ne };

/// The loop `for (v = lo; v <cmp> hi; v += step)`.
template <class T>
SLMC_HD inline loop<T> make_loop(T lo, long long hi, long long step, compare cmp) {
  long long l = (long long)lo;
  unsigned long long n = 0;
  switch (cmp) {
  case lt: n = (step > 0 && l < hi) ? (unsigned long long)((hi - l + step - 1) / step) : 0; break;
  case le: n = (step > 0 && l <= hi) ? (unsigned long long)((hi - l) / step + 1) : 0; break;
  case gt: n = (step < 0 && l > hi) ? (unsigned long long)((l - hi - step - 1) / -step) : 0; break;
  case ge: n = (step < 0 && l >= hi) ? (unsigned long long)((l - hi) / -step + 1) : 0; break;
  case ne: n = (step != 0 && (hi - l) / step > 0) ? (unsigned long long)((hi - l) / step) : 0; break;
  }
  return loop<T>{lo, step, n};
}

// ---- Second-level nests ---------------------------------------------------
// Consecutive iterations go to consecutive work-items, so the innermost
// index varies fastest across the group (coalesced accesses). No barrier
// follows: Cilk Plus programs place _gfx_gpgpu_thread_barrier() themselves.

/// Calls `f(k)` for this work-item's share of the iterations 0 .. n-1.
/// PTX: counted in rounds of the group size, so that with a constant group
/// size (thread_groups<N>) and a constant nest the rounds are a constant
/// trip count: a small copy nest is unrolled completely, its loads all in
/// flight (the loop `k = id; k < n; k += size` has a trip count that
/// depends on the id, which LLVM does not unroll).
template <class F> SLMC_HD inline void deal_out(unsigned long long n, F &&f) {
  const unsigned long long step = thread_count(), first = thread_index();
#if defined(SLMC_PASS_PTX)
  const unsigned long long rounds = (n + step - 1) / step;
  for (unsigned long long r = 0; r < rounds; ++r) {
    const unsigned long long k = r * step + first;
    if (k < n)
      f(k);
  }
#else
  if (n <= 0x7fffffffu) {
    // Counted in 32 bits where the count allows (no wrap: the group is far
    // smaller than 2^31): Intel GPUs emulate 64-bit adds with addc pairs.
    for (uint32_t k = uint32_t(first); k < uint32_t(n); k += uint32_t(step))
      f(k);
    return;
  }
  for (unsigned long long k = first; k < n; k += step)
    f(k);
#endif
}

template <class T0, class F> SLMC_HD inline void share(loop<T0> a, F &&f) {
  deal_out(a.count, [&](unsigned long long k) { f(a.at(k)); });
}

template <class T0, class T1, class F>
SLMC_HD inline void share(loop<T0> a, loop<T1> b, F &&f) {
  deal_out(a.count * b.count,
           [&](unsigned long long k) { f(a.at(k / b.count), b.at(k % b.count)); });
}

template <class T0, class T1, class T2, class F>
SLMC_HD inline void share(loop<T0> a, loop<T1> b, loop<T2> c, F &&f) {
  const unsigned long long bc = b.count * c.count;
  deal_out(a.count * bc, [&](unsigned long long k) {
    f(a.at(k / bc), b.at(k % bc / c.count), c.at(k % c.count));
  });
}

// ---- Group-local data with an initializer ----------------------------------

template <class T> SLMC_HD inline void assign(T &dst, const T &src) { dst = src; }
template <class T, size_t N> SLMC_HD inline void assign(T (&dst)[N], const T (&src)[N]) {
  for (size_t i = 0; i < N; ++i)
    assign(dst[i], src[i]);
}


// ---- Kernels --------------------------------------------------------------
// The functors below are the kernels; their operator() is the work-item.

/// A thread group's size is the lowering's constant (thread_groups<N>). On
/// NVIDIA GPUs every group of up to 1024 threads can be launched as asked
/// (group_threads leaves it alone), so PTX code may rely on the constant:
/// second-level nests then deal iterations out with a constant stride, and
/// a copy loop of a known trip count is unrolled with all its loads in
/// flight, as nvcc makes of a block size fixed in the source. Elsewhere the
/// runtime may launch fewer threads than asked (a device's limit), and the
/// size stays a run-time value.
template <uint32_t Threads> SLMC_HD inline void assume_group_size() {
#if defined(SLMC_PASS_PTX)
  if constexpr (Threads >= 1 && Threads <= 1024) {
    __builtin_assume(__nvvm_read_ptx_sreg_ntid_x() == Threads);
    __builtin_assume(__nvvm_read_ptx_sreg_tid_x() < Threads);
  }
#endif
}

template <uint32_t Threads, class T0, class F> struct group_body1 {
  // The group's size, unless a device's limit is lower (group_threads).
  static constexpr group_shape slmc_expected_work_group_size = {
      Threads >= 1 && Threads <= 1024 ? Threads : 0u, 1, 1};
  loop<T0> l0;
  mutable F f;
  SLMC_HD void operator()() const {
    assume_group_size<Threads>();
    f(l0.at(group_id(0)));
  }
};

template <uint32_t Threads, class T0, class T1, class F> struct group_body2 {
  // The group's size, unless a device's limit is lower (group_threads).
  static constexpr group_shape slmc_expected_work_group_size = {
      Threads >= 1 && Threads <= 1024 ? Threads : 0u, 1, 1};
  loop<T0> l0;
  loop<T1> l1;
  mutable F f;
  SLMC_HD void operator()() const {
    assume_group_size<Threads>();
    f(l0.at(group_id(1)), l1.at(group_id(0)));
  }
};

/// Runs iteration `k` of a perfect nest of `Rank` loops, linearised with
/// the innermost loop fastest.
template <unsigned Rank, class T0, class T1, class T2, class F>
SLMC_HD inline void run_iteration(const loop<T0> &l0, const loop<T1> &l1, const loop<T2> &l2,
                                  unsigned long long k, F &f) {
  if constexpr (Rank == 1)
    f(l0.at(k));
  else if constexpr (Rank == 2)
    f(l0.at(k / l1.count), l1.at(k % l1.count));
  else
    f(l0.at(k / (l1.count * l2.count)), l1.at(k / l2.count % l1.count), l2.at(k % l2.count));
}

/// Work-items of an offloaded plain `_Cilk_for` nest, linearised.
template <unsigned Rank, class T0, class T1, class T2, class F> struct item_body {
  loop<T0> l0;
  loop<T1> l1;
  loop<T2> l2;
  mutable F f;
  SLMC_HD void operator()() const {
    unsigned long long k =
        (unsigned long long)group_id(0) * local_size(0) + local_id(0);
    if (k < l0.count * l1.count * l2.count)
      run_iteration<Rank>(l0, l1, l2, k, f);
  }
};

// Host functions (device passes parse them too, and instantiate the kernels
// they launch).

/// Whether nests started on this thread now go to the device: inside a
/// _GFX_offload task or a `#pragma offload` whose `if` holds.
inline bool offload_active() { return slmc_offload_active() != 0; }

/// How a nest's body sees the pointers it uses and the local arrays it
/// writes. The lowering passes each nest as a function of a pointer_map
/// that makes its body, so one body is made with device addresses for the
/// launch and another with the host's own for the host version.
class pointer_map {
public:
  explicit pointer_map(bool to_device) : ToDevice(to_device) {}
  ~pointer_map() {
    if (Scoped)
      slmc_offload_end();
  }
  pointer_map(const pointer_map &) = delete;
  pointer_map &operator=(const pointer_map &) = delete;

  /// Where the device reaches `*p`; failed() once one cannot be reached.
  template <class T> T *operator()(T *p) {
    if (!ToDevice || !p)
      return p;
    void *d = slmc_device_pointer(const_cast<void *>(static_cast<const void *>(p)));
    if (!d)
      Failed = true;
    return d ? static_cast<T *>(d) : p;
  }
  /// A local array the nest writes is the host's array: it goes to the
  /// device and back around this nest (its own scope: the array may not
  /// outlive the enclosing task).
  template <class T, size_t N> T *array(T (&a)[N]) {
    if (!ToDevice)
      return a;
    if (!Scoped)
      Scoped = slmc_offload_begin() == SLMC_SUCCESS;
    if (!Scoped || slmc_offload_map(static_cast<void *>(a), sizeof a, SLMC_MAP_INOUT) !=
                       SLMC_SUCCESS) {
      Failed = true;
      return a;
    }
    return (*this)(&a[0]);
  }
  bool failed() const { return Failed; }

private:
  bool ToDevice;
  bool Scoped = false;
  bool Failed = false;
};

/// Work-items per group: the lowering's choice, at most the device's limit.
inline uint32_t group_threads(uint32_t wanted) {
  slmc_device_info info;
  if (slmc_get_device_info(&info) == SLMC_SUCCESS && info.max_group_size &&
      wanted > info.max_group_size)
    wanted = (uint32_t)info.max_group_size;
  return wanted ? wanted : 1;
}

/// ICC's GFX_CPU_BACKUP: unset or not 0, offloaded work that no graphics
/// device runs goes to the CPU; 0 makes that an error.
inline bool cpu_backup_allowed() {
  const char *v = getenv("GFX_CPU_BACKUP");
  return !v || strcmp(v, "0") != 0;
}

[[noreturn]] inline void offload_failed(const char *where, const char *why) {
  fprintf(stderr, "slmc: offload of the loop nest at %s failed (%s) and GFX_CPU_BACKUP=0 "
                  "forbids running it on the CPU\n", where, why);
  fflush(stderr);
  exit(EXIT_FAILURE);
}

/// Runs a nest whose body `make` makes: the host version (`host`) when
/// nothing is offloaded; otherwise `device` launches the body made for the
/// device. A nest the device cannot run (a pointer it cannot reach, no
/// image, a limit exceeded) is left to the host version, as Intel's
/// compiler did, with the reason on stderr (the failure stays the thread's
/// last error but does not fail the enclosing _GFX_offload task); the data
/// the device already holds is then updated from the host's results.
template <class Make, class Host, class Device>
inline void run_nest(const char *where, Make &make, Host host, Device device) {
  if (!offload_active()) {
    pointer_map on_host(false);
    auto f = make(on_host);
    return host(f);
  }
  if (!cpu_backup_allowed()) {
    slmc_backend b = SLMC_BACKEND_AUTO;
    if (slmc_get_backend(&b) != SLMC_SUCCESS)
      offload_failed(where, slmc_last_error());
    if (b == SLMC_BACKEND_CPU)
      offload_failed(where, "no graphics device: the CPU fallback is in use");
  }
  const uint64_t mark = slmc_failure_count();
  pointer_map on_device(true);
  auto body = make(on_device);
  if (!on_device.failed() && device(body) == SLMC_SUCCESS)
    return;
  if (!cpu_backup_allowed())
    offload_failed(where, slmc_last_error());
  fprintf(stderr, "slmc: offload of the loop nest at %s failed (%s); running it on the host\n",
          where, slmc_last_error());
  pointer_map on_host(false);
  auto f = make(on_host);
  host(f);
  slmc_offload_ran_on_host(mark);
}

template <uint32_t Threads, class T0, class Make>
inline void thread_groups(const char *where, loop<T0> l0, Make make) {
  using F = decltype(make(std::declval<pointer_map &>()));
  if (!l0.count)
    return;
  run_nest(
      where, make,
      [&](F &f) {
        for (unsigned long long i = 0; i < l0.count; ++i)
          f(l0.at(i));
      },
      [&](F &f) {
        return launch(group_body1<Threads, T0, F>{l0, f}, slmc_dim3{(uint32_t)l0.count, 1, 1},
                      slmc_dim3{group_threads(Threads), 1, 1});
      });
}

template <uint32_t Threads, class T0, class T1, class Make>
inline void thread_groups(const char *where, loop<T0> l0, loop<T1> l1, Make make) {
  using F = decltype(make(std::declval<pointer_map &>()));
  if (!l0.count || !l1.count)
    return;
  run_nest(
      where, make,
      [&](F &f) {
        for (unsigned long long i = 0; i < l0.count; ++i)
          for (unsigned long long j = 0; j < l1.count; ++j)
            f(l0.at(i), l1.at(j));
      },
      [&](F &f) {
        return launch(group_body2<Threads, T0, T1, F>{l0, l1, f},
                      slmc_dim3{(uint32_t)l1.count, (uint32_t)l0.count, 1},
                      slmc_dim3{group_threads(Threads), 1, 1});
      });
}

template <unsigned Rank, class T0, class T1, class T2, class Make>
inline void parallel_items(const char *where, loop<T0> l0, loop<T1> l1, loop<T2> l2,
                           Make &make) {
  using F = decltype(make(std::declval<pointer_map &>()));
  const unsigned long long n = l0.count * l1.count * l2.count;
  if (!n)
    return;
  run_nest(
      where, make,
      [&](F &f) {
        for (unsigned long long k = 0; k < n; ++k)
          run_iteration<Rank>(l0, l1, l2, k, f);
      },
      [&](F &f) {
        const uint32_t threads = group_threads(256);
        return launch(item_body<Rank, T0, T1, T2, F>{l0, l1, l2, f},
                      slmc_dim3{(uint32_t)((n + threads - 1) / threads), 1, 1},
                      slmc_dim3{threads, 1, 1});
      });
}

template <class T0, class Make>
inline void parallel_for(const char *where, loop<T0> l0, Make make) {
  parallel_items<1>(where, l0, loop<int>{0, 1, 1}, loop<int>{0, 1, 1}, make);
}
template <class T0, class T1, class Make>
inline void parallel_for(const char *where, loop<T0> l0, loop<T1> l1, Make make) {
  parallel_items<2>(where, l0, l1, loop<int>{0, 1, 1}, make);
}
template <class T0, class T1, class T2, class Make>
inline void parallel_for(const char *where, loop<T0> l0, loop<T1> l1, loop<T2> l2,
                         Make make) {
  parallel_items<3>(where, l0, l1, l2, make);
}

/// `#pragma offload target(gfx) [if(c)] in|out|inout|pin(v : length(n))`
/// around the offloaded statement.
class offload_scope {
public:
  explicit offload_scope(bool enabled)
      : Active(enabled && slmc_offload_begin() == SLMC_SUCCESS) {}
  ~offload_scope() {
    if (Active)
      slmc_offload_end();
  }
  offload_scope(const offload_scope &) = delete;
  offload_scope &operator=(const offload_scope &) = delete;

  template <class T> void map(T *p, long long length, slmc_map_kind kind) {
    if (Active && p && length > 0)
      slmc_offload_map(const_cast<void *>(static_cast<const void *>(p)),
                       (size_t)length * sizeof(T), kind);
  }
  /// A whole array (a clause without length, or an array the statement
  /// writes that no clause names).
  template <class T, size_t N> void map(T (&a)[N], slmc_map_kind kind) {
    map(&a[0], (long long)N, kind);
  }

private:
  bool Active;
};

} // namespace cilk
} // namespace slmc

#endif // SLMC_CILK_H
