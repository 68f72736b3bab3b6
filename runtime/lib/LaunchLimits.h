//===- LaunchLimits.h - A launch against a GPU's limits -----------*- C++ -*-===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The GPU backends check a launch's shape and group-local memory against the
// device before handing it to the driver, so that an oversized launch is one
// clear SLMC_ERROR_RESOURCE_LIMIT with the numbers instead of a driver code.
// Header-only: the backends' tests compile the backends' sources directly.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_RT_LAUNCHLIMITS_H
#define SLMC_RT_LAUNCHLIMITS_H

#include "Backend.h"

#include <cstdint>
#include <string>

namespace slmc::rt {

inline std::string dim3Str(const slmc_dim3 &D) {
  return std::to_string(D.x) + "x" + std::to_string(D.y) + "x" + std::to_string(D.z);
}

/// A launch as the C API passed it: no empty dimension, and the argument
/// arrays its argument count needs (`NeedSizes`: the backend also reads each
/// argument's size).
inline Status checkLaunchRequest(const std::string &Kernel, const slmc_launch_params &P,
                                 bool NeedSizes) {
  const slmc_dim3 &G = P.group_count, &B = P.group_size;
  if (G.x == 0 || G.y == 0 || G.z == 0 || B.x == 0 || B.y == 0 || B.z == 0)
    return Status::error(SLMC_ERROR_INVALID_VALUE, "kernel '" + Kernel + "': empty launch (" +
                                                       dim3Str(G) + " groups of " +
                                                       dim3Str(B) + ")");
  if (P.num_args != 0 && (!P.args || (NeedSizes && !P.arg_sizes)))
    return Status::error(SLMC_ERROR_INVALID_VALUE,
                         "kernel '" + Kernel + "': " + std::to_string(P.num_args) +
                             (NeedSizes ? " arguments but no argument or size array"
                                        : " arguments but no argument array"));
  return Status::ok();
}

/// What a device (and, where it has its own, the kernel) allows.
struct LaunchLimits {
  std::string Device;          // "CUDA device 'NVIDIA H100'", in messages
  slmc_dim3 MaxGroupDims{};    // work-items per dimension
  uint64_t MaxGroupSize = 0;   // work-items per group
  uint64_t KernelMaxGroupSize = 0; // the kernel's own, lower limit (0: none)
  slmc_dim3 MaxGroupCount{};   // groups per dimension
  uint64_t MaxGroupMemory = 0; // static + dynamic group-local bytes
  std::string GroupMemoryNote; // appended to the memory message, e.g. " (48 KiB without opt-in)"
};

/// Checks `Groups` groups of `Size` work-items using `Static` + `Dynamic`
/// bytes of group-local memory; the first limit exceeded is the error.
inline Status checkLaunchLimits(const std::string &Kernel, slmc_dim3 Groups, slmc_dim3 Size,
                                uint64_t Static, uint64_t Dynamic, const LaunchLimits &L) {
  const slmc_dim3 &MaxB = L.MaxGroupDims;
  if (Size.x > MaxB.x || Size.y > MaxB.y || Size.z > MaxB.z)
    return Status::error(SLMC_ERROR_RESOURCE_LIMIT,
                         "kernel '" + Kernel + "': group size " + dim3Str(Size) +
                             " exceeds the per-dimension limit " + dim3Str(MaxB) + " of " +
                             L.Device);
  uint64_t Items = uint64_t(Size.x) * Size.y * Size.z;
  uint64_t MaxItems = L.KernelMaxGroupSize && L.KernelMaxGroupSize < L.MaxGroupSize
                          ? L.KernelMaxGroupSize
                          : L.MaxGroupSize;
  if (Items > MaxItems)
    return Status::error(
        SLMC_ERROR_RESOURCE_LIMIT,
        "kernel '" + Kernel + "': group size " + dim3Str(Size) + " = " +
            std::to_string(Items) + " work-items exceeds the limit of " +
            std::to_string(MaxItems) +
            (MaxItems < L.MaxGroupSize ? " for this kernel (register use; device limit " +
                                             std::to_string(L.MaxGroupSize) + ")"
                                       : " of " + L.Device));
  const slmc_dim3 &MaxG = L.MaxGroupCount;
  if (Groups.x > MaxG.x || Groups.y > MaxG.y || Groups.z > MaxG.z)
    return Status::error(SLMC_ERROR_RESOURCE_LIMIT,
                         "kernel '" + Kernel + "': group count " + dim3Str(Groups) +
                             " exceeds the limit " + dim3Str(MaxG) + " of " + L.Device);
  const uint64_t Limit = L.MaxGroupMemory;
  if (Dynamic > Limit || Static + Dynamic > Limit)
    return Status::error(
        SLMC_ERROR_RESOURCE_LIMIT,
        "kernel '" + Kernel + "' needs " + std::to_string(Static) + " bytes of static + " +
            std::to_string(Dynamic) + " bytes of dynamic group-local memory = " +
            (Dynamic > Limit ? std::string("more than the limit")
                             : std::to_string(Static + Dynamic)) +
            " bytes; " + L.Device + " allows at most " + std::to_string(Limit) +
            " bytes per group" + L.GroupMemoryNote);
  return Status::ok();
}

} // namespace slmc::rt

#endif // SLMC_RT_LAUNCHLIMITS_H
