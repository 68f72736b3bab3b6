1// A kernel's group_local_memory must fit in a work-group (64 KiB unless
// --group-memory-limit says otherwise); sizes are known at compile time.
// RUN: %slmcxx -fsyntax-only -Xclang -verify %s

#include <sycl/sycl.hpp>
#include <sycl/ext/oneapi/group_local_memory.hpp>
using namespace sycl;

void run(queue &q, float *out) {
  q.parallel_for(nd_range<1>(range<1>(64), range<1>(64)), [=](nd_item<1> it) { // expected-error {{this kernel uses 73728 bytes of group-local memory, more than the 65536 bytes a work-group can have}}
    auto a = ext::oneapi::group_local_memory_for_overwrite<float[9216]>(it.get_group()); // expected-note {{group-local memory of type 'float[9216]' takes 36864 bytes}}
    auto b = ext::oneapi::group_local_memory_for_overwrite<float[9216]>(it.get_group()); // expected-note {{group-local memory of type 'float[9216]' takes 36864 bytes}}
    out[it.get_global_id(0)] = (*a)[0] + (*b)[1];
  });
}

// Storage made in a helper exists once per call path: two calls, two copies.
float *staging(nd_item<1> it) {
  auto p = ext::oneapi::group_local_memory_for_overwrite<float[9216]>(it.get_group()); // expected-note {{group-local memory of type 'float[9216]' (reached through 2 call paths) takes 73728 bytes}}
  return *p;
}

void run_helpers(queue &q, float *out) {
  q.parallel_for(nd_range<1>(range<1>(64), range<1>(64)), [=](nd_item<1> it) { // expected-error {{this kernel uses 73728 bytes of group-local memory, more than the 65536 bytes a work-group can have}}
    out[it.get_global_id(0)] = staging(it)[0] + staging(it)[1];
  });
}
