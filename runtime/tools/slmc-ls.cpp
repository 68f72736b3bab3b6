//===- slmc-ls.cpp - The devices slmc programs can run on -----------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Lists every backend of libslmrt: its device and limits, or why it cannot
// run (driver library missing, no device), then the device a program
// started now would use. Uses the public C API only.
//
//===----------------------------------------------------------------------===//
#include <slmc/runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

struct BackendRow {
  slmc_backend Kind;
  const char *Images; // what the compiler builds for it
};

constexpr BackendRow kBackends[] = {
    {SLMC_BACKEND_LEVEL_ZERO, "SPIR-V (compiled for the GPU by its driver)"},
    {SLMC_BACKEND_CUDA, "PTX (compiled for the GPU by the CUDA driver)"},
    {SLMC_BACKEND_CPU, "host code of every kernel (built into each program)"},
};

void printHelp() {
  std::printf(
      "USAGE: slmc-ls [--help]\n\n"
      "Lists the devices programs built by slmc++ can run on: each backend\n"
      "(Level Zero, CUDA, the CPU fallback), its device and limits or why it\n"
      "is unavailable, and the device a program started now would choose.\n\n"
      "ENVIRONMENT (read as programs read it):\n"
      "  SLMC_DEVICE=level_zero|cuda|cpu   Device to run on\n"
      "  ONEAPI_DEVICE_SELECTOR=<be>:<dev> The same, in DPC++'s spelling\n"
      "  SLMC_VERBOSE=1                    Programs report the device chosen\n");
}

} // namespace

int main(int argc, char **argv) {
  for (int I = 1; I < argc; ++I) {
    if (!std::strcmp(argv[I], "--help") || !std::strcmp(argv[I], "-h")) {
      printHelp();
      return 0;
    }
    std::fprintf(stderr, "slmc-ls: error: unknown argument: '%s'\n", argv[I]);
    return 2;
  }
  int Usable = 0;
  for (const BackendRow &Row : kBackends) {
    const char *Name = slmc_backend_name(Row.Kind);
    slmc_device_info Info;
    if (slmc_get_backend_device_info(Row.Kind, &Info) != SLMC_SUCCESS) {
      const char *Why = slmc_last_error();
      if (!std::strncmp(Why, "slmc: ", 6))
        Why += 6;
      std::printf("%-11s unavailable: %s\n", Name, Why);
      continue;
    }
    ++Usable;
    std::printf("%-11s %s\n", Name, Info.name);
    std::printf("%-11s   runs: %s\n", "", Row.Images);
    std::printf("%-11s   work-group: up to %zu work-items (%u x %u x %u)\n", "",
                Info.max_group_size, Info.max_group_dims.x, Info.max_group_dims.y,
                Info.max_group_dims.z);
    std::printf("%-11s   group-local memory: %zu bytes per work-group\n", "",
                Info.max_group_local_memory);
    std::printf("%-11s   sub-group sizes:", "");
    for (uint32_t K = 0; K < Info.num_sub_group_sizes && K < 8; ++K)
      std::printf(" %u", Info.sub_group_sizes[K]);
    std::printf("\n");
    std::printf("%-11s   global memory: %zu MiB, compute units: %u\n", "",
                Info.global_memory >> 20, Info.compute_units);
  }
  slmc_backend Chosen = SLMC_BACKEND_AUTO;
  if (slmc_get_backend(&Chosen) != SLMC_SUCCESS) {
    std::printf("programs would fail: %s\n", slmc_last_error());
    return 1;
  }
  const char *Why = "the best device present";
  if (const char *E = std::getenv("SLMC_DEVICE"); E && *E)
    Why = "SLMC_DEVICE";
  else if (const char *S = std::getenv("ONEAPI_DEVICE_SELECTOR"); S && *S)
    Why = "ONEAPI_DEVICE_SELECTOR";
  std::printf("programs run on: %s (%s)\n", slmc_backend_name(Chosen), Why);
  return Usable ? 0 : 1;
}
