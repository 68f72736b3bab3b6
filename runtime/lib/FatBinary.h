//===- FatBinary.h - Reading the device images embedded by slmc++ ---------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// slmc++ embeds a sequence of LLVM OffloadBinary images (one per device
// target), each 8-byte aligned, ended by eight zero bytes. This reader is
// independent of LLVM (the runtime never links compiler libraries) and checks
// every offset against the image bounds, so a corrupted executable gives an
// error, never a crash.
//
// Each image slmc++ writes carries a checksum of everything the runtime
// reads from it (kind, offload kind, strings, bytes): the string entry
// "slmc.checksum" = "crc32:<8 hex digits>". verifyChecksums() is called on
// every container before any image is handed to a driver or the dynamic
// loader, so a changed byte anywhere is an error, not a driver crash.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_RUNTIME_FATBINARY_H
#define SLMC_RUNTIME_FATBINARY_H

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace slmc::rt {

/// LLVM's object::ImageKind values.
enum class ImageKind : uint16_t {
  None = 0, Object, Bitcode, Cubin, Fatbinary, PTX, SPIRV
};

struct DeviceImage {
  ImageKind Kind = ImageKind::None;
  uint16_t OffloadKind = 0;
  std::map<std::string, std::string> Strings; // "triple", "arch", ...
  const unsigned char *Data = nullptr;        // points into the container
  size_t Size = 0;

  std::string_view triple() const;
  std::string_view arch() const;
};

struct FatBinary {
  std::vector<DeviceImage> Images;

  /// The first image of the given kind, or null.
  const DeviceImage *find(ImageKind Kind) const;
};

/// The string entry that holds an image's checksum, and its value for `Img`
/// ("crc32:" and eight lower-case hex digits). The checksum covers the
/// image kind and offload kind (little-endian 16-bit each), every string
/// entry but itself in key order (key, NUL, value, NUL), then the bytes.
inline constexpr const char *kChecksumKey = "slmc.checksum";
std::string imageChecksum(const DeviceImage &Img);

/// Whether every image of `Bin` carries a checksum that matches; otherwise
/// explains which image and why in `Error`.
bool verifyChecksums(const FatBinary &Bin, std::string &Error);

/// One parameter of a SPIR-V kernel whose argument object slmc++ split into
/// its fields: bytes [Offset, Offset + Size) of launch argument Arg, or the
/// whole argument when Size is 0.
struct ArgumentPiece {
  uint32_t Arg = 0;
  uint64_t Offset = 0, Size = 0;
};

/// The string entry that lists a kernel's parameters as pieces of the
/// launch's arguments ("slmc.args." + mangled name): one word per parameter,
/// "A" (argument A as it is) or "A:OFFSET:SIZE", separated by spaces. A
/// kernel without it takes the launch's arguments as they are.
inline constexpr const char *kArgumentLayoutPrefix = "slmc.args.";

/// Reads `Kernel`'s argument layout from `Img` into `Pieces`. Returns false
/// and explains in `Error` when the entry is malformed; true with `Present`
/// false when there is none.
bool argumentLayout(const DeviceImage &Img, const std::string &Kernel, bool &Present,
                    std::vector<ArgumentPiece> &Pieces, std::string &Error);

/// Parses a container of known size. Returns false and explains in `Error`
/// when the data is not a well-formed image sequence.
bool parseFatBinary(const void *Data, size_t Size, FatBinary &Out,
                    std::string &Error);

/// Parses a container whose size is unknown (as embedded by the compiler),
/// reading images until the zero terminator. `Limit` bounds the scan.
bool parseEmbeddedFatBinary(const void *Data, FatBinary &Out,
                            std::string &Error, size_t Limit = size_t(1) << 32);

} // namespace slmc::rt

#endif // SLMC_RUNTIME_FATBINARY_H
