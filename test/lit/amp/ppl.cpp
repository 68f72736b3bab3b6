// MSVC's Parallel Patterns Library beside C++ AMP, as MSVC's samples use it
// for their CPU side: <ppl.h> and <concrt.h> in namespace concurrency with
// C++ AMP's parallel_for_each (extent overloads) next to the PPL's
// (iterator overloads). The kernel's result is checked against a
// parallel_for reference; each PPL algorithm against its serial meaning.
// test/unit/PplTest.cpp tests the library alone (also under TSan).
// RUN: %slmcxx -O2 %s -o %t
// RUN: env SLMC_DEVICE=cpu SLMC_CPU_THREADS=4 %t | FileCheck %s
// CHECK: amp vs parallel_for: match
// CHECK-NEXT: parallel_for step: ok
// CHECK-NEXT: combinable: 99990000 9900
// CHECK-NEXT: parallel_reduce: 100000 100000 3334 first
// CHECK-NEXT: parallel_transform: 4 27
// CHECK-NEXT: sorts: 1111
// CHECK-NEXT: radixsort stable: 1
// CHECK-NEXT: fib(20): 6765
// CHECK-NEXT: locks: 3000 10
// CHECK-NEXT: improper_lock
// CHECK-NEXT: event: 11 1
// CHECK-NEXT: cancel: 1
// CHECK-NEXT: exception: stop at 500
// CHECK-NEXT: processors: 1

#include <amp.h>
#include <ppl.h>
#include <concrt.h>
#include <iostream>
#include <numeric>
#include <vector>
#include <list>
#include <string>
using namespace concurrency;

static int fib(int n) {
  if (n < 2) return n;
  int a, b;
  structured_task_group tg;
  auto ta = make_task([&] { a = fib(n - 1); });
  tg.run(ta);
  b = fib(n - 2);
  tg.wait();
  return a + b;
}

static void quicksort(std::vector<int> &v, int lo, int hi) {
  if (hi - lo < 64) { std::sort(v.begin() + lo, v.begin() + hi); return; }
  int pivot = v[lo + (hi - lo) / 2];
  auto mid1 = std::partition(v.begin() + lo, v.begin() + hi, [=](int x) { return x < pivot; });
  auto mid2 = std::partition(mid1, v.begin() + hi, [=](int x) { return x == pivot; });
  int m1 = int(mid1 - v.begin()), m2 = int(mid2 - v.begin());
  task_group tg;
  tg.run([&] { quicksort(v, lo, m1); });
  tg.run([&] { quicksort(v, m2, hi); });
  tg.wait();
}

int main() {
  const int n = 1 << 16;
  std::vector<float> a(n), b(n), gpu(n), cpu(n);
  parallel_for(0, n, [&](int i) { a[i] = float(i % 97); b[i] = float(i % 13); });

  array_view<const float, 1> av(n, a), bv(n, b);
  array_view<float, 1> cv(n, gpu);
  cv.discard_data();
  parallel_for_each(cv.extent.tile<256>(), [=](tiled_index<256> t) restrict(amp) {
    tile_static float s[256];
    s[t.local[0]] = av[t.global] * bv[t.global];
    t.barrier.wait();
    cv[t.global] = s[255 - t.local[0]];
  });
  cv.synchronize();
  parallel_for(0, n, 1, [&](int i) { int j = i / 256 * 256 + 255 - i % 256; cpu[i] = a[j] * b[j]; },
               static_partitioner());
  bool ok = std::equal(gpu.begin(), gpu.end(), cpu.begin());
  std::cout << "amp vs parallel_for: " << (ok ? "match" : "MISMATCH") << "\n";

  // parallel_for with a step, every partitioner
  std::vector<int> hits(1000, 0);
  parallel_for(size_t(3), size_t(1000), size_t(7), [&](size_t i) { hits[i]++; });
  parallel_for(0, 1000, [&](int i) { hits[i] += 10; }, simple_partitioner(16));
  affinity_partitioner ap;
  parallel_for(0, 1000, [&](int i) { hits[i] += 100; }, ap);
  int step_ok = 1;
  for (int i = 0; i < 1000; ++i)
    step_ok &= hits[i] == 110 + (i >= 3 && (i - 3) % 7 == 0);
  std::cout << "parallel_for step: " << (step_ok ? "ok" : "WRONG") << "\n";

  // parallel_for_each over a vector and a list
  std::vector<int> v(10000);
  std::iota(v.begin(), v.end(), 0);
  parallel_for_each(v.begin(), v.end(), [](int &x) { x *= 2; });
  std::list<int> l(v.begin(), v.begin() + 100);
  combinable<long long> lsum;
  parallel_for_each(l.begin(), l.end(), [&](int x) { lsum.local() += x; });
  combinable<long long> sum([] { return 0LL; });
  parallel_for_each(begin(v), end(v), [&](int x) { sum.local() += x; });
  std::cout << "combinable: " << sum.combine(std::plus<long long>()) << " "
            << lsum.combine(std::plus<long long>()) << "\n";

  // parallel_reduce, three forms
  std::vector<int> ones(100000, 1);
  int r1 = parallel_reduce(ones.begin(), ones.end(), 0);
  int r2 = parallel_reduce(ones.begin(), ones.end(), 0, std::plus<int>());
  size_t r3 = parallel_reduce(v.begin(), v.end(), size_t(0),
      [](std::vector<int>::iterator f, std::vector<int>::iterator e, size_t init) {
        return init + size_t(std::count_if(f, e, [](int x) { return x % 3 == 0; }));
      }, std::plus<size_t>());
  std::string words = parallel_reduce(v.begin(), v.begin() + 1, 0) == 0 ? "first" : "?";
  std::cout << "parallel_reduce: " << r1 << " " << r2 << " " << r3 << " " << words << "\n";

  // parallel_transform, unary and binary
  std::vector<float> t1(n), t2(n);
  parallel_transform(a.begin(), a.end(), t1.begin(), [](float x) { return x + 1; });
  parallel_transform(a.begin(), a.end(), b.begin(), t2.begin(), std::multiplies<float>(),
                     auto_partitioner());
  std::cout << "parallel_transform: " << t1[100] << " " << t2[100] << "\n";

  // sorts
  std::vector<int> s(200000);
  for (size_t i = 0; i < s.size(); ++i) s[i] = int((i * 2654435761u) % 1000003);
  std::vector<int> s2 = s, s3 = s, s4 = s, ref = s;
  std::sort(ref.begin(), ref.end());
  parallel_sort(s.begin(), s.end());
  parallel_buffered_sort(s2.begin(), s2.end(), std::greater<int>());
  parallel_radixsort(s3.begin(), s3.end());
  quicksort(s4, 0, int(s4.size()));
  std::reverse(s2.begin(), s2.end());
  std::cout << "sorts: " << (s == ref) << (s2 == ref) << (s3 == ref) << (s4 == ref) << "\n";
  struct Rec { unsigned key; int order; };
  std::vector<Rec> recs;
  for (int i = 0; i < 5000; ++i) recs.push_back({unsigned(i % 7), i});
  parallel_radixsort(recs.begin(), recs.end(), [](const Rec &r) { return r.key; });
  bool stable = true;
  for (size_t i = 1; i < recs.size(); ++i)
    stable &= recs[i - 1].key < recs[i].key ||
              (recs[i - 1].key == recs[i].key && recs[i - 1].order < recs[i].order);
  std::cout << "radixsort stable: " << stable << "\n";

  // tasks, invoke, locks, events, cancellation, exceptions
  std::cout << "fib(20): " << fib(20) << "\n";
  critical_section cs;
  int counter = 0;
  parallel_invoke([&] { for (int i = 0; i < 1000; ++i) { critical_section::scoped_lock l(cs); ++counter; } },
                  [&] { for (int i = 0; i < 1000; ++i) { cs.lock(); ++counter; cs.unlock(); } },
                  [&] { for (int i = 0; i < 1000; ++i) { critical_section::scoped_lock l(cs); ++counter; } });
  reader_writer_lock rw;
  int shared = 0;
  parallel_for(0, 100, [&](int i) {
    if (i % 10 == 0) { reader_writer_lock::scoped_lock w(rw); ++shared; }
    else { reader_writer_lock::scoped_lock_read r(rw); (void)shared; }
  });
  std::cout << "locks: " << counter << " " << shared << "\n";
  try { cs.lock(); cs.lock(); } catch (const improper_lock &) { std::cout << "improper_lock\n"; }
  cs.unlock();

  event ready;
  int produced = 0;
  task_group tg;
  tg.run([&] { ready.wait(); produced += 1; });
  tg.run([&] { wait(1); produced += 10; ready.set(); });
  task_group_status st = tg.wait();
  std::cout << "event: " << produced << " " << (st == completed) << "\n";

  task_group canceller;
  canceller.run([&] { canceller.cancel(); });
  std::cout << "cancel: " << (canceller.wait() == canceled) << "\n";
  try {
    parallel_for(0, 1000, [](int i) { if (i == 500) throw std::runtime_error("stop at 500"); });
  } catch (const std::exception &e) {
    std::cout << "exception: " << e.what() << "\n";
  }
  std::cout << "processors: " << (CurrentScheduler::GetNumberOfVirtualProcessors() >= 1) << "\n";
  return 0;
}
