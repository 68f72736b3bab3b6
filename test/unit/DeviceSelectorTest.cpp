//===- DeviceSelectorTest.cpp - ONEAPI_DEVICE_SELECTOR parsing ------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "DeviceSelector.h"

#include <gtest/gtest.h>

using namespace slmc::rt;

namespace {

unsigned mask(std::initializer_list<slmc_backend> Bs) {
  unsigned M = 0;
  for (slmc_backend B : Bs)
    M |= 1u << B;
  return M;
}

unsigned allowed(const char *Selector) {
  BackendFilter F = parseDeviceSelector(Selector);
  EXPECT_EQ(F.Error, "") << Selector;
  return F.Allowed;
}

std::string error(const char *Selector) {
  BackendFilter F = parseDeviceSelector(Selector);
  EXPECT_EQ(F.Allowed, 0u) << Selector;
  return F.Error;
}

const unsigned L0 = mask({SLMC_BACKEND_LEVEL_ZERO});
const unsigned Cuda = mask({SLMC_BACKEND_CUDA});
const unsigned Cpu = mask({SLMC_BACKEND_CPU});

TEST(DeviceSelector, BackendsAndDeviceKinds) {
  EXPECT_EQ(allowed("level_zero:gpu"), L0);
  EXPECT_EQ(allowed("level_zero:*"), L0);
  EXPECT_EQ(allowed("level_zero:0"), L0);
  EXPECT_EQ(allowed("level_zero:0.1"), L0); // sub-device of device 0
  EXPECT_EQ(allowed("cuda:*"), Cuda);
  EXPECT_EQ(allowed("cuda:gpu"), Cuda);
  EXPECT_EQ(allowed("*:cpu"), Cpu);
  EXPECT_EQ(allowed("opencl:cpu"), Cpu);
  EXPECT_EQ(allowed("native_cpu:*"), Cpu);
  EXPECT_EQ(allowed("opencl:gpu"), L0); // Intel's GPU, through Level Zero
  EXPECT_EQ(allowed("*:gpu"), L0 | Cuda);
  EXPECT_EQ(allowed("*:*"), L0 | Cuda | Cpu);
}

TEST(DeviceSelector, ListsAndExclusions) {
  EXPECT_EQ(allowed("cuda:gpu;*:cpu"), Cuda | Cpu);
  EXPECT_EQ(allowed("level_zero:gpu,cpu"), L0); // Level Zero has no CPU
  EXPECT_EQ(allowed("*:gpu,cpu"), L0 | Cuda | Cpu);
  EXPECT_EQ(allowed("!cuda:*"), L0 | Cpu);      // only exclusions: all but
  EXPECT_EQ(allowed("*:*;!level_zero:*"), Cuda | Cpu);
  EXPECT_EQ(allowed("!*:cpu;*:*"), L0 | Cuda);
  EXPECT_EQ(allowed("cuda:*;"), Cuda);          // empty terms are ignored
}

TEST(DeviceSelector, MalformedOrEmpty) {
  EXPECT_NE(error("gpu").find("'gpu' is not backend:devices"), std::string::npos);
  EXPECT_NE(error("vulkan:gpu").find("unknown backend 'vulkan'"), std::string::npos);
  EXPECT_NE(error("cuda:tpu").find("unknown device 'tpu'"), std::string::npos);
  EXPECT_NE(error("hip:gpu").find("selects no device slmc can run on"), std::string::npos);
  EXPECT_NE(error("*:fpga").find("selects no device"), std::string::npos);
  EXPECT_NE(error("*:*;!*:*").find("selects no device"), std::string::npos);
  // The message names the variable and the whole value.
  EXPECT_EQ(error("cuda:tpu").rfind("ONEAPI_DEVICE_SELECTOR='cuda:tpu': ", 0), 0u);
}

} // namespace
