// sycl_ext_oneapi_kernel_properties: a property's parameters are checked
// where the property is named, with one error each (the launch that uses
// the property reports nothing more).
// (The notes under each error, in the header, are not checked.)
// RUN: %slmcxx -fsyntax-only -Xclang -verify -Xclang -verify-ignore-unexpected=note %s
#include <sycl/sycl.hpp>

namespace syclex = sycl::ext::oneapi::experimental;

// expected-error@*:* {{work_group_size: the dimensions must be positive}}
// expected-error@*:* {{work_group_size takes one to three dimensions}}
// expected-error@*:* {{work_group_size_hint takes one to three dimensions}}
// expected-error@*:* {{sub_group_size: the size must be positive}}

int main() {
  sycl::queue q;
  int *out = sycl::malloc_shared<int>(64, q);

  syclex::properties zero{syclex::work_group_size<64, 0>}; // expected-note {{in instantiation of variable template specialization}}
  q.parallel_for(sycl::nd_range<2>({64, 1}, {64, 1}), zero, [=](sycl::nd_item<2> it) {
    out[it.get_global_linear_id()] = 1;
  });

  syclex::properties four{syclex::work_group_size<4, 4, 2, 2>}; // expected-note {{in instantiation of variable template specialization}}
  q.parallel_for(sycl::nd_range<1>(64, 64), four, [=](sycl::nd_item<1> it) {
    out[it.get_global_linear_id()] = 1;
  });

  q.submit([&](sycl::handler &h) {
    syclex::properties hint{syclex::work_group_size_hint<>}; // expected-note {{in instantiation of variable template specialization}}
    h.parallel_for(sycl::range<1>(64), hint, [=](sycl::id<1> i) { out[i] = 2; });
  });

  syclex::properties sub{syclex::sub_group_size<0>}; // expected-note {{in instantiation of variable template specialization}}
  q.single_task(sub, [=] { out[0] = 3; });

  // Well-formed properties next to them draw nothing.
  syclex::properties fine{syclex::work_group_size<16, 4>, syclex::sub_group_size<16>};
  q.parallel_for(sycl::nd_range<2>({64, 4}, {16, 4}), fine, [=](sycl::nd_item<2> it) {
    out[it.get_global_linear_id()] = 4;
  });
  q.wait();
  sycl::free(out, q);
}
