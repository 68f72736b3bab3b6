// Two translation units with kernels of their own (multi-file test).
#include <amp.h>
#include <cstdio>
#include <vector>
using namespace concurrency;

int reverse_tiles(std::vector<int> &v); // multi_other.cpp

int main() {
  std::vector<int> v(256);
  for (int i = 0; i < 256; ++i) v[i] = i;
  {
    array_view<int, 1> av(256, v);
    parallel_for_each(av.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) {
      tile_static int sum[64];
      sum[t.local[0]] = av[t.global];
      t.barrier.wait();
      for (int s = 32; s > 0; s /= 2) {
        if (t.local[0] < s) sum[t.local[0]] += sum[t.local[0] + s];
        t.barrier.wait();
      }
      av[t.global] = sum[0];
    });
  }
  // Tile k now holds the sum of k*64 .. k*64+63 everywhere.
  int ok = 1;
  for (int i = 0; i < 256; ++i) {
    int k = i / 64, expect = 64 * 64 * k + 63 * 32;
    ok &= v[i] == expect;
  }
  ok &= reverse_tiles(v) == 0;
  std::printf("multi-file: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
