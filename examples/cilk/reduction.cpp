// Block sums with a tree reduction in __thread_group_local memory, Cilk
// Plus graphics offload style: a gfx_kernel function whose thread-group
// nest gives each group one block; second-level nests share the work among
// the group's threads; _gfx_gpgpu_thread_barrier() separates the phases.
// Offloaded with #pragma offload; checked against a host computation.
//
//   slmc++ -O2 reduction.cpp -o reduction && ./reduction [blocks]
#include <gfx/gfx_intrin.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define BLOCK 4096 // elements per thread group
#define LANES 256  // partial sums per group

int main(int argc, char **argv) {
  int blocks = argc > 1 ? atoi(argv[1]) : 64;
  if (blocks <= 0) {
    fprintf(stderr, "usage: %s [blocks > 0]\n", argv[0]);
    return 2;
  }
  std::vector<float> data((size_t)blocks * BLOCK), sums(blocks, 0.0f);
  for (size_t i = 0; i < data.size(); i++)
    data[i] = (float)((i * 7919) % 1000) / 100.0f;
  const float *in = data.data();
  float *out = sums.data();

#pragma offload target(gfx) in(in : length(blocks * BLOCK)) out(out : length(blocks))
  _Cilk_for _Thread_group (int b = 0; b < blocks; b++) {
    __thread_group_local float part[LANES];
    // Each lane sums a strided slice of the block (coalesced loads).
    _Cilk_for (int lane = 0; lane < LANES; lane++) {
      float acc = 0.0f;
      for (int i = lane; i < BLOCK; i += LANES)
        acc += in[(size_t)b * BLOCK + i];
      part[lane] = acc;
    }
    _gfx_gpgpu_thread_barrier();
    // Tree reduction: the serial loop runs in every thread, the halving
    // nests are shared.
    for (int width = LANES / 2; width > 0; width /= 2) {
      _Cilk_for (int lane = 0; lane < width; lane++)
        part[lane] += part[lane + width];
      _gfx_gpgpu_thread_barrier();
    }
    _Cilk_for (int lane = 0; lane < 1; lane++)
      out[b] = part[0];
  }

  int bad = 0;
  for (int b = 0; b < blocks; b++) {
    double expect = 0;
    for (int i = 0; i < BLOCK; i++)
      expect += data[(size_t)b * BLOCK + i];
    if (std::fabs(sums[b] - expect) > 1e-3 * std::fabs(expect) + 1e-3)
      bad++;
  }
  printf("reduction %d blocks of %d: %s (%d wrong)\n", blocks, BLOCK, bad ? "FAILED" : "PASSED",
         bad);
  return bad ? 1 : 0;
}
