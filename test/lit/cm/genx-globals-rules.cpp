// `_GENX_` on a file-scope variable is cmc's per-thread global. slmc++
// gives each kernel body a copy and passes it, as an argument, to every
// function between the body and the uses (test/lit/cm/thread-globals.test),
// so those functions must be called by name, from kernels: an operator, a
// constructor, a function pointer and a call from code no kernel runs are
// errors, each where the call is; so is a use in a default argument, which
// is evaluated at each call, where no name holds the copy. Constant tables
// without `_GENX_`, and `_GENX_` functions, draw nothing; nor do lambdas,
// which capture the copy.
// RUN: %slmcxx -fsyntax-only -Xclang -verify %s
// RUN: %slmc-cmc -fsyntax-only -march=tgllp -Xclang -verify %s

#include <cm/cm.h>

_GENX_ int counter;
namespace state {
_GENX_ vector<float, 8> acc;
}
const int weights[4] = {1, 2, 3, 4};

_GENX_ int scaled(int x) { return x * weights[x & 3]; }
_GENX_ int count(int by) { return counter += by; }
_GENX_ int step(int by = counter + 1) { return by; } // expected-error {{a default argument cannot use the per-thread global 'counter' ('_GENX_')}}
template <class T>
_GENX_ T scaled_acc(T f = state::acc(0)) { return f; } // expected-error {{a default argument cannot use the per-thread global 'acc'}}

struct Tally {
  int n;
  _GENX_ Tally(int by) : n(count(by)) {}
  _GENX_ int operator()(int by) const { return n + count(by); }
};
_GENX_ int operator+(Tally t, int by) { return t.n + count(by); }

_GENX_ int (*pick())(int) { return &count; } // expected-error {{'count' uses the per-thread global 'counter' ('_GENX_'), so it must be called by name}}

_GENX_ void with_lambda(vector_ref<float, 8> v) {
  auto add = [&](float f) { state::acc += f; };
  add(v(0));
  count(1);
}

int host_side() { return count(2); } // expected-error {{'count' uses the per-thread global 'counter' ('_GENX_') and is called here from code no kernel runs}}

extern "C" _GENX_MAIN_ void kernel(SurfaceIndex out) {
  vector<int, 8> v(scaled(cm_local_id(0)));
  v(1) = count(2);
  Tally t(3);       // expected-error {{'Tally' uses the per-thread global 'counter' ('_GENX_'), so it must be called by name}}
  v(2) = t(4);      // expected-error {{'operator()' uses the per-thread global 'counter'}}
  v(3) = t + 5;     // expected-error {{'operator+' uses the per-thread global 'counter'}}
  v(4) = pick()(6);
  vector<float, 8> f = 1.0f;
  with_lambda(f);
  write(out, 0, v);
}
