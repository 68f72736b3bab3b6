//===- sycl/detail/handler.hpp - handler, event, kernel launch ------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Every kernel becomes one functor launched with slmc::launch (or
// slmc::launch_dynamic when it captures a local_accessor). Launches are
// asynchronous on GPUs and run in submission order; copies, host accessors,
// buffer destruction and waits synchronise.
//
//   nd_range<N>(G, L)   -> G/L work-groups of L work-items
//   range<N>(R)         -> groups of 256 (1-D), 16x16 (2-D), 16x4x4 (3-D)
//                          work-items, rounded up; the extra ones return
//   single_task         -> one group of one work-item
//   parallel_for(r, reductions..., k)
//                       -> the same groups, then one group per reduction
//                          (reduction.hpp)
//
// The entry points the compiler looks for are annotated on every overload
// that takes a kernel, and the kernel is always the last parameter.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_SYCL_DETAIL_HANDLER_HPP
#define SLMC_SYCL_DETAIL_HANDLER_HPP

#include "sycl/detail/accessor.hpp"
#include "sycl/detail/common.hpp"
#include "sycl/detail/device.hpp"
#include "sycl/detail/exception.hpp"
#include "sycl/detail/item.hpp"
#include "sycl/detail/reduction.hpp"
#include "sycl/ext/oneapi/kernel_properties.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <chrono>
#include <utility>

namespace sycl {

namespace info {
namespace event {
enum class command_status { submitted, running, complete };
struct command_execution_status { using return_type = command_status; };
} // namespace event
using event_command_status = event::command_status;
namespace event_profiling {
struct command_submit { using return_type = uint64_t; };
struct command_start { using return_type = uint64_t; };
struct command_end { using return_type = uint64_t; };
} // namespace event_profiling
} // namespace info

namespace detail {

/// What the copies of one queue share: its device, its asynchronous error
/// handler and the errors waiting to be handed to it.
struct queue_state {
  device dev;
  async_handler handler;
  bool in_order = true;
  bool profiling = false;
  std::mutex lock;
  std::vector<std::exception_ptr> pending;
  void *reduction_scratch = nullptr;
  size_t reduction_scratch_bytes = 0;
  size_t max_group_size = 0; // the device's, once a reduction has asked

  explicit queue_state(const device &d) : dev(d) {}
  queue_state(const queue_state &) = delete;
  queue_state &operator=(const queue_state &) = delete;
  ~queue_state() {
    if (reduction_scratch) {
      slmc_synchronize();
      slmc_free(reduction_scratch);
    }
    try {
      report();
    } catch (...) {
    }
  }

  /// Device memory for reductions' partial results, reused by every
  /// reduction of the queue: the queue runs its commands in order, so the
  /// next reduction starts after the last one has read them.
  void *reduction_memory(size_t bytes) {
    if (bytes > reduction_scratch_bytes) {
      if (reduction_scratch) {
        slmc_synchronize();
        slmc_free(reduction_scratch);
        reduction_scratch = nullptr;
        reduction_scratch_bytes = 0;
      }
      slmc_status s = slmc_malloc_device(&reduction_scratch, bytes);
      if (s != SLMC_SUCCESS)
        throw make_exception(s, "reduction: cannot allocate memory for partial results");
      reduction_scratch_bytes = bytes;
    }
    return reduction_scratch;
  }

  /// Waits for all launched work; a failure is kept for the handler.
  void wait() {
    slmc_status s = slmc_synchronize();
    if (s != SLMC_SUCCESS) {
      std::lock_guard<std::mutex> g(lock);
      pending.push_back(std::make_exception_ptr(make_exception(s, "kernel execution failed")));
    }
  }
  /// Hands the kept errors to the handler.
  void report() {
    std::vector<std::exception_ptr> list;
    {
      std::lock_guard<std::mutex> g(lock);
      list.swap(pending);
    }
    if (list.empty())
      return;
    if (handler)
      handler(exception_list(std::move(list)));
    else
      default_async_handler(exception_list(std::move(list)));
  }
};

inline uint64_t now_ns() {
  return uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::steady_clock::now().time_since_epoch())
                      .count());
}

} // namespace detail

/// A command's completion. Commands complete in submission order.
class event {
public:
  event() = default;

  void wait() {
    waited_ = true;
    if (state_)
      state_->wait();
    else
      (void)slmc_synchronize();
  }
  void wait_and_throw() {
    waited_ = true;
    if (!state_) {
      detail::check(slmc_synchronize(), "event::wait_and_throw");
      return;
    }
    state_->wait();
    state_->report();
  }
  static void wait(const std::vector<event> &events) {
    for (event e : events) e.wait();
  }
  static void wait_and_throw(const std::vector<event> &events) {
    for (event e : events) e.wait_and_throw();
  }
  std::vector<event> get_wait_list() const { return {}; }

  template <typename Param> typename Param::return_type get_info() const {
    static_assert(std::is_same<Param, info::event::command_execution_status>::value,
                  "event::get_info: this query is not supported");
    // Asked from the host: in-order queues make this exact after a wait;
    // before one, "submitted" is never wrong.
    return waited_ ? info::event_command_status::complete
                   : info::event_command_status::submitted;
  }
  /// Nanosecond timestamps; the queue needs property::queue::enable_profiling.
  template <typename Param> typename Param::return_type get_profiling_info() const {
    if (!profiled_)
      throw sycl::exception(make_error_code(errc::invalid),
                            "event::get_profiling_info: the queue was not made with "
                            "property::queue::enable_profiling");
    if constexpr (std::is_same<Param, info::event_profiling::command_submit>::value)
      return submit_;
    else if constexpr (std::is_same<Param, info::event_profiling::command_start>::value)
      return start_;
    else if constexpr (std::is_same<Param, info::event_profiling::command_end>::value)
      return end_;
    else
      static_assert(!sizeof(Param), "event::get_profiling_info: unknown query");
  }

  friend bool operator==(const event &a, const event &b) { return a.state_ == b.state_; }
  friend bool operator!=(const event &a, const event &b) { return !(a == b); }

private:
  friend class handler;
  friend class queue;
  explicit event(std::shared_ptr<detail::queue_state> s) : state_(std::move(s)) {}

  std::shared_ptr<detail::queue_state> state_;
  bool waited_ = false;
  bool profiled_ = false;
  uint64_t submit_ = 0, start_ = 0, end_ = 0;
};

namespace detail {

// ---- Kernel functors --------------------------------------------------------------
/// A kernel captures a local_accessor (whose copy constructor is
/// user-provided) exactly when it is not trivially copyable; such kernels
/// take the launch's dynamic group-local memory.
template <typename K>
inline constexpr bool uses_dynamic_memory = !std::is_trivially_copyable<K>::value;

/// The work-group shape a kernel's reqd_work_group_size requires, in device
/// order (x fastest); none (all zero) without one.
template <typename K, typename = decltype(K::slmc_written_work_group_size)>
constexpr slmc::written_group_shape written_shape(int) {
  return K::slmc_written_work_group_size;
}
template <typename K> constexpr slmc::written_group_shape written_shape(long) {
  return property_work_group_size<K>(); // sycl_ext_oneapi_kernel_properties
}

/// The sub-group size a kernel requires: reqd_sub_group_size, or the
/// sub_group_size property; 0 for none.
template <typename K> constexpr unsigned required_sub_group_size() {
  return slmc::required_sub_group_size<K> ? slmc::required_sub_group_size<K>
                                           : property_sub_group_size<K>();
}
template <typename K, int N> constexpr slmc::group_shape required_shape() {
  constexpr slmc::written_group_shape w = written_shape<K>(0);
  static_assert(w.dims == 0 || w.dims == unsigned(N),
                "reqd_work_group_size must have as many dimensions as the kernel's range");
  if constexpr (w.dims == 0) {
    return {0, 0, 0};
  } else {
    uint32_t e[3] = {1, 1, 1};
    for (int d = 0; d < N; ++d)
      e[device_dim(N, d)] = w.extent[d] > 0xffffffffu ? 0xffffffffu : uint32_t(w.extent[d]);
    return {e[0], e[1], e[2]};
  }
}

/// One work-item of an nd_range kernel.
template <typename K, int N> struct nd_range_kernel {
  K kernel;
  id<N> offset;
  static constexpr unsigned slmc_reqd_sub_group_size = required_sub_group_size<K>();
  static constexpr slmc::group_shape slmc_reqd_work_group_size = required_shape<K, N>();

  SLMC_HD void operator()() const { kernel(item_factory::make_nd_item<N>(offset)); }
  SLMC_HD void operator()(unsigned char *dynamic_memory) const {
    set_dynamic_group_memory(dynamic_memory);
    kernel(item_factory::make_nd_item<N>(offset));
  }
};

/// One work-item of a basic (range) kernel; work-items past the range
/// return at once.
template <typename K, int N> struct range_kernel {
  K kernel;
  range<N> extent;
  id<N> offset;
  static constexpr unsigned slmc_reqd_sub_group_size = required_sub_group_size<K>();
  static constexpr slmc::group_shape slmc_reqd_work_group_size = required_shape<K, N>();

  SLMC_HD void operator()() const {
    id<N> g;
    for (int d = 0; d < N; ++d) {
      size_t v = global_id_query(device_dim(N, d));
      if (v >= extent[d])
        return;
      g[d] = id_query(v + offset[d]);
    }
    kernel(item_factory::make_item<N>(g, extent, offset));
  }
  SLMC_HD void operator()(unsigned char *dynamic_memory) const {
    set_dynamic_group_memory(dynamic_memory);
    (*this)();
  }
};

template <typename K> struct single_task_kernel {
  K kernel;
  static constexpr unsigned slmc_reqd_sub_group_size = required_sub_group_size<K>();
  SLMC_HD void operator()() const { kernel(); }
  SLMC_HD void operator()(unsigned char *dynamic_memory) const {
    set_dynamic_group_memory(dynamic_memory);
    kernel();
  }
};

/// Work-groups and their size, x fastest; `empty` when there are no
/// work-items.
struct launch_shape {
  uint32_t group_count[3] = {1, 1, 1}, group_size[3] = {1, 1, 1};
  bool empty = false;
  slmc_dim3 groups() const { return slmc_dim3{group_count[0], group_count[1], group_count[2]}; }
  slmc_dim3 size() const { return slmc_dim3{group_size[0], group_size[1], group_size[2]}; }
  size_t total_groups() const {
    return empty ? 0 : size_t(group_count[0]) * group_count[1] * group_count[2];
  }
};

/// The reductions' descriptions a reduction kernel carries (a tuple that
/// stays trivially copyable).
template <typename... D> struct desc_pack {};
template <typename D, typename... Ds> struct desc_pack<D, Ds...> {
  D head;
  desc_pack<Ds...> tail;
};
inline desc_pack<> make_pack() { return {}; }
template <typename D, typename... Ds>
desc_pack<D, Ds...> make_pack(const D &d, const Ds &...ds) {
  return desc_pack<D, Ds...>{d, make_pack(ds...)};
}
template <size_t I, typename P> SLMC_HD const auto &pack_get(const P &p) {
  if constexpr (I == 0)
    return p.head;
  else
    return pack_get<I - 1>(p.tail);
}

/// One work-item of a kernel with reductions (reduction.hpp): its
/// reducers, the kernel, then the group's partial results. `NdRange`
/// kernels take the nd_item; range kernels an item, for work-items within
/// `extent` only.
template <typename K, int N, bool NdRange, typename... D> struct reduction_kernel {
  K kernel;
  range<N> extent;
  id<N> offset;
  desc_pack<D...> descs;
  void *partials[sizeof...(D)];
  static constexpr unsigned slmc_reqd_sub_group_size = required_sub_group_size<K>();
  static constexpr slmc::group_shape slmc_reqd_work_group_size = required_shape<K, N>();

  SLMC_HD void operator()() const { with_reducers<0>(item_factory::make_nd_item<N>(offset)); }
  SLMC_HD void operator()(unsigned char *dynamic_memory) const {
    set_dynamic_group_memory(dynamic_memory);
    (*this)();
  }

private:
  template <size_t I, typename... R>
  SLMC_HD void with_reducers(const nd_item<N> &it, R &...reducers) const {
    if constexpr (I == sizeof...(D)) {
      run(it, reducers...);
    } else {
      const auto &d = pack_get<I>(descs);
      using Desc = typename std::decay<decltype(d)>::type;
      typename Desc::reducer_type r(d.identity, d.op);
      with_reducers<I + 1>(it, reducers..., r);
      reduce_group(d, r, it.get_group(), it.get_group_linear_id(), partials[I]);
    }
  }
  template <typename... R> SLMC_HD void run(const nd_item<N> &it, R &...reducers) const {
    if constexpr (NdRange) {
      kernel(it, reducers...);
    } else {
      id<N> g;
      for (int d = 0; d < N; ++d) {
        size_t v = it.get_global_id(d);
        if (v >= extent[d])
          return;
        g[d] = v;
      }
      kernel(item_factory::make_item<N>(g, extent, id<N>()), reducers...);
    }
  }
};

/// Fills `count` elements with a pattern (queue::fill, handler::fill).
template <typename T> struct fill_kernel {
  T *ptr;
  T pattern;
  size_t count;
  SLMC_HD void operator()() const {
    size_t i = size_t(slmc::group_id(0)) * slmc::local_size(0) + slmc::local_id(0);
    if (i < count)
      ptr[i] = pattern;
  }
};

inline void fill_bytes(void *ptr, const void *pattern, size_t size, size_t count,
                       void (*device_fill)(void *, const void *, size_t)) {
  if (count == 0)
    return;
  bool uniform = true;
  const unsigned char *p = static_cast<const unsigned char *>(pattern);
  for (size_t i = 1; i < size; ++i) uniform = uniform && p[i] == p[0];
  if (uniform) {
    check(slmc_memset(ptr, p[0], size * count), "fill");
    return;
  }
  if (current_backend() == SLMC_BACKEND_CPU) {
    check(slmc_synchronize(), "fill");
    for (size_t i = 0; i < count; ++i)
      std::memcpy(static_cast<unsigned char *>(ptr) + i * size, pattern, size);
    return;
  }
  device_fill(ptr, pattern, count);
}

template <typename T> void device_fill(void *ptr, const void *pattern, size_t count) {
  fill_kernel<T> k{static_cast<T *>(ptr), *static_cast<const T *>(pattern), count};
  const size_t group = 256;
  size_t groups = (count + group - 1) / group;
  if (!fits_u32(groups))
    throw sycl::exception(make_error_code(errc::invalid), "fill: too many elements");
  check(slmc::launch(k, slmc_dim3{uint32_t(groups), 1, 1}, slmc_dim3{uint32_t(group), 1, 1}),
        "fill");
}

} // namespace detail

namespace detail {
/// The device memory of a sycl::stream (stream.hpp): how many bytes of text
/// were appended (also those that did not fit), then the text.
struct stream_memory {
  unsigned used;
  char text[1];
};
stream_memory *add_stream(handler &cgh, size_t bytes);
} // namespace detail

// ---- handler ------------------------------------------------------------------------
/// Collects one command of a command group (queue::submit).
class handler {
public:
  handler(const handler &) = delete;
  handler &operator=(const handler &) = delete;
  ~handler() {
    // Streams left by a command group that threw.
    if (!streams_.empty())
      slmc_synchronize();
    for (auto &stream : streams_)
      slmc_free(stream.first);
  }

  // ---- Kernels ----
  template <typename KernelName = detail::auto_name, typename KernelType>
  SLMC_ENTRY_POINT("sycl.single_task")
  void single_task(const KernelType &kernel) {
    single_task_impl(kernel);
  }

  template <typename KernelName = detail::auto_name, int Dimensions, typename KernelType>
  SLMC_ENTRY_POINT("sycl.parallel_for.nd_range")
  void parallel_for(nd_range<Dimensions> r, const KernelType &kernel) {
    nd_range_impl(r, kernel);
  }

  template <typename KernelName = detail::auto_name, int Dimensions, typename KernelType>
  SLMC_ENTRY_POINT("sycl.parallel_for.range")
  void parallel_for(range<Dimensions> r, const KernelType &kernel) {
    range_impl(r, id<Dimensions>(), kernel);
  }

  // ---- Kernels with launch properties (sycl_ext_oneapi_kernel_properties) ----
  template <typename KernelName = detail::auto_name, int Dimensions, typename... Props,
            typename KernelType>
  SLMC_ENTRY_POINT("sycl.parallel_for.nd_range")
  void parallel_for(nd_range<Dimensions> r, ext::oneapi::experimental::properties<Props...>,
                    const KernelType &kernel) {
    nd_range_impl(r, detail::with_properties<ext::oneapi::experimental::properties<Props...>>(kernel));
  }
  template <typename KernelName = detail::auto_name, int Dimensions, typename... Props,
            typename KernelType>
  SLMC_ENTRY_POINT("sycl.parallel_for.range")
  void parallel_for(range<Dimensions> r, ext::oneapi::experimental::properties<Props...>,
                    const KernelType &kernel) {
    range_impl(r, id<Dimensions>(),
               detail::with_properties<ext::oneapi::experimental::properties<Props...>>(kernel));
  }
  template <typename KernelName = detail::auto_name, typename... Props, typename KernelType>
  SLMC_ENTRY_POINT("sycl.single_task")
  void single_task(ext::oneapi::experimental::properties<Props...>, const KernelType &kernel) {
    single_task_impl(detail::with_properties<ext::oneapi::experimental::properties<Props...>>(kernel));
  }

  /// Deprecated in SYCL 2020: a range with an offset.
  template <typename KernelName = detail::auto_name, int Dimensions, typename KernelType>
  SLMC_ENTRY_POINT("sycl.parallel_for.range")
  void parallel_for(range<Dimensions> r, id<Dimensions> offset, const KernelType &kernel) {
    range_impl(r, offset, kernel);
  }

  template <typename KernelName = detail::auto_name, typename KernelType>
  SLMC_ENTRY_POINT("sycl.parallel_for.range")
  void parallel_for(size_t n, const KernelType &kernel) {
    range_impl(range<1>(n), id<1>(), kernel);
  }

  // ---- Kernels with reductions (reduction.hpp) ----
  template <typename KernelName = detail::auto_name, int Dimensions, typename... Rest,
            typename = detail::if_reductions<Rest...>>
  SLMC_ENTRY_POINT("sycl.parallel_for.nd_range")
  void parallel_for(nd_range<Dimensions> r, Rest &&...rest) {
    reduction_impl<true>(r.get_global_range(), r.get_offset(), nd_range_shape(r),
                         std::forward<Rest>(rest)...);
  }
  template <typename KernelName = detail::auto_name, int Dimensions, typename... Rest,
            typename = detail::if_reductions<Rest...>>
  SLMC_ENTRY_POINT("sycl.parallel_for.range")
  void parallel_for(range<Dimensions> r, Rest &&...rest) {
    reduction_impl<false>(r, id<Dimensions>(), range_shape(r, id<Dimensions>()),
                          std::forward<Rest>(rest)...);
  }
  template <typename KernelName = detail::auto_name, typename... Rest,
            typename = detail::if_reductions<Rest...>>
  SLMC_ENTRY_POINT("sycl.parallel_for.range")
  void parallel_for(size_t n, Rest &&...rest) {
    reduction_impl<false>(range<1>(n), id<1>(), range_shape(range<1>(n), id<1>()),
                          std::forward<Rest>(rest)...);
  }

  // ---- Memory commands ----
  void memcpy(void *dest, const void *src, size_t bytes) {
    command();
    if (bytes)
      detail::check(slmc_memcpy(dest, src, bytes), "handler::memcpy");
  }
  template <typename T> void copy(const T *src, T *dest, size_t count) {
    memcpy(dest, src, count * sizeof(T));
  }
  void memset(void *ptr, int value, size_t bytes) {
    command();
    if (bytes)
      detail::check(slmc_memset(ptr, value, bytes), "handler::memset");
  }
  template <typename T> void fill(void *ptr, const T &pattern, size_t count) {
    command();
    detail::fill_bytes(ptr, &pattern, sizeof(T), count, &detail::device_fill<T>);
  }

  /// Accessor to host memory.
  template <typename T, int N, access_mode M, target Tg, access::placeholder P, typename U>
  void copy(accessor<T, N, M, Tg, P> src, U *dest) {
    command();
    copy_rows(src, dest, /*to_accessor=*/false);
  }
  template <typename T, int N, access_mode M, target Tg, access::placeholder P, typename U>
  void copy(std::shared_ptr<U> src, accessor<T, N, M, Tg, P> dest) {
    copy(static_cast<const U *>(src.get()), dest);
  }
  /// Host memory to accessor.
  template <typename U, typename T, int N, access_mode M, target Tg, access::placeholder P,
            typename = typename std::enable_if<!std::is_pointer<T>::value>::type>
  void copy(const U *src, accessor<T, N, M, Tg, P> dest) {
    command();
    copy_rows(dest, const_cast<U *>(src), /*to_accessor=*/true);
  }
  template <typename T, int N, access_mode M, target Tg, access::placeholder P, typename U>
  void copy(accessor<T, N, M, Tg, P> src, std::shared_ptr<U> dest) {
    copy(src, dest.get());
  }
  template <typename T, int N, access_mode M, target Tg, access::placeholder P,
            typename T2, access_mode M2, target Tg2, access::placeholder P2>
  void copy(accessor<T, N, M, Tg, P> src, accessor<T2, N, M2, Tg2, P2> dest) {
    command();
    std::vector<typename std::remove_const<T>::type> tmp(src.size());
    copy_rows(src, tmp.data(), false);
    copy_rows(dest, tmp.data(), true);
  }
  template <typename T, int N, access_mode M, target Tg, access::placeholder P>
  void fill(accessor<T, N, M, Tg, P> dest, const T &value) {
    command();
    std::vector<T> tmp(dest.size(), value);
    copy_rows(dest, tmp.data(), true);
  }
  template <typename T, int N, access_mode M, target Tg, access::placeholder P>
  void update_host(accessor<T, N, M, Tg, P>) {
    command();
    detail::wait_for_host_access("handler::update_host");
  }

  /// Runs `f` on the host after the work submitted before it.
  template <typename F> void host_task(F f) {
    command();
    detail::wait_for_host_access("host_task");
    f();
  }

  // ---- Scheduling (every queue is in order) ----
  void depends_on(event) {}
  void depends_on(const std::vector<event> &) {}
  template <typename T, int N, access_mode M, target Tg, access::placeholder P>
  void require(accessor<T, N, M, Tg, P>) {}

  // ---- Internal: the work behind the entry points; not annotated, so the
  // compiler sees each kernel once, at the user's call. ----
  template <typename KernelType> void single_task_impl(const KernelType &kernel) {
    command();
    detail::single_task_kernel<KernelType> f{kernel};
    launch<KernelType>(f, slmc_dim3{1, 1, 1}, slmc_dim3{1, 1, 1}, "single_task");
  }

  template <int N, typename KernelType>
  void nd_range_impl(const nd_range<N> &r, const KernelType &kernel) {
    command();
    detail::launch_shape shape = nd_range_shape(r);
    apply_required_shape<KernelType>(shape, /*nd_range=*/true, r.get_global_range());
    if (shape.empty)
      return;
    detail::nd_range_kernel<KernelType, N> f{kernel, r.get_offset()};
    launch<KernelType>(f, shape.groups(), shape.size(), "parallel_for");
  }

  template <int N, typename KernelType>
  void range_impl(const range<N> &r, const id<N> &offset, const KernelType &kernel) {
    command();
    detail::launch_shape shape = range_shape(r, offset);
    apply_required_shape<KernelType>(shape, /*nd_range=*/false, r);
    if (shape.empty)
      return;
    detail::range_kernel<KernelType, N> f{kernel, r, offset};
    launch<KernelType>(f, shape.groups(), shape.size(), "parallel_for");
  }

  /// parallel_for(range | nd_range, reductions..., kernel): `args` is the
  /// reduction objects and the kernel.
  template <bool NdRange, int N, typename... Args>
  void reduction_impl(const range<N> &global, const id<N> &offset,
                      const detail::launch_shape &shape, Args &&...args) {
    command();
    run_reductions<NdRange>(global, offset, shape,
                            std::make_index_sequence<sizeof...(Args) - 1>(),
                            std::forward_as_tuple(args...));
  }

private:
  template <int N> static detail::launch_shape nd_range_shape(const nd_range<N> &r) {
    detail::launch_shape shape;
    for (int d = 0; d < N; ++d) {
      size_t g = r.get_global_range()[d], l = r.get_local_range()[d];
      if (l == 0)
        throw sycl::exception(make_error_code(errc::nd_range),
                              "parallel_for: the local range is zero in dimension " +
                                  std::to_string(d));
      if (g % l != 0)
        throw sycl::exception(
            make_error_code(errc::nd_range),
            "parallel_for: the global range (" + std::to_string(g) +
                ") is not a multiple of the local range (" + std::to_string(l) +
                ") in dimension " + std::to_string(d));
      if (g == 0) {
        shape.empty = true;
        return shape;
      }
      if (!detail::fits_u32(g / l) || !detail::fits_u32(l))
        throw sycl::exception(make_error_code(errc::nd_range),
                              "parallel_for: the nd_range is too large");
      int x = detail::device_dim(N, d);
      shape.group_count[x] = uint32_t(g / l);
      shape.group_size[x] = uint32_t(l);
    }
    check_id_queries_fit(r.get_global_range(), r.get_offset());
    return shape;
  }

  template <int N> static detail::launch_shape range_shape(const range<N> &r, const id<N> &offset) {
    const uint32_t shape1[3] = {256, 1, 1}, shape2[3] = {16, 16, 1}, shape3[3] = {16, 4, 4};
    const uint32_t *preferred = N == 1 ? shape1 : N == 2 ? shape2 : shape3;
    detail::launch_shape shape;
    for (int d = 0; d < N; ++d) {
      size_t e = r[d];
      if (e == 0) {
        shape.empty = true;
        return shape;
      }
      int x = detail::device_dim(N, d);
      shape.group_size[x] = uint32_t(e < preferred[x] ? e : preferred[x]);
      size_t g = (e + shape.group_size[x] - 1) / shape.group_size[x];
      if (!detail::fits_u32(g))
        throw sycl::exception(make_error_code(errc::nd_range),
                              "parallel_for: the range is too large");
      shape.group_count[x] = uint32_t(g);
    }
    check_id_queries_fit(r, offset);
    return shape;
  }

  /// reqd_work_group_size: an nd_range launch must have that local range
  /// (errc::nd_range otherwise, SYCL 2020 5.8.1); a range launch gets
  /// work-groups of that shape, and work-items past the range return at once.
  template <typename K, int N>
  static void apply_required_shape(detail::launch_shape &shape, bool nd_range,
                                   const range<N> &global) {
    constexpr slmc::group_shape req = detail::required_shape<K, N>();
    if constexpr (req.x != 0) {
      const uint32_t want[3] = {req.x, req.y, req.z};
      if (shape.empty)
        return;
      if (nd_range) {
        bool same = true;
        std::string wanted, got;
        for (int d = 0; d < N; ++d) {
          int x = detail::device_dim(N, d);
          same = same && shape.group_size[x] == want[x];
          wanted += (d ? ", " : "") + std::to_string(want[x]);
          got += (d ? ", " : "") + std::to_string(shape.group_size[x]);
        }
        if (!same)
          throw sycl::exception(make_error_code(errc::nd_range),
                                "parallel_for: the kernel requires the local range {" + wanted +
                                    "} (reqd_work_group_size or the work_group_size "
                                    "property), but the nd_range's is {" + got + "}");
        return;
      }
      for (int d = 0; d < N; ++d) {
        int x = detail::device_dim(N, d);
        size_t groups = (global[d] + want[x] - 1) / want[x];
        if (!detail::fits_u32(groups))
          throw sycl::exception(make_error_code(errc::nd_range),
                                "parallel_for: the range is too large");
        shape.group_size[x] = want[x];
        shape.group_count[x] = uint32_t(groups);
      }
    } else {
      (void)shape, (void)nd_range, (void)global;
    }
  }

  /// The kernel with reducers over `shape`, then each reduction's finish
  /// kernel (reduction.hpp).
  template <bool NdRange, int N, size_t... I, typename Tuple>
  void run_reductions(const range<N> &global, const id<N> &offset,
                      detail::launch_shape shape, std::index_sequence<I...>, Tuple args) {
    using KernelType =
        typename std::decay<typename std::tuple_element<sizeof...(I), Tuple>::type>::type;
    apply_required_shape<KernelType>(shape, NdRange, global);
    using F = detail::reduction_kernel<
        KernelType, N, NdRange,
        typename std::decay<typename std::tuple_element<I, Tuple>::type>::type::desc_type...>;
    const size_t groups = shape.total_groups();
    const size_t bytes[] = {
        detail::partial_bytes<typename std::decay<
            typename std::tuple_element<I, Tuple>::type>::type::desc_type>(groups)...};
    size_t total = 0;
    for (size_t b : bytes)
      total += b;
    unsigned char *memory =
        static_cast<unsigned char *>(queue_->reduction_memory(total ? total : 64));
    unsigned char *partials[sizeof...(I)];
    size_t at = 0;
    ((partials[I] = memory + at, at += bytes[I]), ...);
    F f{std::get<sizeof...(I)>(args), global, offset,
        detail::make_pack(std::get<I>(args).desc...), {partials[I]...}};
    if (!shape.empty)
      launch<KernelType>(f, shape.groups(), shape.size(), "parallel_for");
    (finish_reduction(std::get<I>(args).desc, f.partials[I], groups), ...);
  }

  /// The device's largest work-group, asked once per queue.
  size_t finish_group_size() {
    if (!queue_->max_group_size)
      queue_->max_group_size = queue_->dev.get_info<info::device::max_work_group_size>();
    return queue_->max_group_size ? queue_->max_group_size : 256;
  }

  template <typename Desc> void finish_reduction(const Desc &d, const void *partials, size_t groups) {
    detail::reduction_finish_kernel<Desc> f{d, partials, groups};
    size_t most = std::min<size_t>(finish_group_size(), detail::kGroupScratchItems);
    uint32_t size = uint32_t(std::max<size_t>(1, std::min(groups, most)));
    slmc_status s = slmc::launch(f, slmc_dim3{1, 1, 1}, slmc_dim3{size, 1, 1});
    if (s != SLMC_SUCCESS)
      detail::throw_status(s, "parallel_for (reduction)");
  }

  /// Device code takes the ids and ranges of a launch to fit in an int
  /// unless -fno-sycl-id-queries-fit-in-int (item.hpp): refused here rather
  /// than computed wrong.
  template <int N> static void check_id_queries_fit(const range<N> &r, const id<N> &offset) {
#if SLMC_SYCL_ID_QUERIES_FIT_IN_INT
    const size_t max = 0x7fffffff;
    bool fits = true;
    size_t linear = 1;
    for (int d = 0; d < N; ++d) {
      fits = fits && r[d] <= max && offset[d] <= max - r[d];
      linear = fits ? linear * r[d] : 0;
      fits = fits && linear <= max;
    }
    if (!fits)
      throw sycl::exception(make_error_code(errc::nd_range),
                            "parallel_for: the range exceeds INT_MAX work-items, which "
                            "ids and ranges are assumed to fit in; compile with "
                            "-fno-sycl-id-queries-fit-in-int to launch it");
#else
    (void)r, (void)offset;
#endif
  }

  friend class queue;
  friend size_t detail::reserve_local_memory(handler &, size_t, size_t);
  friend detail::stream_memory *detail::add_stream(handler &, size_t);

  explicit handler(std::shared_ptr<detail::queue_state> q) : queue_(std::move(q)) {}

  /// One command per command group.
  void command() {
    if (has_command_)
      throw sycl::exception(make_error_code(errc::invalid),
                            "a command group can hold only one command (kernel, copy, "
                            "fill or host task)");
    has_command_ = true;
    if (queue_ && queue_->profiling)
      start_ = detail::now_ns();
  }

  template <typename KernelType, typename F>
  void launch(const F &f, slmc_dim3 groups, slmc_dim3 size, const char *what) {
    slmc_status s;
    if constexpr (detail::uses_dynamic_memory<KernelType>)
      s = slmc::launch_dynamic(f, groups, size, local_bytes_ ? local_bytes_ : 1);
    else
      s = slmc::launch(f, groups, size);
    if (s != SLMC_SUCCESS)
      detail::throw_status(s, what);
  }

  /// Copies between an accessor's view and dense host memory, one row of
  /// the fastest dimension at a time.
  template <typename Acc, typename U> void copy_rows(const Acc &acc, U *host, bool to_accessor) {
    constexpr int N = Acc::dimensions;
    using T = typename std::remove_const<typename Acc::value_type>::type;
    static_assert(sizeof(T) == sizeof(U), "copy: element types differ in size");
    range<N> r = acc.get_range();
    if (r.size() == 0)
      return;
    size_t row = r[N - 1], rows = r.size() / row;
    for (size_t k = 0; k < rows; ++k) {
      id<N> at;
      size_t rest = k;
      for (int d = N - 2; d >= 0; --d) {
        at[d] = rest % r[d];
        rest /= r[d];
      }
      T *dev = const_cast<T *>(&acc[at]);
      U *h = host + k * row;
      slmc_status s = to_accessor ? slmc_memcpy(dev, h, row * sizeof(T))
                                  : slmc_memcpy(h, dev, row * sizeof(T));
      detail::check(s, "handler::copy");
    }
  }

  /// The text of the command group's streams, once its kernel has ended
  /// (SYCL prints it when the command completes; here before submit
  /// returns), and their memory.
  void print_streams() {
    if (streams_.empty())
      return;
    queue_->wait();
    for (auto &[memory, size] : streams_) {
      unsigned used = 0;
      std::vector<char> text;
      if (slmc_memcpy(&used, &memory->used, sizeof used) == SLMC_SUCCESS) {
        text.resize(std::min<size_t>(used, size));
        if (!text.empty() && slmc_memcpy(text.data(), memory->text, text.size()) == SLMC_SUCCESS)
          std::fwrite(text.data(), 1, text.size(), stdout);
      }
      slmc_free(memory);
    }
    streams_.clear();
  }

  event finish() {
    print_streams();
    event e(queue_);
    if (queue_ && queue_->profiling && has_command_) {
      // Profiling: wait for the command so that its end is known.
      queue_->wait();
      e.profiled_ = true;
      e.submit_ = start_;
      e.start_ = start_;
      e.end_ = detail::now_ns();
    }
    return e;
  }

  std::shared_ptr<detail::queue_state> queue_;
  std::vector<std::pair<detail::stream_memory *, size_t>> streams_;
  size_t local_bytes_ = 0;
  bool has_command_ = false;
  uint64_t start_ = 0;
};

namespace detail {
inline stream_memory *add_stream(handler &h, size_t bytes) {
  void *memory = nullptr;
  slmc_status s = slmc_malloc_device(&memory, offsetof(stream_memory, text) + bytes);
  if (s == SLMC_SUCCESS) {
    s = slmc_memset(memory, 0, sizeof(unsigned));
    if (s != SLMC_SUCCESS)
      slmc_free(memory);
  }
  if (s != SLMC_SUCCESS)
    throw make_exception(s, "sycl::stream: cannot allocate its buffer");
  h.streams_.emplace_back(static_cast<stream_memory *>(memory), bytes);
  return static_cast<stream_memory *>(memory);
}

inline size_t reserve_local_memory(handler &h, size_t bytes, size_t align) {
  if (align < 1)
    align = 1;
  size_t offset = align_up(h.local_bytes_, align);
  h.local_bytes_ = offset + bytes;
  return offset;
}
} // namespace detail

} // namespace sycl

#endif // SLMC_SYCL_DETAIL_HANDLER_HPP
