// OpenCL C twin of benchmarks/cuda/nbody.cu (the kernel of
// benchmarks/amp/nbody_bench.cpp): groups of 256, 256 body positions per
// __local block, the same interaction (1 / sqrt, IEEE in nvcc's default
// build; here OpenCL's default precision, as IGC builds slmc's SPIR-V too),
// velocities updated in place.
#include "twin.h"
#define TS 256
#define SOFTENING_SQUARED 0.0125f
#define DELTA_TIME 0.01f
#define DAMPING 0.999f

typedef struct {
  float x, y, z, mass;
} body_pos;
typedef struct {
  float x, y, z, pad;
} body_vel;

inline void interact(float *ax, float *ay, float *az, const body_pos *self,
                     __local const body_pos *other) {
  float rx = other->x - self->x;
  float ry = other->y - self->y;
  float rz = other->z - self->z;
  float dist2 = rx * rx + ry * ry + rz * rz + SOFTENING_SQUARED;
  float inv = 1.0f / sqrt(dist2);
  float s = other->mass * inv * inv * inv;
  *ax += rx * s;
  *ay += ry * s;
  *az += rz * s;
}

inline void integrate(body_pos *p, body_vel *v, float ax, float ay, float az) {
  v->x = (v->x + ax * DELTA_TIME) * DAMPING;
  v->y = (v->y + ay * DELTA_TIME) * DAMPING;
  v->z = (v->z + az * DELTA_TIME) * DAMPING;
  p->x += v->x * DELTA_TIME;
  p->y += v->y * DELTA_TIME;
  p->z += v->z * DELTA_TIME;
}

__kernel void nbody_step(__global const body_pos *pos_in, __global body_pos *pos_out,
                         __global body_vel *vel, int n) {
  __local body_pos cache[TS];
  const uint tid = get_local_id(0);
  int i = (uint)get_group_id(0) * TS + tid;
  body_pos self = pos_in[i];
  float ax = 0.0f, ay = 0.0f, az = 0.0f;
  for (int base = 0; base < n; base += TS) {
    cache[tid] = pos_in[base + tid];
    barrier(SOURCE_FENCE);
    for (int j = 0; j < TS; ++j)
      interact(&ax, &ay, &az, &self, &cache[j]);
    barrier(SOURCE_FENCE);
  }
  body_vel v = vel[i];
  integrate(&self, &v, ax, ay, az);
  vel[i] = v;
  pos_out[i] = self;
}
