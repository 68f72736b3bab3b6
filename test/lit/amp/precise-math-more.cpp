// C++ AMP v1.2 §9.2 precise_math, the functions beyond the C++ library's
// common ones: acosh, asinh, atanh, sinpi, cospi, tanpi, erf, erfc, erfinv,
// erfcinv, lgamma (with its sign), tgamma, phi, logb, ilogb, nextafter,
// remainder, remquo, scalb, scalbn, rcbrt, isnormal, fpclassify and nan, in
// float and double, in a kernel. Checked against long double references (or
// exactly, where the result is exact), on the CPU fallback as compiled for
// the host and again with -DSLMC_AMP_SOFT_MATH, where the software library
// that the PTX pass uses runs on the host (erf, erfc, lgamma, tgamma, phi,
// erfinv and erfcinv come from libdevice in the PTX pass, from the host's
// library there). The SPIR-V validates. Without libdevice, the PTX of the
// functions from the software library builds, and a kernel calling erf is
// refused with the reason.
// RUN: %slmcxx -O2 %s -o %t
// RUN: %t | FileCheck %s
// RUN: %slmcxx -O2 -DSLMC_AMP_SOFT_MATH %s -o %t.soft
// RUN: %t.soft | FileCheck %s
// RUN: %slmcxx -O2 --emit=spirv %s -o %t.spv
// RUN: %spirv-val %t.spv
// RUN: %spirv-dis %t.spv | FileCheck %s --check-prefix=SPIRV
// RUN: %slmcxx -O2 --emit=ptx -DONLY_SOFT %s -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: env SLMC_LIBDEVICE=%t.none CUDA_PATH=%t.none not %slmcxx -O2 --emit=ptx %s -o %t.nv.ptx 2>&1 | FileCheck %s --check-prefix=NOLIBDEVICE
// CHECK: precise_math more: 0 failures
// SPIRV-DAG: OpExtInst %float %{{.*}} sinpi
// SPIRV-DAG: OpExtInst %double %{{.*}} acosh
// SPIRV-DAG: OpExtInst %double %{{.*}} erfc
// SPIRV-DAG: OpExtInst %float %{{.*}} lgamma
// PTX-NOT: .extern
// PTX: .entry
// NOLIBDEVICE: error: device code of '{{.*}}precise-math-more.cpp' calls '{{erf|erfc|lgamma|tgamma|erfinv|erfcinv|normcdf}}{{f?}}' (a math built-in), which PTX takes from CUDA's libdevice

#include <amp.h>
#include <amp_math.h>
#include <cmath>
#include <cstdio>
#include <limits>
#include <vector>

using namespace concurrency;

static int failures = 0;

template <class T> static long double ulp_of(long double want) {
  int e;
  std::frexp(double(want == 0 ? std::numeric_limits<T>::min() : want), &e);
  int digits = std::numeric_limits<T>::digits;
  int min_exp = std::numeric_limits<T>::min_exponent - digits;
  return std::ldexp(1.0L, std::max(e - digits, min_exp));
}

// Within `ulps` units in the last place of T, or `abs` (near a zero).
template <class T>
static void near(const char *what, double x, T got, long double want, double ulps,
                 long double abs = 0) {
  bool ok;
  if (std::isnan(double(want)))
    ok = std::isnan(double(got));
  else if (std::isinf(double(want)))
    ok = double(got) == double(want);
  else {
    long double err = std::fabs((long double)got - want);
    ok = err <= ulps * ulp_of<T>(want) || err <= abs;
  }
  if (!ok) {
    std::printf("%s(%s %.17g) = %.17g, want %.17Lg\n", what, sizeof(T) == 4 ? "float" : "double",
                x, double(got), want);
    ++failures;
  }
}
template <class T> static void exact(const char *what, double x, T got, long double want) {
  bool same = std::isnan(double(want)) ? std::isnan(double(got))
                                       : (long double)got == want &&
                                             std::signbit(double(got)) == std::signbit(double(want));
  if (!same) {
    std::printf("%s(%.17g) = %.17g, want %.17Lg exactly\n", what, x, double(got), want);
    ++failures;
  }
}

static const int N = 96, F = 24;

int main() {
  // Arguments over [-6, 6], away from the grid of whole and half numbers,
  // and a few special ones.
  std::vector<double> xs(N);
  for (int i = 0; i < N - 8; ++i)
    xs[i] = -6.0 + 12.0 * (i + 0.37) / (N - 8);
  const double special[8] = {0.0, -0.0, 1.0, -2.0, 0.5, 1e-300, 3.0, -0.25};
  for (int i = 0; i < 8; ++i)
    xs[N - 8 + i] = special[i];
  std::vector<float> of(N * F, -99.0f);
  std::vector<double> od(N * F, -99.0);
  std::vector<int> oi(N * 8, 0);
  {
    array_view<const double, 1> in(N, xs);
    array_view<float, 2> rf(N, F, of);
    array_view<double, 2> rd(N, F, od);
    array_view<int, 2> ri(N, 8, oi);
    parallel_for_each(in.extent, [=](index<1> idx) restrict(amp) {
      using namespace precise_math;
      const int i = idx[0];
      const double x = in[idx];
      const float f = float(x);
      int k = 0;
      // Domains: acosh >= 1, atanh and erfinv in (-1, 1), erfcinv in (0, 2).
      const double t = x / (1.0 + fabs(x)), z = 1.0 + t;
      rd(i, k) = acosh(1.0 + x * x); rf(i, k++) = acoshf(1.0f + f * f);
      rd(i, k) = asinh(x * 10.0); rf(i, k++) = asinh(f * 10.0f);
      rd(i, k) = atanh(t); rf(i, k++) = atanhf(float(t));
      rd(i, k) = sinpi(x * 3.3); rf(i, k++) = sinpi(float(x * 3.3));
      rd(i, k) = cospi(x * 3.3); rf(i, k++) = cospif(float(x * 3.3));
      rd(i, k) = tanpi(x * 0.7); rf(i, k++) = tanpi(float(x * 0.7));
      rd(i, k) = logb(x * 1000.0); rf(i, k++) = logbf(f * 1000.0f);
      rd(i, k) = nextafter(x, 1.0); rf(i, k++) = nextafterf(f, 1.0f);
      rd(i, k) = remainder(x * 10.0, 1.3); rf(i, k++) = remainderf(float(x * 10.0), 1.3f);
      int qd = 0, qf = 0;
      rd(i, k) = remquo(x * 10.0, -1.3, &qd); rf(i, k++) = remquof(float(x * 10.0), -1.3f, &qf);
      ri(i, 0) = qd;
      ri(i, 1) = qf;
      rd(i, k) = scalbn(x, 5); rf(i, k++) = scalbnf(f, -7);
      rd(i, k) = scalb(x, -3.0); rf(i, k++) = scalbf(f, 4.0f);
      rd(i, k) = rcbrt(x + 7.0); rf(i, k++) = rcbrtf(f + 7.0f);
      ri(i, 2) = ilogb(x * 1000.0);
      ri(i, 3) = ilogbf(f * 1000.0f);
      ri(i, 4) = isnormal(x) + 2 * isnormal(f);
      ri(i, 5) = fpclassify(x) * 16 + fpclassify(f);
#ifndef ONLY_SOFT
      rd(i, k) = erf(x); rf(i, k++) = erff(f);
      rd(i, k) = erfc(x); rf(i, k++) = erfcf(f);
      rd(i, k) = erfinv(t); rf(i, k++) = erfinvf(float(t));
      rd(i, k) = erfcinv(z); rf(i, k++) = erfcinvf(float(z));
      int sd = 0, sf = 0;
      rd(i, k) = lgamma(x * 4.0 + 0.1, &sd); rf(i, k++) = lgammaf(float(x * 4.0 + 0.1), &sf);
      ri(i, 6) = sd * 4 + sf;
      rd(i, k) = tgamma(x * 3.0 + 0.1); rf(i, k++) = tgammaf(float(x * 3.0 + 0.1));
      rd(i, k) = phi(x * 2.0); rf(i, k++) = phif(f * 2.0f);
      rd(i, k) = nan(0); rf(i, k++) = nanf(0);
#endif
    });
    rf.synchronize();
    rd.synchronize();
    ri.synchronize();
  }

  const long double pi = 3.141592653589793238462643383279502884L;
  for (int i = 0; i < N; ++i) {
    const double x = xs[i];
    const float f = float(x);
    const double t = x / (1.0 + std::fabs(x)), z = 1.0 + t;
    const double *d = &od[size_t(i) * F];
    const float *g = &of[size_t(i) * F];
    const int *q = &oi[size_t(i) * 8];
    int k = 0;
    near("acosh", x, d[k], std::acosh((long double)(1.0 + x * x)), 4);
    near("acosh", x, g[k++], std::acosh((long double)(1.0f + f * f)), 2);
    near("asinh", x, d[k], std::asinh((long double)(x * 10.0)), 4);
    near("asinh", x, g[k++], std::asinh((long double)(f * 10.0f)), 2);
    near("atanh", x, d[k], std::atanh((long double)t), 4);
    near("atanh", x, g[k++], std::atanh((long double)float(t)), 2);
    near("sinpi", x, d[k], std::sin(pi * (long double)(x * 3.3)), 4, 1e-17L);
    near("sinpi", x, g[k++], std::sin(pi * (long double)float(x * 3.3)), 2, 1e-8L);
    near("cospi", x, d[k], std::cos(pi * (long double)(x * 3.3)), 4, 1e-17L);
    near("cospi", x, g[k++], std::cos(pi * (long double)float(x * 3.3)), 2, 1e-8L);
    near("tanpi", x, d[k], std::tan(pi * (long double)(x * 0.7)), 8, 1e-17L);
    near("tanpi", x, g[k++], std::tan(pi * (long double)float(x * 0.7)), 4, 1e-8L);
    exact("logb", x, d[k], std::logb(x * 1000.0));
    exact("logbf", x, g[k++], std::logb(f * 1000.0f));
    exact("nextafter", x, d[k], std::nextafter(x, 1.0));
    exact("nextafterf", x, g[k++], std::nextafter(f, 1.0f));
    exact("remainder", x, d[k], std::remainder(x * 10.0, 1.3));
    exact("remainderf", x, g[k++], std::remainder(float(x * 10.0), 1.3f));
    int hd = 0, hf = 0;
    exact("remquo", x, d[k], std::remquo(x * 10.0, -1.3, &hd));
    exact("remquof", x, g[k++], std::remquo(float(x * 10.0), -1.3f, &hf));
    // (at least the quotient's low three bits, and its sign)
    if ((q[0] & 7) != (hd & 7) && (-q[0] & 7) != (-hd & 7)) {
      std::printf("remquo(%.17g): quotient %d, want %d\n", x, q[0], hd);
      ++failures;
    }
    if ((q[0] < 0) != (hd < 0) && q[0] != 0 && hd != 0) {
      std::printf("remquo(%.17g): quotient sign %d, want %d\n", x, q[0], hd);
      ++failures;
    }
    exact("scalbn", x, d[k], std::scalbn(x, 5));
    exact("scalbnf", x, g[k++], std::scalbn(f, -7));
    exact("scalb", x, d[k], std::ldexp(x, -3));
    exact("scalbf", x, g[k++], std::ldexp(f, 4));
    near("rcbrt", x, d[k], 1.0L / std::cbrt((long double)(x + 7.0)), 4);
    near("rcbrt", x, g[k++], 1.0L / std::cbrt((long double)(f + 7.0f)), 2);
    exact("ilogb", x, double(q[2]), std::ilogb(x * 1000.0));
    exact("ilogbf", x, double(q[3]), std::ilogb(f * 1000.0f));
    exact("isnormal", x, double(q[4]), std::isnormal(x) + 2 * std::isnormal(f));
    exact("fpclassify", x, double(q[5]), std::fpclassify(x) * 16 + std::fpclassify(f));
#ifndef ONLY_SOFT
    near("erf", x, d[k], std::erf((long double)x), 2);
    near("erf", x, g[k++], std::erf((long double)f), 2);
    near("erfc", x, d[k], std::erfc((long double)x), 4);
    near("erfc", x, g[k++], std::erfc((long double)f), 4);
    // The inverses by their round trip (relative).
    near("erfinv", t, double(std::erf((long double)d[k])), (long double)t, 64, 0);
    near("erfinv", t, float(std::erf((long double)g[k++])), (long double)float(t), 8, 0);
    near("erfcinv", z, double(std::erfc((long double)d[k])), (long double)z,
         64 + 64 * d[k] * d[k], 0);
    near("erfcinv", z, float(std::erfc((long double)g[k])), (long double)float(z),
         8 + 8 * g[k] * g[k], 0);
    ++k;
    near("lgamma", x, d[k], std::lgamma((long double)(x * 4.0 + 0.1)), 8, 1e-15L);
    near("lgamma", x, g[k++], std::lgamma((long double)float(x * 4.0 + 0.1)), 4, 1e-6L);
    {
      long double a = (long double)(x * 4.0 + 0.1), b = (long double)float(x * 4.0 + 0.1);
      int sd = std::tgamma(a) < 0 ? -1 : 1, sf = std::tgamma(b) < 0 ? -1 : 1;
      exact("lgamma sign", x, double(q[6]), double(sd * 4 + sf));
    }
    near("tgamma", x, d[k], std::tgamma((long double)(x * 3.0 + 0.1)), 8);
    near("tgamma", x, g[k++], std::tgamma((long double)float(x * 3.0 + 0.1)), 4);
    const long double r2 = 0.707106781186547524400844362104849039L;
    near("phi", x, d[k], 0.5L * std::erfc(-(long double)(x * 2.0) * r2), 8);
    near("phi", x, g[k++], 0.5L * std::erfc(-(long double)(f * 2.0f) * r2), 4);
    exact("nan", x, d[k], std::numeric_limits<double>::quiet_NaN());
    exact("nanf", x, g[k++], std::numeric_limits<float>::quiet_NaN());
#endif
  }
  // The domains' edges.
  {
    std::vector<double> e(12, -99.0);
    array_view<double, 1> ev(12, e);
    parallel_for_each(ev.extent, [=](index<1> idx) restrict(amp) {
      using namespace precise_math;
      switch (idx[0]) {
      case 0: ev[idx] = acosh(0.5); break;
      case 1: ev[idx] = atanh(1.0); break;
      case 2: ev[idx] = atanh(-2.0); break;
      case 3: ev[idx] = sinpi(-3.0); break;
      case 4: ev[idx] = cospi(2.5); break;
      case 5: ev[idx] = tanpi(0.5); break;
      case 6: ev[idx] = tanpi(-0.5); break;
      case 7: ev[idx] = logb(0.0); break;
      case 8: ev[idx] = remainder(5.0, 0.0); break;
      case 9: ev[idx] = nextafter(0.0, -1.0); break;
      case 10: ev[idx] = sinpi(1e300); break;
      default: ev[idx] = cospi(1e300); break;
      }
    });
    ev.synchronize();
    const double inf = std::numeric_limits<double>::infinity(),
                 nan = std::numeric_limits<double>::quiet_NaN();
    const double want[12] = {nan,  inf, nan, -0.0, 0.0, inf, -inf, -inf, nan,
                             -std::numeric_limits<double>::denorm_min(), 0.0, 1.0};
    for (int i = 0; i < 12; ++i)
      exact("edge", i, e[i], want[i]);
  }
  std::printf("precise_math more: %d failures\n", failures);
  return failures != 0;
}
