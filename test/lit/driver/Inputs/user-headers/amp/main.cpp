#include "kernels.h"

#include <cstdio>

int main() {
  const int n = 256;
  std::vector<float> d(n), e(n);
  std::vector<int> lines(n, 0);
  for (int i = 0; i < n; ++i)
    d[i] = e[i] = float(i);
  {
    concurrency::array_view<float, 1> v(n, d);
    reverse_tiles<16>(v);
    v.synchronize();
  }
  run_other(e, lines); // the same kernel, instantiated in the other source
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    float want16 = float(i / 16 * 16 + 15 - i % 16) / 16;
    float want32 = float(i / 32 * 32 + 31 - i % 32) / 32;
    bad += d[i] != want16;
    bad += e[i] != want32;
    bad += lines[i] != 9;
  }
  std::printf("amp user headers: %s (%d wrong), line %d, host line %d\n",
              bad ? "FAILED" : "PASSED", bad, lines[0], line_here());
  return bad != 0;
}
