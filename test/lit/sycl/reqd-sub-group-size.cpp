// [[sycl::reqd_sub_group_size(N)]] and [[intel::reqd_sub_group_size(N)]] in
// every place SYCL code writes them: after a kernel lambda's parameters (in
// the call, in a variable, split by #ifdef, from a macro, in a function
// template with the size a template parameter) and on a functor's call
// operator (struct and class). Each kernel reports the sub-group size it
// ran with and computes a warp-style shift reduction that is right only
// with that size; the CPU fallback honours every size it lists in
// info::device::sub_group_sizes. A size the device lacks is
// errc::kernel_not_supported. No "unknown attribute" warning.
// RUN: %slmcxx -O2 -Werror=unknown-attributes %s -o %t
// RUN: %t | FileCheck %s
// CHECK: sub_group_sizes: 1 2 4 8 16 32 64
// CHECK: inline lambda (32): PASSED
// CHECK: lambda variable (16): PASSED
// CHECK: macro attribute (16): PASSED
// CHECK: template<8> (8): PASSED
// CHECK: template<4> (4): PASSED
// CHECK: struct functor (8): PASSED
// CHECK: class functor (2): PASSED
// CHECK: size 3: kernel_not_supported: parallel_for: {{.*}}the kernel requires sub-group size 3, which cpu device 'CPU fallback ({{.*}})' does not have (its sizes: 1, 2, 4, 8, 16, 32, 64)
// CHECK: no requirement: 1
//
// The lowering: lambdas wrapped, functors given the member, annotations gone.
// RUN: %slmcxx --emit=offload-cpp %s -o - | FileCheck %s --check-prefix=LOWER
// LOWER: ::slmc::with_sub_group_size<{{[(]}}Size)>([=](sycl::nd_item<1> it)
// LOWER-NEXT: {{\[\[\]\]}} {
// LOWER: static constexpr unsigned slmc_reqd_sub_group_size = {{[(]}}8);
// LOWER: static constexpr unsigned slmc_reqd_sub_group_size = {{[(]}}2);
// LOWER: ::slmc::with_sub_group_size<{{[(]}}WARP)>([=](sycl::nd_item<1> it) {{\[\[\]\]}} {
// LOWER: ::slmc::with_sub_group_size<{{[(]}}kHalfWarp)>([=](sycl::nd_item<1> it) {{\[\[\]\]}} {
//
// The SPIR-V asks IGC for each size; PTX builds (its launches check the size).
// RUN: %slmcxx --emit=spirv %s -o %t.spv
// RUN: %spirv-val %t.spv
// RUN: %spirv-dis %t.spv | FileCheck %s --check-prefix=SPIRV
// SPIRV-DAG: OpExecutionMode {{.*}} SubgroupSize 32
// SPIRV-DAG: OpExecutionMode {{.*}} SubgroupSize 16
// SPIRV-DAG: OpExecutionMode {{.*}} SubgroupSize 8
// SPIRV-DAG: OpExecutionMode {{.*}} SubgroupSize 4
// SPIRV-DAG: OpExecutionMode {{.*}} SubgroupSize 2
// RUN: %slmcxx --emit=ptx %s -o %t.ptx
//
// The plugin alone has no pre-pass: an error instead of a dropped attribute
// (one per file); none for attributes in inactive #if branches.
// RUN: not %clangxx -std=c++17 %plugin -fsyntax-only %s 2>&1 | FileCheck %s --check-prefix=PLUGIN
// RUN: %clangxx -std=c++17 %plugin -fsyntax-only -DPLUGIN_ONLY %s
// PLUGIN: reqd-sub-group-size.cpp:[[#]]:{{[0-9]+}}: error: reqd_sub_group_size needs slmc's source pre-pass (slmc++, slmc-clangd, clang-tidy with slmc's module)
// PLUGIN-NOT: error:

#include <sycl/sycl.hpp>

#include <cstdio>

#if defined(PLUGIN_ONLY)
int main() {}
#else

#define WARP 32
#define KERNEL_ATTR [[intel::reqd_sub_group_size(16)]]
constexpr int kHalfWarp = 16;
constexpr size_t N = 128, L = 64;

/// Warp-style code: a shift reduction written for sub-groups of `size`
/// (right only if they are that size), then the size the sub-group has.
void sum_lanes(sycl::nd_item<1> it, int *out, int size) {
  sycl::sub_group sg = it.get_sub_group();
  int v = int(it.get_local_id(0));
  for (int offset = size / 2; offset > 0; offset /= 2)
    v += sycl::shift_group_left(sg, v, offset);
  out[2 * it.get_global_id(0)] = int(sg.get_local_linear_range());
  out[2 * it.get_global_id(0) + 1] = sycl::group_broadcast(sg, v);
}

int *out;

void check(const char *what, int size) {
  int bad = 0;
  for (size_t i = 0; i < N; ++i) {
    int l = int(i % L), first = l / size * size, want = 0;
    for (int k = first; k < first + size; ++k) want += k;
    if ((out[2 * i] != size || out[2 * i + 1] != want) && bad++ < 3)
      std::printf("%s: work-item %zu: size %d, sum %d; want %d, %d\n", what, i, out[2 * i],
                  out[2 * i + 1], size, want);
  }
  std::printf("%s (%d): %s\n", what, size, bad ? "FAILED" : "PASSED");
}

template <int Size> void in_template(sycl::queue &q, const char *what) {
  int *o = out;
  q.parallel_for(sycl::nd_range<1>(N, L), [=](sycl::nd_item<1> it)
                                              [[sycl::reqd_sub_group_size(Size)]] {
    sum_lanes(it, o, Size);
  }).wait();
  check(what, Size);
}

struct StructFunctor {
  int *o;
  [[sycl::reqd_sub_group_size(8)]] void operator()(sycl::nd_item<1> it) const {
    sum_lanes(it, o, 8);
  }
};

class ClassFunctor {
  int *o;

public:
  explicit ClassFunctor(int *o) : o(o) {}
  [[intel::reqd_sub_group_size(2)]] void operator()(sycl::nd_item<1> it) const;
};
void ClassFunctor::operator()(sycl::nd_item<1> it) const { sum_lanes(it, o, 2); }

int main() {
  sycl::queue q;
  out = sycl::malloc_shared<int>(2 * N, q);
  int *o = out;
  std::printf("sub_group_sizes:");
  for (size_t s : q.get_device().get_info<sycl::info::device::sub_group_sizes>())
    std::printf(" %zu", s);
  std::printf("\n");

  q.parallel_for(sycl::nd_range<1>(N, L), [=](sycl::nd_item<1> it) [[sycl::reqd_sub_group_size(WARP)]] {
    sum_lanes(it, o, WARP);
  }).wait();
  check("inline lambda", WARP);

  auto kernel = [=](sycl::nd_item<1> it) [[sycl::reqd_sub_group_size(kHalfWarp)]] {
    sum_lanes(it, o, kHalfWarp);
  };
  q.parallel_for(sycl::nd_range<1>(N, L), kernel).wait();
  check("lambda variable", kHalfWarp);

  q.submit([&](sycl::handler &h) {
    h.parallel_for(sycl::nd_range<1>(N, L), [=](sycl::nd_item<1> it)
#if !defined(NO_ATTRIBUTE)
        KERNEL_ATTR
#endif
    { sum_lanes(it, o, 16); });
  }).wait();
  check("macro attribute", 16);

  in_template<8>(q, "template<8>");
  in_template<4>(q, "template<4>");

  q.parallel_for(sycl::nd_range<1>(N, L), StructFunctor{o}).wait();
  check("struct functor", 8);
  q.parallel_for(sycl::nd_range<1>(N, L), ClassFunctor(o)).wait();
  check("class functor", 2);

  try {
    q.parallel_for(sycl::nd_range<1>(N, L), [=](sycl::nd_item<1> it) [[sycl::reqd_sub_group_size(3)]] {
      sum_lanes(it, o, 3);
    }).wait();
    std::printf("size 3: no exception\n");
  } catch (const sycl::exception &e) {
    std::printf("size 3: %s: %s\n",
                e.code() == sycl::errc::kernel_not_supported ? "kernel_not_supported" : "other",
                e.what());
  }

  q.parallel_for(sycl::nd_range<1>(N, L), [=](sycl::nd_item<1> it) {
    o[it.get_global_id(0)] = int(it.get_sub_group().get_local_linear_range());
  }).wait();
  std::printf("no requirement: %d\n", o[0]);
  sycl::free(out, q);
}
#endif
