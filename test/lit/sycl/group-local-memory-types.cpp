// group_local_memory<T> with a T that is not trivially destructible: the
// check pass reports it at the user's call, naming T and why its destructor
// is not trivial, through slmc++ and the plugin alike; nothing is reported
// inside <sycl/ext/oneapi/group_local_memory.hpp> (whose static_assert is
// left for compilers without slmc's check pass).
// RUN: %slmcxx -fsyntax-only -Xclang -verify %s
// RUN: %clangxx -std=c++17 %plugin -fsyntax-only -Xclang -verify %s
// RUN: not %slmcxx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=group_local_memory.hpp --implicit-check-not=static_assert
// RUN: not %clangxx -std=c++17 %plugin -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=group_local_memory.hpp --implicit-check-not=static_assert
// Without the check pass (clang++ alone), the header's static_assert says it.
// RUN: not %clangxx -std=c++17 -fsyntax-only -I %S/../../../include %s 2>&1 | FileCheck %s --check-prefix=PLAIN
// PLAIN: group_local_memory.hpp:{{.*}}: error: static assertion failed {{.*}}group_local_memory: T must be trivially destructible
// PLAIN: group-local-memory-types.cpp:[[# @LINE + 20]]:{{[0-9]+}}: note: in instantiation of

#include <sycl/sycl.hpp>
#include <sycl/ext/oneapi/group_local_memory.hpp>
using namespace sycl;
namespace oneapi = sycl::ext::oneapi;

struct logged {
  ~logged(); // expected-note {{destructor declared here}}
  int n;
};
struct holder { logged inner; int count; }; // expected-note {{member 'inner' has type 'logged', which has a non-trivial destructor}}
struct derived : logged {}; // expected-note {{base class 'logged' has a non-trivial destructor}}

template <typename T> auto in_helper(nd_item<1> it) {
  return oneapi::group_local_memory_for_overwrite<T>(it.get_group()); // expected-error {{'group_local_memory_for_overwrite' needs a trivially destructible type; 'holder[4]' has a non-trivial destructor, which would never run}}
}

void run(queue &q, int *out) {
  q.parallel_for(nd_range<1>(range<1>(64), range<1>(32)), [=](nd_item<1> it) {
    auto a = oneapi::group_local_memory<logged>(it.get_group()); // expected-error {{'group_local_memory' needs a trivially destructible type; 'logged' has a non-trivial destructor, which would never run}}
    auto b = oneapi::group_local_memory<derived[2]>(it.get_group()); // expected-error {{'group_local_memory' needs a trivially destructible type; 'derived[2]' has a non-trivial destructor, which would never run}}
    auto ok = oneapi::group_local_memory<int[4]>(it.get_group());
    auto h = in_helper<holder[4]>(it);
    out[it.get_global_id(0)] = a->n + (*ok)[0] + (*h)[0].count + (*b)[0].n;
  });
}

// The errors and notes, in the order they come: each at the user's code.
// CHECK: group-local-memory-types.cpp:[[# @LINE - 14]]:10: error: 'group_local_memory_for_overwrite' needs a trivially destructible type; 'holder[4]' has a non-trivial destructor, which would never run
// CHECK: group-local-memory-types.cpp:[[# @LINE - 19]]:24: note: member 'inner' has type 'logged', which has a non-trivial destructor
// CHECK: group-local-memory-types.cpp:[[# @LINE - 11]]:14: error: 'group_local_memory' needs a trivially destructible type; 'logged' has a non-trivial destructor, which would never run
// CHECK: group-local-memory-types.cpp:[[# @LINE - 24]]:3: note: destructor declared here
// CHECK: group-local-memory-types.cpp:[[# @LINE - 12]]:14: error: 'group_local_memory' needs a trivially destructible type; 'derived[2]' has a non-trivial destructor, which would never run
// CHECK: group-local-memory-types.cpp:[[# @LINE - 22]]:18: note: base class 'logged' has a non-trivial destructor
// CHECK: 3 errors generated.
