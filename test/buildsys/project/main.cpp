#include "kernels.h"
#include <cstdio>

const char *tile_sum_version();

int main() {
  std::vector<int> values(1024);
  for (int i = 0; i < 1024; ++i)
    values[i] = i % 17;
  kernels::scale_all(values, 2);
  int expected = 0;
  for (int i = 0; i < 1024; ++i)
    expected += values[i] * kernels::weight(i);
  int got = kernels::sum_of_tiles(values);
  std::printf("tile_sum %s: %d (expected %d): %s\n", tile_sum_version(), got, expected,
              got == expected ? "PASSED" : "FAILED");
  return got == expected ? 0 : 1;
}
