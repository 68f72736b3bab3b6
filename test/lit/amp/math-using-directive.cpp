// C++ AMP code calls the math functions unqualified after a using-directive
// (`using namespace concurrency::precise_math;`, or fast_math), at file or
// function scope: MSVC then picks the amp overload, since the C library's
// `sqrt(double)` is restrict(cpu) only. Here both are candidates; the
// amp_math.h overloads win the tie (an enable_if attribute). Without the
// directive, a C library call in amp code is still refused
// (restrict-calls.cpp).
// RUN: %slmcxx -O2 %s -o %t
// RUN: %t | FileCheck %s
// RUN: %slmcxx -O2 --emit=spirv %s -o %t.spv
// RUN: %spirv-val %t.spv
// CHECK: precise: 2.00000 7.38906 1.31696 0.84270 1.00000
// CHECK: fast: 3.00000 1.00000
// CHECK: host: 1.41421

#include <amp.h>
#include <amp_math.h>
#include <cstdio>
#include <vector>

using namespace concurrency;

// (Before the file-scope directive below: with both, the two namespaces'
// overloads are ambiguous, with MSVC too.)
static void fast() {
  std::vector<float> f(2, 0.0f);
  array_view<float, 1> fv(2, f);
  parallel_for_each(extent<1>(1), [=](index<1>) restrict(amp) {
    using namespace concurrency::fast_math;
    fv[0] = sqrtf(9.0f);
    fv[1] = cos(0.0f);
  });
  fv.synchronize();
  std::printf("fast: %.5f %.5f\n", f[0], f[1]);
}

using namespace concurrency::precise_math;

int main() {
  std::vector<double> d(5, 0.0);
  array_view<double, 1> dv(5, d);
  parallel_for_each(extent<1>(1), [=](index<1>) restrict(amp) {
    dv[0] = sqrt(4.0);
    dv[1] = exp(2.0);
    dv[2] = acosh(2.0);
    dv[3] = double(erff(1.0f)) > 0.8 ? erf(1.0) : -1.0;
    dv[4] = fabs(-1.0f);
  });
  dv.synchronize();
  std::printf("precise: %.5f %.5f %.5f %.5f %.5f\n", d[0], d[1], d[2], d[3], d[4]);

  fast();
  // (host code sees the same overloads: they are callable there too)
  std::printf("host: %.5f\n", sqrt(2.0));
  return 0;
}
