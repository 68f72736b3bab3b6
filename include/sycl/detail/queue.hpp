//===- sycl/detail/queue.hpp - queue and unified shared memory ------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Every queue is in order (the runtime has one stream of work). Kernel
// launches return at once on GPUs; memcpy, memset and fill return when the
// data is in place. Errors found at submission throw sycl::exception; errors
// a kernel reports later reach the queue's async_handler at wait_and_throw()
// or throw_asynchronous() (without a handler they are printed and the
// program stops, as in other SYCL implementations).
//
// USM: malloc_device is device memory, malloc_shared shared memory, and
// malloc_host shared memory too (libslmrt has no pinned host memory).
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_SYCL_DETAIL_QUEUE_HPP
#define SLMC_SYCL_DETAIL_QUEUE_HPP

#include "sycl/detail/device.hpp"
#include "sycl/detail/handler.hpp"

#include <map>

namespace sycl {

class queue {
public:
  explicit queue(const property_list &props = {}) { init(device(), nullptr, props); }
  explicit queue(const async_handler &h, const property_list &props = {}) {
    init(device(), &h, props);
  }
  template <typename Selector,
            typename = typename std::enable_if<
                std::is_invocable_r<int, const Selector &, const device &>::value>::type>
  explicit queue(const Selector &selector, const property_list &props = {}) {
    init(device(selector), nullptr, props);
  }
  template <typename Selector,
            typename = typename std::enable_if<
                std::is_invocable_r<int, const Selector &, const device &>::value>::type>
  queue(const Selector &selector, const async_handler &h, const property_list &props = {}) {
    init(device(selector), &h, props);
  }
  explicit queue(const device &d, const property_list &props = {}) { init(d, nullptr, props); }
  queue(const device &d, const async_handler &h, const property_list &props = {}) {
    init(d, &h, props);
  }
  queue(const context &, const device &d, const property_list &props = {}) {
    init(d, nullptr, props);
  }
  queue(const context &, const device &d, const async_handler &h,
        const property_list &props = {}) {
    init(d, &h, props);
  }
  template <typename Selector,
            typename = typename std::enable_if<
                std::is_invocable_r<int, const Selector &, const device &>::value>::type>
  queue(const context &, const Selector &selector, const property_list &props = {}) {
    init(device(selector), nullptr, props);
  }

  device get_device() const { return state_->dev; }
  context get_context() const { return context(state_->dev); }
  sycl::backend get_backend() const noexcept { return state_->dev.get_backend(); }
  bool is_in_order() const { return true; }
  bool is_host() const { return false; }
  template <typename Param> typename Param::return_type get_info() const {
    static_assert(!sizeof(Param), "queue::get_info: this query is not supported");
  }

  // ---- Command groups ----
  template <typename CommandGroup> event submit(CommandGroup cgf) {
    handler h(state_);
    cgf(h);
    return h.finish();
  }
  template <typename CommandGroup> event submit(CommandGroup cgf, const queue &) {
    return submit(cgf);
  }

  void wait() { state_->wait(); }
  void wait_and_throw() {
    state_->wait();
    state_->report();
  }
  void throw_asynchronous() { state_->report(); }

  // ---- Memory shortcuts ----
  event memcpy(void *dest, const void *src, size_t bytes) {
    return submit([&](handler &h) { h.memcpy(dest, src, bytes); });
  }
  event memcpy(void *dest, const void *src, size_t bytes, event) {
    return memcpy(dest, src, bytes);
  }
  event memcpy(void *dest, const void *src, size_t bytes, const std::vector<event> &) {
    return memcpy(dest, src, bytes);
  }
  template <typename T> event copy(const T *src, T *dest, size_t count) {
    return memcpy(dest, src, count * sizeof(T));
  }
  template <typename T> event copy(const T *src, T *dest, size_t count, event) {
    return copy(src, dest, count);
  }
  template <typename T>
  event copy(const T *src, T *dest, size_t count, const std::vector<event> &) {
    return copy(src, dest, count);
  }
  event memset(void *ptr, int value, size_t bytes) {
    return submit([&](handler &h) { h.memset(ptr, value, bytes); });
  }
  event memset(void *ptr, int value, size_t bytes, event) { return memset(ptr, value, bytes); }
  event memset(void *ptr, int value, size_t bytes, const std::vector<event> &) {
    return memset(ptr, value, bytes);
  }
  template <typename T> event fill(void *ptr, const T &pattern, size_t count) {
    return submit([&](handler &h) { h.fill(ptr, pattern, count); });
  }
  template <typename T> event fill(void *ptr, const T &pattern, size_t count, event) {
    return fill(ptr, pattern, count);
  }
  template <typename T>
  event fill(void *ptr, const T &pattern, size_t count, const std::vector<event> &) {
    return fill(ptr, pattern, count);
  }
  /// Hints; nothing to do.
  event prefetch(const void *, size_t) { return event(state_); }
  event mem_advise(const void *, size_t, int) { return event(state_); }

  // ---- Kernel shortcuts (each is submit with one command) ----
  template <typename KernelName = detail::auto_name, typename KernelType>
  SLMC_ENTRY_POINT("sycl.single_task")
  event single_task(const KernelType &kernel) {
    return run([&](handler &h) { h.single_task_impl(kernel); });
  }
  template <typename KernelName = detail::auto_name, typename KernelType>
  SLMC_ENTRY_POINT("sycl.single_task")
  event single_task(event, const KernelType &kernel) {
    return run([&](handler &h) { h.single_task_impl(kernel); });
  }
  template <typename KernelName = detail::auto_name, typename KernelType>
  SLMC_ENTRY_POINT("sycl.single_task")
  event single_task(const std::vector<event> &, const KernelType &kernel) {
    return run([&](handler &h) { h.single_task_impl(kernel); });
  }

  template <typename KernelName = detail::auto_name, int Dimensions, typename KernelType>
  SLMC_ENTRY_POINT("sycl.parallel_for.nd_range")
  event parallel_for(nd_range<Dimensions> r, const KernelType &kernel) {
    return run([&](handler &h) { h.nd_range_impl(r, kernel); });
  }
  template <typename KernelName = detail::auto_name, int Dimensions, typename KernelType>
  SLMC_ENTRY_POINT("sycl.parallel_for.nd_range")
  event parallel_for(nd_range<Dimensions> r, event, const KernelType &kernel) {
    return run([&](handler &h) { h.nd_range_impl(r, kernel); });
  }
  template <typename KernelName = detail::auto_name, int Dimensions, typename KernelType>
  SLMC_ENTRY_POINT("sycl.parallel_for.nd_range")
  event parallel_for(nd_range<Dimensions> r, const std::vector<event> &,
                     const KernelType &kernel) {
    return run([&](handler &h) { h.nd_range_impl(r, kernel); });
  }

  template <typename KernelName = detail::auto_name, int Dimensions, typename KernelType>
  SLMC_ENTRY_POINT("sycl.parallel_for.range")
  event parallel_for(range<Dimensions> r, const KernelType &kernel) {
    return run([&](handler &h) { h.range_impl(r, id<Dimensions>(), kernel); });
  }
  template <typename KernelName = detail::auto_name, int Dimensions, typename KernelType>
  SLMC_ENTRY_POINT("sycl.parallel_for.range")
  event parallel_for(range<Dimensions> r, event, const KernelType &kernel) {
    return run([&](handler &h) { h.range_impl(r, id<Dimensions>(), kernel); });
  }
  template <typename KernelName = detail::auto_name, int Dimensions, typename KernelType>
  SLMC_ENTRY_POINT("sycl.parallel_for.range")
  event parallel_for(range<Dimensions> r, const std::vector<event> &, const KernelType &kernel) {
    return run([&](handler &h) { h.range_impl(r, id<Dimensions>(), kernel); });
  }
  template <typename KernelName = detail::auto_name, typename KernelType>
  SLMC_ENTRY_POINT("sycl.parallel_for.range")
  event parallel_for(size_t n, const KernelType &kernel) {
    return run([&](handler &h) { h.range_impl(range<1>(n), id<1>(), kernel); });
  }
  template <typename KernelName = detail::auto_name, typename KernelType>
  SLMC_ENTRY_POINT("sycl.parallel_for.range")
  event parallel_for(size_t n, event, const KernelType &kernel) {
    return run([&](handler &h) { h.range_impl(range<1>(n), id<1>(), kernel); });
  }
  template <typename KernelName = detail::auto_name, typename KernelType>
  SLMC_ENTRY_POINT("sycl.parallel_for.range")
  event parallel_for(size_t n, const std::vector<event> &, const KernelType &kernel) {
    return run([&](handler &h) { h.range_impl(range<1>(n), id<1>(), kernel); });
  }

  // Kernels with launch properties (sycl_ext_oneapi_kernel_properties).
  template <typename KernelName = detail::auto_name, int Dimensions, typename... Props,
            typename KernelType>
  SLMC_ENTRY_POINT("sycl.parallel_for.nd_range")
  event parallel_for(nd_range<Dimensions> r, ext::oneapi::experimental::properties<Props...> p,
                     const KernelType &kernel) {
    return run([&](handler &h) { h.parallel_for(r, p, kernel); });
  }
  template <typename KernelName = detail::auto_name, int Dimensions, typename... Props,
            typename KernelType>
  SLMC_ENTRY_POINT("sycl.parallel_for.range")
  event parallel_for(range<Dimensions> r, ext::oneapi::experimental::properties<Props...> p,
                     const KernelType &kernel) {
    return run([&](handler &h) { h.parallel_for(r, p, kernel); });
  }
  template <typename KernelName = detail::auto_name, typename... Props, typename KernelType>
  SLMC_ENTRY_POINT("sycl.single_task")
  event single_task(ext::oneapi::experimental::properties<Props...> p, const KernelType &kernel) {
    return run([&](handler &h) { h.single_task(p, kernel); });
  }

  // Kernels with reductions (reduction.hpp), with or without events to
  // wait for (the queue is in order: nothing to wait for).
#define SLMC_SYCL_REDUCTION_SHORTCUTS(Deps, DepsParam)                                     \
  template <typename KernelName = detail::auto_name, int Dimensions, typename... Rest,      \
            typename = detail::if_reductions<Rest...>>                                     \
  SLMC_ENTRY_POINT("sycl.parallel_for.nd_range")                                           \
  event parallel_for(nd_range<Dimensions> r DepsParam, Rest &&...rest) {                     \
    return run([&](handler &h) {                                                           \
      h.reduction_impl<true>(r.get_global_range(), r.get_offset(), handler::nd_range_shape(r), \
                             std::forward<Rest>(rest)...);                                  \
    });                                                                                    \
  }                                                                                        \
  template <typename KernelName = detail::auto_name, int Dimensions, typename... Rest,      \
            typename = detail::if_reductions<Rest...>>                                     \
  SLMC_ENTRY_POINT("sycl.parallel_for.range")                                              \
  event parallel_for(range<Dimensions> r DepsParam, Rest &&...rest) {                        \
    return run([&](handler &h) {                                                           \
      h.reduction_impl<false>(r, id<Dimensions>(), handler::range_shape(r, id<Dimensions>()), \
                              std::forward<Rest>(rest)...);                                 \
    });                                                                                    \
  }                                                                                        \
  template <typename KernelName = detail::auto_name, typename... Rest,                     \
            typename = detail::if_reductions<Rest...>>                                     \
  SLMC_ENTRY_POINT("sycl.parallel_for.range")                                              \
  event parallel_for(size_t n DepsParam, Rest &&...rest) {                                   \
    return run([&](handler &h) {                                                           \
      h.reduction_impl<false>(range<1>(n), id<1>(), handler::range_shape(range<1>(n), id<1>()), \
                              std::forward<Rest>(rest)...);                                 \
    });                                                                                    \
  }
#define SLMC_SYCL_COMMA ,
  SLMC_SYCL_REDUCTION_SHORTCUTS(none, )
  SLMC_SYCL_REDUCTION_SHORTCUTS(one, SLMC_SYCL_COMMA event)
  SLMC_SYCL_REDUCTION_SHORTCUTS(many, SLMC_SYCL_COMMA const std::vector<event> &)
#undef SLMC_SYCL_COMMA
#undef SLMC_SYCL_REDUCTION_SHORTCUTS

  friend bool operator==(const queue &a, const queue &b) { return a.state_ == b.state_; }
  friend bool operator!=(const queue &a, const queue &b) { return !(a == b); }

private:
  void init(const device &d, const async_handler *h, const property_list &props) {
    detail::activate_backend(d.slmc_backend_kind());
    state_ = std::make_shared<detail::queue_state>(d);
    if (h)
      state_->handler = *h;
    state_->profiling = props.has_property<property::queue::enable_profiling>();
  }
  /// submit() for the shortcuts, through a plain function object so that
  /// the kernel is named once, at the user's call.
  template <typename F> event run(const F &f) {
    handler h(state_);
    f(h);
    return h.finish();
  }

  std::shared_ptr<detail::queue_state> state_;
};

// ---- Unified shared memory ------------------------------------------------------------
namespace usm {
enum class alloc { host, device, shared, unknown };
} // namespace usm

namespace detail {
/// The kind of every live USM allocation (for get_pointer_type).
struct usm_registry {
  std::mutex lock;
  std::map<const void *, std::pair<usm::alloc, size_t>> blocks;

  static usm_registry &get() {
    static usm_registry r;
    return r;
  }
};

inline void *usm_allocate(size_t bytes, size_t alignment, usm::alloc kind) {
  if (bytes == 0)
    return nullptr;
  void *p = nullptr;
  slmc_status s = kind == usm::alloc::device ? slmc_malloc_device(&p, bytes)
                                             : slmc_malloc_shared(&p, bytes);
  if (s != SLMC_SUCCESS)
    return nullptr; // SYCL reports failed USM allocations with nullptr
  if (alignment > 1 && reinterpret_cast<uintptr_t>(p) % alignment != 0) {
    slmc_free(p);
    return nullptr;
  }
  usm_registry &r = usm_registry::get();
  std::lock_guard<std::mutex> g(r.lock);
  r.blocks[p] = {kind, bytes};
  return p;
}

inline void usm_free(void *p) {
  if (!p)
    return;
  {
    usm_registry &r = usm_registry::get();
    std::lock_guard<std::mutex> g(r.lock);
    r.blocks.erase(p);
  }
  slmc_free(p);
}
} // namespace detail

inline void *malloc_device(size_t bytes, const device &, const context &,
                           const property_list & = {}) {
  return detail::usm_allocate(bytes, 0, usm::alloc::device);
}
inline void *malloc_device(size_t bytes, const queue &, const property_list & = {}) {
  return detail::usm_allocate(bytes, 0, usm::alloc::device);
}
template <typename T>
T *malloc_device(size_t count, const device &d, const context &c, const property_list &p = {}) {
  return static_cast<T *>(malloc_device(count * sizeof(T), d, c, p));
}
template <typename T> T *malloc_device(size_t count, const queue &q, const property_list &p = {}) {
  return static_cast<T *>(malloc_device(count * sizeof(T), q, p));
}

inline void *malloc_shared(size_t bytes, const device &, const context &,
                           const property_list & = {}) {
  return detail::usm_allocate(bytes, 0, usm::alloc::shared);
}
inline void *malloc_shared(size_t bytes, const queue &, const property_list & = {}) {
  return detail::usm_allocate(bytes, 0, usm::alloc::shared);
}
template <typename T>
T *malloc_shared(size_t count, const device &d, const context &c, const property_list &p = {}) {
  return static_cast<T *>(malloc_shared(count * sizeof(T), d, c, p));
}
template <typename T> T *malloc_shared(size_t count, const queue &q, const property_list &p = {}) {
  return static_cast<T *>(malloc_shared(count * sizeof(T), q, p));
}

inline void *malloc_host(size_t bytes, const context &, const property_list & = {}) {
  return detail::usm_allocate(bytes, 0, usm::alloc::host);
}
inline void *malloc_host(size_t bytes, const queue &, const property_list & = {}) {
  return detail::usm_allocate(bytes, 0, usm::alloc::host);
}
template <typename T> T *malloc_host(size_t count, const context &c, const property_list &p = {}) {
  return static_cast<T *>(malloc_host(count * sizeof(T), c, p));
}
template <typename T> T *malloc_host(size_t count, const queue &q, const property_list &p = {}) {
  return static_cast<T *>(malloc_host(count * sizeof(T), q, p));
}

inline void *malloc(size_t bytes, const device &, const context &, usm::alloc kind,
                    const property_list & = {}) {
  return kind == usm::alloc::unknown ? nullptr : detail::usm_allocate(bytes, 0, kind);
}
inline void *malloc(size_t bytes, const queue &, usm::alloc kind, const property_list & = {}) {
  return kind == usm::alloc::unknown ? nullptr : detail::usm_allocate(bytes, 0, kind);
}
template <typename T>
T *malloc(size_t count, const queue &q, usm::alloc kind, const property_list &p = {}) {
  return static_cast<T *>(malloc(count * sizeof(T), q, kind, p));
}

inline void *aligned_alloc_device(size_t alignment, size_t bytes, const queue &,
                                  const property_list & = {}) {
  return detail::usm_allocate(bytes, alignment, usm::alloc::device);
}
template <typename T>
T *aligned_alloc_device(size_t alignment, size_t count, const queue &q,
                        const property_list &p = {}) {
  return static_cast<T *>(aligned_alloc_device(alignment, count * sizeof(T), q, p));
}
inline void *aligned_alloc_shared(size_t alignment, size_t bytes, const queue &,
                                  const property_list & = {}) {
  return detail::usm_allocate(bytes, alignment, usm::alloc::shared);
}
template <typename T>
T *aligned_alloc_shared(size_t alignment, size_t count, const queue &q,
                        const property_list &p = {}) {
  return static_cast<T *>(aligned_alloc_shared(alignment, count * sizeof(T), q, p));
}
inline void *aligned_alloc_host(size_t alignment, size_t bytes, const queue &,
                                const property_list & = {}) {
  return detail::usm_allocate(bytes, alignment, usm::alloc::host);
}
template <typename T>
T *aligned_alloc_host(size_t alignment, size_t count, const queue &q,
                      const property_list &p = {}) {
  return static_cast<T *>(aligned_alloc_host(alignment, count * sizeof(T), q, p));
}

inline void free(void *ptr, const context &) { detail::usm_free(ptr); }
inline void free(void *ptr, const queue &) { detail::usm_free(ptr); }

inline usm::alloc get_pointer_type(const void *ptr, const context &) {
  detail::usm_registry &r = detail::usm_registry::get();
  std::lock_guard<std::mutex> g(r.lock);
  auto it = r.blocks.upper_bound(ptr);
  if (it == r.blocks.begin())
    return usm::alloc::unknown;
  --it;
  const char *base = static_cast<const char *>(it->first);
  if (static_cast<const char *>(ptr) < base + it->second.second)
    return it->second.first;
  return usm::alloc::unknown;
}
inline device get_pointer_device(const void *, const context &c) { return c.get_devices()[0]; }

} // namespace sycl

#endif // SLMC_SYCL_DETAIL_QUEUE_HPP
