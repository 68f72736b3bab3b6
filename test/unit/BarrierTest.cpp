//===- BarrierTest.cpp - Work-group barriers on the CPU fallback ----------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Group-local arrays are `static thread_local`, exactly as slmc/offload.h
// declares them for kernels compiled for the host.
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

using namespace slmc::test;

namespace {

class CpuBarrier : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_EQ(slmc_select_backend(SLMC_BACKEND_CPU), SLMC_SUCCESS)
        << slmc_last_error();
  }
};

uint64_t inputValue(uint64_t G) { return (G * 2654435761u) % 1000003u; }

// Tree reduction over a group of up to 1024 work-items.
void reduceKernel(void **Args) {
  static thread_local uint64_t Scratch[1024];
  const slmc_cpu_item &I = *slmc_cpu_current_item();
  auto *Out = *static_cast<uint64_t **>(Args[0]);
  const uint32_t L = localLinearId(I), N = volume(I.local_size);
  Scratch[L] = inputValue(globalLinearId(I));
  slmc_cpu_barrier();
  for (uint32_t S = N / 2; S > 0; S /= 2) {
    if (L < S)
      Scratch[L] += Scratch[L + S];
    slmc_cpu_barrier();
  }
  if (L == 0)
    Out[groupLinearId(I)] = Scratch[0];
}

void expectReduction(const void *Handle, slmc_dim3 Groups, slmc_dim3 Size) {
  const uint32_t NG = volume(Groups), N = volume(Size);
  std::vector<uint64_t> Out(NG, 0);
  uint64_t *Ptr = Out.data();
  ASSERT_EQ(launch(Handle, reduceKernel, Groups, Size, {&Ptr}), SLMC_SUCCESS)
      << slmc_last_error();
  for (uint64_t G = 0; G < NG; ++G) {
    uint64_t Expected = 0;
    for (uint64_t L = 0; L < N; ++L)
      Expected += inputValue(G * N + L);
    ASSERT_EQ(Out[G], Expected) << "group " << G;
  }
}

TEST_F(CpuBarrier, TreeReductionOverFullGroupsInParallel) {
  static const char Handle = 0;
  registerValidKernel(&Handle, "reduceKernel");
  expectReduction(&Handle, {96, 1, 1}, {1024, 1, 1});
}

TEST_F(CpuBarrier, TreeReductionRepeatedAndIn2D) {
  static const char Handle = 0;
  registerValidKernel(&Handle, "reduceKernel");
  for (int R = 0; R < 5; ++R) {
    expectReduction(&Handle, {7, 5, 3}, {32, 32, 1});
    expectReduction(&Handle, {33, 1, 1}, {2, 1, 1});
  }
}

// A 3-D group exchanges values through group-local memory.
void transposeKernel(void **Args) {
  static thread_local uint64_t Local[8 * 4 * 2];
  const slmc_cpu_item &I = *slmc_cpu_current_item();
  auto *Out = *static_cast<uint64_t **>(Args[0]);
  const uint32_t N = volume(I.local_size);
  // Index by (z, y, x) written explicitly, to exercise all three ids.
  const uint32_t L = I.local_id.x + 8 * (I.local_id.y + 4 * I.local_id.z);
  Local[L] = globalLinearId(I);
  slmc_cpu_barrier();
  const uint32_t M = N - 1 - L;
  Out[globalLinearId(I)] = Local[M];
}

TEST_F(CpuBarrier, ThreeDimensionalGroup) {
  static const char Handle = 0;
  registerValidKernel(&Handle, "transposeKernel");
  const slmc_dim3 Groups{3, 2, 2}, Size{8, 4, 2};
  const uint32_t N = volume(Size);
  std::vector<uint64_t> Out(volume(Groups) * N, ~uint64_t(0));
  uint64_t *Ptr = Out.data();
  ASSERT_EQ(launch(&Handle, transposeKernel, Groups, Size, {&Ptr}), SLMC_SUCCESS)
      << slmc_last_error();
  for (uint64_t G = 0; G < volume(Groups); ++G)
    for (uint64_t L = 0; L < N; ++L)
      ASSERT_EQ(Out[G * N + L], G * N + (N - 1 - L));
}

// Many barriers in a loop: each step reads neighbours, waits, writes, waits.
constexpr int kSteps = 40;

void stencilKernel(void **Args) {
  static thread_local uint32_t Local[256];
  const slmc_cpu_item &I = *slmc_cpu_current_item();
  auto *Out = *static_cast<uint32_t **>(Args[0]);
  const uint32_t L = localLinearId(I), N = volume(I.local_size);
  Local[L] = uint32_t(globalLinearId(I));
  slmc_cpu_barrier();
  for (int S = 0; S < kSteps; ++S) {
    uint32_t V = Local[L] * 3u + Local[(L + 1) % N] + Local[(L + N - 1) % N];
    slmc_cpu_barrier();
    Local[L] = V;
    slmc_cpu_barrier();
  }
  Out[globalLinearId(I)] = Local[L];
}

TEST_F(CpuBarrier, RepeatedBarriersInLoops) {
  static const char Handle = 0;
  registerValidKernel(&Handle, "stencilKernel");
  const slmc_dim3 Groups{24, 1, 1}, Size{256, 1, 1};
  const uint32_t N = Size.x;
  std::vector<uint32_t> Out(Groups.x * N);
  uint32_t *Ptr = Out.data();
  ASSERT_EQ(launch(&Handle, stencilKernel, Groups, Size, {&Ptr}), SLMC_SUCCESS)
      << slmc_last_error();
  for (uint32_t G = 0; G < Groups.x; ++G) {
    std::vector<uint32_t> A(N), B(N);
    for (uint32_t L = 0; L < N; ++L)
      A[L] = G * N + L;
    for (int S = 0; S < kSteps; ++S) {
      for (uint32_t L = 0; L < N; ++L)
        B[L] = A[L] * 3u + A[(L + 1) % N] + A[(L + N - 1) % N];
      A.swap(B);
    }
    for (uint32_t L = 0; L < N; ++L)
      ASSERT_EQ(Out[G * N + L], A[L]) << "group " << G << " item " << L;
  }
}

// A group of one work-item runs without a fiber; its barriers are no-ops.
void singleItemKernel(void **Args) {
  static thread_local int Local;
  const slmc_cpu_item &I = *slmc_cpu_current_item();
  Local = int(groupLinearId(I));
  slmc_cpu_barrier();
  slmc_cpu_barrier();
  (*static_cast<int **>(Args[0]))[groupLinearId(I)] = Local + 1;
}

TEST_F(CpuBarrier, SingleItemGroups) {
  static const char Handle = 0;
  registerValidKernel(&Handle, "singleItemKernel");
  std::vector<int> Out(500);
  int *Ptr = Out.data();
  ASSERT_EQ(launch(&Handle, singleItemKernel, {500, 1, 1}, {1, 1, 1}, {&Ptr}),
            SLMC_SUCCESS)
      << slmc_last_error();
  for (int G = 0; G < 500; ++G)
    ASSERT_EQ(Out[G], G + 1);
}

TEST(CpuBarrierOutsideKernel, IsHarmless) {
  EXPECT_EQ(slmc_cpu_current_item(), nullptr);
  slmc_cpu_barrier(); // no group to wait for: returns
  EXPECT_EQ(slmc_cpu_current_item(), nullptr);
}

// ---- Divergence ------------------------------------------------------------

// Odd work-items return before the barrier.
void oddSkipKernel(void **) {
  const slmc_cpu_item &I = *slmc_cpu_current_item();
  if (I.local_id.x % 2)
    return;
  slmc_cpu_barrier();
}

// Only the last work-item of group 5 skips the barrier, after the others
// already wait at it.
void lastSkipsInGroup5(void **) {
  const slmc_cpu_item &I = *slmc_cpu_current_item();
  if (I.group_id.x == 5 && I.local_id.x == I.local_size.x - 1)
    return;
  slmc_cpu_barrier();
}

// Work-item 0 leaves the loop early, after several complete barriers.
void lateExitKernel(void **) {
  const slmc_cpu_item &I = *slmc_cpu_current_item();
  for (int S = 0; S < 10; ++S) {
    if (I.local_id.x == 0 && S == 3)
      return;
    slmc_cpu_barrier();
  }
}

/// `Group` is the diverging group, or null when every group diverges (then
/// the first to fail stops the launch, so any of them may be named).
void expectDivergence(slmc_cpu_kernel_fn K, slmc_dim3 Groups, slmc_dim3 Size,
                      const char *Group) {
  static const char Handle = 0;
  static void **M = registerValidKernel(&Handle, "divergentKernel");
  (void)M;
  ASSERT_EQ(launch(&Handle, K, Groups, Size), SLMC_ERROR_BARRIER_DIVERGENCE);
  std::string E = slmc_last_error();
  EXPECT_TRUE(contains(E, "barrier divergence")) << E;
  if (Group)
    EXPECT_TRUE(contains(E, std::string("work-group ") + Group)) << E;
  else
    EXPECT_TRUE(contains(E, "work-group (")) << E;
  EXPECT_TRUE(contains(E, "divergentKernel")) << E;
}

TEST_F(CpuBarrier, DivergenceIsDetected) {
  expectDivergence(oddSkipKernel, {1, 1, 1}, {64, 1, 1}, "(0,0,0)");
  expectDivergence(oddSkipKernel, {1, 1, 1}, {2, 1, 1}, "(0,0,0)");
  expectDivergence(lastSkipsInGroup5, {16, 1, 1}, {64, 1, 1}, "(5,0,0)");
  expectDivergence(lateExitKernel, {1, 2, 1}, {100, 1, 1}, nullptr);
  expectDivergence(lateExitKernel, {1, 1, 1}, {100, 1, 1}, "(0,0,0)");
}

TEST_F(CpuBarrier, RuntimeWorksAfterDivergence) {
  static const char Handle = 0;
  registerValidKernel(&Handle, "reduceKernel");
  for (int R = 0; R < 3; ++R) {
    expectDivergence(oddSkipKernel, {40, 1, 1}, {1024, 1, 1}, nullptr);
    expectReduction(&Handle, {40, 1, 1}, {1024, 1, 1});
  }
}

// ---- Exceptions ------------------------------------------------------------

void throwingKernel(void **) {
  const slmc_cpu_item &I = *slmc_cpu_current_item();
  slmc_cpu_barrier();
  if (I.group_id.x == 2 && I.local_id.x == 3)
    throw std::runtime_error("boom 42");
  slmc_cpu_barrier();
}

void throwingAloneKernel(void **) {
  if (slmc_cpu_current_item()->group_id.x == 7)
    throw std::out_of_range("index 7 out of range");
}

void throwingIntKernel(void **) { throw 5; }

TEST_F(CpuBarrier, ExceptionsStopTheLaunch) {
  static const char Handle = 0;
  registerValidKernel(&Handle, "throwingKernel");
  ASSERT_EQ(launch(&Handle, throwingKernel, {4, 1, 1}, {16, 1, 1}),
            SLMC_ERROR_LAUNCH_FAILURE);
  std::string E = slmc_last_error();
  EXPECT_TRUE(contains(E, "boom 42")) << E;
  EXPECT_TRUE(contains(E, "work-group (2,0,0)")) << E;
  EXPECT_TRUE(contains(E, "work-item (3,0,0)")) << E;

  ASSERT_EQ(launch(&Handle, throwingAloneKernel, {10, 1, 1}, {1, 1, 1}),
            SLMC_ERROR_LAUNCH_FAILURE);
  EXPECT_TRUE(contains(slmc_last_error(), "index 7 out of range")) << slmc_last_error();

  ASSERT_EQ(launch(&Handle, throwingIntKernel, {1, 1, 1}, {4, 1, 1}),
            SLMC_ERROR_LAUNCH_FAILURE);
  EXPECT_TRUE(contains(slmc_last_error(), "not derived from std::exception"))
      << slmc_last_error();

  static const char Reduce = 0;
  registerValidKernel(&Reduce, "reduceKernel");
  expectReduction(&Reduce, {8, 1, 1}, {512, 1, 1});
}

// ---- Sub-groups --------------------------------------------------------------

// Each work-item reads its sub-group neighbours' ids through exchanges (a
// rotation by one and a broadcast of lane 0), over several rounds with a
// sub-group barrier between; the last sub-group of a group may be partial.
void subGroupKernel(void **Args) {
  const slmc_cpu_item &I = *slmc_cpu_current_item();
  auto *Out = *static_cast<uint32_t **>(Args[0]);
  const uint32_t S = I.sub_group_size, L = localLinearId(I), N = volume(I.local_size);
  const uint32_t First = L / S * S, Size = std::min(S, N - First), Lane = L - First;
  uint32_t V = L, Sum = 0;
  for (int Round = 0; Round < 3; ++Round) {
    V = slmc_cpu_sub_group_shuffle(V, (Lane + 1) % Size);
    Sum += slmc_cpu_sub_group_shuffle(V, 0);
    slmc_cpu_sub_group_barrier();
  }
  Out[globalLinearId(I)] = V * 100000 + Sum;
}

TEST_F(CpuBarrier, SubGroupExchanges) {
  static const char Handle = 0;
  registerValidKernel(&Handle, "subGroupKernel");
  for (uint32_t S : {1u, 2u, 8u, 32u, 64u}) {
    const slmc_dim3 Groups{5, 1, 1}, Size{48, 1, 1};
    const uint32_t N = Size.x;
    std::vector<uint32_t> Out(Groups.x * N, ~0u);
    uint32_t *Ptr = Out.data();
    ASSERT_EQ(launch(&Handle, subGroupKernel, Groups, Size, {&Ptr}, {}, 0, S), SLMC_SUCCESS)
        << slmc_last_error();
    for (uint32_t L = 0; L < N; ++L) {
      const uint32_t First = L / S * S, Size = std::min(S, N - First);
      // After r rotations lane l holds the id of lane (l + r) % size; lane 0
      // holds that of lane r % size.
      uint32_t Sum = 0;
      for (uint32_t R = 1; R <= 3; ++R)
        Sum += First + R % Size;
      const uint32_t V = First + (L - First + 3) % Size;
      for (uint32_t G = 0; G < Groups.x; ++G)
        ASSERT_EQ(Out[G * N + L], V * 100000 + Sum) << "size " << S << " item " << L;
    }
  }
}

void subGroupDivergentKernel(void **) {
  const slmc_cpu_item &I = *slmc_cpu_current_item();
  if (localLinearId(I) == 5)
    return; // leaves its sub-group waiting
  slmc_cpu_sub_group_shuffle(1, 0);
}

void subGroupMixedKernel(void **) {
  const slmc_cpu_item &I = *slmc_cpu_current_item();
  if (localLinearId(I) % 8 == 2)
    slmc_cpu_barrier(); // while the rest of its sub-group exchanges
  else
    slmc_cpu_sub_group_shuffle(1, 0);
}

// Group 0 is the last to diverge: it starts with the others but waits first.
void slowFirstGroupDivergentKernel(void **Args) {
  const slmc_cpu_item &I = *slmc_cpu_current_item();
  if (I.group_id.x == 0 && localLinearId(I) == 0)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  subGroupDivergentKernel(Args);
}

// Every group fails, on four threads that race for them, group 0 last: the
// report is still the lowest group's, the same on every run and machine.
TEST_F(CpuBarrier, TheLowestFailingGroupIsReported) {
  static const char Handle = 0;
  registerValidKernel(&Handle, "slowFirstGroupDivergentKernel");
  for (int Run = 0; Run < 10; ++Run) {
    ASSERT_EQ(launch(&Handle, slowFirstGroupDivergentKernel, {64, 1, 1}, {16, 1, 1}, {}, {}, 0, 8),
              SLMC_ERROR_BARRIER_DIVERGENCE);
    std::string E = slmc_last_error();
    ASSERT_TRUE(contains(E, "of work-group (0,0,0)")) << "run " << Run << ": " << E;
  }
}

TEST_F(CpuBarrier, SubGroupDivergenceIsReported) {
  static const char Handle = 0;
  registerValidKernel(&Handle, "subGroupDivergentKernel");
  ASSERT_EQ(launch(&Handle, subGroupDivergentKernel, {2, 1, 1}, {16, 1, 1}, {}, {}, 0, 8),
            SLMC_ERROR_BARRIER_DIVERGENCE);
  std::string E = slmc_last_error();
  // Both groups diverge, on two threads: the lower one is named.
  EXPECT_TRUE(contains(E, "sub-group divergence in sub-group 0 of work-group (0,0,0)")) << E;
  EXPECT_TRUE(contains(E, "7 of 8 work-items wait at a sub-group barrier or exchange while 1 returned"))
      << E;
  ASSERT_EQ(launch(&Handle, subGroupMixedKernel, {1, 1, 1}, {16, 1, 1}, {}, {}, 0, 8),
            SLMC_ERROR_BARRIER_DIVERGENCE);
  E = slmc_last_error();
  EXPECT_TRUE(contains(E, "while 1 wait at a work-group barrier")) << E;
  // Sub-groups of one work-item never wait.
  ASSERT_EQ(launch(&Handle, subGroupDivergentKernel, {2, 1, 1}, {16, 1, 1}), SLMC_SUCCESS)
      << slmc_last_error();
}

TEST_F(CpuBarrier, UnsupportedSubGroupSizeFailsTheLaunch) {
  static const char Handle = 0;
  registerValidKernel(&Handle, "subGroupKernel");
  slmc_device_info Info{};
  ASSERT_EQ(slmc_get_device_info(&Info), SLMC_SUCCESS);
  ASSERT_GE(Info.num_sub_group_sizes, 1u);
  EXPECT_EQ(Info.sub_group_sizes[0], 1u);
  std::vector<uint32_t> Out(16);
  uint32_t *Ptr = Out.data();
  ASSERT_EQ(launch(&Handle, subGroupKernel, {1, 1, 1}, {16, 1, 1}, {&Ptr}, {}, 0, 3),
            SLMC_ERROR_UNSUPPORTED);
  std::string E = slmc_last_error();
  EXPECT_TRUE(contains(E, "requires sub-group size 3")) << E;
  EXPECT_TRUE(contains(E, "its sizes: 1, 2, 4, 8, 16, 32, 64")) << E;
}

} // namespace
