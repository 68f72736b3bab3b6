// reqd_sub_group_size: the size must be a positive integer constant (Clang
// checks that it is a constant); an argument that depends on a template
// parameter must not be written inside a macro's body (a macro argument is
// fine), since slmc repeats it before the lambda. Written correctly, in any place, it draws no warning (not
// even Clang's unknown-attribute one).
// RUN: %slmcxx -fsyntax-only -Xclang -verify %s

#include <sycl/sycl.hpp>

#define SG_FOR(n) [[sycl::reqd_sub_group_size(n)]]
#define SIZE_OF(T) sizeof(T)
#define SG_OF(T) [[sycl::reqd_sub_group_size(sizeof(T) * 4)]]

struct Zero {
  [[sycl::reqd_sub_group_size(0)]] void operator()(sycl::nd_item<1>) const {} // expected-error {{reqd_sub_group_size must be a positive integer, not 0}}
};

template <typename T> void in_macro(sycl::queue &q) {
  q.parallel_for(sycl::nd_range<1>(64, 64), [=](sycl::nd_item<1>) SG_OF(T) {}); // expected-error {{slmc cannot carry this reqd_sub_group_size: its argument depends on a template parameter and is written inside a macro}}
}

template <typename T> void outside_macro(sycl::queue &q) {
  q.parallel_for(sycl::nd_range<1>(64, 64), [=](sycl::nd_item<1>) SG_FOR(SIZE_OF(T) * 4) {});
}

void use(sycl::queue &q) {
  q.parallel_for(sycl::nd_range<1>(64, 64), [=](sycl::nd_item<1>) [[sycl::reqd_sub_group_size(-4)]] {}); // expected-error {{reqd_sub_group_size must be a positive integer, not -4}}
  q.parallel_for(sycl::nd_range<1>(64, 64), [=](sycl::nd_item<1>) [[intel::reqd_sub_group_size(16)]] {});
  q.parallel_for(sycl::nd_range<1>(64, 64), [=](sycl::nd_item<1>) noexcept [[sycl::reqd_sub_group_size(8)]] {});
  q.parallel_for(sycl::nd_range<1>(64, 64), [=](sycl::nd_item<1>) SG_FOR(32) {});
  in_macro<int>(q);
  outside_macro<float>(q);
  q.parallel_for(sycl::nd_range<1>(64, 64), Zero{});
}
