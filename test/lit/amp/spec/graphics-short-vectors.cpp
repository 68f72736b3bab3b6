// C++ AMP v1.2, chapter 10 "Graphics", short vector types: ScalarType_N for
// int, uint, float, double, norm, unorm and N = 2, 3, 4; default
// construction zeroes every component; one value initialises every
// component; copy is component-wise; the component accessors and swizzles
// (get_/set_), the arithmetic operators component-wise, == and != on all
// components; short_vector<T, N> and short_vector_traits.
// RUN: %slmcxx -O1 %s -o %t
// RUN: %t | FileCheck %s
// CHECK: short vectors: 0 failures

#include <amp.h>
#include <amp_short_vectors.h>
#include <cstdio>
#include <type_traits>
using namespace concurrency;
using namespace concurrency::graphics;

static_assert(std::is_same<short_vector<unorm, 4>::type, unorm_4>::value, "");
static_assert(std::is_same<short_vector<double, 1>::type, double>::value, "");
static_assert(short_vector_traits<float>::size == 1, "");
static_assert(std::is_same<short_vector_traits<int_3>::value_type, int>::value, "");
static_assert(std::is_same<uint, unsigned int>::value, "");
static_assert(std::is_same<graphics::direct3d::uint2, uint_2>::value, "");

int failures = 0;
#define EXPECT(c) do { if (!(c)) { std::printf("failed: %s\n", #c); ++failures; } } while (0)

int main() {
  uint_2 a;
  EXPECT(a.x == 0u && a.y == 0u);
  uint_2 c(1u);
  EXPECT(c == uint_2(1u, 1u));
  uint_2 b1(c), b2;
  b2 = b1;
  EXPECT(b2 == c);
  double_4 d(1.0, 2.0, 3.0, 4.0);
  EXPECT(d.get_wzyx() == double_4(4.0, 3.0, 2.0, 1.0) && d.get_yw() == double_2(2.0, 4.0));
  d.set_xw(double_2(9.0, 8.0));
  EXPECT(d.get_x() == 9.0 && d.w == 8.0 && d.get_a() == 8.0);
  int_4 i4(1, 2, 3, 4);
  EXPECT(i4 * int_4(2) - int_4(1) == int_4(1, 3, 5, 7));
  EXPECT((i4 << int_4(1)) == int_4(2, 4, 6, 8) && (i4 ^ int_4(1)) == int_4(0, 3, 2, 5));
  EXPECT(i4 != int_4(1, 2, 3, 5));

  // In a kernel, over an array of short vectors.
  float_3 data[4];
  for (int k = 0; k < 4; ++k) data[k] = float_3(float(k), 0.5f, -1.0f);
  array<float_3, 1> arr(4, data);
  parallel_for_each(arr.extent, [&arr](index<1> i) restrict(amp) {
    float_3 v = arr[i];
    v.set_yz(v.get_zy() * float_2(2.0f));
    arr[i] = -v;
  });
  copy(arr, data);
  EXPECT(data[3] == float_3(-3.0f, 2.0f, -1.0f));
  std::printf("short vectors: %d failures\n", failures);
  return failures != 0;
}
