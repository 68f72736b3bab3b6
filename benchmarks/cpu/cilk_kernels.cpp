// The Cilk Plus row of benchmarks/cpu (dialect_kernels.h): Intel's SLM
// matrix multiply sample (examples/cilk/matmul_kernel.h, 256 threads per
// group, 64x64 supertiles), offloaded with _GFX_offload on host arrays
// shared with _GFX_share, as the sample does. run.sh compiles this file
// with -DMATMUL_N=<size>.
#include "../../examples/cilk/matmul_kernel.h"

#include "best_of.h"
#include "dialect_kernels.h"

#include <cstdio>

const int dialects::cilk_matmul_n = N;

double dialects::cilk_matmul(const float *a, const float *b, float *c, int reps) {
  const size_t bytes = size_t(N) * N * sizeof(float);
  _GFX_share(a, bytes);
  _GFX_share(b, bytes);
  _GFX_share(c, bytes);
  auto *A = reinterpret_cast<const float(*)[N]>(a);
  auto *B = reinterpret_cast<const float(*)[N]>(b);
  auto *C = reinterpret_cast<float(*)[N]>(c);
  double best = best_of_ms(reps, [&] {
    if (!_GFX_offload(matmul_slm, A, B, C) || _GFX_wait() != GFX_SUCCESS)
      std::fprintf(stderr, "cilk matmul: offload failed (%d)\n", _GFX_get_last_error());
  });
  _GFX_unshare(a);
  _GFX_unshare(b);
  _GFX_unshare(c);
  return best;
}
