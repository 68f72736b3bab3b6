// A kernel lambda written in an nd_range launch whose local range is a
// constant only ever runs with that shape, so slmc compiles it for that
// shape, as if it had [[sycl::reqd_work_group_size]]: LocalSize for IGC,
// constant local sizes in the device code (the group-wide zeroing loop of
// a value-initialised group_local_memory becomes one store per work-item),
// fixed-shape work-item loops on the CPU. Lambdas launched from a
// variable, from a template or with a run-time local range are left alone.
// RUN: %slmcxx -O2 %s -o %t
// RUN: %t | FileCheck %s
// CHECK: constant 1-d: 130816 ok
// CHECK-NEXT: constant 2-d: 8 16 ok
// CHECK-NEXT: run-time: 130816 ok
// CHECK-NEXT: variable: 130816 ok
// CHECK-NEXT: template: 130816 ok
//
// RUN: %slmcxx --emit=offload-cpp %s -o - | FileCheck %s --check-prefix=LOWER
// LOWER: q.parallel_for(sycl::nd_range<1>(n, Size), [=](sycl::nd_item<1> it) {
// LOWER: q.parallel_for(sycl::nd_range<1>(n, WG), ::slmc::with_work_group_size<128>([=](sycl::nd_item<1> it) {
// LOWER: q.parallel_for(sycl::nd_range<2>({16, 32}, {8, 16}), ::slmc::with_work_group_size<8, 16>([=](sycl::nd_item<2> it) {
// LOWER: q.parallel_for(sycl::nd_range<1>(n, wg), [=](sycl::nd_item<1> it) {
// LOWER: q.parallel_for(sycl::nd_range<1>(n, WG), kernel).wait();
//
// Exactly the two constant launches get LocalSize; the 1-d one reads no
// work-group size (its zeroing loop is folded); spirv-val passes.
// RUN: %slmcxx --emit=spirv %s -o %t.spv
// RUN: %spirv-val %t.spv
// RUN: %spirv-dis %t.spv | grep -c "OpExecutionMode .* LocalSize" | FileCheck %s --check-prefix=COUNT
// COUNT: {{^2$}}
// RUN: %spirv-dis %t.spv | FileCheck %s --check-prefix=SPIRV
// SPIRV-DAG: OpExecutionMode [[K1:%[^ ]+]] LocalSize 128 1 1
// SPIRV-DAG: OpExecutionMode {{.*}} LocalSize 16 8 1
// SPIRV: [[K1]] = OpFunction
// SPIRV-NOT: OpLoad {{.*}} %__spirv_BuiltInWorkgroupSize
// SPIRV: OpFunctionEnd
// RUN: %slmcxx --emit=ptx %s -o %t.ptx

#include <sycl/ext/oneapi/group_local_memory.hpp>
#include <sycl/sycl.hpp>

#include <cstdio>

constexpr size_t WG = 128, BINS = 64;
size_t n = 512;

/// Each group counts its work-items' ids modulo BINS in group-local bins
/// (value-initialised: zeroed by the group), then adds them to `out`.
SYCL_EXTERNAL void count(sycl::nd_item<1> it, unsigned *out) {
  auto bins = sycl::ext::oneapi::group_local_memory<unsigned[BINS]>(it.get_group());
  sycl::atomic_ref<unsigned, sycl::memory_order::relaxed, sycl::memory_scope::work_group,
                   sycl::access::address_space::local_space>((*bins)[it.get_global_id(0) % BINS])
      .fetch_add(unsigned(it.get_global_id(0)));
  sycl::group_barrier(it.get_group());
  for (size_t b = it.get_local_id(0); b < BINS; b += it.get_local_range(0))
    sycl::atomic_ref<unsigned, sycl::memory_order::relaxed, sycl::memory_scope::device>(out[b])
        .fetch_add((*bins)[b]);
}

unsigned total(const unsigned *out) {
  unsigned t = 0;
  for (size_t b = 0; b < BINS; ++b)
    t += out[b];
  return t;
}

template <size_t Size> void in_template(sycl::queue &q, unsigned *out) {
  q.parallel_for(sycl::nd_range<1>(n, Size), [=](sycl::nd_item<1> it) {
    count(it, out);
  }).wait();
}

int main() {
  sycl::queue q;
  unsigned *out = sycl::malloc_shared<unsigned>(BINS, q);
  const unsigned want = unsigned(n * (n - 1) / 2);
  auto report = [&](const char *what) {
    std::printf("%s: %u %s\n", what, total(out), total(out) == want ? "ok" : "WRONG");
    for (size_t b = 0; b < BINS; ++b)
      out[b] = 0;
  };
  for (size_t b = 0; b < BINS; ++b)
    out[b] = 0;

  q.parallel_for(sycl::nd_range<1>(n, WG), [=](sycl::nd_item<1> it) {
    count(it, out);
  }).wait();
  report("constant 1-d");

  int *shape = sycl::malloc_shared<int>(2, q);
  q.parallel_for(sycl::nd_range<2>({16, 32}, {8, 16}), [=](sycl::nd_item<2> it) {
    if (it.get_global_linear_id() == 0) {
      shape[0] = int(it.get_local_range(0));
      shape[1] = int(it.get_local_range(1));
    }
  }).wait();
  std::printf("constant 2-d: %d %d %s\n", shape[0], shape[1],
              shape[0] == 8 && shape[1] == 16 ? "ok" : "WRONG");

  size_t wg = n / 4;
  q.parallel_for(sycl::nd_range<1>(n, wg), [=](sycl::nd_item<1> it) {
    count(it, out);
  }).wait();
  report("run-time");

  auto kernel = [=](sycl::nd_item<1> it) { count(it, out); };
  q.parallel_for(sycl::nd_range<1>(n, WG), kernel).wait();
  report("variable");

  in_template<64>(q, out);
  report("template");
  sycl::free(shape, q);
  sycl::free(out, q);
}
