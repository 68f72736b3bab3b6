//===- Program.h - What program loading needs from the runtime core -------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Program.cpp (slmc_program_*) registers the kernels of a loaded program in
// the registry that Clang's __hipRegisterFunction feeds, so the backends
// find their device images by name with no change. The registry lives in
// Runtime.cpp; these are its entry points for programs.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_RUNTIME_PROGRAM_H
#define SLMC_RUNTIME_PROGRAM_H

#include "FatBinary.h"
#include "slmc/runtime.h"

#include <string>

namespace slmc::rt {

/// Registers the parsed images of a program as one module (like one
/// __hipRegisterFatBinary call) and returns its handle. The images' data must
/// stay valid until unregisterProgramModule.
void **registerProgramModule(const FatBinary &Images);
/// Registers `Kernel` (a unique address) as `Name` of that module.
void registerProgramKernel(void **Module, const void *Kernel,
                           const std::string &Name);
/// Removes every kernel of the module (the module record itself is kept,
/// as for unregistered fat binaries: backends cache built device modules by
/// its address).
void unregisterProgramModule(void **Module);

/// Records `Message` as this thread's slmc_last_error() and returns `Code`.
slmc_status recordError(slmc_status Code, std::string Message);

} // namespace slmc::rt

#endif // SLMC_RUNTIME_PROGRAM_H
