// Where sycl::ext::oneapi::group_local_memory may be called: in an nd_range
// kernel's function or in a function it calls, as long as every call on the
// way and the call itself are made by every work-item of the group together
// (outside work-item-dependent control flow, loops whose trip count depends
// on the work-item included; no recursion): then each call path has one
// allocation per work-group, as DPC++ gives after inlining, and a call made
// again in a loop is the same allocation. DPC++ checks none of this; slmc does, through slmc++ and the
// plugin.
// RUN: %slmcxx -fsyntax-only -Xclang -verify %s
// RUN: %clangxx -std=c++17 %plugin -fsyntax-only -Xclang -verify %s

#include <sycl/sycl.hpp>
#include <sycl/ext/oneapi/group_local_memory.hpp>
using namespace sycl;
namespace oneapi = sycl::ext::oneapi;

// Accepted helper shapes: a plain function, a template, two levels deep.
int *helper(group<1> g) {
  auto p = oneapi::group_local_memory<int[16]>(g);
  return *p;
}
template <typename T> T *thelper(nd_item<1> it) {
  auto p = oneapi::group_local_memory_for_overwrite<T[16]>(it.get_group());
  return *p;
}
int *middle(group<1> g) { return helper(g); }
// A condition on a parameter is fine where every caller passes a uniform
// value, an error where one passes a work-item's own.
int *flagged(group<1> g, int flag) {
  if (flag > 0) { // expected-note {{this condition depends on the work-item}}
    auto p = oneapi::group_local_memory<int>(g); // expected-error {{'group_local_memory' must be called by every work-item of the group, but this call is under work-item-dependent control flow}}
    return &*p;
  }
  return nullptr;
}

// Called in a loop, or calling in one: every iteration, the same object.
int *in_loop(group<1> g) {
  auto p = oneapi::group_local_memory<int>(g);
  return &*p;
}
int *loop_inside(group<1> g) {
  int *last = nullptr;
  for (int i = 0; i < 2; ++i) {
    auto p = oneapi::group_local_memory<int>(g);
    last = &*p;
  }
  return last;
}
int *item_loop(group<1> g) {
  auto p = oneapi::group_local_memory_for_overwrite<int>(g); // expected-error {{'group_local_memory_for_overwrite' must be reached by every work-item of the group, but a call on the way is under work-item-dependent control flow}}
  return &*p;
}

// Rejected helper shapes.
int *diverged(group<1> g) {
  auto p = oneapi::group_local_memory<int>(g); // expected-error {{'group_local_memory' must be reached by every work-item of the group, but a call on the way is under work-item-dependent control flow}}
  return &*p;
}
int *via_diverged(group<1> g) { return diverged(g); } // expected-note {{called from 'via_diverged' here}}
int *recursive(group<1> g, int n) {
  auto p = oneapi::group_local_memory<int>(g); // expected-error {{'group_local_memory' cannot be reached through the recursive function 'recursive': every call path has one allocation per work-group}}
  if (n > 0)
    recursive(g, n - 1);
  return &*p;
}
int *from_range_kernel(group<1> g) {
  auto p = oneapi::group_local_memory<int>(g); // expected-error {{'group_local_memory' needs a kernel launched over an nd_range, which has work-groups}}
  return &*p;
}
// Reached by no kernel of this file: checked where a kernel calls it.
int *unused_here(group<1> g) {
  auto p = oneapi::group_local_memory<int>(g);
  return &*p;
}

void rules(queue &q, int *out, int n) {
  q.submit([&](handler &h) {
    h.parallel_for(nd_range<1>(range<1>(64), range<1>(32)), [=](nd_item<1> it) {
      // Fine: once, at kernel scope, every work-item.
      auto ok = oneapi::group_local_memory<int[32]>(it.get_group());
      auto ow = oneapi::group_local_memory_for_overwrite<float[32]>(it.get_group());
      if (n > 4) { // uniform condition: fine
        auto u = oneapi::group_local_memory<int>(it.get_group(), 7);
        (void)u;
      }
      for (int i = 0; i < 2; ++i) { // a uniform loop: fine
        auto l = oneapi::group_local_memory<int>(it.get_group());
        (void)l;
      }
      for (size_t i = 0; i < it.get_local_id(0); ++i) { // expected-note {{this condition depends on the work-item}}
        auto l = oneapi::group_local_memory<int>(it.get_group()); // expected-error {{'group_local_memory' must be called by every work-item of the group, but this call is under work-item-dependent control flow}}
        (void)l;
      }
      if (it.get_local_id(0) == 0) { // expected-note {{this condition depends on the work-item}}
        auto d = oneapi::group_local_memory<int>(it.get_group()); // expected-error {{'group_local_memory' must be called by every work-item of the group, but this call is under work-item-dependent control flow}}
        (void)d;
      }
      int mine = int(it.get_global_id(0));
      auto w = oneapi::group_local_memory<int>(it.get_group(), mine); // expected-warning {{argument of 'group_local_memory' depends on the work-item; one work-item's value initialises the group's copy}} expected-note {{this value depends on the work-item}}
      int *h2 = helper(it.get_group());
      float *t2 = thelper<float>(it);
      int *m2 = middle(it.get_group());
      flagged(it.get_group(), n);
      flagged(it.get_group(), int(it.get_local_id(0))); // expected-note {{called from 'operator()' here}}
      for (int i = 0; i < 2; ++i)
        in_loop(it.get_group());
      for (int i = 0; i < int(it.get_local_id(0)); ++i) // expected-note {{this condition depends on the work-item}}
        item_loop(it.get_group()); // expected-note {{called from 'operator()' here}}
      if (it.get_group_linear_id() == 0)
        via_diverged(it.get_group()); // uniform: fine on this path
      if (it.get_local_id(0) == 1) // expected-note {{this condition depends on the work-item}}
        via_diverged(it.get_group()); // expected-note {{called from 'operator()' here}}
      recursive(it.get_group(), 2); // expected-note {{called from 'operator()' here}}
      loop_inside(it.get_group());
      (*ok)[it.get_local_id(0)] = *w + h2[0] + int((*ow)[0]) + int(t2[0]) + m2[0];
      group_barrier(it.get_group());
      out[it.get_global_id(0)] = (*ok)[0];
    }); // expected-note@-40 4 {{kernel launched here}}
  });
  q.submit([&](handler &h) {
    h.parallel_for(range<1>(64), [=](id<1> i) {
      auto p = oneapi::group_local_memory<int>(group<1>()); // expected-error {{'group_local_memory' needs a kernel launched over an nd_range, which has work-groups}}
      out[i] = *p + *from_range_kernel(group<1>()); // expected-note {{called from 'operator()' here}}
    }); // expected-note@-3 2 {{kernel launched here}}
  });
}
