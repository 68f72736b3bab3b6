// C++ AMP v1.2 §9 "Math Functions", in a kernel on the CPU fallback:
//   §9.1 fast_math: float functions (and their f-suffixed forms) within a
//        few ulp of the exact value; the exact ones (fabs, floor, ceil,
//        trunc, round, fmin, fmax, fmod, frexp, ldexp, modf, isnan, isinf,
//        isfinite, signbit) exact.
//   §9.2 precise_math: float and double overloads, double results close to
//        the correctly rounded value; rsqrt, exp10, cbrt, hypot, expm1,
//        log1p, copysign, fdim, fma, sincos, nearbyint, rint.
// Values are compared with constants, not with the host's libm.
// RUN: %slmcxx -O1 %s -o %t
// RUN: %t | FileCheck %s
// CHECK: math: 0 failures

#include <amp.h>
#include <amp_math.h>
#include <cstdio>
#include <vector>
using namespace concurrency;

int failures = 0;
#define EXPECT(c) do { if (!(c)) { std::printf("failed: %s\n", #c); ++failures; } } while (0)

bool near(double got, double want, double rel) {
  double d = got - want;
  if (d < 0) d = -d;
  double m = want < 0 ? -want : want;
  return d <= rel * (m > 1e-30 ? m : 1.0);
}

int main() {
  std::vector<float> f(32, -99.0f);
  std::vector<double> d(16, -99.0);
  array_view<float, 1> fv(32, f);
  array_view<double, 1> dv(16, d);
  parallel_for_each(extent<1>(1), [=](index<1>) restrict(amp) {
    using namespace fast_math;
    fv[0] = sqrt(2.0f);
    fv[1] = rsqrt(4.0f);
    fv[2] = sin(0.5f);
    fv[3] = fast_math::cosf(0.5f);
    fv[4] = exp(1.0f);
    fv[5] = log(10.0f);
    fv[6] = log2(8.0f);
    fv[7] = pow(2.0f, 10.0f);
    fv[8] = atan2(1.0f, 1.0f);
    fv[9] = fast_math::floor(-1.5f);
    fv[10] = fast_math::ceil(-1.5f);
    fv[11] = fast_math::trunc(-1.7f);
    fv[12] = fast_math::round(2.5f);
    fv[13] = fast_math::fmod(7.0f, 3.0f);
    int e = 0;
    fv[14] = fast_math::frexp(12.0f, &e); // 0.75 * 2^4
    fv[15] = float(e);
    fv[16] = fast_math::ldexp(0.75f, 4);
    float ip = 0.0f;
    fv[17] = fast_math::modf(3.25f, &ip);
    fv[18] = ip;
    fv[19] = float(fast_math::isnan(0.0f / 0.0f) != 0) + 2.0f * float(fast_math::isinf(1.0f / 0.0f) != 0) +
             4.0f * float(fast_math::isfinite(1.0f) != 0) + 8.0f * float(fast_math::signbit(-0.0f) != 0);
    fv[20] = fast_math::fmin(1.0f, -2.0f) + fast_math::fmax(1.0f, -2.0f) * 10.0f;
    fv[21] = fast_math::fabs(-3.5f);
    fv[22] = fast_math::tanf(0.25f);
    fv[23] = precise_math::sinf(1.0f);
    fv[24] = precise_math::cbrt(27.0f);
    float s = 0.0f, c = 0.0f;
    fast_math::sincos(0.0f, &s, &c);
    fv[25] = s + 10.0f * c;

    dv[0] = precise_math::sqrt(2.0);
    dv[1] = precise_math::exp(1.0);
    dv[2] = precise_math::log10(1000.0);
    dv[3] = precise_math::atan(1.0) * 4.0;
    dv[4] = precise_math::hypot(3.0, 4.0);
    dv[5] = precise_math::expm1(1e-10);
    dv[6] = precise_math::log1p(1e-10);
    dv[7] = precise_math::exp10(3.0);
    dv[8] = precise_math::rsqrt(16.0);
    dv[9] = precise_math::copysign(2.0, -1.0);
    dv[10] = precise_math::fdim(5.0, 3.0) + precise_math::fdim(3.0, 5.0);
    dv[11] = precise_math::fma(2.0, 3.0, 1.0);
    dv[12] = precise_math::rint(2.5) + 10.0 * precise_math::nearbyint(3.5);
    dv[13] = precise_math::cosh(0.0) + precise_math::tanh(0.0);
    dv[14] = precise_math::pow(2.0, 0.5);
    dv[15] = precise_math::asin(1.0) * 2.0;
  });
  fv.synchronize();
  dv.synchronize();
  const double fast = 1e-5, prec = 1e-14;
  EXPECT(near(f[0], 1.41421356, fast));
  EXPECT(near(f[1], 0.5, fast));
  EXPECT(near(f[2], 0.479425539, fast));
  EXPECT(near(f[3], 0.877582562, fast));
  EXPECT(near(f[4], 2.718281828, fast));
  EXPECT(near(f[5], 2.302585093, fast));
  EXPECT(near(f[6], 3.0, fast));
  EXPECT(near(f[7], 1024.0, fast));
  EXPECT(near(f[8], 0.785398163, fast));
  EXPECT(f[9] == -2.0f && f[10] == -1.0f && f[11] == -1.0f && f[12] == 3.0f);
  EXPECT(f[13] == 1.0f);
  EXPECT(f[14] == 0.75f && f[15] == 4.0f && f[16] == 12.0f);
  EXPECT(f[17] == 0.25f && f[18] == 3.0f);
  EXPECT(f[19] == 15.0f);
  EXPECT(f[20] == -2.0f + 10.0f);
  EXPECT(f[21] == 3.5f);
  EXPECT(near(f[22], 0.255341921, fast));
  EXPECT(near(f[23], 0.841470985, 1e-6));
  EXPECT(near(f[24], 3.0, 1e-6));
  EXPECT(f[25] == 10.0f);

  EXPECT(near(d[0], 1.4142135623730951, prec));
  EXPECT(near(d[1], 2.718281828459045, prec));
  EXPECT(near(d[2], 3.0, prec));
  EXPECT(near(d[3], 3.141592653589793, prec));
  EXPECT(near(d[4], 5.0, prec));
  EXPECT(near(d[5], 1.00000000005e-10, 1e-9)); // not 0: expm1 keeps small values
  EXPECT(near(d[6], 9.9999999995e-11, 1e-9));
  EXPECT(near(d[7], 1000.0, prec));
  EXPECT(near(d[8], 0.25, prec));
  EXPECT(d[9] == -2.0);
  EXPECT(d[10] == 2.0);
  EXPECT(d[11] == 7.0);
  EXPECT(d[12] == 2.0 + 40.0); // round half to even
  EXPECT(d[13] == 1.0);
  EXPECT(near(d[14], 1.4142135623730951, prec));
  EXPECT(near(d[15], 3.141592653589793, prec));
  std::printf("math: %d failures\n", failures);
  return failures != 0;
}
