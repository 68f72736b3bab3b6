//===- CpuBackend.cpp - Running host-compiled kernels on the CPU ----------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The CPU fallback runs the host version of a kernel (one call = one
// work-item) over a whole launch:
//
//  * Work-groups are spread over a persistent pool of OS threads; the
//    launching thread helps. Group indices are handed out dynamically from an
//    atomic counter.
//  * The work-items of a group are fibers (Boost.Context fcontext) on the
//    thread that runs the group. slmc_cpu_barrier() switches back to the
//    group's scheduler, which resumes the fibers round-robin and releases the
//    barrier once every live work-item waits at it.
//
// INVARIANT: a work-group runs from start to end on one OS thread, and an OS
// thread runs one work-group at a time. Group-local variables of kernels
// compiled for the host are `static thread_local` (slmc/offload.h), so this
// is exactly what makes them one copy per running group. Fibers never move
// between threads, and a thread never starts another group while one of its
// fibers is suspended.
//
// Launches are synchronous: slmc_launch returns once every group has run, so
// synchronize() has nothing to wait for.
//
//===----------------------------------------------------------------------===//
#include "Backend.h"
#include "RaceDetector.h"

#include <boost/context/detail/fcontext.hpp>

#include <cxxabi.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cctype>
#include <cerrno>
#include <condition_variable>
#include <cstdio>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <limits>
#include <mutex>
#include <optional>
#include <system_error>
#include <thread>
#include <unordered_set>
#include <vector>

// slmc++'s work-item loops (lib/CpuFallback/WorkItemLoops.cpp) copy the item
// and set its local id at these offsets.
static_assert(offsetof(slmc_cpu_item, local_id) == 0 && offsetof(slmc_cpu_item, local_size) == 24 &&
                  sizeof(slmc_cpu_item) == 64,
              "slmc_cpu_item's layout is known to the work-item loops pass");

// Address and thread sanitizers must be told about stack switches, or they
// report false errors (ASan when a work-item throws, TSan on any switch).
// Weak references: the hooks are active whenever a sanitizer runtime is in
// the process, even if libslmrt itself was not instrumented, and cost one
// predictable branch otherwise.
extern "C" {
void __sanitizer_start_switch_fiber(void **, const void *, size_t)
    __attribute__((weak));
void __sanitizer_finish_switch_fiber(void *, const void **, size_t *)
    __attribute__((weak));
void __asan_unpoison_memory_region(const volatile void *, size_t)
    __attribute__((weak));
void *__tsan_get_current_fiber(void) __attribute__((weak));
void *__tsan_create_fiber(unsigned) __attribute__((weak));
void __tsan_destroy_fiber(void *) __attribute__((weak));
void __tsan_switch_to_fiber(void *, unsigned) __attribute__((weak));
}

// What code built with -fslmc-check tests before calling a race hook
// (declared extern "C" in slmc/runtime.h); set by SLMC_CHECK=races.
int slmc_check_races = 0;
// What it tests before a group-local variable's bounds; set by
// SLMC_CHECK=bounds and races.
int slmc_check_bounds_on = 0;

namespace slmc::rt {
namespace {

namespace fctx = boost::context::detail;

void startSwitch(void **FakeStack, const void *Bottom, size_t Size) {
  if (__sanitizer_start_switch_fiber)
    __sanitizer_start_switch_fiber(FakeStack, Bottom, Size);
}

void finishSwitch(void *FakeStack, const void **Bottom, size_t *Size) {
  if (__sanitizer_finish_switch_fiber)
    __sanitizer_finish_switch_fiber(FakeStack, Bottom, Size);
}

void tsanSwitch(void *Fiber) {
  if (Fiber)
    __tsan_switch_to_fiber(Fiber, 0);
}

constexpr size_t kMaxGroupSize = 1024;
constexpr slmc_dim3 kMaxGroupDims = {1024, 1024, 64};
constexpr size_t kDefaultStackSize = size_t(128) << 10;
constexpr size_t kMinStackSize = size_t(16) << 10;
constexpr size_t kMaxStackSize = size_t(64) << 20;
constexpr size_t kDefaultGroupMemory = size_t(64) << 10;
constexpr size_t kMaxGroupMemory = size_t(1) << 30;
constexpr unsigned kMaxThreads = 4096;
constexpr size_t kAlignment = 64;

// SLMC_CHECK (docs/diagnostics.md): what the CPU fallback checks in kernels
// built with slmc++ -fslmc-check. Read once, when the backend is made.
enum CheckBits : unsigned { kCheckBarriers = 1, kCheckRaces = 2, kCheckBounds = 4 };
unsigned CheckMode = 0;

/// "races", "barriers", "bounds", separated by commas; races checks
/// barriers too (an epoch is only meaningful when the whole group passes
/// barriers together) and bounds (an overflow is not a race on the
/// variable it reaches).
bool envCheck(std::string &Why) {
  const char *S = std::getenv("SLMC_CHECK");
  if (!S || !*S)
    return true;
  std::string Text = S;
  size_t Start = 0;
  while (Start <= Text.size()) {
    size_t End = Text.find(',', Start);
    if (End == std::string::npos)
      End = Text.size();
    std::string Word = Text.substr(Start, End - Start);
    if (Word == "races") {
      CheckMode |= kCheckRaces | kCheckBarriers | kCheckBounds;
      slmc_check_races = 1;
      slmc_check_bounds_on = 1;
    } else if (Word == "barriers") {
      CheckMode |= kCheckBarriers;
    } else if (Word == "bounds") {
      CheckMode |= kCheckBounds;
      slmc_check_bounds_on = 1;
    } else if (!Word.empty()) {
      Why = "SLMC_CHECK='" + Text + "' names an unknown check '" + Word +
            "' (races, barriers, bounds, or several separated by commas)";
      return false;
    }
    Start = End + 1;
  }
  return true;
}

// The x86-64 micro-architecture level of the group-entry versions that run
// (slmc_cpu_isa_level): the host's, capped by SLMC_CPU_ISA. Set when the
// backend is made, before any group runs.
int IsaLevel = 0;

int hostIsaLevel() {
#if defined(__x86_64__) && defined(__GNUC__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("x86-64-v4"))
    return 4;
  if (__builtin_cpu_supports("x86-64-v3"))
    return 3;
  if (__builtin_cpu_supports("x86-64-v2"))
    return 2;
  return 1;
#else
  return 0; // no versions are made for other hosts
#endif
}

const char *isaName(int Level) {
  static const char *const Names[] = {"", "x86-64", "x86-64-v2", "x86-64-v3", "x86-64-v4"};
  return Level >= 1 && Level <= 4 ? Names[Level] : "";
}

/// SLMC_CPU_ISA=x86-64[-vN]: the highest level whose versions may run (to
/// compare them, or to rule one out); a level above the host's is the
/// host's.
bool envIsa(std::string &Why) {
  IsaLevel = hostIsaLevel();
  const char *S = std::getenv("SLMC_CPU_ISA");
  if (!S || !*S)
    return true;
  for (int L = 1; L <= 4; ++L)
    if (std::strcmp(S, isaName(L)) == 0) {
      IsaLevel = std::min(IsaLevel, L);
      return true;
    }
  Why = std::string("SLMC_CPU_ISA='") + S +
        "' is not an x86-64 level (x86-64, x86-64-v2, x86-64-v3 or x86-64-v4)";
  return false;
}

/// A yes/no environment variable: unset or empty gives `Default`, "0"
/// gives false, anything else true.
bool envFlag(const char *Name, bool Default) {
  const char *V = std::getenv(Name);
  if (!V || !*V)
    return Default;
  return std::strcmp(V, "0") != 0;
}

size_t pageSize() {
  static const size_t P = size_t(sysconf(_SC_PAGESIZE));
  return P;
}

size_t roundUp(size_t V, size_t A) { return (V + A - 1) / A * A; }

std::string dimString(slmc_dim3 D) {
  return "(" + std::to_string(D.x) + "," + std::to_string(D.y) + "," +
         std::to_string(D.z) + ")";
}

/// Reads a byte count such as "65536", "64K" or "1M" from the environment.
/// Unset keeps `Value`; a malformed or out-of-range value is an error.
bool envBytes(const char *Name, size_t Min, size_t Max, size_t &Value,
              std::string &Why) {
  const char *S = std::getenv(Name);
  if (!S || !*S)
    return true;
  errno = 0;
  char *End = nullptr;
  unsigned long long V = std::strtoull(S, &End, 10);
  unsigned long long Scale = 1;
  if (*End == 'k' || *End == 'K')
    Scale = 1024, ++End;
  else if (*End == 'm' || *End == 'M')
    Scale = 1024 * 1024, ++End;
  if (errno || End == S || *End || !std::isdigit(static_cast<unsigned char>(*S)) ||
      V > Max / Scale || V * Scale < Min) {
    Why = std::string(Name) + "='" + S + "' is not a byte count between " +
          std::to_string(Min) + " and " + std::to_string(Max) +
          " (a K or M suffix is allowed)";
    return false;
  }
  Value = size_t(V * Scale);
  return true;
}

bool envCount(const char *Name, unsigned Max, unsigned &Value, std::string &Why) {
  const char *S = std::getenv(Name);
  if (!S || !*S)
    return true;
  errno = 0;
  char *End = nullptr;
  unsigned long long V = std::strtoull(S, &End, 10);
  if (errno || End == S || *End || !std::isdigit(static_cast<unsigned char>(*S)) ||
      V == 0 || V > Max) {
    Why = std::string(Name) + "='" + S + "' is not a thread count between 1 and " +
          std::to_string(Max);
    return false;
  }
  Value = unsigned(V);
  return true;
}

// ---- Fiber stacks -----------------------------------------------------------

/// The fiber stacks of one OS thread, reused for every group it runs. Each
/// stack has a guard page below it, so an overflow faults instead of
/// corrupting a neighbour.
class StackPool {
public:
  StackPool() = default;
  StackPool(const StackPool &) = delete;
  StackPool &operator=(const StackPool &) = delete;
  ~StackPool() { reset(0); }

  size_t stackSize() const { return Size; }

  /// Drops every stack (none may be in use) and switches to `NewSize`.
  void reset(size_t NewSize) {
    for (void *Base : All)
      munmap(Base, Size + pageSize());
    All.clear();
    Free.clear();
    Size = NewSize;
  }

  /// The top (highest address) of a free stack, or null when out of memory.
  void *acquire() {
    if (!Free.empty()) {
      void *Top = Free.back();
      Free.pop_back();
      return Top;
    }
    size_t Guard = pageSize();
    void *Base = mmap(nullptr, Size + Guard, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK,
                      -1, 0);
    if (Base == MAP_FAILED)
      return nullptr;
    if (mprotect(Base, Guard, PROT_NONE) != 0) {
      munmap(Base, Size + Guard);
      return nullptr;
    }
    All.push_back(Base);
    Free.reserve(All.size());
    return static_cast<char *>(Base) + Guard + Size;
  }

  void release(void *Top) {
    // A fiber that was abandoned (or ended inside its entry frame) leaves
    // its frames' sanitizer poisoning behind; the next fiber starts clean.
    if (__asan_unpoison_memory_region)
      __asan_unpoison_memory_region(static_cast<char *>(Top) - Size, Size);
    Free.push_back(Top);
  }

private:
  size_t Size = 0;
  std::vector<void *> All;  // mapping bases
  std::vector<void *> Free; // tops of unused stacks
};

// ---- One launch ----------------------------------------------------------

/// What every thread taking part in a launch shares.
struct LaunchJob {
  slmc_cpu_kernel_fn Entry = nullptr;
  slmc_cpu_group_fn GroupEntry = nullptr; // work-item loops, when compiled so
  // Cleared when the group entry declines (not transformed): the rest of
  // the launch runs on fibers.
  std::atomic<bool> UseLoops{false};
  std::atomic<bool> RanLoops{false};
  std::atomic<bool> RanIsaVersion{false}; // chosen by slmc_cpu_isa_level
  std::mutex WhyMutex;
  std::string WhyFibers; // the group entry's reason, for SLMC_VERBOSE
  void **Args = nullptr;
  const std::string *KernelName = nullptr;
  std::string ReadableName; // demangled, for the fault report
  slmc_dim3 Groups{}, Size{};
  uint32_t ItemsPerGroup = 0;
  uint32_t SubGroupSize = 1; // work-items per sub-group, by linear local id
  size_t GroupMemory = 0;
  size_t StackSize = 0;
  uint64_t Total = 0; // work-groups
  uint64_t Chunk = 1; // groups taken from Next at a time

  // The threads take groups from Next; the fields every group reads
  // (UseLoops, FirstFailed) stay off its cache line, which moves between
  // the threads at each take.
  alignas(64) std::atomic<uint64_t> Next{0};
  // The lowest-numbered group that failed so far. Groups above it stop;
  // groups below it still run, so the error reported is the lowest group's
  // whatever the threads' timing (the same report on every machine).
  alignas(64) std::atomic<uint64_t> FirstFailed{std::numeric_limits<uint64_t>::max()};
  // Some work-item ran an entry built with -fslmc-check (slmc_check_enter).
  std::atomic<bool> Instrumented{false};

  std::mutex ErrorMutex;
  uint64_t ErrorGroup = std::numeric_limits<uint64_t>::max();
  Status Error;

  /// Whether group `Group` need not run (or go on): a lower one failed.
  bool stopped(uint64_t Group) const {
    return FirstFailed.load(std::memory_order_relaxed) < Group;
  }

  /// Fails the launch at `Group`; of all the groups that fail, the
  /// lowest-numbered one is reported.
  void fail(uint64_t Group, Status S) {
    std::lock_guard<std::mutex> L(ErrorMutex);
    if (Group < ErrorGroup) {
      ErrorGroup = Group;
      Error = std::move(S);
      FirstFailed.store(Group, std::memory_order_relaxed);
    }
  }

  std::string kernel() const {
    return !ReadableName.empty() ? "kernel '" + ReadableName + "'" : std::string("kernel");
  }
};

struct WorkItem {
  enum State : uint8_t { NotStarted, Runnable, AtBarrier, AtSubGroupBarrier, Finished, Failed };
  fctx::fcontext_t Context = nullptr;
  void *Stack = nullptr; // top of the stack it runs on, while it has one
  void *TsanFiber = nullptr;
  State St = NotStarted;
  uint32_t GroupLocalCalls = 0; // slmc_cpu_group_local_alloc calls so far
  uint32_t Linear = 0;          // linear local id
  uint8_t ShuffleParity = 0;    // which slot row its next shuffle uses
  const char *BarrierAt = nullptr; // SLMC_CHECK: its barrier's source line
  slmc_cpu_item Info{};
};

class GroupRunner;

// Hot, read on every builtin call of a running kernel: initial-exec TLS keeps
// that a plain %fs-relative load instead of a __tls_get_addr call.
#define SLMC_FAST_TLS __attribute__((tls_model("initial-exec")))
// The work-item running on this thread, or null outside kernels.
thread_local const slmc_cpu_item *CurrentItem SLMC_FAST_TLS = nullptr;
// The runner whose fibers are running on this thread; null when a group runs
// without fibers (one work-item) or outside kernels.
thread_local GroupRunner *FiberRunner SLMC_FAST_TLS = nullptr;
// The runner running a group on this thread (with or without fibers).
thread_local GroupRunner *ActiveRunner SLMC_FAST_TLS = nullptr;
// The group running on this thread runs as work-item loops: the item
// CurrentItem describes is the group's, not a work-item's.
thread_local bool InLoops SLMC_FAST_TLS = false;
// slmc_cpu_work_item_loops's last reason on this thread.
thread_local const char *LoopsDeclined SLMC_FAST_TLS = nullptr;
// The group entry that ran asked which version to run (slmc_cpu_isa_level).
thread_local bool IsaAsked SLMC_FAST_TLS = false;
// The kernel whose group runs on this thread, for the fault report.
thread_local const char *CurrentKernelName SLMC_FAST_TLS = nullptr;
// The runner whose group's races are checked (SLMC_CHECK=races, a group of
// several work-items); null otherwise, which is all the hooks test.
thread_local GroupRunner *RaceRunner SLMC_FAST_TLS = nullptr;

/// Runs work-groups on the calling OS thread; one per thread.
class GroupRunner {
public:
  /// Takes groups of `J` until none is left or the launch is aborted.
  void work(LaunchJob &J) {
    if (Stacks.stackSize() != J.StackSize)
      Stacks.reset(J.StackSize);
    if (Items.size() < J.ItemsPerGroup)
      Items.resize(J.ItemsPerGroup);
    if (J.SubGroupSize > 1)
      for (std::vector<uint32_t> &Row : ShuffleSlots)
        if (Row.size() < J.ItemsPerGroup)
          Row.resize(J.ItemsPerGroup);
    if (Status S = reserveGroupMemory(J.GroupMemory)) {
      J.fail(0, std::move(S));
      return;
    }
    for (;;) {
      uint64_t First = J.Next.fetch_add(J.Chunk, std::memory_order_relaxed);
      if (First >= J.Total || J.stopped(First))
        return;
      uint64_t Last = std::min(First + J.Chunk, J.Total);
      // The chunk's group ids counted up, not divided out of each number.
      slmc_dim3 GId = groupId(J, First);
      for (uint64_t G = First; G < Last && !J.stopped(G); ++G) {
        Status S = runGroup(J, G, GId);
        if (std::string Bounds = takeBoundsReport(); !Bounds.empty() && !S)
          S = Status::error(SLMC_ERROR_GROUP_LOCAL_BOUNDS, std::move(Bounds));
        if (S) {
          J.fail(G, std::move(S));
          return;
        }
        if (++GId.x == J.Groups.x) {
          GId.x = 0;
          if (++GId.y == J.Groups.y)
            GId.y = 0, ++GId.z;
        }
      }
    }
  }

  /// Called by a work-item (on its fiber) at a barrier: `AtBarrier` waits for
  /// the whole group, `AtSubGroupBarrier` for the work-item's sub-group.
  void barrier(WorkItem::State Wait = WorkItem::AtBarrier) {
    Current->St = Wait;
    void *FakeStack = nullptr;
    startSwitch(&FakeStack, SchedulerStack, SchedulerStackSize);
    tsanSwitch(SchedulerTsanFiber);
    fctx::transfer_t T = fctx::jump_fcontext(Scheduler, nullptr);
    finishSwitch(FakeStack, &SchedulerStack, &SchedulerStackSize);
    Scheduler = T.fctx;
  }

  uint32_t subGroupSize() const { return Job ? Job->SubGroupSize : 1; }

  /// SLMC_CHECK: where the current work-item's next barrier is.
  void barrierSite(const char *Where) {
    if (Current)
      Current->BarrierAt = Where;
  }

  void markInstrumented() {
    if (Job && !Job->Instrumented.load(std::memory_order_relaxed))
      Job->Instrumented.store(true, std::memory_order_relaxed);
  }

  /// SLMC_CHECK=races: a group-local variable's address was taken.
  void raceRange(const void *Base, size_t Bytes, const char *Name) {
    if (!Races.hasRange(Base, Bytes))
      Races.addRange(Base, Bytes, Name);
  }

  /// SLMC_CHECK=races: an access of the current work-item. The first race
  /// ends the work-item (never resumed) and fails the launch.
  void raceAccess(const void *Address, size_t Bytes, bool IsWrite, const char *Where,
                  const uint64_t *Value, bool IsAtomic = false) {
    RaceDetector::Race Found;
    if (!Current || !Races.access(Current->Linear, Address, Bytes, IsWrite, Where, Value,
                                  Found, IsAtomic))
      return;
    RaceRunner = nullptr; // nothing more to check in this group
    // Printed by the launch, once, for the lowest group with a race.
    Failure = Status::error(SLMC_ERROR_DATA_RACE, raceReport(Found));
    Current->St = WorkItem::Failed;
    startSwitch(nullptr, SchedulerStack, SchedulerStackSize);
    tsanSwitch(SchedulerTsanFiber);
    fctx::jump_fcontext(Scheduler, nullptr);
    std::abort(); // unreachable: a failed fiber is never resumed
  }

  /// SLMC_CHECK=bounds: an access outside a group-local variable, which the
  /// instrumented code skips. The first one of the group is kept, and fails
  /// the launch when the group ends (takeBoundsReport).
  void boundsAccess(uint64_t Bytes, uint64_t Offset, uint64_t Size, int Kind,
                    const char *Name, const char *Where) {
    if (!BoundsReport.empty())
      return;
    std::string R = "access outside a group-local variable in work-group " +
                    dimString(CurrentItem ? CurrentItem->group_id : slmc_dim3{0, 0, 0}) +
                    " of " + (Job ? Job->kernel() : std::string("kernel")) + ": ";
    R += Kind == 0 ? "read" : Kind == 1 ? "write" : "atomic access";
    R += " of " + std::to_string(Bytes) + " bytes at byte " +
         std::to_string(int64_t(Offset)) + " of '" + (Name ? Name : "?") + "' (" +
         std::to_string(Size) + " bytes)";
    if (Current && !InLoops)
      R += " by work-item " + dimString(Current->Info.local_id);
    R += " at " + std::string(Where ? Where : "?");
    if (InLoops)
      R += " (its work-items run as loops; SLMC_CPU_WORK_ITEM_LOOPS=0 names the one "
           "at fault)";
    BoundsReport = std::move(R);
  }
  /// The group's bounds failure, if any, and none for the next group.
  std::string takeBoundsReport() { return std::exchange(BoundsReport, std::string()); }

  /// Whether `Addr` is in the guard page below the running work-item's
  /// fiber stack: the fault of a stack overflow.
  bool inStackGuard(const void *Addr) const {
    if (!Current || !Current->Stack)
      return false;
    const char *Bottom = static_cast<const char *>(Current->Stack) - Stacks.stackSize();
    const char *A = static_cast<const char *>(Addr);
    return A < Bottom && A >= Bottom - pageSize();
  }

  /// Sub-group exchange: every work-item of the sub-group leaves its value
  /// in its slot, waits for the others, then reads its source's. Two rows of
  /// slots, used alternately, make one wait per exchange enough: a
  /// work-item can write a row again only after the next exchange's wait,
  /// which every work-item reaches after reading this one.
  uint32_t subGroupShuffle(uint32_t Value, uint32_t FromLane) {
    WorkItem &W = *Current;
    const uint32_t Size = Job->SubGroupSize, First = W.Linear / Size * Size;
    std::vector<uint32_t> &Row = ShuffleSlots[W.ShuffleParity];
    W.ShuffleParity ^= 1;
    Row[W.Linear] = Value;
    barrier(WorkItem::AtSubGroupBarrier);
    uint32_t From = First + FromLane;
    return FromLane < Size && From < Job->ItemsPerGroup ? Row[From] : Value;
  }

  /// The current work-item's next block of per-call-path group-local
  /// storage: the n-th call of every work-item of the group gets the same
  /// n-th block. Blocks are kept for the next groups (they need no
  /// particular content).
  void *groupLocalBlock(size_t Bytes, size_t Align) {
    if (!Current)
      return nullptr;
    return blockAt(PathBlocks, Current->GroupLocalCalls++, Bytes, Align);
  }

  /// The block of call path `Site` (slmc_cpu_group_local_site), the same
  /// for every call the group's work-items make there.
  void *groupLocalSite(size_t Bytes, size_t Align, uint32_t Site) {
    if (!Current)
      return nullptr;
    return blockAt(SiteBlocks, Site, Bytes, Align);
  }

  ~GroupRunner() {
    for (WorkItem &W : Items)
      if (W.TsanFiber)
        __tsan_destroy_fiber(W.TsanFiber);
    std::free(GroupMemory);
    std::free(Storage);
    for (std::vector<Block> *Blocks : {&PathBlocks, &SiteBlocks})
      for (Block &B : *Blocks)
        std::free(B.Memory);
  }

private:
  Status reserveGroupMemory(size_t Bytes) {
    if (Bytes <= GroupMemoryCapacity)
      return Status::ok();
    std::free(GroupMemory);
    GroupMemory = nullptr;
    GroupMemoryCapacity = 0;
    void *P = nullptr;
    if (posix_memalign(&P, kAlignment, roundUp(Bytes, kAlignment)) != 0)
      return Status::error(SLMC_ERROR_OUT_OF_MEMORY,
                           "cannot allocate " + std::to_string(Bytes) +
                               " bytes of dynamic group-local memory");
    GroupMemory = P;
    GroupMemoryCapacity = Bytes;
    return Status::ok();
  }

  static slmc_dim3 groupId(const LaunchJob &J, uint64_t Linear) {
    return {uint32_t(Linear % J.Groups.x), uint32_t(Linear / J.Groups.x % J.Groups.y),
            uint32_t(Linear / J.Groups.x / J.Groups.y)};
  }

  /// Runs group `Linear` (whose ids are `GId`) of `J`: as work-item loops
  /// when its entry has them (and `Loops`), else on fibers.
  Status runGroup(LaunchJob &J, uint64_t Linear, slmc_dim3 GId, bool Loops = true) {
    GroupLinear = Linear;
    const slmc_dim3 GC = J.Groups, LS = J.Size;
    void *Dynamic = J.GroupMemory ? GroupMemory : nullptr;

    ActiveRunner = this;
    Job = &J;
    CurrentKernelName = J.ReadableName.c_str();
    // Work-item loops first: they need none of the fibers' per-item state.
    // (Run for every group: nothing here that a fiber run needs.)
    if (Loops && J.UseLoops.load(std::memory_order_relaxed)) {
      Status S;
      if (runLoops(J, GId, Dynamic, J.ItemsPerGroup, S))
        return S;
      ActiveRunner = this;
      CurrentKernelName = J.ReadableName.c_str();
    }
    Failure = Status::ok();

    uint32_t N = 0;
    for (uint32_t Z = 0; Z < LS.z; ++Z)
      for (uint32_t Y = 0; Y < LS.y; ++Y)
        for (uint32_t X = 0; X < LS.x; ++X) {
          WorkItem &W = Items[N++];
          W.St = WorkItem::NotStarted;
          W.GroupLocalCalls = 0;
          W.Linear = N - 1;
          W.ShuffleParity = 0;
          W.BarrierAt = nullptr;
          W.Info = slmc_cpu_item{{X, Y, Z}, GId, LS, GC, Dynamic, J.SubGroupSize};
        }

    if (N == 1) {
      Current = &Items[0];
      Job = &J; // for slmc_check_enter
      Status S = runAlone(J, Items[0]);
      Current = nullptr;
      ActiveRunner = nullptr;
      return S;
    }

    FiberRunner = this;
    Job = &J;
    if (CheckMode & kCheckRaces) {
      Races.beginGroup(N, J.SubGroupSize);
      if (Dynamic)
        raceRange(Dynamic, J.GroupMemory, "dynamic group-local memory");
      RaceRunner = this;
    }
    if (__tsan_get_current_fiber)
      SchedulerTsanFiber = __tsan_get_current_fiber();
    Status Result = schedule(J, N, GId);
    RaceRunner = nullptr;
    // Whatever stopped the group, its fibers are gone: suspended ones are
    // simply never resumed again and their stacks go back to the pool
    // (objects on those stacks are not destroyed).
    for (uint32_t I = 0; I < N; ++I)
      retire(Items[I]);
    FiberRunner = nullptr;
    ActiveRunner = nullptr;
    Current = nullptr;
    CurrentItem = nullptr;
    return Result;
  }

  /// Runs the group through the kernel's work-group entry. False when the
  /// entry declined (it then ran nothing): the caller runs fibers. Errors
  /// are reported as fibers report them: the group runs again on fibers to
  /// find the work-item that threw or the barriers that diverged (the
  /// loops do not know them), and only when that run succeeds is the
  /// report about the group.
  bool runLoops(LaunchJob &J, slmc_dim3 GId, void *Dynamic, uint32_t N, Status &Result) {
    slmc_cpu_item Group{{0, 0, 0}, GId, J.Size, J.Groups, Dynamic, J.SubGroupSize};
    CurrentItem = &Group;
    InLoops = true;
    IsaAsked = false;
    int Ran = 0;
    std::optional<std::string> What; // set when the entry threw
    try {
      Ran = J.GroupEntry(J.Args);
    } catch (const std::exception &E) {
      What = E.what();
    } catch (...) {
      What = "an exception not derived from std::exception";
    }
    const bool Threw = What.has_value();
    InLoops = false;
    CurrentItem = nullptr;
    ActiveRunner = nullptr;
    if (!Threw && Ran == 0) {
      J.UseLoops.store(false, std::memory_order_relaxed);
      std::lock_guard<std::mutex> L(J.WhyMutex);
      if (J.WhyFibers.empty())
        J.WhyFibers = LoopsDeclined ? LoopsDeclined : "not compiled by slmc++ with optimisation";
      return false;
    }
    // (Written once: a store per group would take the line from the other
    // threads, which read UseLoops beside it for every group.)
    if (!J.RanLoops.load(std::memory_order_relaxed)) {
      J.RanLoops.store(true, std::memory_order_relaxed);
      if (IsaAsked)
        J.RanIsaVersion.store(true, std::memory_order_relaxed);
    }
    if (!Threw && Ran == 1) {
      Result = Status::ok();
      return true;
    }
    // Again on fibers, for the report.
    Status Again = runGroup(J, GroupLinear, GId, /*Loops=*/false);
    if (Again) {
      Result = std::move(Again);
    } else if (Threw) {
      Result = Status::error(SLMC_ERROR_LAUNCH_FAILURE,
                             J.kernel() + " threw in work-group " + dimString(GId) + ": " + *What);
    } else {
      // Fibers let work-items meet at different barriers; the loops cannot
      // and every dialect leaves it undefined.
      Result = Status::error(
          SLMC_ERROR_BARRIER_DIVERGENCE,
          "barrier divergence in work-group " + dimString(GId) + " of " + J.kernel() +
              ": its " + std::to_string(N) +
              " work-items wait at different barriers (slmc++ -fslmc-check and "
              "SLMC_CHECK=barriers name them)");
    }
    return true;
  }

public:
  /// Per-work-item storage for the group entry (slmc_cpu_work_item_storage).
  void *workItemStorage(size_t Bytes, size_t Align) {
    Align = std::max<size_t>(Align, 64);
    if ((Align & (Align - 1)) != 0)
      return nullptr;
    if (Bytes <= StorageBytes && reinterpret_cast<uintptr_t>(Storage) % Align == 0)
      return Storage;
    std::free(Storage);
    Storage = nullptr;
    StorageBytes = 0;
    void *P = nullptr;
    if (posix_memalign(&P, Align, roundUp(Bytes ? Bytes : 1, Align)) != 0)
      return nullptr;
    Storage = P;
    StorageBytes = Bytes;
    return P;
  }

private:
  /// A group of one work-item needs no fiber: any barrier it reaches is
  /// trivially complete (slmc_cpu_barrier returns at once).
  Status runAlone(LaunchJob &J, WorkItem &W) {
    CurrentItem = &W.Info;
    std::string What;
    bool Threw = !call(J, What);
    CurrentItem = nullptr;
    if (Threw)
      return thrown(J, W, What);
    return Status::ok();
  }

  Status schedule(LaunchJob &J, uint32_t N, slmc_dim3 GId) {
    uint32_t Finished = 0;
    for (;;) {
      // Run every work-item that can run until it waits or ends.
      uint32_t Waiting = 0, SubWaiting = 0;
      for (uint32_t I = 0; I < N; ++I) {
        WorkItem &W = Items[I];
        if (W.St == WorkItem::AtBarrier) {
          ++Waiting;
          continue;
        }
        if (W.St == WorkItem::AtSubGroupBarrier) {
          ++SubWaiting;
          continue;
        }
        if (W.St == WorkItem::Finished)
          continue;
        if (W.St == WorkItem::NotStarted) {
          W.Stack = Stacks.acquire();
          if (!W.Stack)
            return Status::error(SLMC_ERROR_OUT_OF_MEMORY,
                                 "cannot allocate a " +
                                     std::to_string(Stacks.stackSize()) +
                                     "-byte fiber stack for work-group " +
                                     dimString(GId));
          W.Context = fctx::make_fcontext(W.Stack, Stacks.stackSize(), &fiberMain);
          // One TSan fiber per work-item slot, kept for later groups:
          // creating one clears most of a megabyte of TSan state, which for
          // every work-item of every group made TSan runs take hours.
          if (__tsan_create_fiber && !W.TsanFiber)
            W.TsanFiber = __tsan_create_fiber(0);
        }
        W.St = WorkItem::Runnable;
        Current = &W;
        CurrentItem = &W.Info;
        void *FakeStack = nullptr;
        startSwitch(&FakeStack, static_cast<char *>(W.Stack) - Stacks.stackSize(),
                    Stacks.stackSize());
        tsanSwitch(W.TsanFiber);
        fctx::transfer_t T = fctx::jump_fcontext(W.Context, this);
        finishSwitch(FakeStack, nullptr, nullptr);
        W.Context = T.fctx;
        switch (W.St) {
        case WorkItem::AtBarrier:
          ++Waiting;
          break;
        case WorkItem::AtSubGroupBarrier:
          ++SubWaiting;
          break;
        case WorkItem::Finished:
          // The fiber will never run again, so its stack is free at once: a
          // kernel without barriers needs a single stack per thread.
          ++Finished;
          retire(W);
          break;
        case WorkItem::Failed:
          retire(W);
          if (Failure)
            return std::move(Failure);
          return thrown(J, W, FailureText);
        default:
          break;
        }
      }
      if (J.stopped(GroupLinear) && (Waiting || SubWaiting))
        return Status::ok(); // a lower group failed; its error is reported
      if (SubWaiting != 0) {
        if (Status S = releaseSubGroups(J, N, GId))
          return S;
        continue;
      }
      if (Waiting == 0)
        return Status::ok(); // every work-item returned
      if (Finished != 0) {
        const char *Site = nullptr;
        for (uint32_t I = 0; I < N && !Site; ++I)
          if (Items[I].St == WorkItem::AtBarrier)
            Site = Items[I].BarrierAt;
        return Status::error(
            SLMC_ERROR_BARRIER_DIVERGENCE,
            "barrier divergence in work-group " + dimString(GId) + " of " +
                J.kernel() + ": " + std::to_string(Finished) + " of " +
                std::to_string(N) + " work-items returned while " +
                std::to_string(Waiting) + " wait at a barrier" + at(Site) +
                "; missing: " + itemList(N, WorkItem::Finished));
      }
      if (CheckMode & kCheckBarriers)
        if (Status S = checkBarrierSites(J, N, GId))
          return S;
      // Every work-item reached the barrier: release them.
      for (uint32_t I = 0; I < N; ++I) {
        Items[I].St = WorkItem::Runnable;
        Items[I].BarrierAt = nullptr;
      }
      if (CheckMode & kCheckRaces)
        Races.groupBarrier();
    }
  }

  /// Releases each sub-group whose work-items all wait at a sub-group
  /// barrier (or exchange); one that cannot complete is an error.
  Status releaseSubGroups(LaunchJob &J, uint32_t N, slmc_dim3 GId) {
    const uint32_t Size = J.SubGroupSize;
    for (uint32_t First = 0; First < N; First += Size) {
      const uint32_t End = std::min(N, First + Size);
      uint32_t Sub = 0, Group = 0, Done = 0;
      for (uint32_t I = First; I < End; ++I) {
        Sub += Items[I].St == WorkItem::AtSubGroupBarrier;
        Group += Items[I].St == WorkItem::AtBarrier;
        Done += Items[I].St == WorkItem::Finished;
      }
      if (Sub == End - First) {
        for (uint32_t I = First; I < End; ++I)
          Items[I].St = WorkItem::Runnable;
        if (CheckMode & kCheckRaces)
          Races.subGroupBarrier(First / Size);
      } else if (Sub != 0) {
        return Status::error(
            SLMC_ERROR_BARRIER_DIVERGENCE,
            "sub-group divergence in sub-group " + std::to_string(First / Size) +
                " of work-group " + dimString(GId) + " of " + J.kernel() + ": " +
                std::to_string(Sub) + " of " + std::to_string(End - First) +
                " work-items wait at a sub-group barrier or exchange while " +
                (Done ? std::to_string(Done) + " returned" : std::string()) +
                (Done && Group ? " and " : "") +
                (Group ? std::to_string(Group) + " wait at a work-group barrier"
                       : std::string()));
      }
    }
    return Status::ok();
  }

  /// Takes back the stack of a fiber that will never run again.
  void retire(WorkItem &W) {
    if (W.Stack) {
      Stacks.release(W.Stack);
      W.Stack = nullptr;
    }
  }

  static void fiberMain(fctx::transfer_t T) {
    auto *R = static_cast<GroupRunner *>(T.data);
    finishSwitch(nullptr, &R->SchedulerStack, &R->SchedulerStackSize);
    R->Scheduler = T.fctx;
    WorkItem *W = R->Current;
    std::string What;
    if (R->call(*R->Job, What)) {
      W->St = WorkItem::Finished;
    } else {
      W->St = WorkItem::Failed;
      R->FailureText = std::move(What);
    }
    // Nothing on this stack is live any more; the scheduler reuses it.
    startSwitch(nullptr, R->SchedulerStack, R->SchedulerStackSize);
    tsanSwitch(R->SchedulerTsanFiber);
    fctx::jump_fcontext(R->Scheduler, nullptr);
    std::abort(); // unreachable: a finished fiber is never resumed
  }

  /// Runs the current work-item; false (with the text) if it threw.
  static bool call(LaunchJob &J, std::string &What) {
    try {
      J.Entry(J.Args);
      return true;
    } catch (const std::exception &E) {
      What = E.what();
    } catch (...) {
      What = "an exception not derived from std::exception";
    }
    return false;
  }

  static Status thrown(LaunchJob &J, const WorkItem &W, const std::string &What) {
    return Status::error(SLMC_ERROR_LAUNCH_FAILURE,
                         J.kernel() + " threw in work-item " +
                             dimString(W.Info.local_id) + " of work-group " +
                             dimString(W.Info.group_id) + ": " + What);
  }

  std::string itemName(uint16_t Linear) const {
    return Linear < Items.size() ? dimString(Items[Linear].Info.local_id) : "?";
  }

  static std::string at(const char *Where) {
    return Where && *Where ? std::string(" at ") + Where : std::string();
  }

  std::string raceReport(const RaceDetector::Race &R) const {
    std::string Variable = R.Variable.empty() ? "group-local memory" : "'" + R.Variable + "'";
    return "data race on group-local memory in work-group " +
           dimString(Current->Info.group_id) + " of " + Job->kernel() + ": " +
           (R.Later.Atomic ? "atomic access" : R.LaterWrite ? "write" : "read") + " of " +
           std::to_string(R.Bytes) +
           " byte" + (R.Bytes == 1 ? "" : "s") + " at byte " + std::to_string(R.Offset) +
           " of " + Variable + " (" + std::to_string(R.VariableBytes) +
           " bytes) by work-item " + itemName(R.Later.Item) + at(R.Later.Where) +
           " conflicts with " +
           (R.Earlier.Atomic ? "an atomic access" : R.EarlierWrite ? "a write" : "a read") +
           " by work-item " + itemName(R.Earlier.Item) + at(R.Earlier.Where) +
           "; no barrier separates them";
  }

  /// "(1,0,0), (5,0,0) and 3 more" of the work-items whose state is `St`.
  std::string itemList(uint32_t N, WorkItem::State St, const char *Where = nullptr,
                       bool OtherSites = false) const {
    std::string List;
    uint32_t Count = 0, Shown = 0;
    for (uint32_t I = 0; I < N; ++I) {
      const WorkItem &W = Items[I];
      if (W.St != St)
        continue;
      if (OtherSites && W.BarrierAt && Where && std::strcmp(W.BarrierAt, Where) == 0)
        continue;
      ++Count;
      if (Shown < 8) {
        List += (Shown ? ", " : "") + dimString(W.Info.local_id);
        if (OtherSites)
          List += at(W.BarrierAt);
        ++Shown;
      }
    }
    if (Count > Shown)
      List += " and " + std::to_string(Count - Shown) + " more";
    return List;
  }

  /// SLMC_CHECK=barriers: every work-item of the group waits at a barrier;
  /// they must be at the same one (a different line is a different barrier).
  Status checkBarrierSites(LaunchJob &J, uint32_t N, slmc_dim3 GId) {
    const char *First = nullptr;
    for (uint32_t I = 0; I < N && !First; ++I)
      First = Items[I].BarrierAt;
    if (!First)
      return Status::ok();
    bool Same = true;
    for (uint32_t I = 0; I < N && Same; ++I)
      Same = !Items[I].BarrierAt || std::strcmp(Items[I].BarrierAt, First) == 0;
    if (Same)
      return Status::ok();
    const WorkItem *Lead = nullptr;
    for (uint32_t I = 0; I < N && !Lead; ++I)
      if (Items[I].BarrierAt == First)
        Lead = &Items[I];
    return Status::error(
        SLMC_ERROR_BARRIER_DIVERGENCE,
        "barrier divergence in work-group " + dimString(GId) + " of " + J.kernel() +
            ": work-items wait at different barriers: " + dimString(Lead->Info.local_id) +
            " and others at " + First + ", but " +
            itemList(N, WorkItem::AtBarrier, First, /*OtherSites=*/true));
  }

  struct Block {
    void *Memory = nullptr;
    size_t Bytes = 0;
  };

  /// Block N of `Blocks`, of at least `Bytes` aligned to `Align`.
  void *blockAt(std::vector<Block> &Blocks, uint32_t N, size_t Bytes, size_t Align) {
    if (Align < alignof(std::max_align_t))
      Align = alignof(std::max_align_t);
    if ((Align & (Align - 1)) != 0)
      return nullptr;
    if (N >= Blocks.size())
      Blocks.resize(N + 1);
    Block &B = Blocks[N];
    if (!B.Memory || B.Bytes < Bytes || reinterpret_cast<uintptr_t>(B.Memory) % Align) {
      std::free(B.Memory);
      B = Block{};
      void *P = nullptr;
      if (posix_memalign(&P, Align, roundUp(Bytes ? Bytes : 1, Align)) != 0)
        return nullptr;
      B.Memory = P;
      B.Bytes = Bytes;
    }
    if (RaceRunner == this)
      raceRange(B.Memory, Bytes, "group_local_memory");
    return B.Memory;
  }

  StackPool Stacks;
  std::vector<WorkItem> Items;
  std::vector<Block> PathBlocks; // slmc_cpu_group_local_alloc's, by call number
  std::vector<Block> SiteBlocks; // slmc_cpu_group_local_site's, by site
  std::vector<uint32_t> ShuffleSlots[2]; // sub-group exchanges, by linear id
  void *GroupMemory = nullptr;
  size_t GroupMemoryCapacity = 0;
  void *Storage = nullptr; // slmc_cpu_work_item_storage's
  size_t StorageBytes = 0;
  fctx::fcontext_t Scheduler = nullptr; // where a fiber switches back to
  const void *SchedulerStack = nullptr;  // its stack, for sanitizers only
  size_t SchedulerStackSize = 0;
  void *SchedulerTsanFiber = nullptr;
  WorkItem *Current = nullptr;
  LaunchJob *Job = nullptr;
  std::string FailureText;
  Status Failure; // why a work-item stopped when it did not throw
  std::string BoundsReport; // SLMC_CHECK=bounds: the group's first overflow
  RaceDetector Races; // SLMC_CHECK=races
  uint64_t GroupLinear = 0; // the group being run, numbered as the launch does
};

// This thread's runner. The pointer is trivially destructible, so it stays
// usable after the thread's TLS destructors ran (a launch from an atexit
// handler then gets a fresh runner, leaked with the exiting process).
thread_local GroupRunner *ThisThreadRunner = nullptr;
thread_local bool RunnerReaped = false;
struct RunnerReaper {
  ~RunnerReaper() {
    delete ThisThreadRunner;
    ThisThreadRunner = nullptr;
    RunnerReaped = true;
  }
};
thread_local RunnerReaper Reaper;

// ---- Faults in kernels ------------------------------------------------------
// A kernel that indexes out of bounds, overflows its fiber stack or divides
// by zero crashes the program on the CPU fallback as it would anywhere; the
// handler first says which kernel and work-item did it, then lets the
// signal's previous disposition (a core dump, a sanitizer's report, the
// program's own handler) act. Signals outside kernels go straight on.
namespace fault {

constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};
struct sigaction Previous[NSIG];

/// A line built without allocating (this runs in a signal handler).
struct Line {
  char Text[640];
  size_t Len = 0;
  void add(const char *S) {
    while (S && *S && Len + 1 < sizeof(Text))
      Text[Len++] = *S++;
  }
  void add(uint64_t N) {
    char Digits[24];
    int D = 0;
    do {
      Digits[D++] = char('0' + N % 10);
      N /= 10;
    } while (N);
    while (D && Len + 1 < sizeof(Text))
      Text[Len++] = Digits[--D];
  }
  void add(slmc_dim3 V) {
    add("(");
    add(uint64_t(V.x));
    add(",");
    add(uint64_t(V.y));
    add(",");
    add(uint64_t(V.z));
    add(")");
  }
};

const char *describe(int Sig) {
  switch (Sig) {
  case SIGSEGV: return "segmentation fault";
  case SIGBUS: return "bus error";
  case SIGFPE: return "arithmetic exception (an integer division by zero?)";
  default: return "illegal instruction";
  }
}

void handler(int Sig, siginfo_t *Info, void *Context) {
  int Saved = errno;
  if (const slmc_cpu_item *Item = CurrentItem) {
    Line L;
    L.add("slmc: ");
    L.add(describe(Sig));
    L.add(" in kernel '");
    L.add(CurrentKernelName ? CurrentKernelName : "?");
    if (InLoops) {
      L.add("' on the CPU fallback, a work-item of work-group ");
    } else {
      L.add("' on the CPU fallback, work-item ");
      L.add(Item->local_id);
      L.add(" of work-group ");
    }
    L.add(Item->group_id);
    if (Sig == SIGSEGV || Sig == SIGBUS) {
      GroupRunner *R = FiberRunner;
      if (R && R->inStackGuard(Info->si_addr)) {
        L.add(": the work-item's fiber stack overflowed (SLMC_CPU_STACK_SIZE sets its size)");
      } else {
        L.add(": an access outside the program's memory (an index out of bounds?) at address 0x");
        uintptr_t A = reinterpret_cast<uintptr_t>(Info->si_addr);
        char Hex[17];
        int D = 0;
        do {
          Hex[D++] = "0123456789abcdef"[A & 15];
          A >>= 4;
        } while (A);
        while (D && L.Len + 1 < sizeof(L.Text))
          L.Text[L.Len++] = Hex[--D];
      }
    }
    if (InLoops)
      L.add(" (its work-items run as loops; SLMC_CPU_WORK_ITEM_LOOPS=0 runs them as "
            "fibers and names the one at fault)");
    L.add("\n");
    ssize_t Ignored = write(STDERR_FILENO, L.Text, L.Len);
    (void)Ignored;
  }
  const struct sigaction &Old = Previous[Sig];
  if (Old.sa_handler != SIG_DFL && Old.sa_handler != SIG_IGN) {
    errno = Saved;
    if (Old.sa_flags & SA_SIGINFO)
      Old.sa_sigaction(Sig, Info, Context);
    else
      Old.sa_handler(Sig);
    return;
  }
  // The default action: restore it; a fault happens again on return, a
  // signal sent by kill() must be sent again.
  sigaction(Sig, &Old, nullptr);
  if (Info->si_code <= 0)
    raise(Sig);
  errno = Saved;
}

void install() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    for (int Sig : kSignals) {
      struct sigaction A {};
      A.sa_sigaction = handler;
      A.sa_flags = SA_SIGINFO | SA_ONSTACK;
      sigemptyset(&A.sa_mask);
      sigaction(Sig, &A, &Previous[Sig]);
    }
  });
}

/// A stack for the handler on threads that run groups: a fiber that
/// overflowed its stack cannot run the handler on it. Kept for the
/// thread's life; a thread that has one already (a sanitizer's) keeps it.
void ensureAltStack() {
  static thread_local bool Done = false;
  if (Done)
    return;
  Done = true;
  stack_t Old{};
  if (sigaltstack(nullptr, &Old) == 0 && !(Old.ss_flags & SS_DISABLE))
    return;
  const size_t Size = 64 * 1024;
  void *Mem = mmap(nullptr, Size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (Mem == MAP_FAILED)
    return;
  stack_t S{};
  S.ss_sp = Mem;
  S.ss_size = Size;
  sigaltstack(&S, nullptr);
}

} // namespace fault

/// A kernel's name as the user would read it (the handler cannot demangle:
/// that allocates).
std::string demangled(const std::string &Name) {
  int Status = 0;
  char *D = abi::__cxa_demangle(Name.c_str(), nullptr, nullptr, &Status);
  std::string Result = Status == 0 && D ? D : Name;
  std::free(D);
  return Result;
}

GroupRunner &runner() {
  if (!ThisThreadRunner) {
    fault::ensureAltStack();
    ThisThreadRunner = new GroupRunner;
    if (!RunnerReaped)
      (void)&Reaper; // first use registers the destructor for this thread
  }
  return *ThisThreadRunner;
}

// ---- Threads -------------------------------------------------------------

/// Spins on `Ready` for a while before the caller blocks: kernels come in
/// quick succession (a stencil's sweeps, a scan's levels), and waking a
/// sleeping thread costs tens of microseconds (more in a virtual machine),
/// as long as a small launch. OpenMP runtimes spin the same way before
/// they sleep.
template <class Ready> bool spinUntil(Ready R) {
  using Clock = std::chrono::steady_clock;
  constexpr auto kSpin = std::chrono::microseconds(200);
  const auto Until = Clock::now() + kSpin;
  for (unsigned I = 1;; ++I) {
    if (R())
      return true;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
    if (I % 64 == 0 && Clock::now() > Until)
      return false;
  }
}

/// Persistent workers; the thread that launches takes part as well, so a
/// pool of N threads has N - 1 workers. Started on the first launch.
class ThreadPool {
public:
  explicit ThreadPool(unsigned Threads) : Wanted(Threads - 1) {}

  ~ThreadPool() {
    {
      std::lock_guard<std::mutex> L(Mutex);
      Stop.store(true);
      Generation.fetch_add(1);
    }
    Wake.notify_all();
    for (std::thread &T : Workers)
      T.join();
  }

  /// Runs `J` to completion. Only one run at a time (the caller serialises).
  void run(LaunchJob &J) {
    start();
    unsigned Helpers = unsigned(std::min<uint64_t>(Workers.size(), J.Total - 1));
    if (Helpers) {
      {
        std::lock_guard<std::mutex> L(Mutex);
        Job = &J;
        JobHelpers = Helpers;
        Pending.store(Helpers);
        Generation.fetch_add(1, std::memory_order_release);
      }
      Wake.notify_all();
    }
    runner().work(J);
    if (Helpers) {
      if (!spinUntil([&] { return Pending.load(std::memory_order_acquire) == 0; })) {
        std::unique_lock<std::mutex> L(Mutex);
        Done.wait(L, [&] { return Pending.load(std::memory_order_acquire) == 0; });
      }
      std::lock_guard<std::mutex> L(Mutex);
      Job = nullptr;
    }
  }

private:
  void start() {
    if (Started)
      return;
    Started = true;
    for (unsigned I = 0; I < Wanted; ++I) {
      try {
        Workers.emplace_back([this, I] { workerMain(I); });
      } catch (const std::system_error &) {
        break; // run with the threads we could get
      }
    }
  }

  void workerMain(unsigned Index) {
    uint64_t Seen = 0;
    for (;;) {
      LaunchJob *J = nullptr;
      spinUntil([&] { return Generation.load(std::memory_order_acquire) != Seen; });
      {
        std::unique_lock<std::mutex> L(Mutex);
        Wake.wait(L, [&] { return Generation.load(std::memory_order_relaxed) != Seen; });
        if (Stop.load())
          return;
        Seen = Generation.load(std::memory_order_relaxed);
        // A launch with few groups enlists only the first workers.
        if (Job && Index < JobHelpers)
          J = Job;
      }
      if (!J)
        continue;
      runner().work(*J);
      if (Pending.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        std::lock_guard<std::mutex> L(Mutex); // (the waiter checks under it)
        Done.notify_one();
      }
    }
  }

  const unsigned Wanted;
  bool Started = false;
  std::vector<std::thread> Workers;

  std::mutex Mutex;
  std::condition_variable Wake, Done;
  // Written under Mutex; read without it by the spinning threads.
  std::atomic<uint64_t> Generation{0};
  LaunchJob *Job = nullptr;
  unsigned JobHelpers = 0;
  std::atomic<unsigned> Pending{0};
  std::atomic<bool> Stop{false};
};

// ---- The backend ----------------------------------------------------------

class CpuBackend final : public Backend {
public:
  CpuBackend(unsigned Threads, size_t StackSize, size_t GroupMemory)
      : StackSize(StackSize), Pool(Threads) {
    Info.backend = SLMC_BACKEND_CPU;
    std::snprintf(Info.name, sizeof(Info.name), "CPU fallback (%u thread%s)",
                  Threads, Threads == 1 ? "" : "s");
    Info.max_group_size = kMaxGroupSize;
    Info.max_group_dims = kMaxGroupDims;
    Info.max_group_local_memory = GroupMemory;
    long Pages = sysconf(_SC_PHYS_PAGES);
    Info.global_memory = Pages > 0 ? size_t(Pages) * pageSize() : 0;
    Info.compute_units = Threads;
    // Work-items are fibers, so any sub-group size can be honoured; these
    // cover what kernels written for GPUs require (8/16/32 on Intel, 32 on
    // NVIDIA). Kernels that require none get sub-groups of one work-item.
    for (uint32_t Size = 1; Size <= 64; Size *= 2)
      Info.sub_group_sizes[Info.num_sub_group_sizes++] = Size;
    fault::install();
  }

  slmc_backend kind() const override { return SLMC_BACKEND_CPU; }
  const slmc_device_info &info() const override { return Info; }

  Status allocShared(void **Ptr, size_t Bytes) override {
    return allocate(Ptr, Bytes);
  }
  Status allocDevice(void **Ptr, size_t Bytes) override {
    return allocate(Ptr, Bytes);
  }

  Status free(void *Ptr) override {
    {
      std::lock_guard<std::mutex> L(AllocMutex);
      if (Allocations.erase(Ptr) == 0)
        return Status::error(SLMC_ERROR_INVALID_VALUE,
                             "slmc_free: pointer was not allocated by "
                             "slmc_malloc_shared/slmc_malloc_device");
    }
    std::free(Ptr);
    return Status::ok();
  }

  Status memcpy(void *Dst, const void *Src, size_t Bytes) override {
    std::memmove(Dst, Src, Bytes);
    return Status::ok();
  }

  Status memset(void *Dst, int Value, size_t Bytes) override {
    std::memset(Dst, Value, Bytes);
    return Status::ok();
  }

  Status synchronize() override { return Status::ok(); } // launches are synchronous

  Status launch(const LaunchRequest &R) override {
    const slmc_launch_params &P = R.Params;
    // The launch lock is held by the thread running this kernel's groups.
    if (CurrentItem)
      return Status::error(SLMC_ERROR_INVALID_VALUE,
                           "slmc_launch was called from inside a work-item; "
                           "the CPU fallback cannot nest launches");
    if (Status S = checkLimits(P))
      return S;
    if (!R.CpuEntry)
      return Status::error(SLMC_ERROR_KERNEL_NOT_FOUND,
                           "kernel '" + R.Kernel.Name +
                               "' has no host version for the CPU fallback");

    LaunchJob J;
    J.Entry = R.CpuEntry;
    J.GroupEntry = P.cpu_group;
    J.UseLoops.store(P.cpu_group && LoopsEnabled && !CheckMode, std::memory_order_relaxed);
    J.Args = P.args;
    J.KernelName = &R.Kernel.Name;
    J.ReadableName = demangled(R.Kernel.Name);
    J.Groups = P.group_count;
    J.Size = P.group_size;
    J.ItemsPerGroup = P.group_size.x * P.group_size.y * P.group_size.z;
    J.SubGroupSize = P.sub_group_size ? P.sub_group_size : 1;
    J.GroupMemory = P.dynamic_group_memory;
    J.StackSize = StackSize;
    J.Total = uint64_t(P.group_count.x) * P.group_count.y; // cannot overflow
    if (__builtin_mul_overflow(J.Total, uint64_t(P.group_count.z), &J.Total) ||
        J.Total > (uint64_t(1) << 62))
      return Status::error(SLMC_ERROR_RESOURCE_LIMIT,
                           "too many work-groups: " + dimString(P.group_count));
    // Several groups per atomic increment when groups are plentiful; small
    // enough that the last chunks still balance across threads.
    J.Chunk = std::clamp<uint64_t>(J.Total / (uint64_t(Info.compute_units) * 16),
                                   1, 64);

    std::lock_guard<std::mutex> L(LaunchMutex);
    Pool.run(J);
    if (CheckMode && !J.Instrumented.load(std::memory_order_relaxed))
      warnUninstrumented(J.ReadableName);
    if (Verbose)
      sayPath(J);
    if (J.ErrorGroup != std::numeric_limits<uint64_t>::max()) {
      // A race is also printed: programs that swallow the launch's error
      // (or run it where nobody reads it) still show what was found.
      if (J.Error.Code == SLMC_ERROR_DATA_RACE ||
          J.Error.Code == SLMC_ERROR_GROUP_LOCAL_BOUNDS)
        std::fprintf(stderr, "slmc: %s\n", J.Error.Message.c_str());
      return std::move(J.Error);
    }
    return Status::ok();
  }

  Status kernelGroupMemory(const KernelRecord &, size_t &Bytes) override {
    // The static group-local variables of a host-compiled kernel are
    // thread_local and cost nothing against the limit.
    Bytes = 0;
    return Status::ok();
  }

private:
  Status checkLimits(const slmc_launch_params &P) const {
    const slmc_dim3 S = P.group_size, M = Info.max_group_dims;
    const char *Names[3] = {"x", "y", "z"};
    const uint32_t Have[3] = {S.x, S.y, S.z}, Max[3] = {M.x, M.y, M.z};
    for (int D = 0; D < 3; ++D)
      if (Have[D] > Max[D])
        return Status::error(SLMC_ERROR_RESOURCE_LIMIT,
                             std::string("work-group size ") + Names[D] + "=" +
                                 std::to_string(Have[D]) +
                                 " exceeds the CPU fallback's maximum of " +
                                 std::to_string(Max[D]));
    uint64_t Items = uint64_t(S.x) * S.y * S.z;
    if (Items > Info.max_group_size)
      return Status::error(SLMC_ERROR_RESOURCE_LIMIT,
                           "work-group of " + std::to_string(S.x) + "x" +
                               std::to_string(S.y) + "x" + std::to_string(S.z) +
                               " = " + std::to_string(Items) +
                               " work-items exceeds the CPU fallback's maximum of " +
                               std::to_string(Info.max_group_size));
    if (P.dynamic_group_memory > Info.max_group_local_memory)
      return Status::error(SLMC_ERROR_RESOURCE_LIMIT,
                           std::to_string(P.dynamic_group_memory) +
                               " bytes of dynamic group-local memory exceed "
                               "the CPU fallback's limit of " +
                               std::to_string(Info.max_group_local_memory) +
                               " (SLMC_CPU_GROUP_MEMORY)");
    return Status::ok();
  }

  Status allocate(void **Ptr, size_t Bytes) {
    void *P = nullptr;
    if (posix_memalign(&P, kAlignment, roundUp(Bytes, kAlignment)) != 0)
      return Status::error(SLMC_ERROR_OUT_OF_MEMORY,
                           "cannot allocate " + std::to_string(Bytes) + " bytes");
    try {
      std::lock_guard<std::mutex> L(AllocMutex);
      Allocations.insert(P);
    } catch (const std::bad_alloc &) {
      std::free(P);
      return Status::error(SLMC_ERROR_OUT_OF_MEMORY,
                           "cannot allocate " + std::to_string(Bytes) + " bytes");
    }
    *Ptr = P;
    return Status::ok();
  }

  /// SLMC_CHECK set, but the kernel was not built with -fslmc-check: said
  /// once per kernel, so that a clean run is not mistaken for a checked one.
  void warnUninstrumented(const std::string &Kernel) {
    if (!Unchecked.insert(Kernel).second)
      return;
    std::fprintf(stderr,
                 "slmc: warning: SLMC_CHECK is set but kernel '%s' was not built with "
                 "slmc++ -fslmc-check; it runs unchecked\n",
                 Kernel.c_str());
  }

  /// SLMC_VERBOSE: how each kernel's groups ran, once per kernel.
  void sayPath(LaunchJob &J) {
    std::string Path;
    if (J.RanLoops.load(std::memory_order_relaxed))
      Path = J.RanIsaVersion.load(std::memory_order_relaxed)
                 ? std::string("work-item loops (") + isaName(IsaLevel) + " version)"
                 : "work-item loops";
    else if (!J.GroupEntry && J.ItemsPerGroup == 1)
      Path = "one call per work-group (one work-item each)";
    else if (!J.GroupEntry)
      Path = "fibers (no work-group entry)";
    else if (CheckMode)
      Path = "fibers (SLMC_CHECK is set)";
    else if (!LoopsEnabled)
      Path = "fibers (SLMC_CPU_WORK_ITEM_LOOPS=0)";
    else
      Path = "fibers (" + J.WhyFibers + ")";
    if (!Said.insert(J.ReadableName + '\0' + Path).second)
      return;
    std::fprintf(stderr, "slmc: cpu: %s runs as %s\n", J.kernel().c_str(), Path.c_str());
  }

  slmc_device_info Info{};
  bool Verbose = envFlag("SLMC_VERBOSE", false);
  bool LoopsEnabled = envFlag("SLMC_CPU_WORK_ITEM_LOOPS", true);
  std::unordered_set<std::string> Said;      // SLMC_VERBOSE paths told
  std::unordered_set<std::string> Unchecked; // kernels warned about
  const size_t StackSize;
  std::mutex LaunchMutex; // one launch at a time owns the pool
  ThreadPool Pool;
  std::mutex AllocMutex;
  std::unordered_set<void *> Allocations; // to reject foreign pointers in free
};

} // namespace

std::unique_ptr<Backend> createCpuBackend(std::string &WhyNot) {
  unsigned Threads = std::max(1u, std::thread::hardware_concurrency());
  size_t StackSize = kDefaultStackSize;
  size_t GroupMemory = kDefaultGroupMemory;
  if (!envCount("SLMC_CPU_THREADS", kMaxThreads, Threads, WhyNot) ||
      !envBytes("SLMC_CPU_STACK_SIZE", kMinStackSize, kMaxStackSize, StackSize,
                WhyNot) ||
      !envBytes("SLMC_CPU_GROUP_MEMORY", 0, kMaxGroupMemory, GroupMemory, WhyNot) ||
      !envCheck(WhyNot) || !envIsa(WhyNot))
    return nullptr;
  return std::make_unique<CpuBackend>(Threads, roundUp(StackSize, pageSize()),
                                      GroupMemory);
}

} // namespace slmc::rt

using namespace slmc::rt;

extern "C" const slmc_cpu_item *slmc_cpu_current_item(void) {
  return CurrentItem;
}

extern "C" void *slmc_cpu_group_local_alloc(size_t bytes, size_t align) {
  GroupRunner *R = ActiveRunner;
  return R ? R->groupLocalBlock(bytes, align) : nullptr;
}

extern "C" void *slmc_cpu_group_local_site(size_t bytes, size_t align, uint32_t site) {
  GroupRunner *R = ActiveRunner;
  return R ? R->groupLocalSite(bytes, align, site) : nullptr;
}

extern "C" int slmc_cpu_work_item_loops(const char *why_not) {
  LoopsDeclined = why_not;
  return 0;
}

extern "C" void slmc_cpu_fixed_group_shape(uint32_t, uint32_t, uint32_t) {}

extern "C" int slmc_cpu_isa_level(void) {
  IsaAsked = true;
  return IsaLevel;
}

extern "C" void *slmc_cpu_work_item_storage(size_t bytes, size_t align) {
  return ActiveRunner ? ActiveRunner->workItemStorage(bytes, align) : nullptr;
}

extern "C" void *slmc_cpu_out_of_bounds_sink(size_t bytes) {
  // Per thread, so a work-item's zeroes are never another thread's write;
  // the work-item that asked uses it before the next one asks. Grown to
  // the largest element asked for, never freed (kept for the thread).
  struct alignas(64) Block {
    unsigned char Bytes[64];
  };
  thread_local std::vector<Block> Sink;
  size_t Blocks = (bytes + sizeof(Block) - 1) / sizeof(Block);
  if (Blocks == 0)
    Blocks = 1;
  if (Sink.size() < Blocks)
    Sink.resize(Blocks);
  std::memset(Sink.data(), 0, Blocks * sizeof(Block));
  return Sink.data();
}

extern "C" void slmc_cpu_barrier(void) {
  // Outside fibers (a one-item group, or no kernel at all) there is nobody
  // to wait for.
  if (GroupRunner *R = FiberRunner)
    R->barrier();
}

extern "C" void slmc_cpu_sub_group_barrier(void) {
  GroupRunner *R = FiberRunner;
  if (R && R->subGroupSize() > 1)
    R->barrier(WorkItem::AtSubGroupBarrier);
}

extern "C" uint32_t slmc_cpu_sub_group_shuffle(uint32_t value, uint32_t from_lane) {
  GroupRunner *R = FiberRunner;
  if (!R || R->subGroupSize() <= 1)
    return value; // one work-item per sub-group (or per group)
  return R->subGroupShuffle(value, from_lane);
}

// ---- SLMC_CHECK hooks --------------------------------------------------------
// Called by kernels built with slmc++ -fslmc-check (lib/Instrument); each
// returns at once unless the check is on for the group running here.

extern "C" void slmc_check_enter(void) {
  if (CheckMode)
    if (GroupRunner *R = ActiveRunner)
      R->markInstrumented();
}

extern "C" void slmc_check_barrier(const char *where) {
  if (CheckMode)
    if (GroupRunner *R = FiberRunner)
      R->barrierSite(where);
}

extern "C" void slmc_check_region(const void *base, uint64_t bytes, const char *name) {
  if (GroupRunner *R = RaceRunner)
    R->raceRange(base, size_t(bytes), name);
}

extern "C" void slmc_check_load(const void *address, uint64_t bytes, const char *where) {
  if (GroupRunner *R = RaceRunner)
    R->raceAccess(address, size_t(bytes), false, where, nullptr);
}

extern "C" void slmc_check_store(void *address, uint64_t bytes, const char *where) {
  if (GroupRunner *R = RaceRunner)
    R->raceAccess(address, size_t(bytes), true, where, nullptr);
}

extern "C" void slmc_check_store_value(void *address, uint64_t bytes, uint64_t value,
                                       const char *where) {
  if (GroupRunner *R = RaceRunner)
    R->raceAccess(address, size_t(bytes), true, where, &value);
}

extern "C" void slmc_check_bounds(const void *, uint64_t bytes, uint64_t offset,
                                  uint64_t size, int32_t kind, const char *name,
                                  const char *where) {
  if (GroupRunner *R = ActiveRunner)
    R->boundsAccess(bytes, offset, size, kind, name, where);
}

extern "C" void slmc_check_atomic(void *address, uint64_t bytes, const char *where) {
  if (GroupRunner *R = RaceRunner)
    R->raceAccess(address, size_t(bytes), true, where, nullptr, /*IsAtomic=*/true);
}
