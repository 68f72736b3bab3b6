// The math of <amp_math.h> in a kernel, against the host's <cmath>:
// precise_math in float and double, fast_math in float. Prints the largest
// error of each function (in units in the last place for precise_math,
// relative for fast_math) and fails if one exceeds its bound. Build with
// -DSLMC_AMP_SOFT_MATH to check, on the CPU, the software library that the
// PTX pass uses.
#include <amp.h>
#include <amp_math.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <vector>

using namespace concurrency;

static const int FUNCS = 16;
static const char *const NAMES[FUNCS] = {"sqrt", "rsqrt", "exp", "exp2", "log", "log2",
                                         "log10", "pow", "sin", "cos", "tan", "atan2",
                                         "tanh", "cbrt", "fmod", "floor"};

// Errors in units in the last place of T.
template <class T> double ulps(T got, double want) {
  if (std::isnan(want)) return std::isnan(got) ? 0.0 : 1e9;
  if (std::isinf(want)) return double(got) == want ? 0.0 : 1e9;
  int e;
  std::frexp(want == 0.0 ? double(std::numeric_limits<T>::min()) : want, &e);
  int digits = std::numeric_limits<T>::digits;
  int min_exp = std::numeric_limits<T>::min_exponent - digits;
  return std::fabs(double(got) - want) / std::ldexp(1.0, std::max(e - digits, min_exp));
}

// The host's double functions, in the order of NAMES.
static void reference(double d, double *r) {
  const double ref[FUNCS] = {std::sqrt(d), 1.0 / std::sqrt(d), std::exp(d * 0.05),
                             std::exp2(d * 0.05), std::log(d), std::log2(d), std::log10(d),
                             std::pow(d, 1.7), std::sin(d), std::cos(d), std::tan(d),
                             std::atan2(d, 3.0), std::tanh(d * 0.1), std::cbrt(d),
                             std::fmod(d, 1.25), std::floor(d)};
  for (int k = 0; k < FUNCS; ++k) r[k] = ref[k];
}

int main(int argc, char **argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 4096;
  if (n <= 0) {
    std::fprintf(stderr, "math: size must be positive\n");
    return 2;
  }
  std::vector<float> xf(n);
  std::vector<double> xd(n);
  for (int i = 0; i < n; ++i) {
    // Positive arguments from about 1e-3 to 200.
    double golden = i * 0.6180339887498949 - std::floor(i * 0.6180339887498949);
    xd[i] = 1e-3 + 200.0 * golden * golden;
    xf[i] = float(xd[i]);
  }
  std::vector<float> pf(size_t(n) * FUNCS), ff(size_t(n) * FUNCS);
  std::vector<double> pd(size_t(n) * FUNCS);

  try {
    array_view<const float, 1> in_f(n, xf);
    array_view<const double, 1> in_d(n, xd);
    array_view<float, 2> out_pf(n, FUNCS, pf), out_ff(n, FUNCS, ff);
    array_view<double, 2> out_pd(n, FUNCS, pd);
    out_pf.discard_data();
    out_ff.discard_data();
    out_pd.discard_data();
    parallel_for_each(in_f.extent, [=](index<1> idx) restrict(amp) {
      const int i = idx[0];
      const float x = in_f[idx];
      const double d = in_d[idx];
      int k = 0;
      out_pf(i, k++) = precise_math::sqrt(x);
      out_pf(i, k++) = precise_math::rsqrt(x);
      out_pf(i, k++) = precise_math::exp(x * 0.05f);
      out_pf(i, k++) = precise_math::exp2(x * 0.05f);
      out_pf(i, k++) = precise_math::log(x);
      out_pf(i, k++) = precise_math::log2(x);
      out_pf(i, k++) = precise_math::log10(x);
      out_pf(i, k++) = precise_math::pow(x, 1.7f);
      out_pf(i, k++) = precise_math::sin(x);
      out_pf(i, k++) = precise_math::cos(x);
      out_pf(i, k++) = precise_math::tan(x);
      out_pf(i, k++) = precise_math::atan2(x, 3.0f);
      out_pf(i, k++) = precise_math::tanh(x * 0.1f);
      out_pf(i, k++) = precise_math::cbrt(x);
      out_pf(i, k++) = precise_math::fmod(x, 1.25f);
      out_pf(i, k++) = precise_math::floor(x);
      k = 0;
      out_pd(i, k++) = precise_math::sqrt(d);
      out_pd(i, k++) = precise_math::rsqrt(d);
      out_pd(i, k++) = precise_math::exp(d * 0.05);
      out_pd(i, k++) = precise_math::exp2(d * 0.05);
      out_pd(i, k++) = precise_math::log(d);
      out_pd(i, k++) = precise_math::log2(d);
      out_pd(i, k++) = precise_math::log10(d);
      out_pd(i, k++) = precise_math::pow(d, 1.7);
      out_pd(i, k++) = precise_math::sin(d);
      out_pd(i, k++) = precise_math::cos(d);
      out_pd(i, k++) = precise_math::tan(d);
      out_pd(i, k++) = precise_math::atan2(d, 3.0);
      out_pd(i, k++) = precise_math::tanh(d * 0.1);
      out_pd(i, k++) = precise_math::cbrt(d);
      out_pd(i, k++) = precise_math::fmod(d, 1.25);
      out_pd(i, k++) = precise_math::floor(d);
      k = 0;
      out_ff(i, k++) = fast_math::sqrt(x);
      out_ff(i, k++) = fast_math::rsqrt(x);
      out_ff(i, k++) = fast_math::exp(x * 0.05f);
      out_ff(i, k++) = fast_math::exp2(x * 0.05f);
      out_ff(i, k++) = fast_math::log(x);
      out_ff(i, k++) = fast_math::log2(x);
      out_ff(i, k++) = fast_math::log10(x);
      out_ff(i, k++) = fast_math::pow(x, 1.7f);
      out_ff(i, k++) = fast_math::sin(x);
      out_ff(i, k++) = fast_math::cos(x);
      out_ff(i, k++) = fast_math::tan(x * 0.005f); // away from the poles
      out_ff(i, k++) = fast_math::atan2(x, 3.0f);
      out_ff(i, k++) = fast_math::tanh(x * 0.1f);
      out_ff(i, k++) = precise_math::cbrt(x); // fast_math has no cbrt
      out_ff(i, k++) = fast_math::fmod(x, 1.25f);
      out_ff(i, k++) = fast_math::floor(x);
    });
    out_pf.synchronize();
    out_pd.synchronize();
    out_ff.synchronize();
  } catch (const runtime_exception &e) {
    std::fprintf(stderr, "math: %s\n", e.what());
    return 1;
  }

  double worst_pf[FUNCS] = {}, worst_pd[FUNCS] = {}, worst_ff[FUNCS] = {};
  for (int i = 0; i < n; ++i) {
    double rd[FUNCS];
    reference(xd[i], rd);
    // The float results against double arithmetic on the same float inputs.
    const double xr = double(xf[i]);
    const double exact_f[FUNCS] = {std::sqrt(xr), 1.0 / std::sqrt(xr),
                                   std::exp(double(xf[i] * 0.05f)),
                                   std::exp2(double(xf[i] * 0.05f)), std::log(xr),
                                   std::log2(xr), std::log10(xr), std::pow(xr, double(1.7f)),
                                   std::sin(xr), std::cos(xr), std::tan(xr),
                                   std::atan2(xr, 3.0), std::tanh(double(xf[i] * 0.1f)),
                                   std::cbrt(xr), std::fmod(xr, 1.25), std::floor(xr)};
    for (int k = 0; k < FUNCS; ++k) {
      size_t at = size_t(i) * FUNCS + k;
      worst_pf[k] = std::max(worst_pf[k], ulps<float>(pf[at], exact_f[k]));
      worst_pd[k] = std::max(worst_pd[k], ulps<double>(pd[at], rd[k]));
      const double fast_ref = k == 10 ? std::tan(double(xf[i] * 0.005f)) : exact_f[k];
      const double err = std::fabs(double(ff[at]) - fast_ref) / std::max(1.0, std::fabs(fast_ref));
      worst_ff[k] = std::max(worst_ff[k], err);
    }
  }

  // precise_math within 4 ulp (the host's own functions are not exact
  // either), fast_math within 1e-3, relative to the result or to 1,
  // whichever is larger (approximate instructions have absolute errors).
  int bad = 0;
  std::printf("%-6s %12s %12s %12s\n", "", "float ulp", "double ulp", "fast err.");
  for (int k = 0; k < FUNCS; ++k) {
    bool ok = worst_pf[k] <= 4.0 && worst_pd[k] <= 4.0 && worst_ff[k] <= 1e-3;
    bad += !ok;
    std::printf("%-6s %12.1f %12.1f %12.1e%s\n", NAMES[k], worst_pf[k], worst_pd[k],
                worst_ff[k], ok ? "" : "  <- too large");
  }
  std::printf("math %d: %s (%d functions out of bounds)\n", n, bad ? "FAILED" : "PASSED",
              bad);
  return bad ? 1 : 0;
}
