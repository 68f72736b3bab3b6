//===- FatBinary.cpp - Reading the device images embedded by slmc++ -------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Every read is checked against the bytes known to be readable before it
// happens. Fields are copied out with memcpy: the container may sit at any
// address and the file format is little-endian, like every host we run on.
//
//===----------------------------------------------------------------------===//
#include "FatBinary.h"

#include <zlib.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace slmc::rt {
namespace {

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "the offload binary format is little-endian");

constexpr unsigned char kMagic[4] = {0x10, 0xFF, 0x10, 0xAD};
constexpr uint32_t kVersion = 1;

// On-disk sizes and field offsets of the three records.
constexpr size_t kHeaderSize = 32; // Magic, Version, Size, EntryOffset, EntrySize
constexpr size_t kEntrySize = 40;  // ImageKind .. ImageSize
constexpr size_t kStringEntrySize = 16;
constexpr size_t kAlign = 8;

template <class T> T load(const unsigned char *P) {
  T V;
  std::memcpy(&V, P, sizeof(T));
  return V;
}

std::string hex(uint64_t V) {
  static const char Digits[] = "0123456789abcdef";
  std::string S;
  do {
    S.insert(S.begin(), Digits[V & 0xF]);
    V >>= 4;
  } while (V);
  return "0x" + S;
}

/// [Offset, Offset + Length) lies inside [0, Size), without overflow.
bool inBounds(uint64_t Offset, uint64_t Length, uint64_t Size) {
  return Offset <= Size && Length <= Size - Offset;
}

/// Reads the NUL-terminated string at `Offset` of a binary of `Size` bytes.
bool readString(const unsigned char *Base, uint64_t Size, uint64_t Offset,
                std::string &Out) {
  if (Offset >= Size)
    return false;
  const void *Nul = std::memchr(Base + Offset, 0, size_t(Size - Offset));
  if (!Nul)
    return false;
  Out.assign(reinterpret_cast<const char *>(Base + Offset),
             static_cast<const unsigned char *>(Nul) - (Base + Offset));
  return true;
}

/// Parses the one offload binary at `Base`, of which `Avail` bytes may be
/// read. On success `Consumed` is its declared size.
bool parseOne(const unsigned char *Base, size_t Avail, DeviceImage &Image,
              uint64_t &Consumed, std::string &Why) {
  if (Avail < kHeaderSize) {
    Why = "truncated header: " + std::to_string(Avail) + " bytes left, " +
          std::to_string(kHeaderSize) + " needed";
    return false;
  }
  if (std::memcmp(Base, kMagic, sizeof(kMagic)) != 0) {
    Why = "bad magic (not an LLVM offload binary)";
    return false;
  }
  uint32_t Version = load<uint32_t>(Base + 4);
  if (Version != kVersion) {
    Why = "unsupported offload binary version " + std::to_string(Version) +
          " (expected " + std::to_string(kVersion) + ")";
    return false;
  }
  uint64_t Size = load<uint64_t>(Base + 8);
  uint64_t EntryOffset = load<uint64_t>(Base + 16);
  uint64_t EntrySize = load<uint64_t>(Base + 24);
  if (Size < kHeaderSize + kEntrySize) {
    Why = "declared size " + std::to_string(Size) + " is too small";
    return false;
  }
  if (Size > Avail) {
    Why = "declared size " + std::to_string(Size) + " exceeds the " +
          std::to_string(Avail) + " bytes available (truncated image?)";
    return false;
  }
  if (EntrySize < kEntrySize || !inBounds(EntryOffset, EntrySize, Size)) {
    Why = "entry (offset " + hex(EntryOffset) + ", size " +
          std::to_string(EntrySize) + ") is out of bounds";
    return false;
  }

  const unsigned char *E = Base + EntryOffset;
  uint16_t Kind = load<uint16_t>(E + 0);
  uint16_t OffloadKind = load<uint16_t>(E + 2);
  // E + 4 holds Flags, which nothing uses yet.
  uint64_t StringOffset = load<uint64_t>(E + 8);
  uint64_t NumStrings = load<uint64_t>(E + 16);
  uint64_t ImageOffset = load<uint64_t>(E + 24);
  uint64_t ImageSize = load<uint64_t>(E + 32);

  // Checked as a division so that a huge count cannot overflow the product.
  if (StringOffset > Size ||
      NumStrings > (Size - StringOffset) / kStringEntrySize) {
    Why = "string table (offset " + hex(StringOffset) + ", " +
          std::to_string(NumStrings) + " entries) is out of bounds";
    return false;
  }
  if (!inBounds(ImageOffset, ImageSize, Size)) {
    Why = "image data (offset " + hex(ImageOffset) + ", size " +
          std::to_string(ImageSize) + ") is out of bounds";
    return false;
  }
  // The image ends its binary, up to the padding to 8 bytes (LLVM writes it
  // so). A larger declared size would make the reader skip whatever follows
  // up to the next zero word: images lost without an error.
  if (Size - (ImageOffset + ImageSize) >= kAlign) {
    Why = "declared size " + std::to_string(Size) + " leaves " +
          std::to_string(Size - (ImageOffset + ImageSize)) +
          " bytes after the image data";
    return false;
  }

  Image = DeviceImage();
  Image.Kind = static_cast<ImageKind>(Kind);
  Image.OffloadKind = OffloadKind;
  for (uint64_t I = 0; I != NumStrings; ++I) {
    const unsigned char *S = Base + StringOffset + I * kStringEntrySize;
    uint64_t KeyOffset = load<uint64_t>(S);
    uint64_t ValueOffset = load<uint64_t>(S + 8);
    std::string Key, Value;
    if (!readString(Base, Size, KeyOffset, Key) ||
        !readString(Base, Size, ValueOffset, Value)) {
      Why = "string " + std::to_string(I) +
            " is out of bounds or not NUL-terminated";
      return false;
    }
    Image.Strings[std::move(Key)] = std::move(Value);
  }
  Image.Data = Base + ImageOffset;
  Image.Size = size_t(ImageSize);
  Consumed = Size;
  return true;
}

/// Shared by both entry points. With `NeedTerminator` the sequence must end
/// with a zero word inside `Limit`; otherwise reaching exactly `Limit` ends
/// it as well.
bool parseSequence(const unsigned char *Data, size_t Limit, bool NeedTerminator,
                   FatBinary &Out, std::string &Error) {
  FatBinary Result;
  size_t Pos = 0;
  for (;;) {
    if (Pos == Limit && !NeedTerminator)
      break;
    if (Limit - Pos < kAlign) {
      Error = std::string(NeedTerminator ? "offload container: no terminator: "
                                         : "offload container: trailing bytes: ") +
              std::to_string(Limit - Pos) + " bytes left at offset " +
              hex(Pos) + " after " + std::to_string(Result.Images.size()) +
              " image(s)";
      return false;
    }
    if (load<uint64_t>(Data + Pos) == 0)
      break;
    DeviceImage Image;
    uint64_t Consumed = 0;
    std::string Why;
    if (!parseOne(Data + Pos, Limit - Pos, Image, Consumed, Why)) {
      Error = "offload container: image " + std::to_string(Result.Images.size()) +
              " at offset " + hex(Pos) + ": " + Why;
      return false;
    }
    Result.Images.push_back(std::move(Image));
    // The next image starts at the next 8-byte boundary; padding past the
    // limit is treated like a missing terminator on the next iteration.
    uint64_t Next = Pos + Consumed;
    Next = (Next + kAlign - 1) & ~uint64_t(kAlign - 1);
    Pos = Next > Limit ? Limit : size_t(Next);
    if (Pos == Limit && NeedTerminator && Next > Limit) {
      Error = "offload container: image " +
              std::to_string(Result.Images.size() - 1) +
              " is not followed by a terminator";
      return false;
    }
  }
  Out = std::move(Result);
  return true;
}

} // namespace

std::string_view DeviceImage::triple() const {
  auto It = Strings.find("triple");
  return It == Strings.end() ? std::string_view() : std::string_view(It->second);
}

std::string_view DeviceImage::arch() const {
  auto It = Strings.find("arch");
  return It == Strings.end() ? std::string_view() : std::string_view(It->second);
}

bool argumentLayout(const DeviceImage &Img, const std::string &Kernel, bool &Present,
                    std::vector<ArgumentPiece> &Pieces, std::string &Error) {
  Pieces.clear();
  auto It = Img.Strings.find(kArgumentLayoutPrefix + Kernel);
  Present = It != Img.Strings.end();
  if (!Present)
    return true;
  const std::string &Text = It->second;
  // A decimal number of at most 19 digits (no overflow of uint64_t).
  auto Number = [](std::string_view Word, uint64_t &V) {
    if (Word.empty() || Word.size() > 19)
      return false;
    V = 0;
    for (char C : Word) {
      if (C < '0' || C > '9')
        return false;
      V = V * 10 + uint64_t(C - '0');
    }
    return true;
  };
  if (Text.empty())
    return true; // the kernel reads nothing of its arguments
  for (size_t Pos = 0;;) {
    size_t End = Text.find(' ', Pos);
    if (End == std::string::npos)
      End = Text.size();
    std::string_view Word(Text.data() + Pos, End - Pos);
    ArgumentPiece P;
    uint64_t Arg = 0;
    size_t C1 = Word.find(':'), C2 = C1 == std::string_view::npos ? C1 : Word.find(':', C1 + 1);
    bool Ok = C1 == std::string_view::npos
                  ? Number(Word, Arg)
                  : C2 != std::string_view::npos && Number(Word.substr(0, C1), Arg) &&
                        Number(Word.substr(C1 + 1, C2 - C1 - 1), P.Offset) &&
                        Number(Word.substr(C2 + 1), P.Size) && P.Size > 0 &&
                        P.Offset <= UINT64_MAX - P.Size;
    if (!Ok || Arg > UINT32_MAX) {
      Error = "kernel '" + Kernel + "': malformed argument layout '" + Text + "'";
      return false;
    }
    P.Arg = uint32_t(Arg);
    Pieces.push_back(P);
    if (End == Text.size())
      return true;
    Pos = End + 1; // a trailing space leaves an empty word: malformed
  }
}

namespace {

uLong crc32Of(uLong Crc, const void *Data, size_t Size) {
  auto *P = static_cast<const Bytef *>(Data);
  while (Size > 0) { // zlib takes 32-bit lengths
    uInt N = uInt(std::min<size_t>(Size, size_t(1) << 30));
    Crc = crc32(Crc, P, N);
    P += N;
    Size -= N;
  }
  return Crc;
}

/// The key of the checksum slmc++ wrote before it covered the strings.
constexpr const char *kImageOnlyChecksumKey = "slmc.crc32";

} // namespace

std::string imageChecksum(const DeviceImage &Img) {
  uLong Crc = crc32(0L, Z_NULL, 0);
  uint16_t Kinds[2] = {static_cast<uint16_t>(Img.Kind), Img.OffloadKind};
  Crc = crc32Of(Crc, Kinds, sizeof Kinds);
  for (const auto &[Key, Value] : Img.Strings) { // std::map: key order
    if (Key == kChecksumKey)
      continue;
    Crc = crc32Of(Crc, Key.c_str(), Key.size() + 1);
    Crc = crc32Of(Crc, Value.c_str(), Value.size() + 1);
  }
  Crc = crc32Of(Crc, Img.Data, Img.Size);
  char Text[16];
  std::snprintf(Text, sizeof Text, "crc32:%08lx", Crc & 0xffffffffUL);
  return Text;
}

bool verifyChecksums(const FatBinary &Bin, std::string &Error) {
  for (size_t I = 0; I < Bin.Images.size(); ++I) {
    const DeviceImage &Img = Bin.Images[I];
    std::string What = "image " + std::to_string(I);
    if (!Img.triple().empty())
      What += " (" + std::string(Img.triple()) + ")";
    auto It = Img.Strings.find(kChecksumKey);
    if (It == Img.Strings.end()) {
      Error = What + (Img.Strings.count(kImageOnlyChecksumKey)
                          ? " was made by an older slmc++; rebuild it"
                          : " has no checksum (not written by slmc++, or "
                            "corrupted); rebuild it");
      return false;
    }
    std::string Actual = imageChecksum(Img);
    if (It->second != Actual) {
      std::string Expected = It->second.substr(0, 24);
      for (char &C : Expected)
        if (C < 0x20 || C >= 0x7F)
          C = '?';
      Error = What + " is corrupted (checksum " + Actual + ", expected " +
              Expected + ")";
      return false;
    }
  }
  return true;
}

const DeviceImage *FatBinary::find(ImageKind Kind) const {
  for (const DeviceImage &I : Images)
    if (I.Kind == Kind)
      return &I;
  return nullptr;
}

bool parseFatBinary(const void *Data, size_t Size, FatBinary &Out,
                    std::string &Error) {
  if (!Data && Size) {
    Error = "offload container: null data";
    return false;
  }
  return parseSequence(static_cast<const unsigned char *>(Data), Size,
                       /*NeedTerminator=*/false, Out, Error);
}

bool parseEmbeddedFatBinary(const void *Data, FatBinary &Out,
                            std::string &Error, size_t Limit) {
  if (!Data) {
    Error = "offload container: null data";
    return false;
  }
  return parseSequence(static_cast<const unsigned char *>(Data), Limit,
                       /*NeedTerminator=*/true, Out, Error);
}

} // namespace slmc::rt
