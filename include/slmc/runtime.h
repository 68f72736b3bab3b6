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

/* Barriers of the CPU fallback: the optimiser must not duplicate a call of
 * one or make it depend on more conditions (convergent, as GPU barriers
 * are), or work-items meant to meet at one barrier would wait at copies of
 * it, which the work-item loops cannot run (slmc_cpu_group_fn). */
#if defined(__clang__)
#define SLMC_RT_CONVERGENT __attribute__((convergent))
#else
#define SLMC_RT_CONVERGENT
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
  SLMC_ERROR_BACKEND = 10,           /* any other driver error */
  SLMC_ERROR_TASK_NOT_FOUND = 11,    /* no such task id, or already waited for */
  SLMC_ERROR_TIMEOUT = 12,           /* a wait ran out of time */
  SLMC_ERROR_UNSUPPORTED = 13,       /* the device cannot run the kernel as asked
                                        (e.g. a required sub-group size) */
  SLMC_ERROR_DATA_RACE = 14,         /* CPU, SLMC_CHECK=races: a group-local data race */
  SLMC_ERROR_GROUP_LOCAL_BOUNDS = 15 /* CPU, SLMC_CHECK=bounds: an access outside a
                                        group-local variable */
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
  /* The sub-group sizes a kernel may require (SYCL reqd_sub_group_size),
   * ascending; kernels that require none get the device's choice. */
  uint32_t sub_group_sizes[8];
  uint32_t num_sub_group_sizes;
} slmc_device_info;

/* ---- Errors ------------------------------------------------------------ */

/* A fixed English name for a status code, e.g. "SLMC_ERROR_NO_DEVICE". */
SLMC_RT_API const char *slmc_status_string(slmc_status status);
/* The message of the last failure on this thread ("" if none). */
SLMC_RT_API const char *slmc_last_error(void);
/* The status of the last failure on this thread (SLMC_SUCCESS if none). Like
 * slmc_last_error(), it is not reset by later successful calls. */
SLMC_RT_API slmc_status slmc_last_status(void);
/* Records a failure as if a runtime call had failed: `status` (not
 * SLMC_SUCCESS) and `message` become this thread's last status and error.
 * Inside a task (slmc_task_enqueue) this marks the task failed. Returns
 * `status`. For libraries built on the runtime (e.g. a dialect's launch
 * code that catches an exception). */
SLMC_RT_API slmc_status slmc_report_error(slmc_status status,
                                          const char *message);

/* ---- Device selection -------------------------------------------------- */

/* Chooses the backend. Without a call the environment variable SLMC_DEVICE
 * (level_zero | cuda | cpu) decides, else the best device present among those
 * ONEAPI_DEVICE_SELECTOR allows (DPC++'s syntax: level_zero:gpu, *:cpu, ...). Selecting
 * an absent backend fails with SLMC_ERROR_NO_DEVICE and changes nothing.
 * Must be called before any allocation or launch, or with nothing in flight. */
SLMC_RT_API slmc_status slmc_select_backend(slmc_backend backend);
/* Initialises the runtime (if needed) and reports the backend in use. */
SLMC_RT_API slmc_status slmc_get_backend(slmc_backend *backend);
/* Whether a backend has a usable device, without selecting it. */
SLMC_RT_API int slmc_backend_available(slmc_backend backend);
SLMC_RT_API const char *slmc_backend_name(slmc_backend backend);
SLMC_RT_API slmc_status slmc_get_device_info(slmc_device_info *info);
/* The device of one backend (not AUTO), without selecting it: fails with
 * SLMC_ERROR_NO_DEVICE, and slmc_last_error() saying why (driver library
 * missing, no device), when the backend cannot run. */
SLMC_RT_API slmc_status slmc_get_backend_device_info(slmc_backend backend,
                                                     slmc_device_info *info);

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
/* The host version of a kernel that runs a whole work-group: slmc++ turns
 * the kernel into loops over the group's work-items (slmcWorkItemLoops.so).
 * The CPU fallback calls it once per group, with slmc_cpu_current_item()
 * describing the group (local id 0). It returns 1 when it ran the group, 0
 * when it was not transformed and ran nothing (the work-items then run as
 * fibers), 2 when its work-items reached different barriers (divergence). */
typedef int (*slmc_cpu_group_fn)(void **args);

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
  /* The sub-group size the kernel was compiled to require (0: none). A
   * device without it among its sub_group_sizes fails the launch with
   * SLMC_ERROR_UNSUPPORTED. On the CPU fallback it is the size the
   * work-items' sub-group functions see (1 when none is required). */
  uint32_t sub_group_size;
  /* The kernel's work-group version for the CPU fallback, or NULL. */
  slmc_cpu_group_fn cpu_group;
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
  uint32_t sub_group_size; /* work-items per sub-group (by linear local id) */
} slmc_cpu_item;

/* The item of the work-item that runs the calling code. A fiber runs one
 * work-item from start to end, so every call one invocation of a function
 * makes returns the same pointer: user code may keep it (const), and an
 * accessor's "am I in a kernel?" test then costs one call per launch range,
 * not one per element. The runtime, which switches fibers, is built with
 * SLMC_RT_BUILDING and makes no such promise to itself. */
#if defined(__GNUC__) && !defined(SLMC_RT_BUILDING)
#define SLMC_RT_SAME_PER_INVOCATION __attribute__((const))
#else
#define SLMC_RT_SAME_PER_INVOCATION
#endif
SLMC_RT_API SLMC_RT_SAME_PER_INVOCATION const slmc_cpu_item *slmc_cpu_current_item(void);
/* Starts every work-group entry (slmc_cpu_group_fn): slmc++ replaces the
 * call by 1 in the entries it turned into work-item loops, and otherwise
 * passes the reason it did not. Returns 0, recording the reason for
 * SLMC_VERBOSE (NULL: the kernel was not compiled by slmc++'s host pass). */
SLMC_RT_API int slmc_cpu_work_item_loops(const char *why_not);
/* Per-work-item storage of the group running on this thread (values that
 * live across barriers, the work-items' stack variables): at least `bytes`
 * bytes aligned to `align`, kept for the thread's next groups. NULL when
 * memory runs out (the group then runs as fibers). */
SLMC_RT_API void *slmc_cpu_work_item_storage(size_t bytes, size_t align);
/* Where the CPU fallback sends a C++ AMP access outside its buffer
 * (Direct3D's rules, amp.h's detail::element): `bytes` zeroed bytes of the
 * calling thread, aligned to 64, which a write may change and the next call
 * zeroes again. Opaque to slmc++'s passes: not group-local memory. */
SLMC_RT_API void *slmc_cpu_out_of_bounds_sink(size_t bytes);
/* Called by a work-group entry, after slmc_cpu_work_item_loops, whose kernel
 * is only ever launched with work-groups of this shape (a C++ AMP tile, a
 * fixed launch shape): slmc++ then compiles the work-item loops for it
 * (constant trip counts the vectoriser can plan for) and runs the group on
 * fibers if a launch ever differs. Does nothing when called. */
SLMC_RT_API void slmc_cpu_fixed_group_shape(uint32_t x, uint32_t y, uint32_t z);
/* The x86-64 micro-architecture level whose version of a work-group entry
 * runs (1 to 4: x86-64, x86-64-v2, -v3, -v4): the host's, capped by
 * SLMC_CPU_ISA. slmc++ compiles the entries of programs built for x86-64
 * in several versions and calls this to pick one; 0 on other hosts. */
SLMC_RT_API int slmc_cpu_isa_level(void);
/* Group-local storage for one dynamic call (slmc::group_local_alloc): the
 * n-th call of a work-item gets its group's n-th block, of at least `bytes`
 * bytes aligned to `align`, the same block for every work-item of the group.
 * Null outside a kernel or when memory runs out. */
SLMC_RT_API void *slmc_cpu_group_local_alloc(size_t bytes, size_t align);
/* The same for the call numbered `site`: slmc++'s host pass inlines every
 * function that allocates into the kernel's entries and numbers the calls
 * left, one per call path, so a call made again (in a loop) gets the same
 * block, as a GPU's group-local variable. */
SLMC_RT_API void *slmc_cpu_group_local_site(size_t bytes, size_t align, uint32_t site);
/* Blocks the calling work-item until every work-item of its group arrives. */
SLMC_RT_API SLMC_RT_CONVERGENT void slmc_cpu_barrier(void);
/* Blocks the calling work-item until every work-item of its sub-group
 * arrives (a no-op when sub-groups have one work-item). */
SLMC_RT_API SLMC_RT_CONVERGENT void slmc_cpu_sub_group_barrier(void);
/* Every work-item of a sub-group calls this together: each gets the `value`
 * of the work-item at `from_lane` of its sub-group (its own when `from_lane`
 * is past the sub-group's end). */
SLMC_RT_API SLMC_RT_CONVERGENT uint32_t slmc_cpu_sub_group_shuffle(uint32_t value, uint32_t from_lane);

/* Hooks that kernels built with slmc++ -fslmc-check call (SLMC_CHECK, see
 * docs/diagnostics.md): `where` is the access's "file:line". Each returns at
 * once unless the check is on for the running work-group. */
SLMC_RT_API extern int slmc_check_races; /* nonzero: SLMC_CHECK=races is on */
/* nonzero: SLMC_CHECK=bounds (or races) is on */
SLMC_RT_API extern int slmc_check_bounds_on;
SLMC_RT_API void slmc_check_enter(void);
SLMC_RT_API void slmc_check_barrier(const char *where);
SLMC_RT_API void slmc_check_region(const void *base, uint64_t bytes, const char *name);
SLMC_RT_API void slmc_check_load(const void *address, uint64_t bytes, const char *where);
SLMC_RT_API void slmc_check_store(void *address, uint64_t bytes, const char *where);
SLMC_RT_API void slmc_check_store_value(void *address, uint64_t bytes, uint64_t value,
                                        const char *where);
SLMC_RT_API void slmc_check_atomic(void *address, uint64_t bytes, const char *where);
/* An access of `bytes` at `address`, `offset` bytes from the start of the
 * group-local variable `name` of `size` bytes, lies outside it (kind: 0 a
 * read, 1 a write, 2 an atomic); the instrumented code skips it. */
SLMC_RT_API void slmc_check_bounds(const void *address, uint64_t bytes, uint64_t offset,
                                   uint64_t size, int32_t kind, const char *name,
                                   const char *where);

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
/* The kernel's work-group version for the CPU fallback (what
 * slmc_launch_params.cpu_group takes): NULL when the program has no host
 * object or was built without one. */
SLMC_RT_API slmc_status slmc_program_kernel_group(slmc_program *program,
                                                  const char *name,
                                                  slmc_cpu_group_fn *group);
SLMC_RT_API slmc_status slmc_program_kernel_count(const slmc_program *program,
                                                  uint32_t *count);
/* The name of kernel `index` (0 <= index < count), owned by the program. */
SLMC_RT_API slmc_status slmc_program_kernel_name(const slmc_program *program,
                                                 uint32_t index,
                                                 const char **name);
/* Unregisters the kernels and unloads the host object. NULL is a no-op. */
SLMC_RT_API slmc_status slmc_program_release(slmc_program *program);

/* ---- Data sharing and offload scopes ------------------------------------
 * Used by Intel Cilk Plus graphics offload (<gfx/gfx_rt.h>, `#pragma offload`)
 * and by code lowered from it. Host memory (malloc, the stack, globals) is
 * made visible to kernels in two ways:
 *
 *   shared regions   slmc_share/slmc_unshare: global, for every thread, until
 *                    unshared (both directions);
 *   scope maps       slmc_offload_map inside slmc_offload_begin/_end: for the
 *                    calling thread's current scope only.
 *
 * Inside a scope, slmc_device_pointer(p) gives the address at which kernels
 * see the byte at host address p. On the CPU fallback that is p itself and
 * nothing is ever copied. On a GPU each region has a device mirror: the
 * first translation of a pointer into a region copies the region host ->
 * device (maps IN, INOUT, PIN and shared regions), and the end of the scope
 * in which that happened copies it back device -> host (OUT, INOUT, PIN and
 * shared) after the device has finished; regions never translated are never
 * copied. Mirrors of maps are freed at that point, those of shared regions
 * at slmc_unshare. Memory from slmc_malloc_shared/slmc_malloc_device
 * translates to itself; a pointer in no region is an error on a GPU (the
 * device could not reach it). Outside any scope, and on the CPU fallback,
 * slmc_device_pointer is the identity.
 *
 * Scopes nest; an inner scope sees the maps of the outer ones. A map lying
 * inside a region already visible adds its directions to that region; a
 * map or share partly overlapping a visible region is an error. Sharing a
 * range shared already (same start and size) counts; each share needs its
 * unshare. A region in use by a scope when unshared stays usable by that
 * scope until it ends. */
typedef enum slmc_map_kind {
  SLMC_MAP_IN = 1,    /* copied to the device before use */
  SLMC_MAP_OUT = 2,   /* copied back when the scope ends */
  SLMC_MAP_INOUT = 3, /* both */
  SLMC_MAP_PIN = 4    /* shared with the device for the scope: both ways */
} slmc_map_kind;

SLMC_RT_API slmc_status slmc_share(void *host, size_t bytes);
/* `host` must be the start of a shared range (SLMC_ERROR_INVALID_VALUE
 * otherwise). */
SLMC_RT_API slmc_status slmc_unshare(void *host);

SLMC_RT_API slmc_status slmc_offload_begin(void);
/* Only inside a scope; zero bytes is a no-op. */
SLMC_RT_API slmc_status slmc_offload_map(void *host, size_t bytes,
                                         slmc_map_kind kind);
/* Ends the innermost scope of this thread: copies back and frees what it
 * made live. Every region is handled even when one fails; the first failure
 * is returned. */
SLMC_RT_API slmc_status slmc_offload_end(void);
/* Non-zero inside a scope on the calling thread. */
SLMC_RT_API int slmc_offload_active(void);
/* The device-visible address of `host` (see above). NULL, with the error
 * recorded, when a mirror cannot be allocated or filled or `host` is in no
 * region (an address one past the end of a region is in none: it may be
 * the start of the next object). */
SLMC_RT_API void *slmc_device_pointer(void *host);
/* How many failures this thread has recorded so far (a mark for
 * slmc_offload_ran_on_host). */
SLMC_RT_API uint64_t slmc_failure_count(void);
/* Work meant for the device ran on the host instead, after failures
 * recorded since `since` (a slmc_failure_count() value): those no longer
 * fail the task of the offload queue that contains them (they stay the
 * thread's last error; a data race found by SLMC_CHECK still fails it),
 * and the regions whose mirrors this thread's scopes
 * hold are copied host -> device again, so that later kernels and the
 * copy-back at the end of the scope keep the host's writes. */
SLMC_RT_API slmc_status slmc_offload_ran_on_host(uint64_t since);

/* ---- Task queue ------------------------------------------------------------
 * One in-order queue per process, run by one worker thread (started by the
 * first enqueue). Each task runs `run(ctx)` inside an offload scope, so the
 * shared regions it uses are copied to the device before and back after it;
 * then `release(ctx)` (if not NULL) runs, whatever happened. Any runtime
 * call that fails on the worker while a task runs (a failed launch, a copy
 * back) marks the task failed with that status and message; so does
 * slmc_report_error, and an exception escaping `run`.
 *
 * Task ids start at 1 and increase by one per enqueue, in queue order.
 * slmc_task_wait(id, timeout_ms) waits until task `id` and every earlier one
 * have finished; id 0 means every task enqueued so far (success at once if
 * none is outstanding). timeout_ms -1 waits for ever, 0 polls; on time-out it
 * returns SLMC_ERROR_TIMEOUT and the id stays valid. When the tasks have
 * finished, the wait retires `id` and all earlier ids (waiting on them again
 * gives SLMC_ERROR_TASK_NOT_FOUND, as do ids never given out) and reports
 * the first failure among the tasks it retired: its status, with the task's
 * message as this thread's last error. Each failure is reported once.
 * Waiting from inside a task for itself or a later task is
 * SLMC_ERROR_INVALID_VALUE (it would never end).
 *
 * At exit the tasks not yet started are released without running; the one
 * running is waited for (unless a task called exit); threads still waiting
 * stay blocked while the process ends. All functions are thread-safe. */
typedef void (*slmc_task_fn)(void *ctx);

/* `id` may be NULL. On failure `release(ctx)` has been called. */
SLMC_RT_API slmc_status slmc_task_enqueue(slmc_task_fn run, void *ctx,
                                          slmc_task_fn release, uint64_t *id);
SLMC_RT_API slmc_status slmc_task_wait(uint64_t id, int64_t timeout_ms);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* SLMC_RUNTIME_H */
