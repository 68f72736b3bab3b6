// reqd_work_group_size and work_group_size_hint: one to three positive
// integer constants; reqd_work_group_size as many as the kernel's range
// has dimensions (a static assertion at the launch); an argument that
// depends on a template parameter must not be written inside a macro's
// body, since slmc repeats it before the lambda. Written correctly, in any
// place, they draw no warning (not even Clang's unknown-attribute one).
// RUN: %slmcxx -fsyntax-only -Xclang -verify %s

#include <sycl/sycl.hpp>

#define WG_OF(T) [[sycl::reqd_work_group_size(sizeof(T) * 4)]]
#define WG_FOR(n) [[sycl::reqd_work_group_size(n)]]

struct Zero {
  [[sycl::reqd_work_group_size(8, 0)]] void operator()(sycl::nd_item<2>) const {} // expected-error {{reqd_work_group_size dimensions must be positive integers, not 0}}
};

struct FourDimensions {
  [[intel::reqd_work_group_size(1, 2, 3, 4)]] void operator()(sycl::nd_item<3>) const {} // expected-error {{reqd_work_group_size takes one to three arguments, not 4}}
};

template <typename T> void in_macro(sycl::queue &q) {
  q.parallel_for(sycl::nd_range<1>(64, 64), [=](sycl::nd_item<1>) WG_OF(T) {}); // expected-error {{slmc cannot carry this reqd_work_group_size: its argument depends on a template parameter and is written inside a macro}}
}

template <typename T> void outside_macro(sycl::queue &q) {
  q.parallel_for(sycl::nd_range<1>(64, 64), [=](sycl::nd_item<1>) WG_FOR(sizeof(T) * 16) {});
}

void use(sycl::queue &q) {
  q.parallel_for(sycl::nd_range<1>(64, 64), [=](sycl::nd_item<1>) [[sycl::reqd_work_group_size(-4)]] {}); // expected-error {{reqd_work_group_size dimensions must be positive integers, not -4}}
  q.parallel_for(sycl::nd_range<1>(64, 64), [=](sycl::nd_item<1>) [[sycl::reqd_work_group_size()]] {}); // expected-error {{reqd_work_group_size takes one to three arguments, not 0}}
  q.parallel_for(sycl::nd_range<1>(64, 64), [=](sycl::nd_item<1>) [[sycl::work_group_size_hint(0)]] {}); // expected-error {{work_group_size_hint dimensions must be positive integers, not 0}}
  q.parallel_for(sycl::nd_range<1>(64, 64), [=](sycl::nd_item<1>) [[sycl::reqd_sub_group_size(8, 16)]] {}); // expected-error {{reqd_sub_group_size takes one argument, not 2}}
  q.parallel_for(sycl::nd_range<1>(64, 64), [=](sycl::nd_item<1>) [[sycl::reqd_work_group_size(64)]] [[sycl::work_group_size_hint(64)]] {});
  q.parallel_for(sycl::nd_range<1>(64, 64), [=](sycl::nd_item<1>) noexcept [[intel::reqd_work_group_size(64)]] {});
  q.parallel_for(sycl::nd_range<1>(64, 64), [=](sycl::nd_item<1>) WG_FOR(64) {});
  in_macro<int>(q);
  outside_macro<float>(q);
  q.parallel_for(sycl::nd_range<2>({8, 8}, {8, 8}), Zero{});
  q.parallel_for(sycl::nd_range<3>({1, 2, 3}, {1, 2, 3}), FourDimensions{});
}

// The dimensions must match the launch's.
struct TwoDimensions {
  [[sycl::reqd_work_group_size(8, 8)]] void operator()(sycl::item<1>) const {} // expected-error {{reqd_work_group_size has 2 dimensions, but the kernel is launched over a 1-dimensional range}}
};
void wrong_rank(sycl::queue &q) {
  q.parallel_for(sycl::nd_range<2>({8, 8}, {8, 8}), [=](sycl::nd_item<2>) [[sycl::reqd_work_group_size(64)]] {}); // expected-error {{reqd_work_group_size has 1 dimension, but the kernel is launched over a 2-dimensional range}} expected-note {{kernel launched here}}
  q.parallel_for(64, TwoDimensions{}); // expected-note {{kernel launched here}}
  // SYCL 1.2.1 code wrote three dimensions for every kernel; which of them
  // is a 1-d kernel's is not clear, so slmc asks for as many as the range.
  q.parallel_for(sycl::nd_range<1>(64, 64), [=](sycl::nd_item<1>) [[cl::reqd_work_group_size(64, 1, 1)]] {}); // expected-error {{reqd_work_group_size has 3 dimensions, but the kernel is launched over a 1-dimensional range}} expected-note {{kernel launched here}}
  q.parallel_for(sycl::nd_range<1>(64, 64), [=](sycl::nd_item<1>) [[cl::intel_reqd_sub_group_size(0)]] {}); // expected-error {{reqd_sub_group_size must be a positive integer, not 0}}
}
