// The C and C++ standard math functions in SYCL kernels, as DPC++ programs
// call them: std::sqrt and friends on doubles (libstdc++'s double overloads
// are C's functions), the C names (sqrtf, expf, powf, fabs, fmaxf, ...),
// unqualified calls with `using namespace std`, and integer abs (C's abs,
// std::abs on int, long and long long). Each kernel's results are checked
// against the host's C library. The SPIR-V validates, and without
// libdevice the PTX uses slmc's software library for the functions it has.
// RUN: %slmcxx -O2 %s -o %t
// RUN: %t | FileCheck %s
// RUN: %slmcxx -O2 --emit=spirv %s -o %t.spv
// RUN: %spirv-val %t.spv
// RUN: %slmcxx -fsyntax-only -Xclang -verify %s
// expected-no-diagnostics
// CHECK: std:: on double: PASSED
// CHECK: C float names: PASSED
// CHECK: using namespace std: PASSED
// CHECK: integer abs: PASSED
#include <cmath>
#include <cstdlib>
#include <math.h>
#include <sycl/sycl.hpp>

#include <cstdio>

static void report(const char *what, bool ok) {
  std::printf("%s: %s\n", what, ok ? "PASSED" : "FAILED");
}

static bool close(double a, double b, double tol) {
  return std::fabs(a - b) <= tol * (1.0 + std::fabs(b));
}

static double f_double(double x) {
  return std::sqrt(x) + std::exp(-x) + std::log(x + 1.0) + std::pow(x, 1.5) + std::sin(x) * std::cos(x) +
         std::fabs(-x) + std::floor(x * 3.3) + std::atan2(x, 2.0) + std::fmax(x, 0.25) + std::tanh(x) +
         std::hypot(x, 1.0) + std::fma(x, x, 1.0) + std::ldexp(x, 2);
}
static float f_float(float x) {
  return sqrtf(x) + expf(-x) + logf(x + 1.0f) + powf(x, 1.5f) + sinf(x) * cosf(x) + fabsf(-x) +
         floorf(x * 3.3f) + atan2f(x, 2.0f) + fmaxf(x, 0.25f) + fminf(x, 0.5f) + tanhf(x) +
         fmodf(x * 7.0f, 1.5f) + ceilf(x) + truncf(-x) + roundf(x * 2.2f) + exp2f(x) + log2f(x + 1.0f);
}
static double f_unqualified(double x) {
  using namespace std;
  return sqrt(x) + exp(x) + pow(x, 2.0) + fabs(x - 1.0) + sqrt(float(x)) + cbrt(x) + erf(x);
}
static long f_abs(int i) {
  long l = -1000000L * i;
  long long ll = -3000000000LL * i;
  return std::abs(-i) + abs(-2 * i) + std::abs(l) / 1000 + std::abs(ll) / 1000000 + labs(l) / 1000 +
         llabs(ll) / 1000000;
}

int main() {
  sycl::queue q;
  const int n = 64;
  double *d = sycl::malloc_shared<double>(n, q);
  float *f = sycl::malloc_shared<float>(n, q);
  double *u = sycl::malloc_shared<double>(n, q);
  long *a = sycl::malloc_shared<long>(n, q);
  q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) {
     double x = 0.1 + 0.05 * double(i[0]);
     d[i] = f_double(x);
     f[i] = f_float(float(x));
     u[i] = f_unqualified(x);
     a[i] = f_abs(int(i[0]));
   }).wait();
  bool okd = true, okf = true, oku = true, oka = true;
  for (int i = 0; i < n; ++i) {
    double x = 0.1 + 0.05 * double(i);
    okd = okd && close(d[i], f_double(x), 1e-12);
    okf = okf && close(f[i], f_float(float(x)), 1e-5);
    oku = oku && close(u[i], f_unqualified(x), 1e-6);
    oka = oka && a[i] == f_abs(i);
  }
  report("std:: on double", okd);
  report("C float names", okf);
  report("using namespace std", oku);
  report("integer abs", oka);
  sycl::free(d, q);
  sycl::free(f, q);
  sycl::free(u, q);
  sycl::free(a, q);
  return 0;
}
