//===- gfx/gfx_intrin.h - Thread-group intrinsics of Cilk Plus offload ----===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The intrinsics Intel's compiler offered inside `_Cilk_for _Thread_group`
// nests. Dimension 0 is the inner (or only) thread-group loop, dimension 1
// the outer one; a group's threads are numbered in dimension 0 only.
// Called from host code (a direct call of a gfx_kernel function runs its
// nest on the host) they describe a one-thread group.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_GFX_GFX_INTRIN_H
#define SLMC_GFX_GFX_INTRIN_H

#include "slmc/cilk.h"

/// Blocks until every thread of the thread group arrives.
SLMC_HD SLMC_ENTRY_POINT("cilk.barrier") inline void _gfx_gpgpu_thread_barrier() {
  ::slmc::cilk::barrier();
}
SLMC_HD SLMC_ENTRY_POINT("cilk.uniform") inline unsigned _gfx_gpgpu_group_count(int dim) {
  return ::slmc::cilk::in_work_item() ? ::slmc::group_count(dim) : 1u;
}
SLMC_HD SLMC_ENTRY_POINT("cilk.uniform") inline unsigned _gfx_gpgpu_group_id(int dim) {
  return ::slmc::cilk::in_work_item() ? ::slmc::group_id(dim) : 0u;
}
SLMC_HD SLMC_ENTRY_POINT("cilk.uniform") inline unsigned _gfx_gpgpu_local_size(int dim) {
  return ::slmc::cilk::in_work_item() ? ::slmc::local_size(dim) : 1u;
}
SLMC_HD SLMC_ENTRY_POINT("cilk.thread_index") inline unsigned _gfx_gpgpu_local_id(int dim) {
  return ::slmc::cilk::in_work_item() ? ::slmc::local_id(dim) : 0u;
}

/// The operations of _gfx_atomic_write_i32 (ICC's names).
enum __GfxAtomicOpType {
  GFX_ATOMIC_ADD,
  GFX_ATOMIC_SUB,
  GFX_ATOMIC_INC,
  GFX_ATOMIC_DEC,
  GFX_ATOMIC_MIN,    // unsigned
  GFX_ATOMIC_MAX,    // unsigned
  GFX_ATOMIC_XCHG,
  GFX_ATOMIC_CMPXCHG,
  GFX_ATOMIC_AND,
  GFX_ATOMIC_OR,
  GFX_ATOMIC_XOR,
  GFX_ATOMIC_MINSINT,
  GFX_ATOMIC_MAXSINT
};

namespace slmc {
namespace cilk {
template <bool Min, class T> SLMC_HD inline T atomic_fetch_extreme(T *p, T v) {
#if defined(__clang__)
  return Min ? __atomic_fetch_min(p, v, __ATOMIC_RELAXED)
             : __atomic_fetch_max(p, v, __ATOMIC_RELAXED);
#else // GCC (the runtime's own tests) has no fetch_min/max builtins
  T old = __atomic_load_n(p, __ATOMIC_RELAXED);
  while ((Min ? v < old : old < v) &&
         !__atomic_compare_exchange_n(p, &old, v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
  return old;
#endif
}
} // namespace cilk
} // namespace slmc

/// Atomically replaces ptr[offset] by `op` of its value and `src0` (`src1`
/// is the replacement of GFX_ATOMIC_CMPXCHG, which stores it only where
/// the value equals `src0`); returns the value before the operation, as
/// the hardware's atomic messages do. Device-wide, relaxed ordering; any
/// memory a kernel can reach (host-shared, device, group-local).
SLMC_HD inline int _gfx_atomic_write_i32(__GfxAtomicOpType op_type, int *ptr,
                                         unsigned int offset, int src0, int src1) {
  int *p = ptr + offset;
  unsigned *u = reinterpret_cast<unsigned *>(p);
  switch (op_type) {
  case GFX_ATOMIC_ADD:
    return __atomic_fetch_add(p, src0, __ATOMIC_RELAXED);
  case GFX_ATOMIC_SUB:
    return __atomic_fetch_sub(p, src0, __ATOMIC_RELAXED);
  case GFX_ATOMIC_INC:
    return __atomic_fetch_add(p, 1, __ATOMIC_RELAXED);
  case GFX_ATOMIC_DEC:
    return __atomic_fetch_sub(p, 1, __ATOMIC_RELAXED);
  case GFX_ATOMIC_MIN:
    return static_cast<int>(::slmc::cilk::atomic_fetch_extreme<true>(u, static_cast<unsigned>(src0)));
  case GFX_ATOMIC_MAX:
    return static_cast<int>(::slmc::cilk::atomic_fetch_extreme<false>(u, static_cast<unsigned>(src0)));
  case GFX_ATOMIC_XCHG:
    return __atomic_exchange_n(p, src0, __ATOMIC_RELAXED);
  case GFX_ATOMIC_CMPXCHG: {
    int expected = src0;
    __atomic_compare_exchange_n(p, &expected, src1, false, __ATOMIC_RELAXED,
                                __ATOMIC_RELAXED);
    return expected;
  }
  case GFX_ATOMIC_AND:
    return __atomic_fetch_and(p, src0, __ATOMIC_RELAXED);
  case GFX_ATOMIC_OR:
    return __atomic_fetch_or(p, src0, __ATOMIC_RELAXED);
  case GFX_ATOMIC_XOR:
    return __atomic_fetch_xor(p, src0, __ATOMIC_RELAXED);
  case GFX_ATOMIC_MINSINT:
    return ::slmc::cilk::atomic_fetch_extreme<true>(p, src0);
  case GFX_ATOMIC_MAXSINT:
    return ::slmc::cilk::atomic_fetch_extreme<false>(p, src0);
  }
  return *p; // not an operation ICC defined: nothing is written
}

// ICC's 2D-image intrinsics read and wrote Gen media surfaces (tiled
// images made by GfxImage2D / _GFX_create_image_2d, gfx_rt.h). slmc has no
// images: code that uses them is an error naming the intrinsic, not a
// program that reads something else.
#define SLMC_GFX_NO_IMAGES                                                      \
  __attribute__((unavailable("slmc does not support Cilk Plus 2D images; read "   \
                             "and write the data through a pointer instead")))
typedef int __gfx_surface_index;
SLMC_HD SLMC_GFX_NO_IMAGES void _gfx_read_2d(__gfx_surface_index img, int col, int row,
                                            void *dst, int dst_width, int dst_height);
SLMC_HD SLMC_GFX_NO_IMAGES void _gfx_write_2d(__gfx_surface_index img, int col, int row,
                                             void *src, int src_width, int src_height);

#endif // SLMC_GFX_GFX_INTRIN_H
