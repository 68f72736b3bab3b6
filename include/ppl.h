//===- ppl.h - The Parallel Patterns Library for C++ AMP programs ---------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// C++ AMP programs do their CPU-side work (reference results, tiles of a
// problem the GPU does not take, setup) with MSVC's Parallel Patterns
// Library, in the same namespace as C++ AMP. This is the part they call:
//
//   task_group, structured_task_group, task_handle, make_task,
//   task_group_status, is_current_task_group_canceling;
//   parallel_for (with and without a step), parallel_for_each,
//   parallel_invoke (2 to 10 functions), parallel_transform (unary,
//   binary), parallel_reduce (three forms), parallel_sort,
//   parallel_buffered_sort, parallel_radixsort, with the partitioners;
//   combinable; and <concrt.h>'s locks and events.
//
// Work runs on one pool of worker threads (one per hardware thread, less
// the caller). A thread that waits on a task group runs that group's
// tasks that no worker has started, so nested parallelism (a parallel_for
// inside a task, recursive task groups) never waits on a busy pool.
// Exceptions follow the PPL: the first one a task throws cancels the rest
// of its group (tasks not yet started do not start) and wait() throws it.
// PPL tasks (<ppltasks.h>) and the concurrent containers are not provided.
//
// Host code only: none of this can be called from a kernel (restrict(amp)).
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_PPL_H
#define SLMC_PPL_H

#include <concrt.h>

#include <algorithm>
#include <cstddef>
#include <deque>
#include <functional>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

namespace Concurrency {

enum task_group_status { not_complete, completed, canceled };

namespace ppl_detail {

struct Group;

struct Task {
  std::function<void()> Work;
  Group *Owner;
  std::atomic<bool> Taken{false};
};

/// What a task group shares with the tasks it started.
struct Group {
  std::mutex M;
  std::condition_variable Done;
  std::size_t Pending = 0;
  std::vector<std::shared_ptr<Task>> Started; // not yet run by the waiter
  std::exception_ptr Error;
  std::atomic<bool> Cancel{false};
};

/// Runs `T` unless its group is canceling; the first exception cancels it.
inline void execute(const std::shared_ptr<Task> &T) {
  Group &G = *T->Owner;
  const std::atomic<bool> *Outer = current_cancel_flag;
  current_cancel_flag = &G.Cancel;
  if (!G.Cancel.load(std::memory_order_relaxed)) {
    try {
      T->Work();
    } catch (...) {
      std::lock_guard<std::mutex> L(G.M);
      if (!G.Error)
        G.Error = std::current_exception();
      G.Cancel.store(true, std::memory_order_relaxed);
    }
  }
  current_cancel_flag = Outer;
  T->Work = nullptr; // release what it captured before the group is done
  std::lock_guard<std::mutex> L(G.M);
  if (--G.Pending == 0)
    G.Done.notify_all();
}

/// The worker threads: hardware threads less one (the thread that waits
/// works too). Started on first use, stopped at exit.
class Pool {
public:
  static Pool &get() {
    static Pool P;
    return P;
  }
  void submit(std::shared_ptr<Task> T) {
    if (Workers.empty())
      return; // the waiter runs it
    {
      std::lock_guard<std::mutex> L(M);
      Queue.push_back(std::move(T));
    }
    Wake.notify_one();
  }
  std::size_t workers() const { return Workers.size(); }
  ~Pool() {
    {
      std::lock_guard<std::mutex> L(M);
      Stop = true;
    }
    Wake.notify_all();
    for (std::thread &W : Workers)
      W.join();
  }

private:
  Pool() {
    unsigned N = CurrentScheduler::GetNumberOfVirtualProcessors();
    for (unsigned I = 1; I < N; ++I)
      Workers.emplace_back([this] { loop(); });
  }
  void loop() {
    for (;;) {
      std::shared_ptr<Task> T;
      {
        std::unique_lock<std::mutex> L(M);
        Wake.wait(L, [&] { return Stop || !Queue.empty(); });
        if (Queue.empty())
          return;
        T = std::move(Queue.front());
        Queue.pop_front();
      }
      if (!T->Taken.exchange(true))
        execute(T);
    }
  }
  std::mutex M;
  std::condition_variable Wake;
  std::deque<std::shared_ptr<Task>> Queue;
  std::vector<std::thread> Workers;
  bool Stop = false;
};

/// The state of task_group and structured_task_group.
class TaskCollection {
public:
  TaskCollection() = default;
  TaskCollection(const TaskCollection &) = delete;
  TaskCollection &operator=(const TaskCollection &) = delete;
  ~TaskCollection() {
    // The PPL may throw missing_wait here; finishing the work is safer.
    try {
      wait();
    } catch (...) {
    }
  }

  void run(std::function<void()> Work) {
    auto T = std::make_shared<Task>();
    T->Work = std::move(Work);
    T->Owner = &G;
    {
      std::lock_guard<std::mutex> L(G.M);
      ++G.Pending;
      G.Started.push_back(T);
    }
    Pool::get().submit(std::move(T));
  }

  task_group_status wait() {
    const std::atomic<bool> *Outer = current_cancel_flag;
    current_cancel_flag = &G.Cancel;
    for (;;) {
      // Run what no worker has taken (tasks may add more while they run).
      std::vector<std::shared_ptr<Task>> Mine;
      {
        std::lock_guard<std::mutex> L(G.M);
        Mine.swap(G.Started);
      }
      if (Mine.empty())
        break;
      for (const std::shared_ptr<Task> &T : Mine)
        if (!T->Taken.exchange(true))
          execute(T);
    }
    std::exception_ptr Error;
    {
      std::unique_lock<std::mutex> L(G.M);
      G.Done.wait(L, [&] { return G.Pending == 0; });
      Error = G.Error;
      G.Error = nullptr;
    }
    current_cancel_flag = Outer;
    bool WasCanceled = G.Cancel.exchange(false);
    if (Error)
      std::rethrow_exception(Error);
    return WasCanceled ? canceled : completed;
  }

  void cancel() { G.Cancel.store(true, std::memory_order_relaxed); }
  bool is_canceling() const { return G.Cancel.load(std::memory_order_relaxed); }

private:
  Group G;
};

/// Calls Body(Begin, End) over [0, N) in chunks, on the caller and the
/// pool. `Chunk` 0 chooses: a few chunks per thread, so uneven iterations
/// balance.
template <typename Body>
void forChunks(std::size_t N, std::size_t Chunk, const Body &B) {
  if (N == 0)
    return;
  std::size_t Threads = Pool::get().workers() + 1;
  if (Chunk == 0)
    Chunk = std::max<std::size_t>(1, N / (Threads * 8));
  std::size_t Chunks = (N + Chunk - 1) / Chunk;
  if (Chunks == 1 || Threads == 1) {
    B(std::size_t(0), N);
    return;
  }
  std::atomic<std::size_t> Next{0};
  TaskCollection Tasks;
  auto Loop = [&] {
    for (;;) {
      if (Context::IsCurrentTaskCollectionCanceling())
        return;
      std::size_t C = Next.fetch_add(1, std::memory_order_relaxed);
      if (C >= Chunks)
        return;
      std::size_t Begin = C * Chunk;
      B(Begin, std::min(N, Begin + Chunk));
    }
  };
  for (std::size_t I = 1; I < std::min(Threads, Chunks); ++I)
    Tasks.run(Loop);
  Tasks.run(Loop); // the caller's share, run by wait() below
  Tasks.wait();
}

template <typename It>
using IsRandomAccess = std::is_base_of<std::random_access_iterator_tag,
                                       typename std::iterator_traits<It>::iterator_category>;

} // namespace ppl_detail

// ---- Partitioners ------------------------------------------------------------

class auto_partitioner {};
class static_partitioner {};
class affinity_partitioner {};
class simple_partitioner {
public:
  explicit simple_partitioner(std::size_t chunk_size) : chunk_(chunk_size) {
    if (chunk_size == 0)
      throw std::invalid_argument("simple_partitioner: the chunk size must be positive");
  }
  std::size_t _Get_num_chunks() const { return chunk_; }

private:
  std::size_t chunk_;
};

namespace ppl_detail {
template <typename P>
using IsPartitioner = std::integral_constant<
    bool, std::is_same<std::decay_t<P>, auto_partitioner>::value ||
              std::is_same<std::decay_t<P>, static_partitioner>::value ||
              std::is_same<std::decay_t<P>, simple_partitioner>::value ||
              std::is_same<std::decay_t<P>, affinity_partitioner>::value>;

inline std::size_t chunkOf(const auto_partitioner &, std::size_t) { return 0; }
inline std::size_t chunkOf(const affinity_partitioner &, std::size_t) { return 0; }
inline std::size_t chunkOf(const simple_partitioner &P, std::size_t) {
  return P._Get_num_chunks();
}
/// One chunk per thread, as the static partitioner divides the range.
inline std::size_t chunkOf(const static_partitioner &, std::size_t N) {
  std::size_t Threads = Pool::get().workers() + 1;
  return std::max<std::size_t>(1, (N + Threads - 1) / Threads);
}
} // namespace ppl_detail

// ---- Task groups -------------------------------------------------------------

template <typename Function> class task_handle {
public:
  explicit task_handle(const Function &f) : f_(f) {}
  void operator()() const { f_(); }

private:
  Function f_;
};

template <typename Function> task_handle<Function> make_task(const Function &f) {
  return task_handle<Function>(f);
}

/// Tasks started with run() may run at once on a worker; wait() runs the
/// rest on the calling thread and returns when all are done.
class task_group {
public:
  template <typename Function> void run(const Function &f) {
    tasks_.run([f] { f(); });
  }
  template <typename Function> void run(task_handle<Function> &h) {
    tasks_.run([&h] { h(); });
  }
  template <typename Function> task_group_status run_and_wait(const Function &f) {
    run(f);
    return wait();
  }
  template <typename Function> task_group_status run_and_wait(task_handle<Function> &h) {
    run(h);
    return wait();
  }
  task_group_status wait() { return tasks_.wait(); }
  void cancel() { tasks_.cancel(); }
  bool is_canceling() const { return tasks_.is_canceling(); }

private:
  ppl_detail::TaskCollection tasks_;
};

/// The same for tasks given as task_handles, which must outlive wait().
class structured_task_group {
public:
  template <typename Function> void run(task_handle<Function> &h) {
    tasks_.run([&h] { h(); });
  }
  template <typename Function> task_group_status run_and_wait(task_handle<Function> &h) {
    run(h);
    return wait();
  }
  template <typename Function> task_group_status run_and_wait(const Function &f) {
    auto h = make_task(f);
    run(h);
    return wait();
  }
  task_group_status wait() { return tasks_.wait(); }
  void cancel() { tasks_.cancel(); }
  bool is_canceling() const { return tasks_.is_canceling(); }

private:
  ppl_detail::TaskCollection tasks_;
};

inline bool is_current_task_group_canceling() {
  return Context::IsCurrentTaskCollectionCanceling();
}

// ---- parallel_invoke ---------------------------------------------------------

/// Runs two to ten functions, possibly at once; returns when all are done.
template <typename... Functions> void parallel_invoke(const Functions &...fs) {
  static_assert(sizeof...(Functions) >= 2 && sizeof...(Functions) <= 10,
                "parallel_invoke takes 2 to 10 functions");
  ppl_detail::TaskCollection Tasks;
  (Tasks.run([&fs] { fs(); }), ...);
  Tasks.wait();
}

// ---- parallel_for ------------------------------------------------------------

namespace ppl_detail {
template <typename Index, typename Function>
void parallelFor(Index first, Index last, Index step, const Function &f,
                 std::size_t Chunk, bool Static) {
  if (step < Index(1))
    throw std::invalid_argument("parallel_for: the step must be positive");
  if (!(first < last))
    return;
  // Iteration k is first + k * step, for k < ceil((last - first) / step).
  using Wide = std::conditional_t<std::is_signed<Index>::value, long long,
                                  unsigned long long>;
  std::size_t N = static_cast<std::size_t>(
      (static_cast<Wide>(last) - static_cast<Wide>(first) + static_cast<Wide>(step) - 1) /
      static_cast<Wide>(step));
  if (Static)
    Chunk = chunkOf(static_partitioner(), N);
  forChunks(N, Chunk, [&](std::size_t B, std::size_t E) {
    for (std::size_t K = B; K < E; ++K)
      f(static_cast<Index>(static_cast<Wide>(first) +
                           static_cast<Wide>(K) * static_cast<Wide>(step)));
  });
}
} // namespace ppl_detail

template <typename Index, typename Function>
void parallel_for(Index first, Index last, Index step, const Function &f) {
  ppl_detail::parallelFor(first, last, step, f, 0, false);
}
template <typename Index, typename Function>
void parallel_for(Index first, Index last, Index step, const Function &f,
                  const auto_partitioner &) {
  ppl_detail::parallelFor(first, last, step, f, 0, false);
}
template <typename Index, typename Function>
void parallel_for(Index first, Index last, Index step, const Function &f,
                  const static_partitioner &) {
  ppl_detail::parallelFor(first, last, step, f, 0, true);
}
template <typename Index, typename Function>
void parallel_for(Index first, Index last, Index step, const Function &f,
                  const simple_partitioner &p) {
  ppl_detail::parallelFor(first, last, step, f, p._Get_num_chunks(), false);
}
template <typename Index, typename Function>
void parallel_for(Index first, Index last, Index step, const Function &f,
                  affinity_partitioner &) {
  ppl_detail::parallelFor(first, last, step, f, 0, false);
}
template <typename Index, typename Function>
void parallel_for(Index first, Index last, const Function &f) {
  ppl_detail::parallelFor(first, last, Index(1), f, 0, false);
}
template <typename Index, typename Function>
void parallel_for(Index first, Index last, const Function &f, const auto_partitioner &) {
  ppl_detail::parallelFor(first, last, Index(1), f, 0, false);
}
template <typename Index, typename Function>
void parallel_for(Index first, Index last, const Function &f, const static_partitioner &) {
  ppl_detail::parallelFor(first, last, Index(1), f, 0, true);
}
template <typename Index, typename Function>
void parallel_for(Index first, Index last, const Function &f, const simple_partitioner &p) {
  ppl_detail::parallelFor(first, last, Index(1), f, p._Get_num_chunks(), false);
}
template <typename Index, typename Function>
void parallel_for(Index first, Index last, const Function &f, affinity_partitioner &) {
  ppl_detail::parallelFor(first, last, Index(1), f, 0, false);
}

// ---- parallel_for_each -------------------------------------------------------
// Beside C++ AMP's parallel_for_each(extent, kernel): these take iterators,
// so the two never match the same call.

namespace ppl_detail {
template <typename Iterator, typename Function, typename Partitioner>
void forEach(Iterator first, Iterator last, const Function &f, const Partitioner &p) {
  if constexpr (IsRandomAccess<Iterator>::value) {
    std::size_t N = static_cast<std::size_t>(std::distance(first, last));
    forChunks(N, chunkOf(p, N), [&](std::size_t B, std::size_t E) {
      for (std::size_t K = B; K < E; ++K)
        f(first[static_cast<typename std::iterator_traits<Iterator>::difference_type>(K)]);
    });
  } else {
    std::vector<Iterator> Its;
    for (; first != last; ++first)
      Its.push_back(first);
    forChunks(Its.size(), chunkOf(p, Its.size()), [&](std::size_t B, std::size_t E) {
      for (std::size_t K = B; K < E; ++K)
        f(*Its[K]);
    });
  }
}
} // namespace ppl_detail

template <typename Iterator, typename Function>
void parallel_for_each(Iterator first, Iterator last, const Function &f) {
  ppl_detail::forEach(first, last, f, auto_partitioner());
}
template <typename Iterator, typename Function>
void parallel_for_each(Iterator first, Iterator last, const Function &f,
                       const auto_partitioner &p) {
  ppl_detail::forEach(first, last, f, p);
}
template <typename Iterator, typename Function>
void parallel_for_each(Iterator first, Iterator last, const Function &f,
                       const static_partitioner &p) {
  ppl_detail::forEach(first, last, f, p);
}
template <typename Iterator, typename Function>
void parallel_for_each(Iterator first, Iterator last, const Function &f,
                       const simple_partitioner &p) {
  ppl_detail::forEach(first, last, f, p);
}
template <typename Iterator, typename Function>
void parallel_for_each(Iterator first, Iterator last, const Function &f,
                       affinity_partitioner &p) {
  ppl_detail::forEach(first, last, f, p);
}

// ---- parallel_transform ------------------------------------------------------

namespace ppl_detail {
template <typename In, typename Out, typename Op, typename Partitioner>
Out transform1(In first, In last, Out result, const Op &op, const Partitioner &p) {
  static_assert(IsRandomAccess<In>::value && IsRandomAccess<Out>::value,
                "parallel_transform: slmc's PPL needs random-access iterators");
  std::size_t N = static_cast<std::size_t>(std::distance(first, last));
  forChunks(N, chunkOf(p, N), [&](std::size_t B, std::size_t E) {
    std::transform(first + B, first + E, result + B, op);
  });
  return result + N;
}
template <typename In1, typename In2, typename Out, typename Op, typename Partitioner>
Out transform2(In1 first1, In1 last1, In2 first2, Out result, const Op &op,
               const Partitioner &p) {
  static_assert(IsRandomAccess<In1>::value && IsRandomAccess<In2>::value &&
                    IsRandomAccess<Out>::value,
                "parallel_transform: slmc's PPL needs random-access iterators");
  std::size_t N = static_cast<std::size_t>(std::distance(first1, last1));
  forChunks(N, chunkOf(p, N), [&](std::size_t B, std::size_t E) {
    std::transform(first1 + B, first1 + E, first2 + B, result + B, op);
  });
  return result + N;
}
} // namespace ppl_detail

#define SLMC_PPL_TRANSFORM(PartitionerRef)                                      \
  template <typename In, typename Out, typename Op>                            \
  Out parallel_transform(In first, In last, Out result, const Op &op,          \
                         PartitionerRef p) {                                   \
    return ppl_detail::transform1(first, last, result, op, p);                 \
  }                                                                            \
  template <typename In1, typename In2, typename Out, typename Op>             \
  Out parallel_transform(In1 first1, In1 last1, In2 first2, Out result,        \
                         const Op &op, PartitionerRef p) {                     \
    return ppl_detail::transform2(first1, last1, first2, result, op, p);       \
  }
SLMC_PPL_TRANSFORM(const auto_partitioner &)
SLMC_PPL_TRANSFORM(const static_partitioner &)
SLMC_PPL_TRANSFORM(const simple_partitioner &)
SLMC_PPL_TRANSFORM(affinity_partitioner &)
#undef SLMC_PPL_TRANSFORM

template <typename In, typename Out, typename Op>
Out parallel_transform(In first, In last, Out result, const Op &op) {
  return ppl_detail::transform1(first, last, result, op, auto_partitioner());
}
template <typename In1, typename In2, typename Out, typename Op,
          typename = std::enable_if_t<!ppl_detail::IsPartitioner<Op>::value>>
Out parallel_transform(In1 first1, In1 last1, In2 first2, Out result, const Op &op) {
  return ppl_detail::transform2(first1, last1, first2, result, op, auto_partitioner());
}

// ---- parallel_reduce ---------------------------------------------------------

/// Reduces [first, last) with `sub_range(begin, end, identity)` over chunks
/// (in order) and `combine` over the chunks' results, left to right: the
/// result a serial reduction gives when the operation is associative.
template <typename T, typename Iterator, typename SubRange, typename Combine>
T parallel_reduce(Iterator first, Iterator last, const T &identity,
                  const SubRange &sub_range, const Combine &combine) {
  static_assert(ppl_detail::IsRandomAccess<Iterator>::value,
                "parallel_reduce: slmc's PPL needs random-access iterators");
  std::size_t N = static_cast<std::size_t>(std::distance(first, last));
  if (N == 0)
    return identity;
  std::size_t Threads = ppl_detail::Pool::get().workers() + 1;
  std::size_t Chunk = std::max<std::size_t>(1, N / (Threads * 4));
  std::size_t Chunks = (N + Chunk - 1) / Chunk;
  std::vector<std::unique_ptr<T>> Parts(Chunks);
  ppl_detail::forChunks(Chunks, 1, [&](std::size_t B, std::size_t E) {
    for (std::size_t C = B; C < E; ++C) {
      std::size_t Begin = C * Chunk, End = std::min(N, Begin + Chunk);
      Parts[C].reset(new T(sub_range(first + Begin, first + End, identity)));
    }
  });
  T Result = *Parts[0];
  for (std::size_t C = 1; C < Chunks; ++C)
    Result = combine(Result, *Parts[C]);
  return Result;
}

template <typename Iterator, typename BinaryOp>
typename std::iterator_traits<Iterator>::value_type
parallel_reduce(Iterator first, Iterator last,
                const typename std::iterator_traits<Iterator>::value_type &identity,
                BinaryOp op) {
  using T = typename std::iterator_traits<Iterator>::value_type;
  return parallel_reduce(
      first, last, identity,
      [&op](Iterator b, Iterator e, const T &init) {
        T Acc = init;
        for (; b != e; ++b)
          Acc = op(Acc, *b);
        return Acc;
      },
      op);
}

template <typename Iterator>
typename std::iterator_traits<Iterator>::value_type
parallel_reduce(Iterator first, Iterator last,
                const typename std::iterator_traits<Iterator>::value_type &identity) {
  return parallel_reduce(first, last, identity,
                         std::plus<typename std::iterator_traits<Iterator>::value_type>());
}

// ---- Sorting -----------------------------------------------------------------

namespace ppl_detail {
/// Sorts chunks at once, then merges neighbours pairwise, also at once,
/// through a buffer as large as the range (std::merge keeps the left
/// chunk's elements first among equals, so stable chunk sorts make a
/// stable sort).
template <typename Iterator, typename Compare, typename SortChunk>
void sortChunks(Iterator first, Iterator last, const Compare &comp, std::size_t Chunk,
                const SortChunk &Sort) {
  static_assert(IsRandomAccess<Iterator>::value,
                "parallel sorts need random-access iterators");
  using T = typename std::iterator_traits<Iterator>::value_type;
  std::size_t N = static_cast<std::size_t>(std::distance(first, last));
  std::size_t Threads = Pool::get().workers() + 1;
  if (Chunk == 0)
    Chunk = 2048;
  Chunk = std::max(Chunk, (N + Threads * 4 - 1) / (Threads * 4));
  if (N <= Chunk || Threads == 1) {
    Sort(first, last);
    return;
  }
  std::size_t Chunks = (N + Chunk - 1) / Chunk;
  forChunks(Chunks, 1, [&](std::size_t B, std::size_t E) {
    for (std::size_t C = B; C < E; ++C)
      Sort(first + C * Chunk, first + std::min(N, (C + 1) * Chunk));
  });
  std::vector<T> Buffer(std::make_move_iterator(first), std::make_move_iterator(last));
  bool InBuffer = true; // where the sorted runs are now
  for (std::size_t Width = Chunk; Width < N; Width *= 2, InBuffer = !InBuffer) {
    std::size_t Pairs = (N + 2 * Width - 1) / (2 * Width);
    forChunks(Pairs, 1, [&](std::size_t B, std::size_t E) {
      for (std::size_t P = B; P < E; ++P) {
        std::size_t Lo = P * 2 * Width, Mid = std::min(N, Lo + Width),
                    Hi = std::min(N, Lo + 2 * Width);
        auto Merge = [&](auto From, auto To) {
          std::merge(std::make_move_iterator(From + Lo), std::make_move_iterator(From + Mid),
                     std::make_move_iterator(From + Mid), std::make_move_iterator(From + Hi),
                     To + Lo, comp);
        };
        if (InBuffer)
          Merge(Buffer.begin(), first);
        else
          Merge(first, Buffer.begin());
      }
    });
  }
  if (InBuffer)
    std::move(Buffer.begin(), Buffer.end(), first);
}

/// A stable sort of [first, last) by `Less` that needs no temporary buffer
/// from the standard library: by (key order, position) through an index.
template <typename Iterator, typename Less>
void stableSort(Iterator first, Iterator last, const Less &less) {
  using T = typename std::iterator_traits<Iterator>::value_type;
  std::size_t N = static_cast<std::size_t>(std::distance(first, last));
  std::vector<std::size_t> Order(N);
  for (std::size_t I = 0; I < N; ++I)
    Order[I] = I;
  std::sort(Order.begin(), Order.end(), [&](std::size_t A, std::size_t B) {
    if (less(first[A], first[B]))
      return true;
    if (less(first[B], first[A]))
      return false;
    return A < B;
  });
  std::vector<T> Sorted;
  Sorted.reserve(N);
  for (std::size_t I : Order)
    Sorted.push_back(std::move(first[I]));
  std::move(Sorted.begin(), Sorted.end(), first);
}
} // namespace ppl_detail

template <typename Iterator, typename Compare>
void parallel_sort(Iterator first, Iterator last, const Compare &comp,
                   std::size_t chunk_size = 2048) {
  ppl_detail::sortChunks(first, last, comp, chunk_size,
                         [&](Iterator b, Iterator e) { std::sort(b, e, comp); });
}
template <typename Iterator> void parallel_sort(Iterator first, Iterator last) {
  parallel_sort(first, last, std::less<typename std::iterator_traits<Iterator>::value_type>());
}

template <typename Iterator, typename Compare>
void parallel_buffered_sort(Iterator first, Iterator last, const Compare &comp,
                            std::size_t chunk_size = 2048) {
  parallel_sort(first, last, comp, chunk_size);
}
template <typename Iterator> void parallel_buffered_sort(Iterator first, Iterator last) {
  parallel_sort(first, last);
}
// The forms that name or pass an allocator (for the buffer): the memory is
// the standard library's here.
template <typename Allocator, typename Iterator, typename Compare>
void parallel_buffered_sort(const Allocator &, Iterator first, Iterator last,
                            const Compare &comp, std::size_t chunk_size = 2048) {
  parallel_sort(first, last, comp, chunk_size);
}
template <typename Allocator, typename Iterator>
void parallel_buffered_sort(const Allocator &, Iterator first, Iterator last) {
  parallel_sort(first, last);
}
template <typename Allocator, typename Iterator>
void parallel_buffered_sort(Iterator first, Iterator last) {
  parallel_sort(first, last);
}

/// A stable sort by an unsigned key (`proj(element)` as size_t; the element
/// itself for integers), as the PPL's radix sort orders.
template <typename Iterator, typename Projection>
void parallel_radixsort(Iterator first, Iterator last, const Projection &proj,
                        std::size_t chunk_size = 256 * 256) {
  using T = typename std::iterator_traits<Iterator>::value_type;
  auto Less = [&proj](const T &a, const T &b) {
    return static_cast<std::size_t>(proj(a)) < static_cast<std::size_t>(proj(b));
  };
  ppl_detail::sortChunks(first, last, Less, chunk_size,
                         [&](Iterator b, Iterator e) { ppl_detail::stableSort(b, e, Less); });
}
template <typename Iterator> void parallel_radixsort(Iterator first, Iterator last) {
  using T = typename std::iterator_traits<Iterator>::value_type;
  static_assert(std::is_integral<T>::value,
                "parallel_radixsort without a projection sorts integers");
  parallel_radixsort(first, last, [](const T &v) { return static_cast<std::size_t>(v); });
}
template <typename Allocator, typename Iterator, typename Projection>
void parallel_radixsort(const Allocator &, Iterator first, Iterator last,
                        const Projection &proj, std::size_t chunk_size = 256 * 256) {
  parallel_radixsort(first, last, proj, chunk_size);
}
template <typename Allocator, typename Iterator>
void parallel_radixsort(const Allocator &, Iterator first, Iterator last) {
  parallel_radixsort(first, last);
}
template <typename Allocator, typename Iterator>
void parallel_radixsort(Iterator first, Iterator last) {
  parallel_radixsort(first, last);
}

// ---- combinable --------------------------------------------------------------

/// One T per thread that touches it, combined at the end.
template <typename T> class combinable {
public:
  combinable() : init_([] { return T(); }) {}
  template <typename Init, typename = std::enable_if_t<
                               !std::is_same<std::decay_t<Init>, combinable>::value>>
  explicit combinable(Init init) : init_(std::move(init)) {}
  combinable(const combinable &other) : init_(other.init_) {
    std::shared_lock<std::shared_mutex> L(other.m_);
    for (const auto &[Id, V] : other.locals_)
      locals_.emplace(Id, std::make_unique<T>(*V));
  }
  combinable &operator=(const combinable &other) {
    if (this != &other) {
      combinable Copy(other);
      std::unique_lock<std::shared_mutex> L(m_);
      init_ = std::move(Copy.init_);
      locals_ = std::move(Copy.locals_);
    }
    return *this;
  }

  /// This thread's T, made by the initialiser on first use.
  T &local() {
    bool exists;
    return local(exists);
  }
  T &local(bool &exists) {
    std::thread::id Me = std::this_thread::get_id();
    {
      std::shared_lock<std::shared_mutex> L(m_);
      auto It = locals_.find(Me);
      if (It != locals_.end()) {
        exists = true;
        return *It->second;
      }
    }
    auto Fresh = std::make_unique<T>(init_());
    std::unique_lock<std::shared_mutex> L(m_);
    exists = false;
    return *locals_.emplace(Me, std::move(Fresh)).first->second;
  }
  void clear() {
    std::unique_lock<std::shared_mutex> L(m_);
    locals_.clear();
  }
  /// Folds the threads' values with `f` (T() when no thread made one).
  template <typename Function> T combine(Function f) const {
    std::shared_lock<std::shared_mutex> L(m_);
    auto It = locals_.begin();
    if (It == locals_.end())
      return T();
    T Result = *It->second;
    for (++It; It != locals_.end(); ++It)
      Result = f(Result, *It->second);
    return Result;
  }
  template <typename Function> void combine_each(Function f) const {
    std::shared_lock<std::shared_mutex> L(m_);
    for (const auto &[Id, V] : locals_)
      f(*V);
  }

private:
  std::function<T()> init_;
  mutable std::shared_mutex m_;
  std::unordered_map<std::thread::id, std::unique_ptr<T>> locals_;
};

} // namespace Concurrency

#endif // SLMC_PPL_H
