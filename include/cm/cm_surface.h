//===- cm/cm_surface.h - SurfaceIndex, shared by kernels and host code ----===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A SurfaceIndex names a buffer or a 2-D surface. The host gets one from
// CmBuffer::GetIndex or CmSurface2D::GetIndex (<cm_rt.h>) and passes it with
// CmKernel::SetKernelArg; the runtime checks that it names a live surface of
// the device and gives the kernel a fresh descriptor of it: its device
// address and size in bytes, and for a 2-D surface its shape. Kernel reads
// beyond `bytes` return zero and writes there are dropped (<cm/cm.h>).
//
// A 2-D surface is a pitched linear buffer: row r starts `pitch` bytes after
// row r - 1, and a row holds `width` pixels of `pixel` bytes. An NV12
// surface's interleaved UV plane follows its `height` rows of Y, at byte
// pitch * height, with height / 2 rows of width / 2 two-byte UV pixels.
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
  // 2-D surfaces only (all 0 for a buffer):
  uint32_t width;  // pixels per row (of the Y plane for NV12)
  uint32_t height; // rows (of the Y plane for NV12)
  uint32_t pitch;  // bytes from the start of a row to the next
  uint32_t pixel;  // bytes per pixel
  uint32_t planes; // 1, or 2 for NV12 (Y, then UV)
  uint32_t format; // the CM_SURFACE_FORMAT it was created with

  /// The surface's number, as CM's SurfaceIndex::get_data() returns it.
  SLMC_CM_SURFACE_HD uint32_t get_data() const { return index; }
};

#endif // SLMC_CM_SURFACE_H
