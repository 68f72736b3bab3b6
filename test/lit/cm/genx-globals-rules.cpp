// `_GENX_` on a file-scope variable is cmc's per-thread global (Intel's
// n-body example keeps its state in one). slmc refuses it with the way out
// rather than building a program that fails to load. Constant tables
// without `_GENX_`, and `_GENX_` functions, are fine.
// RUN: %slmcxx -fsyntax-only -Xclang -verify -Wno-ignored-attributes %s
// RUN: %slmc-cmc -fsyntax-only -march=tgllp -Xclang -verify -Wno-ignored-attributes %s

#include <cm/cm.h>

_GENX_ int counter; // expected-error {{file-scope '_GENX_' variable 'counter' (a per-thread global in cmc) is not supported; make it a variable of the kernel, passed to the functions that use it, or, for a constant table, drop '_GENX_'}}
namespace state {
_GENX_ vector<float, 8> acc; // expected-error {{file-scope '_GENX_' variable 'acc'}}
}
const int weights[4] = {1, 2, 3, 4};

_GENX_ int scaled(int x) { return x * weights[x & 3]; }

extern "C" _GENX_MAIN_ void kernel(SurfaceIndex out) {
  vector<int, 8> v(scaled(cm_local_id(0)));
  write(out, 0, v);
}
