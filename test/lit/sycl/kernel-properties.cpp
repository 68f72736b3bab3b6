// sycl_ext_oneapi_kernel_properties, written as DPC++ code writes it: a
// `properties{...}` argument to the launch (queue and handler), and a
// functor's `get(properties_tag)`. work_group_size<...> is
// reqd_work_group_size (the slowest dimension first; an nd_range of another
// local range is errc::nd_range; a range launch gets that shape),
// sub_group_size<N> is reqd_sub_group_size, work_group_size_hint<...> is
// accepted; has_property/get_property answer at compile time.
// RUN: %slmcxx -O2 %s -o %t
// RUN: %t | FileCheck %s
// CHECK: feature macros: 1 1
// CHECK-NEXT: queue, properties: 32, sub-group 32
// CHECK-NEXT: handler, properties: 16
// CHECK-NEXT: functor get(): 4 8, sub-group 32
// CHECK-NEXT: range with work_group_size: 100 work-items
// CHECK-NEXT: hint and empty properties: 7 9
// CHECK-NEXT: wrong local range: nd_range: parallel_for: the kernel requires the local range {32} (reqd_work_group_size or the work_group_size property), but the nd_range's is {64}
//
// SPIR-V: each requirement becomes its execution mode.
// RUN: %slmcxx --emit=spirv %s -o %t.spv
// RUN: %spirv-val %t.spv
// RUN: %spirv-dis %t.spv | FileCheck %s --check-prefix=SPIRV
// SPIRV-DAG: OpExecutionMode {{.*}} LocalSize 32 1 1
// SPIRV-DAG: OpExecutionMode {{.*}} LocalSize 16 1 1
// SPIRV-DAG: OpExecutionMode {{.*}} LocalSize 8 4 1
// SPIRV-DAG: OpExecutionMode {{.*}} SubgroupSize 32
// RUN: %slmcxx --emit=ptx %s -o %t.ptx

#include <sycl/sycl.hpp>

#include <cstdio>

namespace syclex = sycl::ext::oneapi::experimental;

struct Tile {
  int *o;
  void operator()(sycl::nd_item<2> it) const {
    if (it.get_global_linear_id() == 0) {
      o[0] = int(it.get_local_range(0));
      o[1] = int(it.get_local_range(1));
      o[2] = int(it.get_sub_group().get_local_linear_range());
    }
  }
  auto get(syclex::properties_tag) const {
    return syclex::properties{syclex::work_group_size<4, 8>, syclex::sub_group_size<32>};
  }
};

int main() {
  std::printf("feature macros: %d %d\n", SYCL_EXT_ONEAPI_PROPERTIES,
              SYCL_EXT_ONEAPI_KERNEL_PROPERTIES);
  sycl::queue q;
  int *o = sycl::malloc_shared<int>(128, q);
  size_t n = 128;

  syclex::properties props{syclex::work_group_size<32>, syclex::sub_group_size<32>};
  static_assert(props.has_property<syclex::work_group_size_key>());
  static_assert(!props.has_property<syclex::work_group_size_hint_key>());
  static_assert(props.get_property<syclex::work_group_size_key>()[0] == 32);
  static_assert(decltype(props)::get_property<syclex::sub_group_size_key>().value == 32);

  size_t local = 32;
  q.parallel_for(sycl::nd_range<1>(n, local), props, [=](sycl::nd_item<1> it) {
    if (it.get_global_id(0) == 0) {
      o[0] = int(it.get_local_range(0));
      o[2] = int(it.get_sub_group().get_local_linear_range());
    }
  }).wait();
  std::printf("queue, properties: %d, sub-group %d\n", o[0], o[2]);

  q.submit([&](sycl::handler &h) {
    h.parallel_for(sycl::nd_range<1>(n, 16), syclex::properties{syclex::work_group_size<16>},
                   [=](sycl::nd_item<1> it) {
                     if (it.get_global_id(0) == 0)
                       o[0] = int(it.get_local_range(0));
                   });
  }).wait();
  std::printf("handler, properties: %d\n", o[0]);

  q.parallel_for(sycl::nd_range<2>({8, 16}, {4, 8}), Tile{o}).wait();
  std::printf("functor get(): %d %d, sub-group %d\n", o[0], o[1], o[2]);

  for (int i = 0; i < 128; ++i)
    o[i] = 0;
  q.parallel_for(sycl::range<1>(100), syclex::properties{syclex::work_group_size<16>},
                 [=](sycl::item<1> it) { o[it.get_id(0)] = 1; }).wait();
  int ran = 0;
  for (int i = 0; i < 128; ++i)
    ran += o[i];
  std::printf("range with work_group_size: %d work-items\n", ran);

  q.parallel_for(sycl::range<1>(64), syclex::properties{syclex::work_group_size_hint<16>},
                 [=](sycl::id<1> i) {
                   if (i[0] == 0)
                     o[0] = 7;
                 }).wait();
  q.single_task(syclex::properties{}, [=] { o[1] = 9; }).wait();
  std::printf("hint and empty properties: %d %d\n", o[0], o[1]);

  try {
    q.parallel_for(sycl::nd_range<1>(n, 64), props, [=](sycl::nd_item<1>) {}).wait();
    std::printf("wrong local range: no exception\n");
  } catch (const sycl::exception &e) {
    std::printf("wrong local range: %s: %s\n",
                e.code() == sycl::errc::nd_range ? "nd_range" : "other", e.what());
  }
  sycl::free(o, q);
}
