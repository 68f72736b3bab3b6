// expected-no-diagnostics
#include <cm/cm.h>

template <typename T, int N>
_GENX_ inline void transpose_matrix(matrix_ref<T, N, N> m1, matrix_ref<T, N, N> m2) {
  uint32_t mask = 0x55555555;
  int k = 0;
#pragma unroll
  for (int j = 1; j < N; j *= 2) {
    k++;
    if (k % 2) {
#pragma unroll
      for (int i = 0; i < N; i++)
        m2.row(i).merge(m1.replicate<N / 2, 1, 2, 0>(i / 2, (i % 2) * (N / 2)),
                        m1.replicate<N / 2, 1, 2, 0>(i / 2 + N / 2, (i % 2) * (N / 2)),
                        mask);
    } else {
#pragma unroll
      for (int i = 0; i < N; i++)
        m1.row(i).merge(m2.replicate<N / 2, 1, 2, 0>(i / 2, (i % 2) * (N / 2)),
                        m2.replicate<N / 2, 1, 2, 0>(i / 2 + N / 2, (i % 2) * (N / 2)),
                        mask);
    }
  }
}

// The upper half of each row swapped with the lower, through views.
template <typename T, int N>
_GENX_ void swap_halves(vector_ref<T, N> v) {
  vector<T, N / 2> low = v.select<N / 2, 1>(0);
  v.select<N / 2, 1>(0) = v.select<N / 2, 1>(N / 2);
  vector_ref<T, N> *p = &v;
  p->select<N / 2, 1>(N / 2) = low;
  vector<uint, N / 2> bytes = v.format<uint>().select<N / 2, 1>(0);
  p->select<1, 1>(0) = bytes(0) - bytes(0) + v(0);
}

struct options {
  int select;
};

// Not a member template: a comparison, left alone.
_GENX_ bool small(const options *o, int limit) { return o->select < limit && o->select > (0); }

extern "C" _GENX_MAIN_ void transpose8(SurfaceIndex buf) {
  matrix<int, 8, 8> m, t;
  read(buf, 0, 0, m);
  transpose_matrix<int, 8>(m, t);
  write(buf, 0, 0, t);
}

extern "C" _GENX_MAIN_ void halves(SurfaceIndex buf) {
  vector<int, 16> v;
  read(buf, 0, v);
  options o{3};
  swap_halves<int, 16>(v);
  if (small(&o, 4))
    v += 0;
  write(buf, 0, v);
}

