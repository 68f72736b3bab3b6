//===- ProgramTest.cpp - Program files (slmc_program_*) -------------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Program files are built here by hand: placeholder SPIR-V and PTX images
// plus a real host shared object (Inputs/ProgramKernels.cpp, built by CMake)
// whose CPU entries run on the CPU fallback. Corrupt files must be refused
// with SLMC_ERROR_INVALID_IMAGE, never crash.
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"

#include <cm_rt.h>

#include <gtest/gtest.h>

#include <elf.h>
#include <malloc.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <numeric>
#include <string>
#include <vector>

using namespace slmc::test;

namespace {

constexpr uint16_t kImageObject = 1;
constexpr uint16_t kOffloadNone = 0;
const char *const kKernels = "scale(value8,value4);reverse(value8)";

std::string lastError() { return slmc_last_error(); }

Bytes readFile(const char *Path) {
  std::ifstream In(Path, std::ios::binary);
  return Bytes(std::istreambuf_iterator<char>(In), std::istreambuf_iterator<char>());
}

const Bytes &hostObject() {
  static const Bytes Object = readFile(SLMC_TEST_PROGRAM_OBJECT);
  return Object;
}

/// The same kernels, `scale` multiplying by factor + 1.
const Bytes &variantObject() {
  static const Bytes Object = readFile(SLMC_TEST_PROGRAM_OBJECT_VARIANT);
  return Object;
}

struct ProgramSpec {
  std::string SpirvKernels = kKernels;
  std::string PtxKernels = kKernels;
  std::string ObjectKernels = kKernels;
  bool WithObject = true;
  bool ObjectChecksum = true; // as slmc++ writes it
  Bytes Object = hostObject();
};

Bytes makeProgram(const ProgramSpec &S) {
  ImageSpec Spirv;
  Spirv.Kind = kImageSPIRV;
  Spirv.OffloadKind = kOffloadHIP;
  Spirv.Strings = {{"triple", "spirv64-unknown-unknown"},
                   {"slmc.kernels", S.SpirvKernels}};
  Spirv.Payload = std::string("\x03\x02\x23\x07", 4) + "placeholder";
  ImageSpec Ptx;
  Ptx.Kind = kImagePTX;
  Ptx.OffloadKind = kOffloadCUDA;
  Ptx.Strings = {{"triple", "nvptx64-nvidia-cuda"},
                 {"slmc.kernels", S.PtxKernels}};
  Ptx.Payload = "// placeholder PTX\n";
  std::vector<Bytes> Images = {makeOffloadBinary(Spirv), makeOffloadBinary(Ptx)};
  if (S.WithObject) {
    ImageSpec Obj;
    Obj.Kind = kImageObject;
    Obj.OffloadKind = kOffloadNone;
    Obj.Strings = {{"triple", "x86_64-unknown-linux-gnu"},
                   {"slmc.kernels", S.ObjectKernels}};
    Obj.Payload.assign(S.Object.begin(), S.Object.end());
    Obj.Checksum = S.ObjectChecksum;
    Images.push_back(makeOffloadBinary(Obj));
  }
  return makeContainer(Images);
}

Bytes validProgram() { return makeProgram(ProgramSpec()); }

/// Offset of the object image's payload in a container from makeProgram.
size_t objectPayloadOffset(const Bytes &C) {
  size_t Pos = 0;
  for (int I = 0; I < 2; ++I) {
    uint64_t Size;
    std::memcpy(&Size, C.data() + Pos + off::Size, 8);
    Pos = (Pos + Size + 7) & ~size_t(7);
  }
  uint64_t ImageOffset;
  std::memcpy(&ImageOffset, C.data() + Pos + off::ImageOffset, 8);
  return Pos + ImageOffset;
}

class Program : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_EQ(slmc_select_backend(SLMC_BACKEND_CPU), SLMC_SUCCESS) << lastError();
    ASSERT_GT(hostObject().size(), 64u) << "cannot read " << SLMC_TEST_PROGRAM_OBJECT;
  }

  /// Loads `C` expecting SLMC_ERROR_INVALID_IMAGE and returns the message.
  static std::string refused(const Bytes &C) {
    slmc_program *P = reinterpret_cast<slmc_program *>(uintptr_t(1));
    slmc_status S = slmc_program_load(C.data(), C.size(), &P);
    EXPECT_EQ(S, SLMC_ERROR_INVALID_IMAGE) << slmc_status_string(S);
    EXPECT_EQ(P, nullptr);
    if (S == SLMC_SUCCESS)
      slmc_program_release(P);
    return lastError();
  }
};

TEST_F(Program, LoadsListsAndRunsKernelsOnTheCpu) {
  Bytes C = validProgram();
  slmc_program *P = nullptr;
  ASSERT_EQ(slmc_program_load(C.data(), C.size(), &P), SLMC_SUCCESS) << lastError();
  // The runtime copied the bytes.
  std::fill(C.begin(), C.end(), 0xEE);

  uint32_t Count = 0;
  ASSERT_EQ(slmc_program_kernel_count(P, &Count), SLMC_SUCCESS);
  ASSERT_EQ(Count, 2u);
  const char *Name = nullptr;
  ASSERT_EQ(slmc_program_kernel_name(P, 0, &Name), SLMC_SUCCESS);
  EXPECT_STREQ(Name, "scale");
  ASSERT_EQ(slmc_program_kernel_name(P, 1, &Name), SLMC_SUCCESS);
  EXPECT_STREQ(Name, "reverse");
  EXPECT_EQ(slmc_program_kernel_name(P, 2, &Name), SLMC_ERROR_INVALID_VALUE);

  const void *Scale = nullptr, *Reverse = nullptr;
  slmc_cpu_kernel_fn ScaleCpu = nullptr, ReverseCpu = nullptr;
  const char *Signature = nullptr;
  ASSERT_EQ(slmc_program_kernel(P, "scale", &Scale, &ScaleCpu, &Signature),
            SLMC_SUCCESS) << lastError();
  EXPECT_STREQ(Signature, "scale(value8,value4)");
  ASSERT_NE(Scale, nullptr);
  ASSERT_NE(ScaleCpu, nullptr);
  ASSERT_EQ(slmc_program_kernel(P, "reverse", &Reverse, &ReverseCpu, nullptr),
            SLMC_SUCCESS) << lastError();
  EXPECT_NE(Reverse, Scale);

  std::vector<int32_t> Data(512);
  std::iota(Data.begin(), Data.end(), 0);
  int32_t *Ptr = Data.data();
  int32_t Factor = 3;
  ASSERT_EQ(launch(Scale, ScaleCpu, {8, 2, 1}, {16, 2, 1}, {&Ptr, &Factor},
                   {sizeof(Ptr), sizeof(Factor)}),
            SLMC_SUCCESS) << lastError();
  for (int32_t I = 0; I < 512; ++I)
    ASSERT_EQ(Data[I], 3 * I) << "at " << I;

  ASSERT_EQ(launch(Reverse, ReverseCpu, {4, 1, 1}, {128, 1, 1}, {&Ptr},
                   {sizeof(Ptr)}),
            SLMC_SUCCESS) << lastError();
  for (int32_t G = 0; G < 4; ++G)
    for (int32_t L = 0; L < 128; ++L)
      ASSERT_EQ(Data[G * 128 + L], 3 * (G * 128 + 127 - L));

  size_t Bytes = 1;
  EXPECT_EQ(slmc_kernel_group_memory(Scale, &Bytes), SLMC_SUCCESS) << lastError();
  EXPECT_EQ(Bytes, 0u); // CPU: group-local data is thread_local

  ASSERT_EQ(slmc_program_release(P), SLMC_SUCCESS);
  // The handle is gone with the program.
  EXPECT_EQ(launch(Scale, ScaleCpu, {1, 1, 1}, {1, 1, 1}, {&Ptr, &Factor},
                   {sizeof(Ptr), sizeof(Factor)}),
            SLMC_ERROR_KERNEL_NOT_FOUND);
}

TEST_F(Program, TwoLoadsAreIndependent) {
  Bytes C = validProgram();
  slmc_program *A = nullptr, *B = nullptr;
  ASSERT_EQ(slmc_program_load(C.data(), C.size(), &A), SLMC_SUCCESS) << lastError();
  ASSERT_EQ(slmc_program_load(C.data(), C.size(), &B), SLMC_SUCCESS) << lastError();
  const void *HA = nullptr, *HB = nullptr;
  slmc_cpu_kernel_fn CA = nullptr, CB = nullptr;
  ASSERT_EQ(slmc_program_kernel(A, "scale", &HA, &CA, nullptr), SLMC_SUCCESS);
  ASSERT_EQ(slmc_program_kernel(B, "scale", &HB, &CB, nullptr), SLMC_SUCCESS);
  EXPECT_NE(HA, HB);
  ASSERT_EQ(slmc_program_release(A), SLMC_SUCCESS);
  // B still works after A is gone.
  int32_t V[4] = {1, 2, 3, 4};
  int32_t *Ptr = V;
  int32_t Factor = -1;
  ASSERT_EQ(launch(HB, CB, {1, 1, 1}, {4, 1, 1}, {&Ptr, &Factor},
                   {sizeof(Ptr), sizeof(Factor)}),
            SLMC_SUCCESS) << lastError();
  EXPECT_EQ(V[3], -4);
  EXPECT_EQ(slmc_program_release(B), SLMC_SUCCESS);
  EXPECT_EQ(slmc_program_release(nullptr), SLMC_SUCCESS);
}

/// Runs `scale` of `P` with factor 2 on {1, 2, 3, 4}; returns element 3.
int32_t scaleOnce(slmc_program *P) {
  const void *H = nullptr;
  slmc_cpu_kernel_fn Cpu = nullptr;
  if (slmc_program_kernel(P, "scale", &H, &Cpu, nullptr) != SLMC_SUCCESS)
    return -1;
  int32_t V[4] = {1, 2, 3, 4};
  int32_t *Ptr = V;
  int32_t Factor = 2;
  if (launch(H, Cpu, {1, 1, 1}, {4, 1, 1}, {&Ptr, &Factor},
             {sizeof(Ptr), sizeof(Factor)}) != SLMC_SUCCESS)
    return -1;
  return V[3];
}

TEST_F(Program, DifferentProgramsNeverShareHostCode) {
  ProgramSpec S;
  S.Object = variantObject();
  ASSERT_GT(S.Object.size(), 64u);
  const Bytes A = validProgram(), B = makeProgram(S);
  // One after the other, the first released (its in-memory file closed)
  // before the second is loaded; several rounds, so that file numbers and
  // names come back.
  for (int Round = 0; Round < 3; ++Round) {
    slmc_program *P = nullptr;
    ASSERT_EQ(slmc_program_load(A.data(), A.size(), &P), SLMC_SUCCESS) << lastError();
    EXPECT_EQ(scaleOnce(P), 8);
    slmc_program_release(P);
    ASSERT_EQ(slmc_program_load(B.data(), B.size(), &P), SLMC_SUCCESS) << lastError();
    EXPECT_EQ(scaleOnce(P), 12);
    slmc_program_release(P);
  }
  // Both at once.
  slmc_program *PA = nullptr, *PB = nullptr;
  ASSERT_EQ(slmc_program_load(A.data(), A.size(), &PA), SLMC_SUCCESS) << lastError();
  ASSERT_EQ(slmc_program_load(B.data(), B.size(), &PB), SLMC_SUCCESS) << lastError();
  EXPECT_EQ(scaleOnce(PA), 8);
  EXPECT_EQ(scaleOnce(PB), 12);
  slmc_program_release(PA);
  slmc_program_release(PB);
}

TEST_F(Program, UnknownKernelAndBadArguments) {
  Bytes C = validProgram();
  slmc_program *P = nullptr;
  EXPECT_EQ(slmc_program_load(nullptr, 10, &P), SLMC_ERROR_INVALID_VALUE);
  EXPECT_EQ(slmc_program_load(C.data(), 0, &P), SLMC_ERROR_INVALID_VALUE);
  EXPECT_EQ(slmc_program_load(C.data(), C.size(), nullptr), SLMC_ERROR_INVALID_VALUE);
  ASSERT_EQ(slmc_program_load(C.data(), C.size(), &P), SLMC_SUCCESS) << lastError();
  const void *H = nullptr;
  EXPECT_EQ(slmc_program_kernel(P, "nbody", &H, nullptr, nullptr),
            SLMC_ERROR_KERNEL_NOT_FOUND);
  EXPECT_TRUE(contains(lastError(), "'nbody'")) << lastError();
  EXPECT_TRUE(contains(lastError(), "scale, reverse")) << lastError();
  EXPECT_EQ(slmc_program_kernel(P, nullptr, &H, nullptr, nullptr),
            SLMC_ERROR_INVALID_VALUE);
  EXPECT_EQ(slmc_program_kernel(nullptr, "scale", &H, nullptr, nullptr),
            SLMC_ERROR_INVALID_VALUE);
  uint32_t Count;
  EXPECT_EQ(slmc_program_kernel_count(nullptr, &Count), SLMC_ERROR_INVALID_VALUE);
  // Outputs are optional.
  EXPECT_EQ(slmc_program_kernel(P, "scale", nullptr, nullptr, nullptr), SLMC_SUCCESS);
  slmc_program_release(P);
}

TEST_F(Program, WithoutHostObjectTheCpuCannotRunIt) {
  ProgramSpec S;
  S.WithObject = false;
  Bytes C = makeProgram(S);
  slmc_program *P = nullptr;
  ASSERT_EQ(slmc_program_load(C.data(), C.size(), &P), SLMC_SUCCESS) << lastError();
  const void *H = nullptr;
  slmc_cpu_kernel_fn Cpu = reinterpret_cast<slmc_cpu_kernel_fn>(uintptr_t(1));
  ASSERT_EQ(slmc_program_kernel(P, "scale", &H, &Cpu, nullptr), SLMC_SUCCESS);
  EXPECT_EQ(Cpu, nullptr);
  int32_t V = 1, *Ptr = &V, Factor = 2;
  EXPECT_EQ(launch(H, Cpu, {1, 1, 1}, {1, 1, 1}, {&Ptr, &Factor},
                   {sizeof(Ptr), sizeof(Factor)}),
            SLMC_ERROR_KERNEL_NOT_FOUND);
  EXPECT_TRUE(contains(lastError(), "no host version")) << lastError();
  slmc_program_release(P);
}

// Found by the program-file fuzzer (test/fuzz): every load and release kept
// a copy of the program's image records (strings, kernel lists, pointers
// into the freed bytes) for good. The module record itself stays (backends
// key their caches by its address), its images do not.
TEST_F(Program, LoadingAndReleasingInALoopKeepsLittleMemory) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "sanitizer allocators do not report through mallinfo2";
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
  GTEST_SKIP() << "sanitizer allocators do not report through mallinfo2";
#endif
#endif
  // One kernel with a long signature: 2 KB of kernel list in each image.
  std::string Kernels = "scale(surface";
  for (int I = 0; I < 300; ++I)
    Kernels += ",value4";
  Kernels += ")";
  ProgramSpec S;
  S.WithObject = false;
  S.SpirvKernels = S.PtxKernels = Kernels;
  Bytes C = makeProgram(S);
  auto Cycle = [&] {
    slmc_program *P = nullptr;
    ASSERT_EQ(slmc_program_load(C.data(), C.size(), &P), SLMC_SUCCESS) << lastError();
    slmc_program_release(P);
  };
  for (int I = 0; I < 100; ++I)
    Cycle();
  constexpr int kCycles = 2000;
  size_t Before = mallinfo2().uordblks;
  for (int I = 0; I < kCycles; ++I)
    Cycle();
  size_t After = mallinfo2().uordblks;
  size_t PerCycle = After > Before ? (After - Before) / kCycles : 0;
  // What stays is the module and kernel records (a few hundred bytes),
  // not the 4 KB of kernel lists.
  EXPECT_LT(PerCycle, 1024u) << "bytes kept per load and release";
}

TEST_F(Program, KernelListsMustAgreeAndParse) {
  {
    ProgramSpec S;
    S.PtxKernels = "scale(value8,value4)";
    EXPECT_TRUE(contains(refused(makeProgram(S)), "other kernels"));
  }
  {
    // An image without the list is not a program file (e.g. an executable's
    // embedded container).
    Bytes C = makeContainer({makeOffloadBinary(ImageSpec())});
    EXPECT_TRUE(contains(refused(C), "slmc.kernels"));
  }
  EXPECT_TRUE(contains(refused(makeContainer({})), "no device images"));

  const char *Bad[] = {
      "scale",                 // no parentheses
      "(value4)",              // no name
      "1scale(value4)",        // not an identifier
      "sc-ale(value4)",
      "scale(value4",          // unterminated
      "scale(value0)",         // zero bytes
      "scale(value)",          // no size
      "scale(value04)",        // leading zero
      "scale(value99999999)",  // absurd size
      "scale(surface,)",       // empty kind
      "scale(pointer)",        // unknown kind
      "scale(svm8)",           // svm has no size
      "scale(value8,value4);scale(value8)", // duplicate
      "scale(value4)=",        // empty host name
      "scale(value4)k",        // text after the arguments
      "scale(value8,value4)=k;reverse(value8)=k", // duplicate host name
  };
  for (const char *L : Bad) {
    ProgramSpec S;
    S.SpirvKernels = S.PtxKernels = S.ObjectKernels = L;
    std::string Why = refused(makeProgram(S));
    EXPECT_TRUE(contains(Why, "slmc_program_load")) << L << ": " << Why;
  }

  // A trailing separator, an svm argument and argument-less kernels are
  // fine; a listed kernel without a CPU entry in the host object is not.
  {
    ProgramSpec S;
    S.SpirvKernels = S.PtxKernels = S.ObjectKernels = "scale(value8,svm,value4);";
    Bytes C = makeProgram(S);
    slmc_program *P = nullptr;
    ASSERT_EQ(slmc_program_load(C.data(), C.size(), &P), SLMC_SUCCESS) << lastError();
    slmc_program_release(P);
  }
  {
    ProgramSpec S;
    S.SpirvKernels = S.PtxKernels = S.ObjectKernels = "scale(value8,value4);empty()";
    EXPECT_TRUE(contains(refused(makeProgram(S)), "slmc_cm_cpu_empty"));
  }
}

// Instances of a C for Metal kernel template: the host names them as
// Intel's compiler does ("k<float, 16U>"), the entry points are C
// identifiers; spaces and integer suffixes may differ where that is not
// ambiguous.
TEST_F(Program, KernelsNamedOtherwiseThanTheirEntryPoints) {
  ProgramSpec S;
  S.SpirvKernels = S.PtxKernels = S.ObjectKernels =
      "scale(value8,value4)=k<float, 16U>;reverse(value8)=k<int, 16L>";
  Bytes C = makeProgram(S);
  slmc_program *P = nullptr;
  ASSERT_EQ(slmc_program_load(C.data(), C.size(), &P), SLMC_SUCCESS) << lastError();
  const char *Name = nullptr;
  ASSERT_EQ(slmc_program_kernel_name(P, 0, &Name), SLMC_SUCCESS);
  EXPECT_STREQ(Name, "k<float, 16U>");
  const void *H1 = nullptr, *H2 = nullptr, *H3 = nullptr;
  slmc_cpu_kernel_fn Cpu = nullptr;
  const char *Sig = nullptr;
  ASSERT_EQ(slmc_program_kernel(P, "k<float, 16U>", &H1, &Cpu, &Sig), SLMC_SUCCESS);
  EXPECT_NE(Cpu, nullptr);
  EXPECT_STREQ(Sig, "scale(value8,value4)");
  ASSERT_EQ(slmc_program_kernel(P, "k<float,16>", &H2, nullptr, nullptr), SLMC_SUCCESS);
  ASSERT_EQ(slmc_program_kernel(P, "k< int , 16ul >", &H3, nullptr, nullptr), SLMC_SUCCESS);
  EXPECT_EQ(H1, H2);
  EXPECT_NE(H1, H3);
  // The entry point's own name is not the kernel's.
  EXPECT_EQ(slmc_program_kernel(P, "scale", &H1, nullptr, nullptr),
            SLMC_ERROR_KERNEL_NOT_FOUND);
  EXPECT_TRUE(contains(lastError(), "k<float, 16U>, k<int, 16L>")) << lastError();
  slmc_program_release(P);

  // Two names that differ only in suffixes: only the exact one finds each.
  S.SpirvKernels = S.PtxKernels = S.ObjectKernels =
      "scale(value8,value4)=k<1U>;reverse(value8)=k<1L>";
  C = makeProgram(S);
  ASSERT_EQ(slmc_program_load(C.data(), C.size(), &P), SLMC_SUCCESS) << lastError();
  EXPECT_EQ(slmc_program_kernel(P, "k<1>", &H1, nullptr, nullptr),
            SLMC_ERROR_KERNEL_NOT_FOUND);
  EXPECT_EQ(slmc_program_kernel(P, "k<1L>", &H1, nullptr, nullptr), SLMC_SUCCESS);
  slmc_program_release(P);
}

// Program files carry a CRC-32 of each image; a host object is mapped as
// code, so one whose bytes changed, or that has no checksum, is refused
// before the dynamic loader sees it.
TEST_F(Program, ChangedBytesAreRefusedBeforeLoading) {
  const Bytes Good = validProgram();
  size_t At = objectPayloadOffset(Good);
  for (size_t Offset : {size_t(0), size_t(100), hostObject().size() / 2,
                        hostObject().size() - 1}) {
    Bytes C = Good;
    C[At + Offset] ^= 0x5a;
    std::string Why = refused(C);
    EXPECT_TRUE(contains(Why, "is corrupted (checksum")) << Offset << ": " << Why;
  }
  ProgramSpec S;
  S.ObjectChecksum = false;
  EXPECT_TRUE(contains(refused(makeProgram(S)), "has no checksum"));
}

TEST_F(Program, CorruptHostObjectIsRefused) {
  const Bytes &Good = hostObject();
  auto withObject = [](Bytes Obj) {
    ProgramSpec S;
    S.Object = std::move(Obj);
    return makeProgram(S);
  };
  EXPECT_TRUE(contains(refused(withObject(Bytes(Good.begin(), Good.begin() + 40))),
                       "truncated ELF header"));
  {
    Bytes O = Good;
    O[1] = 'X';
    EXPECT_TRUE(contains(refused(withObject(O)), "not an ELF file"));
  }
  {
    Bytes O = Good;
    put<uint16_t>(O, offsetof(Elf64_Ehdr, e_machine), EM_AARCH64 + EM_X86_64);
    EXPECT_TRUE(contains(refused(withObject(O)), "another machine"));
  }
  {
    Bytes O = Good;
    put<uint16_t>(O, offsetof(Elf64_Ehdr, e_type), ET_EXEC);
    EXPECT_TRUE(contains(refused(withObject(O)), "not a shared object"));
  }
  {
    Bytes O = Good;
    put<uint64_t>(O, offsetof(Elf64_Ehdr, e_phoff), uint64_t(1) << 40);
    EXPECT_TRUE(contains(refused(withObject(O)), "program headers"));
  }
  // Cut anywhere past the headers but inside the loadable segments: some
  // segment then lies outside the file. (Section headers and symbol tables
  // after the segments are not needed to load the object.)
  Elf64_Ehdr H;
  std::memcpy(&H, Good.data(), sizeof(H));
  size_t End = 0;
  for (unsigned I = 0; I < H.e_phnum; ++I) {
    Elf64_Phdr Ph;
    std::memcpy(&Ph, Good.data() + H.e_phoff + I * sizeof(Ph), sizeof(Ph));
    if (Ph.p_type == PT_LOAD)
      End = std::max<size_t>(End, Ph.p_offset + Ph.p_filesz);
  }
  // Every cut below lies past the program headers (the object's size and
  // layout vary with the compiler and sanitizers; its loadable part may be
  // the smaller half of the file).
  ASSERT_GT(End / 4, H.e_phoff + size_t(H.e_phnum) * sizeof(Elf64_Phdr));
  for (size_t Cut : {End / 4, End / 2, End - 1}) {
    std::string Why = refused(withObject(Bytes(Good.begin(), Good.begin() + Cut)));
    EXPECT_TRUE(contains(Why, "host object")) << Cut << ": " << Why;
  }
}

TEST_F(Program, TruncatedOrBitFlippedContainersNeverCrash) {
  const Bytes C = validProgram();
  const size_t Object = objectPayloadOffset(C);
  // Every cut through the container's own structures, then a sample of
  // cuts through the host object.
  for (size_t Cut = 1; Cut < C.size(); Cut += Cut < Object + 256 ? 1 : 509) {
    slmc_program *P = nullptr;
    slmc_status S = slmc_program_load(C.data(), Cut, &P);
    if (S == SLMC_SUCCESS) {
      // Only a cut exactly at the end of an image can parse, and it then
      // lacks images, never bytes of one.
      slmc_program_release(P);
      continue;
    }
    ASSERT_EQ(S, SLMC_ERROR_INVALID_IMAGE) << "cut at " << Cut << ": " << lastError();
  }
  // Flip every bit of the container headers, entries, string tables and the
  // device images (the part before the host object's payload): each is an
  // error, unless it leaves the images as they were (padding, unused flags).
  for (size_t Byte = 0; Byte < Object; ++Byte)
    for (int Bit = 0; Bit < 8; ++Bit) {
      Bytes D = C;
      D[Byte] ^= uint8_t(1u << Bit);
      slmc_program *P = nullptr;
      slmc_status S = slmc_program_load(D.data(), D.size(), &P);
      if (S == SLMC_SUCCESS) {
        slmc_program_release(P);
        ASSERT_TRUE(sameImages(C, D)) << "byte " << Byte << " bit " << Bit
                                      << " changed and the program loaded";
        continue;
      }
      ASSERT_EQ(S, SLMC_ERROR_INVALID_IMAGE)
          << "byte " << Byte << " bit " << Bit << ": " << lastError();
    }
}

// Each part of each image (header, entry, string table, strings, bytes) is
// covered: a changed byte that still parses is caught by the checksum.
TEST_F(Program, EveryPartOfEveryImageIsChecked) {
  const Bytes C = validProgram();
  size_t Pos = 0;
  for (int Image = 0; Image < 3; ++Image) {
    uint64_t Size, Strings, NumStrings, ImageAt;
    std::memcpy(&Size, C.data() + Pos + off::Size, 8);
    std::memcpy(&Strings, C.data() + Pos + off::StringOffset, 8);
    std::memcpy(&NumStrings, C.data() + Pos + off::NumStrings, 8);
    std::memcpy(&ImageAt, C.data() + Pos + off::ImageOffset, 8);
    const std::pair<const char *, size_t> Parts[] = {
        {"header", Pos + off::Version},  {"entry", Pos + off::ImageKind},
        {"string table", Pos + Strings}, {"first key", Pos + Strings + 16 * NumStrings},
        {"image bytes", Pos + ImageAt},  {"last image byte", Pos + Size - 1}};
    for (const auto &[Part, At] : Parts) {
      for (uint8_t Change : {uint8_t(1), uint8_t(0x80), uint8_t(0xff)}) {
        Bytes D = C;
        D[At] ^= Change;
        EXPECT_FALSE(refused(D).empty()) << "image " << Image << " " << Part;
      }
    }
    Pos = (Pos + Size + 7) & ~size_t(7);
  }
  // The checksum entry itself, changed to another well-formed value.
  Bytes D = C;
  const std::string Key = "slmc.checksum";
  auto It = std::search(D.begin(), D.end(), Key.begin(), Key.end());
  ASSERT_NE(It, D.end());
  It[Key.size() + 1 + 6] ^= 1; // a hex digit after "crc32:"
  EXPECT_TRUE(contains(refused(D), "is corrupted (checksum")) << refused(D);
}

// ---- <cm_rt.h> over program files ---------------------------------------------
// The CM host API on the CPU fallback, with kernels written with <cm/cm.h>
// (Inputs/ProgramKernels.cpp).

const char *const kCmKernels = "fill(surface,value4);group_reverse(surface)";

class CmRuntime : public Program {
protected:
  void SetUp() override {
    Program::SetUp();
    ProgramSpec S;
    S.SpirvKernels = S.PtxKernels = S.ObjectKernels = kCmKernels;
    Isa = makeProgram(S);
    UINT Version = 0;
    ASSERT_EQ(CreateCmDevice(Device, Version), CM_SUCCESS) << lastError();
    EXPECT_EQ(Version, UINT(CURRENT_CM_VERSION));
    ASSERT_EQ(Device->LoadProgram(Isa.data(), UINT(Isa.size()), Prog), CM_SUCCESS)
        << lastError();
  }
  void TearDown() override {
    if (Device)
      EXPECT_EQ(DestroyCmDevice(Device), CM_SUCCESS);
    EXPECT_EQ(Device, nullptr);
  }

  static bool filled(const std::vector<uint32_t> &V, uint32_t Value, uint32_t Width) {
    for (uint32_t I = 0; I < V.size(); ++I)
      if (V[I] != Value + I % Width + 1000 * (I / Width))
        return false;
    return true;
  }

  Bytes Isa;
  CmDevice *Device = nullptr;
  CmProgram *Prog = nullptr;
};

TEST_F(CmRuntime, ThreadGroupsShareSlm) {
  CmKernel *K = nullptr;
  ASSERT_EQ(Device->CreateKernel(Prog, CM_KERNEL_FUNCTION(group_reverse), K), CM_SUCCESS);
  const UINT N = 4 * 96;
  std::vector<uint32_t> Data(N);
  std::iota(Data.begin(), Data.end(), 0u);
  CmBuffer *B = nullptr;
  ASSERT_EQ(Device->CreateBuffer(N * 4, B), CM_SUCCESS);
  ASSERT_EQ(B->WriteSurface(reinterpret_cast<unsigned char *>(Data.data()), nullptr),
            CM_SUCCESS);
  SurfaceIndex *Index = nullptr;
  ASSERT_EQ(B->GetIndex(Index), CM_SUCCESS);
  ASSERT_EQ(K->SetKernelArg(0, sizeof(SurfaceIndex), Index), CM_SUCCESS);

  size_t Size = 4;
  UINT Cap = 0;
  ASSERT_EQ(Device->GetCaps(CAP_USER_DEFINED_THREAD_COUNT_PER_THREAD_GROUP, Size, &Cap),
            CM_SUCCESS);
  EXPECT_EQ(Size, 4u);
  EXPECT_GE(Cap, 96u);
  UINT Slm = 0;
  ASSERT_EQ(Device->GetCaps(CAP_SLMC_MAX_SLM_SIZE, Size, &Slm), CM_SUCCESS);
  EXPECT_GT(Slm, 0u);
  Size = 2; // too small
  EXPECT_EQ(Device->GetCaps(CAP_USER_DEFINED_THREAD_COUNT_PER_THREAD_GROUP, Size, &Cap),
            CM_FAILURE);

  CmThreadGroupSpace *Space = nullptr;
  ASSERT_EQ(Device->CreateThreadGroupSpace(96, 1, 4, 1, Space), CM_SUCCESS);
  CmTask *Task = nullptr;
  ASSERT_EQ(Device->CreateTask(Task), CM_SUCCESS);
  ASSERT_EQ(Task->AddKernel(K), CM_SUCCESS);
  CmQueue *Queue = nullptr;
  ASSERT_EQ(Device->CreateQueue(Queue), CM_SUCCESS);
  CmEvent *Event = nullptr;
  ASSERT_EQ(Queue->EnqueueWithGroup(Task, Event, Space), CM_SUCCESS) << lastError();
  ASSERT_NE(Event, nullptr);
  ASSERT_EQ(Event->WaitForTaskFinished(), CM_SUCCESS);
  CM_STATUS Status = CM_STATUS_QUEUED;
  ASSERT_EQ(Event->GetStatus(Status), CM_SUCCESS);
  EXPECT_EQ(Status, CM_STATUS_FINISHED);
  std::vector<uint32_t> Out(N);
  ASSERT_EQ(B->ReadSurface(reinterpret_cast<unsigned char *>(Out.data()), Event),
            CM_SUCCESS);
  for (UINT G = 0; G < 4; ++G)
    for (UINT L = 0; L < 96; ++L)
      ASSERT_EQ(Out[G * 96 + L], G * 96 + 95 - L);

  // The same through the kernel's own group space; 3D group spaces.
  ASSERT_EQ(K->AssociateThreadGroupSpace(Space), CM_SUCCESS);
  ASSERT_EQ(Queue->EnqueueWithGroup(Task, Event), CM_SUCCESS);
  CmThreadGroupSpace *Space3 = nullptr;
  ASSERT_EQ(Device->CreateThreadGroupSpaceEx(8, 4, 3, 2, 1, 2, Space3), CM_SUCCESS);
  ASSERT_EQ(Queue->EnqueueWithGroup(Task, Event, Space3), CM_SUCCESS);
  ASSERT_EQ(B->ReadSurface(reinterpret_cast<unsigned char *>(Out.data()), Event),
            CM_SUCCESS);
  for (UINT G = 0; G < 4; ++G) // reversed three times: reversed
    for (UINT L = 0; L < 96; ++L)
      ASSERT_EQ(Out[G * 96 + L], G * 96 + 95 - L);
  EXPECT_EQ(Queue->DestroyEvent(Event), CM_SUCCESS);
  EXPECT_EQ(Event, nullptr);
  EXPECT_EQ(Device->DestroyThreadGroupSpace(Space), CM_SUCCESS);
  EXPECT_EQ(Queue->EnqueueWithGroup(Task, Event), CM_INVALID_THREAD_GROUP_SPACE);
}

TEST_F(CmRuntime, ThreadSpacesCountsAndUserBuffers) {
  CmKernel *K = nullptr;
  ASSERT_EQ(Device->CreateKernel(Prog, "fill", K), CM_SUCCESS);
  const UINT N = 32;
  std::vector<uint32_t> User(N, 0);
  CmBufferUP *Up = nullptr;
  ASSERT_EQ(Device->CreateBufferUP(N * 4, User.data(), Up), CM_SUCCESS);
  SurfaceIndex *Index = nullptr;
  ASSERT_EQ(Up->GetIndex(Index), CM_SUCCESS);
  uint32_t Value = 5;
  ASSERT_EQ(K->SetKernelArg(0, sizeof(SurfaceIndex), Index), CM_SUCCESS);
  ASSERT_EQ(K->SetKernelArg(1, sizeof(Value), &Value), CM_SUCCESS);
  CmThreadSpace *Ts = nullptr;
  ASSERT_EQ(Device->CreateThreadSpace(8, 4, Ts), CM_SUCCESS);
  CmTask *Task = nullptr;
  ASSERT_EQ(Device->CreateTask(Task), CM_SUCCESS);
  ASSERT_EQ(Task->AddKernel(K), CM_SUCCESS);
  CmQueue *Queue = nullptr;
  ASSERT_EQ(Device->CreateQueue(Queue), CM_SUCCESS);
  CmEvent *Event = nullptr;
  ASSERT_EQ(Queue->Enqueue(Task, Event, Ts), CM_SUCCESS) << lastError();
  ASSERT_EQ(Event->WaitForTaskFinished(), CM_SUCCESS);
  EXPECT_TRUE(filled(User, 5, 8));

  // SetThreadCount without a space: one row of 32 threads; no event wanted.
  Value = 9;
  ASSERT_EQ(K->SetKernelArg(1, sizeof(Value), &Value), CM_SUCCESS);
  ASSERT_EQ(K->SetThreadCount(N), CM_SUCCESS);
  CmEvent *None = CM_NO_EVENT;
  ASSERT_EQ(Queue->Enqueue(Task, None), CM_SUCCESS);
  EXPECT_EQ(None, CM_NO_EVENT);
  EXPECT_EQ(Device->DestroyBufferUP(Up), CM_SUCCESS); // waits and copies back
  EXPECT_TRUE(filled(User, 9, 32));
  EXPECT_EQ(Up, nullptr);
  // The kernel's argument now names a destroyed buffer.
  EXPECT_EQ(Queue->Enqueue(Task, Event, Ts), CM_INVALID_ARG_VALUE);
}

TEST_F(CmRuntime, MisuseGivesErrorCodes) {
  CmProgram *P = nullptr;
  std::string Garbage(512, 'x');
  EXPECT_EQ(Device->LoadProgram(&Garbage[0], UINT(Garbage.size()), P),
            CM_INVALID_COMMON_ISA);
  EXPECT_EQ(Device->LoadProgram(Isa.data(), UINT(Isa.size() / 3), P),
            CM_INVALID_COMMON_ISA);
  EXPECT_EQ(Device->LoadProgram(nullptr, 10, P), CM_INVALID_ARG_VALUE);
  EXPECT_EQ(P, nullptr);

  CmKernel *K = nullptr;
  EXPECT_EQ(Device->CreateKernel(Prog, "nbody", K), CM_FAILURE);
  EXPECT_EQ(Device->CreateKernel(nullptr, "fill", K), CM_INVALID_ARG_VALUE);
  ASSERT_EQ(Device->CreateKernel(Prog, "fill", K), CM_SUCCESS);

  CmBuffer *B = nullptr;
  EXPECT_EQ(Device->CreateBuffer(0, B), CM_INVALID_WIDTH);
  ASSERT_EQ(Device->CreateBuffer(64, B), CM_SUCCESS);
  SurfaceIndex *Index = nullptr;
  ASSERT_EQ(B->GetIndex(Index), CM_SUCCESS);
  uint32_t Value = 1;
  EXPECT_EQ(K->SetKernelArg(2, 4, &Value), CM_INVALID_ARG_INDEX);
  EXPECT_EQ(K->SetKernelArg(0, 4, Index), CM_INVALID_ARG_SIZE);
  EXPECT_EQ(K->SetKernelArg(1, 2, &Value), CM_INVALID_ARG_SIZE);
  EXPECT_EQ(K->SetKernelArg(1, 4, nullptr), CM_INVALID_ARG_VALUE);
  SurfaceIndex Forged = *Index;
  Forged.index = 77;
  EXPECT_EQ(K->SetKernelArg(0, sizeof(SurfaceIndex), &Forged), CM_INVALID_ARG_VALUE);

  CmTask *Task = nullptr;
  ASSERT_EQ(Device->CreateTask(Task), CM_SUCCESS);
  CmQueue *Queue = nullptr;
  ASSERT_EQ(Device->CreateQueue(Queue), CM_SUCCESS);
  CmEvent *Event = nullptr;
  EXPECT_EQ(Queue->Enqueue(Task, Event), CM_FAILURE); // no kernels
  EXPECT_EQ(Task->AddKernel(nullptr), CM_INVALID_ARG_VALUE);
  ASSERT_EQ(Task->AddKernel(K), CM_SUCCESS);
  EXPECT_EQ(Queue->Enqueue(Task, Event), CM_NOT_SET_KERNEL_ARGUMENT);
  ASSERT_EQ(K->SetKernelArg(0, sizeof(SurfaceIndex), Index), CM_SUCCESS);
  ASSERT_EQ(K->SetKernelArg(1, 4, &Value), CM_SUCCESS);
  EXPECT_EQ(Queue->Enqueue(Task, Event), CM_INVALID_THREAD_SPACE); // no threads
  EXPECT_EQ(Event, nullptr);
  EXPECT_EQ(K->SetThreadCount(0), CM_INVALID_ARG_VALUE);

  size_t Size = 4;
  UINT Cap = 0;
  ASSERT_EQ(Device->GetCaps(CAP_USER_DEFINED_THREAD_COUNT_PER_THREAD_GROUP, Size, &Cap),
            CM_SUCCESS);
  CmThreadGroupSpace *G = nullptr;
  EXPECT_EQ(Device->CreateThreadGroupSpace(Cap + 1, 1, 1, 1, G),
            CM_INVALID_THREAD_GROUP_SPACE);
  EXPECT_EQ(Device->CreateThreadGroupSpace(Cap, 2, 1, 1, G), CM_INVALID_THREAD_GROUP_SPACE);
  EXPECT_EQ(Device->CreateThreadGroupSpace(1, 1, 0, 1, G), CM_INVALID_THREAD_GROUP_SPACE);
  EXPECT_EQ(Device->CreateThreadGroupSpaceEx(1, 1, 1, 65536, 65536, 2, G),
            CM_INVALID_THREAD_GROUP_SPACE);
  EXPECT_EQ(G, nullptr);
  CmThreadSpace *Ts = nullptr;
  EXPECT_EQ(Device->CreateThreadSpace(0, 1, Ts), CM_INVALID_THREAD_SPACE);
  EXPECT_EQ(Device->CreateThreadSpace(1, 70000, Ts), CM_INVALID_THREAD_SPACE);
  ASSERT_EQ(Device->CreateThreadSpace(4, 4, Ts), CM_SUCCESS);
  ASSERT_EQ(K->SetThreadCount(15), CM_SUCCESS);
  EXPECT_EQ(Queue->Enqueue(Task, Event, Ts), CM_INVALID_THREAD_SPACE); // 15 != 16

  // Destroying objects twice or foreign ones.
  CmBuffer *Copy = B;
  EXPECT_EQ(Device->DestroySurface(B), CM_SUCCESS);
  EXPECT_EQ(Device->DestroySurface(Copy), CM_INVALID_BUFFER_HANDLER);
  CmTask *TaskCopy = Task;
  EXPECT_EQ(Device->DestroyTask(Task), CM_SUCCESS);
  EXPECT_EQ(Device->DestroyTask(TaskCopy), CM_INVALID_ARG_VALUE);
  // A program outlives DestroyProgram while kernels of it live.
  EXPECT_EQ(Device->DestroyProgram(Prog), CM_SUCCESS);
  EXPECT_EQ(Device->DestroyKernel(K), CM_SUCCESS);
  EXPECT_EQ(DestroyCmDevice(Device), CM_SUCCESS);
  CmDevice *Null = nullptr;
  EXPECT_EQ(DestroyCmDevice(Null), CM_FAILURE);
  EXPECT_STREQ(GetCmErrorString(CM_EXCEED_MAX_THREAD_AMOUNT_PER_ENQUEUE),
               "CM_EXCEED_MAX_THREAD_AMOUNT_PER_ENQUEUE");
}

} // namespace
