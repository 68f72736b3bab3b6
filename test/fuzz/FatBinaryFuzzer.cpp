//===- FatBinaryFuzzer.cpp - Fuzzing the offload container reader ---------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Feeds arbitrary bytes to both entry points of the container reader: as a
// container of known size (program files) and as an embedded one read up to
// its terminator, the bytes present being the scan limit. Every image that
// parses is walked, so that a pointer or size out of bounds shows up under
// ASan even where the reader itself does not touch the data.
//
//===----------------------------------------------------------------------===//
#include "FatBinary.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

using namespace slmc::rt;

namespace {

unsigned touch(const FatBinary &B) {
  unsigned Sum = 0;
  for (const DeviceImage &I : B.Images) {
    Sum += unsigned(I.triple().size() + I.arch().size());
    for (const auto &[Key, Value] : I.Strings)
      Sum += unsigned(Key.size() + Value.size());
    if (I.Size) // first and last byte: the image lies inside the input
      Sum += I.Data[0] + I.Data[I.Size - 1];
  }
  for (uint16_t K = 0; K <= 7; ++K)
    Sum += B.find(ImageKind(K)) != nullptr;
  return Sum;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  // An exact-size, 8-byte-aligned heap copy: ASan sees every byte past the
  // end, and the reader is free to assume the alignment program files get.
  std::unique_ptr<uint64_t[]> Copy(new uint64_t[Size / 8 + 1]);
  std::memcpy(Copy.get(), Data, Size);
  std::unique_ptr<uint8_t[]> Exact(new uint8_t[Size ? Size : 1]);
  std::memcpy(Exact.get(), Data, Size);

  volatile unsigned Sink = 0;
  FatBinary B;
  std::string Error;
  if (parseFatBinary(Size ? Exact.get() : nullptr, Size, B, Error)) {
    Sink = Sink + touch(B);
    if (!verifyChecksums(B, Error) && Error.empty())
      __builtin_trap();
  } else if (Error.empty()) {
    __builtin_trap(); // a refusal always explains itself
  }

  FatBinary E;
  Error.clear();
  if (parseEmbeddedFatBinary(Exact.get(), E, Error, Size))
    Sink = Sink + touch(E);
  else if (Error.empty())
    __builtin_trap();
  return 0;
}
