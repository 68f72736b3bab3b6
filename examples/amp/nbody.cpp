// N-body simulation in C++ AMP: every thread integrates one body under the
// gravity of all the others. The bodies are visited one tile at a time: the
// tile's threads copy 256 body positions into tile_static memory together,
// wait at the barrier, and then every thread reads all 256 from there, so
// each position is read from global memory once per tile instead of once per
// thread. Runs a few time steps and checks positions and velocities against
// the same computation on the host. The kernel is in nbody_kernel.h, which
// benchmarks/amp/nbody_bench.cpp times.
#include "nbody_kernel.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 4096;
  int steps = argc > 2 ? std::atoi(argv[2]) : 2;
  if (n <= 0 || n % TS != 0 || steps <= 0) {
    std::fprintf(stderr, "nbody: the body count must be a positive multiple of %d\n", TS);
    return 2;
  }

  std::vector<body_pos> pos = InitialPositions(n);
  std::vector<body_vel> vel(n, body_vel{0.0f, 0.0f, 0.0f, 0.0f});

  std::vector<body_pos> ref_pos(pos);
  std::vector<body_vel> ref_vel(vel);

  try {
    // Positions ping-pong between two arrays; velocities are updated in place.
    array<body_pos, 1> a(n, pos.begin()), b(n);
    array_view<body_pos, 1> av(a), bv(b);
    array_view<body_vel, 1> v(n, vel);
    for (int s = 0; s < steps; ++s)
      NBodyStep(s % 2 ? bv : av, s % 2 ? av : bv, v);
    copy(steps % 2 ? b : a, pos.begin());
    v.synchronize();
  } catch (const runtime_exception &e) {
    std::fprintf(stderr, "nbody: %s\n", e.what());
    return 1;
  }

  // The same steps on the host.
  std::vector<body_pos> next(n);
  for (int s = 0; s < steps; ++s) {
    for (int i = 0; i < n; ++i) {
      float ax = 0.0f, ay = 0.0f, az = 0.0f;
      for (int j = 0; j < n; ++j)
        BodyBodyInteraction(ax, ay, az, ref_pos[i], ref_pos[j]);
      next[i] = ref_pos[i];
      IntegrateBody(next[i], ref_vel[i], ax, ay, az);
    }
    ref_pos.swap(next);
  }

  int errors = 0;
  double worst = 0.0;
  for (int i = 0; i < n; ++i) {
    const float got[6] = {pos[i].x, pos[i].y, pos[i].z, vel[i].x, vel[i].y, vel[i].z};
    const float want[6] = {ref_pos[i].x, ref_pos[i].y, ref_pos[i].z,
                           ref_vel[i].x, ref_vel[i].y, ref_vel[i].z};
    for (int k = 0; k < 6; ++k) {
      // Sums of n terms in another order (and contracted differently).
      double err = std::fabs(double(got[k]) - want[k]) / (1e-2 + std::fabs(want[k]));
      if (err > worst) worst = err;
      if (err > 1e-3) {
        if (errors < 5)
          std::printf("mismatch at body %d component %d: got %f, expected %f\n", i, k,
                      got[k], want[k]);
        ++errors;
      }
    }
  }
  std::printf("nbody %d bodies, %d steps: %s (%d mismatches, max rel. error %.1e)\n", n,
              steps, errors ? "FAILED" : "PASSED", errors, worst);
  return errors ? 1 : 0;
}
