#include "scale.h"
#include <cstdio>
#include <vector>
int main() {
  std::vector<int> v(32, 1);
  concurrency::array_view<int, 1> a(32, v);
  concurrency::parallel_for_each(a.extent, [=](concurrency::index<1> i) restrict(amp) {
    a[i] = scaled(a[i] + i[0]);
  });
  a.synchronize();
  int bad = 0;
  for (int i = 0; i < 32; ++i)
    bad += v[i] != 3 * (1 + i) + USER_OFFSET;
  std::printf("build flags: %s\n", bad ? "FAILED" : "PASSED");
  return bad;
}
