// The C for Metal N-body step of benchmarks/cm/nbody_genx.cpp written by hand
// in CUDA: each thread owns 16 bodies (positions and forces in registers),
// the block walks over all bodies in blocks of 1024 that it first copies
// into __shared__ memory (a barrier before the copy, one after, as
// cm_slm_load), bodies past the end read as zeros (as surface reads do), an
// approximate reciprocal square root (cm_rsqrt, rsqrtf). Positions and
// velocities are read from one pair of buffers and written to another, so
// every launch does the same work. Managed memory (CM buffers are shared
// allocations), kernel time only after a warm-up.
// Prints one line: "cuda nbody N=<bodies> <ms> ms <G interactions/s> Gint/s verified".
// Usage: nbody_cm [bodies=262144] [threads per block=128] [repetitions=3]
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define BODIES_CHUNK 16     // bodies per thread
#define BODIES_PER_SLM 1024 // bodies in one shared-memory block

__global__ void nbody(const float4 *in_pos, const float4 *in_vel, float4 *out_pos,
                      float4 *out_vel, float delta_time, float damping,
                      float softening_squared, int num_bodies) {
  __shared__ float4 slm[BODIES_PER_SLM];
  const float4 zero = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  const int first = (blockIdx.x * blockDim.x + threadIdx.x) * BODIES_CHUNK;

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
    __syncthreads();
    for (int j = threadIdx.x; j < BODIES_PER_SLM; j += blockDim.x) {
      int b = block * BODIES_PER_SLM + j;
      slm[j] = b < num_bodies ? in_pos[b] : zero;
    }
    __syncthreads();
    for (int j = 0; j < BODIES_PER_SLM; ++j) {
      float4 other = slm[j];
#pragma unroll
      for (int i = 0; i < BODIES_CHUNK; ++i) {
        float dx = other.x - px[i];
        float dy = other.y - py[i];
        float dz = other.z - pz[i];
        float dist2 = dx * dx + dy * dy + dz * dz + softening_squared;
        float inv = rsqrtf(dist2);
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
    out_pos[first + i] = make_float4(px[i] + v.x * delta_time, py[i] + v.y * delta_time,
                                     pz[i] + v.z * delta_time, mass[i]);
  }
}

static void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

static float next_random(unsigned &state) {
  state = state * 1664525u + 1013904223u;
  return float(state >> 8) / float(1u << 24); // [0, 1)
}

int main(int argc, char **argv) {
  const int num_bodies = argc > 1 ? std::atoi(argv[1]) : 262144;
  const int group_threads = argc > 2 ? std::atoi(argv[2]) : 128;
  const int reps = argc > 3 ? std::atoi(argv[3]) : 3;
  const int threads = num_bodies / BODIES_CHUNK;
  if (num_bodies <= 0 || num_bodies % BODIES_CHUNK != 0 || group_threads <= 0 ||
      threads % group_threads != 0 || reps <= 0) {
    std::fprintf(stderr, "usage: nbody_cm [bodies] [threads per block] [repetitions]\n");
    return 2;
  }
  const float delta_time = 0.01f, damping = 0.995f, softening_squared = 0.01f;

  std::vector<float> pos(4 * num_bodies), vel(4 * num_bodies);
  unsigned seed = 12345;
  for (int i = 0; i < num_bodies; ++i) {
    for (int c = 0; c < 3; ++c)
      pos[4 * i + c] = 2.0f * next_random(seed) - 1.0f;
    pos[4 * i + 3] = (0.5f + next_random(seed)) / float(num_bodies);
    for (int c = 0; c < 3; ++c)
      vel[4 * i + c] = 0.1f * (next_random(seed) - 0.5f);
    vel[4 * i + 3] = 0.0f;
  }

  const size_t bytes = 4 * sizeof(float) * size_t(num_bodies);
  float4 *in_pos, *in_vel, *out_pos, *out_vel;
  check(cudaMallocManaged(&in_pos, bytes), "cudaMallocManaged");
  check(cudaMallocManaged(&in_vel, bytes), "cudaMallocManaged");
  check(cudaMallocManaged(&out_pos, bytes), "cudaMallocManaged");
  check(cudaMallocManaged(&out_vel, bytes), "cudaMallocManaged");
  check(cudaMemcpy(in_pos, pos.data(), bytes, cudaMemcpyDefault), "copy");
  check(cudaMemcpy(in_vel, vel.data(), bytes, cudaMemcpyDefault), "copy");

  const int blocks = threads / group_threads;
  nbody<<<blocks, group_threads>>>(in_pos, in_vel, out_pos, out_vel, delta_time, damping,
                                   softening_squared, num_bodies);
  check(cudaDeviceSynchronize(), "warm-up");
  auto t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < reps; ++r)
    nbody<<<blocks, group_threads>>>(in_pos, in_vel, out_pos, out_vel, delta_time, damping,
                                     softening_squared, num_bodies);
  check(cudaDeviceSynchronize(), "kernels");
  auto t1 = std::chrono::steady_clock::now();
  double ms = std::chrono::duration<double, std::milli>(t1 - t0).count() / reps;

  std::vector<float> new_pos(4 * num_bodies), new_vel(4 * num_bodies);
  check(cudaMemcpy(new_pos.data(), out_pos, bytes, cudaMemcpyDefault), "copy back");
  check(cudaMemcpy(new_vel.data(), out_vel, bytes, cudaMemcpyDefault), "copy back");

  int mismatches = 0;
  for (int s = 0; s < 64; ++s) {
    int i = int((long long)s * 7919 % num_bodies);
    double f[3] = {0, 0, 0};
    for (int j = 0; j < num_bodies; ++j) {
      double d[3], dist2 = softening_squared;
      for (int c = 0; c < 3; ++c) {
        d[c] = double(pos[4 * j + c]) - pos[4 * i + c];
        dist2 += d[c] * d[c];
      }
      double k = pos[4 * j + 3] / (dist2 * std::sqrt(dist2));
      for (int c = 0; c < 3; ++c)
        f[c] += d[c] * k;
    }
    for (int c = 0; c < 3; ++c) {
      double v = (vel[4 * i + c] + f[c] * delta_time) * damping;
      double p = pos[4 * i + c] + v * delta_time;
      double ev = std::fabs(new_vel[4 * i + c] - v) / (std::fabs(v) + 1e-2);
      double ep = std::fabs(new_pos[4 * i + c] - p) / (std::fabs(p) + 1e-2);
      if (!(ev < 1e-3) || !(ep < 1e-3))
        ++mismatches;
    }
    if (new_pos[4 * i + 3] != pos[4 * i + 3])
      ++mismatches;
  }
  std::printf("cuda nbody N=%d %.4f ms %.1f Gint/s %s (blocks of %d threads)\n", num_bodies,
              ms, double(num_bodies) * num_bodies / (ms * 1e6),
              mismatches ? "WRONG" : "verified", group_threads);
  return mismatches ? 1 : 0;
}
