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

#endif // SLMC_GFX_GFX_INTRIN_H
