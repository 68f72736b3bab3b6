// CPU benchmark: the C++ AMP algorithms of examples/amp, built by slmc++ and
// run on the runtime's CPU fallback (work-groups on a thread pool, work-items
// as fibers), against a serial and an OpenMP version of the same algorithm
// (host_kernels.cpp, built by the system compiler). Prints one table; every
// result is checked against the serial one.
//
//   cpu_bench [scale=1.0] [repetitions=3]
//
// scale multiplies the problem sizes (0.25 for a quick run). Each time is the
// best of `repetitions` runs after one warm-up run. Run through run.sh.
#include <amp.h>

#include "host_kernels.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace concurrency;

// ---- The C++ AMP kernels (as in examples/amp) ----------------------------------
namespace amp_kernels {

static const int TS = 16;

void matmul(array_view<const float, 2> a, array_view<const float, 2> b,
            array_view<float, 2> c) {
  const int W = a.extent[1];
  parallel_for_each(c.extent.tile<TS, TS>(), [=](tiled_index<TS, TS> t_idx) restrict(amp) {
    const int row = t_idx.local[0], col = t_idx.local[1];
    float sum = 0.0f;
    for (int i = 0; i < W; i += TS) {
      tile_static float locA[TS][TS];
      tile_static float locB[TS][TS];
      locA[row][col] = a(t_idx.global[0], col + i);
      locB[row][col] = b(row + i, t_idx.global[1]);
      t_idx.barrier.wait();
      for (int k = 0; k < TS; k++) sum += locA[row][k] * locB[k][col];
      t_idx.barrier.wait();
    }
    c[t_idx.global] = sum;
  });
}

void transpose(array_view<const float, 2> in, array_view<float, 2> out) {
  parallel_for_each(in.extent.tile<TS, TS>().pad(), [=](tiled_index<TS, TS> t_idx) restrict(amp) {
    tile_static float block[TS][TS + 1];
    const int r = t_idx.local[0], c = t_idx.local[1];
    if (in.extent.contains(t_idx.global)) block[r][c] = in[t_idx.global];
    t_idx.barrier.wait();
    index<2> dst(t_idx.tile_origin[1] + r, t_idx.tile_origin[0] + c);
    if (out.extent.contains(dst)) out[dst] = block[c][r];
  });
}

static const int RT = 256;      // tree reduction tile
static const int CT = 512;      // cascading reduction tile
static const int CTILES = 64;   // cascading reduction tiles

/// Tree reduction: passes of 256-element tile sums until one value is left.
/// `a` holds the data (and is overwritten), `b` has room for the partials.
float reduce_tree(array_view<float, 1> a, array_view<float, 1> b) {
  int n = a.extent[0];
  while (n > 1) {
    const int partials = (n + RT - 1) / RT, len = n;
    array_view<const float, 1> in = a.section(index<1>(0), extent<1>(n));
    array_view<float, 1> out = b.section(index<1>(0), extent<1>(partials));
    parallel_for_each(extent<1>(n).tile<RT>().pad(), [=](tiled_index<RT> t_idx) restrict(amp) {
      tile_static float sums[RT];
      const int tid = t_idx.local[0], gid = t_idx.global[0];
      sums[tid] = gid < len ? in[gid] : 0.0f;
      t_idx.barrier.wait();
      for (int stride = RT / 2; stride > 0; stride /= 2) {
        if (tid < stride) sums[tid] += sums[tid + stride];
        t_idx.barrier.wait();
      }
      if (tid == 0) out[t_idx.tile[0]] = sums[0];
    });
    n = partials;
    std::swap(a, b);
  }
  return a[0];
}

/// Cascading reduction: strided per-thread sums, one tree per tile, a final
/// single-tile pass.
float reduce_cascade(array_view<const float, 1> in, array_view<float, 1> partial) {
  const int n = in.extent[0];
  parallel_for_each(extent<1>(CTILES * CT).tile<CT>(), [=](tiled_index<CT> t_idx) restrict(amp) {
    tile_static float sums[CT];
    const int tid = t_idx.local[0];
    float sum = 0.0f;
    for (int i = t_idx.global[0]; i < n; i += CTILES * CT) sum += in[i];
    sums[tid] = sum;
    t_idx.barrier.wait();
    for (int stride = CT / 2; stride > 0; stride /= 2) {
      if (tid < stride) sums[tid] += sums[tid + stride];
      t_idx.barrier.wait();
    }
    if (tid == 0) partial[t_idx.tile[0]] = sums[0];
  });
  parallel_for_each(extent<1>(CTILES).tile<CTILES>(), [=](tiled_index<CTILES> t_idx) restrict(amp) {
    tile_static float sums[CTILES];
    const int tid = t_idx.local[0];
    sums[tid] = partial[tid];
    t_idx.barrier.wait();
    for (int stride = CTILES / 2; stride > 0; stride /= 2) {
      if (tid < stride) sums[tid] += sums[tid + stride];
      t_idx.barrier.wait();
    }
    if (tid == 0) partial[0] = sums[0];
  });
  return partial[0];
}

void stencil(array_view<const float, 2> in, array_view<float, 2> out) {
  const int rows = in.extent[0], cols = in.extent[1];
  parallel_for_each(in.extent.tile<TS, TS>().pad(), [=](tiled_index<TS, TS> t_idx) restrict(amp) {
    tile_static float tile[TS + 2][TS + 2];
    const int r = t_idx.local[0], c = t_idx.local[1];
    const int gr = t_idx.global[0] < rows ? t_idx.global[0] : rows - 1;
    const int gc = t_idx.global[1] < cols ? t_idx.global[1] : cols - 1;
    const int up = gr > 0 ? gr - 1 : 0, down = gr + 1 < rows ? gr + 1 : gr;
    const int left = gc > 0 ? gc - 1 : 0, right = gc + 1 < cols ? gc + 1 : gc;
    tile[r + 1][c + 1] = in(gr, gc);
    if (r == 0) tile[0][c + 1] = in(up, gc);
    if (r == TS - 1) tile[TS + 1][c + 1] = in(down, gc);
    if (c == 0) tile[r + 1][0] = in(gr, left);
    if (c == TS - 1) tile[r + 1][TS + 1] = in(gr, right);
    t_idx.barrier.wait();
    const int i = t_idx.global[0], j = t_idx.global[1];
    if (i >= rows || j >= cols) return;
    if (i == 0 || j == 0 || i == rows - 1 || j == cols - 1)
      out(i, j) = tile[r + 1][c + 1];
    else
      out(i, j) = 0.25f * (tile[r][c + 1] + tile[r + 2][c + 1] + tile[r + 1][c] +
                           tile[r + 1][c + 2]);
  });
}

static const int ST = 256, SB = 2 * ST; // scan tile, block

void scan(array_view<const int, 1> input, array_view<int, 1> output) {
  const int n = input.extent[0];
  const int blocks = (n + SB - 1) / SB;
  array<int, 1> block_sums(blocks);
  array_view<int, 1> sums(block_sums);
  parallel_for_each(extent<1>(blocks * ST).tile<ST>(), [=](tiled_index<ST> t_idx) restrict(amp) {
    tile_static int temp[SB];
    const int tid = t_idx.local[0], base = t_idx.tile[0] * SB;
    temp[2 * tid] = base + 2 * tid < n ? input[base + 2 * tid] : 0;
    temp[2 * tid + 1] = base + 2 * tid + 1 < n ? input[base + 2 * tid + 1] : 0;
    int offset = 1;
    for (int d = SB / 2; d > 0; d /= 2) {
      t_idx.barrier.wait();
      if (tid < d) temp[offset * (2 * tid + 2) - 1] += temp[offset * (2 * tid + 1) - 1];
      offset *= 2;
    }
    if (tid == 0) {
      sums[t_idx.tile[0]] = temp[SB - 1];
      temp[SB - 1] = 0;
    }
    for (int d = 1; d < SB; d *= 2) {
      offset /= 2;
      t_idx.barrier.wait();
      if (tid < d) {
        const int ai = offset * (2 * tid + 1) - 1, bi = offset * (2 * tid + 2) - 1;
        const int left = temp[ai];
        temp[ai] = temp[bi];
        temp[bi] += left;
      }
    }
    t_idx.barrier.wait();
    if (base + 2 * tid < n) output[base + 2 * tid] = temp[2 * tid];
    if (base + 2 * tid + 1 < n) output[base + 2 * tid + 1] = temp[2 * tid + 1];
  });
  if (blocks == 1) return;
  array<int, 1> block_offsets(blocks);
  array_view<int, 1> offsets(block_offsets);
  scan(sums, offsets);
  parallel_for_each(output.extent, [=](index<1> idx) restrict(amp) {
    output[idx] += offsets[idx[0] / SB];
  });
}

static const int HT = 256, HTILES = 64;

void histogram(array_view<const unsigned, 1> data, array_view<unsigned, 1> bins) {
  const int words = data.extent[0];
  parallel_for_each(bins.extent, [=](index<1> idx) restrict(amp) { bins[idx] = 0; });
  parallel_for_each(extent<1>(HTILES * HT).tile<HT>(), [=](tiled_index<HT> t_idx) restrict(amp) {
    tile_static unsigned local_hist[256];
    const int tid = t_idx.local[0];
    local_hist[tid] = 0;
    t_idx.barrier.wait();
    for (int i = t_idx.global[0]; i < words; i += HTILES * HT) {
      const unsigned w = data[i];
      atomic_fetch_inc(&local_hist[w & 0xFF]);
      atomic_fetch_inc(&local_hist[(w >> 8) & 0xFF]);
      atomic_fetch_inc(&local_hist[(w >> 16) & 0xFF]);
      atomic_fetch_inc(&local_hist[w >> 24]);
    }
    t_idx.barrier.wait();
    if (local_hist[tid] != 0) atomic_fetch_add(&bins[tid], local_hist[tid]);
  });
}

} // namespace amp_kernels

// ---- Timing and the table --------------------------------------------------------
namespace {

int reps = 3;

/// Best wall time of `reps` runs of f, in milliseconds, after one warm-up run.
template <class F> double best_ms(F f) {
  f();
  double best = 1e300;
  for (int r = 0; r < reps; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    f();
    auto t1 = std::chrono::steady_clock::now();
    best = std::min(best, std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  return best;
}

struct Row {
  std::string name, size;
  double serial, omp, amp;
  bool ok;
};
std::vector<Row> rows;

bool close(const std::vector<float> &a, const std::vector<float> &b, float tol) {
  for (size_t i = 0; i < a.size(); ++i)
    if (std::fabs(a[i] - b[i]) > tol * (1.0f + std::fabs(b[i]))) return false;
  return true;
}

std::vector<float> pattern(size_t n, int mod, float scale, float shift) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = float(int(i * 7 % mod)) * scale + shift;
  return v;
}

void bench_matmul(int n) {
  std::vector<float> a = pattern(size_t(n) * n, 13, 0.25f, -1.5f);
  std::vector<float> b = pattern(size_t(n) * n, 11, 0.5f, -2.5f);
  std::vector<float> c0(size_t(n) * n), c1(c0.size()), c2(c0.size());
  double ts = best_ms([&] { host::matmul_serial(a.data(), b.data(), c0.data(), n); });
  double to = best_ms([&] { host::matmul_omp(a.data(), b.data(), c1.data(), n); });
  array_view<const float, 2> av(n, n, a), bv(n, n, b);
  array_view<float, 2> cv(n, n, c2);
  double ta = best_ms([&] {
    amp_kernels::matmul(av, bv, cv);
    cv.synchronize();
  });
  rows.push_back({"matmul", std::to_string(n) + "x" + std::to_string(n), ts, to, ta,
                  close(c1, c0, 1e-4f) && close(c2, c0, 1e-4f)});
}

void bench_transpose(int rows_, int cols) {
  std::vector<float> in = pattern(size_t(rows_) * cols, 9973, 0.5f, 0.0f);
  std::vector<float> o0(in.size()), o1(in.size()), o2(in.size());
  double ts = best_ms([&] { host::transpose_serial(in.data(), o0.data(), rows_, cols); });
  double to = best_ms([&] { host::transpose_omp(in.data(), o1.data(), rows_, cols); });
  array_view<const float, 2> iv(rows_, cols, in);
  array_view<float, 2> ov(cols, rows_, o2);
  double ta = best_ms([&] {
    amp_kernels::transpose(iv, ov);
    ov.synchronize();
  });
  rows.push_back({"transpose", std::to_string(rows_) + "x" + std::to_string(cols), ts, to, ta,
                  o1 == o0 && o2 == o0});
}

void bench_reduction(int n) {
  std::vector<float> v = pattern(size_t(n), 101, 0.125f, -6.0f);
  double ref = 0.0;
  for (float x : v) ref += x;
  float s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  double ts = best_ms([&] { s0 = host::reduce_serial(v.data(), n); });
  double to = best_ms([&] { s1 = host::reduce_omp(v.data(), n); });
  array_view<const float, 1> in(n, v);
  array<float, 1> partial(64);
  array_view<float, 1> pv(partial);
  double tc = best_ms([&] { s2 = amp_kernels::reduce_cascade(in, pv); });
  std::vector<float> work(v.size()), spare((v.size() + 255) / 256);
  array_view<float, 1> wv(n, work), sv(int(spare.size()), spare);
  // The tree reduction overwrites its input: each run starts from a copy
  // (the copy is timed as well, about one pass over the data).
  double tt = best_ms([&] {
    copy(v.begin(), v.end(), wv);
    s3 = amp_kernels::reduce_tree(wv, sv);
  });
  auto ok = [&](double s) { return std::fabs(s - ref) <= 1e-5 * std::fabs(ref) + 1.0; };
  const std::string size = std::to_string(n);
  rows.push_back({"reduction (cascade)", size, ts, to, tc, ok(s0) && ok(s1) && ok(s2)});
  rows.push_back({"reduction (tree)", size, ts, to, tt, ok(s3)});
}

void bench_stencil(int n, int sweeps) {
  const int r = n, c = n;
  std::vector<float> g(size_t(r) * c, 0.0f);
  for (int i = 0; i < r; ++i) g[size_t(i) * c] = 100.0f;
  for (int i = r / 3; i < r / 2; ++i)
    for (int j = c / 3; j < c / 2; ++j) g[size_t(i) * c + j] = 50.0f;
  std::vector<float> a0, a1, a2, b(g.size());
  auto run_host = [&](std::vector<float> &a, void (*sweep)(const float *, float *, int, int)) {
    a = g;
    for (int s = 0; s < sweeps; ++s) {
      sweep(a.data(), b.data(), r, c);
      a.swap(b);
    }
  };
  double ts = best_ms([&] { run_host(a0, host::stencil_serial); });
  double to = best_ms([&] { run_host(a1, host::stencil_omp); });
  a2 = g;
  std::vector<float> b2(g.size());
  array_view<float, 2> av(r, c, a2), bv(r, c, b2);
  double ta = best_ms([&] {
    copy(g.begin(), g.end(), av);
    for (int s = 0; s < sweeps; ++s) amp_kernels::stencil(s % 2 ? bv : av, s % 2 ? av : bv);
    (sweeps % 2 ? bv : av).synchronize();
  });
  const std::vector<float> &amp_result = sweeps % 2 ? b2 : a2;
  rows.push_back({"stencil (" + std::to_string(sweeps) + " sweeps)",
                  std::to_string(r) + "x" + std::to_string(c), ts, to, ta,
                  close(a1, a0, 1e-5f) && close(amp_result, a0, 1e-5f)});
}

void bench_scan(int n) {
  std::vector<int> in(n), o0(n), o1(n), o2(n);
  for (int i = 0; i < n; ++i) in[i] = (i * 7 + 3) % 10;
  double ts = best_ms([&] { host::scan_serial(in.data(), o0.data(), n); });
  double to = best_ms([&] { host::scan_omp(in.data(), o1.data(), n); });
  array_view<const int, 1> iv(n, in);
  array_view<int, 1> ov(n, o2);
  double ta = best_ms([&] {
    amp_kernels::scan(iv, ov);
    ov.synchronize();
  });
  rows.push_back({"scan", std::to_string(n), ts, to, ta, o1 == o0 && o2 == o0});
}

void bench_histogram(int bytes) {
  std::vector<unsigned> packed(bytes / 4);
  unsigned seed = 2024;
  for (auto &w : packed) {
    w = 0;
    for (int k = 0; k < 4; ++k) {
      seed = seed * 1103515245u + 12345u;
      w |= ((((seed >> 16) & 0xFF) + ((seed >> 24) & 0xFF)) / 2) << (8 * k);
    }
  }
  const int words = int(packed.size());
  std::vector<unsigned> h0(256), h1(256), h2(256);
  double ts = best_ms([&] { host::histogram_serial(packed.data(), words, h0.data()); });
  double to = best_ms([&] { host::histogram_omp(packed.data(), words, h1.data()); });
  array_view<const unsigned, 1> dv(words, packed);
  array_view<unsigned, 1> hv(256, h2);
  double ta = best_ms([&] {
    amp_kernels::histogram(dv, hv);
    hv.synchronize();
  });
  rows.push_back({"histogram", std::to_string(bytes >> 20) + " MiB", ts, to, ta,
                  h1 == h0 && h2 == h0});
}

} // namespace

int main(int argc, char **argv) {
  const double scale = argc > 1 ? std::atof(argv[1]) : 1.0;
  reps = argc > 2 ? std::atoi(argv[2]) : 3;
  if (scale <= 0 || reps <= 0) {
    std::fprintf(stderr, "usage: cpu_bench [scale=1.0] [repetitions=3]\n");
    return 2;
  }
  auto sized = [scale](double n, int multiple) {
    int v = int(n * scale / multiple) * multiple;
    return v < multiple ? multiple : v;
  };
  try {
    accelerator::set_default(accelerator::cpu_accelerator);
    accelerator acc;
    std::printf("C++ AMP device: %ls; OpenMP threads: %d\n", acc.get_description().c_str(),
                host::omp_threads());
    bench_matmul(sized(384, 16));
    bench_transpose(sized(1536, 1), sized(1536, 1) + 3);
    bench_reduction(sized(1 << 22, 1));
    bench_stencil(sized(768, 1), 10);
    bench_scan(sized(1 << 21, 1));
    bench_histogram(sized(1 << 25, 1 << 20));
  } catch (const runtime_exception &e) {
    std::fprintf(stderr, "cpu_bench: %s\n", e.what());
    return 1;
  }

  bool all_ok = true;
  std::printf("\n%-21s %-11s %10s %10s %10s %9s %9s %s\n", "algorithm", "size", "serial ms",
              "OpenMP ms", "AMP ms", "AMP/ser.", "AMP/OMP", "check");
  for (const Row &r : rows) {
    std::printf("%-21s %-11s %10.2f %10.2f %10.2f %9.2f %9.2f %s\n", r.name.c_str(),
                r.size.c_str(), r.serial, r.omp, r.amp, r.amp / r.serial, r.amp / r.omp,
                r.ok ? "ok" : "WRONG");
    all_ok = all_ok && r.ok;
  }
  std::printf("(best of %d runs; AMP/ser. and AMP/OMP: C++ AMP time over the other, "
              "below 1 = AMP faster)\n",
              reps);
  return all_ok ? 0 : 1;
}
