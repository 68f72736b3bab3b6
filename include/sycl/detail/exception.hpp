//===- sycl/detail/exception.hpp - sycl::exception, errc, async errors ----===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_SYCL_DETAIL_EXCEPTION_HPP
#define SLMC_SYCL_DETAIL_EXCEPTION_HPP

#include "sycl/detail/common.hpp"

namespace sycl {

enum class errc {
  success = 0,
  runtime = 1,
  kernel = 2,
  accessor = 3,
  nd_range = 4,
  event = 5,
  kernel_argument = 6,
  build = 7,
  invalid = 8,
  memory_allocation = 9,
  platform = 10,
  profiling = 11,
  feature_not_supported = 12,
  kernel_not_supported = 13,
  backend_mismatch = 14
};

namespace detail {
class sycl_error_category : public std::error_category {
public:
  const char *name() const noexcept override { return "sycl"; }
  std::string message(int code) const override {
    switch (static_cast<errc>(code)) {
    case errc::success: return "success";
    case errc::runtime: return "runtime error";
    case errc::kernel: return "kernel error";
    case errc::accessor: return "accessor error";
    case errc::nd_range: return "invalid nd_range";
    case errc::event: return "event error";
    case errc::kernel_argument: return "invalid kernel argument";
    case errc::build: return "kernel build error";
    case errc::invalid: return "invalid argument";
    case errc::memory_allocation: return "memory allocation error";
    case errc::platform: return "platform error";
    case errc::profiling: return "profiling error";
    case errc::feature_not_supported: return "feature not supported";
    case errc::kernel_not_supported: return "kernel not supported";
    case errc::backend_mismatch: return "backend mismatch";
    }
    return "unknown SYCL error";
  }
};
} // namespace detail

inline const std::error_category &sycl_category() noexcept {
  static const detail::sycl_error_category category;
  return category;
}

inline std::error_code make_error_code(errc e) noexcept {
  return std::error_code(static_cast<int>(e), sycl_category());
}

} // namespace sycl

namespace std {
template <> struct is_error_code_enum<sycl::errc> : true_type {};
} // namespace std

namespace sycl {

class context;

/// The one exception type of SYCL 2020; code() tells what went wrong.
class exception : public virtual std::exception {
public:
  exception(std::error_code ec, const std::string &what_arg)
      : code_(ec), what_(what_arg) {}
  exception(std::error_code ec, const char *what_arg)
      : code_(ec), what_(what_arg ? what_arg : "") {}
  exception(std::error_code ec) : code_(ec), what_(ec.message()) {}
  exception(int ev, const std::error_category &cat, const std::string &what_arg)
      : exception(std::error_code(ev, cat), what_arg) {}
  exception(int ev, const std::error_category &cat, const char *what_arg)
      : exception(std::error_code(ev, cat), what_arg) {}
  exception(int ev, const std::error_category &cat)
      : exception(std::error_code(ev, cat)) {}

  const std::error_code &code() const noexcept { return code_; }
  const std::error_category &category() const noexcept { return code_.category(); }
  const char *what() const noexcept override { return what_.c_str(); }
  /// Exceptions here are never tied to a context.
  bool has_context() const noexcept { return false; }
  inline context get_context() const;

private:
  std::error_code code_;
  std::string what_;
};

/// Errors that happened while work ran, handed to an async_handler.
class exception_list {
public:
  using value_type = std::exception_ptr;
  using reference = value_type &;
  using const_reference = const value_type &;
  using size_type = std::size_t;
  using iterator = std::vector<std::exception_ptr>::const_iterator;
  using const_iterator = iterator;

  exception_list() = default;
  explicit exception_list(std::vector<std::exception_ptr> list) : list_(std::move(list)) {}
  size_type size() const { return list_.size(); }
  iterator begin() const { return list_.begin(); }
  iterator end() const { return list_.end(); }

private:
  std::vector<std::exception_ptr> list_;
};

using async_handler = std::function<void(sycl::exception_list)>;

namespace detail {

/// A runtime failure as a sycl::exception with the runtime's explanation.
inline sycl::exception make_exception(slmc_status s, const char *what) {
  std::string msg = std::string(what) + ": " + slmc_last_error();
  errc e = errc::runtime;
  switch (s) {
  case SLMC_SUCCESS: e = errc::success; break;
  case SLMC_ERROR_INVALID_VALUE: e = errc::invalid; break;
  case SLMC_ERROR_NO_DEVICE: e = errc::runtime; break;
  case SLMC_ERROR_OUT_OF_MEMORY: e = errc::memory_allocation; break;
  case SLMC_ERROR_INVALID_IMAGE:
  case SLMC_ERROR_BUILD_FAILURE: e = errc::build; break;
  case SLMC_ERROR_KERNEL_NOT_FOUND:
  case SLMC_ERROR_UNSUPPORTED: e = errc::kernel_not_supported; break;
  case SLMC_ERROR_RESOURCE_LIMIT:
    // Group-local memory over the limit is an allocation failure; a group
    // too big or too many groups is a bad nd_range.
    e = msg.find("group-local memory") != std::string::npos ? errc::memory_allocation
                                                            : errc::nd_range;
    break;
  case SLMC_ERROR_LAUNCH_FAILURE:
  case SLMC_ERROR_BARRIER_DIVERGENCE:
  case SLMC_ERROR_DATA_RACE:
  case SLMC_ERROR_GROUP_LOCAL_BOUNDS: e = errc::kernel; break;
  case SLMC_ERROR_BACKEND:
  case SLMC_ERROR_TASK_NOT_FOUND:
  case SLMC_ERROR_TIMEOUT: e = errc::runtime; break;
  }
  return sycl::exception(make_error_code(e), msg);
}

[[noreturn]] inline void throw_status(slmc_status s, const char *what) {
  throw make_exception(s, what);
}

inline void check(slmc_status s, const char *what) {
  if (s != SLMC_SUCCESS)
    throw_status(s, what);
}

/// Used where no async_handler was given: report and stop, as SYCL
/// implementations commonly do.
inline void default_async_handler(sycl::exception_list list) {
  std::fprintf(stderr, "SYCL: unhandled asynchronous error%s:\n",
               list.size() == 1 ? "" : "s");
  for (const std::exception_ptr &p : list) {
    try {
      std::rethrow_exception(p);
    } catch (const std::exception &e) {
      std::fprintf(stderr, "  %s\n", e.what());
    } catch (...) {
      std::fprintf(stderr, "  (unknown exception)\n");
    }
  }
  std::terminate();
}

} // namespace detail
} // namespace sycl

#endif // SLMC_SYCL_DETAIL_EXCEPTION_HPP
