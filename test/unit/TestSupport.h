//===- TestSupport.h - Helpers shared by the libslmrt unit tests ----------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Builds offload containers byte by byte (the layout of LLVM's
// OffloadBinary, version 1) and registers hand-written host kernels the way
// the host code that Clang generates does.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_TEST_UNIT_TESTSUPPORT_H
#define SLMC_TEST_UNIT_TESTSUPPORT_H

#include "slmc/runtime.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace slmc::test {

using Bytes = std::vector<unsigned char>;

// Field offsets inside one offload binary, for tests that corrupt them.
namespace off {
constexpr size_t Magic = 0, Version = 4, Size = 8, EntryOffset = 16,
                 EntrySize = 24;
constexpr size_t Entry = 32; // the builder puts the entry right after the header
constexpr size_t ImageKind = Entry + 0, OffloadKind = Entry + 2,
                 StringOffset = Entry + 8, NumStrings = Entry + 16,
                 ImageOffset = Entry + 24, ImageSize = Entry + 32;
constexpr size_t Strings = Entry + 40; // first StringEntry
} // namespace off

// LLVM's ImageKind / OffloadKind values used in the tests.
constexpr uint16_t kImagePTX = 5, kImageSPIRV = 6;
constexpr uint16_t kOffloadHIP = 3, kOffloadCUDA = 1;

struct ImageSpec {
  uint16_t Kind = kImageSPIRV;
  uint16_t OffloadKind = kOffloadHIP;
  std::vector<std::pair<std::string, std::string>> Strings;
  std::string Payload;
  bool Checksum = true; // the "slmc.checksum" entry slmc++ writes
};

/// One offload binary: header, entry, string table, strings (with the
/// checksum last, unless the spec says not), image.
Bytes makeOffloadBinary(const ImageSpec &Spec);
/// Whether two containers read as the same images (kinds, strings, bytes):
/// a change to a byte the format gives no meaning (padding, the unused
/// flags) leaves them the same; any other change must be refused.
bool sameImages(const Bytes &A, const Bytes &B);
/// What slmc++ writes as an image's "slmc.checksum" (FatBinary.h).
std::string imageChecksum(const ImageSpec &Spec);
/// Concatenates binaries (each padded to 8 bytes), optionally followed by the
/// eight-byte zero terminator.
Bytes makeContainer(const std::vector<Bytes> &Binaries, bool Terminator = true);
/// A small valid container: one SPIR-V and one PTX image.
Bytes validContainer();

template <class T> void put(Bytes &B, size_t Offset, T Value) {
  std::memcpy(B.data() + Offset, &Value, sizeof(T));
}

/// Copies `Container` into static storage of this executable (so that the
/// runtime finds it inside a loaded ELF segment, as with compiled programs),
/// wraps it as Clang does and registers it. Returns the module handle.
void **registerContainer(const Bytes &Container);
/// Registers a container at an arbitrary address (e.g. the heap).
void **registerContainerAt(const void *Data);
/// Registers `Handle` as kernel `Name` of `Module`.
void registerKernel(void **Module, const void *Handle, const char *Name);
/// A module with a valid container plus `Handle` registered in it.
void **registerValidKernel(const void *Handle, const char *Name);

/// slmc_launch with the arguments given as a list of pointers and sizes.
slmc_status launch(const void *Kernel, slmc_cpu_kernel_fn Entry,
                   slmc_dim3 Groups, slmc_dim3 GroupSize,
                   std::vector<void *> Args = {},
                   std::vector<size_t> Sizes = {},
                   size_t DynamicGroupMemory = 0, uint32_t SubGroupSize = 0);

inline uint32_t volume(slmc_dim3 D) { return D.x * D.y * D.z; }

/// Linear index of the current work-item in the whole launch (x fastest,
/// groups after groups).
inline uint64_t globalLinearId(const slmc_cpu_item &I) {
  uint64_t Group =
      I.group_id.x + uint64_t(I.group_count.x) *
                         (I.group_id.y + uint64_t(I.group_count.y) * I.group_id.z);
  uint64_t Local =
      I.local_id.x + uint64_t(I.local_size.x) *
                         (I.local_id.y + uint64_t(I.local_size.y) * I.local_id.z);
  return Group * volume(I.local_size) + Local;
}

inline uint32_t localLinearId(const slmc_cpu_item &I) {
  return I.local_id.x + I.local_size.x * (I.local_id.y + I.local_size.y * I.local_id.z);
}

inline uint64_t groupLinearId(const slmc_cpu_item &I) {
  return I.group_id.x +
         uint64_t(I.group_count.x) * (I.group_id.y + uint64_t(I.group_count.y) * I.group_id.z);
}

/// Whether `Haystack` contains `Needle` (for checking error messages).
inline bool contains(const std::string &Haystack, const std::string &Needle) {
  return Haystack.find(Needle) != std::string::npos;
}

} // namespace slmc::test

#endif // SLMC_TEST_UNIT_TESTSUPPORT_H
