//===- ProgramKernels.cpp - Host object of the program-file tests ---------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Built as a shared object (a CMake MODULE) and packed by ProgramTest.cpp as
// the IMG_Object image of hand-made program files: the CPU entries that
// `slmc++ --emit=program` generates for kernels, written out by hand.
// args[i] points at the value of argument i.
//
//===----------------------------------------------------------------------===//
#include "slmc/runtime.h"

#include <cstdint>

namespace {

uint32_t linearGlobalId() {
  const slmc_cpu_item &I = *slmc_cpu_current_item();
  uint32_t Group = I.group_id.x + I.group_count.x * I.group_id.y;
  uint32_t Local = I.local_id.x + I.local_size.x * I.local_id.y;
  return Group * I.local_size.x * I.local_size.y + Local;
}

} // namespace

// The same source is built twice, the second time with
// SLMC_TEST_VARIANT=1, to tell two loaded programs apart.
#ifndef SLMC_TEST_VARIANT
#define SLMC_TEST_VARIANT 0
#endif

// scale(value8 data, value4 factor): data[id] *= factor (plus the variant).
extern "C" void slmc_cm_cpu_scale(void **Args) {
  int32_t *Data = *static_cast<int32_t **>(Args[0]);
  int32_t Factor = *static_cast<int32_t *>(Args[1]);
  Data[linearGlobalId()] *= Factor + SLMC_TEST_VARIANT;
}

// reverse(value8 data): reverses each group's slice through group-local
// storage and a barrier (thread_local is one copy per running group on the
// CPU fallback, also inside a dlopened object).
extern "C" void slmc_cm_cpu_reverse(void **Args) {
  static thread_local int32_t Shared[256];
  int32_t *Data = *static_cast<int32_t **>(Args[0]);
  const slmc_cpu_item &I = *slmc_cpu_current_item();
  uint32_t N = I.local_size.x;
  uint32_t L = I.local_id.x;
  uint32_t Base = I.group_id.x * N;
  Shared[L] = Data[Base + L];
  slmc_cpu_barrier();
  Data[Base + L] = Shared[N - 1 - L];
}

// ---- C for Metal kernels, as the CPU entries of a program file would run
// them. Compiled here as plain C++ (no slmc++ lowering): <cm/cm.h>'s
// check-only forms serve, cm_slm_init(unsigned) included.
#include <cm/cm.h>

// Thread (x, y) of a thread space writes value + x + 1000 * y at element
// y * width + x.
extern "C" _GENX_MAIN_ void fill(SurfaceIndex out, uint value) {
  uint x = get_thread_origin_x(), y = get_thread_origin_y();
  uint width = cm_group_count(0) * cm_local_size(0);
  write(out, y * width + x, value + x + 1000 * y);
}

// Reverses each thread group's slice of `data` through SLM.
extern "C" _GENX_MAIN_ void group_reverse(SurfaceIndex data) {
  cm_slm_init(1024);
  uint slm = cm_slm_alloc(1024);
  uint n = cm_linear_local_size(), me = cm_linear_local_id();
  uint base = cm_linear_group_id() * n;
  vector<uint, 1> at = me, v;
  read(data, base, at, v);
  cm_slm_write(slm, at, v);
  cm_barrier();
  vector<uint, 1> mirrored = n - 1 - me;
  cm_slm_read(slm, mirrored, v);
  write(data, base, at, v);
}

extern "C" void slmc_cm_cpu_fill(void **Args) {
  fill(*static_cast<SurfaceIndex *>(Args[0]), *static_cast<uint *>(Args[1]));
}
extern "C" void slmc_cm_cpu_group_reverse(void **Args) {
  group_reverse(*static_cast<SurfaceIndex *>(Args[0]));
}
