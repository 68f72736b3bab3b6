// C++ AMP v1.2, chapter 10 "Graphics", "norm and unorm": construction from
// other scalar types converts to float, then clamps to [-1, 1] (norm) or
// [0, 1] (unorm); +/- infinity gives +/-1 (unorm: 0 and 1); a norm is
// implicitly constructible from a unorm; both convert implicitly to float;
// the binary operators + - * / == != > < >= <= with other scalars, the
// compound assignments and, for norm, unary minus.
// RUN: %slmcxx -O1 %s -o %t
// RUN: %t | FileCheck %s
// CHECK: norm/unorm: 0 failures

#include <amp.h>
#include <amp_short_vectors.h>
#include <cmath>
#include <cstdio>
using namespace concurrency;
using namespace concurrency::graphics;

int failures = 0;
#define EXPECT(c) do { if (!(c)) { std::printf("failed: %s\n", #c); ++failures; } } while (0)

int main() {
  const float inf = INFINITY;
  // Clamping on construction, from every scalar type.
  EXPECT(float(norm(2.0f)) == 1.0f && float(norm(-3)) == -1.0f && float(norm(0.5)) == 0.5f);
  EXPECT(float(unorm(2u)) == 1.0f && float(unorm(-3)) == 0.0f && float(unorm(0.25)) == 0.25f);
  EXPECT(float(norm(inf)) == 1.0f && float(norm(-inf)) == -1.0f);
  EXPECT(float(unorm(inf)) == 1.0f && float(unorm(-inf)) == 0.0f);
  // norm from unorm: implicit, no loss.
  unorm u(0.75f);
  norm n = u;
  EXPECT(float(n) == 0.75f);
  // Implicit conversion to float; operators with other scalars.
  float f = u;
  EXPECT(f == 0.75f && u + 1.0f == 1.75f && n * 2 == 1.5f && u > 0.5f && n <= 1);
  // Operators between two of them clamp; compound assignments; unary minus.
  EXPECT(float(unorm(0.75f) + unorm(0.75f)) == 1.0f);
  EXPECT(float(norm(-0.75f) - norm(0.75f)) == -1.0f);
  norm m(0.5f);
  m *= norm(-1.0f);
  m /= norm(0.25f);
  EXPECT(float(m) == -1.0f && float(-m) == 1.0f);
  // The same in a kernel.
  float out[4] = {};
  array_view<float, 1> o(4, out);
  parallel_for_each(o.extent, [=](index<1> i) restrict(amp) {
    unorm a(float(i[0]) * 0.5f);        // 0, 0.5, 1, 1 (clamped)
    norm b = a;
    b -= norm(0.75f);
    o[i] = float(a) + float(b) * 10.0f; // b: -0.75, -0.25, 0.25, 0.25
  });
  o.synchronize();
  EXPECT(out[0] == -7.5f && out[1] == -2.0f && out[2] == 3.5f && out[3] == 3.5f);
  std::printf("norm/unorm: %d failures\n", failures);
  return failures != 0;
}
