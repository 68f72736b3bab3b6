//===- cm/cmtl.h - The C for Metal template library -----------------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The part of Intel's C for Metal template library that kernels use most:
//
//   cm_vector(v, int, 16, 0, 1);         // vector<int, 16> v = {0, 1, ..., 15}
//   cm_matrix(m, float, 4, 8, 1.0f, 0.5f); // row-major 1.0, 1.5, 2.0, ...
//   cmtl::cm_vector_assign(v.select_all(), init, step);
//   cmtl::cm_floor<T>(x), cmtl::cm_ceil<T>(x), cmtl::cm_fmod(y, x)
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_CM_CMTL_H
#define SLMC_CM_CMTL_H

#include "cm/cm.h"

namespace cmtl {

/// Element i of `v` becomes init + i * step.
template <class V, class T, class S>
SLMC_CM_FN inline void cm_vector_assign(V &&v, T init, S step) {
  typedef ::slmc::cm::detail::element_t<V> E;
  SLMC_CM_ELEMENTS
  for (int i = 0; i < ::slmc::cm::detail::size_of<V>::value; ++i)
    v.at(i) = E(init + E(i) * E(step));
}

/// The largest (smallest) integer not greater (less) than each element, as T.
template <class T, class X> SLMC_CM_FN inline auto cm_floor(const X &x, int sat = 0) {
  return cm_rndd<T>(x, sat);
}
template <class T, class X> SLMC_CM_FN inline auto cm_ceil(const X &x, int sat = 0) {
  return cm_rndu<T>(x, sat);
}

/// y - x * trunc(y / x), element by element (C's fmod).
template <class Y, class X>
SLMC_CM_FN inline typename ::slmc::cm::detail::zip_result<Y, X, float>::type cm_fmod(const Y &y,
                                                                                const X &x) {
  return ::slmc::cm::detail::zip<float>(y, x, [](float a, float b) {
    return a - b * __builtin_truncf(a / b);
  });
}

} // namespace cmtl

#define cm_vector(NAME, T, N, INIT, STEP)                                      \
  vector<T, N> NAME;                                                           \
  ::cmtl::cm_vector_assign(NAME.select_all(), (INIT), (STEP))
#define cm_matrix(NAME, T, R, C, INIT, STEP)                                   \
  matrix<T, R, C> NAME;                                                        \
  ::cmtl::cm_vector_assign(NAME.template format<T>(), (INIT), (STEP))

#endif // SLMC_CM_CMTL_H
