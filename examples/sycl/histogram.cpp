// Histogram with group-local atomics: each work-group counts its part of the
// input in a group-local array of bins (group_local_memory, zeroed), with
// atomic_ref on local memory, then adds its bins to the global histogram
// with atomic_ref on global memory. The same kernel tracks the input's
// minimum and maximum (fetch_min/fetch_max) and elects one group with
// compare_exchange_strong. Checked against a host histogram.
#include <sycl/detail/core.hpp>
#include <sycl/ext/oneapi/group_local_memory.hpp>
#include <sycl/usm.hpp>

#include <cstdio>
#include <cstdlib>
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

int main(int argc, char **argv) {
  const size_t n = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 128 * 1024;
  if (n == 0 || n % WG != 0) {
    std::fprintf(stderr, "histogram: size must be a positive multiple of %zu\n", WG);
    return 2;
  }
  const size_t groups = n / WG;

  // Skewed input so that bins differ: value = (i * i * 31 + 7 * i) mod 1000.
  std::vector<int> input(n);
  for (size_t i = 0; i < n; ++i) input[i] = int((i * i * 31 + 7 * i) % 1000);
  std::vector<unsigned> expected(BINS, 0);
  int expected_min = 1 << 30, expected_max = -1;
  for (int v : input) {
    ++expected[unsigned(v) % BINS];
    expected_min = v < expected_min ? v : expected_min;
    expected_max = v > expected_max ? v : expected_max;
  }

  std::vector<unsigned> hist(BINS, 0);
  int stats[3] = {1 << 30, -1, -1}; // min, max, elected group
  try {
    sycl::queue q;
    int *in = sycl::malloc_device<int>(n, q);
    unsigned *bins = sycl::malloc_device<unsigned>(BINS, q);
    int *st = sycl::malloc_device<int>(3, q);
    if (!in || !bins || !st)
      throw sycl::exception(sycl::make_error_code(sycl::errc::memory_allocation),
                            "histogram: out of device memory");
    q.copy(input.data(), in, n);
    q.memset(bins, 0, BINS * sizeof(unsigned));
    q.copy(stats, st, 3);

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
    q.wait();
    q.copy(bins, hist.data(), BINS);
    q.copy(st, stats, 3).wait();
    sycl::free(in, q);
    sycl::free(bins, q);
    sycl::free(st, q);
  } catch (const sycl::exception &e) {
    std::fprintf(stderr, "histogram: SYCL exception: %s\n", e.what());
    return 1;
  }

  int errors = 0;
  for (unsigned b = 0; b < BINS; ++b)
    if (hist[b] != expected[b]) {
      if (errors < 5)
        std::printf("bin %u: got %u, expected %u\n", b, hist[b], expected[b]);
      ++errors;
    }
  if (stats[0] != expected_min || stats[1] != expected_max) {
    std::printf("min/max: got %d/%d, expected %d/%d\n", stats[0], stats[1], expected_min,
                expected_max);
    ++errors;
  }
  if (stats[2] < 0 || size_t(stats[2]) >= groups) {
    std::printf("elected group: got %d, expected one of 0..%zu\n", stats[2], groups - 1);
    ++errors;
  }
  std::printf("histogram of %zu values in %u bins: %s (%d mismatches)\n", n, BINS,
              errors ? "FAILED" : "PASSED", errors);
  return errors ? 1 : 0;
}
