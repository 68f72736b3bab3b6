//===- GfxRtTest.cpp - <gfx/gfx_rt.h>, Cilk Plus's asynchronous offload API ===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The kernels here are plain host functions standing for the host versions
// that the Cilk lowering produces; they are registered by name the way
// lowered files end.
//
//===----------------------------------------------------------------------===//
#include <gfx/gfx_rt.h>

#include <gtest/gtest.h>

#include <condition_variable>
#include <cstring>
#include <mutex>
#include <string>

namespace {

std::string lastError() { return slmc_last_error(); }

class GfxRt : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_EQ(slmc_select_backend(SLMC_BACKEND_CPU), SLMC_SUCCESS) << lastError();
    ASSERT_EQ(_GFX_wait(), GFX_SUCCESS) << lastError();
  }
};

// ---- Kernels ------------------------------------------------------------------

enum class Color : unsigned char { Red = 1, Blue = 200 };
struct Pair {
  int A;
  float B;
};

struct Seen {
  int I = 0;
  float F = 0;
  float *P = nullptr;
  double D = 0;
  char C = 0;
  short S = 0;
  bool B = false;
  Color E = Color::Red;
  Pair Q{0, 0};
  unsigned long long U = 0;
  bool InScope = false;
  int Calls = 0;
};
Seen Last;

void everything(int i, float f, float *p, double d, char c, short s, bool b, Color e,
                Pair q, unsigned long long u) {
  Last.I = i;
  Last.F = f;
  Last.P = p;
  Last.D = d;
  Last.C = c;
  Last.S = s;
  Last.B = b;
  Last.E = e;
  Last.Q = q;
  Last.U = u;
  Last.InScope = slmc_offload_active() != 0;
  ++Last.Calls;
}

void scale(float *a, int n, float s) {
  for (int i = 0; i < n; ++i)
    a[i] *= s;
}

void setThrough(int &r, const int &v) { r = v; }

void failing(int code) {
  slmc_report_error(static_cast<slmc_status>(code), "kernel launch failed");
}

// Blocks until opened: keeps later tasks from starting.
struct Gate {
  std::mutex M;
  std::condition_variable Cv;
  bool Open = false;
  void open() {
    std::lock_guard<std::mutex> L(M);
    Open = true;
    Cv.notify_all();
  }
};
void waitAt(Gate *G) {
  std::unique_lock<std::mutex> L(G->M);
  G->Cv.wait(L, [&] { return G->Open; });
}

static ::slmc::cilk::kernel_registrar slmc_cilk_registrar_0{"everything", &everything};
static ::slmc::cilk::kernel_registrar slmc_cilk_registrar_1{"scale", &scale};
static ::slmc::cilk::kernel_registrar slmc_cilk_registrar_2{"setThrough", &setThrough};
static ::slmc::cilk::kernel_registrar slmc_cilk_registrar_3{"failing", &failing};

// ---- Typed offload --------------------------------------------------------------

TEST_F(GfxRt, OffloadCallsTheKernelInsideAScope) {
  float A[4] = {1, 2, 3, 4};
  ASSERT_EQ(_GFX_share(A, sizeof(A)), GFX_SUCCESS) << lastError();
  GfxTaskId Id = _GFX_offload(scale, A, 4, 2.0);
  ASSERT_NE(Id, 0u) << lastError();
  ASSERT_EQ(_GFX_wait(Id), GFX_SUCCESS) << lastError();
  EXPECT_EQ(A[3], 8.0f);
  EXPECT_EQ(_GFX_unshare(A), GFX_SUCCESS);

  Last = Seen{};
  Id = _GFX_offload(&everything, 1, 2.5, A, 3, 'c', 4, 1, Color::Blue, Pair{5, 6.5f}, 7);
  ASSERT_NE(Id, 0u);
  ASSERT_EQ(_GFX_wait(Id, 10000), GFX_SUCCESS) << lastError();
  EXPECT_TRUE(Last.InScope);
  EXPECT_EQ(Last.F, 2.5f);
  EXPECT_EQ(Last.D, 3.0);
  EXPECT_EQ(Last.E, Color::Blue);
  EXPECT_EQ(Last.Q.B, 6.5f);
}

TEST_F(GfxRt, ArgumentsAreCapturedAtEnqueue) {
  Gate G;
  GfxTaskId Blocker = _GFX_offload(waitAt, &G);
  ASSERT_NE(Blocker, 0u);
  float A[2] = {1, 1};
  int N = 2;
  float S = 3;
  GfxTaskId Id = _GFX_offload(scale, A, N, S);
  ASSERT_EQ(Id, Blocker + 1);
  N = 1; // too late: the task has its own copies
  S = 100;
  G.open();
  ASSERT_EQ(_GFX_wait(Id), GFX_SUCCESS) << lastError();
  EXPECT_EQ(A[0], 3.0f);
  EXPECT_EQ(A[1], 3.0f);

  // A non-const reference parameter refers to the caller's object.
  int Target = 0;
  Gate G2;
  _GFX_offload(waitAt, &G2);
  int Value = 5;
  Id = _GFX_offload(setThrough, Target, Value);
  Value = 6; // const reference: captured by value
  G2.open();
  ASSERT_EQ(_GFX_wait(Id), GFX_SUCCESS);
  EXPECT_EQ(Target, 5);
}

// ---- By name, through '...' --------------------------------------------------------

TEST_F(GfxRt, EnqueueByNameReadsPromotedArguments) {
  float Buf[1];
  Last = Seen{};
  GfxTaskId Id = _GFX_enqueue("everything", 7, 1.5f, Buf, 2.25, 'x', (short)-3, true,
                              Color::Blue, Pair{8, 0.5f}, 1ULL << 40);
  ASSERT_NE(Id, 0u) << lastError();
  ASSERT_EQ(_GFX_wait(Id), GFX_SUCCESS) << lastError();
  EXPECT_EQ(Last.Calls, 1);
  EXPECT_EQ(Last.I, 7);
  EXPECT_EQ(Last.F, 1.5f) << "float arrives as double";
  EXPECT_EQ(Last.P, Buf);
  EXPECT_EQ(Last.D, 2.25);
  EXPECT_EQ(Last.C, 'x');
  EXPECT_EQ(Last.S, -3);
  EXPECT_TRUE(Last.B);
  EXPECT_EQ(Last.E, Color::Blue);
  EXPECT_EQ(Last.Q.A, 8);
  EXPECT_EQ(Last.Q.B, 0.5f);
  EXPECT_EQ(Last.U, 1ULL << 40);
  EXPECT_TRUE(Last.InScope);

  // The same through _GFX_offload by name and by untyped address.
  Id = _GFX_offload("everything", 9, 0.25f, Buf, 1.0, 'y', (short)2, false, Color::Red,
                    Pair{1, 1}, 3ULL);
  ASSERT_NE(Id, 0u) << lastError();
  ASSERT_EQ(_GFX_wait(Id), GFX_SUCCESS);
  EXPECT_EQ(Last.I, 9);
  EXPECT_EQ(Last.F, 0.25f);
  Id = _GFX_offload(reinterpret_cast<const void *>(&everything), 10, -1.0f, Buf, 1.0, 'z',
                    (short)2, false, Color::Red, Pair{1, 1}, 3ULL);
  ASSERT_NE(Id, 0u) << lastError();
  ASSERT_EQ(_GFX_wait(Id), GFX_SUCCESS);
  EXPECT_EQ(Last.I, 10);
  EXPECT_EQ(Last.F, -1.0f);
  EXPECT_EQ(Last.C, 'z');
  EXPECT_EQ(Last.Calls, 3);

  float A[3] = {1, 2, 3};
  Id = _GFX_enqueue("scale", A, 3, 0.5f);
  ASSERT_EQ(_GFX_wait(Id), GFX_SUCCESS);
  EXPECT_EQ(A[2], 1.5f);
}

TEST_F(GfxRt, UnknownNamesAndUnregisteredFunctions) {
  EXPECT_EQ(_GFX_enqueue("no_such_kernel", 1, 2), 0u);
  EXPECT_EQ(_GFX_get_last_error(), GFX_KERNEL_NOT_FOUND);
  EXPECT_NE(lastError().find("no kernel named 'no_such_kernel'"), std::string::npos)
      << lastError();
  EXPECT_EQ(_GFX_offload("no_such_kernel"), 0u);
  EXPECT_EQ(_GFX_offload(reinterpret_cast<const void *>(&waitAt), nullptr), 0u);
  EXPECT_EQ(_GFX_get_last_error(), GFX_KERNEL_NOT_FOUND);
  EXPECT_EQ(_GFX_enqueue(nullptr), 0u);
  EXPECT_EQ(_GFX_get_last_error(), GFX_INVALID_VALUE);
  // Reference parameters cannot come through '...'.
  int X = 0;
  EXPECT_EQ(_GFX_enqueue("setThrough", &X, 1), 0u);
  EXPECT_EQ(_GFX_get_last_error(), GFX_INVALID_VALUE);
  EXPECT_NE(lastError().find("cannot be passed through '...'"), std::string::npos);
  // A null typed kernel.
  void (*Null)(int) = nullptr;
  EXPECT_EQ(_GFX_offload(Null, 1), 0u);
  EXPECT_EQ(_GFX_get_last_error(), GFX_INVALID_VALUE);
}

void otherEverything(int, float, float *, double, char, short, bool, Color, Pair,
                     unsigned long long) {}

TEST_F(GfxRt, AmbiguousNames) {
  ::slmc::cilk::kernel_registrar Same{"everything", &everything}; // again: fine
  float A[1] = {2};
  GfxTaskId Id = _GFX_enqueue("scale", A, 1, 2.0f);
  ASSERT_NE(Id, 0u);
  ::slmc::cilk::kernel_registrar Clash{"scale2", &scale};
  ::slmc::cilk::kernel_registrar Clash2{"scale2", &failing};
  EXPECT_EQ(_GFX_enqueue("scale2", A, 1, 2.0f), 0u);
  EXPECT_EQ(_GFX_get_last_error(), GFX_KERNEL_NOT_FOUND);
  EXPECT_NE(lastError().find("two different kernels"), std::string::npos) << lastError();
  EXPECT_EQ(_GFX_wait(), GFX_SUCCESS);
}

// ---- Waiting, errors, sharing ----------------------------------------------------

TEST_F(GfxRt, WaitCodes) {
  float A[1] = {1};
  GfxTaskId Id = _GFX_offload(scale, A, 1, 2.0f);
  ASSERT_EQ(_GFX_wait(Id), GFX_SUCCESS);
  EXPECT_EQ(_GFX_wait(Id), GFX_TASKID_NOT_FOUND);
  EXPECT_EQ(_GFX_get_last_error(), GFX_TASKID_NOT_FOUND);
  EXPECT_EQ(_GFX_wait(Id + 100), GFX_TASKID_NOT_FOUND);
  EXPECT_EQ(_GFX_wait(), GFX_SUCCESS);
  EXPECT_EQ(_GFX_get_last_error(), GFX_TASKID_NOT_FOUND) << "sticky";

  Gate G;
  Id = _GFX_offload(waitAt, &G);
  EXPECT_EQ(_GFX_wait(Id, 20), GFX_TIMEOUT);
  EXPECT_EQ(_GFX_wait(0, 0), GFX_TIMEOUT);
  G.open();
  EXPECT_EQ(_GFX_wait(Id, -1), GFX_SUCCESS);
}

TEST_F(GfxRt, TaskErrorsComeBackFromTheWait) {
  GfxTaskId Bad = _GFX_offload(failing, int(SLMC_ERROR_LAUNCH_FAILURE));
  float A[1] = {1};
  GfxTaskId Good = _GFX_offload(scale, A, 1, 4.0f);
  ASSERT_NE(Good, 0u);
  EXPECT_EQ(_GFX_wait(), GFX_LAUNCH_FAILURE);
  EXPECT_EQ(_GFX_get_last_error(), GFX_LAUNCH_FAILURE);
  EXPECT_NE(lastError().find("task " + std::to_string(Bad) + " failed: kernel launch failed"),
            std::string::npos)
      << lastError();
  EXPECT_EQ(A[0], 4.0f) << "later tasks still ran";
  EXPECT_EQ(_GFX_wait(), GFX_SUCCESS) << "reported once";
}

TEST_F(GfxRt, ShareAndUnshare) {
  static double Data[32];
  EXPECT_EQ(_GFX_share(Data, sizeof(Data)), GFX_SUCCESS);
  EXPECT_EQ(_GFX_share(Data + 8, 8), GFX_INVALID_VALUE) << "overlaps";
  EXPECT_EQ(_GFX_unshare(Data + 1), GFX_INVALID_VALUE);
  EXPECT_EQ(_GFX_get_last_error(), GFX_INVALID_VALUE);
  EXPECT_EQ(_GFX_unshare(Data), GFX_SUCCESS);
  EXPECT_EQ(_GFX_unshare(Data), GFX_INVALID_VALUE);
}

TEST(GfxRtCodes, MatchTheRuntime) {
  EXPECT_EQ(GFX_SUCCESS, 0);
  EXPECT_LT(GFX_TASKID_NOT_FOUND, 0);
  EXPECT_EQ(::slmc::cilk::gfx_status(SLMC_ERROR_TIMEOUT), GFX_TIMEOUT);
  EXPECT_EQ(::slmc::cilk::gfx_status(SLMC_SUCCESS), GFX_SUCCESS);
}

} // namespace
