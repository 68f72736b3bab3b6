// The SYCL row of benchmarks/cpu (dialect_kernels.h): the example's tiled
// matrix multiply, as its users call it (buffers over host memory, a queue,
// accessors), timed around submit and wait.
#include "../../examples/sycl/matmul_kernel.h"

#include "dialect_kernels.h"

#include <algorithm>
#include <chrono>

double dialects::sycl_matmul(const float *a, const float *b, float *c, int n, int reps) {
  const size_t s = size_t(n);
  queue q;
  buffer<float, 2> A(a, range<2>(s, s)), B(b, range<2>(s, s)), C(c, range<2>(s, s));
  auto once = [&] {
    MultiplyTiled(q, A, B, C, s, s, s);
    q.wait();
  };
  once();
  double best = 1e300;
  for (int r = 0; r < reps; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    once();
    best = std::min(best, std::chrono::duration<double, std::milli>(
                              std::chrono::steady_clock::now() - t0).count());
  }
  return best; // C's destructor writes the result back to c
}
