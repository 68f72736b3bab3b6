// Stress on the CPU fallback: eight host threads, each with its own queue,
// submit small nd_range kernels (group_local_memory, barriers, a tree
// reduction) back to back, copy results with queue.memcpy and check every
// one, while the kernels of the other threads run; then launches at the
// device's limits (the largest work-group with the most local memory an
// accessor can take). All of it ten times in a row (fresh threads and
// queues each time), every result checked.
// RUN: %slmcxx -O2 %s -o %t
// RUN: %t 10 | FileCheck %s
// CHECK-COUNT-10: stress: 8 threads x 200 launches, limits 1024 items / {{[0-9]+}} bytes: PASSED

#include <sycl/sycl.hpp>

#include <atomic>
#include <cstdio>
#include <thread>
#include <vector>

constexpr int kThreads = 8, kLaunches = 200, kGroup = 64;

#include <cstdlib>

int round() {
  std::atomic<int> bad{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&bad, t] {
      sycl::queue q;
      const int n = kGroup * (t + 1), groups = n / kGroup;
      int *in = sycl::malloc_shared<int>(n, q);
      int *sums = sycl::malloc_device<int>(groups, q);
      std::vector<int> host(groups);
      for (int r = 0; r < kLaunches; ++r) {
        for (int i = 0; i < n; ++i) in[i] = (i * 7 + r * 3 + t) % 101;
        q.parallel_for(sycl::nd_range<1>(n, kGroup), [=](sycl::nd_item<1> it) {
          auto &s = *sycl::ext::oneapi::group_local_memory_for_overwrite<int[kGroup]>(
              it.get_group());
          const size_t l = it.get_local_id(0);
          s[l] = in[it.get_global_id(0)];
          sycl::group_barrier(it.get_group());
          for (size_t half = kGroup / 2; half > 0; half /= 2) {
            if (l < half)
              s[l] += s[l + half];
            sycl::group_barrier(it.get_group());
          }
          if (l == 0)
            sums[it.get_group(0)] = s[0];
        });
        q.memcpy(host.data(), sums, groups * sizeof(int)).wait();
        for (int g = 0; g < groups; ++g) {
          int want = 0;
          for (int i = g * kGroup; i < (g + 1) * kGroup; ++i) want += in[i];
          if (host[g] != want && bad++ < 5)
            std::printf("thread %d launch %d group %d: %d, want %d\n", t, r, g, host[g], want);
        }
      }
      sycl::free(in, q);
      sycl::free(sums, q);
    });
  for (std::thread &t : threads) t.join();

  // At the limits: the largest work-group, the most local memory.
  sycl::queue q;
  const size_t items = q.get_device().get_info<sycl::info::device::max_work_group_size>();
  const size_t bytes = q.get_device().get_info<sycl::info::device::local_mem_size>();
  const size_t ints = bytes / sizeof(int);
  int *out = sycl::malloc_shared<int>(items, q);
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<int, 1> local(sycl::range<1>(ints), h);
    h.parallel_for(sycl::nd_range<1>(items, items), [=](sycl::nd_item<1> it) {
      const size_t l = it.get_local_id(0);
      for (size_t k = l; k < ints; k += items) local[k] = int(k % 1000);
      sycl::group_barrier(it.get_group());
      out[l] = local[(ints - 1 - l) % ints];
    });
  }).wait();
  for (size_t l = 0; l < items; ++l)
    if (out[l] != int((ints - 1 - l) % ints % 1000) && bad++ < 5)
      std::printf("limits: item %zu: %d\n", l, out[l]);
  sycl::free(out, q);
  std::printf("stress: %d threads x %d launches, limits %zu items / %zu bytes: %s\n", kThreads,
              kLaunches, items, bytes, bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}

int main(int argc, char **argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 1;
  for (int r = 0; r < rounds; ++r)
    if (round() != 0)
      return 1;
  return 0;
}
