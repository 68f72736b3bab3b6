// The C++ AMP n-body step of nbody.cpp (and of benchmarks/amp/nbody_bench.cpp):
// every thread integrates one body under the gravity of all the others, the
// bodies visited one tile at a time through a tile_static cache of 256
// positions. Also the bodies both programs start from.
#ifndef SLMC_EXAMPLES_AMP_NBODY_KERNEL_H
#define SLMC_EXAMPLES_AMP_NBODY_KERNEL_H

#include <amp.h>
#include <amp_math.h>
#include <vector>

using namespace concurrency;

static const int TS = 256;
static const float SOFTENING_SQUARED = 0.0125f;
static const float DELTA_TIME = 0.01f;
static const float DAMPING = 0.999f;

struct body_pos {
  float x, y, z, mass;
};
struct body_vel {
  float x, y, z, pad;
};

void BodyBodyInteraction(float &ax, float &ay, float &az, const body_pos &self,
                         const body_pos &other) restrict(amp, cpu) {
  float rx = other.x - self.x;
  float ry = other.y - self.y;
  float rz = other.z - self.z;
  float dist2 = rx * rx + ry * ry + rz * rz + SOFTENING_SQUARED;
  float inv = 1.0f / precise_math::sqrt(dist2);
  float s = other.mass * inv * inv * inv;
  ax += rx * s;
  ay += ry * s;
  az += rz * s;
}

void IntegrateBody(body_pos &p, body_vel &v, float ax, float ay, float az) restrict(amp, cpu) {
  v.x = (v.x + ax * DELTA_TIME) * DAMPING;
  v.y = (v.y + ay * DELTA_TIME) * DAMPING;
  v.z = (v.z + az * DELTA_TIME) * DAMPING;
  p.x += v.x * DELTA_TIME;
  p.y += v.y * DELTA_TIME;
  p.z += v.z * DELTA_TIME;
}

void NBodyStep(array_view<const body_pos, 1> pos_in, array_view<body_pos, 1> pos_out,
               array_view<body_vel, 1> vel) {
  const int n = pos_in.extent[0];
  pos_out.discard_data();
  parallel_for_each(pos_in.extent.tile<TS>(), [=](tiled_index<TS> t_idx) restrict(amp) {
    body_pos self = pos_in[t_idx.global];
    float ax = 0.0f, ay = 0.0f, az = 0.0f;
    for (int base = 0; base < n; base += TS) {
      tile_static body_pos cache[TS];
      cache[t_idx.local[0]] = pos_in[base + t_idx.local[0]];
      t_idx.barrier.wait();
      for (int j = 0; j < TS; ++j)
        BodyBodyInteraction(ax, ay, az, self, cache[j]);
      t_idx.barrier.wait();
    }
    body_vel v = vel[t_idx.global];
    IntegrateBody(self, v, ax, ay, az);
    vel[t_idx.global] = v;
    pos_out[t_idx.global] = self;
  });
}

// Bodies on a jittered shell, at rest (the velocities start at zero).
std::vector<body_pos> InitialPositions(int n) {
  std::vector<body_pos> pos(n);
  unsigned seed = 12345;
  auto rnd = [&seed] {
    seed = seed * 1664525u + 1013904223u;
    return float(seed >> 8) / float(1 << 24) - 0.5f;
  };
  for (int i = 0; i < n; ++i)
    pos[i] = body_pos{rnd() * 8.0f, rnd() * 8.0f, rnd() * 8.0f, 0.5f + rnd() * 0.5f};
  return pos;
}

#endif
