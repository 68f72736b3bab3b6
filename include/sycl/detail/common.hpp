//===- sycl/detail/common.hpp - Basics shared by the SYCL headers ---------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// slmc's SYCL 2020 library is written in slmc's offload C++ (slmc/offload.h),
// so the same headers serve the check pass, the two device passes and the
// host pass with its CPU fallback. Everything is declared in every pass (the
// device passes parse host code too); what kernels call is SLMC_HD.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_SYCL_DETAIL_COMMON_HPP
#define SLMC_SYCL_DETAIL_COMMON_HPP

#include "slmc/offload.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <functional>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <mutex>
#include <string>
#include <system_error>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

// ---- Feature-test macros ----------------------------------------------------
#ifndef SYCL_LANGUAGE_VERSION
#define SYCL_LANGUAGE_VERSION 202012
#endif
/// This implementation (slmc's SYCL library).
#define SYCL_IMPLEMENTATION_SLMC 1
/// sycl_ext_oneapi_local_memory: group_local_memory and
/// group_local_memory_for_overwrite, with aggregate initialisation of arrays.
#define SYCL_EXT_ONEAPI_LOCAL_MEMORY 2

/// Functions defined in one translation unit and called from kernels.
#ifndef SYCL_EXTERNAL
#define SYCL_EXTERNAL SLMC_HD
#endif

namespace sycl {

// ---- Access enumerations ------------------------------------------------------
enum class access_mode {
  read,
  write,
  read_write,
  discard_write,      // SYCL 1.2.1 (deprecated)
  discard_read_write, // SYCL 1.2.1 (deprecated)
  atomic              // SYCL 1.2.1 (deprecated)
};

enum class target {
  device,
  host_task,
  constant_buffer, // deprecated
  local,           // deprecated: use local_accessor
  host_buffer,     // deprecated: use host_accessor
  global_buffer = device
};

namespace access {
using mode = sycl::access_mode;
using target = sycl::target;
enum class fence_space { local_space, global_space, global_and_local };
enum class address_space {
  private_space,
  global_space,
  local_space,
  constant_space,
  generic_space,
  ext_intel_global_device_space,
  ext_intel_global_host_space
};
enum class decorated { no, yes, legacy };
enum class placeholder { false_t, true_t };
} // namespace access

// ---- Memory model -------------------------------------------------------------
enum class memory_order { relaxed, acquire, release, acq_rel, seq_cst };
inline constexpr memory_order memory_order_relaxed = memory_order::relaxed;
inline constexpr memory_order memory_order_acquire = memory_order::acquire;
inline constexpr memory_order memory_order_release = memory_order::release;
inline constexpr memory_order memory_order_acq_rel = memory_order::acq_rel;
inline constexpr memory_order memory_order_seq_cst = memory_order::seq_cst;

enum class memory_scope { work_item, sub_group, work_group, device, system };
inline constexpr memory_scope memory_scope_work_item = memory_scope::work_item;
inline constexpr memory_scope memory_scope_sub_group = memory_scope::sub_group;
inline constexpr memory_scope memory_scope_work_group = memory_scope::work_group;
inline constexpr memory_scope memory_scope_device = memory_scope::device;
inline constexpr memory_scope memory_scope_system = memory_scope::system;

// ---- Properties ---------------------------------------------------------------
namespace property {
/// Accessors: the previous contents need not be kept (they are anyway).
struct no_init {};
namespace queue {
struct in_order {};        // every queue is in order
struct enable_profiling {};
} // namespace queue
namespace buffer {
struct use_host_ptr {};
struct use_mutex {};
struct context_bound {};
} // namespace buffer
namespace reduction {
/// The reduction variable's old value is not combined (reduction.hpp).
struct initialize_to_identity {};
} // namespace reduction
} // namespace property

inline constexpr property::no_init no_init{};

template <typename T> struct is_property : std::false_type {};
template <> struct is_property<property::no_init> : std::true_type {};
template <> struct is_property<property::queue::in_order> : std::true_type {};
template <> struct is_property<property::queue::enable_profiling> : std::true_type {};
template <> struct is_property<property::buffer::use_host_ptr> : std::true_type {};
template <> struct is_property<property::buffer::use_mutex> : std::true_type {};
template <> struct is_property<property::buffer::context_bound> : std::true_type {};
template <> struct is_property<property::reduction::initialize_to_identity> : std::true_type {};

/// A set of properties. Only their presence is recorded; of them only
/// initialize_to_identity changes what this implementation does.
class property_list {
public:
  property_list() = default;
  template <typename... Props,
            typename = typename std::enable_if<
                (is_property<typename std::decay<Props>::type>::value && ...)>::type>
  property_list(Props... props) {
    (record(props), ...);
  }
  template <typename P> bool has_property() const noexcept {
    return (bits_ & bit<P>()) != 0;
  }

private:
  template <typename P> static constexpr unsigned bit() {
    return std::is_same<P, property::no_init>::value                   ? 1u
           : std::is_same<P, property::queue::in_order>::value         ? 2u
           : std::is_same<P, property::queue::enable_profiling>::value ? 4u
           : std::is_same<P, property::buffer::use_host_ptr>::value    ? 8u
           : std::is_same<P, property::reduction::initialize_to_identity>::value ? 16u
                                                                        : 0u;
  }
  template <typename P> void record(const P &) { bits_ |= bit<P>(); }
  unsigned bits_ = 0;
};

namespace detail {
/// Default kernel name: kernels need no name here.
struct auto_name {};

/// Checked narrowing of a SYCL size to the runtime's 32-bit dimensions.
inline bool fits_u32(size_t v) { return v <= 0xffffffffu; }

SLMC_HD inline size_t align_up(size_t v, size_t a) { return (v + a - 1) / a * a; }
} // namespace detail

} // namespace sycl

#endif // SLMC_SYCL_DETAIL_COMMON_HPP
