//===- ErrorTest.cpp - Error paths of the runtime API ---------------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <thread>

using namespace slmc::test;

namespace {

class CpuErrors : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_EQ(slmc_select_backend(SLMC_BACKEND_CPU), SLMC_SUCCESS)
        << slmc_last_error();
  }
};

void noop(void **) {}

const char Kernel = 0;
void **const KernelModule = registerValidKernel(&Kernel, "errorKernel");

std::string lastError() { return slmc_last_error(); }

TEST_F(CpuErrors, UnknownKernelHandle) {
  static const char Unknown = 0;
  EXPECT_EQ(launch(&Unknown, noop, {1, 1, 1}, {1, 1, 1}),
            SLMC_ERROR_KERNEL_NOT_FOUND);
  EXPECT_TRUE(contains(lastError(), "not registered")) << lastError();
  size_t Bytes = 0;
  EXPECT_EQ(slmc_kernel_group_memory(&Unknown, &Bytes), SLMC_ERROR_KERNEL_NOT_FOUND);
}

TEST_F(CpuErrors, NoHostVersion) {
  EXPECT_EQ(launch(&Kernel, nullptr, {1, 1, 1}, {1, 1, 1}),
            SLMC_ERROR_KERNEL_NOT_FOUND);
  EXPECT_TRUE(contains(lastError(), "errorKernel")) << lastError();
  EXPECT_TRUE(contains(lastError(), "host version")) << lastError();
}

TEST_F(CpuErrors, InvalidParameters) {
  EXPECT_EQ(slmc_launch(&Kernel, noop, nullptr), SLMC_ERROR_INVALID_VALUE);

  slmc_launch_params P{};
  P.group_count = {1, 1, 1};
  P.group_size = {1, 1, 1};
  size_t Size = 4;
  P.num_args = 1;
  P.arg_sizes = &Size;
  P.args = nullptr;
  EXPECT_EQ(slmc_launch(&Kernel, noop, &P), SLMC_ERROR_INVALID_VALUE);
  EXPECT_TRUE(contains(lastError(), "args is null")) << lastError();

  int X = 0;
  void *Args[2] = {&X, nullptr};
  P.args = Args;
  P.arg_sizes = nullptr;
  EXPECT_EQ(slmc_launch(&Kernel, noop, &P), SLMC_ERROR_INVALID_VALUE);
  EXPECT_TRUE(contains(lastError(), "arg_sizes is null")) << lastError();

  size_t Sizes[2] = {4, 4};
  P.arg_sizes = Sizes;
  P.num_args = 2;
  EXPECT_EQ(slmc_launch(&Kernel, noop, &P), SLMC_ERROR_INVALID_VALUE);
  EXPECT_TRUE(contains(lastError(), "argument 1 is null")) << lastError();

  // No arguments at all is fine with null arrays.
  P.num_args = 0;
  P.args = nullptr;
  P.arg_sizes = nullptr;
  EXPECT_EQ(slmc_launch(&Kernel, noop, &P), SLMC_SUCCESS) << lastError();
}

TEST_F(CpuErrors, ZeroDimensions) {
  const slmc_dim3 Bad[] = {{0, 1, 1}, {1, 0, 1}, {1, 1, 0}};
  for (slmc_dim3 D : Bad) {
    EXPECT_EQ(launch(&Kernel, noop, D, {1, 1, 1}), SLMC_ERROR_INVALID_VALUE);
    EXPECT_TRUE(contains(lastError(), "group_count")) << lastError();
    EXPECT_EQ(launch(&Kernel, noop, {1, 1, 1}, D), SLMC_ERROR_INVALID_VALUE);
    EXPECT_TRUE(contains(lastError(), "group_size")) << lastError();
  }
}

TEST_F(CpuErrors, GroupTooLarge) {
  EXPECT_EQ(launch(&Kernel, noop, {1, 1, 1}, {33, 32, 1}),
            SLMC_ERROR_RESOURCE_LIMIT);
  EXPECT_TRUE(contains(lastError(), "1056")) << lastError();
  EXPECT_TRUE(contains(lastError(), "1024")) << lastError();

  EXPECT_EQ(launch(&Kernel, noop, {1, 1, 1}, {1, 1, 65}), SLMC_ERROR_RESOURCE_LIMIT);
  EXPECT_TRUE(contains(lastError(), "z=65")) << lastError();
  EXPECT_TRUE(contains(lastError(), "64")) << lastError();

  EXPECT_EQ(launch(&Kernel, noop, {1, 1, 1}, {2048, 1, 1}), SLMC_ERROR_RESOURCE_LIMIT);
  EXPECT_TRUE(contains(lastError(), "x=2048")) << lastError();

  // The largest allowed shapes work.
  EXPECT_EQ(launch(&Kernel, noop, {2, 1, 1}, {1024, 1, 1}), SLMC_SUCCESS) << lastError();
  EXPECT_EQ(launch(&Kernel, noop, {2, 1, 1}, {1, 16, 64}), SLMC_SUCCESS) << lastError();
}

TEST_F(CpuErrors, DynamicGroupMemoryTooLarge) {
  slmc_device_info Info;
  ASSERT_EQ(slmc_get_device_info(&Info), SLMC_SUCCESS);
  const size_t TooMuch = Info.max_group_local_memory + 1;
  EXPECT_EQ(launch(&Kernel, noop, {1, 1, 1}, {4, 1, 1}, {}, {}, TooMuch),
            SLMC_ERROR_RESOURCE_LIMIT);
  EXPECT_TRUE(contains(lastError(), std::to_string(TooMuch))) << lastError();
  EXPECT_TRUE(contains(lastError(), std::to_string(Info.max_group_local_memory)))
      << lastError();
}

TEST_F(CpuErrors, CorruptRegisteredImageFailsAtLaunch) {
  // Registration of a corrupt image succeeds (a program must still start);
  // launching one of its kernels reports the problem.
  static const char BadMagic = 0, BadSize = 0, BadWrapper = 0, OnHeap = 0;

  Bytes C = validContainer();
  C[1] = 0;
  registerKernel(registerContainer(C), &BadMagic, "badMagic");
  EXPECT_EQ(launch(&BadMagic, noop, {1, 1, 1}, {1, 1, 1}), SLMC_ERROR_INVALID_IMAGE);
  EXPECT_TRUE(contains(lastError(), "badMagic")) << lastError();
  EXPECT_TRUE(contains(lastError(), "bad magic")) << lastError();
  size_t GroupBytes = 0;
  EXPECT_EQ(slmc_kernel_group_memory(&BadMagic, &GroupBytes), SLMC_ERROR_INVALID_IMAGE);

  // A size far beyond the loaded segment must not be followed.
  C = validContainer();
  put<uint64_t>(C, off::Size, uint64_t(1) << 40);
  registerKernel(registerContainer(C), &BadSize, "badSize");
  EXPECT_EQ(launch(&BadSize, noop, {1, 1, 1}, {1, 1, 1}), SLMC_ERROR_INVALID_IMAGE);
  EXPECT_TRUE(contains(lastError(), "exceeds")) << lastError();

  struct {
    int32_t Magic, Version;
    const void *Data;
    void *Unused;
  } Wrapper{0x12345678, 1, nullptr, nullptr};
  registerKernel(__hipRegisterFatBinary(&Wrapper), &BadWrapper, "badWrapper");
  EXPECT_EQ(launch(&BadWrapper, noop, {1, 1, 1}, {1, 1, 1}), SLMC_ERROR_INVALID_IMAGE);
  EXPECT_TRUE(contains(lastError(), "wrapper")) << lastError();

  // Data outside every loaded segment cannot be bounded, so it is refused.
  Bytes Good = validContainer();
  auto Heap = std::make_unique<unsigned char[]>(Good.size());
  std::memcpy(Heap.get(), Good.data(), Good.size());
  registerKernel(registerContainerAt(Heap.get()), &OnHeap, "onHeap");
  EXPECT_EQ(launch(&OnHeap, noop, {1, 1, 1}, {1, 1, 1}), SLMC_ERROR_INVALID_IMAGE);
  EXPECT_TRUE(contains(lastError(), "segment")) << lastError();

  registerKernel(__hipRegisterFatBinary(nullptr), &OnHeap, "nullWrapper");
  EXPECT_EQ(launch(&OnHeap, noop, {1, 1, 1}, {1, 1, 1}), SLMC_ERROR_INVALID_IMAGE);

  // Images without the checksum slmc++ writes are not handed to a driver.
  ImageSpec Unchecked;
  Unchecked.Strings = {{"triple", "spirv64-unknown-unknown"}};
  Unchecked.Payload = "spirv";
  Unchecked.Checksum = false;
  static const char NoChecksum = 0;
  registerKernel(registerContainer(makeContainer({makeOffloadBinary(Unchecked)})),
                 &NoChecksum, "noChecksum");
  EXPECT_EQ(launch(&NoChecksum, noop, {1, 1, 1}, {1, 1, 1}), SLMC_ERROR_INVALID_IMAGE);
  EXPECT_TRUE(contains(lastError(), "has no checksum")) << lastError();
  EXPECT_EQ(launch(&OnHeap, noop, {1, 1, 1}, {1, 1, 1}), SLMC_ERROR_INVALID_IMAGE);

  // Registration with bad handles is ignored.
  static const char Ignored = 0;
  void *NotAModule = nullptr;
  registerKernel(&NotAModule, &Ignored, "ignored");
  registerKernel(nullptr, &Ignored, "ignored");
  EXPECT_EQ(launch(&Ignored, noop, {1, 1, 1}, {1, 1, 1}), SLMC_ERROR_KERNEL_NOT_FOUND);

  // The runtime is unaffected.
  EXPECT_EQ(launch(&Kernel, noop, {1, 1, 1}, {1, 1, 1}), SLMC_SUCCESS) << lastError();
}

// Random corruption of an executable's embedded images: whichever byte
// changes, the launch reports the container as invalid and no image
// reaches a driver, unless the images read as before (padding, the unused
// flags field).
TEST_F(CpuErrors, EveryChangedByteOfAnEmbeddedContainerIsReported) {
  const Bytes Good = validContainer();
  static char Handles[4096];
  ASSERT_LE(Good.size(), sizeof Handles);
  size_t Refused = 0;
  for (size_t Byte = 0; Byte < Good.size(); ++Byte) {
    Bytes C = Good;
    C[Byte] ^= uint8_t(0x01 << (Byte % 8));
    registerKernel(registerContainer(C), &Handles[Byte], "changed");
    slmc_status S = launch(&Handles[Byte], noop, {1, 1, 1}, {1, 1, 1});
    if (S == SLMC_SUCCESS) {
      EXPECT_TRUE(sameImages(Good, C)) << "byte " << Byte << " changed, launch ran";
      continue;
    }
    ASSERT_EQ(S, SLMC_ERROR_INVALID_IMAGE) << "byte " << Byte << ": " << lastError();
    ++Refused;
  }
  EXPECT_GT(Refused, Good.size() * 3 / 4);
}

TEST_F(CpuErrors, MemoryErrors) {
  void *P = reinterpret_cast<void *>(1);
  EXPECT_EQ(slmc_malloc_shared(&P, 0), SLMC_ERROR_INVALID_VALUE);
  EXPECT_EQ(P, nullptr);
  EXPECT_EQ(slmc_malloc_device(nullptr, 16), SLMC_ERROR_INVALID_VALUE);
  int Local = 0;
  EXPECT_EQ(slmc_free(&Local), SLMC_ERROR_INVALID_VALUE);
  EXPECT_TRUE(contains(lastError(), "not allocated")) << lastError();
  EXPECT_EQ(slmc_memcpy(nullptr, &Local, 4), SLMC_ERROR_INVALID_VALUE);
  EXPECT_EQ(slmc_memset(nullptr, 0, 4), SLMC_ERROR_INVALID_VALUE);
  EXPECT_EQ(slmc_malloc_shared(&P, 8), SLMC_SUCCESS);
  EXPECT_EQ(slmc_free(P), SLMC_SUCCESS);
  EXPECT_EQ(slmc_free(P), SLMC_ERROR_INVALID_VALUE); // double free is caught
  EXPECT_EQ(slmc_get_device_info(nullptr), SLMC_ERROR_INVALID_VALUE);
  EXPECT_EQ(slmc_get_backend(nullptr), SLMC_ERROR_INVALID_VALUE);
  EXPECT_EQ(slmc_kernel_group_memory(&Kernel, nullptr), SLMC_ERROR_INVALID_VALUE);
}

TEST_F(CpuErrors, MessagesArePrefixedAndOneLine) {
  EXPECT_EQ(slmc_malloc_shared(nullptr, 1), SLMC_ERROR_INVALID_VALUE);
  std::string E = lastError();
  EXPECT_EQ(E.rfind("slmc: ", 0), 0u) << E;
  EXPECT_EQ(E.find('\n'), std::string::npos) << E;
}

TEST_F(CpuErrors, LastErrorIsPerThread) {
  EXPECT_EQ(slmc_malloc_shared(nullptr, 1), SLMC_ERROR_INVALID_VALUE);
  const std::string Mine = lastError();
  std::string FreshThread, OtherThread;
  std::thread T([&] {
    FreshThread = slmc_last_error();
    static const char Unknown = 0;
    launch(&Unknown, noop, {1, 1, 1}, {1, 1, 1});
    OtherThread = slmc_last_error();
  });
  T.join();
  EXPECT_EQ(FreshThread, "");
  EXPECT_TRUE(contains(OtherThread, "not registered")) << OtherThread;
  EXPECT_EQ(lastError(), Mine);
  // Success leaves the last error alone.
  EXPECT_EQ(slmc_synchronize(), SLMC_SUCCESS);
  EXPECT_EQ(lastError(), Mine);
}

TEST(Names, StatusAndBackendNames) {
  EXPECT_STREQ(slmc_status_string(SLMC_SUCCESS), "SLMC_SUCCESS");
  EXPECT_STREQ(slmc_status_string(SLMC_ERROR_NO_DEVICE), "SLMC_ERROR_NO_DEVICE");
  EXPECT_STREQ(slmc_status_string(SLMC_ERROR_BARRIER_DIVERGENCE),
               "SLMC_ERROR_BARRIER_DIVERGENCE");
  EXPECT_STREQ(slmc_status_string(SLMC_ERROR_BACKEND), "SLMC_ERROR_BACKEND");
  EXPECT_STREQ(slmc_status_string(static_cast<slmc_status>(77)), "SLMC_ERROR_UNKNOWN");
  EXPECT_STREQ(slmc_backend_name(SLMC_BACKEND_LEVEL_ZERO), "level_zero");
  EXPECT_STREQ(slmc_backend_name(SLMC_BACKEND_CUDA), "cuda");
  EXPECT_STREQ(slmc_backend_name(SLMC_BACKEND_CPU), "cpu");
  EXPECT_STREQ(slmc_backend_name(SLMC_BACKEND_AUTO), "auto");
  EXPECT_STREQ(slmc_backend_name(static_cast<slmc_backend>(9)), "unknown");
}

TEST_F(CpuErrors, SelectInvalidBackend) {
  EXPECT_EQ(slmc_select_backend(static_cast<slmc_backend>(42)),
            SLMC_ERROR_INVALID_VALUE);
  EXPECT_EQ(slmc_backend_available(static_cast<slmc_backend>(42)), 0);
  slmc_backend B = SLMC_BACKEND_AUTO;
  ASSERT_EQ(slmc_get_backend(&B), SLMC_SUCCESS);
  EXPECT_EQ(B, SLMC_BACKEND_CPU); // unchanged
  EXPECT_EQ(slmc_backend_available(SLMC_BACKEND_CPU), 1);
  EXPECT_EQ(slmc_backend_available(SLMC_BACKEND_AUTO), 1);
}

} // namespace
