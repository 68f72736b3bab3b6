// MSVC's swizzle properties on Concurrency::graphics short vectors (spec
// 10.8.2): `v.yx`, `v.zyx`, `c.bgra` read as values and assign as
// lvalues (`v.xy = w`), in restrict(amp) code and on the host, as MSVC's
// __declspec(property) members over get_ and set_. slmc++ compiles with
// -fdeclspec; a plain clang++ needs it (or -fms-extensions). Values are
// checked on the CPU fallback; the SPIR-V validates.
// RUN: %slmcxx -O1 %s -o %t
// RUN: %t | FileCheck %s
// RUN: %slmcxx --emit=spirv %s -o %t.spv
// RUN: %spirv-val %t.spv
// RUN: %clangxx -std=c++17 -fdeclspec %plugin -fsyntax-only %s
// CHECK: swizzle properties: 0 failures

#include <amp.h>
#include <amp_short_vectors.h>
#include <cstdio>
#include <vector>
using namespace concurrency;
using namespace concurrency::graphics;

static int failures = 0;
#define EXPECT(c)                                                              \
  do {                                                                         \
    if (!(c)) {                                                                \
      ++failures;                                                              \
      std::printf("line %d: %s\n", __LINE__, #c);                              \
    }                                                                          \
  } while (0)

int main() {
  std::vector<float_4> fv(8);
  std::vector<int_2> iv(8);
  for (int k = 0; k < 8; ++k) {
    fv[k] = float_4(float(k), 1.0f, 2.0f, 3.0f);
    iv[k] = int_2(k, 10 * k);
  }
  array_view<float_4, 1> f(8, fv);
  array_view<int_2, 1> i(8, iv);
  parallel_for_each(f.extent, [=](index<1> idx) restrict(amp) {
    float_4 v = f[idx];
    float_3 back = v.wzy;          // (3, 2, 1)
    v.xyz = back;                  // (3, 2, 1, 3)
    v.zw = v.yx + float_2(10.0f);  // (3, 2, 12, 13)
    f[idx] = v;
    int_2 t = i[idx];
    t.yx = t;                      // swap
    i[idx] = t;
  });
  f.synchronize();
  i.synchronize();
  for (int k = 0; k < 8; ++k) {
    EXPECT(fv[k] == float_4(3.0f, 2.0f, 12.0f, 13.0f));
    EXPECT(iv[k] == int_2(10 * k, k));
  }
  // On the host, with the colour names.
  float_4 c(0.1f, 0.2f, 0.3f, 0.4f);
  float_4 bgra = c.bgra;
  EXPECT(bgra == float_4(0.3f, 0.2f, 0.1f, 0.4f));
  c.ar = float_2(1.0f, 2.0f);
  EXPECT(c.a == 1.0f && c.r == 2.0f);
  uint_3 u(1u, 2u, 3u);
  EXPECT(u.zx == uint_2(3u, 1u));
  std::printf("swizzle properties: %d failures\n", failures);
  return failures != 0;
}
