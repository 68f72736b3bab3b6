//===- LevelZeroContractTest.cpp - The Level Zero backend's driver calls --===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Checks, through the public C API, which Level Zero calls libslmrt makes:
// the real loader (libze_loader.so.1) loads the recording driver built next
// to this test (RecordingDriver.cpp), which logs every call to the file named
// by $SLMC_ZE_RECORD and is scripted through environment variables.
//
// ctest runs every test in its own process with the driver selected by
// ZE_ENABLE_ALT_DRIVERS (see CMakeLists.txt). The LevelZeroScenario tests
// need settings that must be in place before the runtime creates its
// backend; ctest runs each with its own environment and SLMC_ZE_SCENARIO
// naming it, and they skip themselves otherwise.
//
//===----------------------------------------------------------------------===//

#include "FatBinary.h"
#include "slmc/runtime.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace {

using Bytes = std::vector<unsigned char>;

// ---- Offload containers ------------------------------------------------------
// LLVM's OffloadBinary (version 1): header, one entry, its string table, the
// strings and the image, each binary padded to 8 bytes, the sequence ended by
// eight zero bytes.

constexpr uint16_t kImagePTX = 5, kImageSPIRV = 6;
constexpr uint16_t kOffloadHIP = 4;

template <class T> void append(Bytes &B, T V) {
  const auto *P = reinterpret_cast<const unsigned char *>(&V);
  B.insert(B.end(), P, P + sizeof(T));
}

void pad8(Bytes &B) {
  while (B.size() % 8)
    B.push_back(0);
}

using StringEntries = std::vector<std::pair<std::string, std::string>>;

Bytes offloadBinary(uint16_t Kind, const std::string &Payload,
                    const StringEntries &Extra = {}) {
  StringEntries Strings = {
      {"triple", Kind == kImageSPIRV ? "spirv64-unknown-unknown"
                                     : "nvptx64-nvidia-cuda"},
      {"arch", Kind == kImageSPIRV ? "generic" : "sm_70"}};
  Strings.insert(Strings.end(), Extra.begin(), Extra.end());
  // The checksum slmc++ writes, without which the runtime uses no image.
  slmc::rt::DeviceImage Checked;
  Checked.Kind = static_cast<slmc::rt::ImageKind>(Kind);
  Checked.OffloadKind = kOffloadHIP;
  Checked.Strings.insert(Strings.begin(), Strings.end());
  Checked.Data = reinterpret_cast<const unsigned char *>(Payload.data());
  Checked.Size = Payload.size();
  Strings.push_back({slmc::rt::kChecksumKey, slmc::rt::imageChecksum(Checked)});
  const uint64_t HeaderSize = 32, EntrySize = 40, StringEntrySize = 16;
  const uint64_t StringTable = HeaderSize + EntrySize;
  uint64_t StringData = StringTable + Strings.size() * StringEntrySize;
  std::string Text;
  std::vector<std::pair<uint64_t, uint64_t>> Offsets;
  for (const auto &[K, V] : Strings) {
    uint64_t KeyOffset = StringData + Text.size();
    Text += K;
    Text += '\0';
    uint64_t ValueOffset = StringData + Text.size();
    Text += V;
    Text += '\0';
    Offsets.emplace_back(KeyOffset, ValueOffset);
  }
  uint64_t ImageOffset = (StringData + Text.size() + 7) / 8 * 8;
  uint64_t Size = ImageOffset + Payload.size();

  Bytes B;
  const unsigned char Magic[] = {0x10, 0xFF, 0x10, 0xAD};
  B.insert(B.end(), Magic, Magic + sizeof(Magic));
  append<uint32_t>(B, 1);           // Version
  append<uint64_t>(B, Size);        // Size
  append<uint64_t>(B, HeaderSize);  // EntryOffset
  append<uint64_t>(B, EntrySize);   // EntrySize
  append<uint16_t>(B, Kind);        // ImageKind
  append<uint16_t>(B, kOffloadHIP); // OffloadKind
  append<uint32_t>(B, 0);           // Flags
  append<uint64_t>(B, StringTable); // StringOffset
  append<uint64_t>(B, Strings.size());
  append<uint64_t>(B, ImageOffset);
  append<uint64_t>(B, Payload.size());
  for (const auto &[K, V] : Offsets) {
    append<uint64_t>(B, K);
    append<uint64_t>(B, V);
  }
  B.insert(B.end(), Text.begin(), Text.end());
  while (B.size() < ImageOffset)
    B.push_back(0);
  B.insert(B.end(), Payload.begin(), Payload.end());
  return B;
}

/// A SPIR-V module header (magic, version 1.4, generator, bound, schema)
/// followed by a tag that makes every test's image distinct. The recording
/// driver does not parse SPIR-V.
std::string fakeSpirv(const std::string &Tag) {
  const uint32_t Words[] = {0x07230203u, 0x00010400u, 0, 16, 0};
  std::string S(reinterpret_cast<const char *>(Words), sizeof(Words));
  return S + Tag;
}

std::string hex(const void *Data, size_t Size) {
  static const char Digits[] = "0123456789abcdef";
  std::string S;
  const auto *P = static_cast<const unsigned char *>(Data);
  for (size_t I = 0; I < Size; ++I) {
    S += Digits[P[I] >> 4];
    S += Digits[P[I] & 15];
  }
  return S;
}

// The runtime only reads containers that lie in a loaded ELF segment, as the
// ones slmc++ embeds do; this static arena is one.
alignas(8) unsigned char Arena[1 << 16];
size_t ArenaUsed = 0;
// Kernel handles: the runtime only needs distinct host addresses.
char HandleArena[1024];
size_t HandlesUsed = 0;

struct Program {
  std::vector<const void *> Kernels; // in the order of the names given
  std::string Spirv;                 // the SPIR-V image, if any
};

/// Registers a container holding `Images` (kind, payload) and the kernels
/// `Names`, the way the host code that Clang generates does.
Program registerProgram(const std::vector<std::pair<uint16_t, std::string>> &Images,
                        const std::vector<std::string> &Names,
                        const StringEntries &SpirvStrings = {}) {
  Bytes Container;
  Program P;
  for (const auto &[Kind, Payload] : Images) {
    Bytes B = offloadBinary(Kind, Payload, Kind == kImageSPIRV ? SpirvStrings : StringEntries());
    Container.insert(Container.end(), B.begin(), B.end());
    pad8(Container);
    if (Kind == kImageSPIRV && P.Spirv.empty())
      P.Spirv = Payload;
  }
  append<uint64_t>(Container, 0); // terminator
  EXPECT_LE(ArenaUsed + Container.size(), sizeof(Arena));
  unsigned char *Data = Arena + ArenaUsed;
  std::memcpy(Data, Container.data(), Container.size());
  ArenaUsed += (Container.size() + 7) / 8 * 8;

  struct {
    int32_t Magic, Version;
    const void *Data;
    void *Unused;
  } Wrapper = {0x48495046, 1, Data, nullptr};
  void **Module = __hipRegisterFatBinary(&Wrapper);
  for (const std::string &Name : Names) {
    const void *Handle = &HandleArena[HandlesUsed++];
    __hipRegisterFunction(Module, Handle, const_cast<char *>(Name.c_str()),
                          Name.c_str(), static_cast<unsigned>(-1), nullptr,
                          nullptr, nullptr, nullptr, nullptr);
    P.Kernels.push_back(Handle);
  }
  return P;
}

Program spirvProgram(const std::string &Tag, const std::vector<std::string> &Names) {
  return registerProgram({{kImageSPIRV, fakeSpirv(Tag)}}, Names);
}

Program spirvProgram(const std::string &Tag, const std::vector<std::string> &Names,
                     const StringEntries &Strings) {
  return registerProgram({{kImageSPIRV, fakeSpirv(Tag)}}, Names, Strings);
}

// ---- Launching -------------------------------------------------------------

struct Args {
  std::vector<void *> Values;
  std::vector<size_t> Sizes;
  template <class T> Args &add(T &V) {
    Values.push_back(&V);
    Sizes.push_back(sizeof(T));
    return *this;
  }
};

slmc_status launch(const void *Kernel, slmc_dim3 Groups, slmc_dim3 Size,
                   size_t Dynamic, Args &A) {
  slmc_launch_params P{};
  P.group_count = Groups;
  P.group_size = Size;
  P.dynamic_group_memory = Dynamic;
  P.num_args = static_cast<uint32_t>(A.Values.size());
  P.args = A.Values.empty() ? nullptr : A.Values.data();
  P.arg_sizes = A.Sizes.empty() ? nullptr : A.Sizes.data();
  return slmc_launch(Kernel, nullptr, &P);
}

slmc_status launch(const void *Kernel, slmc_dim3 Groups, slmc_dim3 Size,
                   size_t Dynamic = 0) {
  Args None;
  return launch(Kernel, Groups, Size, Dynamic, None);
}

// ---- Driver settings mirrored here (defaults as in RecordingDriver.cpp) ----

uint64_t envNumber(const char *Name, uint64_t Default) {
  const char *V = std::getenv(Name);
  return V && *V ? std::strtoull(V, nullptr, 0) : Default;
}

std::vector<uint64_t> envList(const char *Name, const char *Default) {
  const char *V = std::getenv(Name);
  std::string S = V && *V ? V : Default;
  std::vector<uint64_t> Out;
  size_t Pos = 0;
  while (Pos <= S.size()) {
    size_t Next = S.find(',', Pos);
    if (Next == std::string::npos)
      Next = S.size();
    Out.push_back(std::strtoull(S.substr(Pos, Next - Pos).c_str(), nullptr, 0));
    Pos = Next + 1;
  }
  return Out;
}

size_t maxSlm() { return envNumber("SLMC_ZE_MAX_SLM", 65536); }
size_t maxGroupSize() { return envNumber("SLMC_ZE_MAX_GROUP_SIZE", 1024); }
std::vector<uint64_t> maxGroupDims() {
  return envList("SLMC_ZE_MAX_GROUP_DIMS", "1024,1024,64");
}

/// Whether the loader wraps driver handles (ZE_ENABLE_LOADER_INTERCEPT); the
/// runtime then builds modules without asking for a build log.
bool loaderWraps() {
  const char *V = std::getenv("ZE_ENABLE_LOADER_INTERCEPT");
  return V && *V && std::strcmp(V, "0") != 0;
}

/// The zeModuleCreate line for a SPIR-V image.
std::string moduleCreateLine(const std::string &Spirv) {
  return "zeModuleCreate format=il_spirv size=" + std::to_string(Spirv.size()) +
         " bytes=" + hex(Spirv.data(), Spirv.size()) + " flags=\"\" buildLog=" +
         (loaderWraps() ? "none" : "requested");
}

bool inScenario(const char *Name) {
  const char *S = std::getenv("SLMC_ZE_SCENARIO");
  return S && std::strcmp(S, Name) == 0;
}

// ---- The fixture -------------------------------------------------------------

class LevelZeroTest : public ::testing::Test {
protected:
  void SetUp() override {
    const char *Dir = std::getenv("TMPDIR");
    std::string Template =
        std::string(Dir && *Dir ? Dir : "/tmp") + "/slmc-ze-record-XXXXXX";
    std::vector<char> Path(Template.begin(), Template.end());
    Path.push_back('\0');
    int Fd = mkstemp(Path.data());
    ASSERT_GE(Fd, 0) << "cannot create a record file";
    close(Fd);
    RecordPath = Path.data();
    setenv("SLMC_ZE_RECORD", RecordPath.c_str(), 1);
  }

  void TearDown() override {
    for (const char *V : {"SLMC_ZE_KERNELS", "SLMC_ZE_BUILD_LOG", "SLMC_ZE_FAIL",
                          "SLMC_ZE_HANG"})
      unsetenv(V);
    slmc_backend B;
    if (slmc_get_backend(&B) == SLMC_SUCCESS)
      slmc_synchronize();
    unsetenv("SLMC_ZE_RECORD");
    if (!RecordPath.empty())
      unlink(RecordPath.c_str());
  }

  /// Selects the Level Zero backend, or fails the test with the reason.
  void selectLevelZero() {
    ASSERT_EQ(slmc_select_backend(SLMC_BACKEND_LEVEL_ZERO), SLMC_SUCCESS)
        << slmc_last_error();
  }

  /// The lines recorded so far.
  std::vector<std::string> recorded() const {
    std::vector<std::string> Lines;
    std::ifstream In(RecordPath);
    for (std::string L; std::getline(In, L);)
      Lines.push_back(L);
    return Lines;
  }

  /// The recorded lines that start with `Prefix`.
  std::vector<std::string> recorded(const std::string &Prefix) const {
    std::vector<std::string> Out;
    for (const std::string &L : recorded())
      if (L.compare(0, Prefix.size(), Prefix) == 0)
        Out.push_back(L);
    return Out;
  }

  /// Drops everything recorded so far.
  void clearRecord() const { std::ofstream(RecordPath, std::ios::trunc); }

  /// Asserts that `Expected` lines were recorded in this order, each an
  /// exact line, possibly with other lines in between; returns the index of
  /// the last one.
  void expectSequence(const std::vector<std::string> &Expected) const {
    std::vector<std::string> Lines = recorded();
    size_t Pos = 0;
    for (const std::string &E : Expected) {
      bool Found = false;
      for (; Pos < Lines.size(); ++Pos)
        if (Lines[Pos] == E) {
          Found = true;
          ++Pos;
          break;
        }
      if (!Found) {
        std::string All;
        for (const std::string &L : Lines)
          All += "  " + L + "\n";
        ADD_FAILURE() << "not recorded (in this order): " << E
                      << "\nrecorded:\n"
                      << All;
        return;
      }
    }
  }

  std::string RecordPath;
};

using LevelZeroContract = LevelZeroTest;
using LevelZeroScenario = LevelZeroTest;

// ---- Device ------------------------------------------------------------------

TEST_F(LevelZeroContract, DeviceInfoReflectsDriverLimits) {
  selectLevelZero();
  slmc_backend Kind = SLMC_BACKEND_AUTO;
  ASSERT_EQ(slmc_get_backend(&Kind), SLMC_SUCCESS);
  EXPECT_EQ(Kind, SLMC_BACKEND_LEVEL_ZERO);
  EXPECT_TRUE(slmc_backend_available(SLMC_BACKEND_LEVEL_ZERO));

  slmc_device_info Info{};
  ASSERT_EQ(slmc_get_device_info(&Info), SLMC_SUCCESS) << slmc_last_error();
  const char *Name = std::getenv("SLMC_ZE_DEVICE_NAME");
  EXPECT_STREQ(Info.name, Name ? Name : "slmc recording GPU");
  EXPECT_EQ(Info.backend, SLMC_BACKEND_LEVEL_ZERO);
  EXPECT_EQ(Info.max_group_size, maxGroupSize());
  std::vector<uint64_t> Dims = maxGroupDims();
  EXPECT_EQ(Info.max_group_dims.x, Dims[0]);
  EXPECT_EQ(Info.max_group_dims.y, Dims[1]);
  EXPECT_EQ(Info.max_group_dims.z, Dims[2]);
  EXPECT_EQ(Info.max_group_local_memory, maxSlm());
  uint64_t Memory = 0;
  for (uint64_t M : envList("SLMC_ZE_MEMORIES", "8589934592"))
    Memory += M;
  EXPECT_EQ(Info.global_memory, Memory);
  std::vector<uint64_t> Layout = envList("SLMC_ZE_EU_LAYOUT", "1,8,16");
  EXPECT_EQ(Info.compute_units, Layout[0] * Layout[1] * Layout[2]);
}

// ---- Launches ----------------------------------------------------------------

TEST_F(LevelZeroContract, LaunchRecordsCallSequence) {
  setenv("SLMC_ZE_KERNELS", "_Z4vaddPfS_S_i:4:0", 1);
  selectLevelZero();
  Program P = spirvProgram("launch", {"_Z4vaddPfS_S_i"});
  void *A = nullptr, *B = nullptr, *C = nullptr;
  ASSERT_EQ(slmc_malloc_device(&A, 256), SLMC_SUCCESS) << slmc_last_error();
  ASSERT_EQ(slmc_malloc_device(&B, 256), SLMC_SUCCESS) << slmc_last_error();
  ASSERT_EQ(slmc_malloc_shared(&C, 256), SLMC_SUCCESS) << slmc_last_error();
  int32_t N = 64;
  clearRecord();

  Args Arguments;
  Arguments.add(A).add(B).add(C).add(N);
  ASSERT_EQ(launch(P.Kernels[0], {4, 2, 1}, {64, 2, 1}, 0, Arguments),
            SLMC_SUCCESS)
      << slmc_last_error();
  const std::string K = "kernel=_Z4vaddPfS_S_i";
  expectSequence({
      moduleCreateLine(P.Spirv),
      "zeKernelCreate name=_Z4vaddPfS_S_i",
      // Host, device and shared allocations reached through by-value
      // arguments (functor captures) stay resident.
      "zeKernelSetIndirectAccess " + K + " flags=7",
      "zeKernelGetProperties " + K + " numKernelArgs=4 localMemSize=0",
      "zeKernelSetGroupSize " + K + " size=64x2x1",
      "zeKernelSetArgumentValue " + K + " index=0 size=8 value=" + hex(&A, 8),
      "zeKernelSetArgumentValue " + K + " index=1 size=8 value=" + hex(&B, 8),
      "zeKernelSetArgumentValue " + K + " index=2 size=8 value=" + hex(&C, 8),
      "zeKernelSetArgumentValue " + K + " index=3 size=4 value=" + hex(&N, 4),
      "zeCommandListAppendLaunchKernel " + K + " groups=4x2x1",
      "zeCommandListClose",
      "zeCommandQueueExecuteCommandLists count=1",
  });
  // No dynamic group-local memory, no trailing parameter.
  EXPECT_TRUE(recorded("zeKernelSetArgumentValue " + K + " index=4").empty());
  EXPECT_EQ(recorded("zeModuleCreate").size(), 1u);

  // Completion is observed by synchronizing the queue.
  clearRecord();
  ASSERT_EQ(slmc_synchronize(), SLMC_SUCCESS) << slmc_last_error();
  EXPECT_EQ(recorded("zeCommandQueueSynchronize").size(), 1u);
  // Nothing is in flight any more.
  clearRecord();
  ASSERT_EQ(slmc_synchronize(), SLMC_SUCCESS) << slmc_last_error();
  EXPECT_TRUE(recorded("zeCommandQueueSynchronize").empty());

  for (void *Ptr : {A, B, C})
    EXPECT_EQ(slmc_free(Ptr), SLMC_SUCCESS) << slmc_last_error();
}

// slmc++ splits a kernel's argument object into the fields it reads (so that
// IGC sees pointer parameters); the image lists each parameter as bytes of
// a launch argument, and the runtime passes those.
TEST_F(LevelZeroContract, SplitArgumentObjectIsPassedByPieces) {
  setenv("SLMC_ZE_KERNELS", "split:4:0,split_dynamic:3:0", 1);
  selectLevelZero();
  Program P = spirvProgram("split", {"split", "split_dynamic"},
                           {{"slmc.args.split", "0:8:8 0:0:4 1 0:16:8"},
                            {"slmc.args.split_dynamic", "0:0:8 0:16:8"}});
  struct {
    int32_t Rows, Cols;
    void *Data;
    void *Out;
  } Object = {3, 4, reinterpret_cast<void *>(0x1000), reinterpret_cast<void *>(0x2000)};
  int32_t Extra = 7;
  clearRecord();
  Args Arguments;
  Arguments.add(Object).add(Extra);
  ASSERT_EQ(launch(P.Kernels[0], {1, 1, 1}, {16, 1, 1}, 0, Arguments), SLMC_SUCCESS)
      << slmc_last_error();
  const std::string K = "kernel=split";
  const char *Bytes = reinterpret_cast<const char *>(&Object);
  expectSequence({
      "zeKernelSetArgumentValue " + K + " index=0 size=8 value=" + hex(Bytes + 8, 8),
      "zeKernelSetArgumentValue " + K + " index=1 size=4 value=" + hex(Bytes, 4),
      "zeKernelSetArgumentValue " + K + " index=2 size=4 value=" + hex(&Extra, 4),
      "zeKernelSetArgumentValue " + K + " index=3 size=8 value=" + hex(Bytes + 16, 8),
      "zeCommandListAppendLaunchKernel " + K + " groups=1x1x1",
  });
  EXPECT_TRUE(recorded("zeKernelSetArgumentValue " + K + " index=4").empty());

  // The trailing local-memory parameter follows the pieces.
  clearRecord();
  Args One;
  One.add(Object);
  ASSERT_EQ(launch(P.Kernels[1], {1, 1, 1}, {16, 1, 1}, 512, One), SLMC_SUCCESS)
      << slmc_last_error();
  const std::string D = "kernel=split_dynamic";
  expectSequence({
      "zeKernelSetArgumentValue " + D + " index=0 size=8 value=" + hex(Bytes, 8),
      "zeKernelSetArgumentValue " + D + " index=1 size=8 value=" + hex(Bytes + 16, 8),
      "zeKernelSetArgumentValue " + D + " index=2 size=512 value=null",
  });

  // A launch whose argument is smaller than the pieces read is refused
  // before any argument is set.
  clearRecord();
  Args Small;
  Small.add(Extra).add(Extra);
  EXPECT_EQ(launch(P.Kernels[0], {1, 1, 1}, {16, 1, 1}, 0, Small), SLMC_ERROR_INVALID_VALUE);
  EXPECT_NE(std::string(slmc_last_error())
                .find("kernel 'split' reads bytes 8 to 16 of argument 0, which the launch "
                      "passes with 4 bytes"),
            std::string::npos)
      << slmc_last_error();
  EXPECT_TRUE(recorded("zeKernelSetArgumentValue").empty());
}

TEST_F(LevelZeroContract, MalformedArgumentLayoutIsInvalidImage) {
  setenv("SLMC_ZE_KERNELS", "bad:2:0", 1);
  selectLevelZero();
  Program P = spirvProgram("badlayout", {"bad"}, {{"slmc.args.bad", "0:0 1"}});
  int32_t V = 1;
  Args Arguments;
  Arguments.add(V);
  EXPECT_EQ(launch(P.Kernels[0], {1, 1, 1}, {1, 1, 1}, 0, Arguments),
            SLMC_ERROR_INVALID_IMAGE);
  EXPECT_NE(std::string(slmc_last_error())
                .find("kernel 'bad': malformed argument layout '0:0 1'"),
            std::string::npos)
      << slmc_last_error();
}

TEST_F(LevelZeroContract, ModuleAndKernelsAreBuiltOnce) {
  setenv("SLMC_ZE_KERNELS", "first:0:0,second:0:0", 1);
  selectLevelZero();
  Program P = spirvProgram("once", {"first", "second"});
  clearRecord();
  for (int I = 0; I < 3; ++I) {
    ASSERT_EQ(launch(P.Kernels[0], {1, 1, 1}, {1, 1, 1}), SLMC_SUCCESS)
        << slmc_last_error();
    ASSERT_EQ(launch(P.Kernels[1], {2, 1, 1}, {1, 1, 1}), SLMC_SUCCESS)
        << slmc_last_error();
  }
  EXPECT_EQ(recorded("zeModuleCreate").size(), 1u);
  EXPECT_EQ(recorded("zeKernelCreate name=first").size(), 1u);
  EXPECT_EQ(recorded("zeKernelCreate name=second").size(), 1u);
  EXPECT_EQ(recorded("zeCommandListAppendLaunchKernel kernel=first").size(), 3u);
  EXPECT_EQ(recorded("zeCommandListAppendLaunchKernel kernel=second").size(), 3u);
  // In order: every launch after the first waits for the previous one.
  EXPECT_EQ(recorded("zeCommandQueueSynchronize").size(), 5u);
  EXPECT_EQ(recorded("zeCommandListReset").size(), 5u);
}

TEST_F(LevelZeroContract, DynamicGroupMemoryIsTrailingLocalArgument) {
  // Two arguments plus the trailing local-memory parameter; 1 KiB static.
  setenv("SLMC_ZE_KERNELS", "reduce:3:1024", 1);
  selectLevelZero();
  Program P = spirvProgram("dynamic", {"reduce"});
  void *In = nullptr;
  ASSERT_EQ(slmc_malloc_device(&In, 1024), SLMC_SUCCESS) << slmc_last_error();
  uint32_t Count = 256;
  clearRecord();

  Args Arguments;
  Arguments.add(In).add(Count);
  ASSERT_EQ(launch(P.Kernels[0], {8, 1, 1}, {128, 1, 1}, 4096, Arguments),
            SLMC_SUCCESS)
      << slmc_last_error();
  const std::string K = "kernel=reduce";
  expectSequence({
      "zeKernelSetGroupSize " + K + " size=128x1x1",
      "zeKernelSetArgumentValue " + K + " index=0 size=8 value=" + hex(&In, 8),
      "zeKernelSetArgumentValue " + K + " index=1 size=4 value=" + hex(&Count, 4),
      "zeKernelSetArgumentValue " + K + " index=2 size=4096 value=null",
      "zeCommandListAppendLaunchKernel " + K + " groups=8x1x1",
  });

  size_t Static = 0;
  ASSERT_EQ(slmc_kernel_group_memory(P.Kernels[0], &Static), SLMC_SUCCESS)
      << slmc_last_error();
  EXPECT_EQ(Static, 1024u);

  // A later launch without dynamic memory resets the size to zero.
  clearRecord();
  ASSERT_EQ(launch(P.Kernels[0], {1, 1, 1}, {64, 1, 1}, 0, Arguments),
            SLMC_SUCCESS)
      << slmc_last_error();
  expectSequence({
      "zeKernelSetArgumentValue " + K + " index=2 size=0 value=null",
      "zeCommandListAppendLaunchKernel " + K + " groups=1x1x1",
  });
  EXPECT_EQ(slmc_free(In), SLMC_SUCCESS) << slmc_last_error();
}

TEST_F(LevelZeroContract, GroupLocalMemoryOverLimitIsResourceLimit) {
  const size_t Limit = maxSlm(), Static = Limit / 2 + 8;
  setenv("SLMC_ZE_KERNELS", ("big:1:" + std::to_string(Static)).c_str(), 1);
  selectLevelZero();
  Program P = spirvProgram("slm-limit", {"big"});
  clearRecord();

  // static + dynamic one byte over the device limit.
  const size_t Dynamic = Limit - Static + 1;
  EXPECT_EQ(launch(P.Kernels[0], {1, 1, 1}, {64, 1, 1}, Dynamic),
            SLMC_ERROR_RESOURCE_LIMIT);
  std::string Error = slmc_last_error();
  EXPECT_NE(Error.find(std::to_string(Static) + " bytes of static"),
            std::string::npos) << Error;
  EXPECT_NE(Error.find(std::to_string(Dynamic) + " bytes of dynamic"),
            std::string::npos) << Error;
  EXPECT_NE(Error.find("at most " + std::to_string(Limit) + " bytes"),
            std::string::npos) << Error;
  EXPECT_TRUE(recorded("zeCommandListAppendLaunchKernel").empty());
  EXPECT_TRUE(recorded("zeKernelSetArgumentValue").empty());
  EXPECT_TRUE(recorded("zeKernelSetGroupSize").empty());

  // Dynamic bytes alone over the limit, including absurd sizes.
  EXPECT_EQ(launch(P.Kernels[0], {1, 1, 1}, {64, 1, 1}, SIZE_MAX),
            SLMC_ERROR_RESOURCE_LIMIT);
  EXPECT_TRUE(recorded("zeCommandListAppendLaunchKernel").empty());

  // Exactly at the limit is fine.
  ASSERT_EQ(launch(P.Kernels[0], {1, 1, 1}, {64, 1, 1}, Limit - Static),
            SLMC_SUCCESS)
      << slmc_last_error();
  expectSequence({"zeKernelSetArgumentValue kernel=big index=0 size=" +
                      std::to_string(Limit - Static) + " value=null",
                  "zeCommandListAppendLaunchKernel kernel=big groups=1x1x1"});
}

TEST_F(LevelZeroContract, GroupMemoryRefusedByDriverIsResourceLimit) {
  // The driver rounds local arguments up and may refuse a launch that the
  // runtime's own check let through.
  setenv("SLMC_ZE_KERNELS", "rounded:1:1000", 1);
  selectLevelZero();
  Program P = spirvProgram("slm-rounding", {"rounded"});
  setenv("SLMC_ZE_FAIL", "zeCommandListAppendLaunchKernel=0x70000003", 1);
  EXPECT_EQ(launch(P.Kernels[0], {1, 1, 1}, {64, 1, 1}, 2000),
            SLMC_ERROR_RESOURCE_LIMIT);
  std::string Error = slmc_last_error();
  EXPECT_NE(Error.find("ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY"), std::string::npos)
      << Error;
  EXPECT_NE(Error.find("1000 static + 2000 dynamic bytes"), std::string::npos)
      << Error;
  unsetenv("SLMC_ZE_FAIL");
  // Nothing was submitted; the command list is usable again.
  EXPECT_EQ(launch(P.Kernels[0], {1, 1, 1}, {64, 1, 1}, 2000), SLMC_SUCCESS)
      << slmc_last_error();
}

TEST_F(LevelZeroContract, GroupSizeOverLimitIsResourceLimit) {
  setenv("SLMC_ZE_KERNELS", "k:0:0", 1);
  selectLevelZero();
  Program P = spirvProgram("group-limit", {"k"});
  clearRecord();
  const size_t Max = maxGroupSize();
  const std::vector<uint64_t> Dims = maxGroupDims();

  // The product over the limit, every dimension within its own.
  uint32_t X = static_cast<uint32_t>(std::min<uint64_t>(Dims[0], Max));
  uint32_t Y = static_cast<uint32_t>(Max / X + 1);
  ASSERT_LE(Y, Dims[1]);
  EXPECT_EQ(launch(P.Kernels[0], {1, 1, 1}, {X, Y, 1}),
            SLMC_ERROR_RESOURCE_LIMIT);
  std::string Error = slmc_last_error();
  EXPECT_NE(Error.find(std::to_string(uint64_t(X) * Y) + " work-items"),
            std::string::npos) << Error;
  EXPECT_NE(Error.find("limit of " + std::to_string(Max)), std::string::npos)
      << Error;

  // One dimension over its limit.
  EXPECT_EQ(launch(P.Kernels[0], {1, 1, 1},
                   {1, 1, static_cast<uint32_t>(Dims[2] + 1)}),
            SLMC_ERROR_RESOURCE_LIMIT);
  EXPECT_NE(std::string(slmc_last_error()).find("per-dimension limit"),
            std::string::npos) << slmc_last_error();

  // Too many groups.
  EXPECT_EQ(launch(P.Kernels[0], {1, 70000, 1}, {1, 1, 1}),
            SLMC_ERROR_RESOURCE_LIMIT);
  EXPECT_NE(std::string(slmc_last_error()).find("group count"),
            std::string::npos) << slmc_last_error();

  EXPECT_TRUE(recorded("zeCommandListAppendLaunchKernel").empty());
  EXPECT_TRUE(recorded("zeKernelSetGroupSize").empty());

  // The largest allowed group is launched.
  ASSERT_EQ(launch(P.Kernels[0], {1, 1, 1}, {X, static_cast<uint32_t>(Max / X), 1}),
            SLMC_SUCCESS)
      << slmc_last_error();
  EXPECT_EQ(recorded("zeCommandListAppendLaunchKernel").size(), 1u);
}

TEST_F(LevelZeroContract, RequiredGroupSizeIsEnforced) {
  setenv("SLMC_ZE_KERNELS", "fixed:0:0:16.4.1", 1);
  selectLevelZero();
  Program P = spirvProgram("required", {"fixed"});
  clearRecord();
  EXPECT_EQ(launch(P.Kernels[0], {1, 1, 1}, {64, 1, 1}),
            SLMC_ERROR_INVALID_VALUE);
  EXPECT_NE(std::string(slmc_last_error()).find("requires group size 16x4x1"),
            std::string::npos) << slmc_last_error();
  EXPECT_TRUE(recorded("zeCommandListAppendLaunchKernel").empty());
  EXPECT_EQ(launch(P.Kernels[0], {1, 1, 1}, {16, 4, 1}), SLMC_SUCCESS)
      << slmc_last_error();
}

// Refused before the backend (the C API checks the request; the backends
// check again with checkLaunchRequest for callers inside the runtime).
TEST_F(LevelZeroContract, EmptyLaunchOrMissingArgumentArraysAreInvalidValue) {
  setenv("SLMC_ZE_KERNELS", "plain:1:0", 1);
  selectLevelZero();
  Program P = spirvProgram("request", {"plain"});
  clearRecord();
  EXPECT_EQ(launch(P.Kernels[0], {1, 0, 1}, {1, 1, 1}), SLMC_ERROR_INVALID_VALUE);
  EXPECT_NE(std::string(slmc_last_error()).find("1x0x1 has a zero dimension"),
            std::string::npos) << slmc_last_error();
  int32_t V = 1;
  Args One;
  One.add(V);
  slmc_launch_params Params{};
  Params.group_count = {1, 1, 1};
  Params.group_size = {1, 1, 1};
  Params.num_args = 1;
  Params.args = One.Values.data(); // but no sizes
  EXPECT_EQ(slmc_launch(P.Kernels[0], nullptr, &Params), SLMC_ERROR_INVALID_VALUE);
  EXPECT_NE(std::string(slmc_last_error()).find("1 arguments but arg_sizes is null"),
            std::string::npos) << slmc_last_error();
  EXPECT_TRUE(recorded("zeCommandListAppendLaunchKernel").empty());
  EXPECT_EQ(launch(P.Kernels[0], {1, 1, 1}, {1, 1, 1}, 0, One), SLMC_SUCCESS)
      << slmc_last_error();
}

TEST_F(LevelZeroContract, ArgumentCountMismatchIsInvalidValue) {
  setenv("SLMC_ZE_KERNELS", "three:3:0,plain:1:0", 1);
  selectLevelZero();
  Program P = spirvProgram("arg-count", {"three", "plain"});
  clearRecord();
  int32_t V = 1;
  Args One;
  One.add(V);
  EXPECT_EQ(launch(P.Kernels[0], {1, 1, 1}, {1, 1, 1}, 0, One),
            SLMC_ERROR_INVALID_VALUE);
  EXPECT_NE(std::string(slmc_last_error()).find("takes 3 parameters"),
            std::string::npos) << slmc_last_error();

  // Dynamic memory for a kernel without the trailing local parameter.
  EXPECT_EQ(launch(P.Kernels[1], {1, 1, 1}, {1, 1, 1}, 256, One),
            SLMC_ERROR_INVALID_VALUE);
  EXPECT_NE(std::string(slmc_last_error()).find("trailing local-memory parameter"),
            std::string::npos) << slmc_last_error();
  EXPECT_TRUE(recorded("zeCommandListAppendLaunchKernel").empty());
  EXPECT_TRUE(recorded("zeKernelSetArgumentValue").empty());
}

// ---- Images and build failures -----------------------------------------------

TEST_F(LevelZeroContract, BuildFailureReportsBuildLog) {
  const char *Log = "error: undefined reference to `slm_helper'\n"
                    "in kernel: 'broken'";
  setenv("SLMC_ZE_BUILD_LOG", Log, 1);
  setenv("SLMC_ZE_KERNELS", "broken:0:0", 1);
  selectLevelZero();
  Program P = spirvProgram("build-failure", {"broken"});
  clearRecord();

  EXPECT_EQ(launch(P.Kernels[0], {1, 1, 1}, {1, 1, 1}),
            SLMC_ERROR_BUILD_FAILURE);
  std::string Error = slmc_last_error();
  // With wrapped handles the loader cannot return the log of a failed build
  // safely; the message says so instead.
  const std::string Shown =
      loaderWraps() ? "(no build log: the Level Zero loader wraps driver handles"
                    : Log;
  EXPECT_NE(Error.find(std::string("Level Zero module build failed:\n") + Shown),
            std::string::npos) << Error;
  EXPECT_NE(Error.find("ZE_RESULT_ERROR_MODULE_BUILD_FAILURE"), std::string::npos)
      << Error;
  EXPECT_NE(Error.find("SPIR-V 1.4 image, device supports SPIR-V up to 1.2"),
            std::string::npos) << Error;
  EXPECT_EQ(recorded("zeModuleCreate").size(), 1u);
  EXPECT_EQ(recorded("zeModuleBuildLogGetString").empty(), loaderWraps());
  EXPECT_EQ(recorded("zeModuleBuildLogDestroy").size(), loaderWraps() ? 0u : 1u);
  EXPECT_TRUE(recorded("zeKernelCreate").empty());

  // The failure is remembered; the module is not built again, and the
  // static group memory query reports the same failure.
  unsetenv("SLMC_ZE_BUILD_LOG");
  EXPECT_EQ(launch(P.Kernels[0], {1, 1, 1}, {1, 1, 1}),
            SLMC_ERROR_BUILD_FAILURE);
  size_t Static = 0;
  EXPECT_EQ(slmc_kernel_group_memory(P.Kernels[0], &Static),
            SLMC_ERROR_BUILD_FAILURE);
  EXPECT_NE(std::string(slmc_last_error()).find(Shown), std::string::npos);
  EXPECT_EQ(recorded("zeModuleCreate").size(), 1u);
  EXPECT_TRUE(recorded("zeCommandListAppendLaunchKernel").empty());
}

TEST_F(LevelZeroContract, SuccessfulBuildLogIsReleased) {
  setenv("SLMC_ZE_KERNELS", "k:0:0", 1);
  selectLevelZero();
  Program P = spirvProgram("build-log", {"k"});
  clearRecord();
  ASSERT_EQ(launch(P.Kernels[0], {1, 1, 1}, {1, 1, 1}), SLMC_SUCCESS)
      << slmc_last_error();
  EXPECT_EQ(recorded("zeModuleBuildLogDestroy").size(), loaderWraps() ? 0u : 1u);
}

TEST_F(LevelZeroContract, UnknownKernelIsKernelNotFound) {
  setenv("SLMC_ZE_KERNELS", "present:0:0", 1);
  selectLevelZero();
  Program P = spirvProgram("not-found", {"absent", "present"});
  clearRecord();
  EXPECT_EQ(launch(P.Kernels[0], {1, 1, 1}, {1, 1, 1}),
            SLMC_ERROR_KERNEL_NOT_FOUND);
  std::string Error = slmc_last_error();
  EXPECT_NE(Error.find("'absent'"), std::string::npos) << Error;
  EXPECT_NE(Error.find("ZE_RESULT_ERROR_INVALID_KERNEL_NAME"), std::string::npos)
      << Error;
  EXPECT_TRUE(recorded("zeCommandListAppendLaunchKernel").empty());
  // The module itself is fine: other kernels of it launch.
  EXPECT_EQ(launch(P.Kernels[1], {1, 1, 1}, {1, 1, 1}), SLMC_SUCCESS)
      << slmc_last_error();
  EXPECT_EQ(recorded("zeModuleCreate").size(), 1u);
}

TEST_F(LevelZeroContract, NoSpirvImageIsInvalidImage) {
  selectLevelZero();
  Program P = registerProgram({{kImagePTX, "// PTX only\n"}}, {"ptx_only"});
  clearRecord();
  EXPECT_EQ(launch(P.Kernels[0], {1, 1, 1}, {1, 1, 1}),
            SLMC_ERROR_INVALID_IMAGE);
  EXPECT_NE(std::string(slmc_last_error()).find("no SPIR-V image"),
            std::string::npos) << slmc_last_error();
  EXPECT_TRUE(recorded("zeModuleCreate").empty());
}

TEST_F(LevelZeroContract, SpirvImageIsChosenAmongOthers) {
  setenv("SLMC_ZE_KERNELS", "k:0:0", 1);
  selectLevelZero();
  const std::string Spirv = fakeSpirv("mixed");
  Program P = registerProgram({{kImagePTX, "// PTX first\n"}, {kImageSPIRV, Spirv}},
                              {"k"});
  clearRecord();
  ASSERT_EQ(launch(P.Kernels[0], {1, 1, 1}, {1, 1, 1}), SLMC_SUCCESS)
      << slmc_last_error();
  expectSequence({moduleCreateLine(Spirv)});
}

// ---- Memory ------------------------------------------------------------------

TEST_F(LevelZeroContract, MemoryCallsAndData) {
  selectLevelZero();
  clearRecord();
  void *Device = nullptr, *Shared = nullptr;
  ASSERT_EQ(slmc_malloc_device(&Device, 300), SLMC_SUCCESS) << slmc_last_error();
  ASSERT_EQ(slmc_malloc_shared(&Shared, 300), SLMC_SUCCESS) << slmc_last_error();
  EXPECT_EQ(reinterpret_cast<uintptr_t>(Device) % 64, 0u);
  expectSequence({"zeMemAllocDevice size=300 alignment=64",
                  "zeMemAllocShared size=300 alignment=64"});

  ASSERT_EQ(slmc_memset(Device, 0xAB, 300), SLMC_SUCCESS) << slmc_last_error();
  unsigned char Host[300] = {};
  ASSERT_EQ(slmc_memcpy(Host, Device, 300), SLMC_SUCCESS) << slmc_last_error();
  for (unsigned char C : Host)
    ASSERT_EQ(C, 0xAB);
  expectSequence({"zeCommandListAppendMemoryFill size=300 pattern=ab",
                  "zeCommandListClose",
                  "zeCommandQueueExecuteCommandLists count=1",
                  "zeCommandQueueSynchronize timeout=18446744073709551615",
                  "zeCommandListAppendMemoryCopy size=300 dst=unknown src=device",
                  "zeCommandQueueSynchronize timeout=18446744073709551615"});

  for (int I = 0; I < 300; ++I)
    Host[I] = static_cast<unsigned char>(I);
  ASSERT_EQ(slmc_memcpy(Shared, Host, 300), SLMC_SUCCESS) << slmc_last_error();
  ASSERT_EQ(slmc_memcpy(Device, Shared, 300), SLMC_SUCCESS) << slmc_last_error();
  unsigned char Back[300] = {};
  ASSERT_EQ(slmc_memcpy(Back, Device, 300), SLMC_SUCCESS) << slmc_last_error();
  EXPECT_EQ(std::memcmp(Back, Host, 300), 0);
  // Pointers inside an allocation are device memory too.
  ASSERT_EQ(slmc_memset(static_cast<char *>(Device) + 100, 0, 10), SLMC_SUCCESS);
  EXPECT_EQ(recorded("zeCommandListAppendMemoryFill size=10").size(), 1u);

  // Host to host needs no device work.
  clearRecord();
  unsigned char Other[300] = {};
  ASSERT_EQ(slmc_memcpy(Other, Host, 300), SLMC_SUCCESS) << slmc_last_error();
  EXPECT_EQ(std::memcmp(Other, Host, 300), 0);
  ASSERT_EQ(slmc_memset(Other, 7, 300), SLMC_SUCCESS) << slmc_last_error();
  EXPECT_EQ(Other[299], 7);
  EXPECT_TRUE(recorded("zeCommandListAppend").empty());

  EXPECT_EQ(slmc_free(Device), SLMC_SUCCESS) << slmc_last_error();
  EXPECT_EQ(slmc_free(Shared), SLMC_SUCCESS) << slmc_last_error();
  EXPECT_EQ(recorded("zeMemFree").size(), 2u);
  // Not an allocation of this device.
  EXPECT_EQ(slmc_free(Other), SLMC_ERROR_INVALID_VALUE);
  EXPECT_EQ(recorded("zeMemFree").size(), 2u);
}

// ---- Cilk Plus offload: device mirrors of host ranges ---------------------------

TEST_F(LevelZeroContract, SharedAndMappedRangesAreMirrored) {
  selectLevelZero();
  clearRecord();
  int Host[100];
  for (int I = 0; I < 100; ++I)
    Host[I] = I;
  ASSERT_EQ(slmc_share(Host, sizeof(Host)), SLMC_SUCCESS) << slmc_last_error();
  EXPECT_EQ(slmc_device_pointer(Host), static_cast<void *>(Host)) << "outside a scope";
  EXPECT_TRUE(recorded("zeMemAlloc").empty()) << "mirrors are made on first use";

  ASSERT_EQ(slmc_offload_begin(), SLMC_SUCCESS);
  float Out[8] = {};
  ASSERT_EQ(slmc_offload_map(Out, sizeof(Out), SLMC_MAP_OUT), SLMC_SUCCESS)
      << slmc_last_error();
  int *D = static_cast<int *>(slmc_device_pointer(Host + 10));
  ASSERT_NE(D, nullptr) << slmc_last_error();
  EXPECT_NE(D, Host + 10);
  EXPECT_EQ(slmc_device_pointer(Host + 20), static_cast<void *>(D + 10));
  auto *DOut = static_cast<float *>(slmc_device_pointer(Out));
  ASSERT_NE(DOut, nullptr) << slmc_last_error();
  expectSequence({"zeMemAllocDevice size=400 alignment=64",
                  "zeCommandListAppendMemoryCopy size=400 dst=device src=unknown",
                  "zeMemAllocDevice size=32 alignment=64"});
  EXPECT_EQ(recorded("zeCommandListAppendMemoryCopy").size(), 1u)
      << "OUT ranges are not copied in";
  // The recording driver keeps device memory in host memory: play the
  // kernel's part from here.
  EXPECT_EQ(*D, 10);
  D[0] = -1;
  DOut[7] = 2.5f;
  clearRecord();
  ASSERT_EQ(slmc_offload_end(), SLMC_SUCCESS) << slmc_last_error();
  EXPECT_EQ(Host[10], -1);
  EXPECT_EQ(Out[7], 2.5f);
  EXPECT_EQ(recorded("zeCommandListAppendMemoryCopy size=400 dst=unknown src=device").size(),
            1u);
  EXPECT_EQ(recorded("zeCommandListAppendMemoryCopy size=32 dst=unknown src=device").size(),
            1u);
  EXPECT_EQ(recorded("zeMemFree").size(), 1u) << "the map's mirror only";

  // The shared range's mirror is reused by the next scope, then freed.
  Host[10] = 5;
  clearRecord();
  ASSERT_EQ(slmc_offload_begin(), SLMC_SUCCESS);
  EXPECT_EQ(slmc_device_pointer(Host + 10), static_cast<void *>(D));
  EXPECT_EQ(*D, 5);
  ASSERT_EQ(slmc_offload_end(), SLMC_SUCCESS) << slmc_last_error();
  EXPECT_TRUE(recorded("zeMemAlloc").empty());
  EXPECT_EQ(recorded("zeCommandListAppendMemoryCopy").size(), 2u);
  ASSERT_EQ(slmc_unshare(Host), SLMC_SUCCESS) << slmc_last_error();
  EXPECT_EQ(recorded("zeMemFree").size(), 1u);

  // Runtime allocations are device-visible as they are.
  void *Shared = nullptr;
  ASSERT_EQ(slmc_malloc_shared(&Shared, 64), SLMC_SUCCESS) << slmc_last_error();
  ASSERT_EQ(slmc_share(Shared, 64), SLMC_SUCCESS);
  ASSERT_EQ(slmc_offload_begin(), SLMC_SUCCESS);
  EXPECT_EQ(slmc_device_pointer(static_cast<char *>(Shared) + 4),
            static_cast<char *>(Shared) + 4);
  ASSERT_EQ(slmc_offload_end(), SLMC_SUCCESS);
  EXPECT_EQ(slmc_unshare(Shared), SLMC_SUCCESS);
  EXPECT_EQ(slmc_free(Shared), SLMC_SUCCESS);
}

TEST_F(LevelZeroContract, TasksCopySharedRangesAroundThem) {
  selectLevelZero();
  static int Data[16];
  ASSERT_EQ(slmc_share(Data, sizeof(Data)), SLMC_SUCCESS) << slmc_last_error();
  uint64_t Id = 0;
  // The task plays a kernel writing the device copy.
  ASSERT_EQ(slmc_task_enqueue(
                [](void *) {
                  auto *D = static_cast<int *>(slmc_device_pointer(Data));
                  if (D && D != Data)
                    D[3] = 33;
                },
                nullptr, nullptr, &Id),
            SLMC_SUCCESS);
  ASSERT_EQ(slmc_task_wait(Id, -1), SLMC_SUCCESS) << slmc_last_error();
  EXPECT_EQ(Data[3], 33) << "copied back when the task ended";
  EXPECT_EQ(slmc_unshare(Data), SLMC_SUCCESS);
  // A failing copy fails the task that needed it.
  ASSERT_EQ(slmc_share(Data, sizeof(Data)), SLMC_SUCCESS);
  setenv("SLMC_ZE_FAIL", "zeMemAllocDevice=0x70000003", 1);
  ASSERT_EQ(slmc_task_enqueue([](void *) { slmc_device_pointer(Data + 1); }, nullptr,
                              nullptr, &Id),
            SLMC_SUCCESS);
  EXPECT_EQ(slmc_task_wait(Id, -1), SLMC_ERROR_OUT_OF_MEMORY) << slmc_last_error();
  EXPECT_NE(std::string(slmc_last_error()).find("allocating the device copy"),
            std::string::npos)
      << slmc_last_error();
  unsetenv("SLMC_ZE_FAIL");
  EXPECT_EQ(slmc_unshare(Data), SLMC_SUCCESS);
}

// ---- Driver errors -----------------------------------------------------------

TEST_F(LevelZeroContract, DriverErrorsAreReportedByName) {
  selectLevelZero();
  void *P = nullptr;
  setenv("SLMC_ZE_FAIL", "zeMemAllocDevice=0x70000003", 1);
  EXPECT_EQ(slmc_malloc_device(&P, 64), SLMC_ERROR_OUT_OF_MEMORY);
  EXPECT_NE(std::string(slmc_last_error())
                .find("zeMemAllocDevice failed: ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY"),
            std::string::npos) << slmc_last_error();
  EXPECT_EQ(P, nullptr);

  unsetenv("SLMC_ZE_FAIL");
  ASSERT_EQ(slmc_malloc_device(&P, 64), SLMC_SUCCESS) << slmc_last_error();
  setenv("SLMC_ZE_FAIL", "zeCommandListAppendMemoryFill", 1);
  EXPECT_EQ(slmc_memset(P, 1, 64), SLMC_ERROR_BACKEND);
  EXPECT_NE(std::string(slmc_last_error())
                .find("zeCommandListAppendMemoryFill failed: ZE_RESULT_ERROR_UNKNOWN"),
            std::string::npos) << slmc_last_error();
  setenv("SLMC_ZE_FAIL", "zeCommandQueueExecuteCommandLists=0x70000001", 1);
  EXPECT_EQ(slmc_memset(P, 1, 64), SLMC_ERROR_LAUNCH_FAILURE);
  EXPECT_NE(std::string(slmc_last_error()).find("ZE_RESULT_ERROR_DEVICE_LOST"),
            std::string::npos) << slmc_last_error();
  // Unknown codes are shown in hex.
  setenv("SLMC_ZE_FAIL", "zeCommandListAppendMemoryFill=0x12345", 1);
  EXPECT_EQ(slmc_memset(P, 1, 64), SLMC_ERROR_BACKEND);
  EXPECT_NE(std::string(slmc_last_error()).find("failed: 0x00012345"),
            std::string::npos) << slmc_last_error();

  // The command list was reset each time: the next operation works.
  unsetenv("SLMC_ZE_FAIL");
  clearRecord();
  EXPECT_EQ(slmc_memset(P, 1, 64), SLMC_SUCCESS) << slmc_last_error();
  unsigned char Host[64];
  EXPECT_EQ(slmc_memcpy(Host, P, 64), SLMC_SUCCESS) << slmc_last_error();
  EXPECT_EQ(Host[63], 1);
  EXPECT_EQ(slmc_free(P), SLMC_SUCCESS) << slmc_last_error();
}

TEST_F(LevelZeroContract, AsynchronousFailureIsReportedBySynchronize) {
  setenv("SLMC_ZE_KERNELS", "faulty:0:0", 1);
  selectLevelZero();
  Program P = spirvProgram("async", {"faulty"});
  ASSERT_EQ(launch(P.Kernels[0], {3, 1, 1}, {32, 1, 1}), SLMC_SUCCESS)
      << slmc_last_error();
  setenv("SLMC_ZE_FAIL", "zeCommandQueueSynchronize=0x70000001", 1);
  EXPECT_EQ(slmc_synchronize(), SLMC_ERROR_LAUNCH_FAILURE);
  std::string Error = slmc_last_error();
  EXPECT_NE(Error.find("kernel 'faulty'"), std::string::npos) << Error;
  EXPECT_NE(Error.find("ZE_RESULT_ERROR_DEVICE_LOST"), std::string::npos)
      << Error;
  unsetenv("SLMC_ZE_FAIL");
  // Reported once; the queue is usable again.
  EXPECT_EQ(slmc_synchronize(), SLMC_SUCCESS) << slmc_last_error();
  EXPECT_EQ(launch(P.Kernels[0], {1, 1, 1}, {1, 1, 1}), SLMC_SUCCESS)
      << slmc_last_error();
  EXPECT_EQ(slmc_synchronize(), SLMC_SUCCESS) << slmc_last_error();
}

TEST_F(LevelZeroContract, ArgumentRejectedByDriverIsInvalidValue) {
  setenv("SLMC_ZE_KERNELS", "k:1:0", 1);
  selectLevelZero();
  Program P = spirvProgram("arg-size", {"k"});
  setenv("SLMC_ZE_FAIL", "zeKernelSetArgumentValue=0x78000016", 1);
  double D = 1.0;
  Args A;
  A.add(D);
  EXPECT_EQ(launch(P.Kernels[0], {1, 1, 1}, {1, 1, 1}, 0, A),
            SLMC_ERROR_INVALID_VALUE);
  EXPECT_NE(std::string(slmc_last_error())
                .find("argument 0 (8 bytes): zeKernelSetArgumentValue failed: "
                      "ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE"),
            std::string::npos) << slmc_last_error();
  unsetenv("SLMC_ZE_FAIL");
  EXPECT_EQ(launch(P.Kernels[0], {1, 1, 1}, {1, 1, 1}, 0, A), SLMC_SUCCESS)
      << slmc_last_error();
}

TEST_F(LevelZeroContract, LaunchesFromSeveralThreads) {
  setenv("SLMC_ZE_KERNELS", "work:1:0", 1);
  selectLevelZero();
  Program P = spirvProgram("threads", {"work"});
  clearRecord();
  constexpr int Threads = 4, PerThread = 25;
  std::atomic<int> Failures{0};
  std::vector<std::thread> Pool;
  for (int T = 0; T < Threads; ++T)
    Pool.emplace_back([&, T] {
      void *Buffer = nullptr;
      if (slmc_malloc_device(&Buffer, 64) != SLMC_SUCCESS) {
        ++Failures;
        return;
      }
      for (int I = 0; I < PerThread; ++I) {
        Args A;
        A.add(Buffer);
        if (launch(P.Kernels[0], {uint32_t(T + 1), 1, 1}, {8, 1, 1}, 0, A) !=
                SLMC_SUCCESS ||
            slmc_memset(Buffer, I, 64) != SLMC_SUCCESS)
          ++Failures;
      }
      if (slmc_free(Buffer) != SLMC_SUCCESS)
        ++Failures;
    });
  for (std::thread &T : Pool)
    T.join();
  EXPECT_EQ(Failures.load(), 0);
  EXPECT_EQ(slmc_synchronize(), SLMC_SUCCESS) << slmc_last_error();
  EXPECT_EQ(recorded("zeCommandListAppendLaunchKernel kernel=work").size(),
            size_t(Threads * PerThread));
  EXPECT_EQ(recorded("zeKernelCreate").size(), 1u);
}

// ---- Scenarios: settings fixed before the backend is created -----------------

#define SLMC_SCENARIO(Name)                                                    \
  if (!inScenario(Name))                                                       \
    GTEST_SKIP() << "run by ctest as scenario " Name;

TEST_F(LevelZeroScenario, InitAndQueueOrdinal) {
  // SLMC_ZE_QUEUE_GROUPS=copy,compute: the compute group has ordinal 1.
  SLMC_SCENARIO("queue-ordinal");
  selectLevelZero();
  expectSequence({"zeInit flags=1", "zeDeviceGetProperties",
                  "zeDeviceGetComputeProperties", "zeDeviceGetModuleProperties",
                  "zeDeviceGetMemoryProperties",
                  "zeDeviceGetCommandQueueGroupProperties", "zeContextCreate",
                  "zeCommandQueueCreate ordinal=1 index=0 mode=2",
                  "zeCommandListCreate ordinal=1"});
}

TEST_F(LevelZeroScenario, NoGpuDevice) {
  // SLMC_ZE_DEVICE_TYPE=cpu: the driver has only a CPU device.
  SLMC_SCENARIO("no-gpu");
  EXPECT_EQ(slmc_select_backend(SLMC_BACKEND_LEVEL_ZERO), SLMC_ERROR_NO_DEVICE);
  EXPECT_NE(std::string(slmc_last_error()).find("no Level Zero GPU device"),
            std::string::npos) << slmc_last_error();
  EXPECT_FALSE(slmc_backend_available(SLMC_BACKEND_LEVEL_ZERO));
}

TEST_F(LevelZeroScenario, NoDeviceAtAll) {
  SLMC_SCENARIO("no-device");
  EXPECT_EQ(slmc_select_backend(SLMC_BACKEND_LEVEL_ZERO), SLMC_ERROR_NO_DEVICE);
  EXPECT_NE(std::string(slmc_last_error()).find("no Level Zero GPU device"),
            std::string::npos) << slmc_last_error();
}

TEST_F(LevelZeroScenario, InitFailureNamesTheCall) {
  // SLMC_ZE_FAIL=zeContextCreate=0x70000002
  SLMC_SCENARIO("context-failure");
  EXPECT_EQ(slmc_select_backend(SLMC_BACKEND_LEVEL_ZERO), SLMC_ERROR_NO_DEVICE);
  EXPECT_NE(std::string(slmc_last_error())
                .find("zeContextCreate failed: ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY"),
            std::string::npos) << slmc_last_error();
}

TEST_F(LevelZeroScenario, ZeInitFailure) {
  // SLMC_ZE_FAIL=zeInit: the only driver fails to initialise.
  SLMC_SCENARIO("init-failure");
  EXPECT_EQ(slmc_select_backend(SLMC_BACKEND_LEVEL_ZERO), SLMC_ERROR_NO_DEVICE);
  EXPECT_NE(std::string(slmc_last_error()).find("zeInit failed"),
            std::string::npos) << slmc_last_error();
}

TEST_F(LevelZeroScenario, BadTimeoutSetting) {
  // SLMC_TIMEOUT_MS=soon
  SLMC_SCENARIO("bad-timeout");
  EXPECT_EQ(slmc_select_backend(SLMC_BACKEND_LEVEL_ZERO), SLMC_ERROR_NO_DEVICE);
  EXPECT_NE(std::string(slmc_last_error()).find("SLMC_TIMEOUT_MS=soon"),
            std::string::npos) << slmc_last_error();
}

TEST_F(LevelZeroScenario, TimeoutNeverHangs) {
  // SLMC_TIMEOUT_MS=50
  SLMC_SCENARIO("timeout");
  setenv("SLMC_ZE_KERNELS", "spin:0:0", 1);
  selectLevelZero();
  Program P = spirvProgram("timeout", {"spin"});
  ASSERT_EQ(launch(P.Kernels[0], {1, 1, 1}, {1, 1, 1}), SLMC_SUCCESS)
      << slmc_last_error();

  setenv("SLMC_ZE_HANG", "1", 1);
  auto Start = std::chrono::steady_clock::now();
  EXPECT_EQ(slmc_synchronize(), SLMC_ERROR_BACKEND);
  auto Elapsed = std::chrono::steady_clock::now() - Start;
  EXPECT_LT(Elapsed, std::chrono::seconds(5));
  std::string Error = slmc_last_error();
  EXPECT_NE(Error.find("kernel 'spin'"), std::string::npos) << Error;
  EXPECT_NE(Error.find("did not complete within 50 ms"), std::string::npos)
      << Error;
  expectSequence({"zeCommandQueueSynchronize timeout=50000000"});
  // Still in flight: the next launch and copies wait for it and fail too,
  // without reusing the busy command list.
  clearRecord();
  EXPECT_EQ(launch(P.Kernels[0], {1, 1, 1}, {1, 1, 1}), SLMC_ERROR_BACKEND);
  EXPECT_TRUE(recorded("zeCommandListReset").empty());
  EXPECT_TRUE(recorded("zeCommandListAppendLaunchKernel").empty());

  // Once the device completes the work, everything goes on.
  unsetenv("SLMC_ZE_HANG");
  EXPECT_EQ(slmc_synchronize(), SLMC_SUCCESS) << slmc_last_error();
  EXPECT_EQ(launch(P.Kernels[0], {1, 1, 1}, {1, 1, 1}), SLMC_SUCCESS)
      << slmc_last_error();
  EXPECT_EQ(slmc_synchronize(), SLMC_SUCCESS) << slmc_last_error();
}

TEST_F(LevelZeroScenario, InfiniteWaitOnHungDeviceIsAnError) {
  // No SLMC_TIMEOUT_MS: the driver refuses to hang and reports device loss.
  SLMC_SCENARIO("hang-no-timeout");
  setenv("SLMC_ZE_KERNELS", "spin:0:0", 1);
  selectLevelZero();
  Program P = spirvProgram("hang", {"spin"});
  ASSERT_EQ(launch(P.Kernels[0], {1, 1, 1}, {1, 1, 1}), SLMC_SUCCESS)
      << slmc_last_error();
  setenv("SLMC_ZE_HANG", "1", 1);
  EXPECT_EQ(slmc_synchronize(), SLMC_ERROR_LAUNCH_FAILURE);
  EXPECT_NE(std::string(slmc_last_error()).find("ZE_RESULT_ERROR_DEVICE_LOST"),
            std::string::npos) << slmc_last_error();
}

} // namespace

int main(int argc, char **argv) {
  // ctest selects the recording driver; a direct run does it here, before
  // the runtime loads libze_loader.so.1.
  if (!std::getenv("ZE_ENABLE_ALT_DRIVERS") &&
      !std::getenv("ZE_ENABLE_NULL_DRIVER"))
    setenv("ZE_ENABLE_ALT_DRIVERS", SLMC_ZE_RECORDING_DRIVER, 1);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
