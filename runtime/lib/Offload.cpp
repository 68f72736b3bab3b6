//===- Offload.cpp - Data sharing, offload scopes and the task queue ------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The C API behind Intel Cilk Plus graphics offload (<gfx/gfx_rt.h>):
// slmc_share/_unshare, slmc_offload_* and slmc_device_pointer over the
// OffloadTable (OffloadTable.cpp), and the in-order task queue.
//
// The queue's worker thread is started by the first enqueue and stopped by
// an atexit handler registered at that moment, so it runs before the static
// destructors of everything constructed earlier. Like the registry in
// Runtime.cpp, the table and the queue are never destroyed.
//
//===----------------------------------------------------------------------===//
#include "Offload.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <exception>
#include <map>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>

namespace slmc::rt {
namespace {

OffloadTable &table() {
  static OffloadTable *T = new OffloadTable;
  return *T;
}

ScopeStack &scopes() {
  thread_local ScopeStack S;
  return S;
}

slmc_status report(const Status &S) {
  return S ? recordOffloadError(S.Code, S.Message) : SLMC_SUCCESS;
}

/// Mirrors in device memory of the backend in use, which is chosen (and a
/// failure recorded) only when a mirror is first needed.
class BackendMemory final : public MirrorMemory {
public:
  bool identity() override {
    Backend *B = get();
    return !B || B->kind() == SLMC_BACKEND_CPU;
  }
  Status allocate(void **Mirror, size_t Bytes) override {
    if (Backend *B = get())
      return B->allocDevice(Mirror, Bytes);
    return noDevice();
  }
  Status copy(void *Dst, const void *Src, size_t Bytes) override {
    if (Backend *B = get())
      return B->memcpy(Dst, Src, Bytes);
    return noDevice();
  }
  Status release(void *Mirror) override {
    if (Backend *B = get())
      return B->free(Mirror);
    return noDevice();
  }

private:
  Backend *get() {
    if (!Resolved) {
      Resolved = true;
      slmc_status Code = SLMC_SUCCESS;
      B = backendForOffload(Code);
    }
    return B;
  }
  static Status noDevice() {
    return Status::error(SLMC_ERROR_NO_DEVICE, "no device for device copies");
  }
  Backend *B = nullptr;
  bool Resolved = false;
};

std::string withoutPrefix(std::string M) {
  if (M.compare(0, 6, "slmc: ") == 0)
    M.erase(0, 6);
  return M;
}

// ---- Task queue --------------------------------------------------------------

class TaskQueue {
public:
  slmc_status enqueue(slmc_task_fn Run, void *Ctx, slmc_task_fn Release,
                      uint64_t *Id);
  slmc_status wait(uint64_t Id, int64_t TimeoutMs);
  void shutdown();

private:
  struct Task {
    uint64_t Id;
    slmc_task_fn Run;
    void *Ctx;
    slmc_task_fn Release;
  };
  struct Failure {
    slmc_status Code = SLMC_SUCCESS;
    std::string Message;
  };

  void work();
  static bool runTask(const Task &T, Failure &F);

  std::mutex Mutex;
  std::condition_variable WorkReady, TaskDone;
  std::deque<Task> Pending;
  uint64_t Issued = 0;    // the last id given out
  uint64_t Completed = 0; // every task up to this id has finished
  uint64_t Retired = 0;   // ids up to this one are no longer valid
  uint64_t Running = 0;   // the task on the worker, 0 when idle
  std::map<uint64_t, Failure> Failures; // finished, not yet reported
  std::thread Worker;
  std::thread::id WorkerId;
  bool Started = false, Stopping = false;
};

TaskQueue &queue() {
  static TaskQueue *Q = new TaskQueue;
  return *Q;
}

void shutdownQueue() { queue().shutdown(); }

slmc_status TaskQueue::enqueue(slmc_task_fn Run, void *Ctx,
                               slmc_task_fn Release, uint64_t *Id) {
  if (Id)
    *Id = 0;
  slmc_status Code = SLMC_SUCCESS;
  std::string Why;
  uint64_t NewId = 0;
  if (!Run) {
    Code = SLMC_ERROR_INVALID_VALUE;
    Why = "slmc_task_enqueue: null task function";
  } else {
    std::lock_guard<std::mutex> L(Mutex);
    if (Stopping) {
      Code = SLMC_ERROR_INVALID_VALUE;
      Why = "slmc_task_enqueue: the process is exiting";
    } else if (!Started) {
      try {
        Worker = std::thread([this] { work(); });
        WorkerId = Worker.get_id();
        Started = true;
        std::atexit(shutdownQueue);
      } catch (const std::system_error &E) {
        Code = SLMC_ERROR_OUT_OF_MEMORY;
        Why = std::string("slmc_task_enqueue: cannot start the task thread: ") +
              E.what();
      }
    }
    if (Code == SLMC_SUCCESS) {
      NewId = ++Issued;
      Pending.push_back(Task{NewId, Run, Ctx, Release});
    }
  }
  if (Code != SLMC_SUCCESS) {
    // The caller handed the context over: release it (outside the lock, in
    // case the release function uses the queue).
    if (Release)
      Release(Ctx);
    return recordOffloadError(Code, std::move(Why));
  }
  WorkReady.notify_one();
  if (Id)
    *Id = NewId;
  return SLMC_SUCCESS;
}

bool TaskQueue::runTask(const Task &T, Failure &F) {
  ScopeStack &S = scopes();
  size_t Depth = S.Scopes.size(); // 0: the worker runs nothing else
  beginFailureCapture();
  slmc_offload_begin();
  try {
    T.Run(T.Ctx);
  } catch (const std::exception &E) {
    recordOffloadError(SLMC_ERROR_LAUNCH_FAILURE,
                       std::string("the task threw an exception: ") + E.what());
  } catch (...) {
    recordOffloadError(SLMC_ERROR_LAUNCH_FAILURE, "the task threw an exception");
  }
  if (S.Scopes.size() > Depth + 1)
    recordOffloadError(SLMC_ERROR_INVALID_VALUE,
                       "the task left " + std::to_string(S.Scopes.size() - Depth - 1) +
                           " offload scope(s) open");
  while (S.Scopes.size() > Depth)
    slmc_offload_end(); // copies back what the task used
  if (S.Scopes.size() < Depth) // the task ended scopes it did not begin
    S.Scopes.resize(Depth);
  bool Failed = endFailureCapture(F.Code, F.Message);
  if (T.Release) {
    try {
      T.Release(T.Ctx);
    } catch (...) {
    }
  }
  return Failed;
}

void TaskQueue::work() {
  std::unique_lock<std::mutex> L(Mutex);
  for (;;) {
    WorkReady.wait(L, [&] { return Stopping || !Pending.empty(); });
    if (Stopping)
      return; // shutdown() took what was pending
    Task T = Pending.front();
    Pending.pop_front();
    Running = T.Id;
    L.unlock();
    Failure F;
    bool Failed = runTask(T, F);
    L.lock();
    Running = 0;
    Completed = std::max(Completed, T.Id);
    if (Failed)
      Failures[T.Id] = std::move(F);
    TaskDone.notify_all();
  }
}

slmc_status TaskQueue::wait(uint64_t Id, int64_t TimeoutMs) {
  if (TimeoutMs < -1)
    return recordOffloadError(SLMC_ERROR_INVALID_VALUE,
                              "slmc_task_wait: negative timeout " +
                                  std::to_string(TimeoutMs) +
                                  " (use -1 to wait for ever)");
  std::unique_lock<std::mutex> L(Mutex);
  if (Id != 0 && Id > Issued)
    return recordOffloadError(SLMC_ERROR_TASK_NOT_FOUND,
                              "slmc_task_wait: task " + std::to_string(Id) +
                                  " was never enqueued");
  if (Id != 0 && Id <= Retired)
    return recordOffloadError(SLMC_ERROR_TASK_NOT_FOUND,
                              "slmc_task_wait: task " + std::to_string(Id) +
                                  " was waited for already");
  const uint64_t Target = Id != 0 ? Id : Issued;
  if (Target <= Retired)
    return SLMC_SUCCESS; // id 0 with nothing outstanding
  if (std::this_thread::get_id() == WorkerId && Running != 0 && Target >= Running)
    return recordOffloadError(SLMC_ERROR_INVALID_VALUE,
                              "slmc_task_wait: task " + std::to_string(Running) +
                                  " waits for task " + std::to_string(Target) +
                                  ", which runs after it: it would never finish");

  auto Finished = [&] { return Completed >= Target; };
  // Beyond about 30 years a wait is a wait for ever (and no clock overflows).
  if (TimeoutMs == -1 || TimeoutMs > (int64_t(1) << 40)) {
    TaskDone.wait(L, Finished);
  } else if (!TaskDone.wait_until(L,
                                  std::chrono::steady_clock::now() +
                                      std::chrono::milliseconds(TimeoutMs),
                                  Finished)) {
    return recordOffloadError(SLMC_ERROR_TIMEOUT,
                              "slmc_task_wait: task " + std::to_string(Target) +
                                  " did not finish within " +
                                  std::to_string(TimeoutMs) + " ms");
  }

  // Retire the ids and collect the failures not yet reported.
  bool AnyFailure = false;
  uint64_t FailedId = 0;
  Failure First;
  if (Target > Retired) {
    for (auto It = Failures.begin(); It != Failures.end() && It->first <= Target;) {
      if (!AnyFailure) {
        AnyFailure = true;
        FailedId = It->first;
        First = std::move(It->second);
      }
      It = Failures.erase(It);
    }
    Retired = Target;
  }
  L.unlock();
  if (!AnyFailure)
    return SLMC_SUCCESS;
  return recordOffloadError(First.Code, "task " + std::to_string(FailedId) +
                                            " failed: " +
                                            withoutPrefix(First.Message));
}

void TaskQueue::shutdown() {
  std::deque<Task> Dropped;
  {
    std::lock_guard<std::mutex> L(Mutex);
    if (!Started || Stopping)
      return;
    Stopping = true;
    Dropped.swap(Pending);
  }
  WorkReady.notify_all();
  for (const Task &T : Dropped)
    if (T.Release) {
      try {
        T.Release(T.Ctx);
      } catch (...) {
      }
    }
  // exit() called by a task: the worker cannot join itself; it ends with
  // the process.
  if (std::this_thread::get_id() == WorkerId)
    Worker.detach();
  else
    Worker.join();
  // Threads waiting for dropped tasks stay blocked: no user code should go
  // on running while the process goes down.
}

} // namespace

void offloadNoteAllocation(void *Ptr, size_t Bytes) {
  table().noteAllocation(Ptr, Bytes);
}

void offloadNoteFree(void *Ptr) { table().noteFree(Ptr); }

} // namespace slmc::rt

using namespace slmc::rt;

// ---- Shared regions and scopes ---------------------------------------------

extern "C" slmc_status slmc_share(void *Host, size_t Bytes) {
  return report(table().share(Host, Bytes));
}

extern "C" slmc_status slmc_unshare(void *Host) {
  BackendMemory Mem;
  return report(table().unshare(Host, Mem));
}

extern "C" slmc_status slmc_offload_begin(void) {
  table().begin(scopes());
  return SLMC_SUCCESS;
}

extern "C" slmc_status slmc_offload_map(void *Host, size_t Bytes,
                                        slmc_map_kind Kind) {
  return report(table().map(scopes(), Host, Bytes, Kind));
}

extern "C" slmc_status slmc_offload_end(void) {
  BackendMemory Mem;
  return report(table().end(scopes(), Mem));
}

extern "C" uint64_t slmc_failure_count(void) { return failuresSoFar(); }

extern "C" slmc_status slmc_offload_ran_on_host(uint64_t since) {
  forgiveFailuresSince(since);
  BackendMemory Mem;
  return report(table().refresh(scopes(), Mem));
}

extern "C" int slmc_offload_active(void) {
  return scopes().Scopes.empty() ? 0 : 1;
}

extern "C" void *slmc_device_pointer(void *Host) {
  ScopeStack &S = scopes();
  if (S.Scopes.empty() || !Host)
    return Host;
  BackendMemory Mem;
  Status Error;
  void *Device = table().devicePointer(S, Host, Mem, Error);
  if (!Device)
    report(Error);
  return Device;
}

// ---- Task queue ----------------------------------------------------------------

extern "C" slmc_status slmc_task_enqueue(slmc_task_fn Run, void *Ctx,
                                         slmc_task_fn Release, uint64_t *Id) {
  return queue().enqueue(Run, Ctx, Release, Id);
}

extern "C" slmc_status slmc_task_wait(uint64_t Id, int64_t TimeoutMs) {
  return queue().wait(Id, TimeoutMs);
}
