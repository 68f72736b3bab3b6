// Both kinds of group-local memory in one kernel: a local_accessor sized at
// submission holds each group's input tile with a one-element halo for a
// 3-point average, and group_local_memory holds the group's statistics (a
// counter updated with local atomics and the group's largest output, made
// from constructor arguments). Buffers, accessors and a host_accessor. The
// kernel is in mixed_kernel.h, which benchmarks/sycl/mixed_bench.cpp times.
#include "mixed_kernel.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv) {
  const size_t n = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 32 * 1024;
  if (n == 0 || n % wg != 0) {
    std::fprintf(stderr, "mixed: size must be a positive multiple of %zu\n", wg);
    return 2;
  }
  const size_t groups = n / wg;

  MixedData data(n);

  try {
    queue q;
    MixedBuffers buffers(data);
    Mixed(q, buffers, n);

    // Reading through a host accessor waits for the kernel.
    host_accessor check(buffers.y, read_only);
    if (check[0] < 0.0f)
      throw sycl::exception(make_error_code(errc::runtime), "mixed: no output");
  } catch (const sycl::exception &e) {
    std::fprintf(stderr, "mixed: SYCL exception: %s\n", e.what());
    return 1;
  }

  int errors = 0;
  const MixedReference want(data.x);
  for (size_t i = 0; i < n; ++i)
    if (std::fabs(want.y[i] - data.y[i]) > 1e-6f) {
      if (errors < 5)
        std::printf("y[%zu]: got %f, expected %f\n", i, data.y[i], want.y[i]);
      ++errors;
    }
  for (size_t g = 0; g < groups; ++g)
    if (data.above[g] != want.above[g] || data.maxima[g] != want.maxima[g]) {
      if (errors < 5)
        std::printf("group %zu: got %u above / max %d, expected %u / %d\n", g, data.above[g],
                    data.maxima[g], want.above[g], want.maxima[g]);
      ++errors;
    }
  std::printf("mixed stencil of %zu values: %s (%d mismatches)\n", n,
              errors ? "FAILED" : "PASSED", errors);
  return errors ? 1 : 0;
}
