// A project header of helpers, as Intel's samples keep them.
#pragma once
#include <cm/cm.h>

template <typename T, int N>
inline _GENX_ void transpose(matrix_ref<T, N, N> in, matrix_ref<T, N, N> out) {
#pragma unroll
  for (int i = 0; i < N; ++i)
    out.row(i) = in.column(i);
}

