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
// Every image's checksum (FatBinary.h) is checked before anything is
// parsed further or loaded as code. It finds corruption, not forgery:
// libFuzzer reads the expected value off the comparison and writes it in, so
// the kernel list and signature parsers still see any bytes; and then the
// dynamic loader
// maps a changed host object, which it trusts as any shared library (a
// crafted one crashes it, regressions/program/forged-checksum-host-object;
// it could as well run its own constructors). A host object is code the
// user chose to run, so the harness loads only the host objects of its
// seeds and skips inputs whose changed host object carries a matching
// checksum. Everything before the dynamic loader is fuzzed in full.
//
//===----------------------------------------------------------------------===//
#include "FatBinary.h"
#include "slmc/runtime.h"

#include <cm_rt.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <set>
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

std::set<std::string> TrustedObjects; // the seeds' host objects

/// The first host object of a container, as the loader picks it; empty if
/// none or if the container does not parse. `ChecksumMatches` says whether
/// its image carries a checksum the loader would accept.
std::string hostObject(const uint8_t *Data, size_t Size, bool *ChecksumMatches) {
  std::unique_ptr<uint64_t[]> Copy(new uint64_t[Size / 8 + 1]);
  std::memcpy(Copy.get(), Data, Size);
  slmc::rt::FatBinary B;
  std::string Error;
  if (!slmc::rt::parseFatBinary(Copy.get(), Size, B, Error))
    return std::string();
  const slmc::rt::DeviceImage *Obj = B.find(slmc::rt::ImageKind::Object);
  if (!Obj)
    return std::string();
  if (ChecksumMatches) {
    auto It = Obj->Strings.find(slmc::rt::kChecksumKey);
    *ChecksumMatches =
        It != Obj->Strings.end() && It->second == slmc::rt::imageChecksum(*Obj);
  }
  return std::string(reinterpret_cast<const char *>(Obj->Data), Obj->Size);
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  // The CPU fallback: the same on every machine, and no GPU driver (not
  // instrumented) inside the fuzzer's process.
  setenv("SLMC_DEVICE", "cpu", 1);
  for (const auto &E :
       std::filesystem::directory_iterator(SLMC_FUZZ_PROGRAM_SEEDS)) {
    std::ifstream In(E.path(), std::ios::binary);
    std::vector<uint8_t> Bytes((std::istreambuf_iterator<char>(In)),
                               std::istreambuf_iterator<char>());
    std::string Obj = hostObject(Bytes.data(), Bytes.size(), nullptr);
    if (!Obj.empty())
      TrustedObjects.insert(std::move(Obj));
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  bool ChecksumMatches = false;
  std::string Obj = hostObject(Data, Size, &ChecksumMatches);
  if (!Obj.empty() && ChecksumMatches && !TrustedObjects.count(Obj))
    return -1; // a changed host object with its checksum forged: see above

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
