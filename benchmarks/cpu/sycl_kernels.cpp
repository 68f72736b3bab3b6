// The SYCL row of benchmarks/cpu (dialect_kernels.h): the example's tiled
// matrix multiply, as its users call it (buffers over host memory, a queue,
// accessors), timed around submit and wait.
#include "../../examples/sycl/matmul_kernel.h"

#include "best_of.h"
#include "dialect_kernels.h"

double dialects::sycl_matmul(const float *a, const float *b, float *c, int n, int reps) {
  const size_t s = size_t(n);
  queue q;
  buffer<float, 2> A(a, range<2>(s, s)), B(b, range<2>(s, s)), C(c, range<2>(s, s));
  return best_of_ms(reps, [&] {
    MultiplyTiled(q, A, B, C, s, s, s);
    q.wait();
  }); // C's destructor writes the result back to c
}
