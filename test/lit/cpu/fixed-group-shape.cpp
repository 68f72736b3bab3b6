// A kernel whose functor requires a work-group shape (slmc_reqd_work_group_size,
// as C++ AMP's tiled launches declare it) or expects one
// (slmc_expected_work_group_size, a Cilk Plus thread group's size) gets
// work-item loops compiled for that shape; a launch with other work-groups
// (which the dialect libraries never make on the CPU) runs on fibers
// instead, and says why, with the same results.
// RUN: %slmcxx -O2 %s -o %t
// RUN: env SLMC_VERBOSE=1 %t 2>&1 | FileCheck %s
// RUN: %slmcxx -O0 %s -o %t.O0
// RUN: %t.O0 | FileCheck %s --check-prefix=DATA
// CHECK: kernel '{{.*}}Reverse{{.*}}' runs as work-item loops
// CHECK: kernel '{{.*}}Reverse{{.*}}' runs as fibers (its work-groups are not of the shape it requires (16x1x1))
// CHECK: kernel '{{.*}}Expected{{.*}}' runs as fibers (its work-groups are not of the shape it requires (16x1x1))
// CHECK: kernel '{{.*}}Expected{{.*}}' runs as work-item loops
// CHECK: 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 24 25 26 27 28 29 30 31 16 {{.*}} 55
// CHECK: {{^}}0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 {{.*}} 62 63
// DATA: 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 24 25 26 27 28 29 30 31 16 {{.*}} 55
// DATA: {{^}}0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 {{.*}} 62 63

#include <slmc/cilk.h>
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

// The same, expecting the shape rather than requiring it.
struct Expected : Reverse {
  static constexpr slmc::group_shape slmc_reqd_work_group_size = {0, 0, 0};
  static constexpr slmc::group_shape slmc_expected_work_group_size = {16, 1, 1};
};

// What each kind of functor promises the CPU fallback.
struct Plain {
  SLMC_HD void operator()(int, int) const {}
};
static_assert(slmc::expected_work_group_size<Reverse>.x == 16, "required: promised");
static_assert(slmc::expected_work_group_size<Expected>.x == 16 &&
                  slmc::required_work_group_size<Expected>.x == 0,
              "expected: promised to the CPU only");
static_assert(slmc::expected_work_group_size<slmc::cilk::group_body2<256, int, int, Plain>>.x ==
                  256,
              "a Cilk Plus thread group's size");
static_assert(slmc::expected_work_group_size<slmc::cilk::group_body2<2048, int, int, Plain>>.x ==
                  0,
              "past the CPU fallback's limit: no promise");
static_assert(slmc::expected_work_group_size<Plain>.x == 0, "nothing declared: no promise");

static void print(const std::vector<int> &v) {
  for (int x : v)
    std::printf("%d ", x);
  std::printf("\n");
}

int main() {
  std::vector<int> v(64);
  for (int i = 0; i < 64; ++i)
    v[i] = i;
  // Blocks of 16 reversed, then blocks of 8: [8..15, 0..7, 24..31, ...].
  if (slmc::launch(Reverse{v.data()}, {4, 1, 1}, {16, 1, 1}) != SLMC_SUCCESS ||
      slmc::launch(Reverse{v.data()}, {8, 1, 1}, {8, 1, 1}) != SLMC_SUCCESS)
    return 1;
  print(v);
  // The same again, expecting the shape: [0..63] once more.
  if (slmc::launch(Expected{{v.data()}}, {8, 1, 1}, {8, 1, 1}) != SLMC_SUCCESS ||
      slmc::launch(Expected{{v.data()}}, {4, 1, 1}, {16, 1, 1}) != SLMC_SUCCESS)
    return 1;
  print(v);
}
