//===- sycl/detail/device.hpp - platform, device, context, selectors ------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// One platform ("slmc") with one device per libslmrt backend that has a
// device: Level Zero (GPU), CUDA (GPU) and the CPU fallback (CPU). When
// SLMC_DEVICE is set, only the device it names is visible. A process uses
// one device at a time: making a queue for another device switches the
// runtime to it, which is only possible while no memory or work is in
// flight.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_SYCL_DETAIL_DEVICE_HPP
#define SLMC_SYCL_DETAIL_DEVICE_HPP

#include "sycl/detail/common.hpp"
#include "sycl/detail/exception.hpp"
#include "sycl/detail/item.hpp"

namespace sycl {

enum class backend { ext_oneapi_level_zero, ext_oneapi_cuda, ext_oneapi_native_cpu };

enum class aspect {
  cpu,
  gpu,
  accelerator,
  custom,
  emulated,
  host_debuggable,
  fp16,
  fp64,
  atomic64,
  image,
  online_compiler,
  online_linker,
  queue_profiling,
  usm_device_allocations,
  usm_host_allocations,
  usm_atomic_host_allocations,
  usm_shared_allocations,
  usm_atomic_shared_allocations,
  usm_system_allocations
};

class device;
class platform;
class context;

namespace info {
enum class device_type { cpu, gpu, accelerator, custom, automatic, host, all };
enum class local_mem_type { none, local, global };

namespace device {
struct device_type { using return_type = info::device_type; };
struct name { using return_type = std::string; };
struct vendor { using return_type = std::string; };
struct driver_version { using return_type = std::string; };
struct version { using return_type = std::string; };
struct backend_version { using return_type = std::string; };
struct vendor_id { using return_type = uint32_t; };
struct max_compute_units { using return_type = uint32_t; };
struct max_work_item_dimensions { using return_type = uint32_t; };
template <int Dimensions = 3> struct max_work_item_sizes {
  using return_type = range<Dimensions>;
};
struct max_work_group_size { using return_type = size_t; };
struct max_num_sub_groups { using return_type = uint32_t; };
struct sub_group_sizes { using return_type = std::vector<size_t>; };
struct global_mem_size { using return_type = uint64_t; };
struct max_mem_alloc_size { using return_type = uint64_t; };
struct local_mem_size { using return_type = uint64_t; };
struct local_mem_type { using return_type = info::local_mem_type; };
struct max_clock_frequency { using return_type = uint32_t; };
struct is_available { using return_type = bool; };
struct platform { using return_type = sycl::platform; };
} // namespace device

namespace platform {
struct name { using return_type = std::string; };
struct vendor { using return_type = std::string; };
struct version { using return_type = std::string; };
struct profile { using return_type = std::string; };
} // namespace platform
} // namespace info

namespace detail {
/// The backend the runtime uses now (choosing one if none yet).
inline slmc_backend current_backend() {
  slmc_backend b = SLMC_BACKEND_CPU;
  check(slmc_get_backend(&b), "no SYCL device");
  return b;
}

/// Makes `b` the runtime's device.
inline void activate_backend(slmc_backend b) {
  if (current_backend() == b)
    return;
  slmc_status s = slmc_select_backend(b);
  if (s != SLMC_SUCCESS)
    throw make_exception(s, "cannot switch to the selected SYCL device (slmc runs one "
                            "device per process)");
}
} // namespace detail

class device {
public:
  /// The default device (default_selector_v).
  inline device();
  template <typename Selector,
            typename = typename std::enable_if<
                std::is_invocable_r<int, const Selector &, const device &>::value>::type>
  explicit device(const Selector &selector);

  bool is_cpu() const { return backend_ == SLMC_BACKEND_CPU; }
  bool is_gpu() const { return backend_ != SLMC_BACKEND_CPU; }
  bool is_accelerator() const { return false; }

  bool has(aspect a) const {
    switch (a) {
    case aspect::cpu: return is_cpu();
    case aspect::gpu: return is_gpu();
    case aspect::emulated: return is_cpu();
    case aspect::fp64:
      // Not known from libslmrt's device description; many Intel GPUs have
      // no fp64, so Level Zero devices say no.
      return backend_ != SLMC_BACKEND_LEVEL_ZERO;
    case aspect::atomic64:
    case aspect::usm_device_allocations:
    case aspect::usm_host_allocations:
    case aspect::usm_shared_allocations:
    case aspect::usm_atomic_shared_allocations: return true;
    default: return false;
    }
  }

  template <typename Param> typename Param::return_type get_info() const;

  inline platform get_platform() const;
  sycl::backend get_backend() const noexcept {
    return backend_ == SLMC_BACKEND_LEVEL_ZERO ? backend::ext_oneapi_level_zero
           : backend_ == SLMC_BACKEND_CUDA     ? backend::ext_oneapi_cuda
                                               : backend::ext_oneapi_native_cpu;
  }

  static std::vector<device> get_devices(info::device_type type = info::device_type::all) {
    std::vector<device> all;
    const char *env = std::getenv("SLMC_DEVICE");
    if (env && *env) {
      all.push_back(device(detail::current_backend()));
    } else {
      const slmc_backend order[3] = {SLMC_BACKEND_LEVEL_ZERO, SLMC_BACKEND_CUDA,
                                     SLMC_BACKEND_CPU};
      for (slmc_backend b : order)
        if (slmc_backend_available(b))
          all.push_back(device(b));
    }
    std::vector<device> r;
    for (const device &d : all)
      if (type == info::device_type::all || type == info::device_type::automatic ||
          (type == info::device_type::gpu && d.is_gpu()) ||
          (type == info::device_type::cpu && d.is_cpu()))
        r.push_back(d);
    return r;
  }

  friend bool operator==(const device &a, const device &b) { return a.backend_ == b.backend_; }
  friend bool operator!=(const device &a, const device &b) { return !(a == b); }

  /// slmc: the runtime backend behind this device.
  slmc_backend slmc_backend_kind() const { return backend_; }
  explicit device(slmc_backend b) : backend_(b) {}

private:
  slmc_device_info info() const {
    slmc_device_info i;
    std::memset(&i, 0, sizeof(i));
    if (detail::current_backend() == backend_)
      detail::check(slmc_get_device_info(&i), "device::get_info");
    else
      std::snprintf(i.name, sizeof(i.name), "%s", slmc_backend_name(backend_));
    return i;
  }

  slmc_backend backend_ = SLMC_BACKEND_CPU;
};

class platform {
public:
  platform() = default;
  template <typename Selector,
            typename = typename std::enable_if<
                std::is_invocable_r<int, const Selector &, const device &>::value>::type>
  explicit platform(const Selector &) {}

  std::vector<device> get_devices(info::device_type type = info::device_type::all) const {
    return device::get_devices(type);
  }
  bool has(aspect a) const {
    for (const device &d : get_devices())
      if (d.has(a)) return true;
    return false;
  }
  template <typename Param> typename Param::return_type get_info() const {
    if constexpr (std::is_same<Param, info::platform::name>::value)
      return "slmc";
    else if constexpr (std::is_same<Param, info::platform::vendor>::value)
      return "slmc";
    else if constexpr (std::is_same<Param, info::platform::version>::value)
      return "SYCL 2020 (slmc)";
    else if constexpr (std::is_same<Param, info::platform::profile>::value)
      return "FULL_PROFILE";
    else
      static_assert(!sizeof(Param), "platform::get_info: this query is not supported");
  }
  static std::vector<platform> get_platforms() { return {platform()}; }

  friend bool operator==(const platform &, const platform &) { return true; }
  friend bool operator!=(const platform &, const platform &) { return false; }
};

inline platform device::get_platform() const { return platform(); }

template <typename Param> typename Param::return_type device::get_info() const {
  namespace d = info::device;
  if constexpr (std::is_same<Param, d::device_type>::value) {
    return is_cpu() ? info::device_type::cpu : info::device_type::gpu;
  } else if constexpr (std::is_same<Param, d::name>::value) {
    return std::string(info().name);
  } else if constexpr (std::is_same<Param, d::vendor>::value) {
    return backend_ == SLMC_BACKEND_LEVEL_ZERO ? "Intel(R) Corporation"
           : backend_ == SLMC_BACKEND_CUDA     ? "NVIDIA Corporation"
                                               : "slmc";
  } else if constexpr (std::is_same<Param, d::driver_version>::value ||
                       std::is_same<Param, d::version>::value ||
                       std::is_same<Param, d::backend_version>::value) {
    return std::string(slmc_backend_name(backend_));
  } else if constexpr (std::is_same<Param, d::vendor_id>::value) {
    return backend_ == SLMC_BACKEND_LEVEL_ZERO ? 0x8086u
           : backend_ == SLMC_BACKEND_CUDA     ? 0x10deu
                                               : 0u;
  } else if constexpr (std::is_same<Param, d::max_compute_units>::value) {
    return info().compute_units;
  } else if constexpr (std::is_same<Param, d::max_work_item_dimensions>::value) {
    return 3u;
  } else if constexpr (std::is_same<Param, d::max_work_group_size>::value) {
    return info().max_group_size;
  } else if constexpr (std::is_same<Param, d::max_work_item_sizes<1>>::value) {
    return range<1>(info().max_group_dims.x);
  } else if constexpr (std::is_same<Param, d::max_work_item_sizes<2>>::value) {
    slmc_dim3 m = info().max_group_dims;
    return range<2>(m.y, m.x);
  } else if constexpr (std::is_same<Param, d::max_work_item_sizes<3>>::value) {
    slmc_dim3 m = info().max_group_dims;
    return range<3>(m.z, m.y, m.x);
  } else if constexpr (std::is_same<Param, d::max_num_sub_groups>::value) {
    return uint32_t(info().max_group_size);
  } else if constexpr (std::is_same<Param, d::sub_group_sizes>::value) {
    const slmc_device_info &i = info();
    return std::vector<size_t>(i.sub_group_sizes, i.sub_group_sizes + i.num_sub_group_sizes);
  } else if constexpr (std::is_same<Param, d::global_mem_size>::value ||
                       std::is_same<Param, d::max_mem_alloc_size>::value) {
    return uint64_t(info().global_memory);
  } else if constexpr (std::is_same<Param, d::local_mem_size>::value) {
    return uint64_t(info().max_group_local_memory);
  } else if constexpr (std::is_same<Param, d::local_mem_type>::value) {
    return is_cpu() ? info::local_mem_type::global : info::local_mem_type::local;
  } else if constexpr (std::is_same<Param, d::max_clock_frequency>::value) {
    return 0u;
  } else if constexpr (std::is_same<Param, d::is_available>::value) {
    return slmc_backend_available(backend_) != 0;
  } else if constexpr (std::is_same<Param, d::platform>::value) {
    return get_platform();
  } else {
    static_assert(!sizeof(Param), "device::get_info: this query is not supported");
  }
}

class context {
public:
  context() : devices_{device()} {}
  explicit context(const device &d) : devices_{d} {}
  explicit context(const std::vector<device> &ds) : devices_(ds) {}
  context(const device &d, const async_handler &) : devices_{d} {}
  std::vector<device> get_devices() const { return devices_; }
  platform get_platform() const { return platform(); }
  friend bool operator==(const context &a, const context &b) {
    return a.devices_ == b.devices_;
  }
  friend bool operator!=(const context &a, const context &b) { return !(a == b); }

private:
  std::vector<device> devices_;
};

inline context exception::get_context() const {
  throw sycl::exception(make_error_code(errc::invalid), "this exception has no context");
}

// ---- Device selectors -----------------------------------------------------------
/// Prefers Level Zero, then CUDA, then the CPU fallback, as libslmrt does.
inline int default_selector_v(const device &d) {
  switch (d.slmc_backend_kind()) {
  case SLMC_BACKEND_LEVEL_ZERO: return 300;
  case SLMC_BACKEND_CUDA: return 200;
  default: return 100;
  }
}
inline int gpu_selector_v(const device &d) { return d.is_gpu() ? default_selector_v(d) : -1; }
inline int cpu_selector_v(const device &d) { return d.is_cpu() ? 100 : -1; }
inline int accelerator_selector_v(const device &) { return -1; }

/// A selector that accepts devices having every aspect given.
inline auto aspect_selector(const std::vector<aspect> &require,
                            const std::vector<aspect> &deny = {}) {
  return [require, deny](const device &d) {
    for (aspect a : require)
      if (!d.has(a)) return -1;
    for (aspect a : deny)
      if (d.has(a)) return -1;
    return default_selector_v(d);
  };
}
template <typename... Aspects> auto aspect_selector(Aspects... as) {
  return aspect_selector(std::vector<aspect>{as...});
}

/// SYCL 1.2.1 selector classes (deprecated in SYCL 2020).
class device_selector {
public:
  virtual ~device_selector() = default;
  virtual int operator()(const device &d) const = 0;
};
class default_selector : public device_selector {
public:
  int operator()(const device &d) const override { return default_selector_v(d); }
};
class gpu_selector : public device_selector {
public:
  int operator()(const device &d) const override { return gpu_selector_v(d); }
};
class cpu_selector : public device_selector {
public:
  int operator()(const device &d) const override { return cpu_selector_v(d); }
};
class accelerator_selector : public device_selector {
public:
  int operator()(const device &d) const override { return accelerator_selector_v(d); }
};

namespace detail {
template <typename Selector> device select_device(const Selector &selector) {
  int best = -1;
  const device *chosen = nullptr;
  std::vector<device> all = device::get_devices();
  for (const device &d : all) {
    int score = selector(d);
    if (score >= 0 && score > best) {
      best = score;
      chosen = &d;
    }
  }
  if (!chosen)
    throw sycl::exception(make_error_code(errc::runtime),
                          "No device of requested type available.");
  return *chosen;
}
} // namespace detail

inline device::device() : backend_(detail::current_backend()) {}

template <typename Selector, typename>
device::device(const Selector &selector) : backend_(detail::select_device(selector).backend_) {}

} // namespace sycl

#endif // SLMC_SYCL_DETAIL_DEVICE_HPP
