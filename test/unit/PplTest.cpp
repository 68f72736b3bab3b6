//===- PplTest.cpp - <ppl.h> and <concrt.h> for C++ AMP programs ----------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The Parallel Patterns Library subset C++ AMP programs use on the host, as
// MSVC documents it: every iteration once, results equal to the serial
// algorithms, nested parallelism without deadlock, exceptions and
// cancellation, the locks and events. The suite's name puts it in the TSan
// run (scripts/dev.sh).
//
//===----------------------------------------------------------------------===//
#include <concrt.h>
#include <ppl.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <list>
#include <numeric>
#include <stdexcept>
#include <vector>

using namespace concurrency;

namespace {

TEST(PplThread, ParallelForRunsEveryIterationOnce) {
  std::vector<std::atomic<int>> Hits(1000);
  parallel_for(0, 1000, [&](int I) { Hits[I]++; });
  parallel_for(size_t(3), size_t(1000), size_t(7), [&](size_t I) { Hits[I] += 10; });
  parallel_for(-5, 995, [&](int I) { Hits[I + 5] += 100; }, static_partitioner());
  parallel_for(0, 1000, [&](int I) { Hits[I] += 1000; }, simple_partitioner(3));
  affinity_partitioner Affinity;
  parallel_for(0, 1000, 1, [&](int I) { Hits[I] += 10000; }, Affinity);
  for (int I = 0; I < 1000; ++I)
    EXPECT_EQ(Hits[I], 11101 + ((I >= 3 && (I - 3) % 7 == 0) ? 10 : 0)) << I;
  parallel_for(5, 5, [&](int) { ADD_FAILURE() << "empty range ran"; });
  parallel_for(7, 2, [&](int) { ADD_FAILURE() << "reversed range ran"; });
  EXPECT_THROW(parallel_for(0, 10, 0, [](int) {}), std::invalid_argument);
  EXPECT_THROW(simple_partitioner(0), std::invalid_argument);
}

TEST(PplThread, ParallelForEachOverRandomAccessAndListIterators) {
  std::vector<int> V(10000);
  std::iota(V.begin(), V.end(), 0);
  parallel_for_each(V.begin(), V.end(), [](int &X) { X *= 2; });
  for (int I = 0; I < 10000; ++I)
    ASSERT_EQ(V[I], 2 * I);
  std::list<int> L(V.begin(), V.begin() + 500);
  std::atomic<long> Sum{0};
  parallel_for_each(L.begin(), L.end(), [&](int X) { Sum += X; }, simple_partitioner(7));
  EXPECT_EQ(Sum, 2L * 499 * 500 / 2);
}

int fib(int N) {
  if (N < 2)
    return N;
  int A = 0, B = 0;
  structured_task_group G;
  auto T = make_task([&] { A = fib(N - 1); });
  G.run(T);
  B = fib(N - 2);
  G.wait();
  return A + B;
}

void quicksort(std::vector<int> &V, int Lo, int Hi) {
  if (Hi - Lo < 32) {
    std::sort(V.begin() + Lo, V.begin() + Hi);
    return;
  }
  int Pivot = V[Lo + (Hi - Lo) / 2];
  auto M1 = std::partition(V.begin() + Lo, V.begin() + Hi, [=](int X) { return X < Pivot; });
  auto M2 = std::partition(M1, V.begin() + Hi, [=](int X) { return X == Pivot; });
  int A = int(M1 - V.begin()), B = int(M2 - V.begin());
  task_group G;
  G.run([&] { quicksort(V, Lo, A); });
  G.run([&] { quicksort(V, B, Hi); });
  G.wait();
}

TEST(PplThread, NestedTaskGroupsFinish) {
  EXPECT_EQ(fib(20), 6765);
  std::vector<int> V(50000);
  for (size_t I = 0; I < V.size(); ++I)
    V[I] = int((I * 2654435761u) % 10007);
  std::vector<int> Ref = V;
  std::sort(Ref.begin(), Ref.end());
  quicksort(V, 0, int(V.size()));
  EXPECT_EQ(V, Ref);
  // A parallel_for inside tasks inside a parallel_for.
  std::atomic<int> Count{0};
  parallel_for(0, 8, [&](int) {
    task_group G;
    G.run([&] { parallel_for(0, 100, [&](int) { Count++; }); });
    G.run_and_wait([&] { Count++; });
  });
  EXPECT_EQ(Count, 8 * 101);
}

TEST(PplThread, ParallelInvokeRunsEachFunction) {
  std::atomic<int> Bits{0};
  parallel_invoke([&] { Bits |= 1; }, [&] { Bits |= 2; });
  parallel_invoke([&] { Bits |= 4; }, [&] { Bits |= 8; }, [&] { Bits |= 16; },
                  [&] { Bits |= 32; }, [&] { Bits |= 64; }, [&] { Bits |= 128; },
                  [&] { Bits |= 256; }, [&] { Bits |= 512; }, [&] { Bits |= 1024; },
                  [&] { Bits |= 2048; });
  EXPECT_EQ(Bits, 4095);
}

TEST(PplThread, ExceptionsCancelTheGroupAndReachWait) {
  EXPECT_THROW(parallel_for(0, 10000,
                            [](int I) {
                              if (I == 5000)
                                throw std::runtime_error("stop");
                            }),
               std::runtime_error);
  task_group G;
  G.run([] { throw 42; });
  EXPECT_THROW(G.wait(), int);
  // The group is usable again after it reported the exception.
  std::atomic<int> Ran{0};
  G.run([&] { Ran++; });
  EXPECT_EQ(G.wait(), completed);
  EXPECT_EQ(Ran, 1);
}

TEST(PplThread, CancelReachesTheGroupsTasks) {
  task_group G;
  std::atomic<bool> SawCanceling{false};
  G.run([&] {
    G.cancel();
    SawCanceling = is_current_task_group_canceling() &&
                   Context::IsCurrentTaskCollectionCanceling();
  });
  EXPECT_EQ(G.wait(), canceled);
  EXPECT_TRUE(SawCanceling);
  EXPECT_FALSE(G.is_canceling());
  EXPECT_EQ(G.run_and_wait([] {}), completed);
}

TEST(PplThread, CombinableKeepsOneValuePerThread) {
  combinable<long long> Sum;
  parallel_for(0, 100000, [&](int I) { Sum.local() += I; });
  EXPECT_EQ(Sum.combine(std::plus<long long>()), 100000LL * 99999 / 2);
  long long Each = 0;
  Sum.combine_each([&](long long V) { Each += V; });
  EXPECT_EQ(Each, 100000LL * 99999 / 2);
  combinable<int> Seeded([] { return 7; });
  bool Exists = true;
  EXPECT_EQ(Seeded.local(Exists), 7);
  EXPECT_FALSE(Exists);
  Seeded.local(Exists);
  EXPECT_TRUE(Exists);
  Seeded.clear();
  EXPECT_EQ(Seeded.combine(std::plus<int>()), 0);
}

TEST(PplThread, ReduceAndTransformMatchTheSerialAlgorithms) {
  std::vector<int> V(100001);
  std::iota(V.begin(), V.end(), -50000);
  EXPECT_EQ(parallel_reduce(V.begin(), V.end(), 0), 0);
  EXPECT_EQ(parallel_reduce(V.begin(), V.end(), 0, [](int A, int B) { return std::max(A, B); }),
            50000);
  size_t Even = parallel_reduce(
      V.begin(), V.end(), size_t(0),
      [](std::vector<int>::iterator B, std::vector<int>::iterator E, size_t Init) {
        return Init + size_t(std::count_if(B, E, [](int X) { return X % 2 == 0; }));
      },
      std::plus<size_t>());
  EXPECT_EQ(Even, 50001u);
  EXPECT_EQ(parallel_reduce(V.begin(), V.begin(), 17), 17);

  std::vector<int> Out(V.size()), Out2(V.size());
  auto End = parallel_transform(V.begin(), V.end(), Out.begin(), [](int X) { return X * 3; });
  EXPECT_EQ(End, Out.end());
  parallel_transform(V.begin(), V.end(), Out.begin(), Out2.begin(), std::plus<int>(),
                     static_partitioner());
  for (size_t I = 0; I < V.size(); ++I)
    ASSERT_EQ(Out2[I], 4 * V[I]);
}

TEST(PplThread, SortsMatchTheStandardLibrary) {
  std::vector<int> V(300000);
  for (size_t I = 0; I < V.size(); ++I)
    V[I] = int((I * 2654435761u) % 1000003) - 500000;
  std::vector<int> Ref = V;
  std::sort(Ref.begin(), Ref.end());
  std::vector<int> A = V, B = V, C = V;
  parallel_sort(A.begin(), A.end());
  parallel_buffered_sort(B.begin(), B.end(), std::greater<int>(), 1000);
  std::reverse(B.begin(), B.end());
  EXPECT_EQ(A, Ref);
  EXPECT_EQ(B, Ref);
  std::vector<unsigned> U(C.begin(), C.end()), URef(U);
  std::sort(URef.begin(), URef.end());
  parallel_radixsort(U.begin(), U.end());
  EXPECT_EQ(U, URef);

  struct Record {
    unsigned Key;
    int Order;
  };
  std::vector<Record> R;
  for (int I = 0; I < 100000; ++I)
    R.push_back({unsigned((I * 7919) % 13), I});
  parallel_radixsort(R.begin(), R.end(), [](const Record &X) { return X.Key; });
  for (size_t I = 1; I < R.size(); ++I)
    ASSERT_TRUE(R[I - 1].Key < R[I].Key ||
                (R[I - 1].Key == R[I].Key && R[I - 1].Order < R[I].Order))
        << "not a stable sort at " << I;
}

TEST(PplThread, LocksExcludeAndRefuseRecursion) {
  critical_section CS;
  int Counter = 0;
  parallel_for(0, 20000, [&](int) {
    critical_section::scoped_lock L(CS);
    ++Counter;
  });
  EXPECT_EQ(Counter, 20000);
  CS.lock();
  EXPECT_THROW(CS.lock(), improper_lock);
  CS.unlock();
  EXPECT_TRUE(CS.try_lock());
  CS.unlock();

  reader_writer_lock RW;
  int Shared = 0;
  std::atomic<int> Reads{0};
  parallel_for(0, 1000, [&](int I) {
    if (I % 10 == 0) {
      reader_writer_lock::scoped_lock W(RW);
      ++Shared;
    } else {
      reader_writer_lock::scoped_lock_read R(RW);
      Reads += Shared >= 0;
    }
  });
  EXPECT_EQ(Shared, 100);
  EXPECT_EQ(Reads, 900);
}

TEST(PplThread, EventsReleaseWaitersAndTimeOut) {
  event Ready;
  EXPECT_EQ(Ready.wait(1), COOPERATIVE_WAIT_TIMEOUT);
  int Produced = 0;
  task_group G;
  G.run([&] {
    Ready.wait();
    Produced += 1;
  });
  G.run([&] {
    Produced += 10;
    Ready.set();
  });
  EXPECT_EQ(G.wait(), completed);
  EXPECT_EQ(Produced, 11);
  event Other;
  event *Both[] = {&Other, &Ready};
  EXPECT_EQ(event::wait_for_multiple(Both, 2, false), 1u);
  EXPECT_EQ(event::wait_for_multiple(Both, 2, true, 1), COOPERATIVE_WAIT_TIMEOUT);
  Ready.reset();
  EXPECT_EQ(Ready.wait(0), COOPERATIVE_WAIT_TIMEOUT);
}

} // namespace
