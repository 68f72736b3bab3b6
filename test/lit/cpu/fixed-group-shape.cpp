// A kernel whose functor requires a work-group shape (slmc_reqd_work_group_size,
// as C++ AMP's tiled launches declare it) gets work-item loops compiled for
// that shape; a launch with other work-groups (which the dialect libraries
// never make) runs on fibers instead, and says why, with the same results.
// RUN: %slmcxx -O2 %s -o %t
// RUN: env SLMC_VERBOSE=1 %t 2>&1 | FileCheck %s
// RUN: %slmcxx -O0 %s -o %t.O0
// RUN: %t.O0 | FileCheck %s --check-prefix=DATA
// CHECK: kernel '{{.*}}Reverse{{.*}}' runs as work-item loops
// CHECK: kernel '{{.*}}Reverse{{.*}}' runs as fibers (its work-groups are not of the shape it requires (16x1x1))
// CHECK: 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 24 25 26 27 28 29 30 31 16 {{.*}} 55
// DATA: 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 24 25 26 27 28 29 30 31 16 {{.*}} 55

#include <slmc/offload.h>

#include <cstdio>
#include <vector>

// Each group reverses its part of the data through group-local memory.
struct Reverse {
  static constexpr slmc::group_shape slmc_reqd_work_group_size = {16, 1, 1};
  int *data;
  SLMC_HD void operator()() const {
    int *tile = slmc::group_local_storage<int[64], Reverse>()[0];
    unsigned l = slmc::local_id(0), n = slmc::local_size(0), g = slmc::group_id(0);
    tile[l] = data[g * n + l];
    slmc::group_barrier();
    data[g * n + l] = tile[n - 1 - l];
  }
};

int main() {
  std::vector<int> v(64);
  for (int i = 0; i < 64; ++i)
    v[i] = i;
  // Blocks of 16 reversed, then blocks of 8: [8..15, 0..7, 24..31, ...].
  if (slmc::launch(Reverse{v.data()}, {4, 1, 1}, {16, 1, 1}) != SLMC_SUCCESS ||
      slmc::launch(Reverse{v.data()}, {8, 1, 1}, {8, 1, 1}) != SLMC_SUCCESS)
    return 1;
  for (int i = 0; i < 64; ++i)
    std::printf("%d ", v[i]);
  std::printf("\n");
}
