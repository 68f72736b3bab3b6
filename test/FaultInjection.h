//===- FaultInjection.h - Fault-injection matrix shared by the backends ---===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The fault-injection tests of the Level Zero and CUDA backends run a small
// fixed workload through the C API (register an image, allocate, copy in,
// fill, launch, copy out, synchronize, free) against a fake driver told to
// fail the N-th call of one entry point. Every scenario runs in a child
// process forked before the runtime has chosen a backend (the choice is made
// once per process), with a time limit, so that a crash or a hang is a test
// failure and not the end of the test program. The child reports what it
// saw as "key=value" lines; the parent checks them against the matrix.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_TEST_FAULT_INJECTION_H
#define SLMC_TEST_FAULT_INJECTION_H

#include "FatBinary.h"
#include "slmc/runtime.h"

#include <gtest/gtest.h>

#include <dlfcn.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace slmc::fault {

// ---- Child processes -------------------------------------------------------

struct ChildResult {
  bool TimedOut = false;
  int Signal = 0;    // the signal that ended the child, 0 if it exited
  int ExitCode = -1; // when it exited
  std::map<std::string, std::string> Report;

  bool clean() const { return !TimedOut && Signal == 0 && ExitCode == 0; }
  std::string get(const std::string &Key) const {
    auto It = Report.find(Key);
    return It == Report.end() ? std::string() : It->second;
  }
  std::string describe() const {
    if (TimedOut)
      return "timed out (killed)";
    if (Signal)
      return "killed by signal " + std::to_string(Signal) + " (" +
             strsignal(Signal) + ")";
    return "exit code " + std::to_string(ExitCode);
  }
};

using Report = std::vector<std::pair<std::string, std::string>>;

/// Runs `Body` in a forked child and collects the report it returns; the
/// child is killed after `TimeoutMs`.
inline ChildResult runInChild(const std::function<Report()> &Body,
                              int TimeoutMs = 20000) {
  ChildResult Result;
  int Pipe[2];
  if (pipe(Pipe) != 0)
    return Result;
  pid_t Pid = fork();
  if (Pid == 0) {
    close(Pipe[0]);
    std::string Text;
    for (const auto &[K, V] : Body()) {
      std::string Flat = V; // one line per key
      for (char &C : Flat)
        if (C == '\n')
          C = '|';
      Text += K + "=" + Flat + "\n";
    }
    for (size_t Done = 0; Done < Text.size();) {
      ssize_t N = write(Pipe[1], Text.data() + Done, Text.size() - Done);
      if (N <= 0)
        break;
      Done += size_t(N);
    }
    // No exit handlers: the runtime's objects are meant to outlive main.
    _exit(0);
  }
  close(Pipe[1]);
  std::string Text;
  auto Deadline = std::chrono::steady_clock::now() +
                  std::chrono::milliseconds(TimeoutMs);
  for (;;) {
    auto Left = std::chrono::duration_cast<std::chrono::milliseconds>(
                    Deadline - std::chrono::steady_clock::now())
                    .count();
    pollfd P{Pipe[0], POLLIN, 0};
    if (Left <= 0 || poll(&P, 1, int(Left)) == 0) {
      Result.TimedOut = true;
      kill(Pid, SIGKILL);
      break;
    }
    char Buf[4096];
    ssize_t N = read(Pipe[0], Buf, sizeof(Buf));
    if (N <= 0)
      break;
    Text.append(Buf, size_t(N));
  }
  close(Pipe[0]);
  int Status = 0;
  waitpid(Pid, &Status, 0);
  if (WIFSIGNALED(Status))
    Result.Signal = WTERMSIG(Status);
  else if (WIFEXITED(Status))
    Result.ExitCode = WEXITSTATUS(Status);
  std::istringstream Lines(Text);
  for (std::string Line; std::getline(Lines, Line);)
    if (size_t Eq = Line.find('='); Eq != std::string::npos)
      Result.Report[Line.substr(0, Eq)] = Line.substr(Eq + 1);
  return Result;
}

// ---- A program with both device images ----------------------------------------
// LLVM OffloadBinary containers, as slmc++ embeds them (see the contract
// tests for the layout). Neither fake driver looks inside the images.

using Bytes = std::vector<unsigned char>;

template <class T> void put(Bytes &B, T V) {
  const auto *P = reinterpret_cast<const unsigned char *>(&V);
  B.insert(B.end(), P, P + sizeof(T));
}

inline Bytes offloadBinary(uint16_t Kind, const std::string &Triple,
                           const std::string &Arch, const std::string &Payload) {
  const uint16_t OffloadKind = 4; // HIP
  // The checksum slmc++ writes (FatBinary.h), without which no image is used.
  slmc::rt::DeviceImage Checked;
  Checked.Kind = static_cast<slmc::rt::ImageKind>(Kind);
  Checked.OffloadKind = OffloadKind;
  Checked.Strings = {{"triple", Triple}, {"arch", Arch}};
  Checked.Data = reinterpret_cast<const unsigned char *>(Payload.data());
  Checked.Size = Payload.size();
  const std::pair<std::string, std::string> Strings[] = {
      {"triple", Triple},
      {"arch", Arch},
      {slmc::rt::kChecksumKey, slmc::rt::imageChecksum(Checked)}};
  const uint64_t HeaderSize = 32, EntrySize = 40, StringTable = 72;
  const uint64_t StringData = StringTable + std::size(Strings) * 16;
  std::string Text;
  std::vector<std::pair<uint64_t, uint64_t>> Offsets;
  for (const auto &[K, V] : Strings) {
    uint64_t Key = StringData + Text.size();
    Text += K + '\0';
    Offsets.emplace_back(Key, StringData + Text.size());
    Text += V + '\0';
  }
  uint64_t ImageOffset = (StringData + Text.size() + 7) / 8 * 8;
  Bytes B = {0x10, 0xFF, 0x10, 0xAD};
  put<uint32_t>(B, 1);
  put<uint64_t>(B, ImageOffset + Payload.size());
  put<uint64_t>(B, HeaderSize);
  put<uint64_t>(B, EntrySize);
  put<uint16_t>(B, Kind);
  put<uint16_t>(B, OffloadKind);
  put<uint32_t>(B, 0);
  put<uint64_t>(B, StringTable);
  put<uint64_t>(B, std::size(Strings));
  put<uint64_t>(B, ImageOffset);
  put<uint64_t>(B, Payload.size());
  for (const auto &[K, V] : Offsets) {
    put<uint64_t>(B, K);
    put<uint64_t>(B, V);
  }
  B.insert(B.end(), Text.begin(), Text.end());
  B.resize(ImageOffset, 0);
  B.insert(B.end(), Payload.begin(), Payload.end());
  while (B.size() % 8)
    B.push_back(0);
  return B;
}

/// The kernel of the workload: fault_copy(int *dst, int *src, int n). The
/// fake drivers run nothing, so its host version does nothing either and
/// the results are the same on every backend.
inline const char *kKernelName = "fault_copy";
inline void hostKernel(void **) {}

/// Registers the program (SPIR-V and PTX images) like the code Clang emits
/// and returns the kernel handle. The runtime reads containers only inside a
/// loaded ELF segment, hence the static arena.
inline const void *registerWorkloadProgram() {
  alignas(8) static unsigned char Arena[4096];
  static char Handle;
  const uint32_t SpirvWords[] = {0x07230203u, 0x00010400u, 0, 16, 0};
  std::string Spirv(reinterpret_cast<const char *>(SpirvWords),
                    sizeof(SpirvWords));
  Bytes Container = offloadBinary(6, "spirv64-unknown-unknown", "generic",
                                  Spirv + "fault");
  Bytes Ptx = offloadBinary(5, "nvptx64-nvidia-cuda", "sm_70",
                            ".version 7.0\n.target sm_70\n"
                            ".address_size 64\n.visible .entry fault_copy()\n"
                            "{\n ret;\n}\n");
  Container.insert(Container.end(), Ptx.begin(), Ptx.end());
  put<uint64_t>(Container, 0);
  std::memcpy(Arena, Container.data(), Container.size());
  struct {
    int32_t Magic, Version;
    const void *Data;
    void *Unused;
  } Wrapper = {0x48495046, 1, Arena, nullptr};
  void **Module = __hipRegisterFatBinary(&Wrapper);
  __hipRegisterFunction(Module, &Handle, const_cast<char *>(kKernelName),
                        kKernelName, ~0u, nullptr, nullptr, nullptr, nullptr,
                        nullptr);
  return &Handle;
}

// ---- The workload ------------------------------------------------------------

constexpr size_t kWords = 64;
constexpr unsigned char kSentinel = 0xee, kFill = 0x5a;

struct WorkloadResult {
  std::string FailedStep; // empty when every step passed
  slmc_status Status = SLMC_SUCCESS;
  std::string Error;
  slmc_backend Backend = SLMC_BACKEND_AUTO;
  bool InputIntact = true;  // the user's input buffer is unchanged
  bool OutputValid = true;  // outputs hold the sentinel or the right result
  std::string CleanupError; // a free that failed after the failure
};

/// Runs the workload; stops at the first failing step, then frees what it
/// allocated (a free that failed is retried once: the caller owns the memory
/// until a free succeeds).
inline WorkloadResult runWorkload(const void *Kernel) {
  WorkloadResult R;
  int In[kWords], Out[kWords];
  unsigned char Filled[kWords];
  for (size_t I = 0; I < kWords; ++I)
    In[I] = int(I * 7 + 1);
  std::memset(Out, kSentinel, sizeof(Out));
  std::memset(Filled, kSentinel, sizeof(Filled));
  void *Device = nullptr, *Shared = nullptr;
  int N = int(kWords);

  auto step = [&](const char *Name, slmc_status S) {
    if (S == SLMC_SUCCESS || !R.FailedStep.empty())
      return S == SLMC_SUCCESS;
    R.FailedStep = Name;
    R.Status = S;
    R.Error = slmc_last_error();
    return false;
  };
  slmc_launch_params P{};
  void *Args[] = {&Device, &Shared, &N};
  size_t Sizes[] = {sizeof(void *), sizeof(void *), sizeof(int)};
  P.group_count = {2, 1, 1};
  P.group_size = {32, 1, 1};
  P.num_args = 3;
  P.args = Args;
  P.arg_sizes = Sizes;

  bool Freed = false;
  (void)(step("slmc_get_backend", slmc_get_backend(&R.Backend)) &&
         step("slmc_malloc_device",
              slmc_malloc_device(&Device, sizeof(In))) &&
         step("slmc_malloc_shared",
              slmc_malloc_shared(&Shared, sizeof(Filled))) &&
         step("slmc_memcpy(in)", slmc_memcpy(Device, In, sizeof(In))) &&
         step("slmc_memset", slmc_memset(Shared, kFill, sizeof(Filled))) &&
         step("slmc_launch", slmc_launch(Kernel, hostKernel, &P)) &&
         step("slmc_memcpy(out)", slmc_memcpy(Out, Device, sizeof(Out))) &&
         step("slmc_memcpy(shared)",
              slmc_memcpy(Filled, Shared, sizeof(Filled))) &&
         step("slmc_synchronize", slmc_synchronize()) &&
         step("slmc_free(device)", slmc_free(Device)) && (Device = nullptr, true) &&
         step("slmc_free(shared)", slmc_free(Shared)) && (Shared = nullptr, true) &&
         (Freed = true));
  auto release = [&](void *&Ptr) {
    if (Ptr && slmc_free(Ptr) != SLMC_SUCCESS && slmc_free(Ptr) != SLMC_SUCCESS)
      R.CleanupError = slmc_last_error();
    Ptr = nullptr;
  };
  if (!Freed) {
    release(Device);
    release(Shared);
  }

  for (size_t I = 0; I < kWords; ++I)
    R.InputIntact &= In[I] == int(I * 7 + 1);
  bool OutUntouched = true, OutRight = true, FillUntouched = true,
       FillRight = true;
  const unsigned char *O = reinterpret_cast<const unsigned char *>(Out);
  for (size_t I = 0; I < sizeof(Out); ++I)
    OutUntouched &= O[I] == kSentinel;
  for (size_t I = 0; I < kWords; ++I) {
    OutRight &= Out[I] == In[I];
    FillUntouched &= Filled[I] == kSentinel;
    FillRight &= Filled[I] == kFill;
  }
  R.OutputValid = (OutUntouched || OutRight) && (FillUntouched || FillRight);
  // Every output of a workload that passed must be right.
  if (R.FailedStep.empty())
    R.OutputValid = OutRight && FillRight;
  return R;
}

inline void addTo(Report &Out, const std::string &Prefix,
                  const WorkloadResult &R) {
  Out.emplace_back(Prefix + "step", R.FailedStep);
  Out.emplace_back(Prefix + "status", slmc_status_string(R.Status));
  Out.emplace_back(Prefix + "error", R.Error);
  Out.emplace_back(Prefix + "backend", slmc_backend_name(R.Backend));
  Out.emplace_back(Prefix + "input_intact", R.InputIntact ? "1" : "0");
  Out.emplace_back(Prefix + "output_valid", R.OutputValid ? "1" : "0");
  Out.emplace_back(Prefix + "cleanup_error", R.CleanupError);
}

/// "a=1,b=2" into a map.
inline std::map<std::string, uint64_t> parseCounts(const std::string &Text) {
  std::map<std::string, uint64_t> Out;
  std::istringstream Items(Text);
  for (std::string Item; std::getline(Items, Item, ',');)
    if (size_t Eq = Item.find('='); Eq != std::string::npos)
      Out[Item.substr(0, Eq)] = std::stoull(Item.substr(Eq + 1));
  return Out;
}

// ---- The fake driver and the matrix -------------------------------------------

/// How a test reaches its fake driver.
struct FakeDriver {
  slmc_backend Kind;       // the backend the fake drives
  const char *FailVariable; // "SLMC_ZE_FAIL": name@N fails the N-th call
  std::string Library;     // the path the runtime loads it from
  const char *CallsQuery;  // exported: size_t (char *, size_t), "name=count,..."
  const char *LiveQuery;   // exported: size_t (char *, size_t), live objects
};

/// What an injected failure of a call must lead to.
enum class Outcome {
  Reported,  // the failing API call returns an error naming the call
  Ignored,   // nothing to report (the runtime does without the result)
  NotReached // the workload never makes the call (teardown, error paths)
};

struct CallRow {
  const char *Call;
  Outcome Expected;
  /// Reported: the statuses the failing API call may return.
  std::vector<slmc_status> Statuses = {};
  /// Why the outcome is right; the matrix in docs/testing.md repeats it.
  const char *Why = "";
  /// Live objects that differ from the baseline's after the failure, e.g.
  /// "buildlogs=1" when the driver refused to destroy a build log: a failed
  /// destroy leaves its object, and nothing can free it but the driver.
  const char *Residue = nullptr;
};

inline std::string query(const FakeDriver &F, const char *Symbol) {
  void *Lib = dlopen(F.Library.c_str(), RTLD_NOW | RTLD_NOLOAD);
  if (!Lib)
    return "driver-not-loaded";
  auto *Fn = reinterpret_cast<size_t (*)(char *, size_t)>(dlsym(Lib, Symbol));
  std::string Text(Fn ? Fn(nullptr, 0) + 1 : 0, '\0');
  if (Fn)
    Fn(Text.data(), Text.size());
  Text.resize(strnlen(Text.c_str(), Text.size()));
  dlclose(Lib);
  return Fn ? Text : std::string("no-query");
}

/// The workload without injection: calls made while the backend is created
/// (before the first slmc_get_backend returns) and in total, and the objects
/// alive at the end.
inline Report baseline(const FakeDriver &F) {
  unsetenv(F.FailVariable);
  const void *Kernel = registerWorkloadProgram();
  slmc_backend B;
  slmc_get_backend(&B);
  Report Out;
  Out.emplace_back("init_calls", query(F, F.CallsQuery));
  addTo(Out, "first_", runWorkload(Kernel));
  Out.emplace_back("calls", query(F, F.CallsQuery));
  Out.emplace_back("live", query(F, F.LiveQuery));
  return Out;
}

/// The workload with the `Occurrence`-th call of `Call` failing, then again
/// without injection in the same process.
inline Report scenario(const FakeDriver &F, const std::string &Call,
                       uint64_t Occurrence) {
  setenv(F.FailVariable, (Call + "@" + std::to_string(Occurrence)).c_str(), 1);
  const void *Kernel = registerWorkloadProgram();
  Report Out;
  addTo(Out, "first_", runWorkload(Kernel));
  unsetenv(F.FailVariable);
  slmc_backend Current = SLMC_BACKEND_AUTO;
  slmc_get_backend(&Current);
  if (Current != F.Kind) {
    // The backend could not be created: asking for it must say why.
    slmc_status S = slmc_select_backend(F.Kind);
    Out.emplace_back("select_status", slmc_status_string(S));
    Out.emplace_back("select_error", S ? slmc_last_error() : "");
  }
  addTo(Out, "retry_", runWorkload(Kernel));
  Out.emplace_back("live", query(F, F.LiveQuery));
  return Out;
}

inline bool contains(const std::string &S, const std::string &Part) {
  return S.find(Part) != std::string::npos;
}

/// Runs every occurrence of `Row.Call` that the baseline makes and checks
/// each outcome; prints one matrix line per scenario.
inline void checkRow(const FakeDriver &F, const CallRow &Row) {
  static std::map<std::string, ChildResult> Baselines;
  auto It = Baselines.find(F.FailVariable);
  if (It == Baselines.end())
    It = Baselines.emplace(F.FailVariable, runInChild([&] { return baseline(F); }))
             .first;
  const ChildResult &Base = It->second;
  ASSERT_TRUE(Base.clean()) << "baseline: " << Base.describe();
  ASSERT_EQ(Base.get("first_step"), "") << Base.get("first_error");
  ASSERT_EQ(Base.get("first_backend"), slmc_backend_name(F.Kind));
  const uint64_t InitCalls = parseCounts(Base.get("init_calls"))[Row.Call];
  const uint64_t Calls = parseCounts(Base.get("calls"))[Row.Call];
  std::string BaseLive = Base.get("live");
  if (Row.Residue) {
    std::string Kind = std::string(Row.Residue);
    Kind.resize(Kind.find('=') + 1);
    size_t At = BaseLive.find(Kind);
    if (At != std::string::npos)
      BaseLive.replace(At, BaseLive.find_first_of(" ", At) - At, Row.Residue);
  }

  if (Row.Expected == Outcome::NotReached) {
    EXPECT_EQ(Calls, 0u) << Row.Call << " is now called by the workload: "
                         << "give it a row with its outcome";
    std::printf("[ MATRIX   ] %s: not reached\n", Row.Call);
    return;
  }
  EXPECT_GT(Calls, 0u) << Row.Call << " is no longer called by the workload";
  for (uint64_t K = 1; K <= Calls; ++K) {
    SCOPED_TRACE(std::string(Row.Call) + "@" + std::to_string(K));
    ChildResult R = runInChild([&] { return scenario(F, Row.Call, K); });
    ASSERT_TRUE(R.clean()) << R.describe();
    const std::string Error = R.get("first_error");
    EXPECT_EQ(R.get("first_input_intact"), "1");
    EXPECT_EQ(R.get("first_output_valid"), "1");
    EXPECT_EQ(R.get("first_cleanup_error"), "");
    // The runtime works again at once: on the same backend unless it could
    // not be created.
    EXPECT_EQ(R.get("retry_step"), "") << R.get("retry_error");
    EXPECT_EQ(R.get("retry_output_valid"), "1");
    const bool DuringCreation =
        K <= InitCalls && Row.Expected != Outcome::Ignored;
    if (!DuringCreation)
      EXPECT_EQ(R.get("retry_backend"), slmc_backend_name(F.Kind));
    std::string Line;
    if (DuringCreation) {
      // Backend creation failed: the runtime falls back to the CPU and says
      // why when the backend is asked for by name; nothing stays alive.
      EXPECT_EQ(R.get("first_step"), "") << Error;
      EXPECT_EQ(R.get("first_backend"), "cpu");
      EXPECT_EQ(R.get("select_status"), "SLMC_ERROR_NO_DEVICE");
      EXPECT_TRUE(contains(R.get("select_error"), Row.Call))
          << R.get("select_error");
      EXPECT_TRUE(R.get("live") == "driver-not-loaded" ||
                  R.get("live").find_first_of("123456789") == std::string::npos)
          << "leak: " << R.get("live");
      Line = "backend creation fails -> CPU fallback; selecting it: " +
             R.get("select_status");
    } else if (Row.Expected == Outcome::Ignored) {
      EXPECT_EQ(R.get("first_step"), "") << Error;
      EXPECT_EQ(R.get("first_backend"), slmc_backend_name(F.Kind));
      EXPECT_EQ(R.get("live"), BaseLive) << "leak";
      Line = "ignored, workload passes";
    } else {
      EXPECT_NE(R.get("first_step"), "") << "the failure was not reported";
      bool Allowed = false;
      for (slmc_status S : Row.Statuses)
        Allowed |= R.get("first_status") == slmc_status_string(S);
      EXPECT_TRUE(Allowed) << R.get("first_status") << ": " << Error;
      EXPECT_TRUE(contains(Error, Row.Call)) << Error;
      EXPECT_EQ(R.get("first_backend"), slmc_backend_name(F.Kind));
      EXPECT_EQ(R.get("live"), BaseLive) << "leak";
      Line = R.get("first_step") + " -> " + R.get("first_status");
    }
    std::printf("[ MATRIX   ] %s@%llu: %s; recovered: %s\n", Row.Call,
                static_cast<unsigned long long>(K), Line.c_str(),
                R.get("retry_step").empty() ? "yes" : "no");
  }
}

/// Every entry point the workload calls has a row of `Matrix`.
template <size_t N>
void checkMatrixCoversEveryCall(const FakeDriver &F, const CallRow (&Matrix)[N]) {
  ChildResult Base = runInChild([&] { return baseline(F); });
  ASSERT_TRUE(Base.clean()) << Base.describe();
  for (const auto &[Call, Count] : parseCounts(Base.get("calls"))) {
    bool Found = false;
    for (const CallRow &Row : Matrix)
      Found |= Call == Row.Call;
    EXPECT_TRUE(Found) << Call << " (" << Count << " calls) has no row";
  }
}

/// Out of memory while building a module is not the image's fault: with
/// `Injection` (the first module build failing so) the launch reports
/// SLMC_ERROR_OUT_OF_MEMORY naming `DriverError`, nothing is cached, and
/// the next launch of the same kernel succeeds.
inline void checkModuleOutOfMemoryIsNotCached(const FakeDriver &F, const char *Injection,
                                              const char *DriverError) {
  ChildResult R = runInChild([&] {
    setenv(F.FailVariable, Injection, 1);
    const void *Kernel = registerWorkloadProgram();
    Report Out;
    addTo(Out, "first_", runWorkload(Kernel));
    addTo(Out, "retry_", runWorkload(Kernel));
    return Out;
  });
  ASSERT_TRUE(R.clean()) << R.describe();
  EXPECT_EQ(R.get("first_step"), "slmc_launch");
  EXPECT_EQ(R.get("first_status"), "SLMC_ERROR_OUT_OF_MEMORY");
  EXPECT_TRUE(contains(R.get("first_error"), DriverError)) << R.get("first_error");
  EXPECT_EQ(R.get("retry_step"), "") << R.get("retry_error");
  EXPECT_EQ(R.get("retry_output_valid"), "1");
}

} // namespace slmc::fault

#endif // SLMC_TEST_FAULT_INJECTION_H
