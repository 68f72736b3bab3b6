// expected-no-diagnostics
#include "ref_helpers.h"

template <typename T, int N>
_GENX_ void twice(vector_ref<T, N> v) { v = v * 2; }

// A default argument: called with one argument and with two.
template <typename T, int R, int C>
_GENX_ void add(matrix_ref<T, R, C> m, T k = 1) { m += k; }

// Overloads of one name and arity, for vectors and for matrices.
template <typename T, int N>
_GENX_ void fill(vector_ref<T, N> v, T x) { v = x; }
template <typename T, int R, int C>
_GENX_ void fill(matrix_ref<T, R, C> m, T x) { m = x; }

namespace helpers {
// Reads a view; the result is a value.
template <typename T, int R, int C>
inline _GENX_ T sum(matrix_ref<T, R, C> m) {
  T s = 0;
#pragma unroll
  for (int i = 0; i < R * C; ++i)
    s += m(i / C, i % C);
  return s;
}
} // namespace helpers

extern "C" _GENX_MAIN_ void refs(SurfaceIndex buf) {
  matrix<int, 8, 8> m, t;
  read(buf, 0, m);
  transpose(m, t);                    // deduced through matrix_ref<T, N, N>
  write(buf, 256, t);

  vector<int, 16> v;
  read(buf, 0, v);
  twice(v);                           // a vector where a vector_ref is taken
  twice(v.select<4, 1>(0));           // a view, as before
  write(buf, 512, v);

  matrix<int, 4, 4> q = 10;
  add(q);                             // k = 1
  add(q, 5);
  add<int, 4, 4>(q, 100);             // explicit arguments still work
  write(buf, 576, q);

  vector<int, 8> f;
  matrix<int, 2, 4> g;
  fill(f, 7);
  fill(g, 9);
  write(buf, 640, f);
  write(buf, 672, g);

  vector<int, 8> s = 0;
  s(0) = helpers::sum(m);             // through a namespace
  s(1) = helpers::sum(m * 2);         // a temporary
  s(2) = helpers::sum(m.select<2, 1, 2, 1>(1, 1));
  write(buf, 704, s);
}

