// CPU benchmark: the C++ AMP algorithms of examples/amp (their kernels, from
// examples/amp/*_kernel.h), the SYCL and Cilk Plus examples' matrix
// multiplies and the C for Metal N-body step (dialect_kernels.h), built by slmc++ and run on the runtime's
// CPU fallback (work-groups on a thread pool, as work-item loops), against a
// serial and an OpenMP version of the same algorithm (host_kernels.cpp,
// built by the system compiler) and the OpenCL C twins on PoCL
// (opencl_twins.h). Prints one table; every result is checked against the
// serial one.
//
//   cpu_bench [scale=1.0] [repetitions=3]
//
// scale multiplies the problem sizes (0.25 for a quick run). Each time is the
// best of `repetitions` runs after one warm-up run. Run through run.sh.
#include <amp.h>

#include "best_of.h"
#include "dialect_kernels.h"
#include "host_kernels.h"
#include "opencl_twins.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

using namespace concurrency;

// ---- The C++ AMP kernels: the examples' own ---------------------------------
// Each example's header names its tile size TS; a namespace apiece keeps them
// apart (the headers' own #includes are already done above).
namespace amp_matmul {
#include "../../examples/amp/matmul_kernel.h"
}
namespace amp_transpose {
#include "../../examples/amp/transpose_kernel.h"
}
namespace amp_reduction {
#include "../../examples/amp/reduction_kernel.h"
}
namespace amp_stencil {
#include "../../examples/amp/stencil_kernel.h"
}
namespace amp_scan {
#include "../../examples/amp/scan_kernel.h"
}
namespace amp_histogram {
#include "../../examples/amp/histogram_kernel.h"
}

// ---- Timing and the table --------------------------------------------------------
namespace {

int reps = 3;

/// The tree reduction over `a` (overwritten), `b` holding the partial sums.
float reduce_tree_in_place(array_view<float, 1> a, array_view<float, 1> b) {
  for (int n = a.extent[0]; n > 1;) {
    const int partials = (n + amp_reduction::TREE_TILE - 1) / amp_reduction::TREE_TILE;
    amp_reduction::ReduceTreePass(a.section(index<1>(0), extent<1>(n)),
                                  b.section(index<1>(0), extent<1>(partials)), n);
    n = partials;
    std::swap(a, b);
  }
  return a[0];
}

/// Best wall time of `reps` runs of f, in milliseconds, after one warm-up run.
template <class F> double best_ms(F f) { return best_of_ms(reps, f); }

struct Row {
  std::string name, size;
  double serial, omp, amp;
  bool ok;
  double pocl = -1; // the OpenCL C twin on PoCL; negative: not run
};
bool have_pocl = false;
std::vector<Row> rows;

/// The OpenCL C twins run after every other measurement, PoCL initialised
/// only then: its worker threads stay busy for a while after its kernels,
/// and whatever ran next shared the cores with them (slmc's stencil and the
/// OpenMP matrix multiply took twice as long after a PoCL run). Each twin
/// returns its time and whether its results are right.
struct Twin {
  size_t row;
  std::function<std::pair<double, bool>()> run;
};
std::vector<Twin> twins;
void twin(std::function<std::pair<double, bool>()> run) {
  twins.push_back({rows.size() - 1, std::move(run)});
}

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
    amp_matmul::MatrixMultiplyTiled(av, bv, cv, n);
    cv.synchronize();
  });
  rows.push_back({"matmul", std::to_string(n) + "x" + std::to_string(n), ts, to, ta,
                  close(c1, c0, 1e-4f) && close(c2, c0, 1e-4f)});
  twin([=] {
    std::vector<float> c3(c0.size());
    double tp = ocl::matmul(a.data(), b.data(), c3.data(), n);
    return std::make_pair(tp, close(c3, c0, 1e-4f));
  });
}

void bench_transpose(int rows_, int cols) {
  std::vector<float> in = pattern(size_t(rows_) * cols, 9973, 0.5f, 0.0f);
  std::vector<float> o0(in.size()), o1(in.size()), o2(in.size());
  double ts = best_ms([&] { host::transpose_serial(in.data(), o0.data(), rows_, cols); });
  double to = best_ms([&] { host::transpose_omp(in.data(), o1.data(), rows_, cols); });
  array_view<const float, 2> iv(rows_, cols, in);
  array_view<float, 2> ov(cols, rows_, o2);
  double ta = best_ms([&] {
    amp_transpose::TransposeTiled(iv, ov);
    ov.synchronize();
  });
  rows.push_back({"transpose", std::to_string(rows_) + "x" + std::to_string(cols), ts, to, ta,
                  o1 == o0 && o2 == o0});
  twin([=] {
    std::vector<float> o3(in.size());
    double tp = ocl::transpose(in.data(), o3.data(), rows_, cols);
    return std::make_pair(tp, o3 == o0);
  });
}

void bench_reduction(int n) {
  std::vector<float> v = pattern(size_t(n), 101, 0.125f, -6.0f);
  double ref = 0.0;
  for (float x : v) ref += x;
  float s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  double ts = best_ms([&] { s0 = host::reduce_serial(v.data(), n); });
  double to = best_ms([&] { s1 = host::reduce_omp(v.data(), n); });
  array_view<const float, 1> in(n, v);
  amp_reduction::CascadeBuffers cascade;
  double tc = best_ms([&] {
    amp_reduction::ReduceCascade(in, cascade.partial_v, cascade.total_v);
    s2 = cascade.sum();
  });
  std::vector<float> work(v.size()), spare((v.size() + 255) / 256);
  array_view<float, 1> wv(n, work), sv(int(spare.size()), spare);
  // The tree reduction's passes, here in place: each run starts from a copy
  // of the input (the copy is timed as well, about one pass over the data).
  double tt = best_ms([&] {
    copy(v.begin(), v.end(), wv);
    s3 = reduce_tree_in_place(wv, sv);
  });
  auto ok = [ref](double s) { return std::fabs(s - ref) <= 1e-5 * std::fabs(ref) + 1.0; };
  const std::string size = std::to_string(n);
  rows.push_back({"reduction (cascade)", size, ts, to, tc, ok(s0) && ok(s1) && ok(s2)});
  twin([=] {
    float s4 = 0;
    double tp = ocl::reduce_cascade(v.data(), n, s4);
    return std::make_pair(tp, ok(s4));
  });
  rows.push_back({"reduction (tree)", size, ts, to, tt, ok(s3)});
  twin([=] {
    float s5 = 0;
    double tp = ocl::reduce_tree(v.data(), n, s5);
    return std::make_pair(tp, ok(s5));
  });
}

void bench_stencil(int n, int sweeps) {
  const int r = n, c = n;
  const std::vector<float> g = amp_stencil::InitialGrid(r, c);
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
    for (int s = 0; s < sweeps; ++s) amp_stencil::JacobiSweep(s % 2 ? bv : av, s % 2 ? av : bv);
    (sweeps % 2 ? bv : av).synchronize();
  });
  const std::vector<float> &amp_result = sweeps % 2 ? b2 : a2;
  rows.push_back({"stencil (" + std::to_string(sweeps) + " sweeps)",
                  std::to_string(r) + "x" + std::to_string(c), ts, to, ta,
                  close(a1, a0, 1e-5f) && close(amp_result, a0, 1e-5f)});
  twin([=] {
    std::vector<float> a3(g.size());
    double tp = ocl::stencil(g.data(), a3.data(), r, c, sweeps);
    return std::make_pair(tp, close(a3, a0, 1e-5f));
  });
}

void bench_scan(int n) {
  std::vector<int> in(n), o0(n), o1(n), o2(n);
  for (int i = 0; i < n; ++i) in[i] = (i * 7 + 3) % 10;
  double ts = best_ms([&] { host::scan_serial(in.data(), o0.data(), n); });
  double to = best_ms([&] { host::scan_omp(in.data(), o1.data(), n); });
  array_view<const int, 1> iv(n, in);
  array_view<int, 1> ov(n, o2);
  double ta = best_ms([&] {
    amp_scan::ScanScratch scratch(n);
    amp_scan::ScanExclusive(iv, ov, scratch);
    ov.synchronize();
  });
  rows.push_back({"scan", std::to_string(n), ts, to, ta, o1 == o0 && o2 == o0});
  twin([=] {
    std::vector<int> o3(n);
    double tp = ocl::scan(in.data(), o3.data(), n);
    return std::make_pair(tp, o3 == o0);
  });
}

void bench_histogram(int bytes) {
  std::vector<unsigned> counts;
  const std::vector<unsigned> packed = amp_histogram::HistogramInput(bytes, counts);
  const int words = int(packed.size());
  std::vector<unsigned> h0(256), h1(256), h2(256);
  double ts = best_ms([&] { host::histogram_serial(packed.data(), words, h0.data()); });
  double to = best_ms([&] { host::histogram_omp(packed.data(), words, h1.data()); });
  array_view<const unsigned, 1> dv(words, packed);
  array_view<unsigned, 1> hv(256, h2);
  double ta = best_ms([&] {
    // The example's kernel adds to the bins: clear them first.
    parallel_for_each(hv.extent, [=](index<1> idx) restrict(amp) { hv[idx] = 0; });
    amp_histogram::Histogram(dv, hv);
    hv.synchronize();
  });
  rows.push_back({"histogram", std::to_string(bytes >> 20) + " MiB", ts, to, ta,
                  h1 == h0 && h2 == h0});
  twin([=] {
    std::vector<unsigned> h3(256);
    double tp = ocl::histogram(packed.data(), words, h3.data());
    return std::make_pair(tp, h3 == h0);
  });
}

/// The other dialects' matrix multiplies (dialect_kernels.h), against the
/// same serial and OpenMP references and their own OpenCL C twins.
void bench_dialect_matmuls(int n) {
  for (int cilk = 0; cilk < 2; ++cilk) {
    const int size = cilk ? dialects::cilk_matmul_n : n;
    std::vector<float> a = pattern(size_t(size) * size, 13, 0.25f, -1.5f);
    std::vector<float> b = pattern(size_t(size) * size, 11, 0.5f, -2.5f);
    std::vector<float> c0(a.size()), c1(a.size()), c2(a.size()), c3(a.size());
    double ts = best_ms([&] { host::matmul_serial(a.data(), b.data(), c0.data(), size); });
    double to = best_ms([&] { host::matmul_omp(a.data(), b.data(), c1.data(), size); });
    double td = cilk ? dialects::cilk_matmul(a.data(), b.data(), c2.data(), reps)
                     : dialects::sycl_matmul(a.data(), b.data(), c2.data(), size, reps);
    rows.push_back({cilk ? "matmul (Cilk Plus)" : "matmul (SYCL)",
                    std::to_string(size) + "x" + std::to_string(size), ts, to, td,
                    close(c1, c0, 1e-4f) && close(c2, c0, 1e-4f)});
    twin([=]() mutable {
      double tp = cilk ? ocl::cilk_matmul(a.data(), b.data(), c3.data(), size)
                       : ocl::sycl_matmul(a.data(), b.data(), c3.data(), size);
      return std::make_pair(tp, close(c3, c0, 1e-4f));
    });
  }
}

/// The C for Metal N-body step (dialect_kernels.h): the kernel program
/// comes from run.sh (SLMC_BENCH_CM_PROGRAM).
void bench_cm_nbody(int bodies) {
  const char *isa = std::getenv("SLMC_BENCH_CM_PROGRAM");
  if (!isa) {
    std::printf("C for Metal N-body: not run (SLMC_BENCH_CM_PROGRAM is not set)\n");
    return;
  }
  const int group = 128;
  dialects::cm_nbody_result cm = dialects::cm_nbody(isa, bodies, group, reps);
  const host::nbody_params p{cm.delta_time, cm.damping, cm.softening_squared};
  std::vector<float> p0(cm.pos.size()), v0(p0.size()), p1(p0.size()), v1(p0.size()),
      p3(p0.size()), v3(p0.size());
  double ts = best_ms([&] {
    host::nbody_serial(cm.pos.data(), cm.vel.data(), p0.data(), v0.data(), bodies, p);
  });
  double to = best_ms([&] {
    host::nbody_omp(cm.pos.data(), cm.vel.data(), p1.data(), v1.data(), bodies, p);
  });
  rows.push_back({"n-body (C for Metal)", std::to_string(bodies), ts, to, cm.ms,
                  close(p1, p0, 1e-4f) && close(v1, v0, 1e-4f) && close(cm.new_pos, p0, 1e-3f) &&
                      close(cm.new_vel, v0, 1e-3f)});
  twin([=]() mutable {
    double tp = ocl::cm_nbody(cm.pos.data(), cm.vel.data(), p3.data(), v3.data(), bodies, group,
                              p.delta_time, p.damping, p.softening_squared);
    return std::make_pair(tp, close(p3, p0, 1e-3f) && close(v3, v0, 1e-3f));
  });
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
    // SLMC_BENCH_ONLY=<word>: only the groups of rows whose name contains
    // it (matmul, transpose, reduction, stencil, scan, histogram, dialect,
    // nbody), e.g. to profile one kernel.
    const char *only = std::getenv("SLMC_BENCH_ONLY");
    auto want = [only](const char *group) { return !only || std::strstr(group, only); };
    if (want("matmul"))
      bench_matmul(sized(384, 16));
    if (want("transpose"))
      bench_transpose(sized(1536, 1), sized(1536, 1) + 3);
    if (want("reduction"))
      bench_reduction(sized(1 << 22, 1));
    if (want("stencil"))
      bench_stencil(sized(768, 1), 10);
    if (want("scan"))
      bench_scan(sized(1 << 21, 1));
    if (want("histogram"))
      bench_histogram(sized(1 << 25, 1 << 20));
    if (want("dialect matmuls"))
      bench_dialect_matmuls(sized(384, 16));
    if (want("cm nbody"))
      bench_cm_nbody(sized(8192, 2048));
    if (rows.empty()) {
      std::fprintf(stderr, "cpu_bench: SLMC_BENCH_ONLY=%s names no benchmark\n", only);
      return 2;
    }
    // Now PoCL, and the twins.
    std::string device, why;
    const char *cl_dir = std::getenv("SLMC_BENCH_CL_DIR");
    have_pocl = cl_dir && ocl::init(cl_dir, reps, device, why);
    if (have_pocl)
      std::printf("OpenCL C twins on: %s\n", device.c_str());
    else
      std::printf("OpenCL C twins: not run (%s)\n",
                  cl_dir ? why.c_str() : "SLMC_BENCH_CL_DIR is not set");
    for (Twin &T : twins) {
      if (!have_pocl)
        break;
      auto [tp, right] = T.run();
      rows[T.row].pocl = tp;
      rows[T.row].ok = rows[T.row].ok && right;
    }
  } catch (const runtime_exception &e) {
    std::fprintf(stderr, "cpu_bench: %s\n", e.what());
    return 1;
  }

  bool all_ok = true;
  std::printf("\n%-21s %-11s %10s %10s %10s %10s %9s %9s %9s %s\n", "algorithm", "size",
              "serial ms", "OpenMP ms", "PoCL ms", "slmc ms", "slmc/ser.", "slmc/OMP",
              "slmc/PoCL", "check");
  double log_omp = 0, log_pocl = 0;
  for (const Row &r : rows) {
    char pocl[16] = "n/a", ratio[16] = "n/a";
    if (r.pocl >= 0) {
      std::snprintf(pocl, sizeof pocl, "%.2f", r.pocl);
      std::snprintf(ratio, sizeof ratio, "%.2f", r.amp / r.pocl);
      log_pocl += std::log(r.amp / r.pocl);
    }
    log_omp += std::log(r.amp / r.omp);
    std::printf("%-21s %-11s %10.2f %10.2f %10s %10.2f %9.2f %9.2f %9s %s\n", r.name.c_str(),
                r.size.c_str(), r.serial, r.omp, pocl, r.amp, r.amp / r.serial, r.amp / r.omp,
                ratio, r.ok ? "ok" : "WRONG");
    all_ok = all_ok && r.ok;
  }
  const double count = double(rows.size());
  std::printf("geometric mean: slmc/OMP %.2f", std::exp(log_omp / count));
  if (have_pocl)
    std::printf(", slmc/PoCL %.2f", std::exp(log_pocl / count));
  std::printf("\n(best of %d runs; C++ AMP unless the row names another dialect; ratios: "
              "slmc's CPU fallback time over the other's, below 1 = slmc faster)\n",
              reps);
  return all_ok ? 0 : 1;
}
