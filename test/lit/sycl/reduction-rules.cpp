// SYCL 2020 §4.9.2's rules for reductions, each refused at compile time
// with the reason: a reducer's operators exist only for the combiner they
// mean (+= for plus, *= for multiplies, ...; ++ for an integral plus),
// identity() only where there is one, a span reduction needs a fixed
// extent, and the reduced type must be trivially copyable.
// (FileCheck rather than -verify: each error comes with Clang's candidate
// and instantiation notes, which are not the point here.)
// RUN: not %slmcxx -fsyntax-only %s 2>&1 | FileCheck %s
// CHECK-DAG: reduction-rules.cpp:{{[0-9]+:[0-9]+}}: error: no viable overloaded '*='
// CHECK-DAG: reduction-rules.cpp:{{[0-9]+:[0-9]+}}: error: no viable overloaded '+='
// CHECK-DAG: reduction-rules.cpp:{{[0-9]+:[0-9]+}}: error: cannot increment value of type
// CHECK-DAG: reduction-rules.cpp:{{[0-9]+:[0-9]+}}: error: no matching member function for call to 'identity'
// CHECK-DAG: error: static assertion failed{{.*}}sycl::reduction: a span reduction needs a span of a fixed extent
// CHECK-DAG: error: static assertion failed{{.*}}sycl::reduction: the reduced type must be trivially copyable
#include <sycl/sycl.hpp>

#include <string>

int main() {
  sycl::queue q;
  int *i = sycl::malloc_shared<int>(4, q);
  float *f = sycl::malloc_shared<float>(1, q);

  q.parallel_for(sycl::range<1>{8}, sycl::reduction(i, sycl::plus<>()), [=](sycl::id<1>, auto &s) {
    s *= 2;
  });
  q.parallel_for(sycl::range<1>{8}, sycl::reduction(i, sycl::maximum<>()), [=](sycl::id<1>, auto &s) {
    s += 2;
  });
  q.parallel_for(sycl::range<1>{8}, sycl::reduction(f, sycl::plus<>()), [=](sycl::id<1>, auto &s) {
    ++s;
  });
  auto mx = [](int a, int b) { return a > b ? a : b; };
  q.parallel_for(sycl::range<1>{8}, sycl::reduction(i, mx), [=](sycl::id<1>, auto &s) {
    s.combine(s.identity());
  });
  (void)sycl::reduction(sycl::span<int>(i, 4), sycl::plus<>());

  std::string *str = nullptr;
  (void)sycl::reduction(str, sycl::plus<>());

  return 0;
}
