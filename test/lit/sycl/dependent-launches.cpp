// Kernels launched where the launch depends on a template parameter, as
// oneAPI samples write them: a generic command-group lambda
// (`q.submit([&](auto &h) { h.parallel_for(...); })`) whose kernel uses
// group_local_memory and barriers, a named functor launched from one, and a
// class-template functor launched from a function template. Only the
// instantiations have these launches; the kernels are found there, their
// group-local memory is the kernel's and the barriers order it (no race
// reported). <CL/sycl.hpp> and cl::sycl, SYCL 1.2.1's spellings, are the
// same library. A race in such a kernel is still found.
// RUN: %slmcxx -O2 %s -o %t
// RUN: %t | FileCheck %s
// CHECK: generic command group: PASSED
// CHECK: functor from a generic command group: PASSED
// CHECK: class template functor from a function template: PASSED
// CHECK: cl::sycl: PASSED
// RUN: %slmcxx -O0 %s -o %t.O0
// RUN: %t.O0 | FileCheck %s
// RUN: %slmcxx -O2 --emit=spirv %s -o %t.spv
// RUN: %spirv-val %t.spv
// RUN: %slmcxx -fsyntax-only -Xclang -verify %s
// RUN: %slmcxx -fsyntax-only -DRACE -Xclang -verify=race %s
// expected-no-diagnostics
#include <CL/sycl.hpp>
#include <cstdio>

namespace oneapi = sycl::ext::oneapi;

constexpr int WG = 32;

struct Doubler {
  float *p;
  void operator()(sycl::id<1> i) const { p[i] *= 2.0f; }
};

template <typename T> struct Add {
  T *p;
  T by;
  void operator()(sycl::nd_item<1> it) const { p[it.get_global_id(0)] += by; }
};

template <typename T> void add_all(sycl::queue &q, T *p, T by, size_t n) {
  q.parallel_for(sycl::nd_range<1>(n, WG), Add<T>{p, by}).wait();
}

static void report(const char *what, bool ok) {
  std::printf("%s: %s\n", what, ok ? "PASSED" : "FAILED");
}

int main() {
  sycl::queue q;
  const int n = 4 * WG;
  int *out = sycl::malloc_shared<int>(n, q);
  q.submit([&](auto &h) {
     h.parallel_for(sycl::nd_range<1>(n, WG), [=](sycl::nd_item<1> it) {
       int *t = *oneapi::group_local_memory<int[WG]>(it.get_group());
       const size_t l = it.get_local_id(0);
       t[l] = int(it.get_global_id(0));
       sycl::group_barrier(it.get_group());
#ifdef RACE
       t[0] = int(l); // race-warning {{write of group-local t[0] by work-item (0) races with a write by work-item (1)}} race-note {{work-item (0) writes t[0] here}}
#endif
       out[it.get_global_id(0)] = t[WG - 1 - l]; // race-warning {{read of group-local t[0] by work-item (31) races}} race-note {{a barrier before this statement}}
     });
   }).wait();
  bool ok = true;
  for (int i = 0; i < n; ++i)
    ok = ok && out[i] == (i / WG) * WG + WG - 1 - i % WG;
  report("generic command group", ok);

  float *f = sycl::malloc_shared<float>(n, q);
  for (int i = 0; i < n; ++i) f[i] = float(i);
  q.submit([&](auto &h) { h.parallel_for(sycl::range<1>(n), Doubler{f}); }).wait();
  ok = true;
  for (int i = 0; i < n; ++i) ok = ok && f[i] == 2.0f * float(i);
  report("functor from a generic command group", ok);

  add_all(q, f, 1.0f, n);
  add_all(q, out, 7, n);
  ok = true;
  for (int i = 0; i < n; ++i)
    ok = ok && f[i] == 2.0f * float(i) + 1.0f && out[i] == (i / WG) * WG + WG - 1 - i % WG + 7;
  report("class template functor from a function template", ok);

  cl::sycl::buffer<int, 1> buf(n);
  q.submit([&](cl::sycl::handler &h) {
    auto a = buf.get_access<cl::sycl::access::mode::write>(h);
    h.parallel_for(cl::sycl::range<1>(n), [=](cl::sycl::id<1> i) { a[i] = int(i[0]) * 3; });
  });
  auto ha = buf.get_host_access();
  ok = true;
  for (int i = 0; i < n; ++i) ok = ok && ha[i] == 3 * i;
  report("cl::sycl", ok);
  sycl::free(out, q);
  sycl::free(f, q);
  return 0;
}
