// Rules of the SYCL group functions' types: exclusive scans without init
// need an operation with a known identity, and values must be trivially
// copyable (each a static_assert with a plain message).
// RUN: %slmcxx -fsyntax-only -Xclang -verify %s
// RUN: %clangxx -std=c++17 %plugin -fsyntax-only -Xclang -verify %s

#include <sycl/sycl.hpp>
using namespace sycl;

struct Counted {
  Counted() {}
  Counted(const Counted &) {}
  int v = 0;
};

void types(queue &q, int *out) {
  q.parallel_for(nd_range<1>(range<1>(64), range<1>(32)), [=](nd_item<1> it) {
    int x = out[it.get_global_id(0)];
    // A lambda has no known identity: give an init value.
    out[0] = exclusive_scan_over_group(it.get_group(), x, [](int a, int b) { return a + b; });
    out[1] = exclusive_scan_over_group(it.get_group(), x, 0, [](int a, int b) { return a + b; }); // fine
    static_assert(known_identity_v<multiplies<>, int> == 1, "");
    static_assert(known_identity_v<bit_and<unsigned>, unsigned> == ~0u, "");
    static_assert(known_identity_v<minimum<>, short> == 32767, "");
    static_assert(!has_known_identity_v<plus<>, Counted>, "");
    Counted c;
    c = group_broadcast(it.get_group(), c);
  });
}
// expected-error@*:* {{exclusive scan without an init value: the operation must have a known identity for T}}
// expected-error@*:* {{known_identity: this operation has no known identity for this type}}
// expected-error@*:* {{SYCL group algorithms: T must be trivially copyable}}
// expected-note@*:* 0+ {{in instantiation of}}
// expected-note@*:* 0+ {{not trivially copyable}}
// expected-note@*:* 0+ {{user provided copy constructor}}
// expected-note@*:* 0+ {{defined here}}
