// OpenCL C twin of benchmarks/cuda/nbody_cm.cu (the C for Metal kernel
// examples/cm/nbody_genx.cpp that benchmarks/cm/nbody_bench.cpp runs): 16
// bodies per work-item in registers, the group walks over all bodies in
// blocks of 1024 copied into __local memory (a barrier before the copy, one
// after), bodies past the end read as zeros, rsqrt (cm_rsqrt).
#include "twin.h"
#define BODIES_CHUNK 16     // bodies per work-item
#define BODIES_PER_SLM 1024 // bodies in one __local block

__kernel void nbody(__global const float4 *in_pos, __global const float4 *in_vel,
                    __global float4 *out_pos, __global float4 *out_vel, float delta_time,
                    float damping, float softening_squared, int num_bodies) {
  __local float4 slm[BODIES_PER_SLM];
  const float4 zero = (float4)(0.0f, 0.0f, 0.0f, 0.0f);
  const uint lid = get_local_id(0), lsize = get_local_size(0);
  const int first = ((uint)get_group_id(0) * lsize + lid) * BODIES_CHUNK;

  float px[BODIES_CHUNK], py[BODIES_CHUNK], pz[BODIES_CHUNK], mass[BODIES_CHUNK];
  float fx[BODIES_CHUNK], fy[BODIES_CHUNK], fz[BODIES_CHUNK];
#pragma unroll
  for (int i = 0; i < BODIES_CHUNK; ++i) {
    float4 p = first + i < num_bodies ? in_pos[first + i] : zero;
    px[i] = p.x;
    py[i] = p.y;
    pz[i] = p.z;
    mass[i] = p.w;
    fx[i] = fy[i] = fz[i] = 0.0f;
  }

  for (int block = 0; block * BODIES_PER_SLM < num_bodies; ++block) {
    barrier(SOURCE_FENCE);
    for (int j = lid; j < BODIES_PER_SLM; j += lsize) {
      int b = block * BODIES_PER_SLM + j;
      slm[j] = b < num_bodies ? in_pos[b] : zero;
    }
    barrier(SOURCE_FENCE);
    for (int j = 0; j < BODIES_PER_SLM; ++j) {
      float4 other = slm[j];
#pragma unroll
      for (int i = 0; i < BODIES_CHUNK; ++i) {
        float dx = other.x - px[i];
        float dy = other.y - py[i];
        float dz = other.z - pz[i];
        float dist2 = dx * dx + dy * dy + dz * dz + softening_squared;
        float inv = rsqrt(dist2);
        float s = other.w * inv * inv * inv;
        fx[i] += dx * s;
        fy[i] += dy * s;
        fz[i] += dz * s;
      }
    }
  }

#pragma unroll
  for (int i = 0; i < BODIES_CHUNK; ++i) {
    if (first + i >= num_bodies)
      continue;
    float4 v = in_vel[first + i];
    v.x = (v.x + fx[i] * delta_time) * damping;
    v.y = (v.y + fy[i] * delta_time) * damping;
    v.z = (v.z + fz[i] * delta_time) * damping;
    out_vel[first + i] = v;
    out_pos[first + i] = (float4)(px[i] + v.x * delta_time, py[i] + v.y * delta_time,
                                  pz[i] + v.z * delta_time, mass[i]);
  }
}
