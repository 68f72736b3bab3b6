1// Work-group barriers under work-item-dependent control flow.
// RUN: %slmcxx -fsyntax-only -Xclang -verify %s
// RUN: %clangxx -std=c++17 %plugin -fsyntax-only -Xclang -verify %s

#include <sycl/sycl.hpp>
using namespace sycl;

void kernels(queue &q, int *out) {
  q.parallel_for(nd_range<1>(range<1>(128), range<1>(64)), [=](nd_item<1> it) {
    group_barrier(it.get_group()); // fine
    if (it.get_group(0) == 1)      // the group id is uniform: fine
      it.barrier();
    size_t lid = it.get_local_id(0);
    if (lid < 32) // expected-note {{this condition depends on the work-item}}
      group_barrier(it.get_group()); // expected-warning {{work-group barrier is under work-item-dependent control flow; every work-item of the group must reach it}}
    out[it.get_global_id(0)] = int(lid);
  });
}

void group_queries(queue &q, int *out) {
  q.parallel_for(nd_range<1>(range<1>(128), range<1>(64)), [=](nd_item<1> it) {
    group<1> g = it.get_group();
    if (g.leader()) // expected-note {{this condition depends on the work-item}}
      group_barrier(g); // expected-warning {{work-group barrier is under work-item-dependent control flow}}
    if (g.get_group_id(0) == 0) // uniform
      group_barrier(g);
    out[it.get_global_id(0)] = 0;
  });
}
