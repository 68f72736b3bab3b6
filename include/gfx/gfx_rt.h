//===- gfx/gfx_rt.h - Asynchronous offload API of Cilk Plus graphics -------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Intel's compiler (15-18) shipped this header with its graphics offload
// runtime; slmc provides the same entry points over libslmrt:
//
//   _GFX_offload(fn, args...)    enqueue a call of gfx_kernel `fn` on the
//                                in-order offload queue; returns its task id
//                                (0 on failure). Also _GFX_offload("name",
//                                ...) and _GFX_offload((void *)fn, ...).
//   _GFX_enqueue("name", ...)    the older by-name form (C varargs).
//   _GFX_wait(id = 0, ms = -1)   wait for task `id` and all earlier ones (0:
//                                every task enqueued so far; -1: no limit).
//   _GFX_share(p, bytes)         make a host range visible to kernels;
//   _GFX_unshare(p)              undo (p as given to _GFX_share).
//   _GFX_get_last_error()        this thread's most recent error code (not
//                                reset by later successful calls).
//
// Results are GFX_SUCCESS (0) or a negative GFX_* code. The semantics are
// those of slmc_task_enqueue/slmc_task_wait/slmc_share in slmc/runtime.h:
// tasks run one after the other on one thread, each inside an offload scope,
// so shared ranges are copied to a GPU before a task and back after it (on
// the CPU fallback nothing is copied). A task whose kernel launch fails
// reports that failure from the _GFX_wait that covers it.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_GFX_GFX_RT_H
#define SLMC_GFX_GFX_RT_H

#include "slmc/cilk_tasks.h"

// ICC's environment declared _mm_malloc/_mm_free wherever its samples
// used them (after this header and <memory.h>).
#include <mm_malloc.h>

#include <cstdarg>
#include <cstddef>
#include <cstdint>

/// An offload task; ids increase by one per enqueued task, from 1.
typedef std::uint64_t GfxTaskId;

/// Result codes: the negated slmc_status of the failure.
enum GfxStatus {
  GFX_SUCCESS = 0,
  GFX_INVALID_VALUE = -SLMC_ERROR_INVALID_VALUE,
  GFX_NO_DEVICE = -SLMC_ERROR_NO_DEVICE,
  GFX_OUT_OF_MEMORY = -SLMC_ERROR_OUT_OF_MEMORY,
  GFX_INVALID_IMAGE = -SLMC_ERROR_INVALID_IMAGE,
  GFX_BUILD_FAILURE = -SLMC_ERROR_BUILD_FAILURE,
  GFX_KERNEL_NOT_FOUND = -SLMC_ERROR_KERNEL_NOT_FOUND,
  GFX_RESOURCE_LIMIT = -SLMC_ERROR_RESOURCE_LIMIT,
  GFX_LAUNCH_FAILURE = -SLMC_ERROR_LAUNCH_FAILURE,
  GFX_BARRIER_DIVERGENCE = -SLMC_ERROR_BARRIER_DIVERGENCE,
  GFX_BACKEND_ERROR = -SLMC_ERROR_BACKEND,
  /// The id was never given out, or a wait on it (or a later id) succeeded.
  GFX_TASKID_NOT_FOUND = -SLMC_ERROR_TASK_NOT_FOUND,
  /// _GFX_wait ran out of time; the task is still pending.
  GFX_TIMEOUT = -SLMC_ERROR_TIMEOUT,
  /// SLMC_CHECK=races found a data race on group-local memory.
  GFX_DATA_RACE = -SLMC_ERROR_DATA_RACE,
  /// SLMC_CHECK=bounds found an access outside a group-local variable.
  GFX_GROUP_LOCAL_BOUNDS = -SLMC_ERROR_GROUP_LOCAL_BOUNDS
};

namespace slmc {
namespace cilk {
/// The GFX code of a runtime status.
inline int gfx_status(slmc_status s) { return -static_cast<int>(s); }
} // namespace cilk
} // namespace slmc

/// Enqueues fn(args...); the arguments are converted to the parameter types
/// of `fn` and copied now.
template <class R, class... P, class... A>
inline GfxTaskId _GFX_offload(R (*fn)(P...), A &&...args) {
  return ::slmc::cilk::offload(fn, std::forward<A>(args)...);
}

/// Enqueues the kernel registered as `kernel_name`, its arguments read by
/// its parameter types.
inline GfxTaskId _GFX_enqueue(const char *kernel_name, ...) {
  ::slmc::cilk::tasks::kernel_entry e;
  if (!::slmc::cilk::tasks::find_kernel(kernel_name, "_GFX_enqueue", e))
    return 0;
  std::va_list ap;
  va_start(ap, kernel_name);
  GfxTaskId id = ::slmc::cilk::tasks::enqueue_va(e, &ap);
  va_end(ap);
  return id;
}

/// As _GFX_enqueue.
inline GfxTaskId _GFX_offload(const char *kernel_name, ...) {
  ::slmc::cilk::tasks::kernel_entry e;
  if (!::slmc::cilk::tasks::find_kernel(kernel_name, "_GFX_offload", e))
    return 0;
  std::va_list ap;
  va_start(ap, kernel_name);
  GfxTaskId id = ::slmc::cilk::tasks::enqueue_va(e, &ap);
  va_end(ap);
  return id;
}

/// The C form: `ptr` is the address of a registered kernel.
inline GfxTaskId _GFX_offload(const void *ptr, ...) {
  ::slmc::cilk::tasks::kernel_entry e;
  if (!::slmc::cilk::tasks::find_kernel(ptr, "_GFX_offload", e))
    return 0;
  std::va_list ap;
  va_start(ap, ptr);
  GfxTaskId id = ::slmc::cilk::tasks::enqueue_va(e, &ap);
  va_end(ap);
  return id;
}

inline int _GFX_wait(GfxTaskId task_id = 0, int wait_time_ms = -1) {
  return ::slmc::cilk::gfx_status(slmc_task_wait(task_id, wait_time_ms));
}

inline int _GFX_share(const void *data_ptr, std::size_t data_size) {
  return ::slmc::cilk::gfx_status(slmc_share(const_cast<void *>(data_ptr), data_size));
}

inline int _GFX_unshare(const void *data_ptr) {
  return ::slmc::cilk::gfx_status(slmc_unshare(const_cast<void *>(data_ptr)));
}

inline int _GFX_get_last_error() { return ::slmc::cilk::gfx_status(slmc_last_status()); }

// ICC's 2D images (see _gfx_read_2d in gfx_intrin.h): declared so that a
// program using them gets an error that names them.
#include "gfx/gfx_intrin.h"
typedef void *GfxResourceHandle;
enum { GFX_MEMORY_GPU_ONLY = 1, GFX_MEMORY_SHARED = 2 };
template <class T> class SLMC_GFX_NO_IMAGES GfxImage2D {
public:
  GfxImage2D(T *ptr, std::size_t height, std::size_t width, int format = 0);
  int read();
  int write();
};
template <class T> class SLMC_GFX_NO_IMAGES GfxSharedImage2D {
public:
  GfxSharedImage2D(T *ptr, std::size_t height, std::size_t width, int format = 0);
  int read();
  int write();
};
SLMC_GFX_NO_IMAGES GfxResourceHandle _GFX_create_image_2d(void *ptr, std::size_t element_size,
                                                          std::size_t height, std::size_t width,
                                                          int format, int flags);
SLMC_GFX_NO_IMAGES int _GFX_close_resource_handle(GfxResourceHandle handle);
SLMC_GFX_NO_IMAGES int _GFX_read_image_2d(GfxResourceHandle handle);
SLMC_GFX_NO_IMAGES int _GFX_write_image_2d(GfxResourceHandle handle);

#endif // SLMC_GFX_GFX_RT_H
