// C++ AMP's element limit (extent::size() is unsigned int): slmc's arrays
// and views index in 32 bits, so an extent of 2^32 elements or more is
// refused where the data is made, with a runtime_exception, instead of
// wrapping. 65536 x 65537 elements wraps to 65536 in extent::size(), so
// the container-size check alone would let this view through. Within the
// limit, a kernel's 32-bit offsets still reach an element far along a row.
// RUN: %slmcxx -O2 %s -o %t
// RUN: %t | FileCheck %s
// CHECK: array_view: array_view: the extent holds more than 2^32 - 1 elements
// CHECK: array: array: the extent holds more than 2^32 - 1 elements
// CHECK: array_view 3: array_view: the extent holds more than 2^32 - 1 elements
// CHECK: far element: 7 (PASSED)

#include <amp.h>

#include <cstdio>
#include <vector>

using namespace concurrency;

int main() {
  std::vector<float> small(65536);
  try {
    array_view<float, 2> v(65536, 65537, small);
    std::printf("array_view: accepted (FAILED)\n");
  } catch (const runtime_exception &e) {
    std::printf("array_view: %s\n", e.what());
  }
  try {
    array<float, 2> a(65536, 65537);
    std::printf("array: accepted (FAILED)\n");
  } catch (const runtime_exception &e) {
    std::printf("array: %s\n", e.what());
  }
  try {
    array_view<int, 3> v3(extent<3>(4096, 4096, 4096));
    std::printf("array_view 3: accepted (FAILED)\n");
  } catch (const runtime_exception &e) {
    std::printf("array_view 3: %s\n", e.what());
  }
  // A 1 x 1,000,000 view read at its last column in a kernel.
  std::vector<int> row(1000000, 0);
  row.back() = 7;
  array_view<const int, 2> rv(1, 1000000, row);
  std::vector<int> out(1, 0);
  array_view<int, 1> ov(1, out);
  parallel_for_each(ov.extent, [=](index<1> i) restrict(amp) { ov[i] = rv(0, 999999); });
  ov.synchronize();
  std::printf("far element: %d (%s)\n", out[0], out[0] == 7 ? "PASSED" : "FAILED");
  return 0;
}
