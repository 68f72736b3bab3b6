1// Every work-item of the work-group must reach a work-group function: a
// warning under work-item-dependent control flow, as for a barrier (the
// types' rules: group-functions-types.cpp).
// RUN: %slmcxx -fsyntax-only -Xclang -verify %s
// RUN: %clangxx -std=c++17 %plugin -fsyntax-only -Xclang -verify %s

#include <sycl/sycl.hpp>
using namespace sycl;

void divergence(queue &q, int *out) {
  q.parallel_for(nd_range<1>(range<1>(64), range<1>(32)), [=](nd_item<1> it) {
    int x = out[it.get_global_id(0)];
    out[0] = reduce_over_group(it.get_group(), x, plus<>()); // fine
    if (it.get_group(0) == 1) // uniform: fine
      out[1] = group_broadcast(it.get_group(), x);
    if (it.get_local_id(0) < 4) // expected-note {{this condition depends on the work-item}}
      out[2] = reduce_over_group(it.get_group(), x, plus<>()); // expected-warning {{call to 'reduce_over_group', which waits on a work-group barrier, is under work-item-dependent control flow}}
    if (x > 3) { // expected-note {{this condition depends on the work-item}}
      out[3] = inclusive_scan_over_group(it.get_group(), x, maximum<>()); // expected-warning {{call to 'inclusive_scan_over_group', which waits on a work-group barrier, is under work-item-dependent control flow}}
    }
    group<1> g = it.get_group();
    if (g.leader()) // expected-note {{this condition depends on the work-item}}
      out[4] = any_of_group(g, x > 0); // expected-warning {{call to 'any_of_group', which waits on a work-group barrier}}
    // Sub-group functions need only the sub-group: not checked here.
    sub_group sg = it.get_sub_group();
    if (it.get_local_id(0) < 32)
      out[5] = reduce_over_group(sg, x, plus<>());
  });
}

