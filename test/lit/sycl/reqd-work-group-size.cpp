// [[sycl::reqd_work_group_size(...)]] (SYCL 2020 5.8.1) and its
// [[intel::...]] and SYCL 1.2.1 [[cl::...]] spellings, in the places SYCL
// code writes them: after a kernel lambda's parameters (in the call, in a
// variable, from a macro, in a function template with a template
// parameter), on a functor's call operator (struct and class), in 1, 2
// and 3 dimensions, on range, nd_range and reduction launches. Each kernel writes the local range it
// ran with; an nd_range of another local range is errc::nd_range; a range
// launch gets groups of the required shape. work_group_size_hint is
// accepted and changes nothing. No "unknown attribute" warning.
// RUN: %slmcxx -O2 -Werror=unknown-attributes %s -o %t
// RUN: %t | FileCheck %s
// CHECK: inline lambda: 64 (64 1 1)
// CHECK-NEXT: lambda variable: 32 (32 1 1)
// CHECK-NEXT: macro attribute: 16 (16 1 1)
// CHECK-NEXT: template<8>: 8 (8 1 1)
// CHECK-NEXT: cl:: spelling: 2 8 (8 2 1)
// CHECK-NEXT: struct functor 2-d: 4 8 (8 4 1)
// CHECK-NEXT: class functor 3-d: 2 4 8 (8 4 2)
// CHECK-NEXT: range launch: 100 work-items
// CHECK-NEXT: reduction: sum 8128, groups of 32
// CHECK-NEXT: with reqd_sub_group_size: 64
// CHECK-NEXT: hint only: 48
// CHECK-NEXT: wrong local range: nd_range: parallel_for: the kernel requires the local range {64} (reqd_work_group_size or the work_group_size property), but the nd_range's is {32}
// CHECK-NEXT: wrong 2-d local range: nd_range: parallel_for: the kernel requires the local range {4, 8} (reqd_work_group_size or the work_group_size property), but the nd_range's is {8, 4}
//
// The lowering: lambdas wrapped, functors given the member, annotations
// gone (the hint too).
// RUN: %slmcxx --emit=offload-cpp %s -o - | FileCheck %s --check-prefix=LOWER
// LOWER: ::slmc::with_work_group_size<{{[(]}}Size)>([=](sycl::nd_item<1> it)
// LOWER: static constexpr ::slmc::written_group_shape slmc_written_work_group_size = {2, {(4), (8)}};
// LOWER: static constexpr ::slmc::written_group_shape slmc_written_work_group_size = {3, {(2), (4), (8)}};
// LOWER: ::slmc::with_work_group_size<{{[(]}}64)>([=](sycl::nd_item<1> it) {{\[\[\]\]}} {
// LOWER: ::slmc::with_work_group_size<{{[(]}}2), (8)>([=](cl::sycl::nd_item<2> it)
// LOWER: ::slmc::with_work_group_size<{{[(]}}32)>([=](sycl::nd_item<1> it, auto &s) {{\[\[\]\]}} {
// LOWER-NOT: annotate
//
// The SPIR-V asks IGC for each shape, x fastest (LocalSize); it validates,
// and PTX builds.
// RUN: %slmcxx --emit=spirv %s -o %t.spv
// RUN: %spirv-val %t.spv
// RUN: %spirv-dis %t.spv | FileCheck %s --check-prefix=SPIRV
// SPIRV-DAG: OpExecutionMode {{.*}} LocalSize 64 1 1
// SPIRV-DAG: OpExecutionMode {{.*}} LocalSize 32 1 1
// SPIRV-DAG: OpExecutionMode {{.*}} LocalSize 16 1 1
// SPIRV-DAG: OpExecutionMode {{.*}} LocalSize 8 1 1
// SPIRV-DAG: OpExecutionMode {{.*}} LocalSize 8 4 1
// SPIRV-DAG: OpExecutionMode {{.*}} LocalSize 8 4 2
// SPIRV-DAG: OpExecutionMode {{.*}} LocalSize 8 2 1
// RUN: %slmcxx --emit=ptx %s -o %t.ptx
//
// The plugin alone has no pre-pass: an error instead of a dropped attribute
// (one per file).
// RUN: not %clangxx -std=c++17 %plugin -fsyntax-only %s 2>&1 | FileCheck %s --check-prefix=PLUGIN
// PLUGIN: reqd-work-group-size.cpp:[[#]]:{{[0-9]+}}: error: reqd_work_group_size needs slmc's source pre-pass (slmc++, slmc-clangd, clang-tidy with slmc's module): without it Clang drops the attribute and the kernel would run with another work-group shape
// PLUGIN-NOT: error:

#include <CL/sycl.hpp> // SYCL 1.2.1 code, below
#include <sycl/sycl.hpp>

#include <cstdio>

#define KERNEL_ATTR [[intel::reqd_work_group_size(16)]]
constexpr int kHalf = 32;
size_t n = 128; // a run-time global range: the local range is what matters

int *out;

/// Writes the local range (SYCL order) and, from the device's view, the
/// group's size x, y, z.
template <int N> void record(const sycl::nd_item<N> &it, int *o) {
  if (it.get_global_linear_id() != 0)
    return;
  for (int d = 0; d < N; ++d)
    o[d] = int(it.get_local_range(d));
  for (int d = 0; d < 3; ++d)
    o[4 + d] = d < N ? int(it.get_local_range(N - 1 - d)) : 1;
}

void show(const char *what, int dims) {
  std::printf("%s:", what);
  for (int d = 0; d < dims; ++d)
    std::printf(" %d", out[d]);
  std::printf(" (%d %d %d)\n", out[4], out[5], out[6]);
}

template <int Size> void in_template(sycl::queue &q) {
  int *o = out;
  q.parallel_for(sycl::nd_range<1>(n, Size), [=](sycl::nd_item<1> it)
                                                 [[sycl::reqd_work_group_size(Size)]] {
    record(it, o);
  }).wait();
}

struct StructFunctor {
  int *o;
  [[sycl::reqd_work_group_size(4, 8)]] void operator()(sycl::nd_item<2> it) const {
    record(it, o);
  }
};

class ClassFunctor {
  int *o;

public:
  explicit ClassFunctor(int *o) : o(o) {}
  [[intel::reqd_work_group_size(2, 4, 8)]] void operator()(sycl::nd_item<3> it) const;
};
void ClassFunctor::operator()(sycl::nd_item<3> it) const { record(it, o); }

int main() {
  sycl::queue q;
  out = sycl::malloc_shared<int>(256, q);
  int *o = out;

  q.parallel_for(sycl::nd_range<1>(n, 64), [=](sycl::nd_item<1> it) [[sycl::reqd_work_group_size(64)]] {
    record(it, o);
  }).wait();
  show("inline lambda", 1);

  auto kernel = [=](sycl::nd_item<1> it) [[sycl::reqd_work_group_size(kHalf)]] { record(it, o); };
  q.parallel_for(sycl::nd_range<1>(n, 32), kernel).wait();
  show("lambda variable", 1);

  q.submit([&](sycl::handler &h) {
    h.parallel_for(sycl::nd_range<1>(n, 16), [=](sycl::nd_item<1> it) KERNEL_ATTR { record(it, o); });
  }).wait();
  show("macro attribute", 1);

  in_template<8>(q);
  show("template<8>", 1);

  // SYCL 1.2.1's spelling, with its namespace.
  q.parallel_for(cl::sycl::nd_range<2>({8, 8}, {2, 8}), [=](cl::sycl::nd_item<2> it)
                                                         [[cl::reqd_work_group_size(2, 8)]] {
    record(it, o);
  }).wait();
  show("cl:: spelling", 2);

  q.parallel_for(sycl::nd_range<2>({8, 32}, {4, 8}), StructFunctor{o}).wait();
  show("struct functor 2-d", 2);
  q.parallel_for(sycl::nd_range<3>({2, 8, 16}, {2, 4, 8}), ClassFunctor(o)).wait();
  show("class functor 3-d", 3);

  // A range launch: groups of 16 over 100 work-items (the last one partly
  // past the range, whose work-items must not run the kernel).
  for (int i = 0; i < 128; ++i)
    o[i] = 0;
  q.parallel_for(sycl::range<1>(100), [=](sycl::item<1> it) [[sycl::reqd_work_group_size(16)]] {
    o[it.get_id(0)] = 1;
  }).wait();
  int ran = 0;
  for (int i = 0; i < 128; ++i)
    ran += o[i];
  std::printf("range launch: %d work-items\n", ran);

  {
    long long *sum = sycl::malloc_shared<long long>(1, q);
    *sum = 0;
    q.parallel_for(sycl::nd_range<1>(128, 32), sycl::reduction(sum, sycl::plus<long long>()),
                   [=](sycl::nd_item<1> it, auto &s) [[sycl::reqd_work_group_size(32)]] {
                     s += (long long)it.get_global_id(0);
                     if (it.get_global_id(0) == 0)
                       o[0] = int(it.get_local_range(0));
                   }).wait();
    std::printf("reduction: sum %lld, groups of %d\n", *sum, o[0]);
    sycl::free(sum, q);
  }

  q.parallel_for(sycl::nd_range<1>(n, 64), [=](sycl::nd_item<1> it)
                     [[sycl::reqd_sub_group_size(32)]] [[sycl::reqd_work_group_size(64)]] {
    record(it, o);
  }).wait();
  std::printf("with reqd_sub_group_size: %d\n", o[0]);

  q.parallel_for(sycl::nd_range<1>(96, 48), [=](sycl::nd_item<1> it) [[sycl::work_group_size_hint(64)]] {
    record(it, o);
  }).wait();
  std::printf("hint only: %d\n", o[0]);

  try {
    q.parallel_for(sycl::nd_range<1>(n, 32), [=](sycl::nd_item<1> it) [[sycl::reqd_work_group_size(64)]] {
      record(it, o);
    }).wait();
    std::printf("wrong local range: no exception\n");
  } catch (const sycl::exception &e) {
    std::printf("wrong local range: %s: %s\n", e.code() == sycl::errc::nd_range ? "nd_range" : "other",
                e.what());
  }
  try {
    q.parallel_for(sycl::nd_range<2>({8, 32}, {8, 4}), StructFunctor{o}).wait();
    std::printf("wrong 2-d local range: no exception\n");
  } catch (const sycl::exception &e) {
    std::printf("wrong 2-d local range: %s: %s\n",
                e.code() == sycl::errc::nd_range ? "nd_range" : "other", e.what());
  }
  sycl::free(out, q);
}
