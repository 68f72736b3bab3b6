// Standard headers before <amp.h>, a quoted header next to the source, and
// OpenMP in the host code (driver test).
#include <algorithm>
#include "local.h"
#include <amp.h>
#include <cstdio>
#include <vector>
using namespace concurrency;

int main() {
  std::vector<int> v(64, 1);
  array_view<int, 1> av(64, v);
  parallel_for_each(av.extent.tile<kTile>(), [=](tiled_index<kTile> t) restrict(amp) {
    av[t.global] += t.local[0];
  });
  av.synchronize();
  int s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < 64; ++i)
    s += v[i];
  std::printf("sum %d %s\n", s, s == 544 ? "PASSED" : "FAILED");
  return s == 544 ? 0 : 1;
}
