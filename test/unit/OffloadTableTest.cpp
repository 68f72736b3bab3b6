//===- OffloadTableTest.cpp - Device mirrors of shared and mapped ranges --===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The bookkeeping behind slmc_device_pointer on GPU backends, through the
// internal OffloadTable (compiled into this test) and a recording device
// whose "device memory" is host memory at other addresses: which ranges get
// mirrors, when they are copied in and back, and when mirrors are freed.
// Each ScopeStack stands for one thread.
//
//===----------------------------------------------------------------------===//
#include "Offload.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <vector>

using namespace slmc::rt;

namespace {

/// Records "alloc N", "in N" (host to device), "out N" (device to host) and
/// "free N"; mirrors are malloc'ed blocks, so copies really move data.
class FakeDevice : public MirrorMemory {
public:
  ~FakeDevice() override {
    for (auto &[P, N] : Live)
      std::free(P);
  }
  bool identity() override { return Identity; }
  Status allocate(void **Mirror, size_t Bytes) override {
    if (FailAllocate)
      return Status::error(SLMC_ERROR_OUT_OF_MEMORY, "fake: out of device memory");
    *Mirror = std::malloc(Bytes);
    std::memset(*Mirror, 0xEE, Bytes);
    Live[*Mirror] = Bytes;
    Log.push_back("alloc " + std::to_string(Bytes));
    return Status::ok();
  }
  Status copy(void *Dst, const void *Src, size_t Bytes) override {
    bool ToDevice = isMirror(Dst);
    EXPECT_NE(ToDevice, isMirror(Src)) << "a copy must cross host and device";
    if ((ToDevice && FailCopyIn) || (!ToDevice && FailCopyOut))
      return Status::error(SLMC_ERROR_BACKEND, "fake: copy failed");
    std::memcpy(Dst, Src, Bytes);
    Log.push_back(std::string(ToDevice ? "in " : "out ") + std::to_string(Bytes));
    return Status::ok();
  }
  Status release(void *Mirror) override {
    auto It = Live.find(Mirror);
    EXPECT_NE(It, Live.end()) << "freeing a pointer that is not a mirror";
    if (It == Live.end())
      return Status::error(SLMC_ERROR_INVALID_VALUE, "fake: not a mirror");
    Log.push_back("free " + std::to_string(It->second));
    std::free(It->first);
    Live.erase(It);
    return Status::ok();
  }

  bool isMirror(const void *P) const {
    for (auto &[M, N] : Live)
      if (P >= M && P < static_cast<const char *>(M) + N)
        return true;
    return false;
  }
  std::vector<std::string> take() {
    std::vector<std::string> L;
    L.swap(Log);
    return L;
  }

  bool Identity = false, FailAllocate = false, FailCopyIn = false,
       FailCopyOut = false;
  std::map<void *, size_t> Live;
  std::vector<std::string> Log;
};

using Lines = std::vector<std::string>;

class Mirrors : public ::testing::Test {
protected:
  void *dp(ScopeStack &S, void *P) {
    Status E;
    void *D = Table.devicePointer(S, P, Dev, E);
    LastError = E;
    return D;
  }
  template <class T> T *dp(ScopeStack &S, T *P) {
    return static_cast<T *>(dp(S, static_cast<void *>(P)));
  }
  void map(ScopeStack &S, void *P, size_t N, slmc_map_kind K) {
    Status St = Table.map(S, P, N, K);
    ASSERT_FALSE(St) << St.Message;
  }
  void end(ScopeStack &S) {
    Status St = Table.end(S, Dev);
    ASSERT_FALSE(St) << St.Message;
  }

  OffloadTable Table;
  FakeDevice Dev;
  ScopeStack Thread;
  Status LastError;
  // Apart, so that ranges of A and B never touch.
  int A[64] = {}, Gap[16] = {}, B[64] = {};
};

TEST_F(Mirrors, IdentityDeviceNeedsNoMirrors) {
  Dev.Identity = true;
  ASSERT_FALSE(Table.share(A, sizeof(A)));
  Table.begin(Thread);
  map(Thread, B, sizeof(B), SLMC_MAP_INOUT);
  EXPECT_EQ(dp(Thread, A + 3), A + 3);
  EXPECT_EQ(dp(Thread, B + 5), B + 5);
  end(Thread);
  EXPECT_FALSE(Table.unshare(A, Dev));
  EXPECT_EQ(Dev.take(), Lines{});
}

TEST_F(Mirrors, OutsideAScopeNothingIsTranslated) {
  ASSERT_FALSE(Table.share(A, sizeof(A)));
  EXPECT_EQ(dp(Thread, A), A);
  EXPECT_EQ(dp(Thread, static_cast<void *>(nullptr)), nullptr);
  EXPECT_EQ(Dev.take(), Lines{});
  EXPECT_FALSE(Table.unshare(A, Dev));
}

TEST_F(Mirrors, InIsCopiedInOnceAndNeverBack) {
  for (int I = 0; I < 64; ++I)
    A[I] = I;
  Table.begin(Thread);
  map(Thread, A, sizeof(A), SLMC_MAP_IN);
  EXPECT_EQ(Dev.take(), Lines{}) << "mirrors are made lazily";
  int *D = dp(Thread, A + 3);
  ASSERT_NE(D, nullptr) << LastError.Message;
  ASSERT_NE(D, A + 3);
  EXPECT_TRUE(Dev.isMirror(D));
  EXPECT_EQ(*D, 3);
  EXPECT_EQ(dp(Thread, A + 10), D + 7) << "one mirror per range";
  EXPECT_EQ(dp(Thread, A), D - 3);
  EXPECT_EQ(Dev.take(), (Lines{"alloc 256", "in 256"}));
  D[0] = 99; // the device writes; IN data does not come back
  end(Thread);
  EXPECT_EQ(A[3], 3);
  EXPECT_EQ(Dev.take(), Lines{"free 256"});
}

TEST_F(Mirrors, OutIsCopiedBackOnly) {
  Table.begin(Thread);
  map(Thread, A, sizeof(A), SLMC_MAP_OUT);
  int *D = dp(Thread, A);
  ASSERT_NE(D, nullptr);
  for (int I = 0; I < 64; ++I)
    D[I] = 2 * I;
  end(Thread);
  EXPECT_EQ(A[63], 126);
  EXPECT_EQ(Dev.take(), (Lines{"alloc 256", "out 256", "free 256"}));
}

TEST_F(Mirrors, InoutAndPinGoBothWays) {
  for (slmc_map_kind K : {SLMC_MAP_INOUT, SLMC_MAP_PIN}) {
    A[0] = 5;
    Table.begin(Thread);
    map(Thread, A, sizeof(A), K);
    int *D = dp(Thread, A);
    ASSERT_NE(D, nullptr);
    EXPECT_EQ(D[0], 5);
    D[0] = 6;
    end(Thread);
    EXPECT_EQ(A[0], 6);
    EXPECT_EQ(Dev.take(), (Lines{"alloc 256", "in 256", "out 256", "free 256"}));
  }
}

TEST_F(Mirrors, UnusedRangesAreNeverCopied) {
  ASSERT_FALSE(Table.share(B, sizeof(B)));
  Table.begin(Thread);
  map(Thread, A, sizeof(A), SLMC_MAP_INOUT);
  end(Thread);
  EXPECT_EQ(Dev.take(), Lines{});
  EXPECT_FALSE(Table.unshare(B, Dev));
  EXPECT_EQ(Dev.take(), Lines{});
}

// A kernel given a host address could not reach it: an error, not the
// address itself (a wrong answer on a GPU).
TEST_F(Mirrors, PointersInNoRangeAreAnError) {
  Table.begin(Thread);
  map(Thread, A, 16 * sizeof(int), SLMC_MAP_INOUT);
  EXPECT_EQ(dp(Thread, B), nullptr);
  EXPECT_EQ(LastError.Code, SLMC_ERROR_INVALID_VALUE);
  EXPECT_NE(LastError.Message.find("is in no shared or mapped range"), std::string::npos)
      << LastError.Message;
  EXPECT_EQ(dp(Thread, A + 17), nullptr);
  EXPECT_NE(dp(Thread, A + 3), nullptr);
  end(Thread);
  EXPECT_EQ(Dev.take(), (Lines{"alloc 64", "in 64", "out 64", "free 64"}));
  // The CPU fallback reaches everything.
  Dev.Identity = true;
  Table.begin(Thread);
  EXPECT_EQ(dp(Thread, B), B);
  end(Thread);
}

// Work meant for the device ran on the host after mirrors were filled: the
// refresh puts the host's results into the mirrors, so the copy-back at the
// end of the scope keeps them.
TEST_F(Mirrors, RefreshKeepsHostWrites) {
  A[0] = 1;
  ASSERT_FALSE(Table.share(B, sizeof(B)));
  Table.begin(Thread);
  map(Thread, A, sizeof(A), SLMC_MAP_INOUT);
  int *DA = dp(Thread, A);
  ASSERT_NE(DA, nullptr);
  EXPECT_EQ(DA[0], 1);
  Table.begin(Thread); // an inner scope holds B
  ASSERT_NE(dp(Thread, B), nullptr);
  Dev.take();
  A[0] = 2;
  B[5] = 7;
  ASSERT_FALSE(Table.refresh(Thread, Dev));
  EXPECT_EQ(Dev.take(), (Lines{"in 256", "in 256"}));
  EXPECT_EQ(DA[0], 2);
  end(Thread);
  end(Thread);
  EXPECT_EQ(A[0], 2);
  EXPECT_EQ(B[5], 7);
  EXPECT_FALSE(Table.unshare(B, Dev));
  // Regions no scope holds are left alone; a failing copy is reported.
  Dev.take();
  ASSERT_FALSE(Table.refresh(Thread, Dev));
  EXPECT_EQ(Dev.take(), Lines{});
  Table.begin(Thread);
  map(Thread, A, sizeof(A), SLMC_MAP_IN);
  ASSERT_NE(dp(Thread, A), nullptr);
  Dev.FailCopyIn = true;
  Status St = Table.refresh(Thread, Dev);
  EXPECT_EQ(St.Code, SLMC_ERROR_BACKEND);
  EXPECT_NE(St.Message.find("to the device"), std::string::npos) << St.Message;
  Dev.FailCopyIn = false;
  end(Thread);
}

// One past the end of a range may be the next object (here the array
// declared after A, when the compiler puts them side by side): not the
// range's, so not reachable.
TEST_F(Mirrors, OnePastTheEndIsInNoRange) {
  Table.begin(Thread);
  map(Thread, A, sizeof(A), SLMC_MAP_IN);
  EXPECT_EQ(dp(Thread, A + 64), nullptr);
  EXPECT_NE(dp(Thread, A + 63), nullptr);
  end(Thread);
}

TEST_F(Mirrors, SharedMirrorLivesUntilUnshare) {
  A[1] = 1;
  ASSERT_FALSE(Table.share(A, sizeof(A)));
  EXPECT_EQ(Table.sharedCount(), 1u);
  Table.begin(Thread);
  int *D = dp(Thread, A + 1);
  ASSERT_NE(D, nullptr);
  EXPECT_EQ(*D, 1);
  *D = 2;
  end(Thread);
  EXPECT_EQ(A[1], 2);
  EXPECT_EQ(Dev.take(), (Lines{"alloc 256", "in 256", "out 256"}));

  // The next scope reuses the mirror and copies in what the host changed.
  A[1] = 3;
  Table.begin(Thread);
  EXPECT_EQ(dp(Thread, A + 1), D);
  EXPECT_EQ(*D, 3);
  end(Thread);
  EXPECT_EQ(Dev.take(), (Lines{"in 256", "out 256"}));

  EXPECT_FALSE(Table.unshare(A, Dev));
  EXPECT_EQ(Dev.take(), Lines{"free 256"});
  EXPECT_EQ(Table.sharedCount(), 0u);
  Table.begin(Thread);
  EXPECT_EQ(dp(Thread, A), nullptr) << "no longer shared";
  end(Thread);
}

TEST_F(Mirrors, NestedScopes) {
  Table.begin(Thread);
  map(Thread, A, sizeof(A), SLMC_MAP_INOUT);
  int *D = dp(Thread, A);
  ASSERT_NE(D, nullptr);
  Table.begin(Thread);
  map(Thread, B, sizeof(B), SLMC_MAP_IN);
  EXPECT_EQ(dp(Thread, A + 2), D + 2) << "inner scopes see outer maps";
  int *DB = dp(Thread, B);
  ASSERT_NE(DB, nullptr);
  EXPECT_NE(DB, B);
  D[2] = 7;
  end(Thread);
  // The inner scope released B and left A (live in the outer one) alone.
  EXPECT_EQ(A[2], 0);
  EXPECT_EQ(Dev.take(), (Lines{"alloc 256", "in 256", "alloc 256", "in 256", "free 256"}));
  EXPECT_EQ(dp(Thread, B), nullptr) << "the inner map ended with its scope";
  end(Thread);
  EXPECT_EQ(A[2], 7);
  EXPECT_EQ(Dev.take(), (Lines{"out 256", "free 256"}));
}

TEST_F(Mirrors, FirstUseInAnInnerScopeEndsWithIt) {
  Table.begin(Thread);
  map(Thread, A, sizeof(A), SLMC_MAP_INOUT);
  Table.begin(Thread);
  int *D = dp(Thread, A);
  ASSERT_NE(D, nullptr);
  D[0] = 4;
  end(Thread);
  EXPECT_EQ(A[0], 4) << "copied back when the scope that made it live ended";
  EXPECT_EQ(Dev.take(), (Lines{"alloc 256", "in 256", "out 256", "free 256"}));
  end(Thread);
  EXPECT_EQ(Dev.take(), Lines{});
}

TEST_F(Mirrors, MapInsideAVisibleRangeAddsItsDirections) {
  Table.begin(Thread);
  map(Thread, A, sizeof(A), SLMC_MAP_IN);
  map(Thread, A + 8, 8 * sizeof(int), SLMC_MAP_OUT); // now INOUT as a whole
  int *D = dp(Thread, A + 8);
  ASSERT_NE(D, nullptr);
  EXPECT_EQ(dp(Thread, A), D - 8);
  D[0] = 1;
  end(Thread);
  EXPECT_EQ(A[8], 1);
  EXPECT_EQ(Dev.take(), (Lines{"alloc 256", "in 256", "out 256", "free 256"}));

  // Inside a shared range: the shared mirror is used.
  ASSERT_FALSE(Table.share(B, sizeof(B)));
  Table.begin(Thread);
  map(Thread, B + 4, 4 * sizeof(int), SLMC_MAP_IN);
  EXPECT_NE(dp(Thread, B + 4), nullptr);
  end(Thread);
  EXPECT_EQ(Dev.take(), (Lines{"alloc 256", "in 256", "out 256"}));
  EXPECT_FALSE(Table.unshare(B, Dev));
}

TEST_F(Mirrors, RuntimeAllocationsAreNeverMirrored) {
  Table.noteAllocation(A, sizeof(A));
  ASSERT_FALSE(Table.share(A, sizeof(A))) << "sharing them is allowed";
  Table.begin(Thread);
  map(Thread, A + 4, 16, SLMC_MAP_INOUT);
  EXPECT_EQ(dp(Thread, A + 4), A + 4);
  EXPECT_EQ(dp(Thread, A + 64), A + 64);
  end(Thread);
  EXPECT_FALSE(Table.unshare(A, Dev));
  Table.noteFree(A);
  EXPECT_EQ(Dev.take(), Lines{});

  ASSERT_FALSE(Table.share(A, sizeof(A)));
  Table.begin(Thread);
  EXPECT_NE(dp(Thread, A), A) << "freed: an ordinary host range again";
  end(Thread);
  EXPECT_FALSE(Table.unshare(A, Dev));
}

TEST_F(Mirrors, ShareRules) {
  EXPECT_EQ(Table.share(nullptr, 4).Code, SLMC_ERROR_INVALID_VALUE);
  EXPECT_EQ(Table.share(A, 0).Code, SLMC_ERROR_INVALID_VALUE);
  ASSERT_FALSE(Table.share(A, 32 * sizeof(int)));
  Status S = Table.share(A + 16, 32 * sizeof(int));
  EXPECT_EQ(S.Code, SLMC_ERROR_INVALID_VALUE);
  EXPECT_NE(S.Message.find("overlaps"), std::string::npos) << S.Message;
  EXPECT_EQ(Table.share(A + 4, 4).Code, SLMC_ERROR_INVALID_VALUE) << "inside";
  EXPECT_FALSE(Table.share(A + 32, 32 * sizeof(int))) << "adjacent is fine";
  // The same range again is counted.
  ASSERT_FALSE(Table.share(A, 32 * sizeof(int)));
  EXPECT_EQ(Table.sharedCount(), 2u);
  EXPECT_FALSE(Table.unshare(A, Dev));
  EXPECT_EQ(Table.sharedCount(), 2u);
  EXPECT_FALSE(Table.unshare(A, Dev));
  EXPECT_EQ(Table.sharedCount(), 1u);
  S = Table.unshare(A, Dev);
  EXPECT_EQ(S.Code, SLMC_ERROR_INVALID_VALUE);
  EXPECT_NE(S.Message.find("not the start of a shared range"), std::string::npos);
  EXPECT_EQ(Table.unshare(A + 33, Dev).Code, SLMC_ERROR_INVALID_VALUE);
  EXPECT_FALSE(Table.unshare(A + 32, Dev));
}

TEST_F(Mirrors, MapRules) {
  EXPECT_EQ(Table.map(Thread, A, 4, SLMC_MAP_IN).Code, SLMC_ERROR_INVALID_VALUE)
      << "outside a scope";
  EXPECT_EQ(Table.end(Thread, Dev).Code, SLMC_ERROR_INVALID_VALUE);
  Table.begin(Thread);
  EXPECT_FALSE(Table.map(Thread, A, 0, SLMC_MAP_IN)) << "zero bytes: no-op";
  EXPECT_FALSE(Table.map(Thread, nullptr, 0, SLMC_MAP_IN));
  EXPECT_EQ(Table.map(Thread, nullptr, 4, SLMC_MAP_IN).Code, SLMC_ERROR_INVALID_VALUE);
  EXPECT_EQ(Table.map(Thread, A, 4, static_cast<slmc_map_kind>(9)).Code,
            SLMC_ERROR_INVALID_VALUE);
  map(Thread, A, 16 * sizeof(int), SLMC_MAP_IN);
  Status S = Table.map(Thread, A + 8, 16 * sizeof(int), SLMC_MAP_IN);
  EXPECT_EQ(S.Code, SLMC_ERROR_INVALID_VALUE);
  EXPECT_NE(S.Message.find("partly overlaps the mapped range"), std::string::npos)
      << S.Message;
  ASSERT_FALSE(Table.share(B + 8, 8 * sizeof(int)));
  S = Table.map(Thread, B, 16 * sizeof(int), SLMC_MAP_IN);
  EXPECT_EQ(S.Code, SLMC_ERROR_INVALID_VALUE);
  EXPECT_NE(S.Message.find("shared range"), std::string::npos) << S.Message;
  end(Thread);
  EXPECT_FALSE(Table.unshare(B + 8, Dev));
}

TEST_F(Mirrors, UnshareWhileInUseWaitsForTheScope) {
  ASSERT_FALSE(Table.share(A, sizeof(A)));
  Table.begin(Thread);
  int *D = dp(Thread, A);
  ASSERT_NE(D, nullptr);
  EXPECT_FALSE(Table.unshare(A, Dev));
  EXPECT_EQ(Dev.take(), (Lines{"alloc 256", "in 256"})) << "not freed yet";
  EXPECT_EQ(dp(Thread, A + 1), D + 1) << "still usable by the scope";
  D[1] = 8;
  end(Thread);
  EXPECT_EQ(A[1], 8);
  EXPECT_EQ(Dev.take(), (Lines{"out 256", "free 256"}));
  Table.begin(Thread);
  EXPECT_EQ(dp(Thread, A), nullptr) << "unshared";
  end(Thread);
}

TEST_F(Mirrors, TwoThreadsShareOneMirror) {
  ScopeStack Other;
  ASSERT_FALSE(Table.share(A, sizeof(A)));
  Table.begin(Thread);
  Table.begin(Other);
  int *D = dp(Thread, A);
  EXPECT_EQ(dp(Other, A), D);
  EXPECT_EQ(Dev.take(), (Lines{"alloc 256", "in 256"})) << "copied in once";
  end(Thread);
  end(Other);
  EXPECT_EQ(Dev.take(), (Lines{"out 256", "out 256"}));
  // Maps are private to their thread.
  Table.begin(Thread);
  Table.begin(Other);
  map(Thread, B, sizeof(B), SLMC_MAP_IN);
  EXPECT_NE(dp(Thread, B), B);
  EXPECT_EQ(dp(Other, B), nullptr) << "not mapped on this thread";
  end(Other);
  end(Thread);
  EXPECT_FALSE(Table.unshare(A, Dev));
}

TEST_F(Mirrors, AllocationFailure) {
  Dev.FailAllocate = true;
  Table.begin(Thread);
  map(Thread, A, sizeof(A), SLMC_MAP_IN);
  EXPECT_EQ(dp(Thread, A), nullptr);
  EXPECT_EQ(LastError.Code, SLMC_ERROR_OUT_OF_MEMORY);
  EXPECT_NE(LastError.Message.find("allocating the device copy"), std::string::npos)
      << LastError.Message;
  Dev.FailAllocate = false;
  EXPECT_NE(dp(Thread, A), nullptr) << "a later use tries again";
  end(Thread);
  EXPECT_TRUE(Dev.Live.empty());
}

TEST_F(Mirrors, CopyInFailureFreesTheMirror) {
  Dev.FailCopyIn = true;
  Table.begin(Thread);
  map(Thread, A, sizeof(A), SLMC_MAP_INOUT);
  EXPECT_EQ(dp(Thread, A), nullptr);
  EXPECT_EQ(LastError.Code, SLMC_ERROR_BACKEND);
  EXPECT_TRUE(Dev.Live.empty());
  end(Thread);
  EXPECT_EQ(Dev.take(), (Lines{"alloc 256", "free 256"}));
}

TEST_F(Mirrors, CopyBackFailureStillReleasesEverything) {
  Table.begin(Thread);
  map(Thread, A, sizeof(A), SLMC_MAP_OUT);
  map(Thread, B, sizeof(B), SLMC_MAP_OUT);
  ASSERT_NE(dp(Thread, A), nullptr);
  ASSERT_NE(dp(Thread, B), nullptr);
  Dev.FailCopyOut = true;
  Status S = Table.end(Thread, Dev);
  EXPECT_EQ(S.Code, SLMC_ERROR_BACKEND);
  EXPECT_NE(S.Message.find("copying back the mapped range"), std::string::npos)
      << S.Message;
  EXPECT_TRUE(Dev.Live.empty());
  EXPECT_TRUE(Thread.Scopes.empty());
}

} // namespace
