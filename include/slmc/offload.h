//===- slmc/offload.h - The offload C++ that slmc lowers dialects to ------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Lowered programs and the dialect libraries (<amp.h>, ...) are written
// against this header. One source is compiled in up to four passes, and this
// header gives each pass its meaning of the same words:
//
//   pass                      how it is compiled            group-local data
//   ------------------------  ----------------------------  -------------------
//   SLMC_PASS_SPIRV           HIP device, spirv64           __shared__ (Workgroup)
//   SLMC_PASS_PTX             CUDA device, nvptx64          __shared__ (.shared)
//   SLMC_PASS_HOST            HIP host (embeds the images)  static thread_local
//   SLMC_PASS_CHECK           plain C++ (plugin, checking)  static thread_local
//
// In the host pass every kernel body is also compiled for the CPU fallback:
// a work-group runs on one OS thread at a time, its work-items as fibers, so
// a `static thread_local` variable is exactly one copy per running group.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_OFFLOAD_H
#define SLMC_OFFLOAD_H

#include "slmc/detail/early.h"
#include "slmc/detail/cilk_keywords.h"

#include <stddef.h>
#include <stdint.h>

#if defined(__HIP_DEVICE_COMPILE__) && (defined(__SPIRV__) || defined(__SPIRV64__))
#define SLMC_PASS_SPIRV 1
#define SLMC_DEVICE_PASS 1
#elif defined(__CUDA_ARCH__) && defined(__NVPTX__)
#define SLMC_PASS_PTX 1
#define SLMC_DEVICE_PASS 1
#elif defined(__HIP__) || defined(__CUDA__)
#define SLMC_PASS_HOST 1
#else
#define SLMC_PASS_CHECK 1
#endif

/// A square root that is the compiler's intrinsic, never the C library's:
/// kernels set no errno, and a call that may set it keeps the CPU
/// fallback's loops from being vectorised.
#if defined(__clang__)
#define SLMC_SQRT(x) __builtin_elementwise_sqrt(x)
#else
#define SLMC_SQRT(x) __builtin_sqrt(x)
#endif

// ---- Function and variable spaces --------------------------------------
#if defined(__HIP__) || defined(__CUDA__)
#define SLMC_HD __attribute__((host, device))
#define SLMC_DEVICE_ONLY __attribute__((device))
#define SLMC_KERNEL __attribute__((global))
// Host and device code between them, as implicit attributes: a function
// template's explicit instantiations and specialisations must then repeat
// none (C for Metal kernel templates: `template void k<float>(...);`).
#define SLMC_HD_BEGIN _Pragma("clang force_cuda_host_device begin")
#define SLMC_HD_END _Pragma("clang force_cuda_host_device end")
#else
// The check pass keeps the information as annotations for the front end.
#define SLMC_HD __attribute__((annotate("slmc.hd")))
#define SLMC_DEVICE_ONLY
#define SLMC_KERNEL
#define SLMC_HD_BEGIN
#define SLMC_HD_END
#endif

// Marks library entry points that the front end's model builders look for
// (e.g. "amp.parallel_for_each"); harmless in every pass.
#define SLMC_ENTRY_POINT(name) __attribute__((annotate("slmc.entry:" name)))

#if defined(SLMC_DEVICE_PASS)
#define SLMC_GROUP_LOCAL __attribute__((shared))
#else
#define SLMC_GROUP_LOCAL static thread_local
#endif

// Statements that only make sense on the host (reference counts, copies back
// to host memory) and must vanish from device code.
#if defined(SLMC_DEVICE_PASS)
#define SLMC_HOST_ONLY(...)
#else
#define SLMC_HOST_ONLY(...) __VA_ARGS__
#endif

// Dialect restriction keywords after lowering (C++ AMP restrict(...)).
#define SLMC_RESTRICT_AMP SLMC_HD
#define SLMC_RESTRICT_CPU
#define SLMC_RESTRICT_AMP_CPU SLMC_HD
// A call in restrict(cpu, amp) code to a function overloaded on its
// restriction: the amp overload in device code, the cpu one on the host.
// SLMC_AMP_OVERLOAD_FN, for plain functions, chooses on the host when it
// runs: the amp overload inside a work-item of the CPU fallback.
// An operator or conversion function overloaded on its restriction keeps
// its name in one overload per pass: the amp one in device passes, the cpu
// one on the host, where it calls the renamed amp one (SLMC_AMP_DISPATCH)
// inside a work-item.
#if defined(SLMC_DEVICE_PASS)
#define SLMC_AMP_OVERLOAD(cpu, amp) amp
#define SLMC_AMP_OVERLOAD_FN(cpu, amp) amp
#define SLMC_AMP_OPERATOR(op, name) op
#define SLMC_CPU_OPERATOR(op, name) name
#define SLMC_AMP_CONVERSION(type, name) operator type
#define SLMC_CPU_CONVERSION(type, name) type name
#define SLMC_AMP_EXPLICIT explicit
#define SLMC_CPU_EXPLICIT
#define SLMC_AMP_CONSTRUCTOR
#define SLMC_AMP_CONSTRUCTOR_FIRST
#define SLMC_CPU_CONSTRUCTOR ::slmc::cpu_constructor
#define SLMC_CPU_CONSTRUCTOR_FIRST ::slmc::cpu_constructor,
#define SLMC_AMP_CONSTRUCT
#define SLMC_AMP_CONSTRUCT_FIRST
#define SLMC_AMP_DISPATCH(call)
#else
#define SLMC_AMP_OVERLOAD(cpu, amp) cpu
#define SLMC_AMP_OVERLOAD_FN(cpu, amp) (::slmc_cpu_current_item() ? amp : cpu)
#define SLMC_AMP_OPERATOR(op, name) name
#define SLMC_CPU_OPERATOR(op, name) op
#define SLMC_AMP_CONVERSION(type, name) type name
#define SLMC_CPU_CONVERSION(type, name) operator type
#define SLMC_AMP_EXPLICIT
#define SLMC_CPU_EXPLICIT explicit
#define SLMC_AMP_CONSTRUCTOR ::slmc::amp_constructor
#define SLMC_AMP_CONSTRUCTOR_FIRST ::slmc::amp_constructor,
#define SLMC_CPU_CONSTRUCTOR
#define SLMC_CPU_CONSTRUCTOR_FIRST
#define SLMC_AMP_CONSTRUCT ::slmc::amp_constructor{}
#define SLMC_AMP_CONSTRUCT_FIRST ::slmc::amp_constructor{},
#define SLMC_AMP_DISPATCH(call)                                                \
  if (::slmc_cpu_current_item())                                               \
    return call;
#endif

// Declared in every pass: the device passes parse host code too.
#include "slmc/runtime.h"

namespace slmc {
/// Tags that tell constructors overloaded on their restriction apart in the
/// passes that cannot keep both under one signature (SLMC_*_CONSTRUCTOR).
struct amp_constructor {};
struct cpu_constructor {};
} // namespace slmc

// Clang's HIP host code generation calls these from kernel stubs.
#if defined(SLMC_PASS_HOST)
extern "C" int hipLaunchKernel(const void *, slmc_dim3, slmc_dim3, void **,
                               size_t, void *);
#endif

// ---- Work-item builtins --------------------------------------------------
#if defined(SLMC_PASS_SPIRV)
// Recognised by LLVM's SPIR-V backend and turned into BuiltIn variables and
// OpControlBarrier.
// The ids and sizes are constant for a work-item (`const`: the optimiser
// merges repeated reads, so what it learns about one holds for all).
SLMC_DEVICE_ONLY __attribute__((const, noconvergent)) size_t __spirv_BuiltInLocalInvocationId(int);
SLMC_DEVICE_ONLY __attribute__((const, noconvergent)) size_t __spirv_BuiltInWorkgroupId(int);
SLMC_DEVICE_ONLY __attribute__((const, noconvergent)) size_t __spirv_BuiltInWorkgroupSize(int);
SLMC_DEVICE_ONLY __attribute__((const, noconvergent)) size_t __spirv_BuiltInNumWorkgroups(int);
SLMC_DEVICE_ONLY void __spirv_ControlBarrier(int, int, int);
SLMC_DEVICE_ONLY void __spirv_MemoryBarrier(int, int);
// OpAtomicCompareExchange (pointer, scope, semantics if equal, if not,
// value, comparator), which returns the old value alone.
SLMC_DEVICE_ONLY uint32_t __spirv_AtomicCompareExchange(uint32_t *, int, int, int, uint32_t,
                                                        uint32_t);
SLMC_DEVICE_ONLY uint64_t __spirv_AtomicCompareExchange(uint64_t *, int, int, int, uint64_t,
                                                        uint64_t);
#endif

namespace slmc {

// SPIR-V scopes and memory semantics used by barriers and fences.
enum : int {
  kScopeDevice = 1,
  kScopeWorkgroup = 2,
  kSemAcqRel = 0x8,
  kSemWorkgroupMemory = 0x100,
  kSemCrossWorkgroupMemory = 0x200,
};

// A work-group has at most a few thousand work-items on every device, so
// local ids and sizes are non-negative as ints: told so, the compiler
// extends an int index made from one without 64-bit shifts (which Intel
// Gen12 emulates).
#if defined(SLMC_PASS_SPIRV)
SLMC_HD inline uint32_t within_a_group(size_t v) {
  __builtin_assume(v <= 0x7fffffff);
  return (uint32_t)v;
}
#endif

SLMC_HD inline uint32_t local_id(int d) {
#if defined(SLMC_PASS_SPIRV)
  return within_a_group(__spirv_BuiltInLocalInvocationId(d));
#elif defined(SLMC_PASS_PTX)
  return d == 0 ? __nvvm_read_ptx_sreg_tid_x()
                : d == 1 ? __nvvm_read_ptx_sreg_tid_y() : __nvvm_read_ptx_sreg_tid_z();
#else
  const slmc_dim3 &v = slmc_cpu_current_item()->local_id;
  return d == 0 ? v.x : d == 1 ? v.y : v.z;
#endif
}

SLMC_HD inline uint32_t group_id(int d) {
#if defined(SLMC_PASS_SPIRV)
  return (uint32_t)__spirv_BuiltInWorkgroupId(d);
#elif defined(SLMC_PASS_PTX)
  return d == 0 ? __nvvm_read_ptx_sreg_ctaid_x()
                : d == 1 ? __nvvm_read_ptx_sreg_ctaid_y() : __nvvm_read_ptx_sreg_ctaid_z();
#else
  const slmc_dim3 &v = slmc_cpu_current_item()->group_id;
  return d == 0 ? v.x : d == 1 ? v.y : v.z;
#endif
}

SLMC_HD inline uint32_t local_size(int d) {
#if defined(SLMC_PASS_SPIRV)
  return within_a_group(__spirv_BuiltInWorkgroupSize(d));
#elif defined(SLMC_PASS_PTX)
  return d == 0 ? __nvvm_read_ptx_sreg_ntid_x()
                : d == 1 ? __nvvm_read_ptx_sreg_ntid_y() : __nvvm_read_ptx_sreg_ntid_z();
#else
  const slmc_dim3 &v = slmc_cpu_current_item()->local_size;
  return d == 0 ? v.x : d == 1 ? v.y : v.z;
#endif
}

SLMC_HD inline uint32_t group_count(int d) {
#if defined(SLMC_PASS_SPIRV)
  return (uint32_t)__spirv_BuiltInNumWorkgroups(d);
#elif defined(SLMC_PASS_PTX)
  return d == 0 ? __nvvm_read_ptx_sreg_nctaid_x()
                : d == 1 ? __nvvm_read_ptx_sreg_nctaid_y() : __nvvm_read_ptx_sreg_nctaid_z();
#else
  const slmc_dim3 &v = slmc_cpu_current_item()->group_count;
  return d == 0 ? v.x : d == 1 ? v.y : v.z;
#endif
}

/// Work-group barrier that also orders group-local and global memory: every
/// dialect's barrier lowers to this.
SLMC_HD inline void group_barrier() {
#if defined(SLMC_PASS_SPIRV)
  __spirv_ControlBarrier(kScopeWorkgroup, kScopeWorkgroup,
                         kSemAcqRel | kSemWorkgroupMemory | kSemCrossWorkgroupMemory);
#elif defined(SLMC_PASS_PTX)
  __nvvm_barrier_sync(0);
#else
  slmc_cpu_barrier();
#endif
}

/// Barrier that orders only group-local memory.
SLMC_HD inline void group_barrier_local() {
#if defined(SLMC_PASS_SPIRV)
  __spirv_ControlBarrier(kScopeWorkgroup, kScopeWorkgroup,
                         kSemAcqRel | kSemWorkgroupMemory);
#elif defined(SLMC_PASS_PTX)
  __nvvm_barrier_sync(0);
#else
  slmc_cpu_barrier();
#endif
}

/// Barrier that orders only global memory (still a work-group barrier).
SLMC_HD inline void group_barrier_global() {
#if defined(SLMC_PASS_SPIRV)
  __spirv_ControlBarrier(kScopeWorkgroup, kScopeWorkgroup,
                         kSemAcqRel | kSemCrossWorkgroupMemory);
#elif defined(SLMC_PASS_PTX)
  __nvvm_barrier_sync(0);
#else
  slmc_cpu_barrier();
#endif
}

/// Memory fence for the work-group, without a barrier.
SLMC_HD inline void group_fence() {
#if defined(SLMC_PASS_SPIRV)
  __spirv_MemoryBarrier(kScopeWorkgroup,
                        kSemAcqRel | kSemWorkgroupMemory | kSemCrossWorkgroupMemory);
#elif defined(SLMC_PASS_PTX)
  __nvvm_membar_cta();
#else
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
}

// ---- Group-local storage created by code ---------------------------------
// Dialects whose group-local data is created by a call (SYCL's
// group_local_memory, CM's cm_slm_init, Cilk's initialised
// __thread_group_local) get one block of raw storage per call site. Lowering
// marks each site with a distinct type derived from site_base, declared in
// an anonymous namespace of the lowered file, so storage is per site and per
// translation unit. No constructor runs on the storage itself.

struct site_base {};

template <class T, class Site> SLMC_HD inline T *group_local_storage() {
  alignas(T) SLMC_GROUP_LOCAL unsigned char storage[sizeof(T)];
  return reinterpret_cast<T *>(storage);
}

/// Storage one call path creates: where one call site may stand for several
/// call paths (a SYCL helper a kernel calls twice, a template's
/// instantiations), each path needs its own block, as after inlining. The
/// device passes leave __slmc_group_local_alloc to slmc++, which inlines the
/// functions on each path into the kernel and gives every remaining call a
/// group-local variable of its own; slmc++'s host pass does the same for
/// the CPU fallback (lib/CpuFallback/GroupLocalSites.cpp: a block per call
/// left, so a call made again in a loop gets the same one). Without that
/// pass the n-th call of a work-item gets the group's n-th block. Null
/// outside a kernel.
#if defined(SLMC_DEVICE_PASS)
extern "C" SLMC_DEVICE_ONLY void *__slmc_group_local_alloc(size_t bytes, size_t align);
#endif
// Size and alignment are template arguments so that the device call has
// constant operands before any optimisation.
template <size_t Bytes, size_t Align> SLMC_HD inline void *group_local_alloc() {
#if defined(SLMC_DEVICE_PASS)
  return __slmc_group_local_alloc(Bytes, Align);
#else
  return slmc_cpu_group_local_alloc(Bytes, Align);
#endif
}

/// True in exactly one work-item of the group (local id 0 in every dimension).
SLMC_HD inline bool is_group_leader() {
  return local_id(0) == 0 && local_id(1) == 0 && local_id(2) == 0;
}

/// The same for a group whose dimensions past the first `Dims` have one
/// work-item (a SYCL group<Dims>): those ids are 0 and are not tested.
template <int Dims> SLMC_HD inline bool is_group_leader() {
  static_assert(Dims >= 1 && Dims <= 3, "a group has 1, 2 or 3 dimensions");
  return local_id(0) == 0 && (Dims < 2 || local_id(1) == 0) && (Dims < 3 || local_id(2) == 0);
}

/// Placement construction usable in device code (the standard placement
/// new is a host function there).
struct construct_tag {};

} // namespace slmc

// Not noexcept: a noexcept allocation function may return null, which makes
// clang test the result (an OpPtrEqual that Intel's compiler rejects).
SLMC_HD inline void *operator new(size_t, void *where, slmc::construct_tag) {
  return where;
}

namespace slmc {

// ---- Kernel entry and launch -------------------------------------------
// Every dialect library wraps one work-item of a kernel in a functor `F`
// whose const operator() is SLMC_HD. The one kernel template below is the
// device entry for all of them; its host-side address is the kernel's
// identity across the device passes, the host pass and the CPU fallback.

// ---- Required sub-group size ------------------------------------------------
// A kernel functor with `static constexpr unsigned slmc_reqd_sub_group_size`
// requires that sub-group size (SYCL's reqd_sub_group_size: lowering adds
// the member to a functor class and wraps a lambda in sub_group_sized). The
// SPIR-V pass marks the kernel (slmc++ turns the mark into the SubgroupSize
// execution mode); the launch asks the runtime for it.
namespace detail {
template <class F, class = decltype(F::slmc_reqd_sub_group_size)>
constexpr unsigned required_sub_group_size(int) {
  return F::slmc_reqd_sub_group_size;
}
template <class F> constexpr unsigned required_sub_group_size(long) { return 0; }
} // namespace detail
template <class F>
constexpr unsigned required_sub_group_size = detail::required_sub_group_size<F>(0);

/// A lambda with a required sub-group size: the lambda itself (its call
/// operator, its captures) plus the requirement.
template <unsigned N, class F> struct sub_group_sized : F {
  static_assert(N > 0, "reqd_sub_group_size: the size must be positive");
  static constexpr unsigned slmc_reqd_sub_group_size = N;
  SLMC_HD explicit sub_group_sized(const F &f) : F(f) {}
  using F::operator();
};
template <unsigned N, class F> SLMC_HD sub_group_sized<N, F> with_sub_group_size(const F &f) {
  return sub_group_sized<N, F>(f);
}

// ---- Work-group shape known at compile time --------------------------------
// A kernel functor with `static constexpr group_shape
// slmc_reqd_work_group_size` is only ever launched with work-groups of that
// shape (x fastest; a C++ AMP tiled_extent, a fixed launch shape). The
// SPIR-V pass marks the kernel, slmc++ turns the mark into the LocalSize
// execution mode, and IGC compiles for exactly that shape (constant local
// sizes and ids, fewer registers), as it does for OpenCL C's
// reqd_work_group_size. The dialect library guarantees the launch shape.
struct group_shape {
  unsigned x, y, z;
};
namespace detail {
template <class F, class = decltype(F::slmc_reqd_work_group_size)>
constexpr group_shape required_work_group_size(int) {
  return F::slmc_reqd_work_group_size;
}
template <class F> constexpr group_shape required_work_group_size(long) {
  return {0, 0, 0};
}
} // namespace detail
template <class F>
constexpr group_shape required_work_group_size = detail::required_work_group_size<F>(0);

// A functor with `static constexpr group_shape slmc_expected_work_group_size`
// asks for that shape but may get fewer work-items where a device's limit is
// lower (a Cilk Plus thread group): no execution mode, but the CPU fallback,
// whose limit is 1024, compiles its work-item loops for it (a launch of
// another shape runs on fibers).
namespace detail {
template <class F, class = decltype(F::slmc_expected_work_group_size)>
constexpr group_shape expected_work_group_size(int) {
  return F::slmc_expected_work_group_size;
}
template <class F> constexpr group_shape expected_work_group_size(long) {
  return ::slmc::required_work_group_size<F>;
}
} // namespace detail
template <class F>
constexpr group_shape expected_work_group_size = detail::expected_work_group_size<F>(0);

/// A work-group shape as SYCL's reqd_work_group_size writes it: `dims`
/// extents, the slowest-varying first (the SYCL library turns it into a
/// group_shape for the kernel's dimensionality).
struct written_group_shape {
  unsigned dims;
  size_t extent[3];
};

/// A lambda with a required work-group shape (SYCL's reqd_work_group_size:
/// lowering wraps the lambda, or gives a functor class the member).
template <class F, size_t... E> struct work_group_sized : F {
  static_assert(sizeof...(E) >= 1 && sizeof...(E) <= 3,
                "reqd_work_group_size takes one to three dimensions");
  static_assert(((E > 0) && ...), "reqd_work_group_size: the dimensions must be positive");
  static constexpr written_group_shape slmc_written_work_group_size = {sizeof...(E), {E...}};
  SLMC_HD explicit work_group_sized(const F &f) : F(f) {}
  using F::operator();
};
template <size_t... E, class F> SLMC_HD work_group_sized<F, E...> with_work_group_size(const F &f) {
  return work_group_sized<F, E...>(f);
}

#if defined(SLMC_PASS_SPIRV)
extern "C" SLMC_DEVICE_ONLY void __slmc_reqd_sub_group_size(unsigned size);
extern "C" SLMC_DEVICE_ONLY void __slmc_reqd_work_group_size(unsigned x, unsigned y,
                                                             unsigned z);
#endif

/// The marks the SPIR-V pass turns into execution modes (see above). A
/// macro: slmc++ reads them before any inlining, so they must be calls made
/// by the kernel entry itself.
#if defined(SLMC_PASS_SPIRV)
#define SLMC_MARK_KERNEL_REQUIREMENTS(F)                                       \
  do {                                                                         \
    if (::slmc::required_sub_group_size<F>)                                    \
      __slmc_reqd_sub_group_size(::slmc::required_sub_group_size<F>);          \
    constexpr ::slmc::group_shape slmc_shape = ::slmc::required_work_group_size<F>; \
    if (slmc_shape.x)                                                          \
      __slmc_reqd_work_group_size(slmc_shape.x, slmc_shape.y, slmc_shape.z);   \
  } while (0)
#else
#define SLMC_MARK_KERNEL_REQUIREMENTS(F) ((void)0)
#endif

/// Tells the optimiser the work-group shape a kernel requires: local sizes
/// fold to constants and loops over the group's work-items get constant
/// strides and trip counts (a group-wide zeroing loop becomes one store).
template <class F> SLMC_HD inline void assume_required_shape() {
#if defined(SLMC_PASS_SPIRV) || defined(SLMC_PASS_PTX)
  constexpr group_shape shape = required_work_group_size<F>;
  if constexpr (shape.x != 0) {
    // Constants and no loop: the assumptions must be plain comparisons when
    // the optimiser first sees them, or it drops them. (Read first: Clang
    // ignores an assumption that calls a function.)
    const uint32_t sx = local_size(0), sy = local_size(1), sz = local_size(2);
    const uint32_t ix = local_id(0), iy = local_id(1), iz = local_id(2);
    __builtin_assume(sx == shape.x);
    __builtin_assume(sy == shape.y);
    __builtin_assume(sz == shape.z);
    __builtin_assume(ix < shape.x);
    __builtin_assume(iy < shape.y);
    __builtin_assume(iz < shape.z);
  }
#endif
}

template <class F> SLMC_KERNEL void kernel_entry(F f) {
  SLMC_MARK_KERNEL_REQUIREMENTS(F);
  assume_required_shape<F>();
  f();
}

template <class F> void cpu_entry(void **args) {
  (*static_cast<const F *>(args[0]))();
}

/// A group entry's promise that its kernel's work-groups have the shape
/// the functor requires or expects, if any (slmc_cpu_fixed_group_shape).
#define SLMC_CPU_FIXED_GROUP_SHAPE(F)                                          \
  do {                                                                         \
    constexpr ::slmc::group_shape slmc_shape = ::slmc::expected_work_group_size<F>; \
    if (slmc_shape.x)                                                          \
      slmc_cpu_fixed_group_shape(slmc_shape.x, slmc_shape.y, slmc_shape.z);   \
  } while (0)

/// The work-group version (slmc_cpu_group_fn): as written it runs nothing
/// and returns 0; slmc++'s host pass turns its body into loops over the
/// group's work-items around the kernel, barriers cutting the loops
/// (lib/CpuFallback/WorkItemLoops.cpp).
template <class F> int cpu_group_entry(void **args) {
  if (!slmc_cpu_work_item_loops(nullptr))
    return 0;
  SLMC_CPU_FIXED_GROUP_SHAPE(F);
  // The group's own copy of the functor's bytes, as a GPU launch copies
  // them into each work-item's kernel arguments (no constructor or
  // destructor runs, so no cleanup code stands between the kernel and the
  // runtime's exception handler): the optimiser then keeps the captures in
  // registers.
  alignas(F) unsigned char storage[sizeof(F)];
  __builtin_memcpy(storage, args[0], sizeof(F));
  (*__builtin_launder(reinterpret_cast<const F *>(storage)))();
  return 1;
}

/// Launches `f` over `groups` work-groups of `group_size` work-items each.
/// Returns the runtime's status; dialect libraries turn it into their own
/// exceptions or error codes.
template <class F>
slmc_status launch(const F &f, slmc_dim3 groups, slmc_dim3 group_size,
                   size_t dynamic_group_memory = 0) {
  void *args[1] = {const_cast<F *>(&f)};
  size_t sizes[1] = {sizeof(F)};
  slmc_launch_params p{};
  p.sub_group_size = required_sub_group_size<F>;
  p.group_count = groups;
  p.group_size = group_size;
  p.dynamic_group_memory = dynamic_group_memory;
  p.num_args = 1;
  p.args = args;
  p.arg_sizes = sizes;
#if !defined(SLMC_PASS_CHECK)
  // Naming the kernel here is also what instantiates it in the device passes.
  const void *handle = reinterpret_cast<const void *>(&kernel_entry<F>);
#else
  // Checked-only builds (the plugin on a plain clang++ command) carry no
  // device image: the runtime runs such kernels on the CPU fallback.
  const void *handle = nullptr;
#endif
  p.cpu_group = &cpu_group_entry<F>;
  return slmc_launch(handle, &cpu_entry<F>, &p);
}

// ---- Kernels with dynamic group-local memory ------------------------------
// The size is chosen at launch. Level Zero passes it as a trailing pointer
// argument in the Workgroup address space (set with a null value and the
// size), CUDA as the kernel's `extern __shared__` array, and the CPU fallback
// in the work-item context. The functor receives the pointer.

// The same type in every pass, so the kernel's mangled name agrees; address
// space 3 is Workgroup in SPIR-V and .shared in PTX.
typedef __attribute__((address_space(3))) unsigned char dynamic_local_byte;
// (CUDA rejects `.ptr .shared` kernel parameters: slmc++ drops that
// qualifier from the PTX, where the parameter is unused anyway.)

#if defined(SLMC_PASS_PTX)
extern __attribute__((shared, aligned(16))) unsigned char slmc_dynamic_group_memory[];
#endif

template <class F>
SLMC_KERNEL void kernel_entry_dynamic(F f, dynamic_local_byte *memory) {
  SLMC_MARK_KERNEL_REQUIREMENTS(F);
  assume_required_shape<F>();
#if defined(SLMC_PASS_PTX)
  (void)memory;
  f(slmc_dynamic_group_memory);
#elif defined(SLMC_PASS_SPIRV)
  f((unsigned char *)memory);
#else
  // Host passes never run this entry: the CPU fallback calls
  // cpu_entry_dynamic.
  (void)f;
  (void)memory;
#endif
}

template <class F> void cpu_entry_dynamic(void **args) {
  (*static_cast<const F *>(args[0]))(
      static_cast<unsigned char *>(slmc_cpu_current_item()->dynamic_group_memory));
}

template <class F> int cpu_group_entry_dynamic(void **args) {
  if (!slmc_cpu_work_item_loops(nullptr))
    return 0;
  SLMC_CPU_FIXED_GROUP_SHAPE(F);
  alignas(F) unsigned char storage[sizeof(F)];
  __builtin_memcpy(storage, args[0], sizeof(F));
  (*__builtin_launder(reinterpret_cast<const F *>(storage)))(
      static_cast<unsigned char *>(slmc_cpu_current_item()->dynamic_group_memory));
  return 1;
}

/// As launch(), with `bytes` of group-local memory chosen now.
template <class F>
slmc_status launch_dynamic(const F &f, slmc_dim3 groups, slmc_dim3 group_size,
                           size_t bytes) {
  // The trailing memory argument: its value is supplied by the backend.
  void *no_memory = nullptr;
  void *args[2] = {const_cast<F *>(&f), &no_memory};
  size_t sizes[2] = {sizeof(F), sizeof(void *)};
  slmc_launch_params p{};
  p.sub_group_size = required_sub_group_size<F>;
  p.group_count = groups;
  p.group_size = group_size;
  p.dynamic_group_memory = bytes;
  p.num_args = 1;
  p.args = args;
  p.arg_sizes = sizes;
#if !defined(SLMC_PASS_CHECK)
  const void *handle = reinterpret_cast<const void *>(&kernel_entry_dynamic<F>);
#else
  const void *handle = nullptr;
#endif
  p.cpu_group = &cpu_group_entry_dynamic<F>;
  return slmc_launch(handle, &cpu_entry_dynamic<F>, &p);
}

} // namespace slmc

#endif // SLMC_OFFLOAD_H
