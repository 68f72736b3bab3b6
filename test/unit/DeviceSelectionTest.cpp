//===- DeviceSelectionTest.cpp - SLMC_DEVICE and friends ------------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The runtime reads its environment once, when first used, so every scenario
// needs a fresh process: ctest runs each test below on its own with the
// environment it names (test/unit/CMakeLists.txt). Run by hand without that
// environment, a scenario skips itself.
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

using namespace slmc::test;

namespace {

std::string env(const char *Name) {
  const char *V = std::getenv(Name);
  return V ? V : "<unset>";
}

#define REQUIRE_ENV(Name, Value)                                               \
  do {                                                                         \
    if (env(Name) != (Value))                                                  \
      GTEST_SKIP() << "needs " << Name << "=" << (Value)                       \
                   << " in a fresh process (run it through ctest)";            \
  } while (0)

std::string lastError() { return slmc_last_error(); }

/// Captures what the runtime writes to stderr while `F` runs.
template <class Fn> std::string captureStderr(Fn F) {
  std::fflush(stderr);
  FILE *Tmp = std::tmpfile();
  if (!Tmp)
    return "<no tmpfile>";
  int Saved = dup(2);
  dup2(fileno(Tmp), 2);
  F();
  std::fflush(stderr);
  dup2(Saved, 2);
  close(Saved);
  std::string Out;
  std::rewind(Tmp);
  char Buf[512];
  size_t N;
  while ((N = std::fread(Buf, 1, sizeof Buf, Tmp)) > 0)
    Out.append(Buf, N);
  std::fclose(Tmp);
  return Out;
}

// Sums 0..N-1 in one group of N work-items, with barriers: a small end-to-end
// check that whatever backend was chosen runs kernels correctly.
void sumKernel(void **Args) {
  static thread_local uint64_t Local[256];
  const slmc_cpu_item &I = *slmc_cpu_current_item();
  uint32_t L = localLinearId(I), N = volume(I.local_size);
  Local[L] = L;
  slmc_cpu_barrier();
  for (uint32_t S = N / 2; S > 0; S /= 2) {
    if (L < S)
      Local[L] += Local[L + S];
    slmc_cpu_barrier();
  }
  if (L == 0)
    (*static_cast<uint64_t **>(Args[0]))[groupLinearId(I)] = Local[0];
}

const char SumHandle = 0;
void **const SumModule = registerValidKernel(&SumHandle, "sumKernel");

void expectCpuKernelRuns() {
  void *Mem = nullptr;
  ASSERT_EQ(slmc_malloc_shared(&Mem, 8 * sizeof(uint64_t)), SLMC_SUCCESS)
      << lastError();
  uint64_t *Out = static_cast<uint64_t *>(Mem);
  ASSERT_EQ(launch(&SumHandle, sumKernel, {8, 1, 1}, {256, 1, 1}, {&Out}),
            SLMC_SUCCESS)
      << lastError();
  for (int G = 0; G < 8; ++G)
    EXPECT_EQ(Out[G], 256u * 255 / 2);
  EXPECT_EQ(slmc_free(Mem), SLMC_SUCCESS);
}

slmc_backend current() {
  slmc_backend B = SLMC_BACKEND_AUTO;
  EXPECT_EQ(slmc_get_backend(&B), SLMC_SUCCESS) << lastError();
  return B;
}

TEST(DeviceSelection, EnvCpu) {
  REQUIRE_ENV("SLMC_DEVICE", "cpu");
  EXPECT_EQ(current(), SLMC_BACKEND_CPU);
  slmc_device_info Info;
  ASSERT_EQ(slmc_get_device_info(&Info), SLMC_SUCCESS);
  EXPECT_EQ(Info.backend, SLMC_BACKEND_CPU);
  unsigned Threads = std::max(1u, std::thread::hardware_concurrency());
  EXPECT_EQ(std::string(Info.name),
            "CPU fallback (" + std::to_string(Threads) +
                (Threads == 1 ? " thread)" : " threads)"));
  EXPECT_EQ(Info.compute_units, Threads);
  expectCpuKernelRuns();
}

TEST(DeviceSelection, EnvBogus) {
  REQUIRE_ENV("SLMC_DEVICE", "bogus");
  // Every call that needs a device fails the same clear way...
  slmc_backend B = SLMC_BACKEND_AUTO;
  EXPECT_EQ(slmc_get_backend(&B), SLMC_ERROR_INVALID_VALUE);
  std::string E = lastError();
  EXPECT_EQ(E.rfind("slmc: ", 0), 0u) << E;
  EXPECT_TRUE(contains(E, "SLMC_DEVICE='bogus'")) << E;
  EXPECT_TRUE(contains(E, "level_zero, cuda or cpu")) << E;
  EXPECT_EQ(E.find('\n'), std::string::npos) << E;
  void *P = nullptr;
  EXPECT_EQ(slmc_malloc_shared(&P, 16), SLMC_ERROR_INVALID_VALUE);
  EXPECT_EQ(launch(&SumHandle, sumKernel, {1, 1, 1}, {1, 1, 1}, {&P}),
            SLMC_ERROR_INVALID_VALUE);
  // ...until the program picks a backend itself.
  EXPECT_EQ(slmc_select_backend(SLMC_BACKEND_CPU), SLMC_SUCCESS) << lastError();
  EXPECT_EQ(current(), SLMC_BACKEND_CPU);
  expectCpuKernelRuns();
}

/// SLMC_DEVICE names a GPU backend: it is used when present, otherwise every
/// call reports SLMC_ERROR_NO_DEVICE with the reason.
void expectRequestedGpu(slmc_backend Kind, const char *Display) {
  if (slmc_backend_available(Kind)) {
    EXPECT_EQ(current(), Kind);
    return;
  }
  slmc_backend B = SLMC_BACKEND_AUTO;
  EXPECT_EQ(slmc_get_backend(&B), SLMC_ERROR_NO_DEVICE);
  std::string E = lastError();
  EXPECT_EQ(E.rfind(std::string("slmc: no ") + Display + " device: ", 0), 0u) << E;
  EXPECT_GT(E.size(), std::string("slmc: no  device: ").size() + strlen(Display))
      << "the reason is missing: " << E;
  EXPECT_EQ(E.find('\n'), std::string::npos) << E;
  void *P = nullptr;
  EXPECT_EQ(slmc_malloc_shared(&P, 16), SLMC_ERROR_NO_DEVICE);
  // Selecting it explicitly fails the same way and changes nothing...
  EXPECT_EQ(slmc_select_backend(Kind), SLMC_ERROR_NO_DEVICE);
  EXPECT_EQ(slmc_get_backend(&B), SLMC_ERROR_NO_DEVICE);
  // ...while selecting the CPU works.
  EXPECT_EQ(slmc_select_backend(SLMC_BACKEND_CPU), SLMC_SUCCESS) << lastError();
  EXPECT_EQ(current(), SLMC_BACKEND_CPU);
  expectCpuKernelRuns();
  // A failed selection keeps the CPU.
  EXPECT_EQ(slmc_select_backend(Kind), SLMC_ERROR_NO_DEVICE);
  EXPECT_EQ(current(), SLMC_BACKEND_CPU);
}

TEST(DeviceSelection, EnvLevelZero) {
  REQUIRE_ENV("SLMC_DEVICE", "level_zero");
  expectRequestedGpu(SLMC_BACKEND_LEVEL_ZERO, "Level Zero");
}

TEST(DeviceSelection, EnvCuda) {
  REQUIRE_ENV("SLMC_DEVICE", "cuda");
  expectRequestedGpu(SLMC_BACKEND_CUDA, "CUDA");
}

slmc_backend bestPresent() {
  for (slmc_backend K : {SLMC_BACKEND_LEVEL_ZERO, SLMC_BACKEND_CUDA})
    if (slmc_backend_available(K))
      return K;
  return SLMC_BACKEND_CPU;
}

TEST(DeviceSelection, Auto) {
  REQUIRE_ENV("SLMC_DEVICE", "<unset>");
  EXPECT_EQ(current(), bestPresent());
  EXPECT_EQ(slmc_backend_available(SLMC_BACKEND_CPU), 1);
  EXPECT_EQ(slmc_backend_available(SLMC_BACKEND_AUTO), 1);
}

TEST(DeviceSelection, EnvAuto) {
  REQUIRE_ENV("SLMC_DEVICE", "auto");
  EXPECT_EQ(current(), bestPresent());
}

TEST(DeviceSelection, SelectBeforeFirstUse) {
  REQUIRE_ENV("SLMC_DEVICE", "bogus");
  // The API wins over the environment when called first.
  EXPECT_EQ(slmc_select_backend(SLMC_BACKEND_CPU), SLMC_SUCCESS) << lastError();
  EXPECT_EQ(current(), SLMC_BACKEND_CPU);
  EXPECT_EQ(slmc_select_backend(SLMC_BACKEND_AUTO), SLMC_SUCCESS) << lastError();
  EXPECT_EQ(current(), bestPresent());
  EXPECT_EQ(slmc_select_backend(SLMC_BACKEND_CPU), SLMC_SUCCESS) << lastError();
  expectCpuKernelRuns();
}

TEST(DeviceSelection, Verbose) {
  REQUIRE_ENV("SLMC_VERBOSE", "1");
  REQUIRE_ENV("SLMC_DEVICE", "cpu");
  std::string First = captureStderr([] { current(); });
  EXPECT_TRUE(contains(First, "slmc: using cpu device: CPU fallback (")) << First;
  EXPECT_EQ(std::count(First.begin(), First.end(), '\n'), 1) << First;
  // Once: neither later calls nor re-selecting the same device print the
  // device again. The kernel's launch says how its work-items ran (a raw
  // launch passes no work-group entry), once per kernel.
  std::string Later = captureStderr([] {
    current();
    slmc_select_backend(SLMC_BACKEND_CPU);
    expectCpuKernelRuns();
    expectCpuKernelRuns();
  });
  EXPECT_FALSE(contains(Later, "using cpu device")) << Later;
  EXPECT_TRUE(contains(Later, "runs as fibers (no work-group entry)")) << Later;
  EXPECT_EQ(std::count(Later.begin(), Later.end(), '\n'), 1) << Later;
}

TEST(DeviceSelection, QuietByDefault) {
  REQUIRE_ENV("SLMC_VERBOSE", "<unset>");
  REQUIRE_ENV("SLMC_DEVICE", "cpu");
  EXPECT_EQ(captureStderr([] { expectCpuKernelRuns(); }), "");
}

// ---- CPU fallback tuning ---------------------------------------------------

// Needs a deep stack: 300 KiB of locals on every work-item, kept across a
// barrier so that all stacks of the group are live at once.
void deepStackKernel(void **Args) {
  volatile unsigned char Big[300 * 1024];
  const slmc_cpu_item &I = *slmc_cpu_current_item();
  for (size_t K = 0; K < sizeof Big; K += 512)
    Big[K] = static_cast<unsigned char>(I.local_id.x);
  slmc_cpu_barrier();
  unsigned Sum = 0;
  for (size_t K = 0; K < sizeof Big; K += 512)
    Sum += Big[K];
  (*static_cast<unsigned **>(Args[0]))[I.local_id.x] = Sum;
}

TEST(CpuTuning, EnvironmentOverrides) {
  REQUIRE_ENV("SLMC_DEVICE", "cpu");
  REQUIRE_ENV("SLMC_CPU_THREADS", "3");
  REQUIRE_ENV("SLMC_CPU_GROUP_MEMORY", "1K");
  REQUIRE_ENV("SLMC_CPU_STACK_SIZE", "512K");
  slmc_device_info Info;
  ASSERT_EQ(slmc_get_device_info(&Info), SLMC_SUCCESS) << lastError();
  EXPECT_STREQ(Info.name, "CPU fallback (3 threads)");
  EXPECT_EQ(Info.compute_units, 3u);
  EXPECT_EQ(Info.max_group_local_memory, 1024u);

  static const char Handle = 0;
  registerValidKernel(&Handle, "deepStackKernel");
  std::vector<unsigned> Out(4);
  unsigned *Ptr = Out.data();
  EXPECT_EQ(launch(&Handle, deepStackKernel, {1, 1, 1}, {4, 1, 1}, {&Ptr}, {}, 1025),
            SLMC_ERROR_RESOURCE_LIMIT);
  EXPECT_TRUE(contains(lastError(), "1025")) << lastError();
  EXPECT_TRUE(contains(lastError(), "1024")) << lastError();
  ASSERT_EQ(launch(&Handle, deepStackKernel, {1, 1, 1}, {4, 1, 1}, {&Ptr}, {}, 1024),
            SLMC_SUCCESS)
      << lastError();
  for (unsigned L = 0; L < 4; ++L)
    EXPECT_EQ(Out[L], L * (300 * 1024 / 512));
}

TEST(CpuTuning, SingleThread) {
  REQUIRE_ENV("SLMC_DEVICE", "cpu");
  REQUIRE_ENV("SLMC_CPU_THREADS", "1");
  slmc_device_info Info;
  ASSERT_EQ(slmc_get_device_info(&Info), SLMC_SUCCESS) << lastError();
  EXPECT_STREQ(Info.name, "CPU fallback (1 thread)");
  expectCpuKernelRuns();
}

/// SLMC_DEVICE=cpu with a malformed CPU setting: no device, and why.
void expectNoCpuDevice(const char *Why) {
  slmc_backend B = SLMC_BACKEND_AUTO;
  EXPECT_EQ(slmc_get_backend(&B), SLMC_ERROR_NO_DEVICE);
  EXPECT_TRUE(contains(lastError(), Why)) << lastError();
}

TEST(CpuTuning, MalformedSetting) {
  REQUIRE_ENV("SLMC_DEVICE", "cpu");
  REQUIRE_ENV("SLMC_CPU_THREADS", "many");
  expectNoCpuDevice("slmc: no CPU device: SLMC_CPU_THREADS='many'");
}

TEST(CpuTuning, IsaLevelCapped) {
  REQUIRE_ENV("SLMC_DEVICE", "cpu");
  REQUIRE_ENV("SLMC_CPU_ISA", "x86-64");
  slmc_device_info Info;
  ASSERT_EQ(slmc_get_device_info(&Info), SLMC_SUCCESS) << lastError();
#if defined(__x86_64__)
  // Every x86-64 host has the baseline; the cap picks it.
  EXPECT_EQ(slmc_cpu_isa_level(), 1);
#else
  EXPECT_EQ(slmc_cpu_isa_level(), 0);
#endif
  expectCpuKernelRuns();
}

TEST(CpuTuning, IsaLevelNotAboveHost) {
  REQUIRE_ENV("SLMC_DEVICE", "cpu");
  REQUIRE_ENV("SLMC_CPU_ISA", "x86-64-v4");
  slmc_device_info Info;
  ASSERT_EQ(slmc_get_device_info(&Info), SLMC_SUCCESS) << lastError();
#if defined(__x86_64__) && defined(__GNUC__)
  // Asking for more than the host has gives the host's level.
  const int Host = __builtin_cpu_supports("x86-64-v4")   ? 4
                   : __builtin_cpu_supports("x86-64-v3") ? 3
                   : __builtin_cpu_supports("x86-64-v2") ? 2
                                                         : 1;
  EXPECT_EQ(slmc_cpu_isa_level(), Host);
#endif
}

TEST(CpuTuning, IsaLevelMalformed) {
  REQUIRE_ENV("SLMC_DEVICE", "cpu");
  REQUIRE_ENV("SLMC_CPU_ISA", "avx512");
  expectNoCpuDevice("slmc: no CPU device: SLMC_CPU_ISA='avx512' is not an x86-64 level");
}

} // namespace

// ---- ONEAPI_DEVICE_SELECTOR (DPC++'s spelling) -------------------------------

TEST(DeviceSelection, OneApiSelectorCpu) {
  REQUIRE_ENV("ONEAPI_DEVICE_SELECTOR", "*:cpu");
  EXPECT_EQ(current(), SLMC_BACKEND_CPU);
  expectCpuKernelRuns();
}

TEST(DeviceSelection, OneApiSelectorGpus) {
  REQUIRE_ENV("ONEAPI_DEVICE_SELECTOR", "!native_cpu:*");
  // Everything but the CPU fallback.
  slmc_backend B = SLMC_BACKEND_AUTO;
  slmc_status S = slmc_get_backend(&B);
  if (S == SLMC_SUCCESS) {
    EXPECT_NE(B, SLMC_BACKEND_CPU);
    return;
  }
  EXPECT_EQ(S, SLMC_ERROR_NO_DEVICE);
  std::string E = lastError();
  EXPECT_TRUE(contains(E, "Level Zero: ")) << E;
  EXPECT_TRUE(contains(E, "CUDA: ")) << E;
  EXPECT_FALSE(contains(E, "CPU")) << E;
}

TEST(DeviceSelection, OneApiSelectorMalformed) {
  REQUIRE_ENV("ONEAPI_DEVICE_SELECTOR", "gpu");
  slmc_backend B = SLMC_BACKEND_AUTO;
  EXPECT_EQ(slmc_get_backend(&B), SLMC_ERROR_INVALID_VALUE);
  std::string E = lastError();
  EXPECT_TRUE(contains(E, "ONEAPI_DEVICE_SELECTOR='gpu'")) << E;
  EXPECT_EQ(E.find('\n'), std::string::npos) << E;
}

TEST(DeviceSelection, SlmcDeviceOverridesOneApiSelector) {
  REQUIRE_ENV("SLMC_DEVICE", "cpu");
  REQUIRE_ENV("ONEAPI_DEVICE_SELECTOR", "cuda:gpu");
  EXPECT_EQ(current(), SLMC_BACKEND_CPU);
}
