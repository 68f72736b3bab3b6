// Where sycl::ext::oneapi::group_local_memory may be called: directly in an
// nd_range kernel's function, outside loops and work-item-dependent control
// flow. DPC++ checks none of this; slmc does, through slmc++ and the plugin.
// RUN: %slmcxx -fsyntax-only -Xclang -verify %s
// RUN: %clangxx -std=c++17 %plugin -fsyntax-only -Xclang -verify %s

#include <sycl/sycl.hpp>
#include <sycl/ext/oneapi/group_local_memory.hpp>
using namespace sycl;
namespace oneapi = sycl::ext::oneapi;

int *helper(group<1> g) {
  auto p = oneapi::group_local_memory<int[16]>(g); // expected-error {{'group_local_memory' must be called directly in the kernel function, not in a function it calls}}
  return *p;
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
      for (int i = 0; i < 2; ++i) { // expected-note {{inside this loop}}
        auto l = oneapi::group_local_memory<int>(it.get_group()); // expected-error {{'group_local_memory' cannot be called in a loop: every call site has one allocation per work-group}}
        (void)l;
      }
      if (it.get_local_id(0) == 0) { // expected-note {{this condition depends on the work-item}}
        auto d = oneapi::group_local_memory<int>(it.get_group()); // expected-error {{'group_local_memory' must be called by every work-item of the group, but this call is under work-item-dependent control flow}}
        (void)d;
      }
      int mine = int(it.get_global_id(0));
      auto w = oneapi::group_local_memory<int>(it.get_group(), mine); // expected-warning {{argument of 'group_local_memory' depends on the work-item; one work-item's value initialises the group's copy}} expected-note {{this value depends on the work-item}}
      int *h2 = helper(it.get_group()); // expected-note {{called from 'operator()' here}}
      (*ok)[it.get_local_id(0)] = *w + h2[0] + int((*ow)[0]);
      out[it.get_global_id(0)] = (*ok)[0];
    }); // expected-note@-21 {{kernel launched here}}
  });
  q.submit([&](handler &h) {
    h.parallel_for(range<1>(64), [=](id<1> i) {
      auto p = oneapi::group_local_memory<int>(group<1>()); // expected-error {{'group_local_memory' needs a kernel launched over an nd_range, which has work-groups}}
      out[i] = *p;
    }); // expected-note@-3 {{kernel launched here}}
  });
}
