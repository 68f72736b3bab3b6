// The SYCL kernel of mixed.cpp (and of benchmarks/sycl/mixed_bench.cpp), with
// both kinds of group-local memory: a local_accessor sized at submission
// holds each group's input tile with a one-element halo for a 3-point
// average, and group_local_memory holds the group's statistics (a counter
// updated with local atomics and the group's largest output, made from
// constructor arguments). Also the input and the host's results.
#ifndef SLMC_EXAMPLES_SYCL_MIXED_KERNEL_H
#define SLMC_EXAMPLES_SYCL_MIXED_KERNEL_H

#include <sycl/sycl.hpp>

#include <cstddef>
#include <vector>

using namespace sycl;

struct group_stats {
  unsigned above; // outputs above the threshold
  int max_scaled; // largest output * 1000, rounded down
  group_stats(unsigned a, int m) : above(a), max_scaled(m) {}
};

constexpr size_t wg = 64;
constexpr float threshold = 0.5f;

// The input both programs average.
std::vector<float> MixedInput(size_t n) {
  std::vector<float> x(n);
  for (size_t i = 0; i < n; ++i) x[i] = float((i * 37) % 101) / 100.0f;
  return x;
}

// The host data of one run: the input x, and the outputs (y, and per group
// the count above the threshold and the largest scaled output).
struct MixedData {
  std::vector<float> x, y;
  std::vector<unsigned> above;
  std::vector<int> maxima;
  explicit MixedData(size_t n)
      : x(MixedInput(n)), y(n, -1.0f), above(n / wg, 0), maxima(n / wg, 0) {}
};

// Buffers over a MixedData; destroying them writes the outputs back.
struct MixedBuffers {
  buffer<float> x, y;
  buffer<unsigned> above;
  buffer<int> maxima;
  explicit MixedBuffers(MixedData &d)
      : x(d.x.data(), range<1>(d.x.size())), y(d.y.data(), range<1>(d.y.size())),
        above(d.above.data(), range<1>(d.above.size())),
        maxima(d.maxima.data(), range<1>(d.maxima.size())) {}
};

// One launch: y = the 3-point average of x (clamped at the ends), and for
// every group of wg items, how many outputs exceed the threshold and the
// largest output * 1000, rounded down.
void Mixed(queue &q, MixedBuffers &b, size_t n) {
  q.submit([&](handler &h) {
    accessor in(b.x, h, read_only);
    accessor out(b.y, h, write_only, no_init);
    accessor count_out(b.above, h, write_only);
    accessor max_out(b.maxima, h, write_only);
    local_accessor<float, 1> tile(range<1>(wg + 2), h);

    h.parallel_for(nd_range<1>(range<1>(n), range<1>(wg)), [=](nd_item<1> it) {
      auto stats = ext::oneapi::group_local_memory<group_stats>(it.get_group(), 0u, 0);
      const size_t i = it.get_global_id(0), l = it.get_local_id(0);

      // The tile, with the neighbours of the group's first and last item.
      tile[l + 1] = in[i];
      if (l == 0)
        tile[0] = i > 0 ? in[i - 1] : in[i];
      if (l == wg - 1)
        tile[wg + 1] = i + 1 < n ? in[i + 1] : in[i];
      it.barrier(access::fence_space::local_space);

      const float v = (tile[l] + tile[l + 1] + tile[l + 2]) / 3.0f;
      out[i] = v;
      if (v > threshold)
        atomic_ref<unsigned, memory_order::relaxed, memory_scope::work_group,
                   access::address_space::local_space>(stats->above)
            .fetch_add(1u);
      atomic_ref<int, memory_order::relaxed, memory_scope::work_group,
                 access::address_space::local_space>(stats->max_scaled)
          .fetch_max(int(v * 1000.0f));
      group_barrier(it.get_group());

      if (l == 0) {
        count_out[it.get_group_linear_id()] = stats->above;
        max_out[it.get_group_linear_id()] = stats->max_scaled;
      }
    });
  });
}

// What the kernel computes, computed on the host.
struct MixedReference {
  std::vector<float> y;
  std::vector<unsigned> above;
  std::vector<int> maxima;
  explicit MixedReference(const std::vector<float> &x)
      : y(x.size()), above(x.size() / wg, 0), maxima(x.size() / wg, 0) {
    const size_t n = x.size();
    for (size_t i = 0; i < n; ++i) {
      float left = i > 0 ? x[i - 1] : x[i], right = i + 1 < n ? x[i + 1] : x[i];
      float v = (left + x[i] + right) / 3.0f;
      y[i] = v;
      above[i / wg] += v > threshold;
      int s = int(v * 1000.0f);
      maxima[i / wg] = s > maxima[i / wg] ? s : maxima[i / wg];
    }
  }
};

#endif
