//===- slmc/cilk_tasks.h - Cilk Plus offload tasks over libslmrt -----------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The C++ machinery behind <gfx/gfx_rt.h>: a kernel call captured as a task
// of libslmrt's in-order queue (slmc_task_enqueue), and the registry of
// kernels by name for the varargs entry points (_GFX_enqueue).
//
//  * offload(fn, args...) converts each argument to the type of the
//    corresponding parameter of `fn` now and keeps it by value (a non-const
//    lvalue reference parameter keeps a reference: its object must outlive
//    the task). The task calls fn(args...) on the queue's thread inside an
//    offload scope, where `fn` (a host function produced by the lowering of
//    a gfx_kernel) launches its loop nests on the device.
//  * The lowering ends each file that defines gfx_kernel functions with one
//    registrar per kernel:
//        static ::slmc::cilk::kernel_registrar slmc_cilk_registrar_0{"mm", &mm};
//    enqueue_va reads a va_list by the registered function's parameter
//    types, after the default argument promotions (float arrives as double,
//    bool/char/short as int).
//
// Host code only; the device passes of slmc++ parse it and emit nothing.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_CILK_TASKS_H
#define SLMC_CILK_TASKS_H

#include "slmc/runtime.h"

#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <mutex>
#include <new>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace slmc {
namespace cilk {

/// A task of the queue: 0 is no task (an error).
using task_id = std::uint64_t;

namespace tasks {

// ---- Captured arguments ------------------------------------------------------

/// How an argument for parameter type P is kept until the task runs.
template <class P> struct stored { using type = std::decay_t<P>; };
template <class T> struct stored<T &> {
  using type = std::conditional_t<std::is_const<T>::value && !std::is_array<T>::value,
                                  std::remove_cv_t<T>, std::reference_wrapper<T>>;
};
template <class T> struct stored<T &&> { using type = std::decay_t<T>; };
template <class P> using stored_t = typename stored<P>::type;

template <class Fn, class Tuple> struct task {
  Fn fn;
  Tuple args;

  static void run(void *self) {
    task *t = static_cast<task *>(self);
    std::apply([t](auto &...a) { t->fn(std::move(a)...); }, t->args);
  }
  static void release(void *self) { delete static_cast<task *>(self); }
};

/// Enqueues fn(args...) with the arguments already converted; 0 on failure
/// (the runtime's last error tells why).
template <class Fn, class Tuple> task_id enqueue_task(Fn fn, Tuple &&args) {
  using T = task<Fn, std::decay_t<Tuple>>;
  T *t = new (std::nothrow) T{fn, std::forward<Tuple>(args)};
  if (!t) {
    slmc_report_error(SLMC_ERROR_OUT_OF_MEMORY, "slmc: cannot allocate an offload task");
    return 0;
  }
  std::uint64_t id = 0;
  if (slmc_task_enqueue(&T::run, t, &T::release, &id) != SLMC_SUCCESS)
    return 0; // the runtime released the task
  return id;
}

// ---- Arguments through C varargs -----------------------------------------------

/// Whether a parameter of type P can be filled from a va_list.
template <class P> struct va_passable {
  using U = std::remove_cv_t<std::remove_reference_t<P>>;
  static constexpr bool value =
      (!std::is_reference<P>::value ||
       (std::is_const<std::remove_reference_t<P>>::value && !std::is_array<U>::value)) &&
      (std::is_arithmetic<U>::value || std::is_enum<U>::value ||
       std::is_pointer<U>::value || std::is_null_pointer<U>::value ||
       (std::is_class<U>::value && std::is_trivially_copyable<U>::value));
};

/// Reads one argument of type U (no reference, no cv) as the caller passed
/// it after the default argument promotions.
template <class U> U va_read(std::va_list &ap) {
  if constexpr (std::is_same<U, float>::value) {
    return static_cast<float>(va_arg(ap, double));
  } else if constexpr (std::is_same<U, bool>::value) {
    return va_arg(ap, int) != 0;
  } else if constexpr (std::is_enum<U>::value) {
    return static_cast<U>(va_read<std::underlying_type_t<U>>(ap));
  } else if constexpr (std::is_integral<U>::value && sizeof(U) < sizeof(int)) {
    return static_cast<U>(va_arg(ap, int));
  } else if constexpr (std::is_integral<U>::value && sizeof(U) == sizeof(int) &&
                       !std::is_same<U, int>::value &&
                       !std::is_same<U, unsigned>::value) {
    // char32_t, wchar_t: promoted to int or unsigned int
    using Promoted = std::conditional_t<std::is_signed<U>::value, int, unsigned>;
    return static_cast<U>(va_arg(ap, Promoted));
  } else if constexpr (std::is_null_pointer<U>::value) {
    (void)va_arg(ap, void *);
    return nullptr;
  } else {
    return va_arg(ap, U);
  }
}

template <class P> stored_t<P> va_read_param(std::va_list &ap) {
  return va_read<std::remove_cv_t<std::remove_reference_t<P>>>(ap);
}

using generic_fn = void (*)();
/// Reads the arguments of kernel `fn` (registered as `name`) and enqueues it.
using va_invoker = task_id (*)(const char *name, generic_fn fn, std::va_list *ap);

template <class R, class... P>
task_id invoke_va(const char *name, generic_fn generic, std::va_list *ap) {
  auto fn = reinterpret_cast<R (*)(P...)>(generic);
  if constexpr ((va_passable<P>::value && ...)) {
    // A braced list evaluates its elements left to right: the arguments are
    // read in parameter order.
    std::tuple<stored_t<P>...> args{va_read_param<P>(*ap)...};
    (void)ap;
    return enqueue_task(fn, std::move(args));
  } else {
    (void)fn;
    (void)ap;
    std::string m = std::string("slmc: kernel '") + name +
                    "' has a parameter that cannot be passed through '...' (a "
                    "non-const reference, an array reference or a non-trivial "
                    "class); call _GFX_offload with the function pointer";
    slmc_report_error(SLMC_ERROR_INVALID_VALUE, m.c_str());
    return 0;
  }
}

// ---- Registry of kernels by name ---------------------------------------------------

struct kernel_entry {
  const char *name;
  generic_fn fn;
  va_invoker invoke;
  bool ambiguous; // two different functions registered under the name
};

struct kernel_registry {
  std::mutex mutex;
  std::vector<kernel_entry> entries;
};

/// One registry per program (an inline function's static; never destroyed,
/// so tasks still running at exit can use it).
inline kernel_registry &registry() {
  static kernel_registry *r = new kernel_registry;
  return *r;
}

inline void register_kernel(const char *name, generic_fn fn, va_invoker invoke) {
  if (!name || !fn)
    return;
  kernel_registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (kernel_entry &e : r.entries)
    if (std::strcmp(e.name, name) == 0) {
      if (e.fn != fn)
        e.ambiguous = true; // e.g. static functions of two files
      return;
    }
  r.entries.push_back(kernel_entry{name, fn, invoke, false});
}

/// The kernel registered as `name`; false (with the runtime's last error
/// set) when there is none or the name is ambiguous.
inline bool find_kernel(const char *name, const char *caller, kernel_entry &out) {
  out = kernel_entry{nullptr, nullptr, nullptr, false};
  if (!name) {
    slmc_report_error(SLMC_ERROR_INVALID_VALUE,
                      (std::string("slmc: ") + caller + ": null kernel name").c_str());
    return false;
  }
  {
    kernel_registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    for (const kernel_entry &e : r.entries)
      if (std::strcmp(e.name, name) == 0) {
        out = e;
        if (!e.ambiguous)
          return true;
        break;
      }
  }
  std::string m = std::string("slmc: ") + caller + ": ";
  if (out.name)
    m += "two different kernels are registered as '" + std::string(name) + "'";
  else
    m += "no kernel named '" + std::string(name) +
         "' (is it a __declspec(target(gfx_kernel)) function of a file "
         "compiled by slmc++?)";
  slmc_report_error(SLMC_ERROR_KERNEL_NOT_FOUND, m.c_str());
  return false;
}

/// The kernel whose host function is at `fn`.
inline bool find_kernel(const void *fn, const char *caller, kernel_entry &out) {
  out = kernel_entry{nullptr, nullptr, nullptr, false};
  {
    kernel_registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    for (const kernel_entry &e : r.entries)
      if (reinterpret_cast<const void *>(e.fn) == fn) {
        out = e;
        return true;
      }
  }
  std::string m = std::string("slmc: ") + caller +
                  ": the function pointer is not a registered kernel (pass the "
                  "function itself to call it with typed arguments)";
  slmc_report_error(fn ? SLMC_ERROR_KERNEL_NOT_FOUND : SLMC_ERROR_INVALID_VALUE,
                    m.c_str());
  return false;
}

inline task_id enqueue_va(const kernel_entry &e, std::va_list *ap) {
  return e.invoke(e.name, e.fn, ap);
}

} // namespace tasks

/// Enqueues fn(args...): the arguments are converted to fn's parameter types
/// and captured now. Returns the task id, 0 on failure.
template <class R, class... P, class... A>
task_id offload(R (*fn)(P...), A &&...args) {
  static_assert(sizeof...(P) == sizeof...(A),
                "_GFX_offload: the arguments must match the kernel's parameters");
  if (!fn) {
    slmc_report_error(SLMC_ERROR_INVALID_VALUE, "slmc: _GFX_offload: null kernel");
    return 0;
  }
  return tasks::enqueue_task(
      fn, std::tuple<tasks::stored_t<P>...>(std::forward<A>(args)...));
}

/// Makes a kernel known by name (and by address to the untyped entry
/// points). The name must stay valid (a string literal).
struct kernel_registrar {
  template <class R, class... P> kernel_registrar(const char *name, R (*fn)(P...)) {
    tasks::register_kernel(name, reinterpret_cast<tasks::generic_fn>(fn),
                           &tasks::invoke_va<R, P...>);
  }
};

} // namespace cilk
} // namespace slmc

#endif // SLMC_CILK_TASKS_H
