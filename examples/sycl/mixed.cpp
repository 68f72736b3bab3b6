// Both kinds of group-local memory in one kernel: a local_accessor sized at
// submission holds each group's input tile with a one-element halo for a
// 3-point average, and group_local_memory holds the group's statistics (a
// counter updated with local atomics and the group's largest output, made
// from constructor arguments). Buffers, accessors and a host_accessor.
#include <sycl/sycl.hpp>

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

int main(int argc, char **argv) {
  const size_t wg = 64;
  const size_t n = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 32 * 1024;
  if (n == 0 || n % wg != 0) {
    std::fprintf(stderr, "mixed: size must be a positive multiple of %zu\n", wg);
    return 2;
  }
  const size_t groups = n / wg;
  const float threshold = 0.5f;

  std::vector<float> x(n), y(n, -1.0f);
  for (size_t i = 0; i < n; ++i) x[i] = float((i * 37) % 101) / 100.0f;
  std::vector<unsigned> above(groups, 0);
  std::vector<int> maxima(groups, 0);

  try {
    queue q;
    buffer<float> xb(x.data(), range<1>(n));
    buffer<float> yb(y.data(), range<1>(n));
    buffer<unsigned> ab(above.data(), range<1>(groups));
    buffer<int> mb(maxima.data(), range<1>(groups));

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

    // Reading through a host accessor waits for the kernel.
    host_accessor check(yb, read_only);
    if (check[0] < 0.0f)
      throw sycl::exception(make_error_code(errc::runtime), "mixed: no output");
  } catch (const sycl::exception &e) {
    std::fprintf(stderr, "mixed: SYCL exception: %s\n", e.what());
    return 1;
  }

  int errors = 0;
  for (size_t g = 0; g < groups; ++g) {
    unsigned want_above = 0;
    int want_max = 0;
    for (size_t l = 0; l < wg; ++l) {
      size_t i = g * wg + l;
      float left = i > 0 ? x[i - 1] : x[i], right = i + 1 < n ? x[i + 1] : x[i];
      float v = (left + x[i] + right) / 3.0f;
      if (std::fabs(v - y[i]) > 1e-6f) {
        if (errors < 5)
          std::printf("y[%zu]: got %f, expected %f\n", i, y[i], v);
        ++errors;
      }
      want_above += v > threshold;
      int s = int(v * 1000.0f);
      want_max = s > want_max ? s : want_max;
    }
    if (above[g] != want_above || maxima[g] != want_max) {
      if (errors < 5)
        std::printf("group %zu: got %u above / max %d, expected %u / %d\n", g, above[g],
                    maxima[g], want_above, want_max);
      ++errors;
    }
  }
  std::printf("mixed stencil of %zu values: %s (%d mismatches)\n", n,
              errors ? "FAILED" : "PASSED", errors);
  return errors ? 1 : 0;
}
