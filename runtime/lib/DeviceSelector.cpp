//===- DeviceSelector.cpp -------------------------------------------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "DeviceSelector.h"

#include <cctype>
#include <vector>

namespace slmc::rt {
namespace {

constexpr unsigned bit(slmc_backend B) { return 1u << B; }
constexpr unsigned LevelZero = bit(SLMC_BACKEND_LEVEL_ZERO);
constexpr unsigned Cuda = bit(SLMC_BACKEND_CUDA);
constexpr unsigned Cpu = bit(SLMC_BACKEND_CPU);
constexpr unsigned Gpus = LevelZero | Cuda;
constexpr unsigned All = Gpus | Cpu;

std::vector<std::string_view> split(std::string_view S, char Sep) {
  std::vector<std::string_view> Parts;
  for (size_t At = 0;;) {
    size_t End = S.find(Sep, At);
    Parts.push_back(S.substr(At, End == std::string_view::npos ? End : End - At));
    if (End == std::string_view::npos)
      return Parts;
    At = End + 1;
  }
}

/// A device index ("0", "1.2", "0.*"): slmc has one device per backend, so
/// an index selects the backend's device.
bool isIndex(std::string_view D) {
  if (D.empty() || !std::isdigit(static_cast<unsigned char>(D[0])))
    return false;
  for (char C : D)
    if (!std::isdigit(static_cast<unsigned char>(C)) && C != '.' && C != '*')
      return false;
  return true;
}

/// What one backend name and one device kind select. Returns false for an
/// unknown device kind.
bool select(std::string_view Backend, std::string_view Device, unsigned &Mask) {
  // The backends each backend name can reach, and which of them are GPUs.
  unsigned Reach = 0;
  if (Backend == "level_zero")
    Reach = LevelZero;
  else if (Backend == "opencl")
    Reach = LevelZero | Cpu; // Intel's OpenCL GPU is the Level Zero one
  else if (Backend == "cuda")
    Reach = Cuda;
  else if (Backend == "native_cpu")
    Reach = Cpu;
  else if (Backend == "*")
    Reach = All;
  else if (Backend == "hip")
    Reach = 0; // no AMD backend: selects nothing
  if (Device == "*" || isIndex(Device))
    Mask = Reach;
  else if (Device == "gpu")
    Mask = Reach & Gpus;
  else if (Device == "cpu")
    Mask = Reach & Cpu;
  else if (Device == "fpga")
    Mask = 0;
  else
    return false;
  return true;
}

} // namespace

BackendFilter parseDeviceSelector(std::string_view Selector) {
  BackendFilter F;
  auto Fail = [&](const std::string &Why) {
    F.Allowed = 0;
    F.Error = "ONEAPI_DEVICE_SELECTOR='" + std::string(Selector) + "': " + Why;
    return F;
  };
  unsigned Plus = 0, Minus = 0;
  bool AnyPositive = false;
  for (std::string_view Term : split(Selector, ';')) {
    if (Term.empty())
      continue;
    bool Negative = Term[0] == '!';
    if (Negative)
      Term.remove_prefix(1);
    size_t Colon = Term.find(':');
    if (Colon == std::string_view::npos)
      return Fail("'" + std::string(Term) +
                  "' is not backend:devices (e.g. level_zero:gpu, *:cpu)");
    std::string_view Backend = Term.substr(0, Colon);
    if (Backend != "level_zero" && Backend != "opencl" && Backend != "cuda" &&
        Backend != "hip" && Backend != "native_cpu" && Backend != "*")
      return Fail("unknown backend '" + std::string(Backend) +
                  "' (expected level_zero, opencl, cuda, hip, native_cpu or *)");
    unsigned Mask = 0;
    for (std::string_view Device : split(Term.substr(Colon + 1), ',')) {
      unsigned M = 0;
      if (!select(Backend, Device, M))
        return Fail("unknown device '" + std::string(Device) +
                    "' (expected gpu, cpu, fpga, * or an index)");
      Mask |= M;
    }
    (Negative ? Minus : Plus) |= Mask;
    AnyPositive |= !Negative;
  }
  F.Allowed = (AnyPositive ? Plus : All) & ~Minus;
  if (!F.Allowed)
    return Fail("selects no device slmc can run on (it has Level Zero GPUs, "
                "CUDA GPUs and the CPU fallback)");
  return F;
}

} // namespace slmc::rt
