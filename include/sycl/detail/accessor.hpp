//===- sycl/detail/accessor.hpp - buffer, accessor, host_accessor, --------===//
//===                            local_accessor                          ===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A buffer owns one allocation that host and device share
// (slmc_malloc_shared), filled from the host data it was made from and
// written back there when the last copy of the buffer goes away. Accessors
// are views of that allocation: plain pointers that kernels capture. Kernels
// run in submission order, so no dependency tracking is needed; a host
// accessor waits for every kernel launched so far.
//
// local_accessor memory is the launch's dynamic group-local memory: the
// handler lays out the local accessors of its kernel one after another, each
// aligned, and the kernel finds the block through slmc's per-pass view of it.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_SYCL_DETAIL_ACCESSOR_HPP
#define SLMC_SYCL_DETAIL_ACCESSOR_HPP

#include "sycl/detail/common.hpp"
#include "sycl/detail/exception.hpp"
#include "sycl/detail/item.hpp"
#include "sycl/detail/multi_ptr.hpp"

namespace sycl {

class handler;

template <typename T> using buffer_allocator = std::allocator<T>;

// ---- Access tags ------------------------------------------------------------------
template <access_mode Mode, target Target = target::device> struct mode_tag_t {
  explicit mode_tag_t() = default;
};
template <access_mode Mode, target Target> struct mode_target_tag_t {
  explicit mode_target_tag_t() = default;
};
inline constexpr mode_tag_t<access_mode::read> read_only{};
inline constexpr mode_tag_t<access_mode::read_write> read_write{};
inline constexpr mode_tag_t<access_mode::write> write_only{};
inline constexpr mode_target_tag_t<access_mode::read, target::constant_buffer>
    read_constant{};
inline constexpr mode_tag_t<access_mode::read, target::host_task> read_only_host_task{};
inline constexpr mode_tag_t<access_mode::read_write, target::host_task> read_write_host_task{};
inline constexpr mode_tag_t<access_mode::write, target::host_task> write_only_host_task{};

namespace detail {

template <typename T> struct is_mode_tag : std::false_type {};
template <access_mode M, target T> struct is_mode_tag<mode_tag_t<M, T>> : std::true_type {
  static constexpr access_mode mode = M;
  static constexpr target tgt = T;
};
template <access_mode M, target T>
struct is_mode_tag<mode_target_tag_t<M, T>> : std::true_type {
  static constexpr access_mode mode = M;
  static constexpr target tgt = T;
};

template <typename DataT> constexpr access_mode default_mode() {
  return std::is_const<DataT>::value ? access_mode::read : access_mode::read_write;
}

/// The shared allocation behind a buffer and its copies.
struct buffer_state {
  void *data = nullptr;
  size_t bytes = 0;
  void *final_data = nullptr; // where results go when the buffer dies
  bool write_back = true;

  buffer_state(size_t n, const void *init) : bytes(n) {
    if (n == 0)
      return;
    slmc_status s = slmc_malloc_shared(&data, n);
    if (s != SLMC_SUCCESS)
      throw make_exception(s, "buffer: cannot allocate memory");
    if (init)
      s = slmc_memcpy(data, init, n);
    if (s != SLMC_SUCCESS) {
      slmc_free(data);
      throw make_exception(s, "buffer: cannot copy the host data");
    }
  }
  buffer_state(const buffer_state &) = delete;
  buffer_state &operator=(const buffer_state &) = delete;
  ~buffer_state() {
    if (!data)
      return;
    // Destroying the last copy waits for the kernels that use it and
    // publishes the results; a destructor cannot throw, so a failure is
    // reported on stderr.
    slmc_status s = slmc_synchronize();
    if (s == SLMC_SUCCESS && write_back && final_data)
      s = slmc_memcpy(final_data, data, bytes);
    if (s != SLMC_SUCCESS)
      std::fprintf(stderr, "SYCL: buffer destruction: %s\n", slmc_last_error());
    slmc_free(data);
  }
};

/// Waits for every kernel launched so far before the host touches data.
inline void wait_for_host_access(const char *what) {
  slmc_status s = slmc_synchronize();
  if (s != SLMC_SUCCESS)
    throw make_exception(s, what);
}

/// Rows of a 3-dimensional view: view[i][j] is a pointer to row (i, j).
template <typename V> struct plane_ref {
  V *plane;
  size_t row_pitch;
  SLMC_HD V *operator[](size_t j) const { return plane + j * row_pitch; }
};

/// Element access shared by accessor and host_accessor: `data` is the start
/// of the buffer, the view is `range` elements at `offset` in a buffer of
/// `memory` elements. The view keeps the address of its first element (the
/// offset applied once, when it is made), so an access in a kernel costs
/// one index computation, not the offset's too (64-bit arithmetic, which
/// Intel GPUs emulate: docs/intel.md).
template <typename V, int N> class view {
public:
  SLMC_HD view() : first_(nullptr) {}
  SLMC_HD view(V *data, const range<N> &memory, const range<N> &r, const id<N> &offset)
      : first_(data ? data + linearize(offset, memory) : data), memory_(memory), range_(r),
        offset_(offset) {}

  SLMC_HD V &operator[](const id<N> &i) const { return first_[linearize(i, memory_)]; }
  template <bool O> SLMC_HD V &operator[](const item<N, O> &it) const {
    return (*this)[it.get_id()];
  }
  /// acc[i] (1-D), acc[i][j] (2-D), acc[i][j][k] (3-D).
  SLMC_HD decltype(auto) operator[](size_t i) const {
    if constexpr (N == 1) {
      return static_cast<V &>(first_[i]);
    } else if constexpr (N == 2) {
      return first_ + i * memory_[1];
    } else {
      return plane_ref<V>{first_ + i * memory_[1] * memory_[2], memory_[2]};
    }
  }

  SLMC_HD range<N> get_range() const { return range_; }
  SLMC_HD id<N> get_offset() const { return offset_; }
  SLMC_HD size_t size() const noexcept { return range_.size(); }
  SLMC_HD size_t get_count() const { return size(); }
  SLMC_HD size_t get_size() const { return size() * sizeof(V); }
  SLMC_HD size_t byte_size() const noexcept { return size() * sizeof(V); }
  SLMC_HD bool empty() const noexcept { return size() == 0; }
  /// First element of the view.
  SLMC_HD V *slmc_data() const { return first_; }
  /// Iteration is over the buffer elements of a view that covers whole rows.
  SLMC_HD V *begin() const { return slmc_data(); }
  SLMC_HD V *end() const { return slmc_data() + size(); }

protected:
  V *first_;
  range<N> memory_;
  range<N> range_;
  id<N> offset_;
};

/// The launch's dynamic group-local memory, as each pass sees it.
#if defined(SLMC_PASS_SPIRV)
// The block arrives as the kernel's last argument; the launcher stores it
// where local_accessor can find it (every work-item stores the same value).
// It is kept as a generic pointer: a cast back to Workgroup would be
// OpGenericCastToPtr, which IGC does not accept. slmc++ replaces the reads
// by the argument itself after inlining (forwardGroupLocalArgumentSlots), so
// the accesses are Workgroup ones again.
SLMC_HD inline unsigned char **dynamic_memory_slot() {
  __attribute__((shared)) unsigned char *slot;
  return &slot;
}
#endif

SLMC_HD inline void set_dynamic_group_memory(unsigned char *memory) {
#if defined(SLMC_PASS_SPIRV)
  *dynamic_memory_slot() = memory;
#else
  (void)memory; // PTX: a symbol; CPU: the work-item context
#endif
}

SLMC_HD inline unsigned char *dynamic_group_memory() {
#if defined(SLMC_PASS_SPIRV)
  return *dynamic_memory_slot();
#elif defined(SLMC_PASS_PTX)
  return slmc::slmc_dynamic_group_memory;
#else
  return static_cast<unsigned char *>(slmc_cpu_current_item()->dynamic_group_memory);
#endif
}

/// Reserves `bytes` of the handler's dynamic group-local memory; defined
/// with handler.
inline size_t reserve_local_memory(handler &h, size_t bytes, size_t align);

} // namespace detail

// ---- buffer -----------------------------------------------------------------------
template <typename T, int Dimensions = 1,
          typename AllocatorT = buffer_allocator<typename std::remove_const<T>::type>>
class buffer {
  using value_nc = typename std::remove_const<T>::type;

public:
  using value_type = T;
  using reference = value_type &;
  using const_reference = const value_type &;
  using allocator_type = AllocatorT;

  buffer(const range<Dimensions> &r, const property_list & = {}) : range_(r) {
    make(nullptr, nullptr);
  }
  buffer(const range<Dimensions> &r, AllocatorT, const property_list & = {}) : range_(r) {
    make(nullptr, nullptr);
  }
  /// Results are written back to `host_data` when the last copy dies.
  buffer(value_nc *host_data, const range<Dimensions> &r, const property_list & = {})
      : range_(r) {
    make(host_data, host_data);
  }
  buffer(value_nc *host_data, const range<Dimensions> &r, AllocatorT,
         const property_list & = {})
      : range_(r) {
    make(host_data, host_data);
  }
  /// Read-only host data is copied in and never written back.
  buffer(const value_nc *host_data, const range<Dimensions> &r, const property_list & = {})
      : range_(r) {
    make(host_data, nullptr);
  }
  buffer(const value_nc *host_data, const range<Dimensions> &r, AllocatorT,
         const property_list & = {})
      : range_(r) {
    make(host_data, nullptr);
  }
  buffer(const std::shared_ptr<value_nc> &host_data, const range<Dimensions> &r,
         const property_list & = {})
      : range_(r) {
    make(host_data.get(), host_data.get());
    keep_alive_ = host_data;
  }
  /// A contiguous container (std::vector, std::array, ...): one dimension.
  template <typename Container,
            typename = decltype(std::declval<Container &>().data()),
            typename = decltype(std::declval<Container &>().size()),
            int N = Dimensions, typename = typename std::enable_if<N == 1>::type>
  buffer(Container &c, const property_list & = {}) : range_(c.size()) {
    using P = decltype(c.data());
    if constexpr (std::is_const<typename std::remove_pointer<P>::type>::value)
      make(c.data(), nullptr);
    else
      make(c.data(), c.data());
  }
  template <typename Container,
            typename = decltype(std::declval<const Container &>().data()),
            typename = decltype(std::declval<const Container &>().size()),
            int N = Dimensions, typename = typename std::enable_if<N == 1>::type>
  buffer(const Container &c, const property_list & = {}) : range_(c.size()) {
    make(c.data(), nullptr);
  }
  /// Copies [first, last); nothing is written back.
  template <typename InputIt, int N = Dimensions,
            typename = typename std::enable_if<
                N == 1 && !std::is_integral<InputIt>::value &&
                std::is_base_of<std::input_iterator_tag,
                                typename std::iterator_traits<InputIt>::iterator_category>::value>::type>
  buffer(InputIt first, InputIt last, const property_list & = {})
      : range_(size_t(std::distance(first, last))) {
    std::vector<value_nc> tmp(first, last);
    make(tmp.data(), nullptr);
  }

  buffer(const buffer &) = default;
  buffer(buffer &&) = default;
  buffer &operator=(const buffer &) = default;
  buffer &operator=(buffer &&) = default;
  ~buffer() = default;

  range<Dimensions> get_range() const { return range_; }
  size_t size() const noexcept { return range_.size(); }
  size_t get_count() const { return size(); }
  size_t byte_size() const noexcept { return size() * sizeof(T); }
  size_t get_size() const { return byte_size(); }
  AllocatorT get_allocator() const { return AllocatorT(); }

  /// Where results go when the last copy dies (nullptr: nowhere).
  template <typename Destination = std::nullptr_t>
  void set_final_data(Destination final_data = nullptr) {
    if constexpr (std::is_same<Destination, std::nullptr_t>::value)
      state_->final_data = nullptr;
    else if constexpr (std::is_pointer<Destination>::value)
      state_->final_data = const_cast<void *>(static_cast<const void *>(final_data));
    else
      static_assert(std::is_pointer<Destination>::value,
                    "buffer::set_final_data: the destination must be a pointer");
  }
  void set_write_back(bool flag = true) { state_->write_back = flag; }

  template <access_mode Mode = access_mode::read_write, target Target = target::device>
  auto get_access(handler &h);
  template <access_mode Mode = access_mode::read_write, target Target = target::device>
  auto get_access(handler &h, range<Dimensions> r, id<Dimensions> offset = {});
  template <typename Tag, typename = typename std::enable_if<detail::is_mode_tag<Tag>::value>::type>
  auto get_access(handler &h, Tag);
  /// SYCL 1.2.1: host access without a handler.
  template <access_mode Mode> auto get_access();
  template <typename... Tags> auto get_host_access(Tags...);

  /// slmc: the shared allocation (element 0).
  value_nc *slmc_data() const { return static_cast<value_nc *>(state_->data); }

  friend bool operator==(const buffer &a, const buffer &b) { return a.state_ == b.state_; }
  friend bool operator!=(const buffer &a, const buffer &b) { return !(a == b); }

private:
  void make(const value_nc *init, value_nc *final_data) {
    state_ = std::make_shared<detail::buffer_state>(range_.size() * sizeof(T), init);
    state_->final_data = final_data;
  }

  range<Dimensions> range_;
  std::shared_ptr<detail::buffer_state> state_;
  std::shared_ptr<value_nc> keep_alive_;
};

template <typename Container>
buffer(Container &) -> buffer<typename Container::value_type, 1>;
template <typename Container>
buffer(Container &, const property_list &) -> buffer<typename Container::value_type, 1>;
template <typename InputIt>
buffer(InputIt, InputIt) -> buffer<typename std::iterator_traits<InputIt>::value_type, 1>;
template <typename InputIt>
buffer(InputIt, InputIt, const property_list &)
    -> buffer<typename std::iterator_traits<InputIt>::value_type, 1>;
template <typename T, int N> buffer(T *, const range<N> &) -> buffer<T, N>;
template <typename T, int N>
buffer(T *, const range<N> &, const property_list &) -> buffer<T, N>;
template <typename T, int N> buffer(const T *, const range<N> &) -> buffer<T, N>;
template <typename T, int N>
buffer(const T *, const range<N> &, const property_list &) -> buffer<T, N>;

// ---- accessor (global memory) ---------------------------------------------------------
template <typename DataT, int Dimensions = 1,
          access_mode AccessMode = detail::default_mode<DataT>(),
          target AccessTarget = target::device,
          access::placeholder IsPlaceholder = access::placeholder::false_t>
class accessor
    : public detail::view<typename std::conditional<AccessMode == access_mode::read,
                                                    const DataT, DataT>::type,
                          Dimensions> {
  using V = typename std::conditional<AccessMode == access_mode::read, const DataT, DataT>::type;
  using base = detail::view<V, Dimensions>;

public:
  using value_type = V;
  using reference = V &;
  using const_reference = const DataT &;
  using iterator = V *;
  using const_iterator = const DataT *;
  using difference_type = std::ptrdiff_t;
  using size_type = size_t;
  static constexpr int dimensions = Dimensions;

  SLMC_HD accessor() {}

  template <typename T, typename A>
  accessor(buffer<T, Dimensions, A> &b, const property_list & = {})
      : base(b.slmc_data(), b.get_range(), b.get_range(), id<Dimensions>()) {}
  template <typename T, typename A>
  accessor(buffer<T, Dimensions, A> &b, handler &, const property_list & = {})
      : base(b.slmc_data(), b.get_range(), b.get_range(), id<Dimensions>()) {}
  template <typename T, typename A, typename Tag,
            typename = typename std::enable_if<detail::is_mode_tag<Tag>::value>::type>
  accessor(buffer<T, Dimensions, A> &b, Tag, const property_list & = {})
      : base(b.slmc_data(), b.get_range(), b.get_range(), id<Dimensions>()) {}
  template <typename T, typename A, typename Tag,
            typename = typename std::enable_if<detail::is_mode_tag<Tag>::value>::type>
  accessor(buffer<T, Dimensions, A> &b, handler &, Tag, const property_list & = {})
      : base(b.slmc_data(), b.get_range(), b.get_range(), id<Dimensions>()) {}

  template <typename T, typename A>
  accessor(buffer<T, Dimensions, A> &b, handler &, range<Dimensions> r,
           const property_list & = {})
      : base(b.slmc_data(), b.get_range(), r, id<Dimensions>()) { check(b); }
  template <typename T, typename A>
  accessor(buffer<T, Dimensions, A> &b, handler &, range<Dimensions> r, id<Dimensions> o,
           const property_list & = {})
      : base(b.slmc_data(), b.get_range(), r, o) { check(b); }
  template <typename T, typename A, typename Tag,
            typename = typename std::enable_if<detail::is_mode_tag<Tag>::value>::type>
  accessor(buffer<T, Dimensions, A> &b, handler &, range<Dimensions> r, Tag,
           const property_list & = {})
      : base(b.slmc_data(), b.get_range(), r, id<Dimensions>()) { check(b); }
  template <typename T, typename A, typename Tag,
            typename = typename std::enable_if<detail::is_mode_tag<Tag>::value>::type>
  accessor(buffer<T, Dimensions, A> &b, handler &, range<Dimensions> r, id<Dimensions> o,
           Tag, const property_list & = {})
      : base(b.slmc_data(), b.get_range(), r, o) { check(b); }
  template <typename T, typename A>
  accessor(buffer<T, Dimensions, A> &b, range<Dimensions> r, const property_list & = {})
      : base(b.slmc_data(), b.get_range(), r, id<Dimensions>()) { check(b); }
  template <typename T, typename A>
  accessor(buffer<T, Dimensions, A> &b, range<Dimensions> r, id<Dimensions> o,
           const property_list & = {})
      : base(b.slmc_data(), b.get_range(), r, o) { check(b); }

  SLMC_HD bool is_placeholder() const noexcept {
    return IsPlaceholder == access::placeholder::true_t;
  }
  SLMC_HD global_ptr<V> get_pointer() const noexcept { return global_ptr<V>(this->slmc_data()); }
  template <access::decorated D = access::decorated::no>
  SLMC_HD global_ptr<V, D> get_multi_ptr() const noexcept {
    return global_ptr<V, D>(this->slmc_data());
  }

private:
  template <typename B> void check(const B &b) const {
    for (int d = 0; d < Dimensions; ++d)
      if (this->offset_[d] + this->range_[d] > b.get_range()[d])
        throw sycl::exception(make_error_code(errc::accessor),
                              "accessor: the range and offset exceed the buffer");
  }
};

// Class template argument deduction: accessor{buf, h, read_only, no_init}.
template <typename T, int N, typename A>
accessor(buffer<T, N, A> &) -> accessor<T, N, access_mode::read_write, target::device,
                                        access::placeholder::true_t>;
template <typename T, int N, typename A>
accessor(buffer<T, N, A> &, const property_list &)
    -> accessor<T, N, access_mode::read_write, target::device, access::placeholder::true_t>;
template <typename T, int N, typename A, access_mode M, target Tg>
accessor(buffer<T, N, A> &, mode_tag_t<M, Tg>)
    -> accessor<T, N, M, target::device, access::placeholder::true_t>;
template <typename T, int N, typename A, access_mode M, target Tg>
accessor(buffer<T, N, A> &, mode_tag_t<M, Tg>, const property_list &)
    -> accessor<T, N, M, target::device, access::placeholder::true_t>;
template <typename T, int N, typename A>
accessor(buffer<T, N, A> &, handler &) -> accessor<T, N, access_mode::read_write>;
template <typename T, int N, typename A>
accessor(buffer<T, N, A> &, handler &, const property_list &)
    -> accessor<T, N, access_mode::read_write>;
template <typename T, int N, typename A, access_mode M, target Tg>
accessor(buffer<T, N, A> &, handler &, mode_tag_t<M, Tg>) -> accessor<T, N, M, target::device>;
template <typename T, int N, typename A, access_mode M, target Tg>
accessor(buffer<T, N, A> &, handler &, mode_tag_t<M, Tg>, const property_list &)
    -> accessor<T, N, M, target::device>;
template <typename T, int N, typename A, access_mode M, target Tg>
accessor(buffer<T, N, A> &, handler &, mode_target_tag_t<M, Tg>) -> accessor<T, N, M, Tg>;
template <typename T, int N, typename A>
accessor(buffer<T, N, A> &, handler &, range<N>) -> accessor<T, N, access_mode::read_write>;
template <typename T, int N, typename A>
accessor(buffer<T, N, A> &, handler &, range<N>, const property_list &)
    -> accessor<T, N, access_mode::read_write>;
template <typename T, int N, typename A>
accessor(buffer<T, N, A> &, handler &, range<N>, id<N>) -> accessor<T, N, access_mode::read_write>;
template <typename T, int N, typename A>
accessor(buffer<T, N, A> &, handler &, range<N>, id<N>, const property_list &)
    -> accessor<T, N, access_mode::read_write>;
template <typename T, int N, typename A, access_mode M, target Tg>
accessor(buffer<T, N, A> &, handler &, range<N>, mode_tag_t<M, Tg>)
    -> accessor<T, N, M, target::device>;
template <typename T, int N, typename A, access_mode M, target Tg>
accessor(buffer<T, N, A> &, handler &, range<N>, mode_tag_t<M, Tg>, const property_list &)
    -> accessor<T, N, M, target::device>;
template <typename T, int N, typename A, access_mode M, target Tg>
accessor(buffer<T, N, A> &, handler &, range<N>, id<N>, mode_tag_t<M, Tg>)
    -> accessor<T, N, M, target::device>;
template <typename T, int N, typename A, access_mode M, target Tg>
accessor(buffer<T, N, A> &, handler &, range<N>, id<N>, mode_tag_t<M, Tg>, const property_list &)
    -> accessor<T, N, M, target::device>;

// ---- host_accessor ----------------------------------------------------------------------
template <typename DataT, int Dimensions = 1, access_mode AccessMode = detail::default_mode<DataT>()>
class host_accessor
    : public detail::view<typename std::conditional<AccessMode == access_mode::read,
                                                    const DataT, DataT>::type,
                          Dimensions> {
  using V = typename std::conditional<AccessMode == access_mode::read, const DataT, DataT>::type;
  using base = detail::view<V, Dimensions>;

public:
  using value_type = V;
  using reference = V &;
  using const_reference = const DataT &;
  using iterator = V *;
  using const_iterator = const DataT *;
  static constexpr int dimensions = Dimensions;

  host_accessor() {}
  template <typename T, typename A>
  host_accessor(buffer<T, Dimensions, A> &b, const property_list & = {})
      : base(b.slmc_data(), b.get_range(), b.get_range(), id<Dimensions>()) { wait(); }
  template <typename T, typename A, typename Tag,
            typename = typename std::enable_if<detail::is_mode_tag<Tag>::value>::type>
  host_accessor(buffer<T, Dimensions, A> &b, Tag, const property_list & = {})
      : base(b.slmc_data(), b.get_range(), b.get_range(), id<Dimensions>()) { wait(); }
  template <typename T, typename A>
  host_accessor(buffer<T, Dimensions, A> &b, range<Dimensions> r, const property_list & = {})
      : base(b.slmc_data(), b.get_range(), r, id<Dimensions>()) { wait(); }
  template <typename T, typename A>
  host_accessor(buffer<T, Dimensions, A> &b, range<Dimensions> r, id<Dimensions> o,
                const property_list & = {})
      : base(b.slmc_data(), b.get_range(), r, o) { wait(); }
  template <typename T, typename A, typename Tag,
            typename = typename std::enable_if<detail::is_mode_tag<Tag>::value>::type>
  host_accessor(buffer<T, Dimensions, A> &b, range<Dimensions> r, Tag,
                const property_list & = {})
      : base(b.slmc_data(), b.get_range(), r, id<Dimensions>()) { wait(); }
  template <typename T, typename A, typename Tag,
            typename = typename std::enable_if<detail::is_mode_tag<Tag>::value>::type>
  host_accessor(buffer<T, Dimensions, A> &b, range<Dimensions> r, id<Dimensions> o, Tag,
                const property_list & = {})
      : base(b.slmc_data(), b.get_range(), r, o) { wait(); }

  V *get_pointer() const noexcept { return this->slmc_data(); }

private:
  static void wait() { detail::wait_for_host_access("host_accessor: a kernel failed"); }
};

template <typename T, int N, typename A>
host_accessor(buffer<T, N, A> &) -> host_accessor<T, N, access_mode::read_write>;
template <typename T, int N, typename A>
host_accessor(buffer<T, N, A> &, const property_list &)
    -> host_accessor<T, N, access_mode::read_write>;
template <typename T, int N, typename A, access_mode M, target Tg>
host_accessor(buffer<T, N, A> &, mode_tag_t<M, Tg>) -> host_accessor<T, N, M>;
template <typename T, int N, typename A, access_mode M, target Tg>
host_accessor(buffer<T, N, A> &, mode_tag_t<M, Tg>, const property_list &)
    -> host_accessor<T, N, M>;
template <typename T, int N, typename A>
host_accessor(buffer<T, N, A> &, range<N>) -> host_accessor<T, N, access_mode::read_write>;
template <typename T, int N, typename A>
host_accessor(buffer<T, N, A> &, range<N>, id<N>) -> host_accessor<T, N, access_mode::read_write>;
template <typename T, int N, typename A, access_mode M, target Tg>
host_accessor(buffer<T, N, A> &, range<N>, mode_tag_t<M, Tg>) -> host_accessor<T, N, M>;
template <typename T, int N, typename A, access_mode M, target Tg>
host_accessor(buffer<T, N, A> &, range<N>, id<N>, mode_tag_t<M, Tg>) -> host_accessor<T, N, M>;

// ---- local_accessor ------------------------------------------------------------------------
/// Group-local memory sized at submission. The copy constructor is
/// user-provided on purpose: a kernel that captures a local_accessor is then
/// not trivially copyable, which is how the handler knows, at compile time,
/// to launch it with dynamic group-local memory.
template <typename DataT, int Dimensions = 1> class local_accessor {
  static_assert(Dimensions >= 0 && Dimensions <= 3,
                "local_accessor: 0 to 3 dimensions are supported");

public:
  using value_type = DataT;
  using reference = DataT &;
  using const_reference = const DataT &;
  using iterator = DataT *;
  using const_iterator = const DataT *;
  using size_type = size_t;
  using difference_type = std::ptrdiff_t;
  static constexpr int dimensions = Dimensions;

  SLMC_HD local_accessor() : offset_(0) {}
  local_accessor(range<Dimensions> r, handler &h, const property_list & = {})
      : offset_(detail::reserve_local_memory(h, r.size() * sizeof(DataT), alignof(DataT))),
        range_(r) {}
  SLMC_HD local_accessor(const local_accessor &o) : offset_(o.offset_), range_(o.range_) {}
  SLMC_HD local_accessor &operator=(const local_accessor &o) {
    offset_ = o.offset_;
    range_ = o.range_;
    return *this;
  }

  SLMC_HD DataT &operator[](const id<Dimensions> &i) const {
    return slmc_data()[detail::linearize(i, range_)];
  }
  template <bool O> SLMC_HD DataT &operator[](const item<Dimensions, O> &it) const {
    return (*this)[it.get_id()];
  }
  SLMC_HD decltype(auto) operator[](size_t i) const {
    if constexpr (Dimensions == 1) {
      return static_cast<DataT &>(slmc_data()[i]);
    } else if constexpr (Dimensions == 2) {
      return slmc_data() + i * range_[1];
    } else {
      return detail::plane_ref<DataT>{slmc_data() + i * range_[1] * range_[2], range_[2], 0, 0};
    }
  }

  SLMC_HD range<Dimensions> get_range() const { return range_; }
  SLMC_HD size_t size() const noexcept { return range_.size(); }
  SLMC_HD size_t get_count() const { return size(); }
  SLMC_HD size_t get_size() const { return size() * sizeof(DataT); }
  SLMC_HD size_t byte_size() const noexcept { return size() * sizeof(DataT); }
  SLMC_HD bool empty() const noexcept { return size() == 0; }
  SLMC_HD local_ptr<DataT> get_pointer() const noexcept { return local_ptr<DataT>(slmc_data()); }
  template <access::decorated D = access::decorated::no>
  SLMC_HD local_ptr<DataT, D> get_multi_ptr() const noexcept {
    return local_ptr<DataT, D>(slmc_data());
  }
  SLMC_HD DataT *begin() const { return slmc_data(); }
  SLMC_HD DataT *end() const { return slmc_data() + size(); }

  /// slmc: the first element, in this work-group's memory.
  SLMC_HD DataT *slmc_data() const {
    return reinterpret_cast<DataT *>(detail::dynamic_group_memory() + offset_);
  }

private:
  size_t offset_;
  range<Dimensions> range_;
};

/// A zero-dimensional local accessor (SYCL 2020 4.7.6.11): one DataT of
/// the work-group's memory, read and written through the accessor itself.
template <typename DataT> class local_accessor<DataT, 0> {
public:
  using value_type = DataT;
  using reference = DataT &;
  using const_reference = const DataT &;
  using iterator = DataT *;
  using const_iterator = const DataT *;
  using size_type = size_t;
  using difference_type = std::ptrdiff_t;
  static constexpr int dimensions = 0;

  SLMC_HD local_accessor() : offset_(0) {}
  explicit local_accessor(handler &h, const property_list & = {})
      : offset_(detail::reserve_local_memory(h, sizeof(DataT), alignof(DataT))) {}
  SLMC_HD local_accessor(const local_accessor &o) : offset_(o.offset_) {}
  SLMC_HD local_accessor &operator=(const local_accessor &o) {
    offset_ = o.offset_;
    return *this;
  }

  SLMC_HD operator DataT &() const { return *slmc_data(); }
  SLMC_HD const local_accessor &operator=(const DataT &v) const {
    *slmc_data() = v;
    return *this;
  }
  SLMC_HD const local_accessor &operator=(DataT &&v) const {
    *slmc_data() = static_cast<DataT &&>(v);
    return *this;
  }

  SLMC_HD size_t size() const noexcept { return 1; }
  SLMC_HD size_t get_count() const { return 1; }
  SLMC_HD size_t get_size() const { return sizeof(DataT); }
  SLMC_HD size_t byte_size() const noexcept { return sizeof(DataT); }
  SLMC_HD bool empty() const noexcept { return false; }
  SLMC_HD local_ptr<DataT> get_pointer() const noexcept { return local_ptr<DataT>(slmc_data()); }
  template <access::decorated D = access::decorated::no>
  SLMC_HD local_ptr<DataT, D> get_multi_ptr() const noexcept {
    return local_ptr<DataT, D>(slmc_data());
  }
  SLMC_HD DataT *begin() const { return slmc_data(); }
  SLMC_HD DataT *end() const { return slmc_data() + 1; }

  /// slmc: the element, in this work-group's memory.
  SLMC_HD DataT *slmc_data() const {
    return reinterpret_cast<DataT *>(detail::dynamic_group_memory() + offset_);
  }

private:
  size_t offset_;
};

/// SYCL 1.2.1 spelling of a local accessor.
template <typename DataT, int Dimensions, access_mode AccessMode, access::placeholder P>
class accessor<DataT, Dimensions, AccessMode, target::local, P>
    : public local_accessor<DataT, Dimensions> {
public:
  SLMC_HD accessor() {}
  accessor(range<Dimensions> r, handler &h, const property_list &props = {})
      : local_accessor<DataT, Dimensions>(r, h, props) {}
};

// ---- buffer::get_access ----------------------------------------------------------------------
template <typename T, int N, typename A>
template <access_mode Mode, target Target>
auto buffer<T, N, A>::get_access(handler &h) {
  if constexpr (Target == target::host_buffer)
    return host_accessor<T, N, Mode>(*this);
  else
    return accessor<T, N, Mode, Target>(*this, h);
}
template <typename T, int N, typename A>
template <access_mode Mode, target Target>
auto buffer<T, N, A>::get_access(handler &h, range<N> r, id<N> offset) {
  return accessor<T, N, Mode, Target>(*this, h, r, offset);
}
template <typename T, int N, typename A>
template <typename Tag, typename>
auto buffer<T, N, A>::get_access(handler &h, Tag) {
  return accessor<T, N, detail::is_mode_tag<Tag>::mode, target::device>(*this, h);
}
template <typename T, int N, typename A>
template <access_mode Mode>
auto buffer<T, N, A>::get_access() {
  return host_accessor<T, N, Mode>(*this);
}
template <typename T, int N, typename A>
template <typename... Tags>
auto buffer<T, N, A>::get_host_access(Tags...) {
  if constexpr (sizeof...(Tags) == 0) {
    return host_accessor<T, N, access_mode::read_write>(*this);
  } else {
    using Tag = typename std::tuple_element<0, std::tuple<Tags...>>::type;
    return host_accessor<T, N, detail::is_mode_tag<Tag>::mode>(*this);
  }
}

} // namespace sycl

#endif // SLMC_SYCL_DETAIL_ACCESSOR_HPP
