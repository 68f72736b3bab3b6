//===- FatBinaryTest.cpp - The offload container reader -------------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "FatBinary.h"
#include "TestSupport.h"

#include <gtest/gtest.h>

using namespace slmc::rt;
using namespace slmc::test;

namespace {

std::string payload(const DeviceImage &I) {
  return std::string(reinterpret_cast<const char *>(I.Data), I.Size);
}

/// Parses a container with the embedded reader, the limit being its size.
bool parseEmbedded(const Bytes &C, FatBinary &Out, std::string &Error) {
  return parseEmbeddedFatBinary(C.data(), Out, Error, C.size());
}

Bytes oneImage() {
  ImageSpec S;
  S.Strings = {{"triple", "spirv64-unknown-unknown"}};
  S.Payload = "payload!";
  return makeOffloadBinary(S);
}

TEST(FatBinary, ParsesMultiImageContainer) {
  Bytes C = validContainer();
  FatBinary F;
  std::string Error;
  ASSERT_TRUE(parseEmbedded(C, F, Error)) << Error;
  ASSERT_EQ(F.Images.size(), 2u);

  const DeviceImage &S = F.Images[0];
  EXPECT_EQ(S.Kind, ImageKind::SPIRV);
  EXPECT_EQ(S.OffloadKind, kOffloadHIP);
  EXPECT_EQ(S.triple(), "spirv64-unknown-unknown");
  EXPECT_EQ(S.arch(), "generic");
  EXPECT_EQ(payload(S), std::string("\x03\x02\x23\x07", 4) + "spirv words");
  // The image points into the container, not at a copy.
  EXPECT_GE(S.Data, C.data());
  EXPECT_LE(S.Data + S.Size, C.data() + C.size());

  const DeviceImage &P = F.Images[1];
  EXPECT_EQ(P.Kind, ImageKind::PTX);
  EXPECT_EQ(P.OffloadKind, kOffloadCUDA);
  EXPECT_EQ(P.triple(), "nvptx64-nvidia-cuda");
  EXPECT_EQ(P.arch(), "sm_70");
  EXPECT_EQ(payload(P), ".version 7.0\n.target sm_70\n");

  EXPECT_EQ(F.find(ImageKind::PTX), &F.Images[1]);
  EXPECT_EQ(F.find(ImageKind::SPIRV), &F.Images[0]);
  EXPECT_EQ(F.find(ImageKind::Cubin), nullptr);
}

TEST(FatBinary, KnownSizeWithAndWithoutTerminator) {
  Bytes With = validContainer();
  Bytes Without = makeContainer({oneImage(), oneImage()}, /*Terminator=*/false);
  FatBinary F;
  std::string Error;
  ASSERT_TRUE(parseFatBinary(With.data(), With.size(), F, Error)) << Error;
  EXPECT_EQ(F.Images.size(), 2u);
  ASSERT_TRUE(parseFatBinary(Without.data(), Without.size(), F, Error)) << Error;
  EXPECT_EQ(F.Images.size(), 2u);
}

TEST(FatBinary, ImagesOfOddSizeArePaddedToEightBytes) {
  ImageSpec A;
  A.Payload = "12345"; // makes the binary's size not a multiple of 8
  ImageSpec B;
  B.Kind = kImagePTX;
  B.Payload = "second";
  Bytes BA = makeOffloadBinary(A);
  ASSERT_NE(BA.size() % 8, 0u);
  Bytes C = makeContainer({BA, makeOffloadBinary(B)});
  FatBinary F;
  std::string Error;
  ASSERT_TRUE(parseEmbedded(C, F, Error)) << Error;
  ASSERT_EQ(F.Images.size(), 2u);
  EXPECT_EQ(payload(F.Images[0]), "12345");
  EXPECT_EQ(payload(F.Images[1]), "second");
}

TEST(FatBinary, EmptyContainerIsValid) {
  Bytes C = makeContainer({});
  FatBinary F;
  std::string Error;
  ASSERT_TRUE(parseEmbedded(C, F, Error)) << Error;
  EXPECT_TRUE(F.Images.empty());
}

TEST(FatBinary, TruncatedContainer) {
  Bytes C = validContainer();
  FatBinary F;
  std::string Error;
  // Cut inside the second image: its declared size exceeds what is left.
  size_t Cut = C.size() - 20;
  EXPECT_FALSE(parseFatBinary(C.data(), Cut, F, Error));
  EXPECT_TRUE(contains(Error, "image 1")) << Error;
  EXPECT_TRUE(contains(Error, "exceeds")) << Error;
  EXPECT_FALSE(parseEmbeddedFatBinary(C.data(), F, Error, Cut));
  EXPECT_TRUE(contains(Error, "exceeds")) << Error;
  // Cut inside the first header.
  EXPECT_FALSE(parseEmbeddedFatBinary(C.data(), F, Error, 12));
  EXPECT_TRUE(contains(Error, "truncated header")) << Error;
}

TEST(FatBinary, BadMagic) {
  Bytes C = validContainer();
  C[0] = 0x7F;
  FatBinary F;
  std::string Error;
  EXPECT_FALSE(parseEmbedded(C, F, Error));
  EXPECT_TRUE(contains(Error, "bad magic")) << Error;
  EXPECT_TRUE(contains(Error, "image 0")) << Error;
}

TEST(FatBinary, BadMagicInSecondImage) {
  Bytes First = oneImage();
  Bytes C = makeContainer({First, oneImage()});
  C[First.size() + 1] = 0; // offset of image 1 is First.size() (already aligned)
  FatBinary F;
  std::string Error;
  EXPECT_FALSE(parseEmbedded(C, F, Error));
  EXPECT_TRUE(contains(Error, "image 1")) << Error;
  EXPECT_TRUE(contains(Error, "bad magic")) << Error;
}

TEST(FatBinary, BadVersion) {
  Bytes C = validContainer();
  put<uint32_t>(C, off::Version, 2);
  FatBinary F;
  std::string Error;
  EXPECT_FALSE(parseEmbedded(C, F, Error));
  EXPECT_TRUE(contains(Error, "version 2")) << Error;
}

/// Corrupts one field of the first image and expects a bounds error.
void expectOutOfBounds(size_t Field, uint64_t Value, const char *What) {
  Bytes C = makeContainer({oneImage()});
  put<uint64_t>(C, Field, Value);
  FatBinary F;
  std::string Error;
  EXPECT_FALSE(parseEmbedded(C, F, Error)) << What;
  EXPECT_TRUE(contains(Error, What)) << Error;
  EXPECT_FALSE(parseFatBinary(C.data(), C.size(), F, Error)) << What;
}

TEST(FatBinary, OffsetsOutOfBounds) {
  const uint64_t Huge = ~uint64_t(0) - 4; // also probes offset + size overflow
  expectOutOfBounds(off::Size, 1u << 20, "exceeds");
  expectOutOfBounds(off::Size, 8, "too small");
  expectOutOfBounds(off::EntryOffset, 4096, "entry");
  expectOutOfBounds(off::EntryOffset, Huge, "entry");
  expectOutOfBounds(off::EntrySize, 8, "entry");
  expectOutOfBounds(off::EntrySize, Huge, "entry");
  expectOutOfBounds(off::StringOffset, 4096, "string table");
  expectOutOfBounds(off::NumStrings, uint64_t(1) << 60, "string table");
  expectOutOfBounds(off::NumStrings, 1000, "string table");
  expectOutOfBounds(off::ImageOffset, 4096, "image data");
  expectOutOfBounds(off::ImageSize, 4096, "image data");
  expectOutOfBounds(off::ImageSize, Huge, "image data");
  expectOutOfBounds(off::Strings, 4096, "string 0");     // key offset
  expectOutOfBounds(off::Strings + 8, Huge, "string 0"); // value offset
}

TEST(FatBinary, StringWithoutNul) {
  ImageSpec S;
  S.Strings = {{"triple", "x"}};
  S.Payload = ""; // the value is the last thing before the (empty) image...
  Bytes B = makeOffloadBinary(S);
  // ...so pointing the value at the binary's last byte, which is a padding
  // byte made non-zero, leaves it without a terminator inside the binary.
  B.back() = 'y';
  put<uint64_t>(B, off::Strings + 8, B.size() - 1);
  Bytes C = makeContainer({B});
  FatBinary F;
  std::string Error;
  EXPECT_FALSE(parseEmbedded(C, F, Error));
  EXPECT_TRUE(contains(Error, "NUL")) << Error;
}

TEST(FatBinary, MissingTerminatorWithinLimit) {
  Bytes C = makeContainer({oneImage()}, /*Terminator=*/false);
  FatBinary F;
  std::string Error;
  EXPECT_FALSE(parseEmbedded(C, F, Error));
  EXPECT_TRUE(contains(Error, "no terminator")) << Error;

  // A partial terminator: fewer than eight bytes before the limit.
  Bytes P = C;
  P.insert(P.end(), 4, 0);
  EXPECT_FALSE(parseEmbedded(P, F, Error));
  EXPECT_TRUE(contains(Error, "no terminator")) << Error;

  // Garbage where the terminator should be is not taken for an image.
  Bytes G = C;
  G.insert(G.end(), 64, 0xEE);
  EXPECT_FALSE(parseEmbedded(G, F, Error));
  EXPECT_TRUE(contains(Error, "bad magic")) << Error;
}

TEST(FatBinary, NeverReadsPastTheLimit) {
  // The container sits at the very end of its buffer with no terminator: a
  // reader that ignored the limit would have to read beyond the vector.
  Bytes C = makeContainer({oneImage()}, /*Terminator=*/false);
  std::vector<unsigned char> Exact(C.begin(), C.end());
  Exact.shrink_to_fit();
  FatBinary F;
  std::string Error;
  for (size_t Limit = 0; Limit <= Exact.size(); ++Limit) {
    EXPECT_FALSE(parseEmbeddedFatBinary(Exact.data(), F, Error, Limit))
        << "limit " << Limit;
    EXPECT_FALSE(Error.empty());
  }
}

TEST(FatBinary, NullData) {
  FatBinary F;
  std::string Error;
  EXPECT_FALSE(parseEmbeddedFatBinary(nullptr, F, Error, 64));
  EXPECT_FALSE(Error.empty());
  EXPECT_TRUE(parseFatBinary(nullptr, 0, F, Error));
}

TEST(FatBinary, FailedParseLeavesOutputUntouched) {
  Bytes Good = validContainer();
  FatBinary F;
  std::string Error;
  ASSERT_TRUE(parseEmbedded(Good, F, Error)) << Error;
  Bytes Bad = Good;
  put<uint32_t>(Bad, off::Version, 9);
  EXPECT_FALSE(parseEmbedded(Bad, F, Error));
  EXPECT_EQ(F.Images.size(), 2u);
}

} // namespace

// The parameters of a kernel whose argument object slmc++ split: pieces of
// the launch's arguments, one word per parameter.
TEST(FatBinary, ArgumentLayouts) {
  DeviceImage Img;
  Img.Strings["slmc.args.k"] = "0:8:8 1 0:0:4";
  Img.Strings["slmc.args.empty"] = "";
  bool Present = false;
  std::vector<ArgumentPiece> Pieces;
  std::string Error;
  ASSERT_TRUE(argumentLayout(Img, "k", Present, Pieces, Error)) << Error;
  ASSERT_TRUE(Present);
  ASSERT_EQ(Pieces.size(), 3u);
  EXPECT_EQ(Pieces[0].Arg, 0u);
  EXPECT_EQ(Pieces[0].Offset, 8u);
  EXPECT_EQ(Pieces[0].Size, 8u);
  EXPECT_EQ(Pieces[1].Arg, 1u);
  EXPECT_EQ(Pieces[1].Size, 0u); // the whole argument
  EXPECT_EQ(Pieces[2].Size, 4u);
  // A kernel that reads nothing of its object takes no parameter for it.
  ASSERT_TRUE(argumentLayout(Img, "empty", Present, Pieces, Error)) << Error;
  EXPECT_TRUE(Present);
  EXPECT_TRUE(Pieces.empty());
  ASSERT_TRUE(argumentLayout(Img, "other", Present, Pieces, Error));
  EXPECT_FALSE(Present);
  for (const char *Bad : {"0:8", "0:8:0", "a", "0  1", "0:1:2:3", "1 ", "-1",
                          "0:18446744073709551615:1", "4294967296", "0:99999999999999999999:1"}) {
    Img.Strings["slmc.args.bad"] = Bad;
    EXPECT_FALSE(argumentLayout(Img, "bad", Present, Pieces, Error)) << Bad;
    EXPECT_NE(Error.find("kernel 'bad': malformed argument layout"), std::string::npos) << Error;
  }
}
