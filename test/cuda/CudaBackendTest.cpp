//===- CudaBackendTest.cpp - Tests of the CUDA driver backend -------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Two groups of tests:
//  * CudaNoDevice: without libcuda.so.1 or without a device, the factory and
//    slmc_select_backend(SLMC_BACKEND_CUDA) fail cleanly with a reason. They
//    skip on a machine that has a CUDA device.
//  * CudaBackend / CudaRuntime: on an NVIDIA GPU, hand-written PTX kernels
//    (a tiled reduction in static .shared memory with bar.sync, a kernel on
//    .extern .shared dynamic memory) are packaged into an OffloadBinary
//    container built here, registered through the compiler ABI and launched
//    through slmc_launch. Without a device they are reported as skipped; set
//    SLMC_REQUIRE_CUDA=1 to make them fail instead.
//
//===----------------------------------------------------------------------===//

#include "Backend.h"
#include "FatBinary.h"
#include "slmc/runtime.h"

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

using namespace slmc::rt;

namespace {

// ---- Device code -----------------------------------------------------------

// out[blockIdx.x] = the sum of in[] over the block (blockDim.x a power of two,
// at most 256), reduced as a tree in a static .shared tile of 256 words.
// reverse_dynamic: data[0..n) = reversed data + dyn[probe], where thread 0
// stores 1000000 at word `probe` of the dynamic .shared allocation (probe >=
// blockDim.x), so a large dynamic allocation is touched at its far end.
constexpr const char *PtxHeader = R"PTX(
.version 7.0
.target sm_70
.address_size 64
)PTX";

constexpr const char *PtxBody = R"PTX(
.extern .shared .align 16 .b8 slmc_dynamic_smem[];

.visible .entry reduce_sum(
  .param .u64 reduce_sum_in,
  .param .u64 reduce_sum_out,
  .param .u32 reduce_sum_n)
{
  .reg .pred %p<4>;
  .reg .b32 %r<16>;
  .reg .b64 %rd<16>;
  .shared .align 4 .b32 tile[256];

  ld.param.u64 %rd1, [reduce_sum_in];
  ld.param.u64 %rd2, [reduce_sum_out];
  ld.param.u32 %r1, [reduce_sum_n];
  cvta.to.global.u64 %rd1, %rd1;
  cvta.to.global.u64 %rd2, %rd2;
  mov.u32 %r2, %tid.x;
  mov.u32 %r3, %ctaid.x;
  mov.u32 %r4, %ntid.x;
  mad.lo.u32 %r5, %r3, %r4, %r2;
  mov.u32 %r6, 0;
  setp.ge.u32 %p1, %r5, %r1;
  @%p1 bra LOADED;
  mul.wide.u32 %rd3, %r5, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.u32 %r6, [%rd4];
LOADED:
  mov.u64 %rd5, tile;
  mul.wide.u32 %rd6, %r2, 4;
  add.s64 %rd7, %rd5, %rd6;
  st.shared.u32 [%rd7], %r6;
  bar.sync 0;
  shr.u32 %r7, %r4, 1;
STEP:
  setp.eq.u32 %p2, %r7, 0;
  @%p2 bra REDUCED;
  setp.ge.u32 %p3, %r2, %r7;
  @%p3 bra NEXT;
  add.u32 %r8, %r2, %r7;
  mul.wide.u32 %rd8, %r8, 4;
  add.s64 %rd9, %rd5, %rd8;
  ld.shared.u32 %r9, [%rd9];
  ld.shared.u32 %r10, [%rd7];
  add.u32 %r10, %r10, %r9;
  st.shared.u32 [%rd7], %r10;
NEXT:
  bar.sync 0;
  shr.u32 %r7, %r7, 1;
  bra.uni STEP;
REDUCED:
  setp.ne.u32 %p1, %r2, 0;
  @%p1 bra DONE;
  ld.shared.u32 %r11, [tile];
  mul.wide.u32 %rd10, %r3, 4;
  add.s64 %rd11, %rd2, %rd10;
  st.global.u32 [%rd11], %r11;
DONE:
  ret;
}

.visible .entry reverse_dynamic(
  .param .u64 reverse_dynamic_data,
  .param .u32 reverse_dynamic_probe)
{
  .reg .pred %p<2>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<12>;

  ld.param.u64 %rd1, [reverse_dynamic_data];
  ld.param.u32 %r1, [reverse_dynamic_probe];
  cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %r2, %tid.x;
  mov.u32 %r3, %ntid.x;
  mov.u64 %rd2, slmc_dynamic_smem;
  mul.wide.u32 %rd3, %r2, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.u32 %r4, [%rd4];
  add.s64 %rd5, %rd2, %rd3;
  st.shared.u32 [%rd5], %r4;
  setp.ne.u32 %p1, %r2, 0;
  mul.wide.u32 %rd6, %r1, 4;
  add.s64 %rd7, %rd2, %rd6;
  @!%p1 st.shared.u32 [%rd7], 1000000;
  bar.sync 0;
  sub.u32 %r5, %r3, %r2;
  sub.u32 %r5, %r5, 1;
  mul.wide.u32 %rd8, %r5, 4;
  add.s64 %rd9, %rd2, %rd8;
  ld.shared.u32 %r6, [%rd9];
  ld.shared.u32 %r7, [%rd7];
  add.u32 %r6, %r6, %r7;
  st.global.u32 [%rd4], %r6;
  ret;
}
)PTX";

// A kernel with a syntax error (an unknown type modifier) on line 8.
constexpr const char *BadPtx = R"PTX(
.version 7.0
.target sm_70
.address_size 64
.visible .entry broken(.param .u32 broken_x)
{
  .reg .b32 %r<4>;
  add.u33 %r1, %r2, %r3;
  ret;
}
)PTX";

constexpr uint32_t kStaticTileBytes = 256 * 4;
constexpr uint32_t kProbeValue = 1000000;

std::string goodPtx() { return std::string(PtxHeader) + PtxBody; }

// ---- A hand-built OffloadBinary container ---------------------------------

constexpr uint16_t kImagePtx = 5, kImageSpirv = 6; // LLVM object::ImageKind
constexpr uint16_t kOffloadCuda = 2, kOffloadHip = 3;

struct ImageSpec {
  uint16_t Kind;
  uint16_t Offload;
  std::string Triple, Arch;
  std::string Payload;
};

size_t alignTo8(size_t N) { return (N + 7) & ~size_t(7); }

template <typename T> void put(std::vector<unsigned char> &Buf, size_t At, T V) {
  std::memcpy(Buf.data() + At, &V, sizeof(V)); // the format is little-endian
}

/// One OffloadBinary: Header (32 bytes), Entry (40), three StringEntries
/// (48), the NUL-terminated strings (the checksum last, as slmc++ writes
/// it), then the 8-byte aligned image. Offsets are from the start of the
/// binary; Size covers everything, padded to 8.
std::vector<unsigned char> offloadBinary(const ImageSpec &I) {
  const size_t HeaderSize = 32, EntrySize = 40, StringEntrySize = 16;
  const size_t EntryOff = HeaderSize;
  const size_t StringsOff = EntryOff + EntrySize;
  size_t Pos = StringsOff + 3 * StringEntrySize;
  DeviceImage Checked;
  Checked.Kind = static_cast<ImageKind>(I.Kind);
  Checked.OffloadKind = I.Offload;
  Checked.Strings = {{"triple", I.Triple}, {"arch", I.Arch}};
  Checked.Data = reinterpret_cast<const unsigned char *>(I.Payload.data());
  Checked.Size = I.Payload.size();
  const std::pair<std::string, std::string> Strings[] = {
      {"triple", I.Triple}, {"arch", I.Arch}, {kChecksumKey, imageChecksum(Checked)}};
  std::vector<std::pair<size_t, size_t>> StrOffsets;
  std::string Text;
  for (const auto &[Key, Value] : Strings) {
    size_t K = Pos + Text.size();
    Text += Key;
    Text.push_back('\0');
    size_t V = Pos + Text.size();
    Text += Value;
    Text.push_back('\0');
    StrOffsets.emplace_back(K, V);
  }
  const size_t ImageOff = alignTo8(Pos + Text.size());
  const size_t Total = alignTo8(ImageOff + I.Payload.size());

  std::vector<unsigned char> Buf(Total, 0);
  const unsigned char Magic[4] = {0x10, 0xFF, 0x10, 0xAD};
  std::memcpy(Buf.data(), Magic, 4);
  put<uint32_t>(Buf, 4, 1); // Version
  put<uint64_t>(Buf, 8, Total);
  put<uint64_t>(Buf, 16, EntryOff);
  put<uint64_t>(Buf, 24, EntrySize);
  put<uint16_t>(Buf, EntryOff + 0, I.Kind);
  put<uint16_t>(Buf, EntryOff + 2, I.Offload);
  put<uint32_t>(Buf, EntryOff + 4, 0); // Flags
  put<uint64_t>(Buf, EntryOff + 8, StringsOff);
  put<uint64_t>(Buf, EntryOff + 16, 3); // NumStrings
  put<uint64_t>(Buf, EntryOff + 24, ImageOff);
  put<uint64_t>(Buf, EntryOff + 32, I.Payload.size());
  for (size_t S = 0; S < StrOffsets.size(); ++S) {
    put<uint64_t>(Buf, StringsOff + S * StringEntrySize, StrOffsets[S].first);
    put<uint64_t>(Buf, StringsOff + S * StringEntrySize + 8,
                  StrOffsets[S].second);
  }
  std::memcpy(Buf.data() + Pos, Text.data(), Text.size());
  // The image is not NUL-terminated: the backend must not rely on it.
  std::memcpy(Buf.data() + ImageOff, I.Payload.data(), I.Payload.size());
  return Buf;
}

/// A sequence of images ended by eight zero bytes, 8-byte aligned in memory.
struct Container {
  std::vector<uint64_t> Storage;
  size_t Size = 0;
  const void *data() const { return Storage.data(); }
};

std::unique_ptr<Container> container(const std::vector<ImageSpec> &Images) {
  std::vector<unsigned char> Bytes;
  for (const ImageSpec &I : Images) {
    std::vector<unsigned char> B = offloadBinary(I);
    Bytes.insert(Bytes.end(), B.begin(), B.end());
  }
  Bytes.insert(Bytes.end(), 8, 0);
  auto C = std::make_unique<Container>();
  C->Size = Bytes.size();
  C->Storage.resize(Bytes.size() / 8);
  std::memcpy(C->Storage.data(), Bytes.data(), Bytes.size());
  return C;
}

ImageSpec ptxImage(std::string Ptx, std::string Arch = "sm_70") {
  return {kImagePtx, kOffloadCuda, "nvptx64-nvidia-cuda", std::move(Arch),
          std::move(Ptx)};
}

ImageSpec spirvImage() {
  std::string Words(20, '\0'); // a SPIR-V header's worth of bytes
  const uint32_t Magic = 0x07230203;
  std::memcpy(Words.data(), &Magic, 4);
  return {kImageSpirv, kOffloadHip, "spirv64-unknown-unknown", "", Words};
}

// ---- Registration through the compiler ABI ---------------------------------

struct FatbinWrapper {
  int32_t Magic;
  int32_t Version;
  const void *Data;
  void *Unused;
};

// Kernel handles: the addresses the compiler would register (host stubs).
const char ReduceHandle = 0, ReverseHandle = 0, MissingHandle = 0,
           BrokenHandle = 0, SpirvOnlyHandle = 0;

// The runtime reads a registered container only inside a loaded ELF segment
// (as the compiler embeds it), so registered containers live in .bss.
alignas(8) unsigned char RegisteredImages[3][32 * 1024];

const void *embed(unsigned Slot, const Container &C) {
  if (C.Size > sizeof(RegisteredImages[Slot]))
    std::abort();
  std::memcpy(RegisteredImages[Slot], C.data(), C.Size);
  return RegisteredImages[Slot];
}

struct Registration {
  FatbinWrapper GoodWrapper{}, BadWrapper{}, SpirvWrapper{};

  Registration() {
    const int32_t Magic = 0x48495046; // "HIPF"
    GoodWrapper = {Magic, 1,
                   embed(0, *container({spirvImage(), ptxImage(goodPtx())})),
                   nullptr};
    BadWrapper = {Magic, 1, embed(1, *container({ptxImage(BadPtx)})), nullptr};
    SpirvWrapper = {Magic, 1, embed(2, *container({spirvImage()})), nullptr};
    void **GoodModule = __hipRegisterFatBinary(&GoodWrapper);
    fn(GoodModule, &ReduceHandle, "reduce_sum");
    fn(GoodModule, &ReverseHandle, "reverse_dynamic");
    fn(GoodModule, &MissingHandle, "no_such_kernel");
    fn(__hipRegisterFatBinary(&BadWrapper), &BrokenHandle, "broken");
    fn(__hipRegisterFatBinary(&SpirvWrapper), &SpirvOnlyHandle, "reduce_sum");
  }

  static void fn(void **Module, const void *Handle, const char *Name) {
    __hipRegisterFunction(Module, Handle, const_cast<char *>(Name), Name,
                          static_cast<unsigned>(-1), nullptr, nullptr, nullptr,
                          nullptr, nullptr);
  }
};

void registerKernels() { static Registration Once; }

// ---- Helpers -----------------------------------------------------------------

bool cudaRequired() {
  const char *E = std::getenv("SLMC_REQUIRE_CUDA");
  return E && std::string(E) == "1";
}

bool libcudaLoadable() {
  void *H = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  return H != nullptr; // left loaded: the backend shares it
}

std::string lastError() { return slmc_last_error(); }

slmc_launch_params params(slmc_dim3 Groups, slmc_dim3 Size, size_t Dynamic,
                          std::vector<void *> &Args,
                          std::vector<size_t> &Sizes) {
  slmc_launch_params P{};
  P.group_count = Groups;
  P.group_size = Size;
  P.dynamic_group_memory = Dynamic;
  P.num_args = static_cast<uint32_t>(Args.size());
  P.args = Args.data();
  P.arg_sizes = Sizes.data();
  return P;
}

/// Host reference of reduce_sum.
std::vector<uint32_t> blockSums(const std::vector<uint32_t> &In,
                                uint32_t Block) {
  std::vector<uint32_t> Out((In.size() + Block - 1) / Block, 0);
  for (size_t I = 0; I < In.size(); ++I)
    Out[I / Block] += In[I];
  return Out;
}

std::vector<uint32_t> testInput(size_t N) {
  std::vector<uint32_t> In(N);
  for (size_t I = 0; I < N; ++I)
    In[I] = static_cast<uint32_t>((I * 2654435761u) >> 20);
  return In;
}

} // namespace

// ---- Without a device --------------------------------------------------------

TEST(CudaNoDevice, FactoryExplainsWhy) {
  std::string Why;
  std::unique_ptr<Backend> B = createCudaBackend(Why);
  if (B)
    GTEST_SKIP() << "a CUDA device is present: " << B->info().name;
  ASSERT_FALSE(Why.empty());
  if (!libcudaLoadable()) {
    EXPECT_EQ(Why.rfind("libcuda.so.1 not found", 0), 0u) << Why;
  } else {
    EXPECT_NE(Why.find("CUDA"), std::string::npos) << Why;
  }
}

TEST(CudaNoDevice, SelectingCudaFailsWithNoDevice) {
  if (slmc_backend_available(SLMC_BACKEND_CUDA))
    GTEST_SKIP() << "a CUDA device is present";
  EXPECT_EQ(slmc_select_backend(SLMC_BACKEND_CUDA), SLMC_ERROR_NO_DEVICE);
  std::string Msg = lastError();
  EXPECT_FALSE(Msg.empty());
  if (!libcudaLoadable()) {
    EXPECT_NE(Msg.find("libcuda.so.1"), std::string::npos) << Msg;
  }
  // Nothing changed: the runtime still works on whatever it had chosen.
  slmc_backend Kind = SLMC_BACKEND_AUTO;
  if (slmc_get_backend(&Kind) == SLMC_SUCCESS) {
    EXPECT_NE(Kind, SLMC_BACKEND_CUDA);
  }
}

// ---- The backend object, without the runtime's registry --------------------

class CudaBackendTest : public ::testing::Test {
protected:
  void SetUp() override {
    std::string Why;
    Cuda = createCudaBackend(Why);
    if (!Cuda) {
      if (cudaRequired())
        FAIL() << "SLMC_REQUIRE_CUDA=1 but no CUDA backend: " << Why;
      GTEST_SKIP() << "no CUDA device: " << Why;
    }
  }

  /// Parses a container built here into `Images`.
  void parse(const Container &C, FatBinary &Images) {
    std::string Error;
    ASSERT_TRUE(parseFatBinary(C.data(), C.Size, Images, Error)) << Error;
  }

  std::unique_ptr<Backend> Cuda;
};

TEST_F(CudaBackendTest, DeviceInfo) {
  const slmc_device_info &I = Cuda->info();
  EXPECT_EQ(I.backend, SLMC_BACKEND_CUDA);
  EXPECT_GT(std::strlen(I.name), 0u);
  EXPECT_GE(I.max_group_size, 256u);
  EXPECT_GE(I.max_group_dims.x, 256u);
  EXPECT_GE(I.max_group_dims.y, 1u);
  EXPECT_GE(I.max_group_dims.z, 1u);
  EXPECT_GE(I.max_group_local_memory, 48u * 1024);
  EXPECT_GT(I.global_memory, 0u);
  EXPECT_GT(I.compute_units, 0u);
  std::cout << "[ device   ] " << I.name << ": " << I.compute_units
            << " SMs, " << (I.global_memory >> 20) << " MiB, max group "
            << I.max_group_size << " (" << I.max_group_dims.x << "x"
            << I.max_group_dims.y << "x" << I.max_group_dims.z
            << "), group-local " << I.max_group_local_memory << " bytes\n";
}

TEST_F(CudaBackendTest, LaunchReduceDirectly) {
  auto C = container({ptxImage(goodPtx())});
  FatBinary Images;
  parse(*C, Images);
  KernelRecord K{&ReduceHandle, &Images, "reduce_sum"};

  size_t Static = 0;
  ASSERT_FALSE(Cuda->kernelGroupMemory(K, Static));
  EXPECT_EQ(Static, kStaticTileBytes);

  const uint32_t N = 4096 + 77, Block = 128;
  std::vector<uint32_t> In = testInput(N);
  std::vector<uint32_t> Want = blockSums(In, Block);
  void *DIn = nullptr, *DOut = nullptr;
  ASSERT_FALSE(Cuda->allocDevice(&DIn, N * 4));
  ASSERT_FALSE(Cuda->allocShared(&DOut, Want.size() * 4));
  ASSERT_FALSE(Cuda->memcpy(DIn, In.data(), N * 4));
  std::vector<void *> Args = {&DIn, &DOut, const_cast<uint32_t *>(&N)};
  std::vector<size_t> Sizes = {8, 8, 4};
  slmc_launch_params P =
      params({static_cast<uint32_t>(Want.size()), 1, 1}, {Block, 1, 1}, 0,
             Args, Sizes);
  Status S = Cuda->launch({K, nullptr, P});
  ASSERT_FALSE(S) << S.Message;
  S = Cuda->synchronize();
  ASSERT_FALSE(S) << S.Message;
  std::vector<uint32_t> Got(static_cast<uint32_t *>(DOut),
                            static_cast<uint32_t *>(DOut) + Want.size());
  EXPECT_EQ(Got, Want);

  // One byte over the per-group limit.
  P.dynamic_group_memory = Cuda->info().max_group_local_memory - Static + 1;
  S = Cuda->launch({K, nullptr, P});
  EXPECT_EQ(S.Code, SLMC_ERROR_RESOURCE_LIMIT) << S.Message;
  EXPECT_NE(S.Message.find(std::to_string(Cuda->info().max_group_local_memory)),
            std::string::npos)
      << S.Message;

  EXPECT_FALSE(Cuda->free(DIn));
  EXPECT_FALSE(Cuda->free(DOut));
}

TEST_F(CudaBackendTest, JitLogInBuildFailure) {
  auto C = container({ptxImage(BadPtx)});
  FatBinary Images;
  parse(*C, Images);
  KernelRecord K{&BrokenHandle, &Images, "broken"};
  size_t Bytes = 0;
  Status S = Cuda->kernelGroupMemory(K, Bytes);
  EXPECT_EQ(S.Code, SLMC_ERROR_BUILD_FAILURE);
  EXPECT_EQ(S.Message.rfind("CUDA PTX JIT failed", 0), 0u) << S.Message;
  EXPECT_NE(S.Message.find("u33"), std::string::npos) << S.Message;
  // The failure is cached, not re-JIT-compiled, and stays the same.
  Status Again = Cuda->kernelGroupMemory(K, Bytes);
  EXPECT_EQ(Again.Code, S.Code);
  EXPECT_EQ(Again.Message, S.Message);
}

/// Which (.version, .target) pairs the installed driver JIT-compiles; the
/// compiler's PTX must be among the accepted ones. Informational beyond the
/// pair the other tests use.
TEST_F(CudaBackendTest, PtxVersionsAcceptedByDriver) {
  struct Case {
    const char *Version, *Target;
  } Cases[] = {{"6.0", "sm_70"}, {"7.0", "sm_70"}, {"7.8", "sm_75"},
               {"8.0", "sm_80"}, {"8.0", "sm_90"}, {"8.7", "sm_90"},
               {"8.8", "sm_90"}, {"9.0", "sm_90"}, {"9.0", "sm_100"},
               {"9.1", "sm_90"}};
  bool BaselineOk = false;
  // The backend caches modules by FatBinary address: keep every one alive.
  std::vector<std::unique_ptr<Container>> Containers;
  std::vector<std::unique_ptr<FatBinary>> Binaries;
  for (const Case &Cs : Cases) {
    std::string Ptx = std::string("\n.version ") + Cs.Version + "\n.target " +
                      Cs.Target + "\n.address_size 64\n" + PtxBody;
    Containers.push_back(container({ptxImage(Ptx, Cs.Target)}));
    Binaries.push_back(std::make_unique<FatBinary>());
    parse(*Containers.back(), *Binaries.back());
    KernelRecord K{&ReduceHandle, Binaries.back().get(), "reduce_sum"};
    size_t Bytes = 0;
    Status S = Cuda->kernelGroupMemory(K, Bytes);
    std::string FirstLine = S.Message.substr(0, S.Message.find('\n'));
    std::cout << "[ ptx      ] .version " << Cs.Version << " .target "
              << Cs.Target << ": "
              << (S ? "rejected: " + FirstLine : std::string("accepted"))
              << "\n";
    if (std::string(Cs.Version) == "7.0" && std::string(Cs.Target) == "sm_70")
      BaselineOk = !S;
  }
  EXPECT_TRUE(BaselineOk);
}

// ---- Through the public API and the compiler ABI ---------------------------

class CudaRuntimeTest : public ::testing::Test {
protected:
  void SetUp() override {
    static slmc_status Selected = slmc_select_backend(SLMC_BACKEND_CUDA);
    static std::string Why = Selected ? lastError() : std::string();
    if (Selected != SLMC_SUCCESS) {
      if (cudaRequired())
        FAIL() << "SLMC_REQUIRE_CUDA=1 but selecting CUDA failed: " << Why;
      GTEST_SKIP() << "no CUDA device: " << Why;
    }
    registerKernels();
    ASSERT_EQ(slmc_get_device_info(&Info), SLMC_SUCCESS) << lastError();
  }

  /// Runs reduce_sum over `N` inputs in groups of `Block`; checks the sums.
  void reduce(uint32_t N, uint32_t Block) {
    std::vector<uint32_t> In = testInput(N);
    std::vector<uint32_t> Want = blockSums(In, Block);
    void *DIn = nullptr, *Out = nullptr;
    ASSERT_EQ(slmc_malloc_device(&DIn, N * 4), SLMC_SUCCESS) << lastError();
    ASSERT_EQ(slmc_malloc_shared(&Out, Want.size() * 4), SLMC_SUCCESS)
        << lastError();
    ASSERT_EQ(slmc_memcpy(DIn, In.data(), N * 4), SLMC_SUCCESS) << lastError();
    std::vector<void *> Args = {&DIn, &Out, &N};
    std::vector<size_t> Sizes = {8, 8, 4};
    slmc_launch_params P =
        params({static_cast<uint32_t>(Want.size()), 1, 1}, {Block, 1, 1}, 0,
               Args, Sizes);
    ASSERT_EQ(slmc_launch(&ReduceHandle, nullptr, &P), SLMC_SUCCESS)
        << lastError();
    ASSERT_EQ(slmc_synchronize(), SLMC_SUCCESS) << lastError();
    const uint32_t *Got = static_cast<const uint32_t *>(Out);
    size_t Wrong = 0;
    uint64_t Total = 0, WantTotal = 0;
    for (size_t G = 0; G < Want.size(); ++G) {
      Wrong += Got[G] != Want[G];
      Total += Got[G];
      WantTotal += Want[G];
    }
    EXPECT_EQ(Wrong, 0u) << "of " << Want.size() << " groups";
    EXPECT_EQ(Total, WantTotal);
    EXPECT_EQ(slmc_free(DIn), SLMC_SUCCESS);
    EXPECT_EQ(slmc_free(Out), SLMC_SUCCESS);
  }

  /// Runs reverse_dynamic on `N` words with `Dynamic` bytes of dynamic
  /// group-local memory, probing its last word.
  void reverse(uint32_t N, size_t Dynamic) {
    ASSERT_GE(Dynamic, size_t(N) * 4 + 4);
    std::vector<uint32_t> In = testInput(N);
    void *Data = nullptr;
    ASSERT_EQ(slmc_malloc_shared(&Data, N * 4), SLMC_SUCCESS) << lastError();
    std::memcpy(Data, In.data(), N * 4); // managed memory: written by the host
    uint32_t Probe = static_cast<uint32_t>(Dynamic / 4 - 1);
    std::vector<void *> Args = {&Data, &Probe};
    std::vector<size_t> Sizes = {8, 4};
    slmc_launch_params P = params({1, 1, 1}, {N, 1, 1}, Dynamic, Args, Sizes);
    ASSERT_EQ(slmc_launch(&ReverseHandle, nullptr, &P), SLMC_SUCCESS)
        << lastError();
    ASSERT_EQ(slmc_synchronize(), SLMC_SUCCESS) << lastError();
    const uint32_t *Got = static_cast<const uint32_t *>(Data);
    size_t Wrong = 0;
    for (uint32_t I = 0; I < N; ++I)
      Wrong += Got[I] != In[N - 1 - I] + kProbeValue;
    EXPECT_EQ(Wrong, 0u) << "of " << N;
    EXPECT_EQ(slmc_free(Data), SLMC_SUCCESS);
  }

  slmc_device_info Info{};
};

TEST_F(CudaRuntimeTest, ReportsCudaDevice) {
  slmc_backend Kind = SLMC_BACKEND_AUTO;
  ASSERT_EQ(slmc_get_backend(&Kind), SLMC_SUCCESS);
  EXPECT_EQ(Kind, SLMC_BACKEND_CUDA);
  EXPECT_EQ(Info.backend, SLMC_BACKEND_CUDA);
  EXPECT_GT(std::strlen(Info.name), 0u);
}

TEST_F(CudaRuntimeTest, TiledReductionInStaticSharedMemory) {
  reduce((1u << 20) + 123, 256);
  reduce(1000, 64);
}

TEST_F(CudaRuntimeTest, StaticGroupMemoryOfKernels) {
  size_t Bytes = 0;
  ASSERT_EQ(slmc_kernel_group_memory(&ReduceHandle, &Bytes), SLMC_SUCCESS)
      << lastError();
  EXPECT_EQ(Bytes, kStaticTileBytes);
  ASSERT_EQ(slmc_kernel_group_memory(&ReverseHandle, &Bytes), SLMC_SUCCESS)
      << lastError();
  EXPECT_EQ(Bytes, 0u);
}

TEST_F(CudaRuntimeTest, DynamicGroupMemory) { reverse(1024, 1024 * 4 + 4); }

TEST_F(CudaRuntimeTest, DynamicGroupMemoryAboveDefaultWindow) {
  const size_t Dynamic = 100 * 1024; // more than the 48 KiB default
  if (Info.max_group_local_memory < Dynamic)
    GTEST_SKIP() << "device allows only " << Info.max_group_local_memory;
  reverse(512, Dynamic);
  // Exactly the device limit (the kernel has no static .shared).
  reverse(256, Info.max_group_local_memory);
}

TEST_F(CudaRuntimeTest, GroupMemoryOverLimit) {
  void *In = nullptr, *Out = nullptr;
  uint32_t N = 256;
  ASSERT_EQ(slmc_malloc_device(&In, 1024), SLMC_SUCCESS);
  ASSERT_EQ(slmc_malloc_device(&Out, 1024), SLMC_SUCCESS);
  std::vector<void *> Args = {&In, &Out, &N};
  std::vector<size_t> Sizes = {8, 8, 4};
  // Static 1 KiB + dynamic = limit + 1.
  size_t Dynamic = Info.max_group_local_memory - kStaticTileBytes + 1;
  slmc_launch_params P = params({1, 1, 1}, {256, 1, 1}, Dynamic, Args, Sizes);
  EXPECT_EQ(slmc_launch(&ReduceHandle, nullptr, &P), SLMC_ERROR_RESOURCE_LIMIT);
  std::string Msg = lastError();
  EXPECT_NE(Msg.find(std::to_string(Info.max_group_local_memory)),
            std::string::npos)
      << Msg;
  EXPECT_NE(Msg.find(std::to_string(Dynamic)), std::string::npos) << Msg;
  // Far over (does not fit in the driver's 32-bit argument either).
  P.dynamic_group_memory = size_t(1) << 33;
  EXPECT_EQ(slmc_launch(&ReduceHandle, nullptr, &P), SLMC_ERROR_RESOURCE_LIMIT);
  // The refusal left the device usable.
  P.dynamic_group_memory = 0;
  EXPECT_EQ(slmc_launch(&ReduceHandle, nullptr, &P), SLMC_SUCCESS)
      << lastError();
  EXPECT_EQ(slmc_synchronize(), SLMC_SUCCESS) << lastError();
  EXPECT_EQ(slmc_free(In), SLMC_SUCCESS);
  EXPECT_EQ(slmc_free(Out), SLMC_SUCCESS);
}

TEST_F(CudaRuntimeTest, GroupSizeOverLimit) {
  void *Data = nullptr;
  uint32_t Probe = 4096;
  ASSERT_EQ(slmc_malloc_device(&Data, 4 * 4096), SLMC_SUCCESS);
  std::vector<void *> Args = {&Data, &Probe};
  std::vector<size_t> Sizes = {8, 4};
  uint32_t TooMany = static_cast<uint32_t>(Info.max_group_size) * 2;
  slmc_launch_params P =
      params({1, 1, 1}, {TooMany, 1, 1}, 4 * 4096 + 4, Args, Sizes);
  EXPECT_EQ(slmc_launch(&ReverseHandle, nullptr, &P),
            SLMC_ERROR_RESOURCE_LIMIT);
  EXPECT_NE(lastError().find(std::to_string(TooMany)), std::string::npos)
      << lastError();
  EXPECT_EQ(slmc_free(Data), SLMC_SUCCESS);
}

TEST_F(CudaRuntimeTest, BuildFailureCarriesJitLog) {
  uint32_t X = 0;
  std::vector<void *> Args = {&X};
  std::vector<size_t> Sizes = {4};
  slmc_launch_params P = params({1, 1, 1}, {1, 1, 1}, 0, Args, Sizes);
  EXPECT_EQ(slmc_launch(&BrokenHandle, nullptr, &P), SLMC_ERROR_BUILD_FAILURE);
  std::string Msg = lastError();
  EXPECT_NE(Msg.find("CUDA PTX JIT failed"), std::string::npos) << Msg;
  EXPECT_NE(Msg.find("u33"), std::string::npos) << Msg; // from the JIT log
  std::cout << "[ jit log  ] " << Msg << "\n";
}

TEST_F(CudaRuntimeTest, UnknownKernelName) {
  uint32_t X = 0;
  std::vector<void *> Args = {&X};
  std::vector<size_t> Sizes = {4};
  slmc_launch_params P = params({1, 1, 1}, {1, 1, 1}, 0, Args, Sizes);
  EXPECT_EQ(slmc_launch(&MissingHandle, nullptr, &P),
            SLMC_ERROR_KERNEL_NOT_FOUND);
  EXPECT_NE(lastError().find("no_such_kernel"), std::string::npos)
      << lastError();
}

TEST_F(CudaRuntimeTest, NoPtxImage) {
  uint32_t X = 0;
  std::vector<void *> Args = {&X};
  std::vector<size_t> Sizes = {4};
  slmc_launch_params P = params({1, 1, 1}, {1, 1, 1}, 0, Args, Sizes);
  EXPECT_EQ(slmc_launch(&SpirvOnlyHandle, nullptr, &P),
            SLMC_ERROR_INVALID_IMAGE)
      << lastError();
}

/// Cilk Plus offload on a GPU: host vectors shared with _GFX_share's C
/// form, a task of the offload queue launching the reduction on their
/// device mirrors; the sums come back to the host vector when the task ends.
TEST_F(CudaRuntimeTest, OffloadTaskOnMirrorsOfHostMemory) {
  struct Job {
    std::vector<uint32_t> In, Out;
    uint32_t N = 0, Block = 256;
    bool Mirrored = false;
    slmc_status Launch = SLMC_ERROR_BACKEND;
  } J;
  J.N = (1u << 18) + 77;
  J.In = testInput(J.N);
  std::vector<uint32_t> Want = blockSums(J.In, J.Block);
  J.Out.assign(Want.size(), 0xFFFFFFFFu);
  ASSERT_EQ(slmc_share(J.In.data(), J.In.size() * 4), SLMC_SUCCESS) << lastError();
  ASSERT_EQ(slmc_share(J.Out.data(), J.Out.size() * 4), SLMC_SUCCESS) << lastError();
  uint64_t Id = 0;
  ASSERT_EQ(slmc_task_enqueue(
                [](void *Ctx) {
                  Job &J = *static_cast<Job *>(Ctx);
                  void *DIn = slmc_device_pointer(J.In.data());
                  void *DOut = slmc_device_pointer(J.Out.data());
                  J.Mirrored = DIn && DOut && DIn != J.In.data() && DOut != J.Out.data();
                  std::vector<void *> Args = {&DIn, &DOut, &J.N};
                  std::vector<size_t> Sizes = {8, 8, 4};
                  slmc_launch_params P = params({static_cast<uint32_t>(J.Out.size()), 1, 1},
                                                {J.Block, 1, 1}, 0, Args, Sizes);
                  J.Launch = slmc_launch(&ReduceHandle, nullptr, &P);
                },
                &J, nullptr, &Id),
            SLMC_SUCCESS);
  ASSERT_EQ(slmc_task_wait(Id, 60000), SLMC_SUCCESS) << lastError();
  EXPECT_TRUE(J.Mirrored);
  EXPECT_EQ(J.Launch, SLMC_SUCCESS);
  size_t Wrong = 0;
  for (size_t G = 0; G < Want.size(); ++G)
    Wrong += J.Out[G] != Want[G];
  EXPECT_EQ(Wrong, 0u) << "of " << Want.size() << " groups";
  EXPECT_EQ(slmc_unshare(J.In.data()), SLMC_SUCCESS) << lastError();
  EXPECT_EQ(slmc_unshare(J.Out.data()), SLMC_SUCCESS) << lastError();
}

TEST_F(CudaRuntimeTest, MemoryCopiesAndSets) {
  const size_t N = 1 << 16;
  std::vector<unsigned char> Host(N), Back(N, 0);
  for (size_t I = 0; I < N; ++I)
    Host[I] = static_cast<unsigned char>(I * 7 + 3);
  void *A = nullptr, *B = nullptr, *S = nullptr;
  ASSERT_EQ(slmc_malloc_device(&A, N), SLMC_SUCCESS) << lastError();
  ASSERT_EQ(slmc_malloc_device(&B, N), SLMC_SUCCESS) << lastError();
  ASSERT_EQ(slmc_malloc_shared(&S, N), SLMC_SUCCESS) << lastError();
  EXPECT_EQ(slmc_memcpy(A, Host.data(), N), SLMC_SUCCESS) << lastError();
  EXPECT_EQ(slmc_memcpy(B, A, N), SLMC_SUCCESS) << lastError();   // d2d
  EXPECT_EQ(slmc_memcpy(S, B, N), SLMC_SUCCESS) << lastError();   // d2shared
  EXPECT_EQ(std::memcmp(S, Host.data(), N), 0);
  EXPECT_EQ(slmc_memset(B, 0xAB, N / 2), SLMC_SUCCESS) << lastError();
  EXPECT_EQ(slmc_memcpy(Back.data(), B, N), SLMC_SUCCESS) << lastError();
  EXPECT_EQ(Back[0], 0xAB);
  EXPECT_EQ(Back[N / 2 - 1], 0xAB);
  EXPECT_EQ(Back[N / 2], Host[N / 2]);
  EXPECT_EQ(slmc_memset(S, 0, N), SLMC_SUCCESS) << lastError();
  EXPECT_EQ(static_cast<unsigned char *>(S)[N - 1], 0);
  // Plain host memory on both sides.
  std::vector<unsigned char> Host2(N, 1);
  EXPECT_EQ(slmc_memcpy(Host2.data(), Host.data(), N), SLMC_SUCCESS)
      << lastError();
  EXPECT_EQ(Host2, Host);
  EXPECT_EQ(slmc_memset(Host2.data(), 9, N), SLMC_SUCCESS) << lastError();
  EXPECT_EQ(Host2[N - 1], 9);
  EXPECT_EQ(slmc_free(A), SLMC_SUCCESS);
  EXPECT_EQ(slmc_free(B), SLMC_SUCCESS);
  EXPECT_EQ(slmc_free(S), SLMC_SUCCESS);
}

TEST_F(CudaRuntimeTest, LaunchFromAnotherThread) {
  // The primary context must be made current on every calling thread.
  std::thread Worker([this] { reduce(5000, 32); });
  Worker.join();
}
