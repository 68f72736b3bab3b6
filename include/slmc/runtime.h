/*===- slmc/runtime.h - Public C API of libslmrt ---------------------------===*
 *
 * Part of the slmc project, under the Apache License v2.0 with LLVM
 * Exceptions. See LICENSE for license information.
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 *===----------------------------------------------------------------------===*
 *
 * libslmrt runs kernels that slmc++ compiled. One executable carries a SPIR-V
 * image (Level Zero), a PTX image (CUDA driver) and a host version of every
 * kernel (CPU fallback); the runtime picks the best device present when the
 * program first needs one. Nothing here depends on a GPU driver at link time:
 * backends are loaded with dlopen.
 *
 * Every function returning slmc_status is thread-safe. On failure a one-line
 * explanation is available from slmc_last_error() on the failing thread.
 *
 *===----------------------------------------------------------------------===*/
#ifndef SLMC_RUNTIME_H
#define SLMC_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define SLMC_RT_API __attribute__((visibility("default")))
#else
#define SLMC_RT_API
#endif

#define SLMC_RUNTIME_VERSION_MAJOR 0
#define SLMC_RUNTIME_VERSION_MINOR 1

typedef enum slmc_status {
  SLMC_SUCCESS = 0,
  SLMC_ERROR_INVALID_VALUE = 1,      /* a null pointer, a zero size, ... */
  SLMC_ERROR_NO_DEVICE = 2,          /* the requested backend has no device */
  SLMC_ERROR_OUT_OF_MEMORY = 3,
  SLMC_ERROR_INVALID_IMAGE = 4,      /* the embedded device image is corrupt */
  SLMC_ERROR_BUILD_FAILURE = 5,      /* the driver rejected the device image */
  SLMC_ERROR_KERNEL_NOT_FOUND = 6,   /* no such kernel in the registered images */
  SLMC_ERROR_RESOURCE_LIMIT = 7,     /* group size or group-local memory too big */
  SLMC_ERROR_LAUNCH_FAILURE = 8,     /* the device reported a failed launch */
  SLMC_ERROR_BARRIER_DIVERGENCE = 9, /* CPU: not every work-item reached a barrier */
  SLMC_ERROR_BACKEND = 10            /* any other driver error */
} slmc_status;

typedef enum slmc_backend {
  SLMC_BACKEND_AUTO = 0, /* best present: Level Zero, then CUDA, then CPU */
  SLMC_BACKEND_LEVEL_ZERO = 1,
  SLMC_BACKEND_CUDA = 2,
  SLMC_BACKEND_CPU = 3
} slmc_backend;

typedef struct slmc_dim3 {
  uint32_t x, y, z;
} slmc_dim3;

typedef struct slmc_device_info {
  slmc_backend backend;
  char name[256];
  size_t max_group_size;          /* work-items in one work-group */
  slmc_dim3 max_group_dims;       /* per dimension */
  size_t max_group_local_memory;  /* bytes of group-local memory per group */
  size_t global_memory;           /* bytes */
  uint32_t compute_units;
} slmc_device_info;

/* ---- Errors ------------------------------------------------------------ */

/* A fixed English name for a status code, e.g. "SLMC_ERROR_NO_DEVICE". */
SLMC_RT_API const char *slmc_status_string(slmc_status status);
/* The message of the last failure on this thread ("" if none). */
SLMC_RT_API const char *slmc_last_error(void);

/* ---- Device selection -------------------------------------------------- */

/* Chooses the backend. Without a call the environment variable SLMC_DEVICE
 * (level_zero | cuda | cpu) decides, else the best device present. Selecting
 * an absent backend fails with SLMC_ERROR_NO_DEVICE and changes nothing.
 * Must be called before any allocation or launch, or with nothing in flight. */
SLMC_RT_API slmc_status slmc_select_backend(slmc_backend backend);
/* Initialises the runtime (if needed) and reports the backend in use. */
SLMC_RT_API slmc_status slmc_get_backend(slmc_backend *backend);
/* Whether a backend has a usable device, without selecting it. */
SLMC_RT_API int slmc_backend_available(slmc_backend backend);
SLMC_RT_API const char *slmc_backend_name(slmc_backend backend);
SLMC_RT_API slmc_status slmc_get_device_info(slmc_device_info *info);

/* ---- Memory ------------------------------------------------------------- */

/* Memory visible to host and device (Level Zero shared USM, CUDA managed
 * memory, plain host memory on the CPU fallback). */
SLMC_RT_API slmc_status slmc_malloc_shared(void **ptr, size_t bytes);
/* Device-only memory; use slmc_memcpy to move data. */
SLMC_RT_API slmc_status slmc_malloc_device(void **ptr, size_t bytes);
SLMC_RT_API slmc_status slmc_free(void *ptr);
/* Copies between any two pointers (host, shared or device). Waits for all
 * launched work first; returns when the copy is complete. */
SLMC_RT_API slmc_status slmc_memcpy(void *dst, const void *src, size_t bytes);
SLMC_RT_API slmc_status slmc_memset(void *dst, int value, size_t bytes);
/* Waits for every launched kernel; reports an asynchronous failure. */
SLMC_RT_API slmc_status slmc_synchronize(void);

/* ---- Kernels -------------------------------------------------------------
 * Kernels are launched by the handle that the compiler registered with
 * __hipRegisterFunction (the address of the kernel in host code). */

/* The host version of a kernel: runs one work-item. The CPU fallback calls it
 * inside a fiber, with slmc_cpu_current_item() describing the work-item. */
typedef void (*slmc_cpu_kernel_fn)(void **args);

typedef struct slmc_launch_params {
  slmc_dim3 group_count;       /* work-groups per dimension */
  slmc_dim3 group_size;        /* work-items per work-group, per dimension */
  size_t dynamic_group_memory; /* extra group-local bytes for this launch */
  uint32_t num_args;
  /* args[i] points at the value of argument i. With dynamic group memory
   * the kernel takes one more, trailing argument, the memory's address:
   * args then has num_args + 1 entries, the last pointing at a null pointer
   * (Level Zero sets that argument to the group memory itself, CUDA passes
   * it unused, the CPU fallback ignores it). */
  void **args;
  const size_t *arg_sizes;     /* byte size of each argument */
} slmc_launch_params;

/* Launches asynchronously (in order with other launches and copies). */
SLMC_RT_API slmc_status slmc_launch(const void *kernel, slmc_cpu_kernel_fn cpu,
                                    const slmc_launch_params *params);
/* The static group-local memory of a kernel on the current device. */
SLMC_RT_API slmc_status slmc_kernel_group_memory(const void *kernel,
                                                 size_t *bytes);

/* ---- CPU fallback work-item context -------------------------------------
 * Used by kernels compiled for the host (slmc/offload.h); not for users. */
typedef struct slmc_cpu_item {
  slmc_dim3 local_id;
  slmc_dim3 group_id;
  slmc_dim3 local_size;
  slmc_dim3 group_count;
  void *dynamic_group_memory;
} slmc_cpu_item;

SLMC_RT_API const slmc_cpu_item *slmc_cpu_current_item(void);
/* Blocks the calling work-item until every work-item of its group arrives. */
SLMC_RT_API void slmc_cpu_barrier(void);

/* ---- Compiler ABI ---------------------------------------------------------
 * Clang's HIP host code generation registers the embedded device images and
 * kernels through these entry points; slmc++ embeds a sequence of LLVM
 * OffloadBinary images (SPIR-V, PTX) ended by eight zero bytes. */
SLMC_RT_API void **__hipRegisterFatBinary(const void *wrapper);
SLMC_RT_API void __hipUnregisterFatBinary(void **module);
SLMC_RT_API void __hipRegisterFunction(void **module, const void *kernel,
                                       char *device_function,
                                       const char *device_name,
                                       unsigned int thread_limit, void *tid,
                                       void *bid, slmc_dim3 *block_dim,
                                       slmc_dim3 *grid_dim, int *wsize);

/* ---- Program files ---------------------------------------------------------
 * Dialects whose host code loads its kernels at run time (C for Metal's
 * CmDevice::LoadProgram) use a program file written by
 * `slmc++ --emit=program`: the same container of LLVM OffloadBinary images
 * as the embedded one (ended by eight zero bytes), holding
 *
 *   IMG_SPIRV   spirv64-unknown-unknown   for Level Zero
 *   IMG_PTX     nvptx64-nvidia-cuda       for CUDA
 *   IMG_Object  x86_64-unknown-linux-gnu  a host shared object (linked
 *               against libslmrt) with one CPU entry per kernel,
 *               `extern "C" void slmc_cm_cpu_<name>(void **args)`
 *
 * Every image carries the string entry "slmc.kernels": the kernels'
 * signatures separated by ';', each `name(kind,kind,...)` where a kind is
 * `surface` (a buffer, passed as the dialect's surface descriptor) or
 * `value<bytes>` (a scalar or struct passed by value), e.g.
 * "nbody(surface,surface,value4,value4)". Kernel names are C identifiers
 * (the kernels are extern "C"); the images must agree on the list.
 *
 * Loading copies the data, validates every image (a corrupt or truncated
 * file gives SLMC_ERROR_INVALID_IMAGE, never a crash), loads the shared
 * object from a private in-memory file (its references to libslmrt resolve
 * to the copy already loaded) and registers the kernels like compiled ones:
 * the handles it gives out work with slmc_launch and
 * slmc_kernel_group_memory on every backend. A program stays loaded until
 * slmc_program_release; its handles are invalid afterwards. Releasing while
 * another thread uses the program is not allowed. */
typedef struct slmc_program slmc_program;

SLMC_RT_API slmc_status slmc_program_load(const void *data, size_t size,
                                          slmc_program **program);
/* Looks a kernel up by name. Every output may be NULL:
 *   handle     what slmc_launch takes;
 *   cpu        its host version for the CPU fallback (NULL when the program
 *              has no host object);
 *   signature  "name(kind,...)", owned by the program.
 * SLMC_ERROR_KERNEL_NOT_FOUND when the program has no such kernel. */
SLMC_RT_API slmc_status slmc_program_kernel(slmc_program *program,
                                            const char *name,
                                            const void **handle,
                                            slmc_cpu_kernel_fn *cpu,
                                            const char **signature);
SLMC_RT_API slmc_status slmc_program_kernel_count(const slmc_program *program,
                                                  uint32_t *count);
/* The name of kernel `index` (0 <= index < count), owned by the program. */
SLMC_RT_API slmc_status slmc_program_kernel_name(const slmc_program *program,
                                                 uint32_t index,
                                                 const char **name);
/* Unregisters the kernels and unloads the host object. NULL is a no-op. */
SLMC_RT_API slmc_status slmc_program_release(slmc_program *program);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* SLMC_RUNTIME_H */
