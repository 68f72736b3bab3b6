//===- LaunchTest.cpp - Registration, arguments and memory on the CPU -----===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <thread>
#include <vector>

using namespace slmc::test;

namespace {

class CpuLaunch : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_EQ(slmc_select_backend(SLMC_BACKEND_CPU), SLMC_SUCCESS)
        << slmc_last_error();
  }
};

// ---- A kernel registered from a static constructor, as compiled programs
// do it (Clang's module constructor runs before main).
struct Pair {
  int16_t A;
  int64_t B;
};

void argsKernel(void **Args) {
  const slmc_cpu_item &I = *slmc_cpu_current_item();
  int32_t X = *static_cast<int32_t *>(Args[0]);
  double Y = *static_cast<double *>(Args[1]);
  Pair P = *static_cast<Pair *>(Args[2]);
  uint8_t Z = *static_cast<uint8_t *>(Args[3]);
  int64_t *Out = *static_cast<int64_t **>(Args[4]);
  uint64_t G = globalLinearId(I);
  Out[G] = X + int64_t(Y) + P.A + P.B + Z + int64_t(G);
}

const char ArgsKernelHandle = 0;
void **const ArgsModule = registerValidKernel(&ArgsKernelHandle, "_Z10argsKernelv");

TEST_F(CpuLaunch, ArgumentsReachEveryWorkItem) {
  ASSERT_NE(ArgsModule, nullptr);
  const slmc_dim3 Groups{3, 2, 2}, Size{4, 3, 2};
  const uint64_t N = uint64_t(volume(Groups)) * volume(Size);
  std::vector<int64_t> Out(N, -1);
  int32_t X = -7;
  double Y = 1000.75;
  Pair P{12, int64_t(1) << 40};
  uint8_t Z = 200;
  int64_t *OutPtr = Out.data();
  ASSERT_EQ(launch(&ArgsKernelHandle, argsKernel, Groups, Size,
                   {&X, &Y, &P, &Z, &OutPtr},
                   {sizeof X, sizeof Y, sizeof P, sizeof Z, sizeof OutPtr}),
            SLMC_SUCCESS)
      << slmc_last_error();
  for (uint64_t G = 0; G < N; ++G)
    ASSERT_EQ(Out[G], -7 + 1000 + 12 + (int64_t(1) << 40) + 200 + int64_t(G))
        << "work-item " << G;
}

// Records what every work-item sees of itself.
void itemKernel(void **Args) {
  const slmc_cpu_item *I = slmc_cpu_current_item();
  auto *Out = *static_cast<slmc_cpu_item **>(Args[0]);
  Out[globalLinearId(*I)] = *I;
}

TEST_F(CpuLaunch, WorkItemContextIn3D) {
  static const char Handle = 0;
  registerValidKernel(&Handle, "itemKernel");
  const slmc_dim3 Groups{2, 3, 4}, Size{5, 2, 3};
  std::vector<slmc_cpu_item> Out(volume(Groups) * volume(Size));
  slmc_cpu_item *Ptr = Out.data();
  ASSERT_EQ(launch(&Handle, itemKernel, Groups, Size, {&Ptr}), SLMC_SUCCESS)
      << slmc_last_error();
  size_t K = 0;
  for (uint32_t GZ = 0; GZ < Groups.z; ++GZ)
    for (uint32_t GY = 0; GY < Groups.y; ++GY)
      for (uint32_t GX = 0; GX < Groups.x; ++GX)
        for (uint32_t LZ = 0; LZ < Size.z; ++LZ)
          for (uint32_t LY = 0; LY < Size.y; ++LY)
            for (uint32_t LX = 0; LX < Size.x; ++LX, ++K) {
              const slmc_cpu_item &I = Out[K];
              ASSERT_EQ(I.group_id.x, GX);
              ASSERT_EQ(I.group_id.y, GY);
              ASSERT_EQ(I.group_id.z, GZ);
              ASSERT_EQ(I.local_id.x, LX);
              ASSERT_EQ(I.local_id.y, LY);
              ASSERT_EQ(I.local_id.z, LZ);
              ASSERT_EQ(I.local_size.x, Size.x);
              ASSERT_EQ(I.local_size.y, Size.y);
              ASSERT_EQ(I.local_size.z, Size.z);
              ASSERT_EQ(I.group_count.x, Groups.x);
              ASSERT_EQ(I.group_count.y, Groups.y);
              ASSERT_EQ(I.group_count.z, Groups.z);
              ASSERT_EQ(I.dynamic_group_memory, nullptr);
            }
}

// Counts how often each work-item runs: exactly once, even with many small
// groups handed out dynamically to several threads.
void countKernel(void **Args) {
  auto *Counts = *static_cast<std::atomic<uint32_t> **>(Args[0]);
  Counts[globalLinearId(*slmc_cpu_current_item())].fetch_add(1);
}

TEST_F(CpuLaunch, EveryWorkItemRunsExactlyOnce) {
  static const char Handle = 0;
  registerValidKernel(&Handle, "countKernel");
  for (slmc_dim3 Size : {slmc_dim3{1, 1, 1}, slmc_dim3{3, 1, 1}, slmc_dim3{2, 2, 2}}) {
    const slmc_dim3 Groups{211, 7, 13};
    const size_t N = size_t(volume(Groups)) * volume(Size);
    std::vector<std::atomic<uint32_t>> Counts(N);
    std::atomic<uint32_t> *Ptr = Counts.data();
    ASSERT_EQ(launch(&Handle, countKernel, Groups, Size, {&Ptr}), SLMC_SUCCESS)
        << slmc_last_error();
    for (size_t I = 0; I < N; ++I)
      ASSERT_EQ(Counts[I].load(), 1u) << "work-item " << I;
  }
}

// Dynamic group memory: one block per group, 64-byte aligned, shared by the
// group's work-items and separate from other groups running concurrently.
void dynamicMemoryKernel(void **Args) {
  const slmc_cpu_item &I = *slmc_cpu_current_item();
  auto *Out = *static_cast<uint64_t **>(Args[0]);
  auto *Local = static_cast<uint64_t *>(I.dynamic_group_memory);
  uint32_t L = localLinearId(I), N = volume(I.local_size);
  if (reinterpret_cast<uintptr_t>(Local) % 64 != 0) {
    Out[globalLinearId(I)] = ~uint64_t(0);
    return;
  }
  Local[L] = groupLinearId(I) * 1000 + L;
  slmc_cpu_barrier();
  Out[globalLinearId(I)] = Local[N - 1 - L];
}

TEST_F(CpuLaunch, DynamicGroupMemory) {
  static const char Handle = 0;
  registerValidKernel(&Handle, "dynamicMemoryKernel");
  const slmc_dim3 Groups{40, 1, 1}, Size{128, 1, 1};
  std::vector<uint64_t> Out(volume(Groups) * volume(Size));
  uint64_t *Ptr = Out.data();
  ASSERT_EQ(launch(&Handle, dynamicMemoryKernel, Groups, Size, {&Ptr}, {},
                   Size.x * sizeof(uint64_t)),
            SLMC_SUCCESS)
      << slmc_last_error();
  for (uint64_t G = 0; G < Groups.x; ++G)
    for (uint64_t L = 0; L < Size.x; ++L)
      ASSERT_EQ(Out[G * Size.x + L], G * 1000 + (Size.x - 1 - L));
}

TEST_F(CpuLaunch, LargestDynamicGroupMemoryIsAccepted) {
  slmc_device_info Info;
  ASSERT_EQ(slmc_get_device_info(&Info), SLMC_SUCCESS);
  static const char Handle = 0;
  registerValidKernel(&Handle, "dynamicMemoryKernel");
  std::vector<uint64_t> Out(64);
  uint64_t *Ptr = Out.data();
  EXPECT_EQ(launch(&Handle, dynamicMemoryKernel, {1, 1, 1}, {64, 1, 1}, {&Ptr},
                   {}, Info.max_group_local_memory),
            SLMC_SUCCESS)
      << slmc_last_error();
}

// Kernels built without device images (slmc::launch passes a null handle)
// run on the CPU fallback from their host version.
void hostOnlyKernel(void **Args) {
  auto *Out = *static_cast<int **>(Args[0]);
  Out[globalLinearId(*slmc_cpu_current_item())] = 5;
}

TEST_F(CpuLaunch, HostOnlyKernelWithNullHandle) {
  std::vector<int> Out(64, 0);
  int *Ptr = Out.data();
  ASSERT_EQ(launch(nullptr, hostOnlyKernel, {4, 1, 1}, {16, 1, 1}, {&Ptr}),
            SLMC_SUCCESS)
      << slmc_last_error();
  for (int V : Out)
    EXPECT_EQ(V, 5);
  EXPECT_EQ(launch(nullptr, nullptr, {1, 1, 1}, {1, 1, 1}), SLMC_ERROR_INVALID_VALUE);
  size_t Bytes = 1;
  EXPECT_EQ(slmc_kernel_group_memory(nullptr, &Bytes), SLMC_SUCCESS);
  EXPECT_EQ(Bytes, 0u);
}

// A kernel that launches another one from a work-item: refused, and the
// outer launch is unaffected.
std::atomic<int> NestedStatus{-1};
void noopKernel(void **) {}
void nestingKernel(void **) {
  NestedStatus = launch(nullptr, noopKernel, {1, 1, 1}, {1, 1, 1});
}

TEST_F(CpuLaunch, NestedLaunchIsRefused) {
  ASSERT_EQ(launch(nullptr, nestingKernel, {1, 1, 1}, {1, 1, 1}), SLMC_SUCCESS)
      << slmc_last_error();
  EXPECT_EQ(NestedStatus.load(), SLMC_ERROR_INVALID_VALUE);
}

TEST_F(CpuLaunch, ConcurrentLaunchesFromManyThreads) {
  static const char Handle = 0;
  registerValidKernel(&Handle, "dynamicMemoryKernel");
  constexpr int kThreads = 6, kRounds = 20;
  std::atomic<int> Failures{0};
  std::vector<std::thread> Threads;
  for (int T = 0; T < kThreads; ++T)
    Threads.emplace_back([&, T] {
      const slmc_dim3 Groups{uint32_t(3 + T), 1, 1}, Size{32, 1, 1};
      for (int R = 0; R < kRounds; ++R) {
        std::vector<uint64_t> Out(volume(Groups) * volume(Size));
        uint64_t *Ptr = Out.data();
        if (launch(&Handle, dynamicMemoryKernel, Groups, Size, {&Ptr}, {},
                   Size.x * sizeof(uint64_t)) != SLMC_SUCCESS) {
          ++Failures;
          continue;
        }
        for (uint64_t G = 0; G < Groups.x; ++G)
          for (uint64_t L = 0; L < Size.x; ++L)
            if (Out[G * Size.x + L] != G * 1000 + (Size.x - 1 - L))
              ++Failures;
      }
    });
  for (std::thread &T : Threads)
    T.join();
  EXPECT_EQ(Failures.load(), 0);
}

TEST_F(CpuLaunch, UnregisteredModuleForgetsItsKernels) {
  static const char Handle = 0;
  void **M = registerValidKernel(&Handle, "noopKernel");
  EXPECT_EQ(launch(&Handle, noopKernel, {1, 1, 1}, {1, 1, 1}), SLMC_SUCCESS);
  __hipUnregisterFatBinary(M);
  EXPECT_EQ(launch(&Handle, noopKernel, {1, 1, 1}, {1, 1, 1}),
            SLMC_ERROR_KERNEL_NOT_FOUND);
  __hipUnregisterFatBinary(M); // twice: ignored
  __hipUnregisterFatBinary(nullptr);
  registerKernel(M, &Handle, "noopKernel"); // into a dead module: ignored
  EXPECT_EQ(launch(&Handle, noopKernel, {1, 1, 1}, {1, 1, 1}),
            SLMC_ERROR_KERNEL_NOT_FOUND);
}

TEST_F(CpuLaunch, KernelRegisteredByManyModules) {
  // Inline kernels are registered by every translation unit that uses them,
  // under one host address; a corrupt copy must not hide a good one.
  static const char Handle = 0;
  Bytes Bad = validContainer();
  Bad[0] = 0;
  registerKernel(registerContainer(Bad), &Handle, "shared");
  registerKernel(registerContainer(validContainer()), &Handle, "shared");
  EXPECT_EQ(launch(&Handle, noopKernel, {2, 1, 1}, {2, 1, 1}), SLMC_SUCCESS)
      << slmc_last_error();
}

TEST_F(CpuLaunch, KernelGroupMemoryOnCpuIsZero) {
  size_t Bytes = 123;
  EXPECT_EQ(slmc_kernel_group_memory(&ArgsKernelHandle, &Bytes), SLMC_SUCCESS);
  EXPECT_EQ(Bytes, 0u);
}

TEST_F(CpuLaunch, DeviceInfo) {
  slmc_device_info Info;
  ASSERT_EQ(slmc_get_device_info(&Info), SLMC_SUCCESS) << slmc_last_error();
  EXPECT_EQ(Info.backend, SLMC_BACKEND_CPU);
  EXPECT_EQ(std::string(Info.name).rfind("CPU fallback (", 0), 0u) << Info.name;
  EXPECT_EQ(Info.max_group_size, 1024u);
  EXPECT_EQ(Info.max_group_dims.x, 1024u);
  EXPECT_EQ(Info.max_group_dims.y, 1024u);
  EXPECT_EQ(Info.max_group_dims.z, 64u);
  if (!std::getenv("SLMC_CPU_GROUP_MEMORY")) {
    EXPECT_EQ(Info.max_group_local_memory, 64u * 1024);
  }
  EXPECT_GT(Info.global_memory, 0u);
  EXPECT_GE(Info.compute_units, 1u);
  slmc_backend B = SLMC_BACKEND_AUTO;
  EXPECT_EQ(slmc_get_backend(&B), SLMC_SUCCESS);
  EXPECT_EQ(B, SLMC_BACKEND_CPU);
}

TEST_F(CpuLaunch, Memory) {
  void *Shared = nullptr, *Device = nullptr;
  ASSERT_EQ(slmc_malloc_shared(&Shared, 1000), SLMC_SUCCESS);
  ASSERT_EQ(slmc_malloc_device(&Device, 1000), SLMC_SUCCESS);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(Shared) % 64, 0u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(Device) % 64, 0u);
  EXPECT_EQ(slmc_memset(Shared, 0xAB, 1000), SLMC_SUCCESS);
  EXPECT_EQ(slmc_memcpy(Device, Shared, 1000), SLMC_SUCCESS);
  std::vector<unsigned char> Host(1000, 0);
  EXPECT_EQ(slmc_memcpy(Host.data(), Device, 1000), SLMC_SUCCESS);
  for (unsigned char C : Host) {
    ASSERT_EQ(C, 0xAB);
  }
  EXPECT_EQ(slmc_synchronize(), SLMC_SUCCESS);
  EXPECT_EQ(slmc_free(Shared), SLMC_SUCCESS);
  EXPECT_EQ(slmc_free(Device), SLMC_SUCCESS);
  EXPECT_EQ(slmc_free(nullptr), SLMC_SUCCESS);
  EXPECT_EQ(slmc_memcpy(nullptr, nullptr, 0), SLMC_SUCCESS);
}

// ---- Clang's kernel-stub entry points ----------------------------------

extern "C" int hipLaunchKernel(const void *, slmc_dim3, slmc_dim3, void **,
                               size_t, void *);
extern "C" int __hipPushCallConfiguration(slmc_dim3, slmc_dim3, size_t, void *);
extern "C" int __hipPopCallConfiguration(slmc_dim3 *, slmc_dim3 *, size_t *,
                                         void **);

TEST_F(CpuLaunch, CallConfigurationStack) {
  int Stream = 0;
  ASSERT_EQ(__hipPushCallConfiguration({1, 2, 3}, {4, 5, 6}, 7, &Stream), 0);
  ASSERT_EQ(__hipPushCallConfiguration({8, 8, 8}, {9, 9, 9}, 0, nullptr), 0);
  slmc_dim3 G{}, B{};
  size_t Shared = 99;
  void *S = &G;
  ASSERT_EQ(__hipPopCallConfiguration(&G, &B, &Shared, &S), 0);
  EXPECT_EQ(G.x, 8u);
  EXPECT_EQ(B.z, 9u);
  EXPECT_EQ(Shared, 0u);
  EXPECT_EQ(S, nullptr);
  ASSERT_EQ(__hipPopCallConfiguration(&G, &B, &Shared, &S), 0);
  EXPECT_EQ(G.z, 3u);
  EXPECT_EQ(B.x, 4u);
  EXPECT_EQ(Shared, 7u);
  EXPECT_EQ(S, &Stream);
  EXPECT_NE(__hipPopCallConfiguration(&G, &B, &Shared, &S), 0);
}

TEST_F(CpuLaunch, HipLaunchKernelReportsInsteadOfLaunching) {
  int Arg = 0;
  void *Args[1] = {&Arg};
  static const char Unknown = 0;
  EXPECT_EQ(hipLaunchKernel(&Unknown, {1, 1, 1}, {1, 1, 1}, Args, 0, nullptr),
            SLMC_ERROR_KERNEL_NOT_FOUND);
  EXPECT_EQ(hipLaunchKernel(&ArgsKernelHandle, {1, 1, 1}, {1, 1, 1}, Args, 0,
                            nullptr),
            SLMC_ERROR_LAUNCH_FAILURE);
  EXPECT_TRUE(contains(slmc_last_error(), "_Z10argsKernelv")) << slmc_last_error();
  EXPECT_TRUE(contains(slmc_last_error(), "slmc_launch")) << slmc_last_error();
}

} // namespace
