// C++ AMP v1.2 §2.4 "amp Restriction Modifier", the statements amp code may
// not contain: §2.4.3.5 local declarations (no static locals; tile_static is
// the one storage class added), §2.4.3.7 miscellaneous restrictions (goto,
// asm, throw, try, typeid, dynamic_cast). Checked in the kernel and in the
// amp functions it calls; the same code in cpu functions is fine.
// RUN: %slmcxx -fsyntax-only -Xclang -verify %s
// RUN: %clangxx -std=c++17 %plugin -fsyntax-only -Xclang -verify %s

#include <amp.h>
#include <typeinfo>
using namespace concurrency;

struct Base { virtual ~Base() {} };
struct Derived : Base {};

int helper(int x) restrict(amp) {
  static int calls = 0; // expected-error {{a static local variable is not allowed in amp-restricted code}}
  if (x < 0)
    goto done;          // expected-error {{'goto' is not allowed in amp-restricted code}}
  x *= 2;
done:
  return x + calls;
}

int both(int x) restrict(amp, cpu) {
  if (x > 100)
    throw x;            // expected-error {{'throw' is not allowed in amp-restricted code}}
  return x;
}

// The same constructs in host code are not amp code.
int host_only(int x) {
  static int count = 0;
  try {
    if (x < 0) throw x;
  } catch (int) {
    ++count;
  }
  return count;
}

void kernels(array_view<int, 1> av, Base *b) {
  parallel_for_each(av.extent, [=](index<1> i) restrict(amp) {
    int x = helper(av[i]) + both(av[i]);
    try {               // expected-error {{'try' is not allowed in amp-restricted code}}
      x += 1;
    } catch (...) {
    }
    x += typeid(x).name() != nullptr; // expected-error {{'typeid' is not allowed in amp-restricted code}} expected-error {{call to 'name'}}
    x += dynamic_cast<Derived *>(b) != nullptr; // expected-error {{'dynamic_cast' is not allowed in amp-restricted code}}
    asm volatile("");   // expected-error {{inline assembly is not allowed in amp-restricted code}}
    av[i] = x;
  });
  // A second kernel reaching helper() reports nothing again.
  parallel_for_each(av.extent.tile<4>(), [=](tiled_index<4> t) restrict(amp) {
    tile_static int shared[4];
    shared[t.local[0]] = helper(t.global[0]);
    t.barrier.wait();
    av[t.global] = shared[(t.local[0] + 1) % 4];
  });
  av[0] = host_only(av[0]) + both(1);
}
// expected-note@*:* 0+ {{declared here}}
