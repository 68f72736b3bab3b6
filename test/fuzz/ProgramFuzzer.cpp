//===- ProgramFuzzer.cpp - Fuzzing program-file loading -------------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Loads arbitrary bytes as a program file, through both doors: the runtime's
// slmc_program_load (then every query on what loaded) and C for Metal's
// CmDevice::LoadProgram (then CreateKernel for each kernel, which parses the
// signature again in <cm_rt.h>). A load must either succeed or return an
// error with a message; nothing may crash, hang or leak.
//
// What mutations rarely get past is each image's CRC-32, which is checked
// before anything is parsed further or loaded as code; device-only program
// files (no host object) need no checksum, so the kernel list and
// signature parsers are reached with any bytes.
//
//===----------------------------------------------------------------------===//
#include "slmc/runtime.h"

#include <cm_rt.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

void check(bool Ok) {
  if (!Ok)
    __builtin_trap();
}

CmDevice *device() {
  static CmDevice *D = [] {
    CmDevice *Dev = nullptr;
    UINT Version = 0;
    check(CreateCmDevice(Dev, Version) == CM_SUCCESS);
    return Dev;
  }();
  return D;
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  // The CPU fallback: the same on every machine, and no GPU driver (not
  // instrumented) inside the fuzzer's process.
  setenv("SLMC_DEVICE", "cpu", 1);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::vector<std::string> Names;
  slmc_program *P = nullptr;
  slmc_status S = slmc_program_load(Data, Size, &P);
  if (S != SLMC_SUCCESS) {
    const char *Why = slmc_last_error();
    check(!P && Why && *Why);
  } else {
    check(P != nullptr);
    uint32_t Count = 0;
    check(slmc_program_kernel_count(P, &Count) == SLMC_SUCCESS);
    for (uint32_t I = 0; I < Count; ++I) {
      const char *Name = nullptr;
      check(slmc_program_kernel_name(P, I, &Name) == SLMC_SUCCESS && Name);
      const void *Handle = nullptr;
      slmc_cpu_kernel_fn Cpu = nullptr;
      const char *Signature = nullptr;
      check(slmc_program_kernel(P, Name, &Handle, &Cpu, &Signature) ==
                SLMC_SUCCESS &&
            Handle && Signature);
      Names.push_back(Name);
    }
    check(slmc_program_kernel_name(P, Count, nullptr) != SLMC_SUCCESS);
    check(slmc_program_kernel(P, "", nullptr, nullptr, nullptr) ==
          SLMC_ERROR_KERNEL_NOT_FOUND);
    check(slmc_program_release(P) == SLMC_SUCCESS);
  }

  // The same bytes through C for Metal (LoadProgram takes a mutable
  // pointer and a 32-bit size).
  if (Size == 0 || Size > UINT32_MAX)
    return 0;
  std::vector<uint8_t> Copy(Data, Data + Size);
  CmDevice *D = device();
  CmProgram *Program = nullptr;
  INT R = D->LoadProgram(Copy.data(), UINT(Size), Program);
  check((R == CM_SUCCESS) == (S == SLMC_SUCCESS));
  if (R != CM_SUCCESS)
    return 0;
  for (const std::string &Name : Names) {
    CmKernel *K = nullptr;
    if (D->CreateKernel(Program, Name.c_str(), K) == CM_SUCCESS)
      check(D->DestroyKernel(K) == CM_SUCCESS);
  }
  check(D->DestroyProgram(Program) == CM_SUCCESS);
  return 0;
}
