// A kernel's group_local_memory must fit in a work-group (64 KiB unless
// --group-memory-limit says otherwise); sizes are known at compile time.
// The error points at the call that takes the kernel over the limit, in the
// order the kernel makes its allocations: a call in a helper counts once per
// call path, where the kernel makes the call on that path, and the error
// shows the path.
// RUN: %slmcxx -fsyntax-only -Xclang -verify %s
// RUN: %clangxx -std=c++17 %plugin -fsyntax-only -Xclang -verify %s

#include <sycl/sycl.hpp>
#include <sycl/ext/oneapi/group_local_memory.hpp>
using namespace sycl;

void run(queue &q, float *out) {
  q.parallel_for(nd_range<1>(range<1>(64), range<1>(64)), [=](nd_item<1> it) { // expected-note {{in the kernel launched here}}
    auto a = ext::oneapi::group_local_memory_for_overwrite<float[9216]>(it.get_group()); // expected-note {{'group_local_memory_for_overwrite<float[9216]>' takes 36864 bytes}}
    auto b = ext::oneapi::group_local_memory_for_overwrite<float[9216]>(it.get_group()); // expected-error {{'group_local_memory_for_overwrite<float[9216]>' brings the group-local memory of this kernel to 73728 bytes, more than the 65536 bytes a work-group can have}}
    out[it.get_global_id(0)] = (*a)[0] + (*b)[1];
  });
}

void alone(queue &q, float *out) {
  q.parallel_for(nd_range<1>(range<1>(64), range<1>(64)), [=](nd_item<1> it) { // expected-note {{in the kernel launched here}}
    auto a = ext::oneapi::group_local_memory<double[16384]>(it.get_group()); // expected-error {{'group_local_memory<double[16384]>' takes 131072 bytes of group-local memory, more than the 65536 bytes a work-group can have}}
    out[it.get_global_id(0)] = float((*a)[it.get_local_id(0)]);
  });
}

// Storage made in a helper exists once per call path: two calls, two
// copies; the second call's takes the kernel over.
float *staging(nd_item<1> it) {
  auto p = ext::oneapi::group_local_memory_for_overwrite<float[9216]>(it.get_group()); // expected-error {{'group_local_memory_for_overwrite<float[9216]>' brings the group-local memory of this kernel to 73728 bytes, more than the 65536 bytes a work-group can have}}
  return *p;
}

void run_helpers(queue &q, float *out) {
  q.parallel_for(nd_range<1>(range<1>(64), range<1>(64)), [=](nd_item<1> it) { // expected-note {{in the kernel launched here}}
    float x = staging(it)[0]; // expected-note {{'group_local_memory_for_overwrite<float[9216]>', made in 'staging' through this call, takes 36864 bytes}}
    float y = staging(it)[1]; // expected-note {{called from 'operator()' here}}
    out[it.get_global_id(0)] = x + y;
  });
}

// Two levels deep, after storage of the kernel's own and before more: the
// path shows each call, the total the later allocation.
float *inner(nd_item<1> it) {
  auto p = ext::oneapi::group_local_memory<int[8192]>(it.get_group()); // expected-error {{'group_local_memory<int[8192]>' brings the group-local memory of this kernel to 65540 bytes, more than the 65536 bytes a work-group can have}}
  return reinterpret_cast<float *>(*p);
}
float outer(nd_item<1> it) { return inner(it)[0]; } // expected-note {{called from 'outer' here}}

void deep(queue &q, float *out) {
  q.parallel_for(nd_range<1>(range<1>(64), range<1>(64)), [=](nd_item<1> it) { // expected-note {{in the kernel launched here, which uses 98308 bytes of group-local memory in all}}
    auto flag = ext::oneapi::group_local_memory<int>(it.get_group()); // expected-note {{'group_local_memory<int>' takes 4 bytes}}
    auto pad = ext::oneapi::group_local_memory<int[8192]>(it.get_group()); // expected-note {{'group_local_memory<int[8192]>' takes 32768 bytes}}
    float v = outer(it); // expected-note {{called from 'operator()' here}}
    auto tail = ext::oneapi::group_local_memory<int[8192]>(it.get_group()); // expected-note {{'group_local_memory<int[8192]>' takes 32768 bytes}}
    out[it.get_global_id(0)] = v + float(*flag + (*pad)[0] + (*tail)[0]);
  });
}
