//===- Driver.h - The slmc++ compilation pipeline ---------------*- C++ -*-===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// For each C++ source:
//   1. check pass (in process): parse with the dialect prelude, build the
//      model, run the checkers, lower the main file to offload C++;
//   2. device passes: SPIR-V (HIP device mode + LLVM's SPIR-V backend,
//      validated with SPIRV-Tools) and PTX (CUDA device mode);
//   3. package the device images as LLVM OffloadBinary images;
//   4. host pass: HIP host mode embeds the package and registers kernels;
// then link every object with libslmrt.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_DRIVER_DRIVER_H
#define SLMC_DRIVER_DRIVER_H

namespace slmc::driver {

/// The whole of slmc++; returns the process exit code.
int run(int Argc, const char **Argv);

} // namespace slmc::driver

#endif // SLMC_DRIVER_DRIVER_H
