#include "block_sum.h"

#include <cstdio>
#include <vector>

int main() {
  constexpr size_t WG = 64, N = 64 * 32;
  sycl::queue q;
  int *in = sycl::malloc_shared<int>(N, q), *out = sycl::malloc_shared<int>(N / WG, q);
  for (size_t i = 0; i < N; ++i)
    in[i] = int(i % 97);
  q.parallel_for(sycl::nd_range<1>{N, WG}, block_sum<WG>{in, out}).wait();
  int bad = 0;
  for (size_t g = 0; g < N / WG; ++g) {
    int want = 0;
    for (size_t i = g * WG; i < (g + 1) * WG; ++i)
      want += weight(in[i]);
    bad += out[g] != want;
  }
  std::printf("sycl user headers: %s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  sycl::free(in, q);
  sycl::free(out, q);
  return bad != 0;
}
