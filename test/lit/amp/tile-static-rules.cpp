// The tile_static and restrict rules of C++ AMP, through slmc++ and through
// the plugin in stock clang: same diagnostics, same places.
// RUN: %slmcxx -fsyntax-only -Xclang -verify %s
// RUN: %clangxx -std=c++17 %plugin -fsyntax-only -Xclang -verify %s

#include <amp.h>
using namespace concurrency;

struct WithCtor { WithCtor() {} int v; }; // expected-note {{constructor declared here}}
struct WithDtor { ~WithDtor() {} int v; }; // expected-note {{destructor declared here}}
struct HoldsPtr { int *p; };
struct Plain { int a; float b[4]; };

tile_static int global_tile; // expected-error {{'tile_static' can only be applied to a local variable at function scope, not at namespace or class scope}}

struct Member {
  tile_static int field; // expected-error {{'tile_static' can only be applied to a local variable, not to a data member}}
};

void param(tile_static int p) restrict(amp) {} // expected-error {{'tile_static' can only be applied to a local variable, not to a parameter}}

void not_amp() {
  tile_static int x; // expected-error {{'tile_static' variable 'x' is only allowed in a function restricted to 'amp'}}
}

void amp_cpu() restrict(amp, cpu) {
  tile_static int x; // expected-error {{'tile_static' variable 'x' is not allowed in a function that is also restricted to 'cpu'}}
}

void cpu_only() restrict(cpu) {
  tile_static int x; // expected-error {{'tile_static' variable 'x' is only allowed in a function restricted to 'amp'}}
}

void bad_restrict() restrict(gpu) {} // expected-error {{unknown restriction specifier 'gpu'; expected 'amp' or 'cpu'}}

void rules(array_view<int, 1> av) {
  parallel_for_each(av.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) {
    tile_static int ok_scalar;
    tile_static float ok_array[64][2];
    tile_static Plain ok_pod;
    tile_static int init_eq = 0;  // expected-error {{'tile_static' variable 'init_eq' cannot have an initializer}}
    tile_static int init_paren(4); // expected-error {{'tile_static' variable 'init_paren' cannot have an initializer}}
    tile_static int init_brace{};  // expected-error {{'tile_static' variable 'init_brace' cannot have an initializer}}
    tile_static Plain init_agg = {1, {2}}; // expected-error {{'tile_static' variable 'init_agg' cannot have an initializer}}
    tile_static int *ptr;           // expected-error {{'tile_static' variable 'ptr' cannot have pointer type 'int *'}}
    tile_static int *ptrs[4];       // expected-error {{'tile_static' variable 'ptrs' cannot have pointer type 'int *[4]'}}
    tile_static decltype(nullptr) np; // expected-error {{'tile_static' variable 'np' cannot have 'std::nullptr_t' type}}
    tile_static array_view<int, 1> view(av); // expected-error {{cannot have an initializer}} expected-error {{'tile_static' variable 'view' cannot have array_view or texture type}}
    tile_static HoldsPtr hp;        // expected-error {{'tile_static' variable 'hp' cannot have pointer-holding class type 'HoldsPtr'}}
    tile_static WithCtor wc;        // expected-warning {{the default constructor of 'tile_static' variable 'wc' of type 'WithCtor' will not run}}
    tile_static WithDtor wd;        // expected-warning {{the destructor of 'tile_static' variable 'wd' of type 'WithDtor' will not run}}
    if (t.local[0] == 0) // one writer: no race for -Wslmc-group-local-race
      ok_scalar = 1;
    ok_array[t.local[0]][0] = 0.0f;
    t.barrier.wait();
    if (t.local[0] == 0)
      ok_pod.a = ok_scalar;
    t.barrier.wait();
    av[t.global] = ok_scalar + int(ok_array[0][0]) + ok_pod.a;
  });
}

void reference_ok(array_view<int, 1> av) {
  parallel_for_each(av.extent.tile<32>(), [=](tiled_index<32> t) restrict(amp) {
    int local = 0;
    tile_static int &ref = local; // expected-error {{'tile_static' variable 'ref' cannot have an initializer}} expected-error {{'tile_static' variable 'ref' cannot have reference type 'int &'}}
    av[t.global] = ref;
  });
}
