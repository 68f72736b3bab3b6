// The SYCL histogram kernel of histogram.cpp (and of
// benchmarks/sycl/histogram_bench.cpp): groups of 128 count into 64
// group-local bins (group_local_memory, zeroed) with local atomic_ref, track
// the minimum and maximum with global fetch_min/fetch_max, add their bins to
// the global ones and elect one group with compare_exchange_strong. Also the
// input both programs count, its device memory and its host histogram.
#ifndef SLMC_EXAMPLES_SYCL_HISTOGRAM_KERNEL_H
#define SLMC_EXAMPLES_SYCL_HISTOGRAM_KERNEL_H

#include <sycl/detail/core.hpp>
#include <sycl/ext/oneapi/group_local_memory.hpp>
#include <sycl/usm.hpp>

#include <cstddef>
#include <vector>

constexpr unsigned BINS = 64;
constexpr size_t WG = 128;

using local_counter =
    sycl::atomic_ref<unsigned, sycl::memory_order::relaxed, sycl::memory_scope::work_group,
                     sycl::access::address_space::local_space>;
template <typename T>
using global_atomic = sycl::atomic_ref<T, sycl::memory_order::relaxed,
                                       sycl::memory_scope::device,
                                       sycl::access::address_space::global_space>;

// One launch over the n values of `in` (device memory): adds their counts to
// `bins`, folds their minimum and maximum into st[0] and st[1], and writes
// the id of one group into st[2] if it holds -1.
void Histogram(sycl::queue &q, const int *in, unsigned *bins, int *st, size_t n) {
  q.submit([&](sycl::handler &h) {
    h.parallel_for<class histogram_kernel>(
        sycl::nd_range<1>(sycl::range<1>(n), sycl::range<1>(WG)),
        [=](sycl::nd_item<1> it) {
          auto g = it.get_group();
          auto local_bins = sycl::ext::oneapi::group_local_memory<unsigned[BINS]>(g);
          const int v = in[it.get_global_id(0)];
          local_counter((*local_bins)[unsigned(v) % BINS]).fetch_add(1u);
          global_atomic<int>(st[0]).fetch_min(v);
          global_atomic<int>(st[1]).fetch_max(v);
          sycl::group_barrier(g);

          const size_t lid = it.get_local_id(0);
          for (size_t b = lid; b < BINS; b += WG) {
            unsigned count = local_counter((*local_bins)[b]).load();
            if (count)
              global_atomic<unsigned>(bins[b]).fetch_add(count);
          }
          if (g.leader()) {
            int nobody = -1;
            global_atomic<int>(st[2]).compare_exchange_strong(
                nobody, int(g.get_group_linear_id()));
          }
        });
  });
}

// The input both programs count, skewed so that bins differ
// (value = (i * i * 31 + 7 * i) mod 1000), and its histogram, minimum and
// maximum computed on the host.
struct HistogramProblem {
  std::vector<int> input;
  std::vector<unsigned> expected = std::vector<unsigned>(BINS, 0);
  int expected_min = 1 << 30, expected_max = -1;
  explicit HistogramProblem(size_t n) : input(n) {
    for (size_t i = 0; i < n; ++i) input[i] = int((i * i * 31 + 7 * i) % 1000);
    for (int v : input) {
      ++expected[unsigned(v) % BINS];
      expected_min = v < expected_min ? v : expected_min;
      expected_max = v > expected_max ? v : expected_max;
    }
  }
};

// The device memory (USM) of one run: the input, the bins (zeroed) and the
// statistics (minimum, maximum, elected group: none yet).
struct HistogramMemory {
  sycl::queue &q;
  int *in = nullptr;
  unsigned *bins = nullptr;
  int *st = nullptr;
  const int initial_stats[3] = {1 << 30, -1, -1};

  HistogramMemory(sycl::queue &queue, const std::vector<int> &input) : q(queue) {
    in = sycl::malloc_device<int>(input.size(), q);
    bins = sycl::malloc_device<unsigned>(BINS, q);
    st = sycl::malloc_device<int>(3, q);
    if (!in || !bins || !st)
      throw sycl::exception(sycl::make_error_code(sycl::errc::memory_allocation),
                            "histogram: out of device memory");
    q.copy(input.data(), in, input.size());
    q.memset(bins, 0, BINS * sizeof(unsigned));
    q.copy(initial_stats, st, 3);
  }
  HistogramMemory(const HistogramMemory &) = delete;
  HistogramMemory &operator=(const HistogramMemory &) = delete;
  ~HistogramMemory() {
    sycl::free(in, q);
    sycl::free(bins, q);
    sycl::free(st, q);
  }

  // The bins and statistics, once the kernels are done.
  void read(std::vector<unsigned> &hist, int stats[3]) {
    q.copy(bins, hist.data(), BINS);
    q.copy(st, stats, 3).wait();
  }
};

#endif
