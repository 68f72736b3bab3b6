//===- TestSupport.cpp - Helpers shared by the libslmrt unit tests --------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"

#include "FatBinary.h"

#include <algorithm>
#include <cstdlib>
#include <mutex>

namespace slmc::test {
namespace {

constexpr size_t kHeader = 32, kEntry = 40, kStringEntry = 16;

size_t align8(size_t V) { return (V + 7) & ~size_t(7); }

/// The wrapper struct Clang emits for HIP (magic "HIPF", version 1).
struct FatBinaryWrapper {
  int32_t Magic;
  int32_t Version;
  const void *Data;
  void *Unused;
};

// Static storage for registered containers: part of this executable's
// writable data segment, like the sections slmc++ embeds.
alignas(8) unsigned char Arena[1 << 20];
size_t ArenaUsed = 0;
std::mutex ArenaMutex;

} // namespace

std::string imageChecksum(const ImageSpec &Spec) {
  rt::DeviceImage Img;
  Img.Kind = static_cast<rt::ImageKind>(Spec.Kind);
  Img.OffloadKind = Spec.OffloadKind;
  for (const auto &[Key, Value] : Spec.Strings)
    Img.Strings[Key] = Value;
  Img.Data = reinterpret_cast<const unsigned char *>(Spec.Payload.data());
  Img.Size = Spec.Payload.size();
  return rt::imageChecksum(Img);
}

Bytes makeOffloadBinary(const ImageSpec &Given) {
  ImageSpec Spec = Given;
  if (Spec.Checksum)
    Spec.Strings.push_back({rt::kChecksumKey, imageChecksum(Given)});
  const size_t NumStrings = Spec.Strings.size();
  size_t StringsAt = kHeader + kEntry;
  size_t TextAt = StringsAt + NumStrings * kStringEntry;
  std::string Text;
  std::vector<std::pair<uint64_t, uint64_t>> Offsets;
  for (const auto &[Key, Value] : Spec.Strings) {
    uint64_t K = TextAt + Text.size();
    Text += Key;
    Text += '\0';
    uint64_t V = TextAt + Text.size();
    Text += Value;
    Text += '\0';
    Offsets.emplace_back(K, V);
  }
  size_t ImageAt = align8(TextAt + Text.size());
  size_t Size = ImageAt + Spec.Payload.size();

  Bytes B(Size, 0);
  const unsigned char Magic[4] = {0x10, 0xFF, 0x10, 0xAD};
  std::memcpy(B.data(), Magic, 4);
  put<uint32_t>(B, off::Version, 1);
  put<uint64_t>(B, off::Size, Size);
  put<uint64_t>(B, off::EntryOffset, kHeader);
  put<uint64_t>(B, off::EntrySize, kEntry);
  put<uint16_t>(B, off::ImageKind, Spec.Kind);
  put<uint16_t>(B, off::OffloadKind, Spec.OffloadKind);
  put<uint64_t>(B, off::StringOffset, StringsAt);
  put<uint64_t>(B, off::NumStrings, NumStrings);
  put<uint64_t>(B, off::ImageOffset, ImageAt);
  put<uint64_t>(B, off::ImageSize, Spec.Payload.size());
  for (size_t I = 0; I < NumStrings; ++I) {
    put<uint64_t>(B, StringsAt + I * kStringEntry, Offsets[I].first);
    put<uint64_t>(B, StringsAt + I * kStringEntry + 8, Offsets[I].second);
  }
  std::memcpy(B.data() + TextAt, Text.data(), Text.size());
  std::memcpy(B.data() + ImageAt, Spec.Payload.data(), Spec.Payload.size());
  return B;
}

bool sameImages(const Bytes &A, const Bytes &B) {
  rt::FatBinary FA, FB;
  std::string Error;
  if (!rt::parseFatBinary(A.data(), A.size(), FA, Error) ||
      !rt::parseFatBinary(B.data(), B.size(), FB, Error) ||
      FA.Images.size() != FB.Images.size())
    return false;
  for (size_t I = 0; I < FA.Images.size(); ++I) {
    const rt::DeviceImage &X = FA.Images[I], &Y = FB.Images[I];
    if (X.Kind != Y.Kind || X.OffloadKind != Y.OffloadKind ||
        X.Strings != Y.Strings || X.Size != Y.Size ||
        std::memcmp(X.Data, Y.Data, X.Size) != 0)
      return false;
  }
  return true;
}

Bytes makeContainer(const std::vector<Bytes> &Binaries, bool Terminator) {
  Bytes C;
  for (const Bytes &B : Binaries) {
    C.insert(C.end(), B.begin(), B.end());
    C.resize(align8(C.size()), 0);
  }
  if (Terminator)
    C.insert(C.end(), 8, 0);
  return C;
}

Bytes validContainer() {
  ImageSpec Spirv;
  Spirv.Kind = kImageSPIRV;
  Spirv.Strings = {{"triple", "spirv64-unknown-unknown"}, {"arch", "generic"}};
  Spirv.Payload = std::string("\x03\x02\x23\x07", 4) + "spirv words";
  ImageSpec Ptx;
  Ptx.Kind = kImagePTX;
  Ptx.OffloadKind = kOffloadCUDA;
  Ptx.Strings = {{"triple", "nvptx64-nvidia-cuda"}, {"arch", "sm_70"}};
  Ptx.Payload = ".version 7.0\n.target sm_70\n";
  return makeContainer({makeOffloadBinary(Spirv), makeOffloadBinary(Ptx)});
}

void **registerContainerAt(const void *Data) {
  FatBinaryWrapper W{0x48495046, 1, Data, nullptr};
  return __hipRegisterFatBinary(&W);
}

void **registerContainer(const Bytes &Container) {
  unsigned char *Slot;
  {
    std::lock_guard<std::mutex> L(ArenaMutex);
    if (ArenaUsed + Container.size() > sizeof(Arena))
      std::abort(); // the tests register far less than the arena holds
    Slot = Arena + ArenaUsed;
    ArenaUsed = align8(ArenaUsed + Container.size());
  }
  std::memcpy(Slot, Container.data(), Container.size());
  return registerContainerAt(Slot);
}

void registerKernel(void **Module, const void *Handle, const char *Name) {
  __hipRegisterFunction(Module, Handle, const_cast<char *>(Name), Name,
                        ~0u, nullptr, nullptr, nullptr, nullptr, nullptr);
}

void **registerValidKernel(const void *Handle, const char *Name) {
  void **M = registerContainer(validContainer());
  registerKernel(M, Handle, Name);
  return M;
}

slmc_status launch(const void *Kernel, slmc_cpu_kernel_fn Entry,
                   slmc_dim3 Groups, slmc_dim3 GroupSize,
                   std::vector<void *> Args, std::vector<size_t> Sizes,
                   size_t DynamicGroupMemory, uint32_t SubGroupSize) {
  if (Sizes.empty())
    Sizes.assign(Args.size(), sizeof(void *));
  slmc_launch_params P{};
  P.group_count = Groups;
  P.group_size = GroupSize;
  P.dynamic_group_memory = DynamicGroupMemory;
  P.num_args = uint32_t(Args.size());
  P.args = Args.empty() ? nullptr : Args.data();
  P.arg_sizes = Sizes.empty() ? nullptr : Sizes.data();
  P.sub_group_size = SubGroupSize;
  return slmc_launch(Kernel, Entry, &P);
}

} // namespace slmc::test
