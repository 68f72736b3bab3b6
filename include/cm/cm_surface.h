//===- cm/cm_surface.h - SurfaceIndex, shared by kernels and host code ----===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A SurfaceIndex names a buffer. The host gets one from CmBuffer::GetIndex
// (<cm_rt.h>) and passes it with CmKernel::SetKernelArg; the runtime checks
// that it names a live buffer of the device and gives the kernel a fresh
// descriptor of that buffer: its device address and size in bytes. Kernel
// reads beyond `bytes` return zero and writes there are dropped (<cm/cm.h>).
//
// The same trivially copyable struct in every pass and on the host, so a
// kernel argument has the same layout everywhere.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_CM_SURFACE_H
#define SLMC_CM_SURFACE_H

#include <stdint.h>

#if defined(__HIP__) || defined(__CUDA__)
#define SLMC_CM_SURFACE_HD __attribute__((host, device))
#else
#define SLMC_CM_SURFACE_HD
#endif

class SurfaceIndex {
public:
  void *data;     // device address of the buffer (null: no buffer)
  uint32_t bytes; // size of the buffer
  uint32_t index; // the buffer's number on its device (0: none)

  /// The surface's number, as CM's SurfaceIndex::get_data() returns it.
  SLMC_CM_SURFACE_HD uint32_t get_data() const { return index; }
};

#endif // SLMC_CM_SURFACE_H
