// What SYCL programs written for DPC++ take from its headers and its way of
// finding device code, beyond the specification's classes:
//  * DPC++'s per-feature headers included alone (<sycl/queue.hpp>,
//    <sycl/group_algorithm.hpp>, ...), and assert and std::cout used without
//    their own headers (DPC++'s bring them in);
//  * sycl::ext::oneapi::plus / maximum (DPC++'s earlier spellings) and the
//    standard function objects with their known identities in the group
//    algorithms (DPC++'s sycl::plus is std::plus);
//  * a helper called in a constructor's member initializer: device code,
//    as a call in the body is (the block-load classes of CUB-style code);
//  * a kernel in a function template instantiated for int and then for a
//    class: the second instantiation's constructor and operator== are
//    device code too;
//  * a zero-dimensional local_accessor (SYCL 2020 4.7.6.11);
//  * DPC++'s -fno-sycl-early-optimizations, accepted.
// RUN: %slmcxx -O2 -fsycl -fno-sycl-early-optimizations %s -o %t
// RUN: env SLMC_DEVICE=cpu %t | FileCheck %s
// RUN: %slmcxx -O2 --emit=spirv %s -o %t.spv
// RUN: %spirv-val %t.spv
// CHECK: sums 28 28 max 7 exclusive 0 0 1 3
// CHECK-NEXT: helper in an initializer: 7 6 5 4 3 2 1 0
// CHECK-NEXT: instantiations: int 0 bad, Point 0 bad
// CHECK-NEXT: zero-dimensional local accessor: 40 47
// CHECK-NEXT: PASSED
#include <sycl/group_algorithm.hpp>
#include <sycl/queue.hpp>
#include <sycl/ext/oneapi/group_local_memory.hpp>

#include <functional>

namespace oneapi = sycl::ext::oneapi;

static int lane(const sycl::nd_item<1> &it) { return int(it.get_local_id(0)); }

// Constructed in the kernel; its helper runs in the member initializer.
struct Mirror {
  int from;
  explicit Mirror(const sycl::nd_item<1> &it) : from(7 - lane(it)) {}
};

struct Point {
  int x, y;
  Point(int x = 1, int y = 2) : x(x), y(y) {}
};
static bool operator==(const Point &a, const Point &b) { return a.x == b.x && a.y == b.y; }

template <typename T> static int groups_agree(sycl::queue &q, int v) {
  bool *ok = sycl::malloc_shared<bool>(16, q);
  q.parallel_for(sycl::nd_range<1>(16, 8), [=](sycl::nd_item<1> it) {
     auto shared = oneapi::group_local_memory<T>(it.get_group(), v);
     ok[it.get_global_linear_id()] = *shared == T(v);
   }).wait();
  int bad = 0;
  for (int i = 0; i < 16; ++i)
    bad += !ok[i];
  sycl::free(ok, q);
  return bad;
}

int main() {
  sycl::queue q;
  int *r = sycl::malloc_shared<int>(16, q);
  q.parallel_for(sycl::nd_range<1>(8, 8), [=](sycl::nd_item<1> it) {
     const int i = lane(it);
     auto g = it.get_group();
     r[0] = sycl::reduce_over_group(g, i, oneapi::plus<>());
     r[1] = sycl::reduce_over_group(g, i, std::plus<int>());
     r[2] = sycl::reduce_over_group(g, i, oneapi::maximum<int>());
     const int ex = sycl::exclusive_scan_over_group(g, i, std::plus<>());
     if (i < 4)
       r[3 + i] = ex;
   }).wait();
  std::cout << "sums " << r[0] << " " << r[1] << " max " << r[2] << " exclusive " << r[3]
            << " " << r[4] << " " << r[5] << " " << r[6] << std::endl;
  assert(r[0] == 28);
  bool ok = r[0] == 28 && r[1] == 28 && r[2] == 7 && r[5] == 1 && r[6] == 3;

  q.parallel_for(sycl::nd_range<1>(8, 8), [=](sycl::nd_item<1> it) {
     int *slots = *oneapi::group_local_memory_for_overwrite<int[8]>(it.get_group());
     Mirror m(it);
     slots[lane(it)] = lane(it);
     sycl::group_barrier(it.get_group());
     r[lane(it)] = slots[m.from];
   }).wait();
  std::cout << "helper in an initializer:";
  for (int i = 0; i < 8; ++i) {
    std::cout << " " << r[i];
    ok = ok && r[i] == 7 - i;
  }
  std::cout << std::endl;

  const int bad_int = groups_agree<int>(q, 5), bad_point = groups_agree<Point>(q, 5);
  std::cout << "instantiations: int " << bad_int << " bad, Point " << bad_point << " bad"
            << std::endl;
  ok = ok && bad_int == 0 && bad_point == 0;

  q.submit([&](sycl::handler &h) {
     sycl::local_accessor<int, 0> base(h);
     h.parallel_for(sycl::nd_range<1>(8, 8), [=](sycl::nd_item<1> it) {
       if (lane(it) == 0)
         base = 40;
       sycl::group_barrier(it.get_group());
       int &b = base;
       r[lane(it)] = b + lane(it);
     });
   }).wait();
  std::cout << "zero-dimensional local accessor: " << r[0] << " " << r[7] << std::endl;
  ok = ok && r[0] == 40 && r[7] == 47;
  sycl::free(r, q);
  std::cout << (ok ? "PASSED" : "FAILED") << std::endl;
  return ok ? 0 : 1;
}
