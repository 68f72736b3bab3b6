//===- FaultInjectionTest.cpp - Every Level Zero call failing in turn -----===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The fault-injection matrix of the Level Zero backend (see FaultInjection.h
// and docs/testing.md): the recording driver fails the N-th call of one
// entry point, for every call the workload makes, and each row below says
// what the runtime must make of it.
//
//===----------------------------------------------------------------------===//

#include "FaultInjection.h"

#include <gtest/gtest.h>

namespace {

using namespace slmc::fault;

const FakeDriver &driver() {
  // The workload's kernel takes three arguments. The CUDA driver is kept out
  // so that a Level Zero backend that cannot be created falls back to the
  // CPU, whatever the machine has.
  setenv("SLMC_ZE_KERNELS", "fault_copy:3:0", 1);
  setenv("SLMC_CUDA_DRIVER", "libslmc-no-such-cuda-driver.so.1", 1);
  static const FakeDriver F{SLMC_BACKEND_LEVEL_ZERO, "SLMC_ZE_FAIL",
                            SLMC_ZE_RECORDING_DRIVER, "slmcFakeZeCalls",
                            "slmcFakeZeLiveObjects"};
  return F;
}

constexpr slmc_status Backend = SLMC_ERROR_BACKEND;
constexpr slmc_status LaunchFailure = SLMC_ERROR_LAUNCH_FAILURE;

// Calls made only while the backend is created need no status: failing any
// of them must make the runtime fall back to the CPU (checked by occurrence).
const CallRow Matrix[] = {
    {"zeInit", Outcome::Reported, {}, "backend creation"},
    {"zeDriverGet", Outcome::Reported, {}, "backend creation"},
    {"zeDeviceGet", Outcome::Reported, {}, "backend creation"},
    {"zeDeviceGetProperties", Outcome::Reported, {}, "backend creation"},
    {"zeDeviceGetComputeProperties", Outcome::Reported, {}, "backend creation"},
    {"zeDeviceGetModuleProperties", Outcome::Reported, {}, "backend creation"},
    {"zeDeviceGetMemoryProperties", Outcome::Reported, {}, "backend creation"},
    {"zeDeviceGetCommandQueueGroupProperties", Outcome::Reported, {},
     "backend creation"},
    {"zeContextCreate", Outcome::Reported, {}, "backend creation"},
    {"zeCommandQueueCreate", Outcome::Reported, {}, "backend creation"},
    {"zeCommandListCreate", Outcome::Reported, {}, "backend creation"},
    {"zeMemAllocDevice", Outcome::Reported, {Backend}, "allocation fails"},
    {"zeMemAllocShared", Outcome::Reported, {Backend}, "allocation fails"},
    {"zeMemGetAllocProperties", Outcome::Reported, {Backend},
     "memory type unknown: the copy, fill or free is refused, never guessed"},
    {"zeMemFree", Outcome::Reported, {Backend}, "the memory stays allocated"},
    {"zeCommandListAppendMemoryCopy", Outcome::Reported, {Backend}, ""},
    {"zeCommandListAppendMemoryFill", Outcome::Reported, {Backend}, ""},
    {"zeCommandListAppendLaunchKernel", Outcome::Reported, {LaunchFailure}, ""},
    {"zeCommandListClose", Outcome::Reported, {Backend}, ""},
    {"zeCommandListReset", Outcome::Reported, {Backend},
     "the list is reset again before its next use"},
    {"zeCommandQueueExecuteCommandLists", Outcome::Reported, {LaunchFailure},
     ""},
    {"zeCommandQueueSynchronize", Outcome::Reported, {LaunchFailure},
     "the work in flight is reported failed"},
    {"zeModuleCreate", Outcome::Reported, {Backend},
     "not the image's fault: not cached, the next launch builds again"},
    {"zeModuleBuildLogDestroy", Outcome::Ignored, {},
     "the module is fine; the log the driver refused to free stays",
     "buildlogs=1"},
    {"zeKernelCreate", Outcome::Reported, {SLMC_ERROR_KERNEL_NOT_FOUND}, ""},
    {"zeKernelSetIndirectAccess", Outcome::Reported, {Backend},
     "the kernel is destroyed, not cached"},
    {"zeKernelGetProperties", Outcome::Reported, {Backend},
     "the kernel is destroyed, not cached"},
    {"zeKernelSetGroupSize", Outcome::Reported, {Backend}, ""},
    {"zeKernelSetArgumentValue", Outcome::Reported, {Backend}, ""},
    {"zeModuleBuildLogGetString", Outcome::NotReached, {},
     "only after a failed build"},
    {"zeKernelDestroy", Outcome::NotReached, {}, "error paths and teardown"},
    {"zeModuleDestroy", Outcome::NotReached, {}, "teardown"},
    {"zeCommandListDestroy", Outcome::NotReached, {},
     "teardown, failed creation"},
    {"zeCommandQueueDestroy", Outcome::NotReached, {},
     "teardown, failed creation"},
    {"zeContextDestroy", Outcome::NotReached, {}, "teardown, failed creation"},
};

class LevelZeroFault : public testing::TestWithParam<CallRow> {};

} // namespace

namespace slmc::fault {
void PrintTo(const CallRow &Row, std::ostream *OS) { *OS << Row.Call; }
} // namespace slmc::fault

namespace {

TEST_P(LevelZeroFault, EveryOccurrence) { checkRow(driver(), GetParam()); }

INSTANTIATE_TEST_SUITE_P(Matrix, LevelZeroFault, testing::ValuesIn(Matrix),
                         [](const testing::TestParamInfo<CallRow> &I) {
                           return std::string(I.param.Call);
                         });

TEST(LevelZeroFaultMatrix, CoversEveryCall) { checkMatrixCoversEveryCall(driver(), Matrix); }

TEST(LevelZeroFaultMatrix, ModuleOutOfMemoryIsNotCached) {
  checkModuleOutOfMemoryIsNotCached(driver(), "zeModuleCreate=0x70000003@1",
                                    "ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY");
}

} // namespace
