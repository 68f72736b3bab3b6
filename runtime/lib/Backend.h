//===- Backend.h - The interface every libslmrt backend implements --------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Backends know devices, memory and launches; they know nothing of dialects
// or of the compiler. The runtime core (Runtime.cpp) owns the kernel registry
// and the device choice and talks to exactly one backend at a time.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_RUNTIME_BACKEND_H
#define SLMC_RUNTIME_BACKEND_H

#include "slmc/runtime.h"
#include "FatBinary.h"

#include <memory>
#include <string>

namespace slmc::rt {

/// A kernel as the compiler registered it: the device images of its
/// translation unit and its (mangled) name in those images.
struct KernelRecord {
  const void *Handle = nullptr;
  const FatBinary *Images = nullptr; // owned by the registry; never null
  std::string Name;
};

struct LaunchRequest {
  const KernelRecord &Kernel;
  slmc_cpu_kernel_fn CpuEntry; // may be null when the kernel has no host version
  const slmc_launch_params &Params;
};

/// Failure of a backend call: a status plus a one-line message. The runtime
/// core stores the message as the thread's slmc_last_error().
struct Status {
  slmc_status Code = SLMC_SUCCESS;
  std::string Message;

  static Status ok() { return {}; }
  static Status error(slmc_status Code, std::string Message) {
    return {Code, std::move(Message)};
  }
  explicit operator bool() const { return Code != SLMC_SUCCESS; } // true = failed
};

class Backend {
public:
  virtual ~Backend() = default;

  virtual slmc_backend kind() const = 0;
  virtual const slmc_device_info &info() const = 0;

  virtual Status allocShared(void **Ptr, size_t Bytes) = 0;
  virtual Status allocDevice(void **Ptr, size_t Bytes) = 0;
  virtual Status free(void *Ptr) = 0;
  /// Both copies wait for outstanding launches and complete before returning.
  virtual Status memcpy(void *Dst, const void *Src, size_t Bytes) = 0;
  virtual Status memset(void *Dst, int Value, size_t Bytes) = 0;
  virtual Status synchronize() = 0;

  /// Checks the group size and group-local memory against the device limits
  /// before launching (SLMC_ERROR_RESOURCE_LIMIT with the numbers otherwise).
  virtual Status launch(const LaunchRequest &Request) = 0;
  virtual Status kernelGroupMemory(const KernelRecord &Kernel, size_t &Bytes) = 0;
};

/// Factories. Each returns null and explains why in `WhyNot` when its driver
/// library is missing or reports no device.
std::unique_ptr<Backend> createLevelZeroBackend(std::string &WhyNot);
std::unique_ptr<Backend> createCudaBackend(std::string &WhyNot);
std::unique_ptr<Backend> createCpuBackend(std::string &WhyNot);

} // namespace slmc::rt

#endif // SLMC_RUNTIME_BACKEND_H
