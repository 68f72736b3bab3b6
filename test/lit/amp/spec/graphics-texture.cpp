// C++ AMP v1.2, chapter 10 "Graphics", texture<T, N>, texture_view and
// sampler: a default sampler filters linearly and clamps, with a zero
// border colour; copying a texture copies its texels (a deep copy); a
// read-only texture_view can be made from a read-write one; set() writes a
// texel that reads back in a later kernel; copy() to and from host memory
// moves the texels in row-major order.
// RUN: %slmcxx -O1 %s -o %t
// RUN: %t | FileCheck %s
// CHECK: texture: 0 failures

#include <amp.h>
#include <amp_graphics.h>
#include <cstdio>
#include <vector>
using namespace concurrency;
using namespace concurrency::graphics;

int failures = 0;
#define EXPECT(c) do { if (!(c)) { std::printf("failed: %s\n", #c); ++failures; } } while (0)

int main() {
  sampler s;
  EXPECT(s.get_filter_mode() == filter_linear && s.get_address_mode() == address_clamp &&
         s.get_border_color() == float_4(0.0f));

  std::vector<int_2> init(12);
  for (int k = 0; k < 12; ++k) init[k] = int_2(k, -k);
  texture<int_2, 2> t(3, 4, init.begin(), init.end());
  EXPECT((t.get_extent() == extent<2>(3, 4) && texture<int_2, 2>::rank == 2));
  texture<int_2, 2> deep(t);
  texture_view<int_2, 2> rw(t);
  texture_view<const int_2, 2> ro(rw);
  parallel_for_each(t.extent, [=](index<2> i) restrict(amp) {
    rw.set(i, rw[i] * int_2(10));
  });
  std::vector<int_2> after(12), copied(12);
  parallel_for_each(extent<1>(1), [=](index<1>) restrict(amp) {
    rw.set(index<2>(0, 0), ro[index<2>(2, 3)]); // the write of the kernel before
  });
  copy(t, after.data(), unsigned(after.size() * sizeof(int_2)));
  copy(deep, copied.begin());
  EXPECT(after[0] == int_2(110, -110) && after[5] == int_2(50, -50));
  EXPECT(copied[0] == int_2(0, 0) && copied[11] == int_2(11, -11)); // unchanged
  std::printf("texture: %d failures\n", failures);
  return failures != 0;
}
