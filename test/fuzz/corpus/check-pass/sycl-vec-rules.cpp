1// What SYCL 2020 makes ill-formed for sycl::vec, each a static_assert with
// a plain message: element types and sizes outside the specification,
// swizzle indices beyond the vec, rgba on a vec that has not 4 elements,
// assigning through a swizzle with a repeated index or of a const vec, as<>
// between sizes, and operators the element type does not have.
// RUN: %slmcxx -fsyntax-only -Xclang -verify %s
// RUN: %clangxx -std=c++17 %plugin -fsyntax-only -Xclang -verify %s

#define SYCL_SIMPLE_SWIZZLES
#include <sycl/sycl.hpp>
using namespace sycl;

struct Pixel { int r, g, b; };

void rules(queue &q, float *out) {
  q.parallel_for(nd_range<1>(range<1>(64), range<1>(32)), [=](nd_item<1> it) {
    float4 a(1.0f);
    float3 b(2.0f);
    const float4 c(3.0f);
    a.swizzle<0, 4>();          // index 4 of a vec of 4
    b.w();                      // w of a vec of 3
    b.rgb();                    // rgba names need 4 elements
    float2 f2 = a.xx();         // reading a repeated index is fine
    a.xx() = f2;                // writing one is not
    c.xy() = f2;                // nor writing through a const vec
    int2 i2 = a.as<int2>();     // 16 bytes as 8
    float4 m = a % a;           // expected-error {{invalid operands to binary expression}}
    // expected-note@*:* 0+ {{candidate}}
    out[0] = i2.x() + m.x();
  });
}
vec<Pixel, 4> bad_type;
vec<float, 5> bad_size;

// expected-error@*:* {{sycl::vec::swizzle: index out of range for this vec}}
// expected-error@*:* {{sycl::vec::w(): xyzw access needs a vec of at most 4 elements, each index below its size}}
// expected-error@*:* {{sycl::vec::rgb(): rgba access needs a vec of 4 elements}}
// expected-error@*:* 2 {{sycl::vec: this swizzle is not assignable (const vec or repeated index)}}
// expected-error@*:* {{sycl::vec::as: the result must have the same size in bytes}}
// expected-error@*:* {{sycl::vec: the element type must be bool, a standard integer type, float, double, sycl::half or std::byte}}
// expected-error@*:* {{sycl::vec: the number of elements must be 1, 2, 3, 4, 8 or 16}}
// expected-note@*:* 0+ {{in instantiation of}}
// expected-note@*:* 0+ {{expression evaluates to}}
