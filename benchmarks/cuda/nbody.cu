// The N-body step of benchmarks/amp/nbody_bench.cpp written by hand in CUDA:
// blocks of 256 threads, 256 body positions per __shared__ block, the same
// interaction (1 / sqrtf, IEEE square root and division as nvcc builds them
// by default), every launch stepping the same positions with velocities
// updated in place. Managed memory filled as slmc's C++ AMP arrays and
// array_views are, kernel time only after a warm-up.
// Prints one line: "cuda nbody N=<bodies> <ms> ms <G interactions/s> Gint/s verified".
// Usage: nbody [bodies=65536] [repetitions=5]
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define TS 256
#define SOFTENING_SQUARED 0.0125f
#define DELTA_TIME 0.01f
#define DAMPING 0.999f

struct body_pos {
  float x, y, z, mass;
};
struct body_vel {
  float x, y, z, pad;
};

__host__ __device__ inline void interact(float &ax, float &ay, float &az, const body_pos &self,
                                         const body_pos &other) {
  float rx = other.x - self.x;
  float ry = other.y - self.y;
  float rz = other.z - self.z;
  float dist2 = rx * rx + ry * ry + rz * rz + SOFTENING_SQUARED;
  float inv = 1.0f / sqrtf(dist2);
  float s = other.mass * inv * inv * inv;
  ax += rx * s;
  ay += ry * s;
  az += rz * s;
}

__host__ __device__ inline void integrate(body_pos &p, body_vel &v, float ax, float ay,
                                          float az) {
  v.x = (v.x + ax * DELTA_TIME) * DAMPING;
  v.y = (v.y + ay * DELTA_TIME) * DAMPING;
  v.z = (v.z + az * DELTA_TIME) * DAMPING;
  p.x += v.x * DELTA_TIME;
  p.y += v.y * DELTA_TIME;
  p.z += v.z * DELTA_TIME;
}

__global__ void nbody_step(const body_pos *pos_in, body_pos *pos_out, body_vel *vel, int n) {
  __shared__ body_pos cache[TS];
  int i = blockIdx.x * TS + threadIdx.x;
  body_pos self = pos_in[i];
  float ax = 0.0f, ay = 0.0f, az = 0.0f;
  for (int base = 0; base < n; base += TS) {
    cache[threadIdx.x] = pos_in[base + threadIdx.x];
    __syncthreads();
    for (int j = 0; j < TS; ++j)
      interact(ax, ay, az, self, cache[j]);
    __syncthreads();
  }
  body_vel v = vel[i];
  integrate(self, v, ax, ay, az);
  vel[i] = v;
  pos_out[i] = self;
}

static void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

// Fills managed memory the way slmc's C++ AMP runtime fills an array made
// from host data (array(extent, iterator)): zeroed by the device (the array
// is zero-initialised first), then written by the host.
static void fill_like_amp_array(void *dst, const void *src, size_t bytes) {
  check(cudaMemset(dst, 0, bytes), "memset");
  check(cudaDeviceSynchronize(), "memset");
  std::memcpy(dst, src, bytes);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 65536;
  int reps = argc > 2 ? std::atoi(argv[2]) : 5;
  if (n <= 0 || n % TS != 0 || reps <= 0) {
    std::fprintf(stderr, "usage: nbody [bodies (multiple of %d)] [repetitions]\n", TS);
    return 2;
  }
  std::vector<body_pos> pos(n), out(n);
  std::vector<body_vel> vel(n, body_vel{0.0f, 0.0f, 0.0f, 0.0f});
  unsigned seed = 12345;
  auto rnd = [&seed] {
    seed = seed * 1664525u + 1013904223u;
    return float(seed >> 8) / float(1 << 24) - 0.5f;
  };
  for (int i = 0; i < n; ++i)
    pos[i] = body_pos{rnd() * 8.0f, rnd() * 8.0f, rnd() * 8.0f, 0.5f + rnd() * 0.5f};

  body_pos *a, *b;
  body_vel *v;
  check(cudaMallocManaged(&a, n * sizeof(body_pos)), "cudaMallocManaged");
  check(cudaMallocManaged(&b, n * sizeof(body_pos)), "cudaMallocManaged");
  check(cudaMallocManaged(&v, n * sizeof(body_vel)), "cudaMallocManaged");
  fill_like_amp_array(a, pos.data(), n * sizeof(body_pos));
  check(cudaMemset(b, 0, n * sizeof(body_pos)), "memset");
  check(cudaMemcpy(v, vel.data(), n * sizeof(body_vel), cudaMemcpyDefault), "copy");

  nbody_step<<<n / TS, TS>>>(a, b, v, n);
  check(cudaDeviceSynchronize(), "warm-up");
  auto t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < reps; ++r)
    nbody_step<<<n / TS, TS>>>(a, b, v, n);
  check(cudaDeviceSynchronize(), "kernels");
  auto t1 = std::chrono::steady_clock::now();
  double ms = std::chrono::duration<double, std::milli>(t1 - t0).count() / reps;
  check(cudaMemcpy(out.data(), b, n * sizeof(body_pos), cudaMemcpyDefault), "copy back");
  check(cudaMemcpy(vel.data(), v, n * sizeof(body_vel), cudaMemcpyDefault), "copy back");

  int bad = 0;
  for (int s = 0; s < 64; ++s) {
    int i = int((long long)s * 7919 % n);
    float ax = 0.0f, ay = 0.0f, az = 0.0f;
    for (int j = 0; j < n; ++j)
      interact(ax, ay, az, pos[i], pos[j]);
    body_pos p = pos[i];
    body_vel w{0.0f, 0.0f, 0.0f, 0.0f};
    for (int k = 0; k <= reps; ++k) {
      p = pos[i];
      integrate(p, w, ax, ay, az);
    }
    const float got[6] = {out[i].x, out[i].y, out[i].z, vel[i].x, vel[i].y, vel[i].z};
    const float want[6] = {p.x, p.y, p.z, w.x, w.y, w.z};
    for (int k = 0; k < 6; ++k)
      if (std::fabs(double(got[k]) - want[k]) / (1e-2 + std::fabs(want[k])) > 1e-3) ++bad;
  }
  std::printf("cuda nbody N=%d %.4f ms %.1f Gint/s %s\n", n, ms, double(n) * n / (ms * 1e6),
              bad ? "WRONG" : "verified");
  return bad ? 1 : 0;
}
