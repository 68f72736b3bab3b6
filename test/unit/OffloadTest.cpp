//===- OffloadTest.cpp - Sharing, offload scopes and the task queue -------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The C API of slmc/runtime.h for Cilk Plus offload on the CPU fallback
// (SLMC_DEVICE=cpu): there device pointers are host pointers. ctest runs
// each test in its own process; run together, the tests share one queue, so
// none assumes which id comes first.
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

using namespace slmc::test;

namespace {

std::string lastError() { return slmc_last_error(); }

class Offload : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_EQ(slmc_select_backend(SLMC_BACKEND_CPU), SLMC_SUCCESS) << lastError();
    ASSERT_EQ(slmc_task_wait(0, -1), SLMC_SUCCESS) << lastError();
  }
  void TearDown() override { slmc_task_wait(0, -1); }
};

/// A task that blocks until the test opens the gate.
struct Gate {
  std::mutex M;
  std::condition_variable Cv;
  bool Open = false, Entered = false;

  static void run(void *Self) {
    Gate &G = *static_cast<Gate *>(Self);
    std::unique_lock<std::mutex> L(G.M);
    G.Entered = true;
    G.Cv.notify_all();
    G.Cv.wait(L, [&] { return G.Open; });
  }
  void waitEntered() {
    std::unique_lock<std::mutex> L(M);
    Cv.wait(L, [&] { return Entered; });
  }
  void open() {
    std::lock_guard<std::mutex> L(M);
    Open = true;
    Cv.notify_all();
  }
};

// ---- Status codes --------------------------------------------------------------

TEST(OffloadStatus, NamesAndLastStatus) {
  EXPECT_STREQ(slmc_status_string(SLMC_ERROR_TASK_NOT_FOUND), "SLMC_ERROR_TASK_NOT_FOUND");
  EXPECT_STREQ(slmc_status_string(SLMC_ERROR_TIMEOUT), "SLMC_ERROR_TIMEOUT");
  EXPECT_EQ(slmc_report_error(SLMC_ERROR_RESOURCE_LIMIT, "too big"),
            SLMC_ERROR_RESOURCE_LIMIT);
  EXPECT_EQ(slmc_last_status(), SLMC_ERROR_RESOURCE_LIMIT);
  EXPECT_EQ(lastError(), "slmc: too big");
  // Successful calls leave it.
  slmc_backend B;
  EXPECT_EQ(slmc_get_backend(&B), SLMC_SUCCESS);
  EXPECT_EQ(slmc_last_status(), SLMC_ERROR_RESOURCE_LIMIT);
  EXPECT_EQ(slmc_report_error(SLMC_SUCCESS, "x"), SLMC_ERROR_INVALID_VALUE);
  // Per thread.
  slmc_status Other = SLMC_ERROR_BACKEND;
  std::thread([&] { Other = slmc_last_status(); }).join();
  EXPECT_EQ(Other, SLMC_SUCCESS);
}

// ---- Shared regions and scopes on the CPU --------------------------------------

TEST_F(Offload, ShareAndUnshareAreIdentityOnTheCpu) {
  std::vector<float> Data(100, 1.0f);
  ASSERT_EQ(slmc_share(Data.data(), Data.size() * sizeof(float)), SLMC_SUCCESS)
      << lastError();
  ASSERT_EQ(slmc_offload_begin(), SLMC_SUCCESS);
  EXPECT_EQ(slmc_device_pointer(Data.data() + 7), Data.data() + 7);
  ASSERT_EQ(slmc_offload_end(), SLMC_SUCCESS) << lastError();
  EXPECT_EQ(slmc_unshare(Data.data()), SLMC_SUCCESS) << lastError();
  EXPECT_EQ(slmc_unshare(Data.data()), SLMC_ERROR_INVALID_VALUE);
  EXPECT_NE(lastError().find("not the start of a shared range"), std::string::npos)
      << lastError();
  EXPECT_EQ(slmc_share(nullptr, 4), SLMC_ERROR_INVALID_VALUE);
  EXPECT_EQ(slmc_share(Data.data(), 0), SLMC_ERROR_INVALID_VALUE);
}

TEST_F(Offload, DevicePointerOutsideScopesIsIdentity) {
  int X[4];
  ASSERT_EQ(slmc_share(X, sizeof(X)), SLMC_SUCCESS);
  EXPECT_EQ(slmc_offload_active(), 0);
  EXPECT_EQ(slmc_device_pointer(X), static_cast<void *>(X));
  EXPECT_EQ(slmc_device_pointer(nullptr), nullptr);
  EXPECT_EQ(slmc_unshare(X), SLMC_SUCCESS);
}

TEST_F(Offload, ScopesNest) {
  int X[8], Y[8];
  EXPECT_EQ(slmc_offload_active(), 0);
  EXPECT_EQ(slmc_offload_map(X, sizeof(X), SLMC_MAP_IN), SLMC_ERROR_INVALID_VALUE);
  EXPECT_NE(lastError().find("slmc_offload_begin"), std::string::npos) << lastError();
  ASSERT_EQ(slmc_offload_begin(), SLMC_SUCCESS);
  EXPECT_NE(slmc_offload_active(), 0);
  EXPECT_EQ(slmc_offload_map(X, sizeof(X), SLMC_MAP_INOUT), SLMC_SUCCESS) << lastError();
  ASSERT_EQ(slmc_offload_begin(), SLMC_SUCCESS);
  EXPECT_EQ(slmc_offload_map(Y, sizeof(Y), SLMC_MAP_OUT), SLMC_SUCCESS) << lastError();
  EXPECT_EQ(slmc_offload_map(X + 4, 4 * sizeof(int), SLMC_MAP_PIN), SLMC_SUCCESS)
      << "inside an outer map";
  EXPECT_EQ(slmc_offload_map(Y + 4, sizeof(Y), SLMC_MAP_IN), SLMC_ERROR_INVALID_VALUE)
      << "partly overlapping";
  EXPECT_EQ(slmc_device_pointer(Y + 1), static_cast<void *>(Y + 1));
  EXPECT_EQ(slmc_offload_end(), SLMC_SUCCESS);
  EXPECT_NE(slmc_offload_active(), 0) << "the outer scope is still open";
  EXPECT_EQ(slmc_offload_end(), SLMC_SUCCESS);
  EXPECT_EQ(slmc_offload_active(), 0);
  EXPECT_EQ(slmc_offload_end(), SLMC_ERROR_INVALID_VALUE);
  // Scopes belong to their thread.
  ASSERT_EQ(slmc_offload_begin(), SLMC_SUCCESS);
  int OtherActive = -1;
  std::thread([&] { OtherActive = slmc_offload_active(); }).join();
  EXPECT_EQ(OtherActive, 0);
  EXPECT_EQ(slmc_offload_end(), SLMC_SUCCESS);
}

TEST_F(Offload, RuntimeAllocationsAreUnchanged) {
  void *P = nullptr;
  ASSERT_EQ(slmc_malloc_shared(&P, 64), SLMC_SUCCESS);
  ASSERT_EQ(slmc_offload_begin(), SLMC_SUCCESS);
  EXPECT_EQ(slmc_offload_map(P, 64, SLMC_MAP_INOUT), SLMC_SUCCESS);
  EXPECT_EQ(slmc_device_pointer(static_cast<char *>(P) + 8), static_cast<char *>(P) + 8);
  EXPECT_EQ(slmc_offload_end(), SLMC_SUCCESS);
  EXPECT_EQ(slmc_free(P), SLMC_SUCCESS);
}

// ---- Task queue --------------------------------------------------------------------

void appendIndex(void *Ctx);
struct OrderLog {
  std::mutex M;
  std::vector<int> Order;
  std::set<std::thread::id> Threads;
  std::atomic<int> Released{0};
  std::atomic<int> OutsideScope{0};
};
struct OrderItem {
  OrderLog *Log;
  int Index;
};
void appendIndex(void *Ctx) {
  auto *I = static_cast<OrderItem *>(Ctx);
  if (!slmc_offload_active())
    ++I->Log->OutsideScope;
  std::lock_guard<std::mutex> L(I->Log->M);
  I->Log->Order.push_back(I->Index);
  I->Log->Threads.insert(std::this_thread::get_id());
}
void releaseItem(void *Ctx) {
  auto *I = static_cast<OrderItem *>(Ctx);
  ++I->Log->Released;
  delete I;
}

TEST_F(Offload, TasksRunInOrderOnOneThreadInsideAScope) {
  OrderLog Log;
  uint64_t Previous = 0;
  for (int I = 0; I < 100; ++I) {
    uint64_t Id = 0;
    ASSERT_EQ(slmc_task_enqueue(appendIndex, new OrderItem{&Log, I}, releaseItem, &Id),
              SLMC_SUCCESS)
        << lastError();
    EXPECT_GE(Id, 1u);
    if (Previous)
      EXPECT_EQ(Id, Previous + 1) << "ids increase by one";
    Previous = Id;
  }
  ASSERT_EQ(slmc_task_wait(0, -1), SLMC_SUCCESS) << lastError();
  ASSERT_EQ(Log.Order.size(), 100u);
  for (int I = 0; I < 100; ++I)
    EXPECT_EQ(Log.Order[I], I);
  EXPECT_EQ(Log.Threads.size(), 1u);
  EXPECT_EQ(Log.Threads.count(std::this_thread::get_id()), 0u);
  EXPECT_EQ(Log.Released.load(), 100);
  EXPECT_EQ(Log.OutsideScope.load(), 0);
  EXPECT_EQ(slmc_offload_active(), 0) << "the caller's thread has no scope";
}

TEST_F(Offload, WaitForAllWithNothingOutstanding) {
  EXPECT_EQ(slmc_task_wait(0, -1), SLMC_SUCCESS);
  EXPECT_EQ(slmc_task_wait(0, 0), SLMC_SUCCESS);
}

TEST_F(Offload, SuccessfulWaitInvalidatesTheIdAndEarlierOnes) {
  OrderLog Log;
  uint64_t First = 0, Second = 0, Third = 0;
  ASSERT_EQ(slmc_task_enqueue(appendIndex, new OrderItem{&Log, 0}, releaseItem, &First),
            SLMC_SUCCESS);
  ASSERT_EQ(slmc_task_enqueue(appendIndex, new OrderItem{&Log, 1}, releaseItem, &Second),
            SLMC_SUCCESS);
  ASSERT_EQ(slmc_task_enqueue(appendIndex, new OrderItem{&Log, 2}, releaseItem, &Third),
            SLMC_SUCCESS);
  EXPECT_EQ(slmc_task_wait(Second, -1), SLMC_SUCCESS) << lastError();
  {
    std::lock_guard<std::mutex> L(Log.M); // the third task may be running
    EXPECT_GE(Log.Order.size(), 2u);
  }
  EXPECT_EQ(slmc_task_wait(Second, -1), SLMC_ERROR_TASK_NOT_FOUND);
  EXPECT_NE(lastError().find("waited for already"), std::string::npos) << lastError();
  EXPECT_EQ(slmc_task_wait(First, 0), SLMC_ERROR_TASK_NOT_FOUND);
  EXPECT_EQ(slmc_task_wait(Third, -1), SLMC_SUCCESS) << "later ids stay valid";
  EXPECT_EQ(slmc_task_wait(Third + 1000, -1), SLMC_ERROR_TASK_NOT_FOUND);
  EXPECT_NE(lastError().find("never enqueued"), std::string::npos) << lastError();
  EXPECT_EQ(slmc_task_wait(0, -1), SLMC_SUCCESS);
}

TEST_F(Offload, TimeoutOnABlockedTask) {
  Gate G;
  uint64_t Id = 0;
  ASSERT_EQ(slmc_task_enqueue(Gate::run, &G, nullptr, &Id), SLMC_SUCCESS);
  G.waitEntered();
  auto Start = std::chrono::steady_clock::now();
  EXPECT_EQ(slmc_task_wait(Id, 50), SLMC_ERROR_TIMEOUT);
  EXPECT_GE(std::chrono::steady_clock::now() - Start, std::chrono::milliseconds(45));
  EXPECT_NE(lastError().find("did not finish within 50 ms"), std::string::npos)
      << lastError();
  EXPECT_EQ(slmc_task_wait(0, 0), SLMC_ERROR_TIMEOUT) << "polling";
  G.open();
  EXPECT_EQ(slmc_task_wait(Id, -1), SLMC_SUCCESS) << "the id stayed valid";
  EXPECT_EQ(slmc_task_wait(0, -2), SLMC_ERROR_INVALID_VALUE);
}

TEST_F(Offload, SeveralThreadsEnqueue) {
  constexpr int Threads = 4, PerThread = 200;
  std::atomic<int> Ran{0};
  std::vector<std::vector<uint64_t>> Ids(Threads);
  std::vector<std::thread> Pool;
  for (int T = 0; T < Threads; ++T)
    Pool.emplace_back([&, T] {
      for (int I = 0; I < PerThread; ++I) {
        uint64_t Id = 0;
        slmc_status S = slmc_task_enqueue(
            [](void *C) { ++*static_cast<std::atomic<int> *>(C); }, &Ran, nullptr, &Id);
        EXPECT_EQ(S, SLMC_SUCCESS);
        Ids[T].push_back(Id);
        if (I % 50 == 49)
          EXPECT_EQ(slmc_task_wait(0, -1), SLMC_SUCCESS) << slmc_last_error();
      }
    });
  for (std::thread &T : Pool)
    T.join();
  ASSERT_EQ(slmc_task_wait(0, -1), SLMC_SUCCESS) << lastError();
  EXPECT_EQ(Ran.load(), Threads * PerThread);
  std::set<uint64_t> All;
  for (const auto &V : Ids)
    for (size_t I = 0; I < V.size(); ++I) {
      All.insert(V[I]);
      if (I)
        EXPECT_LT(V[I - 1], V[I]);
    }
  ASSERT_EQ(All.size(), size_t(Threads * PerThread)) << "ids are unique";
  EXPECT_EQ(*All.rbegin() - *All.begin() + 1, All.size()) << "and consecutive";
}

// A kernel whose odd work-items skip the barrier: the CPU fallback reports
// SLMC_ERROR_BARRIER_DIVERGENCE for the launch.
void divergentKernel(void **) {
  if (slmc_cpu_current_item()->local_id.x % 2)
    return;
  slmc_cpu_barrier();
}

void launchDivergent(void *) {
  // A host-only kernel (null handle), launched like lowered code does it.
  launch(nullptr, divergentKernel, {1, 1, 1}, {4, 1, 1});
}

void doNothing(void *) {}

TEST_F(Offload, AFailedLaunchFailsItsTask) {
  uint64_t Bad = 0, Good = 0;
  ASSERT_EQ(slmc_task_enqueue(launchDivergent, nullptr, nullptr, &Bad), SLMC_SUCCESS);
  ASSERT_EQ(slmc_task_enqueue(doNothing, nullptr, nullptr, &Good), SLMC_SUCCESS);
  EXPECT_EQ(slmc_task_wait(Good, -1), SLMC_ERROR_BARRIER_DIVERGENCE);
  EXPECT_EQ(slmc_last_status(), SLMC_ERROR_BARRIER_DIVERGENCE);
  std::string E = lastError();
  EXPECT_NE(E.find("task " + std::to_string(Bad) + " failed"), std::string::npos) << E;
  EXPECT_NE(E.find("barrier divergence"), std::string::npos) << E;
  // Reported once; the ids are retired.
  EXPECT_EQ(slmc_task_wait(0, -1), SLMC_SUCCESS);
  EXPECT_EQ(slmc_task_wait(Good, -1), SLMC_ERROR_TASK_NOT_FOUND);
  // The queue goes on.
  uint64_t Next = 0;
  ASSERT_EQ(slmc_task_enqueue(doNothing, nullptr, nullptr, &Next), SLMC_SUCCESS);
  EXPECT_EQ(slmc_task_wait(Next, -1), SLMC_SUCCESS);
}

TEST_F(Offload, ReportedErrorsAndExceptionsFailTheTask) {
  uint64_t Id = 0;
  ASSERT_EQ(slmc_task_enqueue(
                [](void *) { slmc_report_error(SLMC_ERROR_RESOURCE_LIMIT, "too many"); },
                nullptr, nullptr, &Id),
            SLMC_SUCCESS);
  EXPECT_EQ(slmc_task_wait(Id, -1), SLMC_ERROR_RESOURCE_LIMIT);
  EXPECT_NE(lastError().find("failed: too many"), std::string::npos) << lastError();

  ASSERT_EQ(slmc_task_enqueue([](void *) { throw std::runtime_error("boom"); }, nullptr,
                              nullptr, &Id),
            SLMC_SUCCESS);
  EXPECT_EQ(slmc_task_wait(Id, -1), SLMC_ERROR_LAUNCH_FAILURE);
  EXPECT_NE(lastError().find("boom"), std::string::npos) << lastError();

  // A task that leaves a scope open fails, and its scopes are closed.
  ASSERT_EQ(slmc_task_enqueue([](void *) { slmc_offload_begin(); }, nullptr, nullptr, &Id),
            SLMC_SUCCESS);
  EXPECT_EQ(slmc_task_wait(Id, -1), SLMC_ERROR_INVALID_VALUE);
  EXPECT_NE(lastError().find("left 1 offload scope(s) open"), std::string::npos)
      << lastError();
  std::atomic<int> Depth{-1};
  ASSERT_EQ(slmc_task_enqueue(
                [](void *D) {
                  *static_cast<std::atomic<int> *>(D) = slmc_offload_active();
                  slmc_offload_end();
                  slmc_offload_begin(); // balanced again for the runtime's end
                },
                &Depth, nullptr, &Id),
            SLMC_SUCCESS);
  EXPECT_EQ(slmc_task_wait(Id, -1), SLMC_SUCCESS) << lastError();
  EXPECT_EQ(Depth.load(), 1);
}

TEST_F(Offload, WaitingForItselfIsRefused) {
  std::atomic<int> Inner{-1};
  uint64_t Id = 0;
  ASSERT_EQ(slmc_task_enqueue(
                [](void *R) {
                  *static_cast<std::atomic<int> *>(R) = slmc_task_wait(0, -1);
                },
                &Inner, nullptr, &Id),
            SLMC_SUCCESS);
  EXPECT_EQ(slmc_task_wait(Id, 5000), SLMC_ERROR_INVALID_VALUE);
  EXPECT_EQ(Inner.load(), SLMC_ERROR_INVALID_VALUE);
  EXPECT_NE(lastError().find("would never finish"), std::string::npos) << lastError();
}

TEST_F(Offload, EnqueueErrors) {
  int Released = 0;
  uint64_t Id = 77;
  EXPECT_EQ(slmc_task_enqueue(nullptr, &Released,
                              [](void *C) { ++*static_cast<int *>(C); }, &Id),
            SLMC_ERROR_INVALID_VALUE);
  EXPECT_EQ(Id, 0u);
  EXPECT_EQ(Released, 1) << "the context is released on failure";
  EXPECT_EQ(slmc_task_enqueue(doNothing, nullptr, nullptr, nullptr), SLMC_SUCCESS)
      << "the id is optional";
  EXPECT_EQ(slmc_task_wait(0, -1), SLMC_SUCCESS);
}

TEST_F(Offload, SharedDataInsideTasksIsTheHostData) {
  static int Data[16];
  ASSERT_EQ(slmc_share(Data, sizeof(Data)), SLMC_SUCCESS);
  std::atomic<bool> Same{false};
  uint64_t Id = 0;
  ASSERT_EQ(slmc_task_enqueue(
                [](void *S) {
                  *static_cast<std::atomic<bool> *>(S) = slmc_device_pointer(Data + 3) == Data + 3;
                  Data[3] = 42;
                },
                &Same, nullptr, &Id),
            SLMC_SUCCESS);
  ASSERT_EQ(slmc_task_wait(Id, -1), SLMC_SUCCESS) << lastError();
  EXPECT_TRUE(Same.load());
  EXPECT_EQ(Data[3], 42);
  EXPECT_EQ(slmc_unshare(Data), SLMC_SUCCESS);
}

// ---- Exit --------------------------------------------------------------------------

struct DropCheck {
  bool Ran = false;
};

TEST(OffloadExit, PendingTasksAreDroppedAtExit) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        slmc_task_enqueue(
            [](void *) { std::this_thread::sleep_for(std::chrono::milliseconds(200)); },
            nullptr, nullptr, nullptr);
        static DropCheck Check;
        slmc_task_enqueue([](void *C) { static_cast<DropCheck *>(C)->Ran = true; }, &Check,
                          [](void *C) {
                            if (!static_cast<DropCheck *>(C)->Ran)
                              std::fprintf(stderr, "released without running\n");
                          },
                          nullptr);
        std::exit(0);
      },
      ::testing::ExitedWithCode(0), "released without running");
}

TEST(OffloadExit, ExitFromInsideATask) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        slmc_task_enqueue([](void *) { std::exit(3); }, nullptr, nullptr, nullptr);
        slmc_task_wait(0, -1);
        std::exit(1); // not reached
      },
      ::testing::ExitedWithCode(3), "");
}

} // namespace
