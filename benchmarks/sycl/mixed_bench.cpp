// Benchmark: the kernel of examples/sycl/mixed.cpp (both kinds of group-local
// memory in one kernel: groups of 64, a local_accessor sized at submission
// holding the group's input with a one-element halo for a 3-point average,
// and a group_local_memory<group_stats> made from constructor arguments,
// updated with local atomic_ref fetch_add / fetch_max; the group's leader
// writes its statistics out), timed on whatever device slmc's runtime picks:
// kernel submissions only, after a warm-up, waiting with q.wait(). Buffers
// and accessors as in the example; every launch computes the same results,
// all of which are checked afterwards.
// Prints one line: "sycl mixed N=<n> <ms> ms <GB/s> GB/s verified".
// Usage: mixed_bench [N=67108864] [repetitions=100]
#include <sycl/sycl.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace sycl;

struct group_stats {
  unsigned above; // outputs above the threshold
  int max_scaled; // largest output * 1000, rounded down
  group_stats(unsigned a, int m) : above(a), max_scaled(m) {}
};

constexpr size_t wg = 64;
constexpr float threshold = 0.5f;

static void mixed(queue &q, buffer<float> &xb, buffer<float> &yb, buffer<unsigned> &ab,
                  buffer<int> &mb, size_t n) {
  q.submit([&](handler &h) {
    accessor in(xb, h, read_only);
    accessor out(yb, h, write_only, no_init);
    accessor count_out(ab, h, write_only);
    accessor max_out(mb, h, write_only);
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

int main(int argc, char **argv) {
  const size_t n = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : size_t(1) << 26;
  const int reps = argc > 2 ? std::atoi(argv[2]) : 100;
  if (n == 0 || n % wg != 0 || reps <= 0) {
    std::fprintf(stderr, "usage: mixed_bench [N (multiple of %zu)] [repetitions]\n", wg);
    return 2;
  }
  const size_t groups = n / wg;
  std::vector<float> x(n), y(n, -1.0f);
  for (size_t i = 0; i < n; ++i) x[i] = float((i * 37) % 101) / 100.0f;
  std::vector<unsigned> above(groups, 0);
  std::vector<int> maxima(groups, 0);

  double ms = 0;
  try {
    queue q;
    buffer<float> xb(x.data(), range<1>(n));
    buffer<float> yb(y.data(), range<1>(n));
    buffer<unsigned> ab(above.data(), range<1>(groups));
    buffer<int> mb(maxima.data(), range<1>(groups));
    mixed(q, xb, yb, ab, mb, n); // warm-up: module build / JIT
    q.wait();
    auto t0 = std::chrono::steady_clock::now();
    for (int r = 0; r < reps; ++r)
      mixed(q, xb, yb, ab, mb, n);
    q.wait();
    auto t1 = std::chrono::steady_clock::now();
    ms = std::chrono::duration<double, std::milli>(t1 - t0).count() / reps;
    // Leaving the block destroys the buffers, which write the results back.
  } catch (const sycl::exception &e) {
    std::fprintf(stderr, "mixed_bench: SYCL exception: %s\n", e.what());
    return 1;
  }

  size_t bad = 0;
  for (size_t g = 0; g < groups; ++g) {
    unsigned want_above = 0;
    int want_max = 0;
    for (size_t l = 0; l < wg; ++l) {
      size_t i = g * wg + l;
      float left = i > 0 ? x[i - 1] : x[i], right = i + 1 < n ? x[i + 1] : x[i];
      float v = (left + x[i] + right) / 3.0f;
      bad += std::fabs(v - y[i]) > 1e-6f;
      want_above += v > threshold;
      int s = int(v * 1000.0f);
      want_max = s > want_max ? s : want_max;
    }
    bad += above[g] != want_above || maxima[g] != want_max;
  }
  // Bytes moved per launch: the input and the output, plus two words per group.
  const double bytes = 2.0 * sizeof(float) * double(n) + 8.0 * double(groups);
  std::printf("sycl mixed N=%zu %.4f ms %.1f GB/s %s\n", n, ms, bytes / (ms * 1e6),
              bad ? "WRONG" : "verified");
  return bad ? 1 : 0;
}
