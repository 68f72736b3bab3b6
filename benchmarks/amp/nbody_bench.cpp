// Benchmark: the C++ AMP N-body step of examples/amp/nbody.cpp (tiles of 256
// threads, 256 body positions per tile_static block, precise square root),
// the example's own kernel and bodies from examples/amp/nbody_kernel.h, timed
// on whatever device slmc's runtime picks: kernel launches only, after a
// warm-up launch.
//
// Every launch steps the same positions (the example alternates between two
// position arrays); velocities are updated in place, so after k launches
// body i has v_k = (v_{k-1} + a_i dt) * damping from v_0 = 0 and position
// p_i + v_k dt. A sample of bodies is checked against that on the host.
// Prints one line: "amp nbody N=<bodies> <ms> ms <G interactions/s> Gint/s verified".
// Usage: nbody_bench [bodies=65536] [repetitions=5]
#include "../../examples/amp/nbody_kernel.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 65536;
  int reps = argc > 2 ? std::atoi(argv[2]) : 5;
  if (n <= 0 || n % TS != 0 || reps <= 0) {
    std::fprintf(stderr, "usage: nbody_bench [bodies (multiple of %d)] [repetitions]\n", TS);
    return 2;
  }
  std::vector<body_pos> pos = InitialPositions(n), out(n);
  std::vector<body_vel> vel(n, body_vel{0.0f, 0.0f, 0.0f, 0.0f});

  accelerator acc;
  array<body_pos, 1> a(n, pos.begin()), b(n);
  array_view<body_pos, 1> av(a), bv(b);
  array_view<body_vel, 1> v(n, vel);

  NBodyStep(av, bv, v); // warm-up: module build / JIT
  acc.default_view.wait();
  auto t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < reps; ++r)
    NBodyStep(av, bv, v);
  acc.default_view.wait();
  auto t1 = std::chrono::steady_clock::now();
  double ms = std::chrono::duration<double, std::milli>(t1 - t0).count() / reps;
  copy(b, out.begin());
  v.synchronize();

  // reps + 1 steps from the same positions, for a sample of bodies.
  int bad = 0;
  for (int s = 0; s < 64; ++s) {
    int i = int((long long)s * 7919 % n);
    float ax = 0.0f, ay = 0.0f, az = 0.0f;
    for (int j = 0; j < n; ++j)
      BodyBodyInteraction(ax, ay, az, pos[i], pos[j]);
    body_pos p = pos[i];
    body_vel w{0.0f, 0.0f, 0.0f, 0.0f};
    for (int k = 0; k <= reps; ++k) {
      p = pos[i];
      IntegrateBody(p, w, ax, ay, az);
    }
    const float got[6] = {out[i].x, out[i].y, out[i].z, vel[i].x, vel[i].y, vel[i].z};
    const float want[6] = {p.x, p.y, p.z, w.x, w.y, w.z};
    for (int k = 0; k < 6; ++k)
      if (std::fabs(double(got[k]) - want[k]) / (1e-2 + std::fabs(want[k])) > 1e-3) ++bad;
  }
  std::printf("amp nbody N=%d %.4f ms %.1f Gint/s %s\n", n, ms,
              double(n) * n / (ms * 1e6), bad ? "WRONG" : "verified");
  return bad ? 1 : 0;
}
