//===- FaultInjectionTest.cpp - Every CUDA driver call failing in turn ----===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The fault-injection matrix of the CUDA backend (see FaultInjection.h and
// docs/testing.md), run against the fake driver FakeCudaDriver.cpp that
// SLMC_CUDA_DRIVER points the runtime at: no GPU is needed.
//
//===----------------------------------------------------------------------===//

#include "FaultInjection.h"

#include <gtest/gtest.h>

namespace {

using namespace slmc::fault;

const FakeDriver &driver() {
  // Level Zero is kept out so that the fake CUDA device is the best one and
  // a CUDA backend that cannot be created falls back to the CPU.
  setenv("SLMC_CUDA_DRIVER", SLMC_FAKE_CUDA_DRIVER, 1);
  setenv("ONEAPI_DEVICE_SELECTOR", "cuda:*;*:cpu", 1);
  static const FakeDriver F{SLMC_BACKEND_CUDA, "SLMC_CUDA_FAIL",
                            SLMC_FAKE_CUDA_DRIVER, "slmcFakeCuCalls",
                            "slmcFakeCuLiveObjects"};
  return F;
}

constexpr slmc_status Backend = SLMC_ERROR_BACKEND;
constexpr slmc_status LaunchFailure = SLMC_ERROR_LAUNCH_FAILURE;

// Calls made only while the backend is created need no status: failing any
// of them must make the runtime fall back to the CPU (checked by occurrence).
const CallRow Matrix[] = {
    {"cuInit", Outcome::Reported, {}, "backend creation"},
    {"cuDriverGetVersion", Outcome::Ignored, {},
     "the version only decorates messages"},
    {"cuDeviceGetCount", Outcome::Reported, {}, "backend creation"},
    {"cuDeviceGet", Outcome::Reported, {}, "backend creation"},
    {"cuDevicePrimaryCtxRetain", Outcome::Reported, {}, "backend creation"},
    {"cuDeviceGetName", Outcome::Reported, {}, "backend creation"},
    {"cuDeviceTotalMem_v2", Outcome::Reported, {}, "backend creation"},
    {"cuStreamCreate", Outcome::Reported, {}, "backend creation"},
    {"cuDeviceGetAttribute", Outcome::Reported, {Backend},
     "creation; later the managed-memory check of a shared allocation"},
    {"cuCtxSetCurrent", Outcome::Reported, {Backend},
     "every entry point makes the context current first"},
    {"cuMemAlloc_v2", Outcome::Reported, {Backend}, "allocation fails"},
    {"cuMemAllocManaged", Outcome::Reported, {Backend}, "allocation fails"},
    {"cuMemFree_v2", Outcome::Reported, {Backend}, "the memory stays allocated"},
    {"cuMemcpyAsync", Outcome::Reported, {Backend}, ""},
    {"cuMemsetD8Async", Outcome::Reported, {Backend}, ""},
    {"cuPointerGetAttribute", Outcome::Reported, {Backend},
     "memory type unknown: the fill is refused, never done on the host"},
    {"cuStreamSynchronize", Outcome::Reported, {Backend, LaunchFailure},
     "the work in flight is reported failed"},
    {"cuModuleLoadDataEx", Outcome::Reported, {Backend},
     "not the image's fault: not cached, the next launch compiles again"},
    {"cuModuleGetFunction", Outcome::Reported, {SLMC_ERROR_KERNEL_NOT_FOUND},
     ""},
    {"cuFuncGetAttribute", Outcome::Reported, {Backend}, "not cached"},
    {"cuLaunchKernel", Outcome::Reported, {LaunchFailure}, ""},
    {"cuGetErrorName", Outcome::NotReached, {},
     "only to describe a failure (falls back to the number)"},
    {"cuGetErrorString", Outcome::NotReached, {},
     "only to describe a failure (the text is left out)"},
    {"cuFuncSetAttribute", Outcome::NotReached, {},
     "only above 48 KiB of dynamic group-local memory"},
    {"cuModuleUnload", Outcome::NotReached, {}, "teardown"},
    {"cuStreamDestroy_v2", Outcome::NotReached, {}, "teardown"},
    {"cuDevicePrimaryCtxRelease_v2", Outcome::NotReached, {},
     "teardown, failed creation"},
};

class CudaFault : public testing::TestWithParam<CallRow> {};

} // namespace

namespace slmc::fault {
void PrintTo(const CallRow &Row, std::ostream *OS) { *OS << Row.Call; }
} // namespace slmc::fault

namespace {

TEST_P(CudaFault, EveryOccurrence) { checkRow(driver(), GetParam()); }

INSTANTIATE_TEST_SUITE_P(Matrix, CudaFault, testing::ValuesIn(Matrix),
                         [](const testing::TestParamInfo<CallRow> &I) {
                           return std::string(I.param.Call);
                         });

TEST(CudaFaultMatrix, CoversEveryCall) { checkMatrixCoversEveryCall(driver(), Matrix); }

TEST(CudaFaultMatrix, ModuleOutOfMemoryIsNotCached) {
  checkModuleOutOfMemoryIsNotCached(driver(), "cuModuleLoadDataEx=2@1",
                                    "CUDA_ERROR_OUT_OF_MEMORY");
}

} // namespace
