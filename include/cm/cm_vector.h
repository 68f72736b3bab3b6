//===- cm/cm_vector.h - CM vector, matrix and their references ------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// vector<T, N>, matrix<T, R, C> (values, row-major) and vector_ref<T, N>,
// matrix_ref<T, R, C> (views into them: a base address plus strides). One
// CM thread is one work-item, so these are plain arrays in its private
// memory; every operation is an element loop the device compilers unroll.
//
//  * select<size, stride>(i) / select<rs, rstride, cs, cstride>(r, c),
//    row(r), column(c), m[r] give references; writing through them writes
//    the object they view. Assigning to a reference copies elements; copying
//    a reference (construction, passing by value) makes another view.
//  * format<U>() / format<U, R, C>() view the same bytes as other elements
//    (the object must be contiguous: a vector, a matrix, or a reference with
//    unit strides). Elements are accessed through may_alias types, so
//    viewing bytes as another type is well defined.
//  * iselect, replicate<...>, merge, any, all; element-wise arithmetic,
//    bitwise and shift operators and comparisons (which give
//    vector<ushort, N> / matrix<ushort, R, C> masks of 0 and 1).
//  * Element types of results follow C++'s usual arithmetic conversions,
//    except that a floating-point scalar combined with a floating-point
//    object keeps the object's element type (v * 0.5 stays float).
//  * Assignments evaluate the whole right-hand side first, so overlapping
//    selects of one object behave as values.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_CM_VECTOR_H
#define SLMC_CM_VECTOR_H

#include "slmc/offload.h"

// C for Metal's compiler inlines every function and makes each operation on
// a vector one SIMD instruction. Here a CM thread is one work-item and a
// vector an array in its private memory, so every function of these
// headers is inlined and every element loop (its trip count is a template
// constant) unrolled: with constant indices the optimiser keeps vectors in
// registers; otherwise IGC puts them in scratch memory.
#define SLMC_CM_FN SLMC_HD __attribute__((always_inline))
#define SLMC_CM_ELEMENTS _Pragma("clang loop unroll(full)")
/// An element loop for a rare case, kept small.
#define SLMC_CM_ROLLED _Pragma("clang loop unroll(disable)")

#include <type_traits>
#include <utility>

typedef unsigned char uchar;
typedef unsigned short ushort;
typedef unsigned int uint;

namespace slmc {
namespace cm {

template <class T, int N> class vector;
template <class T, int N> class vector_ref;
template <class T, int R, int C> class matrix;
template <class T, int R, int C> class matrix_ref;

namespace detail {

/// The type elements are read and written as: may_alias, so that format<U>
/// views of the same bytes never break type-based alias analysis.
template <class T> struct alias {
  typedef T __attribute__((__may_alias__)) type;
};

template <class T> struct is_element {
  static constexpr bool value =
      std::is_arithmetic<T>::value && !std::is_same<T, bool>::value;
};

template <class X> struct traits {
  static constexpr bool is_object = false;
};
template <class T, int N> struct traits<vector<T, N>> {
  static constexpr bool is_object = true, is_matrix = false;
  static constexpr int size = N, rows = 1, cols = N;
  typedef T element;
};
template <class T, int N> struct traits<vector_ref<T, N>> : traits<vector<T, N>> {};
template <class T, int R, int C> struct traits<matrix<T, R, C>> {
  static constexpr bool is_object = true, is_matrix = true;
  static constexpr int size = R * C, rows = R, cols = C;
  typedef T element;
};
template <class T, int R, int C>
struct traits<matrix_ref<T, R, C>> : traits<matrix<T, R, C>> {};

template <class X>
using bare = typename std::remove_cv<typename std::remove_reference<X>::type>::type;

template <class X> constexpr bool is_object = traits<bare<X>>::is_object;
template <class X> constexpr bool is_scalar = std::is_arithmetic<bare<X>>::value;

/// Element type of an object, or the scalar type itself.
template <class X, bool = is_object<X>> struct element_of {
  typedef typename traits<bare<X>>::element type;
};
template <class X> struct element_of<X, false> { typedef bare<X> type; };
template <class X> using element_t = typename element_of<X>::type;

template <class X, bool = is_object<X>> struct size_of {
  static constexpr int value = traits<bare<X>>::size;
};
template <class X> struct size_of<X, false> { static constexpr int value = 1; };

/// Element i of an object, or the scalar (broadcast).
template <class X>
SLMC_CM_FN inline auto elem(const X &x, int i) ->
    typename std::enable_if<is_object<X>, element_t<X>>::type {
  return x.get(i);
}
template <class X>
SLMC_CM_FN inline auto elem(const X &x, int) ->
    typename std::enable_if<!is_object<X>, bare<X>>::type {
  return x;
}

/// Both operands usable in an element-wise operation, at least one an
/// object, sizes agreeing.
template <class X, class Y> struct operands {
  static constexpr bool value =
      ((is_object<X> && (is_object<Y> || is_scalar<Y>)) ||
       (is_scalar<X> && is_object<Y>)) &&
      (!is_object<X> || !is_object<Y> || size_of<X>::value == size_of<Y>::value);
};

/// The element type of `x OP y` given the C++ type `E` of one element's
/// result; a floating scalar with a floating object keeps the object's type.
template <class X, class Y, class E> struct result_element {
  typedef element_t<X> EX;
  typedef element_t<Y> EY;
  typedef typename std::conditional<
      !is_object<X> && std::is_floating_point<EX>::value &&
          std::is_floating_point<EY>::value,
      EY,
      typename std::conditional<!is_object<Y> &&
                                    std::is_floating_point<EY>::value &&
                                    std::is_floating_point<EX>::value,
                                EX, E>::type>::type type;
};

/// The shape of a result: the matrix operand's shape if there is one, else a
/// vector of the common size.
template <class X, class Y, class E> struct result_object {
  template <class Z, bool = is_object<Z>> struct is_mat {
    static constexpr bool value = traits<bare<Z>>::is_matrix;
  };
  template <class Z> struct is_mat<Z, false> {
    static constexpr bool value = false;
  };
  typedef typename std::conditional<is_mat<X>::value, bare<X>, bare<Y>>::type M;
  static constexpr int size =
      is_object<X> ? size_of<X>::value : size_of<Y>::value;
  template <class Z, bool = is_mat<Z>::value> struct shape {
    typedef vector<E, size> type;
  };
  template <class Z> struct shape<Z, true> {
    typedef matrix<E, traits<Z>::rows, traits<Z>::cols> type;
  };
  typedef typename std::conditional<is_mat<X>::value || is_mat<Y>::value,
                                    typename shape<M>::type,
                                    vector<E, size>>::type type;
};

template <class T> struct tag {};

/// The channels on in SIMD control flow (<cm/cm_simdcf.h>): bit i for
/// channel i.
struct simd_ctx {
  uint on;
};

/// `v` converted to R with saturation (cm/cm_intrinsics.h).
template <class R, class V> SLMC_CM_FN inline R saturate(V v);

} // namespace detail

// ---- The element-wise machinery shared by all four classes ---------------
// D provides ptr() (the first element, as an alias pointer) and offset(i)
// (where linear element i is, in elements, row-major for matrices).

template <class D, class T, int N> class object_base {
  static_assert(detail::is_element<T>::value,
                "CM vector and matrix elements are arithmetic types");
  static_assert(N > 0, "CM vectors and matrices have at least one element");

public:
  typedef typename detail::alias<T>::type alias_type;
  typedef T element_type;

  SLMC_CM_FN static constexpr int n_elems() { return N; }

  /// Linear element i (row-major for matrices), by value.
  SLMC_CM_FN T get(int i) const { return self().ptr()[self().offset(i)]; }
  /// Linear element i as an lvalue.
  SLMC_CM_FN alias_type &at(int i) const { return self().ptr()[self().offset(i)]; }

  /// Elements at the indices in `idx` (an object or a scalar index).
  template <class I>
  SLMC_CM_FN vector<T, detail::size_of<I>::value> iselect(const I &idx) const {
    vector<T, detail::size_of<I>::value> r;
    SLMC_CM_ELEMENTS
    for (int i = 0; i < detail::size_of<I>::value; ++i)
      r.at(i) = get(int(detail::elem(idx, i)));
    return r;
  }

  /// REP copies of the whole object.
  template <int REP> SLMC_CM_FN vector<T, REP * N> replicate() const {
    vector<T, REP * N> r;
    SLMC_CM_ELEMENTS
    for (int k = 0; k < REP; ++k)
      SLMC_CM_ELEMENTS
      for (int i = 0; i < N; ++i)
        r.at(k * N + i) = get(i);
    return r;
  }
  /// REP copies of the W elements from `offset`. Offsets default to 0; on
  /// a matrix they may be given as (row, column), as cmc allows.
  template <int REP, int W> SLMC_CM_FN vector<T, REP * W> replicate(int offset = 0) const {
    return replicate<REP, 0, W, 1>(offset);
  }
  template <int REP, int W> SLMC_CM_FN vector<T, REP * W> replicate(int row, int col) const {
    return replicate<REP, 0, W, 1>(linear(row, col));
  }
  /// REP blocks of W elements; block k starts at offset + k * VS.
  template <int REP, int VS, int W>
  SLMC_CM_FN vector<T, REP * W> replicate(int offset = 0) const {
    return replicate<REP, VS, W, 1>(offset);
  }
  template <int REP, int VS, int W>
  SLMC_CM_FN vector<T, REP * W> replicate(int row, int col) const {
    return replicate<REP, VS, W, 1>(linear(row, col));
  }
  template <int REP, int VS, int W, int HS>
  SLMC_CM_FN vector<T, REP * W> replicate(int row, int col) const {
    return replicate<REP, VS, W, HS>(linear(row, col));
  }
  /// As above, with the elements of a block HS apart.
  template <int REP, int VS, int W, int HS>
  SLMC_CM_FN vector<T, REP * W> replicate(int offset = 0) const {
    vector<T, REP * W> r;
    SLMC_CM_ELEMENTS
    for (int k = 0; k < REP; ++k)
      SLMC_CM_ELEMENTS
      for (int j = 0; j < W; ++j)
        r.at(k * W + j) = get(offset + k * VS + j * HS);
    return r;
  }

  /// Element i becomes x[i] where mask[i] is non-zero (an integer mask:
  /// where bit i is set).
  template <class X, class M> SLMC_CM_FN void merge(const X &x, const M &mask) const {
    T tmp[N];
    SLMC_CM_ELEMENTS
    for (int i = 0; i < N; ++i)
      tmp[i] = selected(mask, i) ? T(detail::elem(x, i)) : get(i);
    SLMC_CM_ELEMENTS
    for (int i = 0; i < N; ++i)
      at(i) = tmp[i];
  }
  /// Element i becomes mask[i] ? x[i] : y[i].
  template <class X, class Y, class M>
  SLMC_CM_FN void merge(const X &x, const Y &y, const M &mask) const {
    T tmp[N];
    SLMC_CM_ELEMENTS
    for (int i = 0; i < N; ++i)
      tmp[i] = selected(mask, i) ? T(detail::elem(x, i)) : T(detail::elem(y, i));
    SLMC_CM_ELEMENTS
    for (int i = 0; i < N; ++i)
      at(i) = tmp[i];
  }

  /// merge in SIMD control flow (the pre-pass calls this instead, with the
  /// block's channels): only the channels on take the merged values.
  template <class... A>
  SLMC_CM_FN void simd_merge(const detail::simd_ctx &c, const A &...a) const {
    vector<T, N> merged(self());
    merged.merge(a...);
    merge(merged, c.on);
  }

  /// any() and all() in SIMD control flow: over the channels on.
  SLMC_CM_FN ushort simd_any(const detail::simd_ctx &c) const {
    SLMC_CM_ELEMENTS
    for (int i = 0; i < N; ++i)
      if (((c.on >> i) & 1u) && get(i) != T(0))
        return 1;
    return 0;
  }
  SLMC_CM_FN ushort simd_all(const detail::simd_ctx &c) const {
    SLMC_CM_ELEMENTS
    for (int i = 0; i < N; ++i)
      if (((c.on >> i) & 1u) && get(i) == T(0))
        return 0;
    return 1;
  }

  /// 1 if any (all) element is non-zero.
  SLMC_CM_FN ushort any() const {
    SLMC_CM_ELEMENTS
    for (int i = 0; i < N; ++i)
      if (get(i) != T(0))
        return 1;
    return 0;
  }
  SLMC_CM_FN ushort all() const {
    SLMC_CM_ELEMENTS
    for (int i = 0; i < N; ++i)
      if (get(i) == T(0))
        return 0;
    return 1;
  }

protected:
  SLMC_CM_FN const D &self() const { return static_cast<const D &>(*this); }

  /// The linear index of (row, col) of a matrix.
  SLMC_CM_FN static int linear(int row, int col) {
    static_assert(detail::traits<D>::is_matrix,
                  "a (row, column) offset is for matrices; a vector takes one offset");
    return row * detail::traits<D>::cols + col;
  }

  template <class M> SLMC_CM_FN static bool selected(const M &mask, int i) {
    if constexpr (detail::is_object<M>)
      return mask.get(i) != 0;
    else
      return ((unsigned long long)mask >> i) & 1u;
  }

  /// Copies `y` (an object of N elements or a scalar) into the elements,
  /// reading all of it first.
  template <class Y> SLMC_CM_FN void assign(const Y &y) const {
    if constexpr (detail::is_object<Y>) {
      static_assert(detail::size_of<Y>::value == N,
                    "assignment between CM objects of different sizes");
      T tmp[N];
      SLMC_CM_ELEMENTS
      for (int i = 0; i < N; ++i)
        tmp[i] = T(y.get(i));
      SLMC_CM_ELEMENTS
      for (int i = 0; i < N; ++i)
        at(i) = tmp[i];
    } else {
      static_assert(detail::is_scalar<Y>, "assigning a non-arithmetic value");
      const T v = T(y);
      SLMC_CM_ELEMENTS
      for (int i = 0; i < N; ++i)
        at(i) = v;
    }
  }

  template <class U> using alias_ptr = typename detail::alias<U>::type *;

  template <class U> SLMC_CM_FN alias_ptr<U> bytes_as() const {
    return reinterpret_cast<alias_ptr<U>>(self().ptr());
  }
};

// Assignment operators every class defines (assignment is not inherited).
#define SLMC_CM_ASSIGNMENTS(Class)                                             \
  template <class Y, class = typename std::enable_if<                          \
                         ::slmc::cm::detail::is_object<Y> ||                   \
                         ::slmc::cm::detail::is_scalar<Y>>::type>              \
  SLMC_CM_FN Class &operator=(const Y &y) {                                    \
    this->assign(y);                                                           \
    return *this;                                                              \
  }                                                                            \
  template <class Y> SLMC_CM_FN Class &operator+=(const Y &y) {                \
    this->assign(*this + y);                                                   \
    return *this;                                                              \
  }                                                                            \
  template <class Y> SLMC_CM_FN Class &operator-=(const Y &y) {                \
    this->assign(*this - y);                                                   \
    return *this;                                                              \
  }                                                                            \
  template <class Y> SLMC_CM_FN Class &operator*=(const Y &y) {                \
    this->assign(*this * y);                                                   \
    return *this;                                                              \
  }                                                                            \
  template <class Y> SLMC_CM_FN Class &operator/=(const Y &y) {                \
    this->assign(*this / y);                                                   \
    return *this;                                                              \
  }                                                                            \
  template <class Y> SLMC_CM_FN Class &operator%=(const Y &y) {                \
    this->assign(*this % y);                                                   \
    return *this;                                                              \
  }                                                                            \
  template <class Y> SLMC_CM_FN Class &operator&=(const Y &y) {                \
    this->assign(*this & y);                                                   \
    return *this;                                                              \
  }                                                                            \
  template <class Y> SLMC_CM_FN Class &operator|=(const Y &y) {                \
    this->assign(*this | y);                                                   \
    return *this;                                                              \
  }                                                                            \
  template <class Y> SLMC_CM_FN Class &operator^=(const Y &y) {                \
    this->assign(*this ^ y);                                                   \
    return *this;                                                              \
  }                                                                            \
  template <class Y> SLMC_CM_FN Class &operator<<=(const Y &y) {               \
    this->assign(*this << y);                                                  \
    return *this;                                                              \
  }                                                                            \
  template <class Y> SLMC_CM_FN Class &operator>>=(const Y &y) {               \
    this->assign(*this >> y);                                                  \
    return *this;                                                              \
  }

// ---- Vectors ---------------------------------------------------------------

template <class D, class T, int N> class vector_base : public object_base<D, T, N> {
  typedef object_base<D, T, N> base;

public:
  using typename base::alias_type;

  SLMC_CM_FN alias_type &operator()(int i) const { return this->at(i); }
  SLMC_CM_FN alias_type &operator[](int i) const { return this->at(i); }

  /// SIZE elements from `offset`, STRIDE apart.
  template <int SIZE, int STRIDE = 1>
  SLMC_CM_FN vector_ref<T, SIZE> select(int offset = 0) const {
    const D &d = this->self();
    return vector_ref<T, SIZE>(d.ptr() + d.offset(offset), d.stride() * STRIDE);
  }

  /// The whole vector as a reference (select<N, 1>(0)).
  SLMC_CM_FN vector_ref<T, N> select_all() const { return select<N, 1>(0); }

  /// The same bytes as elements of type U.
  template <class U>
  SLMC_CM_FN vector_ref<U, N * int(sizeof(T)) / int(sizeof(U))> format() const {
    static_assert((N * sizeof(T)) % sizeof(U) == 0,
                  "format: the object's size is not a multiple of the new element's");
    return vector_ref<U, N * int(sizeof(T)) / int(sizeof(U))>(
        this->template bytes_as<U>(), 1);
  }
  template <class U, int R2, int C2> SLMC_CM_FN matrix_ref<U, R2, C2> format() const {
    static_assert(R2 * C2 * sizeof(U) == N * sizeof(T),
                  "format: the new shape has another size in bytes");
    return matrix_ref<U, R2, C2>(this->template bytes_as<U>(), C2, 1);
  }
};

template <class T, int N>
class vector : public vector_base<vector<T, N>, T, N> {
  typedef vector_base<vector<T, N>, T, N> base;
  template <class, class, int> friend class object_base;

public:
  using typename base::alias_type;

  /// Uninitialised, as in CM.
  SLMC_CM_FN vector() {}
  SLMC_CM_FN vector(const vector &) = default;
  /// Every element `s`.
  template <class S, typename std::enable_if<detail::is_scalar<S>, int>::type = 0>
  SLMC_CM_FN vector(const S &s) {
    this->assign(s);
  }
  /// The first N elements of an array (CM's initialisation from a const
  /// array).
  /// A shorter array (which cmc accepts) leaves the rest zero.
  template <class U, int M>
  SLMC_CM_FN vector(const U (&init)[M]) {
    SLMC_CM_ELEMENTS
    for (int i = 0; i < N; ++i)
      data_[i] = i < M ? T(init[i]) : T(0);
  }
  /// Element-wise conversion from any object of N elements.
  template <class X, typename std::enable_if<
                         detail::is_object<X> &&
                             !std::is_same<detail::bare<X>, vector>::value,
                         int>::type = 0>
  SLMC_CM_FN vector(const X &x) {
    static_assert(detail::size_of<X>::value == N,
                  "vector initialised from an object of another size");
    SLMC_CM_ELEMENTS
    for (int i = 0; i < N; ++i)
      data_[i] = T(x.get(i));
  }
  /// Element-wise conversion, saturated when `sat` is SAT (cmc's
  /// `vector<uchar, 8>(w, SAT)`).
  template <class X, typename std::enable_if<detail::is_object<X>, int>::type = 0>
  SLMC_CM_FN vector(const X &x, int sat) {
    static_assert(detail::size_of<X>::value == N,
                  "vector initialised from an object of another size");
    SLMC_CM_ELEMENTS
    for (int i = 0; i < N; ++i)
      data_[i] = sat ? detail::saturate<T>(x.get(i)) : T(x.get(i));
  }

  SLMC_CM_FN vector &operator=(const vector &) = default;
  SLMC_CM_ASSIGNMENTS(vector)

  SLMC_CM_FN alias_type *ptr() const { return const_cast<alias_type *>(data_); }
  SLMC_CM_FN static constexpr int offset(int i) { return i; }
  SLMC_CM_FN static constexpr int stride() { return 1; }

private:
  alignas(sizeof(T) * N >= 16 ? 16 : alignof(T) > 8 ? alignof(T) : 8) alias_type data_[N];
};

template <class T, int N>
class vector_ref : public vector_base<vector_ref<T, N>, T, N> {
  typedef vector_base<vector_ref<T, N>, T, N> base;

public:
  using typename base::alias_type;

  /// Views elements base[0], base[stride], ... (used by select and format).
  SLMC_CM_FN vector_ref(alias_type *base, int stride) : base_(base), stride_(stride) {}
  SLMC_CM_FN vector_ref(vector<T, N> &v) : base_(v.ptr()), stride_(1) {}
  /// Another view of the same elements.
  SLMC_CM_FN vector_ref(const vector_ref &) = default;

  /// Writes elements; a reference never rebinds.
  SLMC_CM_FN vector_ref &operator=(const vector_ref &o) {
    this->assign(o);
    return *this;
  }
  SLMC_CM_ASSIGNMENTS(vector_ref)

  SLMC_CM_FN alias_type *ptr() const { return base_; }
  SLMC_CM_FN int offset(int i) const { return i * stride_; }
  SLMC_CM_FN int stride() const { return stride_; }

private:
  alias_type *base_;
  int stride_;
};

// ---- Matrices ----------------------------------------------------------------

template <class D, class T, int R, int C>
class matrix_base : public object_base<D, T, R * C> {
  static_assert(R > 0 && C > 0, "matrix dimensions must be positive");
  typedef object_base<D, T, R * C> base;

public:
  using typename base::alias_type;

  SLMC_CM_FN static constexpr int n_rows() { return R; }
  SLMC_CM_FN static constexpr int n_cols() { return C; }

  SLMC_CM_FN alias_type &operator()(int r, int c) const {
    const D &d = this->self();
    return d.ptr()[r * d.row_stride() + c * d.col_stride()];
  }
  /// Row r (so m[r][c] is element (r, c)).
  SLMC_CM_FN vector_ref<T, C> operator[](int r) const { return row(r); }
  SLMC_CM_FN vector_ref<T, C> row(int r) const {
    const D &d = this->self();
    return vector_ref<T, C>(d.ptr() + r * d.row_stride(), d.col_stride());
  }
  SLMC_CM_FN vector_ref<T, R> column(int c) const {
    const D &d = this->self();
    return vector_ref<T, R>(d.ptr() + c * d.col_stride(), d.row_stride());
  }

  /// RS rows RSTRIDE apart from row r, CS columns CSTRIDE apart from column c.
  template <int RS, int RSTRIDE, int CS, int CSTRIDE>
  SLMC_CM_FN matrix_ref<T, RS, CS> select(int r = 0, int c = 0) const {
    const D &d = this->self();
    return matrix_ref<T, RS, CS>(d.ptr() + r * d.row_stride() + c * d.col_stride(),
                                 d.row_stride() * RSTRIDE, d.col_stride() * CSTRIDE);
  }

  /// The whole matrix as a reference (select<R, 1, C, 1>(0, 0)).
  SLMC_CM_FN matrix_ref<T, R, C> select_all() const { return select<R, 1, C, 1>(0, 0); }

  /// Elements (rows[i], cols[i]).
  template <class IR, class IC>
  SLMC_CM_FN vector<T, detail::size_of<IR>::value> iselect(const IR &rows,
                                                           const IC &cols) const {
    vector<T, detail::size_of<IR>::value> r;
    SLMC_CM_ELEMENTS
    for (int i = 0; i < detail::size_of<IR>::value; ++i)
      r.at(i) = (*this)(int(detail::elem(rows, i)), int(detail::elem(cols, i)));
    return r;
  }
  using base::iselect;

  /// The same bytes as a vector of elements of type U (spec 3.2.10: one
  /// type argument gives a vector, also on a matrix).
  template <class U>
  SLMC_CM_FN vector_ref<U, R * C * int(sizeof(T)) / int(sizeof(U))> format() const {
    static_assert((R * C * sizeof(T)) % sizeof(U) == 0,
                  "format: the object's size is not a multiple of the new element's");
    return vector_ref<U, R * C * int(sizeof(T)) / int(sizeof(U))>(
        this->template bytes_as<U>(), 1);
  }
  template <class U, int R2, int C2> SLMC_CM_FN matrix_ref<U, R2, C2> format() const {
    static_assert(R2 * C2 * sizeof(U) == R * C * sizeof(T),
                  "format: the new shape has another size in bytes");
    return matrix_ref<U, R2, C2>(this->template bytes_as<U>(), C2, 1);
  }

  SLMC_CM_FN int offset(int i) const {
    const D &d = this->self();
    return (i / C) * d.row_stride() + (i % C) * d.col_stride();
  }
};

template <class T, int R, int C>
class matrix : public matrix_base<matrix<T, R, C>, T, R, C> {
  typedef matrix_base<matrix<T, R, C>, T, R, C> base;

public:
  using typename base::alias_type;

  SLMC_CM_FN matrix() {}
  SLMC_CM_FN matrix(const matrix &) = default;
  template <class S, typename std::enable_if<detail::is_scalar<S>, int>::type = 0>
  SLMC_CM_FN matrix(const S &s) {
    this->assign(s);
  }
  /// A shorter array (which cmc accepts) leaves the rest zero.
  template <class U, int M>
  SLMC_CM_FN matrix(const U (&init)[M]) {
    SLMC_CM_ELEMENTS
    for (int i = 0; i < R * C; ++i)
      data_[i] = i < M ? T(init[i]) : T(0);
  }
  /// From any object of R * C elements (a vector fills it row by row).
  template <class X, typename std::enable_if<
                         detail::is_object<X> &&
                             !std::is_same<detail::bare<X>, matrix>::value,
                         int>::type = 0>
  SLMC_CM_FN matrix(const X &x) {
    static_assert(detail::size_of<X>::value == R * C,
                  "matrix initialised from an object of another size");
    SLMC_CM_ELEMENTS
    for (int i = 0; i < R * C; ++i)
      data_[i] = T(x.get(i));
  }
  /// Element-wise conversion, saturated when `sat` is SAT.
  template <class X, typename std::enable_if<detail::is_object<X>, int>::type = 0>
  SLMC_CM_FN matrix(const X &x, int sat) {
    static_assert(detail::size_of<X>::value == R * C,
                  "matrix initialised from an object of another size");
    SLMC_CM_ELEMENTS
    for (int i = 0; i < R * C; ++i)
      data_[i] = sat ? detail::saturate<T>(x.get(i)) : T(x.get(i));
  }

  SLMC_CM_FN matrix &operator=(const matrix &) = default;
  SLMC_CM_ASSIGNMENTS(matrix)

  SLMC_CM_FN alias_type *ptr() const { return const_cast<alias_type *>(data_); }
  SLMC_CM_FN static constexpr int row_stride() { return C; }
  SLMC_CM_FN static constexpr int col_stride() { return 1; }
  SLMC_CM_FN static constexpr int offset(int i) { return i; }

private:
  alignas(sizeof(T) * R * C >= 16 ? 16 : alignof(T) > 8 ? alignof(T) : 8)
      alias_type data_[R * C];
};

template <class T, int R, int C>
class matrix_ref : public matrix_base<matrix_ref<T, R, C>, T, R, C> {
  typedef matrix_base<matrix_ref<T, R, C>, T, R, C> base;

public:
  using typename base::alias_type;

  SLMC_CM_FN matrix_ref(alias_type *base, int row_stride, int col_stride)
      : base_(base), rs_(row_stride), cs_(col_stride) {}
  SLMC_CM_FN matrix_ref(matrix<T, R, C> &m) : base_(m.ptr()), rs_(C), cs_(1) {}
  SLMC_CM_FN matrix_ref(const matrix_ref &) = default;

  SLMC_CM_FN matrix_ref &operator=(const matrix_ref &o) {
    this->assign(o);
    return *this;
  }
  SLMC_CM_ASSIGNMENTS(matrix_ref)

  SLMC_CM_FN alias_type *ptr() const { return base_; }
  SLMC_CM_FN int row_stride() const { return rs_; }
  SLMC_CM_FN int col_stride() const { return cs_; }
  using base::offset;

private:
  alias_type *base_;
  int rs_, cs_;
};

#undef SLMC_CM_ASSIGNMENTS

// ---- Values bound to _ref parameters ----------------------------------------
// cmc binds a vector or matrix argument to a vector_ref / matrix_ref
// parameter by reference, deducing through it; the pre-pass
// (lib/Prepass/CmRefParameters.h) forwards such calls through as_ref.

namespace detail {
template <class X> struct is_value : std::false_type {};
template <class T, int N> struct is_value<vector<T, N>> : std::true_type {};
template <class T, int R, int C> struct is_value<matrix<T, R, C>> : std::true_type {};
/// Whether one of the arguments is a vector or a matrix (not a reference).
template <class... X> constexpr bool binds_value = (is_value<bare<X>>::value || ...);
/// The argument's type where a _ref parameter takes it, else void.
template <bool Ref, class A> using bound = typename std::conditional<Ref, A, void>::type;

/// A view of all of a vector or matrix; anything else as it is.
template <class T, int N> SLMC_CM_FN vector_ref<T, N> as_ref(const vector<T, N> &v) {
  return vector_ref<T, N>(v.ptr(), 1);
}
template <class T, int R, int C>
SLMC_CM_FN matrix_ref<T, R, C> as_ref(const matrix<T, R, C> &m) {
  return matrix_ref<T, R, C>(m.ptr(), C, 1);
}
template <class X, class = typename std::enable_if<!is_value<bare<X>>::value>::type>
SLMC_CM_FN X &&as_ref(X &&x) {
  return static_cast<X &&>(x);
}

/// An argument `a` of a forwarding overload (declared `A &&a`) as the
/// function it forwards to takes it: through as_ref at a _ref position.
template <bool Ref, class A> struct pass {
  SLMC_CM_FN static A &&get(typename std::remove_reference<A>::type &a) {
    return static_cast<A &&>(a);
  }
};
template <class A> struct pass<true, A> {
  SLMC_CM_FN static auto get(typename std::remove_reference<A>::type &a)
      -> decltype(as_ref(a)) {
    return as_ref(a);
  }
};
} // namespace detail

// The overloads the pre-pass adds, one macro per arity: the function's
// name, then 1 for each _ref position and 0 for the others.
#define SLMC_CM_UNPAREN(...) __VA_ARGS__
#define SLMC_CM_REF_OVERLOAD(F, TPARAMS, PARAMS, ARGS, BOUND)                   \
  template <SLMC_CM_UNPAREN TPARAMS,                                             \
            typename ::std::enable_if<                                          \
                ::slmc::cm::detail::binds_value<SLMC_CM_UNPAREN BOUND>, int>::type = 0> \
  SLMC_CM_FN auto F(SLMC_CM_UNPAREN PARAMS)->decltype(F(SLMC_CM_UNPAREN ARGS)) {  \
    return F(SLMC_CM_UNPAREN ARGS);                                             \
  }
#define SLMC_CM_RO_T(K) class SlmcA##K
#define SLMC_CM_RO_P(K) SlmcA##K &&slmc_a##K
#define SLMC_CM_RO_A(K, R) ::slmc::cm::detail::pass<R, SlmcA##K>::get(slmc_a##K)
#define SLMC_CM_RO_B(K, R) ::slmc::cm::detail::bound<R, SlmcA##K>
#define SLMC_CM_RO_1(M, R0) M(0, R0)
#define SLMC_CM_RO_2(M, R0, R1) SLMC_CM_RO_1(M, R0), M(1, R1)
#define SLMC_CM_RO_3(M, R0, R1, R2) SLMC_CM_RO_2(M, R0, R1), M(2, R2)
#define SLMC_CM_RO_4(M, R0, R1, R2, R3) SLMC_CM_RO_3(M, R0, R1, R2), M(3, R3)
#define SLMC_CM_RO_5(M, R0, R1, R2, R3, R4) SLMC_CM_RO_4(M, R0, R1, R2, R3), M(4, R4)
#define SLMC_CM_RO_6(M, R0, R1, R2, R3, R4, R5)                                \
  SLMC_CM_RO_5(M, R0, R1, R2, R3, R4), M(5, R5)
#define SLMC_CM_RO_7(M, R0, R1, R2, R3, R4, R5, R6)                            \
  SLMC_CM_RO_6(M, R0, R1, R2, R3, R4, R5), M(6, R6)
#define SLMC_CM_RO_8(M, R0, R1, R2, R3, R4, R5, R6, R7)                        \
  SLMC_CM_RO_7(M, R0, R1, R2, R3, R4, R5, R6), M(7, R7)
#define SLMC_CM_RO_T2(K, R) SLMC_CM_RO_T(K)
#define SLMC_CM_RO_P2(K, R) SLMC_CM_RO_P(K)
#define SLMC_CM_REF_OVERLOAD_N(N, F, ...)                                       \
  SLMC_CM_REF_OVERLOAD(F, (SLMC_CM_RO_##N(SLMC_CM_RO_T2, __VA_ARGS__)),          \
                       (SLMC_CM_RO_##N(SLMC_CM_RO_P2, __VA_ARGS__)),             \
                       (SLMC_CM_RO_##N(SLMC_CM_RO_A, __VA_ARGS__)),              \
                       (SLMC_CM_RO_##N(SLMC_CM_RO_B, __VA_ARGS__)))
#define SLMC_CM_REF_OVERLOAD_1(F, ...) SLMC_CM_REF_OVERLOAD_N(1, F, __VA_ARGS__)
#define SLMC_CM_REF_OVERLOAD_2(F, ...) SLMC_CM_REF_OVERLOAD_N(2, F, __VA_ARGS__)
#define SLMC_CM_REF_OVERLOAD_3(F, ...) SLMC_CM_REF_OVERLOAD_N(3, F, __VA_ARGS__)
#define SLMC_CM_REF_OVERLOAD_4(F, ...) SLMC_CM_REF_OVERLOAD_N(4, F, __VA_ARGS__)
#define SLMC_CM_REF_OVERLOAD_5(F, ...) SLMC_CM_REF_OVERLOAD_N(5, F, __VA_ARGS__)
#define SLMC_CM_REF_OVERLOAD_6(F, ...) SLMC_CM_REF_OVERLOAD_N(6, F, __VA_ARGS__)
#define SLMC_CM_REF_OVERLOAD_7(F, ...) SLMC_CM_REF_OVERLOAD_N(7, F, __VA_ARGS__)
#define SLMC_CM_REF_OVERLOAD_8(F, ...) SLMC_CM_REF_OVERLOAD_N(8, F, __VA_ARGS__)

// ---- Element-wise operators ------------------------------------------------
// Found by argument-dependent lookup for the four classes; an operand may be
// an arithmetic scalar, which is broadcast.

#define SLMC_CM_BINARY(OP)                                                      \
  template <class X, class Y,                                                  \
            class = typename std::enable_if<detail::operands<X, Y>::value>::type, \
            class E = typename detail::result_element<                         \
                X, Y,                                                          \
                decltype(std::declval<detail::element_t<X>>()                  \
                             OP std::declval<detail::element_t<Y>>())>::type>  \
  SLMC_CM_FN typename detail::result_object<X, Y, E>::type operator OP(        \
      const X &x, const Y &y) {                                                \
    typename detail::result_object<X, Y, E>::type r;                           \
    SLMC_CM_ELEMENTS                                                           \
    for (int i = 0; i < r.n_elems(); ++i)                                      \
      r.at(i) = E(detail::elem(x, i) OP detail::elem(y, i));                    \
    return r;                                                                  \
  }
SLMC_CM_BINARY(+)
SLMC_CM_BINARY(-)
SLMC_CM_BINARY(*)
SLMC_CM_BINARY(/)
SLMC_CM_BINARY(%)
SLMC_CM_BINARY(&)
SLMC_CM_BINARY(|)
SLMC_CM_BINARY(^)
SLMC_CM_BINARY(<<)
SLMC_CM_BINARY(>>)
#undef SLMC_CM_BINARY

// Comparisons give masks: 1 where the relation holds, else 0.
#define SLMC_CM_COMPARE(OP)                                                     \
  template <class X, class Y,                                                  \
            class = typename std::enable_if<detail::operands<X, Y>::value>::type> \
  SLMC_CM_FN typename detail::result_object<X, Y, ushort>::type operator OP(   \
      const X &x, const Y &y) {                                                \
    typename detail::result_object<X, Y, ushort>::type r;                      \
    SLMC_CM_ELEMENTS                                                           \
    for (int i = 0; i < r.n_elems(); ++i)                                      \
      r.at(i) = (detail::elem(x, i) OP detail::elem(y, i)) ? 1 : 0;             \
    return r;                                                                  \
  }
SLMC_CM_COMPARE(==)
SLMC_CM_COMPARE(!=)
SLMC_CM_COMPARE(<)
SLMC_CM_COMPARE(<=)
SLMC_CM_COMPARE(>)
SLMC_CM_COMPARE(>=)
#undef SLMC_CM_COMPARE

#define SLMC_CM_UNARY(OP, RESULT)                                               \
  template <class X, class = typename std::enable_if<detail::is_object<X>>::type, \
            class E = RESULT>                                                  \
  SLMC_CM_FN typename detail::result_object<X, X, E>::type operator OP(const X &x) { \
    typename detail::result_object<X, X, E>::type r;                           \
    SLMC_CM_ELEMENTS                                                           \
    for (int i = 0; i < r.n_elems(); ++i)                                      \
      r.at(i) = E(OP x.get(i));                                                \
    return r;                                                                  \
  }
SLMC_CM_UNARY(-, decltype(-std::declval<detail::element_t<X>>()))
SLMC_CM_UNARY(+, decltype(+std::declval<detail::element_t<X>>()))
SLMC_CM_UNARY(~, decltype(~std::declval<detail::element_t<X>>()))
SLMC_CM_UNARY(!, ushort)
#undef SLMC_CM_UNARY

} // namespace cm
} // namespace slmc

using slmc::cm::matrix;
using slmc::cm::matrix_ref;
using slmc::cm::vector;
using slmc::cm::vector_ref;

#endif // SLMC_CM_VECTOR_H
