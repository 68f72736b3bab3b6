//===- WorkGroupEntryTest.cpp - The CPU fallback's work-group entries -----===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The runtime's side of the work-item loops (slmc_cpu_group_fn): what it
// passes a group entry, and what it does with each answer. The entries are
// written by hand as slmc++'s pass makes them: 1 ran the group, 0 declined
// (the launch then runs fibers), 2 diverged, and exceptions; errors are
// reported as fibers report them.
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <stdexcept>
#include <vector>

using namespace slmc::test;

namespace {

class WorkGroupEntry : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_EQ(slmc_select_backend(SLMC_BACKEND_CPU), SLMC_SUCCESS)
        << slmc_last_error();
  }
};

std::atomic<int> FiberItems{0}, GroupCalls{0};

slmc_status launchWithGroup(const void *Handle, slmc_cpu_kernel_fn Entry,
                            slmc_cpu_group_fn Group, slmc_dim3 Groups,
                            slmc_dim3 Size, std::vector<void *> Args) {
  std::vector<size_t> Sizes(Args.size(), sizeof(void *));
  slmc_launch_params P{};
  P.group_count = Groups;
  P.group_size = Size;
  P.num_args = uint32_t(Args.size());
  P.args = Args.data();
  P.arg_sizes = Sizes.data();
  P.cpu_group = Group;
  return slmc_launch(Handle, Entry, &P);
}

// Each work-item writes its global linear id; a group entry does the same
// with its own loop over the group, as the pass would.
void writeIds(void **Args) {
  const slmc_cpu_item &I = *slmc_cpu_current_item();
  auto *Out = *static_cast<uint32_t **>(Args[0]);
  Out[globalLinearId(I)] = globalLinearId(I) + 1;
  ++FiberItems;
}

int writeIdsAsLoops(void **Args) {
  ++GroupCalls;
  slmc_cpu_item I = *slmc_cpu_current_item();
  EXPECT_EQ(I.local_id.x + I.local_id.y + I.local_id.z, 0u)
      << "the group's item has local id 0";
  // Per-work-item storage, reused by the thread's next groups.
  const uint32_t N = volume(I.local_size);
  auto *Slots = static_cast<uint32_t *>(
      slmc_cpu_work_item_storage(N * sizeof(uint32_t), 64));
  EXPECT_NE(Slots, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(Slots) % 64, 0u);
  auto *Out = *static_cast<uint32_t **>(Args[0]);
  for (uint32_t Z = 0; Z < I.local_size.z; ++Z)
    for (uint32_t Y = 0; Y < I.local_size.y; ++Y)
      for (uint32_t X = 0; X < I.local_size.x; ++X) {
        I.local_id = {X, Y, Z};
        Slots[localLinearId(I)] = globalLinearId(I) + 1;
      }
  for (uint32_t L = 0; L < N; ++L)
    Out[Slots[L] - 1] = Slots[L];
  return 1;
}

int decline(void **) {
  ++GroupCalls;
  return slmc_cpu_work_item_loops("the test's entry declines");
}

// Work-items 0 and 1 of each group return at once, the others wait at a
// barrier: the entry reports divergence, fibers say who.
void earlyReturn(void **) {
  if (slmc_cpu_current_item()->local_id.x < 2)
    return;
  slmc_cpu_barrier();
}
int diverged(void **) {
  ++GroupCalls;
  return 2;
}

// Work-items at two different barriers: fibers let them meet, the loops
// cannot; the report names the group.
void twoBarriers(void **) {
  if (slmc_cpu_current_item()->local_id.x % 2)
    slmc_cpu_barrier();
  else
    slmc_cpu_barrier();
}

void throwsAtItem3(void **) {
  if (slmc_cpu_current_item()->local_id.x == 3)
    throw std::runtime_error("item 3 failed");
}
int throwsInLoops(void **) { throw std::runtime_error("the loops failed"); }
void neverThrows(void **) {}

void expectIds(const std::vector<uint32_t> &Out) {
  for (uint32_t G = 0; G < Out.size(); ++G)
    ASSERT_EQ(Out[G], G + 1) << "work-item " << G;
}

TEST_F(WorkGroupEntry, RunsEachGroupOnceWithoutFibers) {
  static const char Handle = 0;
  registerValidKernel(&Handle, "writeIds");
  std::vector<uint32_t> Out(6 * 4 * 2 * 64);
  uint32_t *P = Out.data();
  FiberItems = 0;
  GroupCalls = 0;
  ASSERT_EQ(launchWithGroup(&Handle, writeIds, writeIdsAsLoops, {6, 4, 2},
                            {16, 2, 2}, {&P}),
            SLMC_SUCCESS)
      << slmc_last_error();
  EXPECT_EQ(GroupCalls, 48);
  EXPECT_EQ(FiberItems, 0);
  expectIds(Out);
}

TEST_F(WorkGroupEntry, DecliningRunsTheLaunchOnFibers) {
  static const char Handle = 0;
  registerValidKernel(&Handle, "writeIds");
  std::vector<uint32_t> Out(8 * 32);
  uint32_t *P = Out.data();
  FiberItems = 0;
  GroupCalls = 0;
  ASSERT_EQ(
      launchWithGroup(&Handle, writeIds, decline, {8, 1, 1}, {32, 1, 1}, {&P}),
      SLMC_SUCCESS)
      << slmc_last_error();
  EXPECT_EQ(FiberItems, 8 * 32);
  // Once per thread at most: a declined entry is not asked again.
  EXPECT_GE(GroupCalls, 1);
  EXPECT_LE(GroupCalls, 8);
  expectIds(Out);
}

TEST_F(WorkGroupEntry, DivergenceIsReportedAsFibersReportIt) {
  static const char Handle = 0;
  registerValidKernel(&Handle, "earlyReturn");
  ASSERT_EQ(
      launchWithGroup(&Handle, earlyReturn, diverged, {1, 1, 1}, {8, 1, 1}, {}),
      SLMC_ERROR_BARRIER_DIVERGENCE);
  EXPECT_NE(std::strstr(slmc_last_error(),
                        "2 of 8 work-items returned while 6 wait at a barrier"),
            nullptr)
      << slmc_last_error();
}

TEST_F(WorkGroupEntry, DifferentBarriersAreDivergence) {
  static const char Handle = 0;
  registerValidKernel(&Handle, "twoBarriers");
  ASSERT_EQ(
      launchWithGroup(&Handle, twoBarriers, diverged, {3, 1, 1}, {8, 1, 1}, {}),
      SLMC_ERROR_BARRIER_DIVERGENCE);
  EXPECT_NE(std::strstr(slmc_last_error(),
                        "barrier divergence in work-group (0,0,0) of kernel "
                        "'twoBarriers': its 8 "
                        "work-items wait at different barriers"),
            nullptr)
      << slmc_last_error();
}

TEST_F(WorkGroupEntry, AnExceptionNamesTheWorkItemFromAFiberRun) {
  static const char Handle = 0;
  registerValidKernel(&Handle, "throwsAtItem3");
  ASSERT_EQ(launchWithGroup(&Handle, throwsAtItem3, throwsInLoops, {2, 1, 1},
                            {8, 1, 1}, {}),
            SLMC_ERROR_LAUNCH_FAILURE);
  EXPECT_NE(
      std::strstr(
          slmc_last_error(),
          "threw in work-item (3,0,0) of work-group (0,0,0): item 3 failed"),
      nullptr)
      << slmc_last_error();
}

TEST_F(WorkGroupEntry, AnExceptionOnlyTheLoopsThrowNamesTheGroup) {
  static const char Handle = 0;
  registerValidKernel(&Handle, "neverThrows");
  ASSERT_EQ(launchWithGroup(&Handle, neverThrows, throwsInLoops, {2, 1, 1},
                            {8, 1, 1}, {}),
            SLMC_ERROR_LAUNCH_FAILURE);
  EXPECT_NE(std::strstr(slmc_last_error(),
                        "threw in work-group (0,0,0): the loops failed"),
            nullptr)
      << slmc_last_error();
}

TEST_F(WorkGroupEntry, StorageOutsideAGroupIsNull) {
  EXPECT_EQ(slmc_cpu_work_item_storage(64, 64), nullptr);
  EXPECT_EQ(slmc_cpu_work_item_loops(nullptr), 0);
}

} // namespace
