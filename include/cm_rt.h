//===- cm_rt.h - The C for Metal host API over libslmrt -------------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The host side of C for Metal: the classes and functions of Intel's
// cm_rt.h that programs use to run kernels, written over slmc's runtime
// (slmc/runtime.h), header only. Host programs compile with slmc++ (or any
// C++17 compiler) and link libslmrt.
//
//   CmDevice *device = nullptr;
//   UINT version = 0;
//   CreateCmDevice(device, version);
//   device->LoadProgram(bytes, size, program);   // from slmc++ --emit=program
//   device->CreateKernel(program, "nbody", kernel);
//   device->CreateBuffer(size, buffer); buffer->WriteSurface(host, nullptr);
//   SurfaceIndex *index; buffer->GetIndex(index);
//   kernel->SetKernelArg(0, sizeof(SurfaceIndex), index);
//   device->CreateThreadGroupSpace(threads_w, threads_h, groups_w, groups_h, tgs);
//   device->CreateTask(task); task->AddKernel(kernel);
//   device->CreateQueue(queue); queue->EnqueueWithGroup(task, event, tgs);
//   event->WaitForTaskFinished(); buffer->ReadSurface(host, event);
//
// Mapping to slmc: one CM thread is one work-item. EnqueueWithGroup launches
// the thread-group space as work-groups (threads per group = work-group
// size). Enqueue launches a thread space (or SetThreadCount threads) with
// one thread per work-group, as the media walker has no thread groups.
// Kernels run in order on the device's one queue; events complete when the
// device has finished everything enqueued before them.
//
// Buffers (CreateBuffer) are memory the device and the host both reach.
// BufferUP wraps the caller's memory: kernels use it directly on the CPU
// fallback; on a GPU through a device copy, refreshed from the caller's
// memory at each Enqueue and copied back when the task's event completes
// (WaitForTaskFinished, GetStatus) or the buffer is destroyed.
//
// 2-D surfaces (CreateSurface2D, CreateSurface2DUP) are pitched linear
// memory: rows of width x bytes-per-pixel bytes, GetSurface2DInfo's pitch
// apart (the row size rounded up to 64 bytes). ReadSurface and WriteSurface
// move packed rows (the Stride variants rows `stride` bytes apart); NV12's
// UV plane (height / 2 rows of width bytes) follows its Y plane there as in
// memory. Kernels access them with media block reads and writes (<cm/cm.h>).
//
// Thread spaces run their threads in no particular order: a dependency
// pattern other than CM_NONE_DEPENDENCY is refused (CM_NOT_IMPLEMENTED, with
// slmc_last_error() saying why), never ignored.
//
// Every failure is a CM error code, never an exception or a crash;
// GetCmErrorString(code) names a code and slmc_last_error() explains the
// last runtime failure.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_CM_RT_H
#define SLMC_CM_RT_H

#include "cm/cm_surface.h"
#include "slmc/runtime.h"

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <vector>

typedef int INT;
typedef unsigned int UINT;
typedef uint32_t DWORD;
typedef uint16_t WORD;
typedef uint8_t BYTE;
typedef int BOOL;
// As Intel's Linux header has them: GetExecutionTime(UINT64 &) takes an
// `unsigned long long`.
typedef long long INT64;
typedef unsigned long long UINT64;

// What Intel's Linux header (cm_rt_linux.h) gives host code written for
// Windows first: the sample harnesses' `int _tmain(int, _TCHAR *[])`,
// `__int64`, `_NAME(kernel)` and BOOL's TRUE and FALSE.
#if !defined(_WIN32)
#ifndef _tmain
#define _tmain main
#endif
#ifndef _TCHAR
#define _TCHAR char
#endif
#ifndef __int64
#define __int64 long long
#endif
#endif
#ifndef _NAME
#define _NAME(...) #__VA_ARGS__
#endif
#ifndef TRUE
#define TRUE 1
#endif
#ifndef FALSE
#define FALSE 0
#endif

// ---- Result codes (values as in Intel's CM runtime) --------------------------
#define CM_SUCCESS 0
#define CM_FAILURE -1
#define CM_NOT_IMPLEMENTED -2
#define CM_SURFACE_ALLOCATION_FAILURE -3
#define CM_OUT_OF_HOST_MEMORY -4
#define CM_SURFACE_FORMAT_NOT_SUPPORTED -5
#define CM_EXCEED_SURFACE_AMOUNT -6
#define CM_EXCEED_KERNEL_ARG_AMOUNT -7
#define CM_EXCEED_KERNEL_ARG_SIZE_IN_BYTE -8
#define CM_INVALID_ARG_INDEX -9
#define CM_INVALID_ARG_VALUE -10
#define CM_INVALID_ARG_SIZE -11
#define CM_INVALID_THREAD_INDEX -12
#define CM_INVALID_WIDTH -13
#define CM_INVALID_HEIGHT -14
#define CM_INVALID_DEPTH -15
#define CM_INVALID_COMMON_ISA -16
#define CM_EXCEED_MAX_KERNEL_PER_ENQUEUE -21
#define CM_EXCEED_MAX_KERNEL_SIZE_IN_BYTE -22
#define CM_EXCEED_MAX_THREAD_AMOUNT_PER_ENQUEUE -23
#define CM_INVALID_THREAD_SPACE -25
#define CM_EXCEED_MAX_TIMEOUT -26
#define CM_INVALID_THREAD_GROUP_SPACE -30
#define CM_THREAD_ARG_NOT_ALLOWED -31
#define CM_INVALID_BUFFER_HANDLER -33
#define CM_EXCEED_MAX_SLM_SIZE -34
#define CM_INTEL_GFX_NOTFOUND -40
#define CM_NOT_SET_KERNEL_ARGUMENT -53
/// Codes below this one are the driver's own (Intel's runtime); helpers
/// that turn codes into text test against it.
#define CM_INTERNAL_ERROR_CODE_OFFSET -10000

/// A kernel's name as CreateKernel takes it: CM_KERNEL_FUNCTION(nbody).
#ifndef CM_KERNEL_FUNCTION
#define CM_KERNEL_FUNCTION(...) #__VA_ARGS__
#endif

// The fast-copy API's options: every copy here is complete when it
// returns, blocking or not.
#define CM_FASTCOPY_OPTION_NONBLOCKING 0x00
#define CM_FASTCOPY_OPTION_BLOCKING 0x01
#define CM_FASTCOPY_OPTION_DISABLE_TURBO_BOOST 0x02

#define CM_MAX_TIMEOUT_MS 2000000
#define CM_MAX_THREADSPACE_WIDTH 65535
#define CM_MAX_THREADSPACE_HEIGHT 65535
#define CM_MAX_THREADSPACE_WIDTH_FOR_MW 65535
#define CM_MAX_THREADSPACE_HEIGHT_FOR_MW 65535
#define CM_MAX_2D_SURF_WIDTH 16384
#define CM_MAX_2D_SURF_HEIGHT 16384

/// Formats of 2-D surfaces, with the values of Intel's Linux runtime. Every
/// format listed but YUY2 is supported: a pixel is its bytes (kernels see
/// the bytes as stored; no format conversion), and NV12 is a Y plane
/// followed by an interleaved UV plane. Other values give
/// CM_SURFACE_FORMAT_NOT_SUPPORTED.
typedef enum _CM_SURFACE_FORMAT {
  CM_SURFACE_FORMAT_UNKNOWN = 0,
  CM_SURFACE_FORMAT_A8R8G8B8 = 21,
  CM_SURFACE_FORMAT_X8R8G8B8 = 22,
  CM_SURFACE_FORMAT_A8 = 28,
  CM_SURFACE_FORMAT_A2B10G10R10 = 31,
  CM_SURFACE_FORMAT_A8B8G8R8 = 32,
  CM_SURFACE_FORMAT_R16G16_UNORM = 35,
  CM_SURFACE_FORMAT_A16B16G16R16 = 36,
  CM_SURFACE_FORMAT_P8 = 41,
  CM_SURFACE_FORMAT_R32_UINT = 42,
  CM_SURFACE_FORMAT_R8G8_UNORM = 49,
  CM_SURFACE_FORMAT_L8 = 50,
  CM_SURFACE_FORMAT_R16_SINT = 51,
  CM_SURFACE_FORMAT_R16_UNORM = 56,
  CM_SURFACE_FORMAT_R16_UINT = 57,
  CM_SURFACE_FORMAT_V8U8 = 60,
  CM_SURFACE_FORMAT_R8_UNORM = 61,
  CM_SURFACE_FORMAT_R8_UINT = 62,
  CM_SURFACE_FORMAT_R32_SINT = 71,
  CM_SURFACE_FORMAT_D16 = 80,
  CM_SURFACE_FORMAT_L16 = 81,
  CM_SURFACE_FORMAT_R16_FLOAT = 111,
  CM_SURFACE_FORMAT_A16B16G16R16F = 113,
  CM_SURFACE_FORMAT_R32F = 114,
  CM_SURFACE_FORMAT_R32G32B32A32F = 115,
  CM_SURFACE_FORMAT_YUY2 = 0x32595559, // 'YUY2': packed 4:2:2, not supported
  CM_SURFACE_FORMAT_NV12 = 0x3231564E  // 'NV12'
} CM_SURFACE_FORMAT;

typedef enum _CM_DEPENDENCY_PATTERN {
  CM_NONE_DEPENDENCY = 0,
  CM_WAVEFRONT = 1,
  CM_WAVEFRONT26 = 2,
  CM_VERTICAL_DEPENDENCY = 3,
  CM_HORIZONTAL_DEPENDENCY = 4
} CM_DEPENDENCY_PATTERN;

/// Host allocations for BufferUP and Surface2DUP memory (page aligned).
#define CM_ALIGNED_MALLOC(size, alignment) ::slmc::cmrt::aligned_malloc(size, alignment)
#define CM_ALIGNED_FREE(memory) ::slmc::cmrt::aligned_free(memory)
#define CURRENT_CM_VERSION 700
// The runtime versions CreateCmDevice's `version` is compared with.
#define CM_1_0 100
#define CM_2_0 200
#define CM_2_1 201
#define CM_2_2 202
#define CM_2_3 203
#define CM_2_4 204
#define CM_3_0 300
#define CM_4_0 400
#define CM_5_0 500
#define CM_6_0 600
#define CM_7_0 700
#define CM_DEVICE_CREATE_OPTION_DEFAULT 0

typedef enum _CM_STATUS {
  CM_STATUS_QUEUED = 0,
  CM_STATUS_FLUSHED = 1,
  CM_STATUS_FINISHED = 2,
  CM_STATUS_STARTED = 3,
  CM_STATUS_RESET = 4
} CM_STATUS;

typedef enum _CM_DEVICE_CAP_NAME {
  CAP_KERNEL_COUNT_PER_TASK,
  CAP_KERNEL_BINARY_SIZE,
  CAP_SAMPLER_COUNT,
  CAP_SAMPLER_COUNT_PER_KERNEL,
  CAP_BUFFER_COUNT,
  CAP_SURFACE2D_COUNT,
  CAP_SURFACE3D_COUNT,
  CAP_SURFACE_COUNT_PER_KERNEL,
  CAP_ARG_COUNT_PER_KERNEL,
  CAP_ARG_SIZE_PER_KERNEL,
  CAP_USER_DEFINED_THREAD_COUNT_PER_TASK,
  CAP_HW_THREAD_COUNT,
  CAP_SURFACE2D_FORMAT_COUNT,
  CAP_SURFACE2D_FORMATS,
  CAP_SURFACE3D_FORMAT_COUNT,
  CAP_SURFACE3D_FORMATS,
  CAP_VME_STATE_COUNT,
  CAP_GPU_PLATFORM,
  CAP_GT_PLATFORM,
  CAP_MIN_FREQUENCY,
  CAP_MAX_FREQUENCY,
  CAP_L3_CONFIG,
  CAP_GPU_CURRENT_FREQUENCY,
  CAP_USER_DEFINED_THREAD_COUNT_PER_TASK_NO_THREAD_ARG,
  CAP_USER_DEFINED_THREAD_COUNT_PER_MEDIA_WALKER,
  CAP_USER_DEFINED_THREAD_COUNT_PER_THREAD_GROUP,
  CAP_SURFACE2DUP_COUNT,
  CAP_PLATFORM_INFO,
  CAP_MAX_BUFFER_SIZE,
  CAP_MAX_SUBDEV_COUNT,
  // slmc extensions (uint32_t values):
  CAP_SLMC_MAX_SLM_SIZE = 0x1000,     // bytes of SLM per thread group
  CAP_SLMC_MAX_THREAD_GROUP_WIDTH,    // threads per group, x
  CAP_SLMC_MAX_THREAD_GROUP_HEIGHT,   // threads per group, y
  CAP_SLMC_MAX_THREAD_GROUP_DEPTH,    // threads per group, z
  CAP_SLMC_BACKEND                    // the slmc_backend in use
} CM_DEVICE_CAP_NAME;

class CmDevice;
class CmQueue;
class CmEvent;

/// Marks "no event wanted" in Enqueue calls.
#define CM_NO_EVENT ((CmEvent *)(-1))

// CreateBufferSVM's access flags. Every buffer is coherent at task
// boundaries, and atomics are the device's, whatever the flags.
#define CM_SVM_ACCESS_FLAG_COARSE_GRAINED 0x0
#define CM_SVM_ACCESS_FLAG_FINE_GRAINED (1 << 0)
#define CM_SVM_ACCESS_FLAG_ATOMICS (1 << 1)
#define CM_SVM_ACCESS_FLAG_DEFAULT CM_SVM_ACCESS_FLAG_COARSE_GRAINED

namespace slmc {
namespace cmrt {

/// Launch limits of this implementation (per enqueue and per thread-space
/// dimension); the device's own limits apply to thread groups.
constexpr uint64_t kMaxThreadsPerEnqueue = uint64_t(1) << 26;
constexpr uint32_t kMaxThreadSpaceDim = 65535;
constexpr uint32_t kMaxKernelsPerTask = 64;
constexpr uint32_t kMaxArgs = 255;
constexpr uint32_t kMaxArgBytes = 4096;

inline const char *error_name(int code) {
  switch (code) {
  case CM_SUCCESS: return "CM_SUCCESS";
  case CM_FAILURE: return "CM_FAILURE";
  case CM_NOT_IMPLEMENTED: return "CM_NOT_IMPLEMENTED";
  case CM_SURFACE_ALLOCATION_FAILURE: return "CM_SURFACE_ALLOCATION_FAILURE";
  case CM_OUT_OF_HOST_MEMORY: return "CM_OUT_OF_HOST_MEMORY";
  case CM_SURFACE_FORMAT_NOT_SUPPORTED: return "CM_SURFACE_FORMAT_NOT_SUPPORTED";
  case CM_EXCEED_SURFACE_AMOUNT: return "CM_EXCEED_SURFACE_AMOUNT";
  case CM_EXCEED_KERNEL_ARG_AMOUNT: return "CM_EXCEED_KERNEL_ARG_AMOUNT";
  case CM_EXCEED_KERNEL_ARG_SIZE_IN_BYTE: return "CM_EXCEED_KERNEL_ARG_SIZE_IN_BYTE";
  case CM_INVALID_ARG_INDEX: return "CM_INVALID_ARG_INDEX";
  case CM_INVALID_ARG_VALUE: return "CM_INVALID_ARG_VALUE";
  case CM_INVALID_ARG_SIZE: return "CM_INVALID_ARG_SIZE";
  case CM_INVALID_THREAD_INDEX: return "CM_INVALID_THREAD_INDEX";
  case CM_INVALID_WIDTH: return "CM_INVALID_WIDTH";
  case CM_INVALID_HEIGHT: return "CM_INVALID_HEIGHT";
  case CM_INVALID_DEPTH: return "CM_INVALID_DEPTH";
  case CM_INVALID_COMMON_ISA: return "CM_INVALID_COMMON_ISA";
  case CM_EXCEED_MAX_KERNEL_PER_ENQUEUE: return "CM_EXCEED_MAX_KERNEL_PER_ENQUEUE";
  case CM_EXCEED_MAX_KERNEL_SIZE_IN_BYTE: return "CM_EXCEED_MAX_KERNEL_SIZE_IN_BYTE";
  case CM_EXCEED_MAX_THREAD_AMOUNT_PER_ENQUEUE:
    return "CM_EXCEED_MAX_THREAD_AMOUNT_PER_ENQUEUE";
  case CM_INVALID_THREAD_SPACE: return "CM_INVALID_THREAD_SPACE";
  case CM_EXCEED_MAX_TIMEOUT: return "CM_EXCEED_MAX_TIMEOUT";
  case CM_INVALID_THREAD_GROUP_SPACE: return "CM_INVALID_THREAD_GROUP_SPACE";
  case CM_THREAD_ARG_NOT_ALLOWED: return "CM_THREAD_ARG_NOT_ALLOWED";
  case CM_INVALID_BUFFER_HANDLER: return "CM_INVALID_BUFFER_HANDLER";
  case CM_EXCEED_MAX_SLM_SIZE: return "CM_EXCEED_MAX_SLM_SIZE";
  case CM_INTEL_GFX_NOTFOUND: return "CM_INTEL_GFX_NOTFOUND";
  case CM_NOT_SET_KERNEL_ARGUMENT: return "CM_NOT_SET_KERNEL_ARGUMENT";
  }
  return "CM_UNKNOWN_ERROR";
}

/// One kernel argument as the program's signature lists it.
struct arg_kind {
  bool surface;    // a SurfaceIndex
  uint32_t bytes;  // size of the value
  bool svm = false; // an SVM address (svmptr_t or a pointer)
};

/// Parses "name(surface,value4,...)"; false if malformed.
inline bool parse_signature(const char *sig, std::vector<arg_kind> &out) {
  out.clear();
  const char *open = sig ? std::strchr(sig, '(') : nullptr;
  if (!open)
    return false;
  std::string args(open + 1);
  if (args.empty() || args.back() != ')')
    return false;
  args.pop_back();
  size_t pos = 0;
  while (!args.empty() && pos <= args.size()) {
    size_t comma = args.find(',', pos);
    if (comma == std::string::npos)
      comma = args.size();
    std::string k = args.substr(pos, comma - pos);
    if (k == "surface") {
      out.push_back({true, uint32_t(sizeof(SurfaceIndex))});
    } else if (k == "svm") {
      out.push_back({false, 8, true});
    } else if (k.compare(0, 5, "value") == 0 && k.size() > 5 && k.size() <= 10) {
      uint32_t n = 0;
      for (size_t i = 5; i < k.size(); ++i) {
        if (k[i] < '0' || k[i] > '9')
          return false;
        n = n * 10 + uint32_t(k[i] - '0');
      }
      if (n == 0)
        return false;
      out.push_back({false, n});
    } else {
      return false;
    }
    pos = comma + 1;
  }
  return true;
}

inline void *aligned_malloc(size_t size, size_t alignment) {
  void *p = nullptr;
  if (alignment < sizeof(void *))
    alignment = sizeof(void *);
  return posix_memalign(&p, alignment, size ? size : 1) == 0 ? p : nullptr;
}
inline void aligned_free(void *p) { free(p); }

constexpr CM_SURFACE_FORMAT kSurface2DFormats[] = {
    CM_SURFACE_FORMAT_A8R8G8B8,      CM_SURFACE_FORMAT_X8R8G8B8,
    CM_SURFACE_FORMAT_A8,            CM_SURFACE_FORMAT_A2B10G10R10,
    CM_SURFACE_FORMAT_A8B8G8R8,      CM_SURFACE_FORMAT_R16G16_UNORM,
    CM_SURFACE_FORMAT_A16B16G16R16,  CM_SURFACE_FORMAT_P8,
    CM_SURFACE_FORMAT_R32_UINT,      CM_SURFACE_FORMAT_R8G8_UNORM,
    CM_SURFACE_FORMAT_L8,            CM_SURFACE_FORMAT_R16_SINT,
    CM_SURFACE_FORMAT_R16_UNORM,     CM_SURFACE_FORMAT_R16_UINT,
    CM_SURFACE_FORMAT_V8U8,          CM_SURFACE_FORMAT_R8_UNORM,
    CM_SURFACE_FORMAT_R8_UINT,       CM_SURFACE_FORMAT_R32_SINT,
    CM_SURFACE_FORMAT_D16,           CM_SURFACE_FORMAT_L16,
    CM_SURFACE_FORMAT_R16_FLOAT,     CM_SURFACE_FORMAT_A16B16G16R16F,
    CM_SURFACE_FORMAT_R32F,          CM_SURFACE_FORMAT_R32G32B32A32F,
    CM_SURFACE_FORMAT_NV12};
constexpr uint32_t kSurface2DFormatCount =
    uint32_t(sizeof(kSurface2DFormats) / sizeof(kSurface2DFormats[0]));

/// Bytes per pixel of a supported 2-D format, else 0.
inline uint32_t pixel_bytes(CM_SURFACE_FORMAT f) {
  switch (f) {
  case CM_SURFACE_FORMAT_R32G32B32A32F: return 16;
  case CM_SURFACE_FORMAT_A16B16G16R16:
  case CM_SURFACE_FORMAT_A16B16G16R16F: return 8;
  case CM_SURFACE_FORMAT_A8R8G8B8:
  case CM_SURFACE_FORMAT_X8R8G8B8:
  case CM_SURFACE_FORMAT_A8B8G8R8:
  case CM_SURFACE_FORMAT_A2B10G10R10:
  case CM_SURFACE_FORMAT_R16G16_UNORM:
  case CM_SURFACE_FORMAT_R32F:
  case CM_SURFACE_FORMAT_R32_UINT:
  case CM_SURFACE_FORMAT_R32_SINT: return 4;
  case CM_SURFACE_FORMAT_R8G8_UNORM:
  case CM_SURFACE_FORMAT_R16_SINT:
  case CM_SURFACE_FORMAT_R16_UNORM:
  case CM_SURFACE_FORMAT_R16_UINT:
  case CM_SURFACE_FORMAT_V8U8:
  case CM_SURFACE_FORMAT_D16:
  case CM_SURFACE_FORMAT_L16:
  case CM_SURFACE_FORMAT_R16_FLOAT: return 2;
  case CM_SURFACE_FORMAT_R8_UINT:
  case CM_SURFACE_FORMAT_R8_UNORM:
  case CM_SURFACE_FORMAT_A8:
  case CM_SURFACE_FORMAT_L8:
  case CM_SURFACE_FORMAT_P8:
  case CM_SURFACE_FORMAT_NV12: return 1;
  default: return 0;
  }
}

/// The layout of a 2-D surface: checks the arguments (a CM error code).
struct layout2d {
  uint32_t pixel = 0, pitch = 0, rows = 0; // rows: of every plane
  uint32_t row_bytes = 0;                  // packed bytes of a row
  uint64_t bytes = 0;                      // pitch * rows
};
inline int layout_of(UINT width, UINT height, CM_SURFACE_FORMAT format, layout2d &l) {
  l = layout2d();
  l.pixel = pixel_bytes(format);
  if (!l.pixel)
    return CM_SURFACE_FORMAT_NOT_SUPPORTED;
  const bool nv12 = format == CM_SURFACE_FORMAT_NV12;
  if (width == 0 || width > CM_MAX_2D_SURF_WIDTH || (nv12 && width % 2))
    return CM_INVALID_WIDTH;
  if (height == 0 || height > CM_MAX_2D_SURF_HEIGHT || (nv12 && height % 2))
    return CM_INVALID_HEIGHT;
  l.row_bytes = width * l.pixel;
  l.pitch = (l.row_bytes + 63u) & ~63u;
  l.rows = nv12 ? height + height / 2 : height;
  l.bytes = uint64_t(l.pitch) * l.rows;
  return CM_SUCCESS;
}

/// A buffer or 2-D surface as the device tracks it.
struct surface_record {
  SurfaceIndex index{};  // what GetIndex hands out (index.index = slot + 1)
  void *memory = nullptr; // what kernels see
  void *user = nullptr;   // BufferUP, SVM: the caller's memory
  uint32_t bytes = 0;
  bool live = false;
  bool pending_copy_back = false; // BufferUP on a GPU, kernels enqueued
  layout2d shape;                 // 2-D surfaces: shape.pixel != 0
  CM_SURFACE_FORMAT format = CM_SURFACE_FORMAT_UNKNOWN;
  UINT width = 0, height = 0;
  bool svm = false; // CreateBufferSVM's: kernels get addresses into it
};

} // namespace cmrt
} // namespace slmc

// ---- Thread spaces -------------------------------------------------------

class CmThreadSpace {
public:
  /// Only CM_NONE_DEPENDENCY: slmc runs a thread space's threads in no
  /// particular order, so a pattern that orders them is refused rather than
  /// silently ignored.
  INT SelectThreadDependencyPattern(CM_DEPENDENCY_PATTERN pattern) {
    if (pattern == CM_NONE_DEPENDENCY)
      return CM_SUCCESS;
    slmc_report_error(SLMC_ERROR_INVALID_VALUE,
                      "CmThreadSpace::SelectThreadDependencyPattern: slmc runs the "
                      "threads of a thread space in no particular order; only "
                      "CM_NONE_DEPENDENCY is supported (order dependent threads "
                      "with separate enqueues)");
    return CM_NOT_IMPLEMENTED;
  }
  UINT width() const { return width_; }
  UINT height() const { return height_; }

private:
  friend class CmDevice;
  CmThreadSpace(UINT w, UINT h) : width_(w), height_(h) {}
  UINT width_, height_;
};

class CmThreadGroupSpace {
public:
  void GetThreadGroupSpaceSize(UINT &thread_w, UINT &thread_h, UINT &group_w,
                               UINT &group_h) const {
    thread_w = threads_.x, thread_h = threads_.y;
    group_w = groups_.x, group_h = groups_.y;
  }
  slmc_dim3 threads() const { return threads_; }
  slmc_dim3 groups() const { return groups_; }

private:
  friend class CmDevice;
  CmThreadGroupSpace(slmc_dim3 t, slmc_dim3 g) : threads_(t), groups_(g) {}
  slmc_dim3 threads_, groups_;
};

// ---- Buffers -------------------------------------------------------------

class CmBuffer {
public:
  INT GetIndex(SurfaceIndex *&index);
  /// Copies the buffer to `sys_mem` (at least its size), after `event`.
  INT ReadSurface(unsigned char *sys_mem, CmEvent *event,
                  UINT64 sys_mem_size = 0xFFFFFFFFFFFFFFFFULL);
  /// Copies `sys_mem` (at least the buffer's size) into the buffer.
  INT WriteSurface(const unsigned char *sys_mem, CmEvent *event,
                   UINT64 sys_mem_size = 0xFFFFFFFFFFFFFFFFULL);
  /// Fills the buffer with a 32-bit value.
  INT InitSurface(const DWORD init_value, CmEvent *event);

private:
  friend class CmDevice;
  CmBuffer(CmDevice *d, uint32_t slot) : device_(d), slot_(slot) {}
  CmDevice *device_;
  uint32_t slot_;
};

class CmBufferUP {
public:
  INT GetIndex(SurfaceIndex *&index);

private:
  friend class CmDevice;
  CmBufferUP(CmDevice *d, uint32_t slot) : device_(d), slot_(slot) {}
  CmDevice *device_;
  uint32_t slot_;
};

/// Shared virtual memory: kernels take its address (an svmptr_t or pointer
/// argument, set to GetAddress's value or an address inside) and read it
/// with cm_svm_* (<cm/cm_svm.h>). Memory the runtime allocates is shared
/// by the host and the device. Memory the caller gives is used in place on
/// the CPU fallback; on a GPU slmc keeps a device copy, written before each
/// task that takes an address inside it and read back when the host waits
/// (as for CmBufferUP), and kernels receive the copy's addresses. Addresses
/// stored inside the memory itself are not moved to the copy.
class CmBufferSVM {
public:
  INT GetIndex(SurfaceIndex *&index);
  INT GetAddress(void *&address);

private:
  friend class CmDevice;
  CmBufferSVM(CmDevice *d, uint32_t slot) : device_(d), slot_(slot) {}
  CmDevice *device_;
  uint32_t slot_;
};

// ---- 2-D surfaces ------------------------------------------------------------

class CmSurface2D {
public:
  INT GetIndex(SurfaceIndex *&index);
  /// Copies the surface to `sys_mem` as packed rows, after `event`.
  INT ReadSurface(unsigned char *sys_mem, CmEvent *event,
                  UINT64 sys_mem_size = 0xFFFFFFFFFFFFFFFFULL) {
    return copy(sys_mem, nullptr, event, 0, sys_mem_size);
  }
  /// Copies packed rows from `sys_mem` into the surface.
  INT WriteSurface(const unsigned char *sys_mem, CmEvent *event,
                   UINT64 sys_mem_size = 0xFFFFFFFFFFFFFFFFULL) {
    return copy(nullptr, sys_mem, event, 0, sys_mem_size);
  }
  /// The same with rows `stride` bytes apart in `sys_mem`.
  INT ReadSurfaceStride(unsigned char *sys_mem, CmEvent *event, const UINT stride,
                        UINT64 sys_mem_size = 0xFFFFFFFFFFFFFFFFULL) {
    return copy(sys_mem, nullptr, event, stride, sys_mem_size);
  }
  INT WriteSurfaceStride(const unsigned char *sys_mem, CmEvent *event,
                         const UINT stride,
                         UINT64 sys_mem_size = 0xFFFFFFFFFFFFFFFFULL) {
    return copy(nullptr, sys_mem, event, stride, sys_mem_size);
  }
  /// Fills every pixel's bytes with a repeated 32-bit value.
  INT InitSurface(const DWORD init_value, CmEvent *event);
  INT GetSurfaceDesc(UINT &width, UINT &height, CM_SURFACE_FORMAT &format,
                     UINT &size_per_pixel);

private:
  friend class CmDevice;
  CmSurface2D(CmDevice *d, uint32_t slot) : device_(d), slot_(slot) {}
  friend class CmQueue;
  /// Copies between the surface and host rows `stride` bytes apart (0:
  /// packed); NV12's UV rows start at host row `height_stride` (0: height).
  INT copy(unsigned char *to, const unsigned char *from, CmEvent *event, UINT stride,
           UINT64 size, UINT height_stride = 0);
  CmDevice *device_;
  uint32_t slot_;
};

/// A 2-D surface in the caller's memory, laid out with GetSurface2DInfo's
/// pitch (as BufferUP: on a GPU through a device copy).
class CmSurface2DUP {
public:
  INT GetIndex(SurfaceIndex *&index);

private:
  friend class CmDevice;
  CmSurface2DUP(CmDevice *d, uint32_t slot) : device_(d), slot_(slot) {}
  CmDevice *device_;
  uint32_t slot_;
};

// ---- Programs, kernels, tasks ----------------------------------------------

class CmProgram {
private:
  friend class CmDevice;
  friend class CmKernel;
  explicit CmProgram(slmc_program *p) : program_(p) {}
  slmc_program *program_;
  int kernels_ = 0;        // live kernels made from it
  bool destroyed_ = false; // DestroyProgram called while kernels lived
};

class CmKernel {
public:
  /// Threads for Enqueue without a thread space.
  INT SetThreadCount(UINT count) {
    if (count == 0 || count > slmc::cmrt::kMaxThreadsPerEnqueue)
      return CM_INVALID_ARG_VALUE;
    thread_count_ = count;
    return CM_SUCCESS;
  }
  /// Argument `index` of the kernel: a SurfaceIndex (size
  /// sizeof(SurfaceIndex)) for a surface parameter, else a value of exactly
  /// the parameter's size. The value is copied now.
  INT SetKernelArg(UINT index, size_t size, const void *value);
  /// Per-thread arguments need the media walker's payload: not supported.
  INT SetThreadArg(UINT, UINT, size_t, const void *) { return CM_NOT_IMPLEMENTED; }
  INT AssociateThreadSpace(CmThreadSpace *&ts) {
    thread_space_ = ts;
    return CM_SUCCESS;
  }
  INT AssociateThreadGroupSpace(CmThreadGroupSpace *&tgs) {
    group_space_ = tgs;
    return CM_SUCCESS;
  }
  INT GetThreadCount(UINT &count) const {
    count = thread_count_;
    return CM_SUCCESS;
  }

private:
  friend class CmDevice;
  friend class CmQueue;
  CmKernel(CmDevice *d, CmProgram *p) : device_(d), program_(p) {}

  CmDevice *device_;
  CmProgram *program_;
  std::string name_;
  const void *handle_ = nullptr;
  slmc_cpu_kernel_fn cpu_ = nullptr;
  slmc_cpu_group_fn cpu_group_ = nullptr; // its thread groups as loops
  std::vector<slmc::cmrt::arg_kind> kinds_;
  std::vector<std::vector<unsigned char>> values_;
  std::vector<bool> set_;
  UINT thread_count_ = 0;
  CmThreadSpace *thread_space_ = nullptr;
  CmThreadGroupSpace *group_space_ = nullptr;
};

class CmTask {
public:
  INT AddKernel(CmKernel *kernel) {
    if (!kernel)
      return CM_INVALID_ARG_VALUE;
    if (kernels_.size() >= slmc::cmrt::kMaxKernelsPerTask)
      return CM_EXCEED_MAX_KERNEL_PER_ENQUEUE;
    kernels_.push_back(kernel);
    return CM_SUCCESS;
  }
  INT Reset() {
    kernels_.clear();
    return CM_SUCCESS;
  }
  /// Kernels of a task already run one after the other.
  INT AddSync() { return CM_SUCCESS; }

private:
  friend class CmDevice;
  friend class CmQueue;
  std::vector<CmKernel *> kernels_;
};

// ---- Events and the queue ----------------------------------------------------

class CmEvent {
public:
  /// Waits until the task (and everything enqueued before it) finished.
  INT WaitForTaskFinished(DWORD timeout_ms = CM_MAX_TIMEOUT_MS);
  /// The task's state; asking completes it (the runtime has no finer query).
  INT GetStatus(CM_STATUS &status);
  /// Nanoseconds from the enqueue to the task's end: when the enqueue
  /// returned on the CPU fallback (which runs the task there), else when
  /// its completion was first observed. Waits for the task, as the time
  /// exists only once it finished.
  INT GetExecutionTime(UINT64 &time) {
    INT r = finish();
    time = elapsed_ns_;
    return r;
  }

private:
  friend class CmQueue;
  friend class CmDevice;
  explicit CmEvent(CmDevice *d) : device_(d) {}
  INT finish();

  CmDevice *device_;
  bool done_ = false;
  INT result_ = CM_SUCCESS;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point end_{}; // set when known at enqueue
  bool ended_ = false;
  UINT64 elapsed_ns_ = 0;
};

class CmQueue {
public:
  /// Runs the task's kernels over a thread space (ts, else each kernel's
  /// associated one), or SetThreadCount threads; one thread per group.
  INT Enqueue(CmTask *task, CmEvent *&event, const CmThreadSpace *ts = nullptr);
  /// Runs the task's kernels over a thread-group space (tgs, else each
  /// kernel's associated one).
  INT EnqueueWithGroup(CmTask *task, CmEvent *&event,
                       const CmThreadGroupSpace *tgs = nullptr);
  INT DestroyEvent(CmEvent *&event);

  /// Surface copies in queue order: each waits for the kernels enqueued
  /// before it and is complete when it returns (so is its event).
  INT EnqueueCopyCPUToGPU(CmSurface2D *surface, const unsigned char *sys_mem,
                          CmEvent *&event) {
    return EnqueueCopyCPUToGPUFullStride(surface, sys_mem, 0, 0, 0, event);
  }
  INT EnqueueCopyGPUToCPU(CmSurface2D *surface, unsigned char *sys_mem, CmEvent *&event) {
    return EnqueueCopyGPUToCPUFullStride(surface, sys_mem, 0, 0, 0, event);
  }
  INT EnqueueCopyCPUToGPUStride(CmSurface2D *surface, const unsigned char *sys_mem,
                                const UINT stride, CmEvent *&event) {
    return EnqueueCopyCPUToGPUFullStride(surface, sys_mem, stride, 0, 0, event);
  }
  INT EnqueueCopyGPUToCPUStride(CmSurface2D *surface, unsigned char *sys_mem,
                                const UINT stride, CmEvent *&event) {
    return EnqueueCopyGPUToCPUFullStride(surface, sys_mem, stride, 0, 0, event);
  }
  /// Rows `width_stride` bytes apart; NV12's UV plane from row
  /// `height_stride` of the host memory.
  INT EnqueueCopyCPUToGPUFullStride(CmSurface2D *surface, const unsigned char *sys_mem,
                                    const UINT width_stride, const UINT height_stride,
                                    const UINT option, CmEvent *&event);
  INT EnqueueCopyGPUToCPUFullStride(CmSurface2D *surface, unsigned char *sys_mem,
                                    const UINT width_stride, const UINT height_stride,
                                    const UINT option, CmEvent *&event);
  INT EnqueueInitSurface2D(CmSurface2D *surface, const DWORD init_value,
                           CmEvent *&event);
  /// One 2-D surface into another of the same width, height and format.
  INT EnqueueCopyGPUToGPU(CmSurface2D *dst, CmSurface2D *src, UINT option,
                          CmEvent *&event);
  /// `size` bytes of host memory (the fast-copy API's CPU-to-CPU copy).
  INT EnqueueCopyCPUToCPU(unsigned char *dst, unsigned char *src, UINT size, UINT option,
                          CmEvent *&event);

private:
  friend class CmDevice;
  explicit CmQueue(CmDevice *d) : device_(d) {}

  INT launch(CmKernel *k, slmc_dim3 groups, slmc_dim3 size);
  INT begin_task(CmTask *task);
  /// The event of a task that started at `start`; `ran` when the task is
  /// complete on return (copies; every task on the CPU fallback).
  INT end_task(CmEvent *&event, INT result, std::chrono::steady_clock::time_point start,
               bool ran = false);
  CmDevice *device_;
};

// ---- The device ---------------------------------------------------------------

class CmDevice {
public:
  INT CreateBuffer(UINT size, CmBuffer *&buffer);
  INT CreateBufferUP(UINT size, void *sys_mem, CmBufferUP *&buffer);
  INT DestroySurface(CmBuffer *&buffer);
  INT DestroyBufferUP(CmBufferUP *&buffer);
  /// `size` bytes of shared virtual memory: at `sys_mem` when it is not
  /// null (16-byte aligned), else allocated, and `sys_mem` set to it.
  INT CreateBufferSVM(UINT size, void *&sys_mem, UINT access_flag,
                      CmBufferSVM *&buffer);
  INT DestroyBufferSVM(CmBufferSVM *&buffer);

  /// A width x height surface of `format` (see CM_SURFACE_FORMAT).
  INT CreateSurface2D(UINT width, UINT height, CM_SURFACE_FORMAT format,
                      CmSurface2D *&surface);
  /// A surface in `sys_mem`, GetSurface2DInfo's physical size at least.
  INT CreateSurface2DUP(UINT width, UINT height, CM_SURFACE_FORMAT format,
                        void *sys_mem, CmSurface2DUP *&surface);
  INT DestroySurface(CmSurface2D *&surface);
  INT DestroySurface2DUP(CmSurface2DUP *&surface);
  /// The row pitch and total size in bytes a 2-D surface has (and a
  /// Surface2DUP's memory must have).
  INT GetSurface2DInfo(UINT width, UINT height, CM_SURFACE_FORMAT format,
                       UINT &pitch, UINT &physical_size);

  /// Loads a program file written by `slmc++ --emit=program`.
  INT LoadProgram(void *code, const UINT size, CmProgram *&program,
                  const char *options = nullptr);
  INT DestroyProgram(CmProgram *&program);
  INT CreateKernel(CmProgram *program, const char *name, CmKernel *&kernel,
                   const char *options = nullptr);
  INT DestroyKernel(CmKernel *&kernel);

  INT CreateTask(CmTask *&task);
  INT DestroyTask(CmTask *&task);
  INT CreateQueue(CmQueue *&queue);

  INT CreateThreadSpace(UINT width, UINT height, CmThreadSpace *&ts);
  INT DestroyThreadSpace(CmThreadSpace *&ts);
  INT CreateThreadGroupSpace(UINT thread_w, UINT thread_h, UINT group_w,
                             UINT group_h, CmThreadGroupSpace *&tgs) {
    return CreateThreadGroupSpaceEx(thread_w, thread_h, 1, group_w, group_h, 1, tgs);
  }
  INT CreateThreadGroupSpaceEx(UINT thread_w, UINT thread_h, UINT thread_d,
                               UINT group_w, UINT group_h, UINT group_d,
                               CmThreadGroupSpace *&tgs);
  INT DestroyThreadGroupSpace(CmThreadGroupSpace *&tgs);

  /// Device capabilities; `size` is the room at `value` and becomes the
  /// size written.
  INT GetCaps(CM_DEVICE_CAP_NAME name, size_t &size, void *value);

  // Kernel printf is not supported; these exist so programs build.
  INT InitPrintBuffer(size_t = 0) { return CM_SUCCESS; }
  INT FlushPrintBuffer() { return CM_SUCCESS; }

  ~CmDevice();

private:
  friend INT CreateCmDevice(CmDevice *&, UINT &, void *, UINT);
  friend class CmBuffer;
  friend class CmBufferUP;
  friend class CmBufferSVM;
  friend class CmSurface2D;
  friend class CmSurface2DUP;
  friend class CmKernel;
  friend class CmQueue;
  friend class CmEvent;
  CmDevice() = default;
  INT init() {
    if (slmc_get_device_info(&info_) != SLMC_SUCCESS)
      return CM_INTEL_GFX_NOTFOUND;
    queue_.reset(new (std::nothrow) CmQueue(this));
    return queue_ ? CM_SUCCESS : CM_OUT_OF_HOST_MEMORY;
  }

  /// The live surface in `slot`, or null. Records never move (the deque
  /// grows at its end without moving them), so the SurfaceIndex that
  /// GetIndex hands out stays valid while more surfaces are created, by
  /// this thread or another.
  slmc::cmrt::surface_record *surface(uint32_t slot) {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    return slot < surfaces_.size() && surfaces_[slot].live ? &surfaces_[slot] : nullptr;
  }
  /// What GetIndex hands out for the surface in `slot`.
  INT index_of(uint32_t slot, SurfaceIndex *&index) {
    slmc::cmrt::surface_record *s = surface(slot);
    index = s ? &s->index : nullptr;
    return s ? CM_SUCCESS : CM_INVALID_BUFFER_HANDLER;
  }
  /// The live SVM buffer of the caller's memory that `address` points
  /// into (or just past), or null.
  slmc::cmrt::surface_record *svm_of(uint64_t address) {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    for (auto &s : surfaces_)
      if (s.live && s.svm && s.user && address >= uint64_t(uintptr_t(s.user)) &&
          address - uint64_t(uintptr_t(s.user)) <= s.bytes)
        return &s;
    return nullptr;
  }
  /// The live surface a SurfaceIndex value names, or null.
  slmc::cmrt::surface_record *surface_of(const SurfaceIndex &i) {
    return i.index ? surface(i.index - 1) : nullptr;
  }
  INT new_surface(UINT size, void *user, uint32_t &slot);
  INT new_surface2d(UINT width, UINT height, CM_SURFACE_FORMAT format, void *user,
                    uint32_t &slot);
  INT destroy_surface(uint32_t slot);
  /// Destroys `object` if this device made it (it is in `owned`).
  template <class T>
  INT destroy_owned(std::vector<std::unique_ptr<T>> &owned, T *&object);
  /// Waits for the device and copies BufferUP results back.
  INT synchronize();
  bool gpu() const { return info_.backend != SLMC_BACKEND_CPU; }
  void release_program(CmProgram *p);

  slmc_device_info info_{};
  std::recursive_mutex mutex_;
  std::deque<slmc::cmrt::surface_record> surfaces_;
  std::vector<std::unique_ptr<CmBuffer>> buffers_;
  std::vector<std::unique_ptr<CmBufferUP>> buffers_up_;
  std::vector<std::unique_ptr<CmBufferSVM>> buffers_svm_;
  std::vector<std::unique_ptr<CmSurface2D>> surfaces2d_;
  std::vector<std::unique_ptr<CmSurface2DUP>> surfaces2d_up_;
  std::vector<std::unique_ptr<CmProgram>> programs_;
  std::vector<std::unique_ptr<CmKernel>> kernels_;
  std::vector<std::unique_ptr<CmTask>> tasks_;
  std::vector<std::unique_ptr<CmThreadSpace>> spaces_;
  std::vector<std::unique_ptr<CmThreadGroupSpace>> group_spaces_;
  std::vector<std::unique_ptr<CmEvent>> events_;
  std::unique_ptr<CmQueue> queue_;
};

namespace slmc {
namespace cmrt {
template <class T> inline bool erase_owned(std::vector<std::unique_ptr<T>> &v, T *p) {
  for (size_t i = 0; i < v.size(); ++i)
    if (v[i].get() == p) {
      v.erase(v.begin() + i);
      return true;
    }
  return false;
}
template <class T> inline bool owns(const std::vector<std::unique_ptr<T>> &v, const T *p) {
  for (const auto &e : v)
    if (e.get() == p)
      return true;
  return false;
}
} // namespace cmrt
} // namespace slmc

/// Creates the device: the one slmc's runtime chose (SLMC_DEVICE, else the
/// best present). `version` receives CURRENT_CM_VERSION.
inline INT CreateCmDevice(CmDevice *&device, UINT &version, void * = nullptr,
                          UINT = CM_DEVICE_CREATE_OPTION_DEFAULT) {
  device = nullptr;
  CmDevice *d = new (std::nothrow) CmDevice;
  if (!d)
    return CM_OUT_OF_HOST_MEMORY;
  if (INT r = d->init()) {
    delete d;
    return r;
  }
  version = CURRENT_CM_VERSION;
  device = d;
  return CM_SUCCESS;
}

/// Waits for the device, frees everything the device created and sets
/// `device` to null.
inline INT DestroyCmDevice(CmDevice *&device) {
  if (!device)
    return CM_FAILURE;
  delete device;
  device = nullptr;
  return CM_SUCCESS;
}

/// The name of a CM result code.
inline const char *GetCmErrorString(int code) { return slmc::cmrt::error_name(code); }

// ---- CmDevice ------------------------------------------------------------------

inline CmDevice::~CmDevice() {
  synchronize();
  for (uint32_t s = 0; s < surfaces_.size(); ++s)
    if (surfaces_[s].live)
      destroy_surface(s);
  kernels_.clear();
  for (auto &p : programs_)
    slmc_program_release(p->program_);
}

inline INT CmDevice::synchronize() {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  INT result = slmc_synchronize() == SLMC_SUCCESS ? CM_SUCCESS : CM_FAILURE;
  for (auto &s : surfaces_)
    if (s.live && s.pending_copy_back) {
      s.pending_copy_back = false;
      if (slmc_memcpy(s.user, s.memory, s.bytes) != SLMC_SUCCESS)
        result = CM_FAILURE;
    }
  return result;
}

inline INT CmDevice::new_surface(UINT size, void *user, uint32_t &slot) {
  if (size == 0)
    return CM_INVALID_WIDTH;
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  slmc::cmrt::surface_record r;
  r.bytes = size;
  r.user = user;
  if (user && !gpu()) {
    r.memory = user; // the CPU fallback works on the caller's memory
  } else if (slmc_malloc_shared(&r.memory, size) != SLMC_SUCCESS) {
    return CM_SURFACE_ALLOCATION_FAILURE;
  }
  r.live = true;
  slot = uint32_t(surfaces_.size());
  for (uint32_t i = 0; i < surfaces_.size(); ++i)
    if (!surfaces_[i].live) {
      slot = i;
      break;
    }
  r.index.data = r.memory;
  r.index.bytes = size;
  r.index.index = slot + 1;
  if (slot == surfaces_.size())
    surfaces_.push_back(r);
  else
    surfaces_[slot] = r;
  return CM_SUCCESS;
}

template <class T>
inline INT CmDevice::destroy_owned(std::vector<std::unique_ptr<T>> &owned, T *&object) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (!object || !slmc::cmrt::owns(owned, object))
    return CM_INVALID_BUFFER_HANDLER;
  INT r = destroy_surface(object->slot_);
  slmc::cmrt::erase_owned(owned, object);
  object = nullptr;
  return r;
}

inline INT CmDevice::destroy_surface(uint32_t slot) {
  slmc::cmrt::surface_record *s = surface(slot);
  if (!s)
    return CM_INVALID_BUFFER_HANDLER;
  // Kernels may still use it: wait (which also copies BufferUP data back).
  INT result = synchronize();
  if (!(s->user && !gpu()))
    slmc_free(s->memory);
  *s = slmc::cmrt::surface_record();
  return result;
}

inline INT CmDevice::CreateBuffer(UINT size, CmBuffer *&buffer) {
  buffer = nullptr;
  uint32_t slot = 0;
  if (INT r = new_surface(size, nullptr, slot))
    return r;
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  buffers_.emplace_back(new CmBuffer(this, slot));
  buffer = buffers_.back().get();
  return CM_SUCCESS;
}

inline INT CmDevice::CreateBufferUP(UINT size, void *sys_mem, CmBufferUP *&buffer) {
  buffer = nullptr;
  if (!sys_mem)
    return CM_INVALID_ARG_VALUE;
  uint32_t slot = 0;
  if (INT r = new_surface(size, sys_mem, slot))
    return r;
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  buffers_up_.emplace_back(new CmBufferUP(this, slot));
  buffer = buffers_up_.back().get();
  return CM_SUCCESS;
}

inline INT CmDevice::DestroySurface(CmBuffer *&buffer) { return destroy_owned(buffers_, buffer); }

inline INT CmDevice::DestroyBufferUP(CmBufferUP *&buffer) { return destroy_owned(buffers_up_, buffer); }

inline INT CmDevice::CreateBufferSVM(UINT size, void *&sys_mem, UINT,
                                     CmBufferSVM *&buffer) {
  buffer = nullptr;
  // Block accesses align addresses down to 16 bytes: a device copy of the
  // caller's memory keeps the same offsets only from a 16-byte boundary.
  if (sys_mem && (uintptr_t(sys_mem) & 15))
    return CM_INVALID_ARG_VALUE;
  uint32_t slot = 0;
  if (INT r = new_surface(size, sys_mem, slot))
    return r;
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  surfaces_[slot].svm = true;
  if (!sys_mem)
    sys_mem = surfaces_[slot].memory;
  buffers_svm_.emplace_back(new CmBufferSVM(this, slot));
  buffer = buffers_svm_.back().get();
  return CM_SUCCESS;
}

inline INT CmDevice::DestroyBufferSVM(CmBufferSVM *&buffer) {
  return destroy_owned(buffers_svm_, buffer);
}

inline INT CmDevice::GetSurface2DInfo(UINT width, UINT height, CM_SURFACE_FORMAT format,
                                       UINT &pitch, UINT &physical_size) {
  slmc::cmrt::layout2d l;
  if (INT r = slmc::cmrt::layout_of(width, height, format, l))
    return r;
  if (l.bytes > 0xFFFFFFFFu)
    return CM_SURFACE_ALLOCATION_FAILURE;
  pitch = l.pitch;
  physical_size = UINT(l.bytes);
  return CM_SUCCESS;
}

inline INT CmDevice::new_surface2d(UINT width, UINT height, CM_SURFACE_FORMAT format,
                                   void *user, uint32_t &slot) {
  slmc::cmrt::layout2d l;
  if (INT r = slmc::cmrt::layout_of(width, height, format, l))
    return r;
  if (l.bytes > 0xFFFFFFFFu)
    return CM_SURFACE_ALLOCATION_FAILURE;
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (INT r = new_surface(UINT(l.bytes), user, slot))
    return r;
  slmc::cmrt::surface_record &s = surfaces_[slot];
  s.shape = l;
  s.format = format;
  s.width = width;
  s.height = height;
  s.index.width = width;
  s.index.height = height;
  s.index.pitch = l.pitch;
  s.index.pixel = l.pixel;
  s.index.planes = format == CM_SURFACE_FORMAT_NV12 ? 2 : 1;
  s.index.format = uint32_t(format);
  return CM_SUCCESS;
}

inline INT CmDevice::CreateSurface2D(UINT width, UINT height, CM_SURFACE_FORMAT format,
                                     CmSurface2D *&surface) {
  surface = nullptr;
  uint32_t slot = 0;
  if (INT r = new_surface2d(width, height, format, nullptr, slot))
    return r;
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  surfaces2d_.emplace_back(new CmSurface2D(this, slot));
  surface = surfaces2d_.back().get();
  return CM_SUCCESS;
}

inline INT CmDevice::CreateSurface2DUP(UINT width, UINT height, CM_SURFACE_FORMAT format,
                                       void *sys_mem, CmSurface2DUP *&surface) {
  surface = nullptr;
  if (!sys_mem)
    return CM_INVALID_ARG_VALUE;
  uint32_t slot = 0;
  if (INT r = new_surface2d(width, height, format, sys_mem, slot))
    return r;
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  surfaces2d_up_.emplace_back(new CmSurface2DUP(this, slot));
  surface = surfaces2d_up_.back().get();
  return CM_SUCCESS;
}

inline INT CmDevice::DestroySurface(CmSurface2D *&surface) { return destroy_owned(surfaces2d_, surface); }

inline INT CmDevice::DestroySurface2DUP(CmSurface2DUP *&surface) { return destroy_owned(surfaces2d_up_, surface); }

inline INT CmDevice::LoadProgram(void *code, const UINT size, CmProgram *&program,
                                 const char *) {
  program = nullptr;
  if (!code || size == 0)
    return CM_INVALID_ARG_VALUE;
  slmc_program *p = nullptr;
  switch (slmc_program_load(code, size, &p)) {
  case SLMC_SUCCESS: break;
  case SLMC_ERROR_INVALID_IMAGE: return CM_INVALID_COMMON_ISA;
  case SLMC_ERROR_OUT_OF_MEMORY: return CM_OUT_OF_HOST_MEMORY;
  default: return CM_FAILURE;
  }
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  programs_.emplace_back(new CmProgram(p));
  program = programs_.back().get();
  return CM_SUCCESS;
}

inline void CmDevice::release_program(CmProgram *p) {
  slmc_program_release(p->program_);
  slmc::cmrt::erase_owned(programs_, p);
}

inline INT CmDevice::DestroyProgram(CmProgram *&program) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (!program || !slmc::cmrt::owns(programs_, program))
    return CM_INVALID_ARG_VALUE;
  if (program->kernels_ > 0)
    program->destroyed_ = true; // released with its last kernel
  else
    release_program(program);
  program = nullptr;
  return CM_SUCCESS;
}

inline INT CmDevice::CreateKernel(CmProgram *program, const char *name,
                                  CmKernel *&kernel, const char *) {
  kernel = nullptr;
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (!program || !name || !slmc::cmrt::owns(programs_, program) ||
      program->destroyed_)
    return CM_INVALID_ARG_VALUE;
  std::unique_ptr<CmKernel> k(new (std::nothrow) CmKernel(this, program));
  if (!k)
    return CM_OUT_OF_HOST_MEMORY;
  const char *sig = nullptr;
  if (slmc_program_kernel(program->program_, name, &k->handle_, &k->cpu_, &sig) !=
          SLMC_SUCCESS ||
      slmc_program_kernel_group(program->program_, name, &k->cpu_group_) != SLMC_SUCCESS)
    return CM_FAILURE;
  if (!slmc::cmrt::parse_signature(sig, k->kinds_))
    return CM_INVALID_COMMON_ISA;
  if (k->kinds_.size() > slmc::cmrt::kMaxArgs)
    return CM_EXCEED_KERNEL_ARG_AMOUNT;
  k->name_ = name;
  k->values_.resize(k->kinds_.size());
  k->set_.assign(k->kinds_.size(), false);
  ++program->kernels_;
  kernels_.push_back(std::move(k));
  kernel = kernels_.back().get();
  return CM_SUCCESS;
}

inline INT CmDevice::DestroyKernel(CmKernel *&kernel) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (!kernel || !slmc::cmrt::owns(kernels_, kernel))
    return CM_INVALID_ARG_VALUE;
  CmProgram *p = kernel->program_;
  for (auto &t : tasks_) // tasks must not keep a dangling kernel
    for (size_t i = 0; i < t->kernels_.size();)
      if (t->kernels_[i] == kernel)
        t->kernels_.erase(t->kernels_.begin() + i);
      else
        ++i;
  slmc::cmrt::erase_owned(kernels_, kernel);
  kernel = nullptr;
  if (--p->kernels_ == 0 && p->destroyed_)
    release_program(p);
  return CM_SUCCESS;
}

inline INT CmDevice::CreateTask(CmTask *&task) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  tasks_.emplace_back(new CmTask);
  task = tasks_.back().get();
  return CM_SUCCESS;
}

inline INT CmDevice::DestroyTask(CmTask *&task) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (!task || !slmc::cmrt::erase_owned(tasks_, task))
    return CM_INVALID_ARG_VALUE;
  task = nullptr;
  return CM_SUCCESS;
}

inline INT CmDevice::CreateQueue(CmQueue *&queue) {
  queue = queue_.get();
  return CM_SUCCESS;
}

inline INT CmDevice::CreateThreadSpace(UINT width, UINT height, CmThreadSpace *&ts) {
  ts = nullptr;
  if (width == 0 || height == 0 || width > slmc::cmrt::kMaxThreadSpaceDim ||
      height > slmc::cmrt::kMaxThreadSpaceDim)
    return CM_INVALID_THREAD_SPACE;
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  spaces_.emplace_back(new CmThreadSpace(width, height));
  ts = spaces_.back().get();
  return CM_SUCCESS;
}

inline INT CmDevice::DestroyThreadSpace(CmThreadSpace *&ts) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (!ts || !slmc::cmrt::owns(spaces_, ts))
    return CM_INVALID_ARG_VALUE;
  for (auto &k : kernels_)
    if (k->thread_space_ == ts)
      k->thread_space_ = nullptr;
  slmc::cmrt::erase_owned(spaces_, ts);
  ts = nullptr;
  return CM_SUCCESS;
}

inline INT CmDevice::CreateThreadGroupSpaceEx(UINT thread_w, UINT thread_h,
                                              UINT thread_d, UINT group_w,
                                              UINT group_h, UINT group_d,
                                              CmThreadGroupSpace *&tgs) {
  tgs = nullptr;
  const slmc_dim3 m = info_.max_group_dims;
  if (thread_w == 0 || thread_h == 0 || thread_d == 0 || group_w == 0 ||
      group_h == 0 || group_d == 0 || thread_w > m.x || thread_h > m.y ||
      thread_d > m.z ||
      uint64_t(thread_w) * thread_h * thread_d > uint64_t(info_.max_group_size) ||
      uint64_t(group_w) * group_h * group_d > (uint64_t(1) << 31))
    return CM_INVALID_THREAD_GROUP_SPACE;
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  group_spaces_.emplace_back(new CmThreadGroupSpace(
      slmc_dim3{thread_w, thread_h, thread_d}, slmc_dim3{group_w, group_h, group_d}));
  tgs = group_spaces_.back().get();
  return CM_SUCCESS;
}

inline INT CmDevice::DestroyThreadGroupSpace(CmThreadGroupSpace *&tgs) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (!tgs || !slmc::cmrt::owns(group_spaces_, tgs))
    return CM_INVALID_ARG_VALUE;
  for (auto &k : kernels_)
    if (k->group_space_ == tgs)
      k->group_space_ = nullptr;
  slmc::cmrt::erase_owned(group_spaces_, tgs);
  tgs = nullptr;
  return CM_SUCCESS;
}

inline INT CmDevice::GetCaps(CM_DEVICE_CAP_NAME name, size_t &size, void *value) {
  uint32_t v = 0;
  auto clamp32 = [](uint64_t x) { return x > 0xFFFFFFFFu ? 0xFFFFFFFFu : uint32_t(x); };
  switch (name) {
  case CAP_USER_DEFINED_THREAD_COUNT_PER_THREAD_GROUP:
    v = clamp32(info_.max_group_size);
    break;
  case CAP_USER_DEFINED_THREAD_COUNT_PER_TASK:
  case CAP_USER_DEFINED_THREAD_COUNT_PER_TASK_NO_THREAD_ARG:
  case CAP_USER_DEFINED_THREAD_COUNT_PER_MEDIA_WALKER:
    v = uint32_t(slmc::cmrt::kMaxThreadsPerEnqueue);
    break;
  case CAP_HW_THREAD_COUNT: v = info_.compute_units; break;
  case CAP_KERNEL_COUNT_PER_TASK: v = slmc::cmrt::kMaxKernelsPerTask; break;
  case CAP_KERNEL_BINARY_SIZE: v = 0xFFFFFFFFu; break;
  case CAP_BUFFER_COUNT:
  case CAP_SURFACE2D_COUNT:
  case CAP_SURFACE2DUP_COUNT: v = 1u << 16; break;
  case CAP_SURFACE2D_FORMAT_COUNT: v = slmc::cmrt::kSurface2DFormatCount; break;
  case CAP_SURFACE2D_FORMATS: {
    const size_t bytes = sizeof(slmc::cmrt::kSurface2DFormats);
    if (!value || size < bytes)
      return CM_FAILURE;
    std::memcpy(value, slmc::cmrt::kSurface2DFormats, bytes);
    size = bytes;
    return CM_SUCCESS;
  }
  case CAP_SURFACE_COUNT_PER_KERNEL:
  case CAP_ARG_COUNT_PER_KERNEL: v = slmc::cmrt::kMaxArgs; break;
  case CAP_ARG_SIZE_PER_KERNEL: v = slmc::cmrt::kMaxArgBytes; break;
  case CAP_MAX_BUFFER_SIZE: v = clamp32(info_.global_memory); break;
  case CAP_SAMPLER_COUNT:
  case CAP_SAMPLER_COUNT_PER_KERNEL:
  case CAP_SURFACE3D_COUNT:
  case CAP_SURFACE3D_FORMAT_COUNT:
  case CAP_VME_STATE_COUNT:
  case CAP_GPU_PLATFORM: // PLATFORM_INTEL_UNKNOWN
  case CAP_GT_PLATFORM:
  case CAP_MIN_FREQUENCY:
  case CAP_MAX_FREQUENCY:
  case CAP_GPU_CURRENT_FREQUENCY:
  case CAP_L3_CONFIG:
  case CAP_MAX_SUBDEV_COUNT:
    v = 0;
    break;
  case CAP_SLMC_MAX_SLM_SIZE: v = clamp32(info_.max_group_local_memory); break;
  case CAP_SLMC_MAX_THREAD_GROUP_WIDTH: v = info_.max_group_dims.x; break;
  case CAP_SLMC_MAX_THREAD_GROUP_HEIGHT: v = info_.max_group_dims.y; break;
  case CAP_SLMC_MAX_THREAD_GROUP_DEPTH: v = info_.max_group_dims.z; break;
  case CAP_SLMC_BACKEND: v = uint32_t(info_.backend); break;
  default:
    return CM_NOT_IMPLEMENTED; // 3-D surface formats, platform info
  }
  if (!value || size < sizeof(v))
    return CM_FAILURE;
  std::memcpy(value, &v, sizeof(v));
  size = sizeof(v);
  return CM_SUCCESS;
}

// ---- Buffers --------------------------------------------------------------------

inline INT CmBuffer::GetIndex(SurfaceIndex *&index) {
  return device_->index_of(slot_, index);
}

inline INT CmBufferUP::GetIndex(SurfaceIndex *&index) {
  return device_->index_of(slot_, index);
}

inline INT CmBufferSVM::GetIndex(SurfaceIndex *&index) {
  return device_->index_of(slot_, index);
}

inline INT CmBufferSVM::GetAddress(void *&address) {
  slmc::cmrt::surface_record *s = device_->surface(slot_);
  address = s ? (s->user ? s->user : s->memory) : nullptr;
  return s ? CM_SUCCESS : CM_INVALID_BUFFER_HANDLER;
}

inline INT CmSurface2D::GetIndex(SurfaceIndex *&index) {
  return device_->index_of(slot_, index);
}

inline INT CmSurface2DUP::GetIndex(SurfaceIndex *&index) {
  return device_->index_of(slot_, index);
}

inline INT CmSurface2D::GetSurfaceDesc(UINT &width, UINT &height,
                                       CM_SURFACE_FORMAT &format, UINT &size_per_pixel) {
  slmc::cmrt::surface_record *s = device_->surface(slot_);
  if (!s)
    return CM_INVALID_BUFFER_HANDLER;
  width = s->width;
  height = s->height;
  format = s->format;
  size_per_pixel = s->shape.pixel;
  return CM_SUCCESS;
}

inline INT CmSurface2D::copy(unsigned char *to, const unsigned char *from,
                             CmEvent *event, UINT stride, UINT64 size,
                             UINT height_stride) {
  slmc::cmrt::surface_record *s = device_->surface(slot_);
  if (!s)
    return CM_INVALID_BUFFER_HANDLER;
  if (!to && !from)
    return CM_INVALID_ARG_VALUE;
  const slmc::cmrt::layout2d &l = s->shape;
  const uint64_t host_pitch = stride ? stride : l.row_bytes;
  const uint32_t h = s->height, first_uv = height_stride ? height_stride : h;
  if (host_pitch < l.row_bytes || first_uv < h)
    return CM_INVALID_ARG_VALUE; // rows would overlap
  // Host row of surface row r (the UV plane's rows follow first_uv).
  auto host_row = [&](uint32_t r) { return r < h ? r : first_uv + (r - h); };
  if (size < host_pitch * (host_row(l.rows - 1) + 1))
    return CM_INVALID_ARG_SIZE;
  if (event && event != CM_NO_EVENT)
    if (INT r = event->WaitForTaskFinished())
      return r;
  // One copy of the whole surface (each copy waits for the device), then
  // the rows repacked on the host.
  std::vector<unsigned char> image;
  try {
    image.resize(size_t(l.bytes));
  } catch (const std::bad_alloc &) {
    return CM_OUT_OF_HOST_MEMORY;
  }
  if (to) {
    if (slmc_memcpy(image.data(), s->memory, image.size()) != SLMC_SUCCESS)
      return CM_FAILURE;
    for (uint32_t r = 0; r < l.rows; ++r)
      std::memcpy(to + host_row(r) * host_pitch, image.data() + uint64_t(r) * l.pitch,
                  l.row_bytes);
    return CM_SUCCESS;
  }
  for (uint32_t r = 0; r < l.rows; ++r)
    std::memcpy(image.data() + uint64_t(r) * l.pitch, from + host_row(r) * host_pitch,
                l.row_bytes);
  return slmc_memcpy(s->memory, image.data(), image.size()) == SLMC_SUCCESS ? CM_SUCCESS
                                                                           : CM_FAILURE;
}

inline INT CmSurface2D::InitSurface(const DWORD init_value, CmEvent *event) {
  slmc::cmrt::surface_record *s = device_->surface(slot_);
  if (!s)
    return CM_INVALID_BUFFER_HANDLER;
  std::vector<unsigned char> rows;
  try {
    rows.resize(size_t(s->shape.row_bytes) * s->shape.rows);
  } catch (const std::bad_alloc &) {
    return CM_OUT_OF_HOST_MEMORY;
  }
  for (size_t i = 0; i < rows.size(); ++i)
    rows[i] = (unsigned char)(init_value >> (8 * (i % 4)));
  return copy(nullptr, rows.data(), event, 0, rows.size());
}

inline INT CmBuffer::ReadSurface(unsigned char *sys_mem, CmEvent *event,
                                 UINT64 sys_mem_size) {
  slmc::cmrt::surface_record *s = device_->surface(slot_);
  if (!s)
    return CM_INVALID_BUFFER_HANDLER;
  if (!sys_mem)
    return CM_INVALID_ARG_VALUE;
  if (sys_mem_size < s->bytes)
    return CM_INVALID_ARG_SIZE;
  if (event && event != CM_NO_EVENT)
    if (INT r = event->WaitForTaskFinished())
      return r;
  // The copy waits for every launched kernel first.
  return slmc_memcpy(sys_mem, s->memory, s->bytes) == SLMC_SUCCESS ? CM_SUCCESS
                                                                   : CM_FAILURE;
}

inline INT CmBuffer::WriteSurface(const unsigned char *sys_mem, CmEvent *event,
                                  UINT64 sys_mem_size) {
  slmc::cmrt::surface_record *s = device_->surface(slot_);
  if (!s)
    return CM_INVALID_BUFFER_HANDLER;
  if (!sys_mem)
    return CM_INVALID_ARG_VALUE;
  if (sys_mem_size < s->bytes)
    return CM_INVALID_ARG_SIZE;
  if (event && event != CM_NO_EVENT)
    if (INT r = event->WaitForTaskFinished())
      return r;
  return slmc_memcpy(s->memory, sys_mem, s->bytes) == SLMC_SUCCESS ? CM_SUCCESS
                                                                   : CM_FAILURE;
}

inline INT CmBuffer::InitSurface(const DWORD init_value, CmEvent *event) {
  slmc::cmrt::surface_record *s = device_->surface(slot_);
  if (!s)
    return CM_INVALID_BUFFER_HANDLER;
  if (event && event != CM_NO_EVENT)
    if (INT r = event->WaitForTaskFinished())
      return r;
  std::vector<unsigned char> pattern;
  try {
    pattern.resize(s->bytes);
  } catch (const std::bad_alloc &) {
    return CM_OUT_OF_HOST_MEMORY;
  }
  for (uint32_t i = 0; i < s->bytes; ++i)
    pattern[i] = (unsigned char)(init_value >> (8 * (i % 4)));
  return slmc_memcpy(s->memory, pattern.data(), s->bytes) == SLMC_SUCCESS ? CM_SUCCESS
                                                                          : CM_FAILURE;
}

// ---- Kernels -----------------------------------------------------------------------

inline INT CmKernel::SetKernelArg(UINT index, size_t size, const void *value) {
  if (index >= kinds_.size())
    return CM_INVALID_ARG_INDEX;
  if (!value)
    return CM_INVALID_ARG_VALUE;
  const slmc::cmrt::arg_kind &k = kinds_[index];
  if (size != k.bytes)
    return CM_INVALID_ARG_SIZE;
  if (k.surface) {
    SurfaceIndex i;
    std::memcpy(&i, value, sizeof(i));
    std::lock_guard<std::recursive_mutex> lock(device_->mutex_);
    if (!device_->surface_of(i))
      return CM_INVALID_ARG_VALUE; // not a live buffer of this device
  }
  try {
    values_[index].assign(static_cast<const unsigned char *>(value),
                          static_cast<const unsigned char *>(value) + size);
  } catch (const std::bad_alloc &) {
    return CM_OUT_OF_HOST_MEMORY;
  }
  set_[index] = true;
  return CM_SUCCESS;
}

// ---- Queue and events ------------------------------------------------------------------

inline INT CmQueue::begin_task(CmTask *task) {
  if (!task)
    return CM_INVALID_ARG_VALUE;
  if (task->kernels_.empty())
    return CM_FAILURE;
  for (CmKernel *k : task->kernels_)
    for (size_t i = 0; i < k->set_.size(); ++i)
      if (!k->set_[i])
        return CM_NOT_SET_KERNEL_ARGUMENT;
  return CM_SUCCESS;
}

inline INT CmQueue::end_task(CmEvent *&event, INT result,
                             std::chrono::steady_clock::time_point start, bool ran) {
  const auto end = std::chrono::steady_clock::now();
  if (event == CM_NO_EVENT)
    return result;
  event = nullptr;
  if (result != CM_SUCCESS)
    return result;
  std::lock_guard<std::recursive_mutex> lock(device_->mutex_);
  device_->events_.emplace_back(new (std::nothrow) CmEvent(device_));
  if (!device_->events_.back()) {
    device_->events_.pop_back();
    return CM_OUT_OF_HOST_MEMORY;
  }
  event = device_->events_.back().get();
  event->start_ = start;
  if (ran || !device_->gpu()) {
    event->end_ = end;
    event->ended_ = true;
  }
  return CM_SUCCESS;
}

inline INT CmQueue::launch(CmKernel *k, slmc_dim3 groups, slmc_dim3 size) {
  std::lock_guard<std::recursive_mutex> lock(device_->mutex_);
  if (size.x * uint64_t(size.y) * size.z > device_->info_.max_group_size)
    return CM_EXCEED_MAX_THREAD_AMOUNT_PER_ENQUEUE;
  size_t slm = 0;
  if (slmc_kernel_group_memory(k->handle_, &slm) == SLMC_SUCCESS &&
      slm > device_->info_.max_group_local_memory)
    return CM_EXCEED_MAX_SLM_SIZE;
  const size_t n = k->kinds_.size();
  std::vector<SurfaceIndex> surfaces(n);
  std::vector<uint64_t> addresses(n);
  std::vector<void *> args(n);
  std::vector<size_t> sizes(n);
  // Buffers in the caller's memory that this launch uses: on a GPU their
  // device copies are refreshed first.
  std::vector<slmc::cmrt::surface_record *> callers;
  for (size_t i = 0; i < n; ++i) {
    sizes[i] = k->kinds_[i].bytes;
    if (k->kinds_[i].svm && device_->gpu()) {
      // An address into the caller's SVM memory becomes the same address
      // in its device copy.
      std::memcpy(&addresses[i], k->values_[i].data(), sizeof(uint64_t));
      if (slmc::cmrt::surface_record *s = device_->svm_of(addresses[i])) {
        addresses[i] = addresses[i] - uint64_t(uintptr_t(s->user)) +
                       uint64_t(uintptr_t(s->memory));
        callers.push_back(s);
      }
      args[i] = &addresses[i];
      continue;
    }
    if (!k->kinds_[i].surface) {
      args[i] = k->values_[i].data();
      continue;
    }
    SurfaceIndex given;
    std::memcpy(&given, k->values_[i].data(), sizeof(given));
    slmc::cmrt::surface_record *s = device_->surface_of(given);
    if (!s)
      return CM_INVALID_ARG_VALUE; // destroyed since SetKernelArg
    surfaces[i] = s->index;       // the device's own description
    args[i] = &surfaces[i];
    if (s->user)
      callers.push_back(s);
  }
  if (!callers.empty() && device_->gpu()) {
    // Refresh device copies from the callers' memory; earlier tasks must
    // have finished with them (and their results are copied back first).
    if (INT r = device_->synchronize())
      return r;
    for (slmc::cmrt::surface_record *s : callers)
      if (!s->pending_copy_back) {
        if (slmc_memcpy(s->memory, s->user, s->bytes) != SLMC_SUCCESS)
          return CM_FAILURE;
        s->pending_copy_back = true;
      }
  }

  slmc_launch_params p{};
  p.group_count = groups;
  p.group_size = size;
  p.dynamic_group_memory = 0;
  p.num_args = uint32_t(n);
  p.args = n ? args.data() : nullptr;
  p.arg_sizes = n ? sizes.data() : nullptr;
  p.cpu_group = k->cpu_group_;
  switch (slmc_launch(k->handle_, k->cpu_, &p)) {
  case SLMC_SUCCESS: return CM_SUCCESS;
  case SLMC_ERROR_RESOURCE_LIMIT:
    // SLM was checked above: the kernel cannot run this many threads per
    // group (on CUDA a kernel's register use can lower the device's limit)
    // or this many groups. slmc_last_error() has the numbers.
    return CM_EXCEED_MAX_THREAD_AMOUNT_PER_ENQUEUE;
  case SLMC_ERROR_OUT_OF_MEMORY: return CM_OUT_OF_HOST_MEMORY;
  default: return CM_FAILURE;
  }
}

inline INT CmQueue::Enqueue(CmTask *task, CmEvent *&event, const CmThreadSpace *ts) {
  const auto start = std::chrono::steady_clock::now();
  INT result = begin_task(task);
  for (size_t i = 0; result == CM_SUCCESS && i < task->kernels_.size(); ++i) {
    CmKernel *k = task->kernels_[i];
    const CmThreadSpace *space = ts ? ts : k->thread_space_;
    slmc_dim3 groups{1, 1, 1};
    if (space) {
      groups.x = space->width();
      groups.y = space->height();
      if (k->thread_count_ && k->thread_count_ != uint64_t(groups.x) * groups.y)
        result = CM_INVALID_THREAD_SPACE;
    } else if (k->thread_count_) {
      groups.x = k->thread_count_;
    } else {
      result = CM_INVALID_THREAD_SPACE; // neither a space nor a thread count
    }
    if (result == CM_SUCCESS &&
        uint64_t(groups.x) * groups.y > slmc::cmrt::kMaxThreadsPerEnqueue)
      result = CM_EXCEED_MAX_THREAD_AMOUNT_PER_ENQUEUE;
    if (result == CM_SUCCESS)
      result = launch(k, groups, slmc_dim3{1, 1, 1});
  }
  return end_task(event, result, start);
}

inline INT CmQueue::EnqueueWithGroup(CmTask *task, CmEvent *&event,
                                     const CmThreadGroupSpace *tgs) {
  const auto start = std::chrono::steady_clock::now();
  INT result = begin_task(task);
  for (size_t i = 0; result == CM_SUCCESS && i < task->kernels_.size(); ++i) {
    CmKernel *k = task->kernels_[i];
    const CmThreadGroupSpace *space = tgs ? tgs : k->group_space_;
    if (!space) {
      result = CM_INVALID_THREAD_GROUP_SPACE;
      break;
    }
    const slmc_dim3 t = space->threads(), m = device_->info_.max_group_dims;
    if (uint64_t(t.x) * t.y * t.z > device_->info_.max_group_size)
      result = CM_EXCEED_MAX_THREAD_AMOUNT_PER_ENQUEUE;
    else if (t.x > m.x || t.y > m.y || t.z > m.z)
      result = CM_INVALID_THREAD_GROUP_SPACE;
    else
      result = launch(k, space->groups(), t);
  }
  return end_task(event, result, start);
}

inline INT CmQueue::EnqueueCopyCPUToGPUFullStride(CmSurface2D *surface,
                                                  const unsigned char *sys_mem,
                                                  const UINT width_stride,
                                                  const UINT height_stride, const UINT,
                                                  CmEvent *&event) {
  const auto start = std::chrono::steady_clock::now();
  {
    std::lock_guard<std::recursive_mutex> lock(device_->mutex_);
    if (!surface || !slmc::cmrt::owns(device_->surfaces2d_, surface))
      return end_task(event, CM_INVALID_BUFFER_HANDLER, start);
  }
  const INT result = surface->copy(nullptr, sys_mem, nullptr, width_stride,
                                   0xFFFFFFFFFFFFFFFFULL, height_stride);
  return end_task(event, result, start, /*ran=*/true);
}

inline INT CmQueue::EnqueueCopyGPUToCPUFullStride(CmSurface2D *surface,
                                                  unsigned char *sys_mem,
                                                  const UINT width_stride,
                                                  const UINT height_stride, const UINT,
                                                  CmEvent *&event) {
  const auto start = std::chrono::steady_clock::now();
  {
    std::lock_guard<std::recursive_mutex> lock(device_->mutex_);
    if (!surface || !slmc::cmrt::owns(device_->surfaces2d_, surface))
      return end_task(event, CM_INVALID_BUFFER_HANDLER, start);
  }
  const INT result = surface->copy(sys_mem, nullptr, nullptr, width_stride,
                                   0xFFFFFFFFFFFFFFFFULL, height_stride);
  return end_task(event, result, start, /*ran=*/true);
}

inline INT CmQueue::EnqueueInitSurface2D(CmSurface2D *surface, const DWORD init_value,
                                         CmEvent *&event) {
  const auto start = std::chrono::steady_clock::now();
  {
    std::lock_guard<std::recursive_mutex> lock(device_->mutex_);
    if (!surface || !slmc::cmrt::owns(device_->surfaces2d_, surface))
      return end_task(event, CM_INVALID_BUFFER_HANDLER, start);
  }
  const INT result = surface->InitSurface(init_value, nullptr);
  return end_task(event, result, start, /*ran=*/true);
}

inline INT CmQueue::EnqueueCopyGPUToGPU(CmSurface2D *dst, CmSurface2D *src, UINT,
                                         CmEvent *&event) {
  const auto start = std::chrono::steady_clock::now();
  UINT dw = 0, dh = 0, dp = 0, sw = 0, sh = 0, sp = 0;
  CM_SURFACE_FORMAT df{}, sf{};
  {
    std::lock_guard<std::recursive_mutex> lock(device_->mutex_);
    if (!dst || !src || !slmc::cmrt::owns(device_->surfaces2d_, dst) ||
        !slmc::cmrt::owns(device_->surfaces2d_, src))
      return end_task(event, CM_INVALID_BUFFER_HANDLER, start);
  }
  if (dst->GetSurfaceDesc(dw, dh, df, dp) != CM_SUCCESS ||
      src->GetSurfaceDesc(sw, sh, sf, sp) != CM_SUCCESS)
    return end_task(event, CM_INVALID_BUFFER_HANDLER, start);
  if (dw != sw || dh != sh || df != sf)
    return end_task(event, CM_INVALID_ARG_VALUE, start); // as Intel's runtime
  // Through the host: the surfaces' rows, then NV12's UV plane.
  UINT64 bytes = UINT64(sw) * sh * sp;
  if (sf == CM_SURFACE_FORMAT_NV12)
    bytes += UINT64(sw) * (sh / 2);
  std::vector<unsigned char> rows;
  try {
    rows.resize(size_t(bytes));
  } catch (const std::bad_alloc &) {
    return end_task(event, CM_OUT_OF_HOST_MEMORY, start);
  }
  INT result = src->ReadSurface(rows.data(), nullptr, bytes);
  if (result == CM_SUCCESS)
    result = dst->WriteSurface(rows.data(), nullptr, bytes);
  return end_task(event, result, start, /*ran=*/true);
}

inline INT CmQueue::EnqueueCopyCPUToCPU(unsigned char *dst, unsigned char *src, UINT size,
                                         UINT, CmEvent *&event) {
  const auto start = std::chrono::steady_clock::now();
  if (!dst || !src)
    return end_task(event, CM_INVALID_ARG_VALUE, start);
  std::memmove(dst, src, size);
  return end_task(event, CM_SUCCESS, start, /*ran=*/true);
}

inline INT CmQueue::DestroyEvent(CmEvent *&event) {
  std::lock_guard<std::recursive_mutex> lock(device_->mutex_);
  if (!event || event == CM_NO_EVENT ||
      !slmc::cmrt::erase_owned(device_->events_, event))
    return CM_INVALID_ARG_VALUE;
  event = nullptr;
  return CM_SUCCESS;
}

inline INT CmEvent::finish() {
  if (!done_) {
    result_ = device_->synchronize();
    elapsed_ns_ = UINT64(std::chrono::duration_cast<std::chrono::nanoseconds>(
                             (ended_ ? end_ : std::chrono::steady_clock::now()) - start_)
                             .count());
    done_ = true;
  }
  return result_;
}

inline INT CmEvent::WaitForTaskFinished(DWORD) { return finish(); }

inline INT CmEvent::GetStatus(CM_STATUS &status) {
  INT r = finish();
  status = CM_STATUS_FINISHED;
  return r;
}

#endif // SLMC_CM_RT_H
