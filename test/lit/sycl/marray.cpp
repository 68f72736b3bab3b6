// sycl::marray (SYCL 2020 §4.14.3): element-list constructors, element-wise
// operators with bool results for comparisons and logical operators,
// compound assignment, iteration, and math over marrays, in a kernel on the
// CPU fallback, checked against the host; the SPIR-V validates and the PTX
// builds.
// RUN: %slmcxx -O2 %s -o %t
// RUN: %t | FileCheck %s
// CHECK: marray: PASSED
// RUN: %slmcxx --emit=spirv %s -o %t.spv
// RUN: %spirv-val %t.spv
// RUN: %slmcxx --emit=ptx %s -o %t.ptx
// RUN: %clangxx -std=c++17 %plugin -fsyntax-only %s

#include <sycl/sycl.hpp>

#include <cmath>
#include <cstdio>

using namespace sycl;

static_assert(std::is_same<decltype(mint4() < mint4()), marray<bool, 4>>::value, "");
static_assert(std::is_same<decltype(!mfloat3()), marray<bool, 3>>::value, "");
static_assert(std::is_same<decltype(marray{1, 2, 3}), marray<int, 3>>::value, "");
static_assert(sizeof(marray<float, 3>) == 12, "no padding, unlike vec");

int main() {
  queue q;
  const int W = 4, K = 32;
  float *o = malloc_shared<float>(W * K, q);
  q.parallel_for(nd_range<1>(range<1>(W), range<1>(W)), [=](nd_item<1> it) {
    const int g = it.get_global_id(0);
    float *O = o + g * K;
    int n = 0;
    marray<int, 5> a(marray<int, 2>(1, g), 3, marray<int, 2>(-4, 5));
    marray<int, 5> b(2);
    marray<int, 5> c = a * b + 1 - (a % 3) + (a << 1) + (a & 6);
    for (int v : c) O[n++] = float(v);                     // 0..4
    marray<bool, 5> lt = a < b, lg = (a > 0) && (b > 1), nt = !a;
    for (int i = 0; i < 5; ++i) O[n++] = lt[i] + 2 * lg[i] + 4 * nt[i]; // 5..9
    c += 10;
    c /= marray<int, 5>(3);
    ++c;
    for (int i = 0; i < 5; ++i) O[n++] = float(c[i]);      // 10..14
    mfloat3 f(0.5f * g, 2.0f, -1.0f);
    mfloat3 h = fmax(f * 2.0f, 1.0f) + sqrt(fabs(f)) - f / 4.0f;
    for (int i = 0; i < 3; ++i) O[n++] = h[i];             // 15..17
    O[n++] = dot(f, f);                                    // 18
    O[n++] = float(any(isless(f, 0.0f))) + 2 * all(isless(f, 3.0f)); // 19
    O[n++] = float(n);                                     // 20
  });
  q.wait();
  int fails = 0;
  for (int g = 0; g < W; ++g) {
    float *O = o + g * K;
    int A[5] = {1, g, 3, -4, 5};
    float want[K] = {};
    int k = 0;
    for (int i = 0; i < 5; ++i) want[k++] = float(A[i] * 2 + 1 - (A[i] % 3) + (A[i] << 1) + (A[i] & 6));
    for (int i = 0; i < 5; ++i) want[k++] = (A[i] < 2) + 2 * (A[i] > 0) + 4 * (A[i] == 0);
    for (int i = 0; i < 5; ++i) want[k++] = float((int(want[i]) + 10) / 3 + 1);
    float F[3] = {0.5f * g, 2.0f, -1.0f};
    for (int i = 0; i < 3; ++i) want[k++] = std::fmax(F[i] * 2, 1.0f) + std::sqrt(std::fabs(F[i])) - F[i] / 4;
    want[k++] = F[0] * F[0] + F[1] * F[1] + F[2] * F[2];
    want[k++] = 1 + 2 * (F[0] < 3);
    want[k++] = 20;
    for (int i = 0; i < k; ++i)
      if (std::fabs(O[i] - want[i]) > 1e-5f * std::fmax(1.0f, std::fabs(want[i])) && fails++ < 20)
        std::printf("item %d value %d: %g, want %g\n", g, i, O[i], want[i]);
  }
  std::printf("marray: %s\n", fails ? "FAILED" : "PASSED");
  free(o, q);
  return fails != 0;
}
