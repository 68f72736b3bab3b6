// <amp_short_vectors.h>: Concurrency::graphics short vectors, norm and unorm
// in kernels and on the host: components and their r/g/b/a names, MSVC's
// get_/set_/ref_ accessors and swizzles, arithmetic, conversions, norm and
// unorm clamping (NaN to 0), short_vector and short_vector_traits, HLSL's
// names. Values are checked on the CPU fallback.
// RUN: %slmcxx -O1 %s -o %t
// RUN: %t | FileCheck %s
// RUN: %clangxx -std=c++17 %plugin -fsyntax-only %s
// CHECK: short vectors: 0 failures

#include <amp.h>
#include <amp_short_vectors.h>
#include <cmath>
#include <cstdio>
#include <type_traits>
#include <vector>
using namespace concurrency;
using namespace concurrency::graphics;

static_assert(std::is_same<short_vector<float, 3>::type, float_3>::value, "");
static_assert(std::is_same<short_vector<int, 1>::type, int>::value, "");
static_assert(short_vector_traits<uint_4>::size == 4, "");
static_assert(std::is_same<short_vector_traits<norm_2>::value_type, norm>::value, "");
static_assert(std::is_same<graphics::direct3d::float4, float_4>::value, "");
static_assert(std::is_trivially_copyable<float_4>::value, "arrays of short vectors");
static_assert(sizeof(float_3) == 3 * sizeof(float) && sizeof(unorm_4) == 16, "");

int failures = 0;
#define EXPECT(c)                                                              \
  do {                                                                         \
    if (!(c)) {                                                                \
      std::printf("failed: %s (line %d)\n", #c, __LINE__);                     \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

int main() {
  // Kernels: float_4 and int_3 arithmetic, swizzles, unorm math.
  std::vector<float_4> fv(8);
  std::vector<int_3> iv(8);
  std::vector<unorm_2> uv(8);
  for (int k = 0; k < 8; ++k) {
    fv[k] = float_4(float(k), 1.0f, 2.0f, 3.0f);
    iv[k] = int_3(k, -k, 7);
  }
  array_view<float_4, 1> f(8, fv);
  array_view<int_3, 1> i(8, iv);
  array_view<unorm_2, 1> u(8, uv);
  parallel_for_each(f.extent, [=](index<1> idx) restrict(amp) {
    float_4 v = f[idx];
    v = v * float_4(2.0f) + float_4(0.5f, 0.0f, 0.0f, 0.0f);
    v.set_zw(v.get_wz());          // swap z and w
    v.a += 1.0f;                   // a is w
    f[idx] = v;
    int_3 t = i[idx];
    t = (t + int_3(1, 1, 1)) * int_3(3) % int_3(5, 5, 5);
    t.ref_z() = t.get_x() << 1;
    i[idx] = -t.get_zyx();
    u[idx] = unorm_2(unorm(float(idx[0]) * 0.25f), unorm(0.75f) + unorm(0.5f));
  });
  f.synchronize();
  i.synchronize();
  u.synchronize();
  // k = 3: (3,1,2,3)*2 + (.5,0,0,0) = (6.5,2,4,6); swap zw: (6.5,2,6,4); w+1: 5
  EXPECT(fv[3] == float_4(6.5f, 2.0f, 6.0f, 5.0f));
  EXPECT(fv[0].x == 0.5f && fv[0].r == 0.5f && fv[0].get_w() == 5.0f);
  // k = 2: (3,-1,8)*3 % 5 = (4,-3,4); z = 8; -(zyx) = (-8,3,-4)
  EXPECT(iv[2] == int_3(-8, 3, -4));
  EXPECT(float(uv[2].x) == 0.5f && float(uv[2].y) == 1.0f);   // 0.75 + 0.5 clamps
  EXPECT(float(uv[7].x) == 1.0f);                             // 1.75 clamps

  // norm and unorm on the host.
  EXPECT(float(unorm(1.5f)) == 1.0f && float(unorm(-0.5f)) == 0.0f);
  EXPECT(float(unorm(NAN)) == 0.0f && float(norm(NAN)) == 0.0f);
  EXPECT(float(norm(-2.0f)) == -1.0f && float(norm(0.25f)) == 0.25f);
  EXPECT(float(norm(0.5f) - norm(-0.75f)) == 1.0f);          // 1.25 clamps
  EXPECT(float(-norm(0.5f)) == -0.5f);
  EXPECT(float(unorm(0.25f) - unorm(0.5f)) == 0.0f);
  EXPECT(float(unorm(norm(-0.5f))) == 0.0f && float(norm(unorm(0.5f))) == 0.5f);
  EXPECT(unorm(0.25f) < unorm(0.5f) && norm(-1.0f) == NORM_MIN && UNORM_MAX == unorm(3));
  unorm acc(0.5f);
  acc += unorm(0.75f);
  EXPECT(float(acc) == 1.0f);
  norm_3 n3(norm(0.5f), norm(-0.5f), norm(2.0f));
  n3 *= norm_3(norm(-1.0f));
  EXPECT(float(n3.x) == -0.5f && float(n3.y) == 0.5f && float(n3.z) == -1.0f);

  // Conversions and the rest of the operators.
  int_4 i4(1, -2, 3, -4);
  float_4 f4(i4);
  EXPECT(f4 == float_4(1.0f, -2.0f, 3.0f, -4.0f));
  uint_2 u2(5u, 6u);
  u2 = (u2 & uint_2(4u)) | uint_2(1u, 0u);
  EXPECT(u2 == uint_2(5u, 4u) && (~u2).x == ~5u);
  double_2 d2(1.5, 2.5);
  d2 /= double_2(0.5);
  EXPECT(d2.get_yx() == double_2(5.0, 3.0));
  int_2 p(1, 2);
  int_2 q = p++;
  EXPECT(q == int_2(1, 2) && p == int_2(2, 3) && p != q);
  float_3 c(1.0f, 2.0f, 3.0f);
  c.set_x(9.0f);
  c.g = 8.0f;
  EXPECT(c.get_xyz() == float_3(9.0f, 8.0f, 3.0f) && c.get_bgr() == float_3(3.0f, 8.0f, 9.0f));
  EXPECT(float_2().x == 0.0f && int_4(7).w == 7 && unorm_4().a == unorm(0.0f));
  unorm_4 un(f4);                                            // converts and clamps
  EXPECT(un == unorm_4(unorm(1.0f), unorm(0.0f), unorm(1.0f), unorm(0.0f)));

  std::printf("short vectors: %d failures\n", failures);
  return failures != 0;
}
