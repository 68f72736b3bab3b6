// Serial and OpenMP versions of the benchmark's algorithms: straightforward
// loops in the order that suits a CPU cache (matmul i-k-j, blocked
// transpose), the OpenMP ones splitting the outer loop across threads.
#include "host_kernels.h"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

namespace host {

int omp_threads() { return omp_get_max_threads(); }

static void matmul_rows(const float *a, const float *b, float *c, int n, int i) {
  float *ci = c + size_t(i) * n;
  std::fill(ci, ci + n, 0.0f);
  for (int k = 0; k < n; ++k) {
    const float aik = a[size_t(i) * n + k];
    const float *bk = b + size_t(k) * n;
    for (int j = 0; j < n; ++j) ci[j] += aik * bk[j];
  }
}

void matmul_serial(const float *a, const float *b, float *c, int n) {
  for (int i = 0; i < n; ++i) matmul_rows(a, b, c, n, i);
}

void matmul_omp(const float *a, const float *b, float *c, int n) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; ++i) matmul_rows(a, b, c, n, i);
}

static const int TB = 32; // transpose block

static void transpose_block_row(const float *in, float *out, int rows, int cols, int r0) {
  const int r1 = std::min(r0 + TB, rows);
  for (int c0 = 0; c0 < cols; c0 += TB) {
    const int c1 = std::min(c0 + TB, cols);
    for (int r = r0; r < r1; ++r)
      for (int c = c0; c < c1; ++c) out[size_t(c) * rows + r] = in[size_t(r) * cols + c];
  }
}

void transpose_serial(const float *in, float *out, int rows, int cols) {
  for (int r0 = 0; r0 < rows; r0 += TB) transpose_block_row(in, out, rows, cols, r0);
}

void transpose_omp(const float *in, float *out, int rows, int cols) {
#pragma omp parallel for schedule(static)
  for (int r0 = 0; r0 < rows; r0 += TB) transpose_block_row(in, out, rows, cols, r0);
}

// Accumulated in double: a float running sum of millions of elements drifts.
float reduce_serial(const float *v, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += v[i];
  return float(s);
}

float reduce_omp(const float *v, int n) {
  double s = 0.0;
#pragma omp parallel for reduction(+ : s) schedule(static)
  for (int i = 0; i < n; ++i) s += v[i];
  return float(s);
}

static void stencil_row(const float *in, float *out, int rows, int cols, int i) {
  const float *r = in + size_t(i) * cols;
  float *o = out + size_t(i) * cols;
  if (i == 0 || i == rows - 1) {
    std::memcpy(o, r, sizeof(float) * size_t(cols));
    return;
  }
  o[0] = r[0];
  for (int j = 1; j < cols - 1; ++j)
    o[j] = 0.25f * (r[j - cols] + r[j + cols] + r[j - 1] + r[j + 1]);
  o[cols - 1] = r[cols - 1];
}

void stencil_serial(const float *in, float *out, int rows, int cols) {
  for (int i = 0; i < rows; ++i) stencil_row(in, out, rows, cols, i);
}

void stencil_omp(const float *in, float *out, int rows, int cols) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < rows; ++i) stencil_row(in, out, rows, cols, i);
}

void scan_serial(const int *in, int *out, int n) {
  int running = 0;
  for (int i = 0; i < n; ++i) {
    out[i] = running;
    running += in[i];
  }
}

void scan_omp(const int *in, int *out, int n) {
  // Each thread scans its chunk, the chunk totals are scanned, then each
  // thread adds its chunk's offset.
  std::vector<int> totals(size_t(omp_get_max_threads()) + 1, 0);
#pragma omp parallel
  {
    const int t = omp_get_thread_num(), nt = omp_get_num_threads();
    const int lo = int(long(n) * t / nt), hi = int(long(n) * (t + 1) / nt);
    int running = 0;
    for (int i = lo; i < hi; ++i) {
      out[i] = running;
      running += in[i];
    }
    totals[t + 1] = running;
#pragma omp barrier
#pragma omp single
    for (int k = 1; k <= nt; ++k) totals[k] += totals[k - 1];
    const int offset = totals[t];
    for (int i = lo; i < hi; ++i) out[i] += offset;
  }
}

void histogram_serial(const unsigned *packed, int words, unsigned *bins) {
  std::fill(bins, bins + 256, 0u);
  for (int i = 0; i < words; ++i) {
    const unsigned w = packed[i];
    ++bins[w & 0xFF];
    ++bins[(w >> 8) & 0xFF];
    ++bins[(w >> 16) & 0xFF];
    ++bins[w >> 24];
  }
}

void histogram_omp(const unsigned *packed, int words, unsigned *bins) {
  std::fill(bins, bins + 256, 0u);
#pragma omp parallel
  {
    unsigned local[256] = {};
#pragma omp for schedule(static)
    for (int i = 0; i < words; ++i) {
      const unsigned w = packed[i];
      ++local[w & 0xFF];
      ++local[(w >> 8) & 0xFF];
      ++local[(w >> 16) & 0xFF];
      ++local[w >> 24];
    }
#pragma omp critical
    for (int b = 0; b < 256; ++b) bins[b] += local[b];
  }
}

static void nbody_body(const float *pos, const float *vel, float *new_pos, float *new_vel,
                       int n, nbody_params p, int i) {
  const float x = pos[4 * i], y = pos[4 * i + 1], z = pos[4 * i + 2];
  float fx = 0, fy = 0, fz = 0;
  for (int j = 0; j < n; ++j) {
    const float dx = pos[4 * j] - x, dy = pos[4 * j + 1] - y, dz = pos[4 * j + 2] - z;
    const float dist2 = dx * dx + dy * dy + dz * dz + p.softening_squared;
    const float inv = 1.0f / std::sqrt(dist2);
    const float s = pos[4 * j + 3] * inv * inv * inv;
    fx += dx * s;
    fy += dy * s;
    fz += dz * s;
  }
  const float f[3] = {fx, fy, fz};
  for (int c = 0; c < 3; ++c) {
    const float v = (vel[4 * i + c] + f[c] * p.delta_time) * p.damping;
    new_vel[4 * i + c] = v;
    new_pos[4 * i + c] = pos[4 * i + c] + v * p.delta_time;
  }
  new_vel[4 * i + 3] = vel[4 * i + 3];
  new_pos[4 * i + 3] = pos[4 * i + 3];
}

void nbody_serial(const float *pos, const float *vel, float *new_pos, float *new_vel, int n,
                  nbody_params p) {
  for (int i = 0; i < n; ++i) nbody_body(pos, vel, new_pos, new_vel, n, p, i);
}

void nbody_omp(const float *pos, const float *vel, float *new_pos, float *new_vel, int n,
               nbody_params p) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; ++i) nbody_body(pos, vel, new_pos, new_vel, n, p, i);
}

} // namespace host
