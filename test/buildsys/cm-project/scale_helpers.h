// Helpers as Intel's samples keep them: a template taking a view, called
// with a vector (cmc deduces T and N through the vector_ref).
#ifndef SCALE_HELPERS_H
#define SCALE_HELPERS_H
#include <cm/cm.h>

template <typename T, int N>
inline _GENX_ void scale_by(vector_ref<T, N> v, T factor) {
  v = v * factor;
}
#endif
