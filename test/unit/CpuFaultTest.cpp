//===- CpuFaultTest.cpp - Crashing kernels on the CPU fallback ------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A kernel that faults still ends the program, but the runtime first names
// the kernel and the work-item, and says whether it was a stack overflow.
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"

#include <gtest/gtest.h>

#include <cstdlib>

using namespace slmc::test;

namespace {

// Work-item (3,0,0) of work-group (1,0,0) writes through a wild pointer.
void wildWriteKernel(void **Args) {
  const slmc_cpu_item &I = *slmc_cpu_current_item();
  int *Out = *static_cast<int **>(Args[0]);
  slmc_cpu_barrier();
  volatile int *Target = Out + localLinearId(I);
  if (I.group_id.x == 1 && I.local_id.x == 3)
    Target = reinterpret_cast<volatile int *>(uintptr_t(16));
  *Target = 1;
}

// Unbounded recursion overflows the work-item's fiber stack.
int deep(volatile int N) {
  volatile char Frame[512];
  Frame[0] = char(N);
  return N == 0 ? Frame[0] : deep(N + 1) + Frame[0];
}
void overflowKernel(void **) {
  if (slmc_cpu_current_item()->local_id.x == 2)
    (void)deep(1);
  slmc_cpu_barrier();
}

void launchWildWrite() {
  static const char Handle = 0;
  registerValidKernel(&Handle, "wildWriteKernel");
  ASSERT_EQ(slmc_select_backend(SLMC_BACKEND_CPU), SLMC_SUCCESS);
  static int Out[4 * 8];
  int *Ptr = Out;
  launch(&Handle, wildWriteKernel, {4, 1, 1}, {8, 1, 1}, {&Ptr});
}

void launchOverflow() {
  static const char Handle = 0;
  registerValidKernel(&Handle, "overflowKernel");
  setenv("SLMC_CPU_STACK_SIZE", "65536", 1);
  ASSERT_EQ(slmc_select_backend(SLMC_BACKEND_CPU), SLMC_SUCCESS);
  launch(&Handle, overflowKernel, {1, 1, 1}, {4, 1, 1});
}

TEST(CpuFaultDeathTest, WildWriteNamesKernelAndWorkItem) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(launchWildWrite(),
               "slmc: segmentation fault in kernel 'wildWriteKernel' on the CPU fallback, "
               "work-item \\(3,0,0\\) of work-group \\(1,0,0\\): an access outside the "
               "program's memory \\(an index out of bounds\\?\\) at address 0x10");
}

TEST(CpuFaultDeathTest, StackOverflowIsNamed) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(launchOverflow(),
               "slmc: segmentation fault in kernel 'overflowKernel' on the CPU fallback, "
               "work-item \\(2,0,0\\) of work-group \\(0,0,0\\): the work-item's fiber "
               "stack overflowed \\(SLMC_CPU_STACK_SIZE sets its size\\)");
}

} // namespace
