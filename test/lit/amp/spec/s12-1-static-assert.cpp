// C++ AMP v1.2 §12.1: misuse that the library can see at compile time is a
// static_assert: index, extent, array and array_view of rank 0; a
// component constructor of the wrong rank; tile dimensions that are not
// positive (§4.3); a tile<...>() of another rank than the extent.
// RUN: %slmcxx -fsyntax-only -Xclang -verify %s

#include <amp.h>
using namespace concurrency;

// expected-error@*:* {{index rank must be positive}}
index<0> i0;
// expected-error@*:* {{extent rank must be positive}}
extent<0> e0;
// expected-error@*:* {{needs rank 2}}
index<3> wrong_rank(1, 2);
// expected-error@*:* {{tile dimensions must be positive}}
tiled_extent<0> t0;
// expected-error@*:* {{tile<D0, D1>() needs an extent of rank 2}}
// expected-error@*:* {{no matching conversion}}
auto bad_tile = extent<1>(8).tile<2, 4>();
// expected-error@*:* {{array_view rank must be positive}}
// expected-error@*:* {{array rank must be positive}}
void use(array_view<int, 0> &v, array<int, 0> &a) { (void)v.extent; (void)a.extent; }
// expected-note@*:* 0+ {{}}
