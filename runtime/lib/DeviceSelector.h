//===- DeviceSelector.h - ONEAPI_DEVICE_SELECTOR ------------------*- C++ -*-===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// DPC++ users pick devices with ONEAPI_DEVICE_SELECTOR ("level_zero:gpu",
// "cuda:*", "*:cpu", "!opencl:*;*:gpu"). It filters the devices a program
// sees; the usual preference then chooses among those left. slmc maps it
// onto its backends: Intel GPUs (whether asked for through Level Zero or
// OpenCL) run on Level Zero, NVIDIA GPUs on CUDA, CPUs on the CPU fallback.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_RUNTIME_DEVICESELECTOR_H
#define SLMC_RUNTIME_DEVICESELECTOR_H

#include "slmc/runtime.h"

#include <string>
#include <string_view>

namespace slmc::rt {

/// The backends a selector allows, as a mask of (1 << slmc_backend); when
/// `Error` is set the selector was malformed or allows nothing slmc has.
struct BackendFilter {
  unsigned Allowed = 0;
  std::string Error;

  bool allows(slmc_backend B) const { return Allowed & (1u << B); }
};

BackendFilter parseDeviceSelector(std::string_view Selector);

} // namespace slmc::rt

#endif // SLMC_RUNTIME_DEVICESELECTOR_H
