//===- concrt.h - The Concurrency Runtime's synchronisation types ---------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// MSVC ships the Concurrency Runtime beside C++ AMP, in the same namespace,
// and C++ AMP programs use it for their host-side work: locks, events and
// the scheduler's processor count. This is the part of <concrt.h> that
// programs call, over the C++ standard library: critical_section,
// reader_writer_lock, event, wait, Context::Yield/Oversubscribe,
// CurrentScheduler::GetNumberOfVirtualProcessors, Alloc/Free and the
// runtime's exceptions. Schedulers, policies, agents and the resource
// manager are not provided (a call to them does not compile).
//
// Host code only: kernels cannot call any of it.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_CONCRT_H
#define SLMC_CONCRT_H

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <new>
#include <shared_mutex>
#include <stdexcept>
#include <thread>
#include <vector>

namespace Concurrency {}
namespace concurrency = Concurrency;

namespace Concurrency {

// ---- Exceptions --------------------------------------------------------------

#define SLMC_CONCRT_EXCEPTION(Name, Default)                                    \
  class Name : public std::exception {                                         \
  public:                                                                      \
    Name() noexcept : message_(Default) {}                                     \
    explicit Name(const char *message) noexcept                                \
        : message_(message ? message : Default) {}                             \
    const char *what() const noexcept override { return message_; }            \
                                                                               \
  private:                                                                     \
    const char *message_;                                                      \
  };
SLMC_CONCRT_EXCEPTION(improper_lock, "improper_lock: the lock was acquired improperly")
SLMC_CONCRT_EXCEPTION(invalid_operation, "invalid_operation")
SLMC_CONCRT_EXCEPTION(missing_wait, "missing_wait: a task group was destroyed with tasks running")
SLMC_CONCRT_EXCEPTION(scheduler_not_attached, "scheduler_not_attached")
#undef SLMC_CONCRT_EXCEPTION

// ---- Timeouts ----------------------------------------------------------------

const unsigned int COOPERATIVE_TIMEOUT_INFINITE = static_cast<unsigned int>(-1);
const std::size_t COOPERATIVE_WAIT_TIMEOUT = SIZE_MAX;

/// Blocks the calling thread for at least `milliseconds`.
inline void wait(unsigned int milliseconds) {
  std::this_thread::sleep_for(std::chrono::milliseconds(milliseconds));
}

// ---- critical_section --------------------------------------------------------

/// A non-reentrant mutual-exclusion lock. Locking it again from the thread
/// that holds it throws improper_lock, as ConcRT's does, instead of hanging.
class critical_section {
public:
  critical_section() = default;
  critical_section(const critical_section &) = delete;
  critical_section &operator=(const critical_section &) = delete;

  void lock() {
    refuseRecursion();
    m_.lock();
    owner_.store(std::this_thread::get_id(), std::memory_order_relaxed);
  }
  bool try_lock() {
    refuseRecursion();
    if (!m_.try_lock())
      return false;
    owner_.store(std::this_thread::get_id(), std::memory_order_relaxed);
    return true;
  }
  bool try_lock_for(unsigned int milliseconds) {
    refuseRecursion();
    if (!m_.try_lock_for(std::chrono::milliseconds(milliseconds)))
      return false;
    owner_.store(std::this_thread::get_id(), std::memory_order_relaxed);
    return true;
  }
  void unlock() {
    owner_.store(std::thread::id(), std::memory_order_relaxed);
    m_.unlock();
  }
  critical_section &native_handle() { return *this; }

  class scoped_lock {
  public:
    explicit scoped_lock(critical_section &cs) : cs_(cs) { cs_.lock(); }
    ~scoped_lock() { cs_.unlock(); }
    scoped_lock(const scoped_lock &) = delete;
    scoped_lock &operator=(const scoped_lock &) = delete;

  private:
    critical_section &cs_;
  };

private:
  void refuseRecursion() const {
    if (owner_.load(std::memory_order_relaxed) == std::this_thread::get_id())
      throw improper_lock("critical_section: the lock is already held by this thread");
  }
  std::timed_mutex m_;
  std::atomic<std::thread::id> owner_{};
};

// ---- reader_writer_lock ------------------------------------------------------

/// Writers exclude everyone; readers share. unlock() releases whichever kind
/// the calling thread holds.
class reader_writer_lock {
public:
  reader_writer_lock() = default;
  reader_writer_lock(const reader_writer_lock &) = delete;
  reader_writer_lock &operator=(const reader_writer_lock &) = delete;

  void lock() {
    if (writer_.load(std::memory_order_relaxed) == std::this_thread::get_id())
      throw improper_lock("reader_writer_lock: the lock is already held by this thread");
    m_.lock();
    writer_.store(std::this_thread::get_id(), std::memory_order_relaxed);
  }
  bool try_lock() {
    if (!m_.try_lock())
      return false;
    writer_.store(std::this_thread::get_id(), std::memory_order_relaxed);
    return true;
  }
  void lock_read() { m_.lock_shared(); }
  bool try_lock_read() { return m_.try_lock_shared(); }
  void unlock() {
    if (writer_.load(std::memory_order_relaxed) == std::this_thread::get_id()) {
      writer_.store(std::thread::id(), std::memory_order_relaxed);
      m_.unlock();
    } else {
      m_.unlock_shared();
    }
  }

  class scoped_lock {
  public:
    explicit scoped_lock(reader_writer_lock &l) : l_(l) { l_.lock(); }
    ~scoped_lock() { l_.unlock(); }
    scoped_lock(const scoped_lock &) = delete;
    scoped_lock &operator=(const scoped_lock &) = delete;

  private:
    reader_writer_lock &l_;
  };
  class scoped_lock_read {
  public:
    explicit scoped_lock_read(reader_writer_lock &l) : l_(l) { l_.lock_read(); }
    ~scoped_lock_read() { l_.unlock(); }
    scoped_lock_read(const scoped_lock_read &) = delete;
    scoped_lock_read &operator=(const scoped_lock_read &) = delete;

  private:
    reader_writer_lock &l_;
  };

private:
  std::shared_mutex m_;
  std::atomic<std::thread::id> writer_{};
};

// ---- event -------------------------------------------------------------------

/// A manual-reset event: set() releases every waiter until reset().
class event {
public:
  event() = default;
  event(const event &) = delete;
  event &operator=(const event &) = delete;

  void set() {
    {
      std::lock_guard<std::mutex> g(m_);
      set_ = true;
    }
    cv_.notify_all();
  }
  void reset() {
    std::lock_guard<std::mutex> g(m_);
    set_ = false;
  }
  /// 0 once the event is set, COOPERATIVE_WAIT_TIMEOUT if the time ran out.
  std::size_t wait(unsigned int timeout = COOPERATIVE_TIMEOUT_INFINITE) {
    std::unique_lock<std::mutex> g(m_);
    if (timeout == COOPERATIVE_TIMEOUT_INFINITE) {
      cv_.wait(g, [&] { return set_; });
      return 0;
    }
    return cv_.wait_for(g, std::chrono::milliseconds(timeout), [&] { return set_; })
               ? 0
               : COOPERATIVE_WAIT_TIMEOUT;
  }
  /// Waits for one (`wait_all` false: returns its index) or all of `count`
  /// events; COOPERATIVE_WAIT_TIMEOUT if the time ran out first.
  static std::size_t wait_for_multiple(event **events, std::size_t count, bool wait_all,
                                       unsigned int timeout = COOPERATIVE_TIMEOUT_INFINITE) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout);
    for (;;) {
      bool all = true;
      for (std::size_t i = 0; i < count; ++i) {
        bool set = events[i]->isSet();
        if (set && !wait_all)
          return i;
        all = all && set;
      }
      if (wait_all && all)
        return 0;
      if (timeout != COOPERATIVE_TIMEOUT_INFINITE &&
          std::chrono::steady_clock::now() >= deadline)
        return COOPERATIVE_WAIT_TIMEOUT;
      std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
  }

private:
  bool isSet() {
    std::lock_guard<std::mutex> g(m_);
    return set_;
  }
  std::mutex m_;
  std::condition_variable cv_;
  bool set_ = false;
};

// ---- Contexts and the scheduler ----------------------------------------------

namespace ppl_detail {
/// The cancellation flag of the task group whose work this thread runs.
inline thread_local const std::atomic<bool> *current_cancel_flag = nullptr;
} // namespace ppl_detail

class Context {
public:
  static void Yield() { std::this_thread::yield(); }
  /// ConcRT adds a virtual processor while a thread blocks; threads here
  /// are the operating system's, so there is nothing to add.
  static void Oversubscribe(bool) {}
  static unsigned int VirtualProcessorId() { return 0; }
  /// Whether the task group whose task is running on this thread (or that
  /// this thread waits on) is being canceled.
  static bool IsCurrentTaskCollectionCanceling() {
    const std::atomic<bool> *flag = ppl_detail::current_cancel_flag;
    return flag && flag->load(std::memory_order_relaxed);
  }
};

class CurrentScheduler {
public:
  /// The threads the PPL's work runs on: the hardware threads, as the
  /// default scheduler has them, or SLMC_CPU_THREADS when set (the same
  /// count as the CPU fallback's).
  static unsigned int GetNumberOfVirtualProcessors() {
    if (const char *env = std::getenv("SLMC_CPU_THREADS")) {
      long n = std::strtol(env, nullptr, 10);
      if (n > 0 && n <= 4096)
        return static_cast<unsigned int>(n);
    }
    unsigned int n = std::thread::hardware_concurrency();
    return n ? n : 1;
  }
  static unsigned int Id() { return 0; }
};

inline void *Alloc(std::size_t bytes) {
  void *p = std::malloc(bytes ? bytes : 1);
  if (!p)
    throw std::bad_alloc();
  return p;
}
inline void Free(void *p) { std::free(p); }

} // namespace Concurrency

#endif // SLMC_CONCRT_H
