// SYCL 2020 §4.9.2's rules for reductions, each refused at compile time
// with the reason: a reducer's operators exist only for the combiner they
// mean (+= for plus, *= for multiplies, ...; ++ for an integral plus),
// identity() only where there is one, a span reduction needs a fixed
// extent, and the reduced type must be trivially copyable.
// RUN: %slmcxx -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
#include <sycl/sycl.hpp>

#include <string>

int main() {
  sycl::queue q;
  int *i = sycl::malloc_shared<int>(4, q);
  float *f = sycl::malloc_shared<float>(1, q);

  q.parallel_for(sycl::range<1>{8}, sycl::reduction(i, sycl::plus<>()), [=](sycl::id<1>, auto &s) {
    s *= 2; // expected-error {{no viable overloaded '*='}}
  });
  q.parallel_for(sycl::range<1>{8}, sycl::reduction(i, sycl::maximum<>()), [=](sycl::id<1>, auto &s) {
    s += 2; // expected-error {{no viable overloaded '+='}}
  });
  q.parallel_for(sycl::range<1>{8}, sycl::reduction(f, sycl::plus<>()), [=](sycl::id<1>, auto &s) {
    ++s; // expected-error {{cannot increment value of type}}
  });
  auto mx = [](int a, int b) { return a > b ? a : b; };
  q.parallel_for(sycl::range<1>{8}, sycl::reduction(i, mx), [=](sycl::id<1>, auto &s) {
    s.combine(s.identity()); // expected-error {{no matching member function for call to 'identity'}}
  });
  (void)sycl::reduction(sycl::span<int>(i, 4), sycl::plus<>());
  // expected-error@*:* {{sycl::reduction: a span reduction needs a span of a fixed extent}}
  std::string *str = nullptr;
  (void)sycl::reduction(str, sycl::plus<>());
  // expected-error@*:* {{sycl::reduction: the reduced type must be trivially copyable}}
  return 0;
}
