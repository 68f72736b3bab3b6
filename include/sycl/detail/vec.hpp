//===- sycl/detail/vec.hpp - sycl::vec and its swizzles --------------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// sycl::vec<T, N> (SYCL 2020 §4.14.2): N of 1, 2, 3, 4, 8 or 16 elements of
// a scalar type, stored as an array (a vec of 3 takes the room and the
// alignment of 4, as the specification says). Every operation is element by
// element in plain C++, which the device compilers vectorise or not as the
// target prefers; the same code is the CPU fallback.
//
// A swizzle (swizzle<I...>(), x(), lo(), xyz() ...) is a reference to some
// elements of a vec: it converts to a vec of its size, and when its indices
// are distinct it can be assigned to, element by element, through the vec.
// The named multi-element swizzles (xy(), xyzw(), rgb() ...) exist when
// SYCL_SIMPLE_SWIZZLES is defined before <sycl/sycl.hpp>, as specified.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_SYCL_DETAIL_VEC_HPP
#define SLMC_SYCL_DETAIL_VEC_HPP

#include "sycl/detail/common.hpp"
#include "sycl/detail/half.hpp"
#include "sycl/detail/multi_ptr.hpp"

namespace sycl {

enum class rounding_mode { automatic, rte, rtz, rtp, rtn };

template <typename T, int N> class vec;

namespace detail {

/// The element types SYCL 2020 allows in a vec.
template <typename T>
inline constexpr bool is_vec_elem_v =
    std::is_same<T, bool>::value || std::is_same<T, char>::value ||
    std::is_same<T, signed char>::value || std::is_same<T, unsigned char>::value ||
    std::is_same<T, short>::value || std::is_same<T, unsigned short>::value ||
    std::is_same<T, int>::value || std::is_same<T, unsigned int>::value ||
    std::is_same<T, long>::value || std::is_same<T, unsigned long>::value ||
    std::is_same<T, long long>::value || std::is_same<T, unsigned long long>::value ||
    std::is_same<T, float>::value || std::is_same<T, double>::value ||
    std::is_same<T, half>::value || std::is_same<T, std::byte>::value;

/// The signed integer of T's size: the element type of comparison results.
template <size_t Size> struct signed_of_size;
template <> struct signed_of_size<1> { using type = int8_t; };
template <> struct signed_of_size<2> { using type = int16_t; };
template <> struct signed_of_size<4> { using type = int32_t; };
template <> struct signed_of_size<8> { using type = int64_t; };
template <typename T> using rel_t = typename signed_of_size<sizeof(T)>::type;

template <typename T>
inline constexpr bool is_vec_float_v = std::is_floating_point<T>::value || is_half<T>::value;
template <typename T>
inline constexpr bool is_vec_int_v = std::is_integral<T>::value && !std::is_same<T, bool>::value;

template <typename T>
inline constexpr bool is_vec_arith_v = is_vec_int_v<T> || is_vec_float_v<T>;

/// Scalars that combine with a vec's elements in operators.
template <typename T>
inline constexpr bool is_scalar_arg_v = std::is_arithmetic<T>::value || is_half<T>::value ||
                                        std::is_same<T, std::byte>::value;

template <typename T> struct is_vec : std::false_type {};
template <typename T, int N> struct is_vec<vec<T, N>> : std::true_type {};

template <typename V, int... I> class swizzle_ref;
template <typename T> struct is_swizzle : std::false_type {};
template <typename V, int... I> struct is_swizzle<swizzle_ref<V, I...>> : std::true_type {};

/// Number of scalars an argument of vec's element-list constructor gives.
template <typename A, typename = void> struct arg_count : std::integral_constant<int, 1> {};
template <typename T, int N> struct arg_count<vec<T, N>> : std::integral_constant<int, N> {};
template <typename V, int... I>
struct arg_count<swizzle_ref<V, I...>> : std::integral_constant<int, sizeof...(I)> {};

// ---- Element conversion with a rounding mode -------------------------------
template <typename F> struct float_bits;
template <> struct float_bits<_Float16> { using type = uint16_t; };
template <> struct float_bits<float> { using type = uint32_t; };
template <> struct float_bits<double> { using type = uint64_t; };

/// The neighbour of r (not a NaN) towards +inf (up) or -inf.
template <typename F> SLMC_HD inline F float_step(F r, bool up) {
  using U = typename float_bits<F>::type;
  U b = __builtin_bit_cast(U, r);
  if (r == F(0))
    return __builtin_bit_cast(F, U(up ? 1 : (U(1) << (sizeof(U) * 8 - 1)) | 1));
  b = ((r > F(0)) == up) ? U(b + 1) : U(b - 1);
  return __builtin_bit_cast(F, b);
}

template <typename T> struct native_float { using type = T; };
template <> struct native_float<half> { using type = _Float16; };
template <typename T> SLMC_HD inline auto to_native(T x) { return x; }
SLMC_HD inline _Float16 to_native(half x) { return x.native(); }
template <typename T> SLMC_HD inline T from_native(T x) { return x; }
SLMC_HD inline half from_native(_Float16 x) { return half::from_native(x); }

/// Rounds r, the nearest value to the exact x, as `Mode` asks: cmp says
/// whether r is below (-1), equal to (0) or above (1) x.
template <rounding_mode Mode, typename F> SLMC_HD inline F round_as(F r, int cmp, bool neg) {
  if (cmp == 0)
    return r;
  bool step_down = Mode == rounding_mode::rtn ? cmp > 0
                   : Mode == rounding_mode::rtp ? false
                   : /* rtz */ (neg ? false : cmp > 0);
  bool step_up = Mode == rounding_mode::rtp ? cmp < 0
                 : Mode == rounding_mode::rtn ? false
                 : (neg ? cmp < 0 : false);
  if (step_down)
    return float_step(r, false);
  if (step_up)
    return float_step(r, true);
  return r;
}

SLMC_HD inline float round_rte(float x) { return __builtin_rintf(x); }
SLMC_HD inline double round_rte(double x) { return __builtin_rint(x); }
SLMC_HD inline float round_up(float x) { return __builtin_ceilf(x); }
SLMC_HD inline double round_up(double x) { return __builtin_ceil(x); }
SLMC_HD inline float round_down(float x) { return __builtin_floorf(x); }
SLMC_HD inline double round_down(double x) { return __builtin_floor(x); }

template <typename To, rounding_mode Mode, typename From>
SLMC_HD inline To convert_elem(From x) {
  if constexpr (std::is_same<To, From>::value) {
    return x;
  } else if constexpr (std::is_same<To, bool>::value) {
    return x != From(0);
  } else if constexpr (std::is_same<To, std::byte>::value) {
    return static_cast<std::byte>(convert_elem<unsigned char, Mode>(x));
  } else if constexpr (std::is_same<From, std::byte>::value) {
    return convert_elem<To, Mode>(static_cast<unsigned char>(x));
  } else if constexpr (is_vec_float_v<From> && is_vec_int_v<To>) {
    // Integer results round toward zero unless asked otherwise. (A half
    // is exact in float.)
    using W = typename std::conditional<std::is_same<From, double>::value, double, float>::type;
    W v = static_cast<W>(x);
    if constexpr (Mode == rounding_mode::rte)
      v = round_rte(v);
    else if constexpr (Mode == rounding_mode::rtp)
      v = round_up(v);
    else if constexpr (Mode == rounding_mode::rtn)
      v = round_down(v);
    return static_cast<To>(v);
  } else if constexpr (is_vec_float_v<From> && is_vec_float_v<To>) {
    using NT = typename native_float<To>::type;
    using NF = typename native_float<From>::type;
    NF v = to_native(x);
    NT r = static_cast<NT>(v);
    if constexpr (sizeof(NT) >= sizeof(NF) || Mode == rounding_mode::automatic ||
                  Mode == rounding_mode::rte) {
      return from_native(r);
    } else {
      NF back = static_cast<NF>(r);
      int cmp = back < v ? -1 : back > v ? 1 : 0; // 0 for NaN
      return from_native(round_as<Mode>(r, cmp, v < NF(0)));
    }
  } else if constexpr (is_vec_int_v<From> && is_half<To>::value) {
    // Exact in float up to 2^24, far beyond half's range: round once.
    return convert_elem<half, Mode>(static_cast<float>(x));
  } else if constexpr (is_vec_int_v<From> && is_vec_float_v<To>) {
    To r = static_cast<To>(x);
    if constexpr (Mode == rounding_mode::automatic || Mode == rounding_mode::rte) {
      return r;
    } else {
      // r is an integer value; compare it with x exactly in From.
      constexpr int bits = sizeof(From) * 8;
      constexpr To half_range = static_cast<To>(1ull << (bits - 1));
      constexpr To range = std::is_signed<From>::value ? half_range : half_range * To(2);
      int cmp;
      if (r >= range)
        cmp = 1;
      else {
        From back = static_cast<From>(r);
        cmp = back < x ? -1 : back > x ? 1 : 0;
      }
      return round_as<Mode>(r, cmp, x < From(0));
    }
  } else {
    // Between integer types: the value modulo 2^n, as C++ converts.
    return static_cast<To>(x);
  }
}

template <int... I> constexpr int max_index() {
  int m = 0;
  ((m = I > m ? I : m), ...);
  return m;
}

template <typename T, int N> struct vec_storage { static constexpr int value = N == 3 ? 4 : N; };

/// vec's elements. Default construction leaves them uninitialised when
/// there is more than one, as DPC++'s vec does, so that vec is trivially
/// default constructible (a union holding one, a struct in
/// group_local_memory_for_overwrite); one element starts at zero, as there.
/// In a namespace of their own: a base class's namespace is searched by
/// argument-dependent lookup, and detail's functions must not be found for
/// a vec.
namespace elements_only {
constexpr bool power_of_two(size_t n) { return n && (n & (n - 1)) == 0; }
/// The vec's size; for the sizes and types vec refuses (static_asserts
/// say why), an alignment that makes no second error.
template <typename T> constexpr size_t vec_alignment(int slots) {
  return power_of_two(sizeof(T) * size_t(slots)) ? sizeof(T) * size_t(slots) : alignof(T);
}
template <typename T, int S, bool Zeroed> struct vec_elements {
  alignas(vec_alignment<T>(S)) T d_[S];
};
template <typename T, int S> struct vec_elements<T, S, true> {
  alignas(vec_alignment<T>(S)) T d_[S] = {};
};
} // namespace elements_only

} // namespace detail

template <typename T, int N>
class vec : private detail::elements_only::vec_elements<T, detail::vec_storage<T, N>::value,
                                                       N == 1> {
  static_assert(detail::is_vec_elem_v<T>,
                "sycl::vec: the element type must be bool, a standard integer type, "
                "float, double, sycl::half or std::byte");
  static_assert(N == 1 || N == 2 || N == 3 || N == 4 || N == 8 || N == 16,
                "sycl::vec: the number of elements must be 1, 2, 3, 4, 8 or 16");
  static constexpr int S = detail::vec_storage<T, N>::value;
  template <typename, int...> friend class detail::swizzle_ref;
  template <typename, int> friend class vec;

  using rel_elem = detail::rel_t<T>;
  using elements = detail::elements_only::vec_elements<T, S, N == 1>;
  using elements::d_;

public:
  using element_type = T;
  using value_type = T;
  using vector_t = vec; // no separate native vector type here

  // ---- Construction -------------------------------------------------------
  constexpr vec() = default;
  SLMC_HD constexpr vec(const vec &) = default;
  SLMC_HD constexpr vec &operator=(const vec &) = default;
  /// Every element (§4.14.2.1).
  SLMC_HD constexpr vec &operator=(const T &x) {
    for (int i = 0; i < N; ++i)
      d_[i] = x;
    return *this;
  }
  SLMC_HD explicit constexpr vec(const T &x) : elements{} {
    for (int i = 0; i < N; ++i)
      d_[i] = x;
  }
  /// An element list: scalars, vecs and swizzles of T, N elements in all.
  template <typename A0, typename A1, typename... As,
            typename = typename std::enable_if<
                (detail::arg_count<A0>::value + detail::arg_count<A1>::value +
                 (0 + ... + detail::arg_count<As>::value)) == N>::type>
  SLMC_HD constexpr vec(const A0 &a0, const A1 &a1, const As &...as) : elements{} {
    int i = 0;
    put(i, a0);
    put(i, a1);
    (put(i, as), ...);
  }
  /// A single vec or swizzle of N elements of T.
  template <typename V, int... I, typename = typename std::enable_if<sizeof...(I) == N>::type>
  SLMC_HD constexpr vec(const detail::swizzle_ref<V, I...> &s) : vec(s.to_vec()) {}

  // ---- Access -------------------------------------------------------------
  SLMC_HD static constexpr size_t size() noexcept { return N; }
  SLMC_HD static constexpr size_t get_count() noexcept { return N; } // deprecated
  SLMC_HD static constexpr size_t byte_size() noexcept { return sizeof(T) * S; }
  SLMC_HD static constexpr size_t get_size() noexcept { return sizeof(T) * S; } // deprecated

  SLMC_HD constexpr T &operator[](int i) { return d_[i]; }
  SLMC_HD constexpr const T &operator[](int i) const { return d_[i]; }

  template <int K = N, typename = typename std::enable_if<K == 1>::type>
  SLMC_HD constexpr operator T() const {
    return d_[0];
  }
  /// float(h.x() + h.y()) for a vec of half: a cast, through T.
  template <typename U, int K = N,
            typename = typename std::enable_if<K == 1 && detail::is_scalar_arg_v<U> &&
                                               !std::is_same<U, T>::value>::type>
  SLMC_HD explicit constexpr operator U() const {
    return static_cast<U>(d_[0]);
  }

  // ---- Conversions ---------------------------------------------------------
  template <typename U, rounding_mode Mode = rounding_mode::automatic>
  SLMC_HD vec<U, N> convert() const {
    static_assert(detail::is_vec_elem_v<U>, "sycl::vec::convert: invalid element type");
    vec<U, N> r;
    for (int i = 0; i < N; ++i)
      r.d_[i] = detail::convert_elem<U, Mode>(d_[i]);
    return r;
  }
  /// The same bytes as another vec type of the same size.
  template <typename AsT> SLMC_HD AsT as() const {
    static_assert(detail::is_vec<AsT>::value, "sycl::vec::as: the result must be a sycl::vec");
    static_assert(sizeof(AsT) == sizeof(vec),
                  "sycl::vec::as: the result must have the same size in bytes");
    if constexpr (sizeof(AsT) == sizeof(vec))
      return __builtin_bit_cast(AsT, *this);
    else
      return AsT();
  }

  // ---- Swizzles -----------------------------------------------------------
  template <int... I> SLMC_HD detail::swizzle_ref<vec, I...> swizzle() {
    static_assert(sizeof...(I) >= 1, "sycl::vec::swizzle: give at least one index");
    static_assert(((I >= 0 && I < N) && ...), "sycl::vec::swizzle: index out of range for this vec");
    return detail::swizzle_ref<vec, I...>(this);
  }
  template <int... I> SLMC_HD detail::swizzle_ref<const vec, I...> swizzle() const {
    static_assert(sizeof...(I) >= 1, "sycl::vec::swizzle: give at least one index");
    static_assert(((I >= 0 && I < N) && ...), "sycl::vec::swizzle: index out of range for this vec");
    return detail::swizzle_ref<const vec, I...>(this);
  }

  // Templates, so that a name the vec does not have is an error only where
  // it is called.
#define SLMC_XYZW(name, ...) SLMC_VEC_ACCESS_T(name, 4, "xyzw access needs a vec of at most 4 elements, each index below its size", __VA_ARGS__)
#define SLMC_VEC_ACCESS_T(name, limit, what, ...)                              \
  template <int K = N> SLMC_HD auto name() {                                   \
    static_assert(K <= limit && detail::max_index<__VA_ARGS__>() < K, "sycl::vec::" #name "(): " what); \
    return detail::swizzle_ref<vec, __VA_ARGS__>(this);                        \
  }                                                                            \
  template <int K = N> SLMC_HD auto name() const {                             \
    static_assert(K <= limit && detail::max_index<__VA_ARGS__>() < K, "sycl::vec::" #name "(): " what); \
    return detail::swizzle_ref<const vec, __VA_ARGS__>(this);                  \
  }
#define SLMC_VEC_RGBA(name, ...)                                               \
  template <int K = N> SLMC_HD auto name() {                                   \
    static_assert(K == 4, "sycl::vec::" #name "(): rgba access needs a vec of 4 elements"); \
    return detail::swizzle_ref<vec, __VA_ARGS__>(this);                        \
  }                                                                            \
  template <int K = N> SLMC_HD auto name() const {                             \
    static_assert(K == 4, "sycl::vec::" #name "(): rgba access needs a vec of 4 elements"); \
    return detail::swizzle_ref<const vec, __VA_ARGS__>(this);                  \
  }
#define SLMC_SN(name, i)                                                       \
  SLMC_VEC_ACCESS_T(name, 16, "index out of range for this vec", i)

  SLMC_XYZW(x, 0)
  SLMC_XYZW(y, 1)
  SLMC_XYZW(z, 2)
  SLMC_XYZW(w, 3)
  SLMC_VEC_RGBA(r, 0)
  SLMC_VEC_RGBA(g, 1)
  SLMC_VEC_RGBA(b, 2)
  SLMC_VEC_RGBA(a, 3)
  SLMC_SN(s0, 0) SLMC_SN(s1, 1) SLMC_SN(s2, 2) SLMC_SN(s3, 3)
  SLMC_SN(s4, 4) SLMC_SN(s5, 5) SLMC_SN(s6, 6) SLMC_SN(s7, 7)
  SLMC_SN(s8, 8) SLMC_SN(s9, 9) SLMC_SN(sA, 10) SLMC_SN(sB, 11)
  SLMC_SN(sC, 12) SLMC_SN(sD, 13) SLMC_SN(sE, 14) SLMC_SN(sF, 15)

  // lo(), hi(), odd(), even(): halves of the vec, a vec of 3 counted as 4
  // elements whose last one is undefined (§4.14.2.6).
#define SLMC_VEC_HALF(name, start, stride)                                     \
  template <int K = N> SLMC_HD auto name() {                                   \
    static_assert(K >= 2, "sycl::vec::" #name "(): needs a vec of 2 or more elements"); \
    return strided<vec, start, stride>(this, std::make_integer_sequence<int, S / 2>()); \
  }                                                                            \
  template <int K = N> SLMC_HD auto name() const {                             \
    static_assert(K >= 2, "sycl::vec::" #name "(): needs a vec of 2 or more elements"); \
    return strided<const vec, start, stride>(this, std::make_integer_sequence<int, S / 2>()); \
  }
  SLMC_VEC_HALF(lo, 0, 1)
  SLMC_VEC_HALF(hi, S / 2, 1)
  SLMC_VEC_HALF(even, 0, 2)
  SLMC_VEC_HALF(odd, 1, 2)
#undef SLMC_VEC_HALF

#ifdef SYCL_SIMPLE_SWIZZLES
#include "sycl/detail/vec_swizzles.inc"
#endif
#undef SLMC_XYZW
#undef SLMC_SN
#undef SLMC_VEC_RGBA
#undef SLMC_VEC_ACCESS_T

  // ---- Memory ----------------------------------------------------------------
  /// Elements ptr[offset * N], ..., ptr[offset * N + N - 1].
  template <access::address_space Sp, access::decorated D>
  SLMC_HD void load(size_t offset, multi_ptr<const T, Sp, D> ptr) {
    load(offset, ptr.get());
  }
  template <access::address_space Sp, access::decorated D>
  SLMC_HD void load(size_t offset, multi_ptr<T, Sp, D> ptr) {
    load(offset, static_cast<const T *>(ptr.get()));
  }
  SLMC_HD void load(size_t offset, const T *ptr) {
    for (int i = 0; i < N; ++i)
      d_[i] = ptr[offset * N + i];
  }
  template <access::address_space Sp, access::decorated D>
  SLMC_HD void store(size_t offset, multi_ptr<T, Sp, D> ptr) const {
    store(offset, ptr.get());
  }
  SLMC_HD void store(size_t offset, T *ptr) const {
    for (int i = 0; i < N; ++i)
      ptr[offset * N + i] = d_[i];
  }

  // ---- Operators -------------------------------------------------------------
#define SLMC_VEC_BINOP(op, ...)                                                \
  template <typename U = T, typename = typename std::enable_if<__VA_ARGS__>::type> \
  friend SLMC_HD constexpr vec operator op(const vec &a, const vec &b) {       \
    vec r;                                                                     \
    for (int i = 0; i < N; ++i)                                                \
      r.d_[i] = T(a.d_[i] op b.d_[i]);                                         \
    return r;                                                                  \
  }                                                                            \
  template <typename X, typename U = T,                                        \
            typename = typename std::enable_if<(__VA_ARGS__) && detail::is_scalar_arg_v<X>>::type> \
  friend SLMC_HD constexpr vec operator op(const vec &a, const X &b) {         \
    return a op vec(static_cast<T>(b));                                        \
  }                                                                            \
  template <typename X, typename U = T,                                        \
            typename = typename std::enable_if<(__VA_ARGS__) && detail::is_scalar_arg_v<X>>::type> \
  friend SLMC_HD constexpr vec operator op(const X &a, const vec &b) {         \
    return vec(static_cast<T>(a)) op b;                                        \
  }                                                                            \
  template <typename U = T, typename = typename std::enable_if<__VA_ARGS__>::type> \
  SLMC_HD constexpr vec &operator op##=(const vec &b) {                        \
    return *this = *this op b;                                                 \
  }                                                                            \
  template <typename X, typename U = T,                                        \
            typename = typename std::enable_if<(__VA_ARGS__) && detail::is_scalar_arg_v<X>>::type> \
  SLMC_HD constexpr vec &operator op##=(const X &b) {                          \
    return *this = *this op vec(static_cast<T>(b));                            \
  }
  SLMC_VEC_BINOP(+, detail::is_vec_arith_v<U>)
  SLMC_VEC_BINOP(-, detail::is_vec_arith_v<U>)
  SLMC_VEC_BINOP(*, detail::is_vec_arith_v<U>)
  SLMC_VEC_BINOP(/, detail::is_vec_arith_v<U>)
  SLMC_VEC_BINOP(%, detail::is_vec_int_v<U>)
  SLMC_VEC_BINOP(&, !detail::is_vec_float_v<U>)
  SLMC_VEC_BINOP(|, !detail::is_vec_float_v<U>)
  SLMC_VEC_BINOP(^, !detail::is_vec_float_v<U>)
  SLMC_VEC_BINOP(<<, detail::is_vec_int_v<U>)
  SLMC_VEC_BINOP(>>, detail::is_vec_int_v<U>)
#undef SLMC_VEC_BINOP

  // Comparisons and logical operators: -1 (all bits set) for true and 0 for
  // false, in the signed integer type of T's size.
#define SLMC_VEC_RELOP(op)                                                     \
  friend SLMC_HD constexpr vec<rel_elem, N> operator op(const vec &a, const vec &b) { \
    vec<rel_elem, N> r;                                                        \
    for (int i = 0; i < N; ++i)                                                \
      r.d_[i] = (a.d_[i] op b.d_[i]) ? rel_elem(-1) : rel_elem(0);             \
    return r;                                                                  \
  }                                                                            \
  template <typename X, typename = typename std::enable_if<detail::is_scalar_arg_v<X>>::type> \
  friend SLMC_HD constexpr vec<rel_elem, N> operator op(const vec &a, const X &b) { \
    return a op vec(static_cast<T>(b));                                        \
  }                                                                            \
  template <typename X, typename = typename std::enable_if<detail::is_scalar_arg_v<X>>::type> \
  friend SLMC_HD constexpr vec<rel_elem, N> operator op(const X &a, const vec &b) { \
    return vec(static_cast<T>(a)) op b;                                        \
  }
  SLMC_VEC_RELOP(==)
  SLMC_VEC_RELOP(!=)
  SLMC_VEC_RELOP(<)
  SLMC_VEC_RELOP(>)
  SLMC_VEC_RELOP(<=)
  SLMC_VEC_RELOP(>=)
  SLMC_VEC_RELOP(&&)
  SLMC_VEC_RELOP(||)
#undef SLMC_VEC_RELOP

  SLMC_HD constexpr vec<rel_elem, N> operator!() const {
    vec<rel_elem, N> r;
    for (int i = 0; i < N; ++i)
      r.d_[i] = !d_[i] ? rel_elem(-1) : rel_elem(0);
    return r;
  }
  template <typename U = T, typename = typename std::enable_if<!detail::is_vec_float_v<U>>::type>
  SLMC_HD constexpr vec operator~() const {
    vec r;
    for (int i = 0; i < N; ++i)
      r.d_[i] = T(~d_[i]);
    return r;
  }
  SLMC_HD constexpr vec operator+() const { return *this; }
  template <typename U = T, typename = typename std::enable_if<!std::is_same<U, bool>::value>::type>
  SLMC_HD constexpr vec operator-() const {
    vec r;
    for (int i = 0; i < N; ++i)
      r.d_[i] = T(-d_[i]);
    return r;
  }
  template <typename U = T, typename = typename std::enable_if<!std::is_same<U, bool>::value>::type>
  SLMC_HD constexpr vec &operator++() { return *this += T(1); }
  template <typename U = T, typename = typename std::enable_if<!std::is_same<U, bool>::value>::type>
  SLMC_HD constexpr vec &operator--() { return *this -= T(1); }
  template <typename U = T, typename = typename std::enable_if<!std::is_same<U, bool>::value>::type>
  SLMC_HD constexpr vec operator++(int) { vec t = *this; *this += T(1); return t; }
  template <typename U = T, typename = typename std::enable_if<!std::is_same<U, bool>::value>::type>
  SLMC_HD constexpr vec operator--(int) { vec t = *this; *this -= T(1); return t; }

private:
  template <typename V, int Start, int Stride, int... I>
  SLMC_HD static auto strided(V *v, std::integer_sequence<int, I...>) {
    return detail::swizzle_ref<V, (Start + I * Stride)...>(v);
  }
  SLMC_HD constexpr void put(int &i, const T &x) { d_[i++] = x; }
  template <typename A, typename = typename std::enable_if<
                            std::is_arithmetic<A>::value && !std::is_same<A, T>::value>::type>
  SLMC_HD constexpr void put(int &i, const A &x) {
    d_[i++] = static_cast<T>(x);
  }
  template <int M> SLMC_HD constexpr void put(int &i, const vec<T, M> &v) {
    for (int k = 0; k < M; ++k)
      d_[i++] = v.d_[k];
  }
  template <typename V, int... I>
  SLMC_HD constexpr void put(int &i, const detail::swizzle_ref<V, I...> &s) {
    put(i, s.to_vec());
  }
};

namespace detail {

template <int... I> constexpr bool distinct() {
  int a[] = {I...};
  for (size_t i = 0; i < sizeof...(I); ++i)
    for (size_t j = i + 1; j < sizeof...(I); ++j)
      if (a[i] == a[j])
        return false;
  return true;
}

/// Elements I... of a vec (V is vec<T, N> or const vec<T, N>).
template <typename T, int N> SLMC_HD inline auto scalar_if_one(const vec<T, N> &v) {
  if constexpr (N == 1)
    return v[0];
  else
    return v;
}

template <typename V, int... I> class swizzle_ref {
  using VT = typename std::remove_const<V>::type;
  using T = typename VT::element_type;
  static constexpr int M = sizeof...(I);
  static constexpr bool writable = !std::is_const<V>::value && distinct<I...>();
  template <typename, int...> friend class swizzle_ref;

public:
  using element_type = T;
  using value_type = T;
  using vec_t = vec<T, M>;

  SLMC_HD explicit swizzle_ref(V *v) : v_(v) {}
  SLMC_HD swizzle_ref(const swizzle_ref &) = default;

  SLMC_HD vec_t to_vec() const {
    vec_t r;
    int k = 0;
    ((r[k++] = v_->d_[I]), ...);
    return r;
  }
  SLMC_HD operator vec_t() const { return to_vec(); }
  template <int K = M, typename = typename std::enable_if<K == 1>::type>
  SLMC_HD operator T() const {
    return v_->d_[(I, ...)];
  }
  /// One element converts to any scalar type too, as DPC++'s swizzles do
  /// (`uint32_t id = bytes.y();` for a uchar4, `float x = h.x();` for a
  /// half4): the element, then a cast.
  template <typename U, int K = M,
            typename = typename std::enable_if<K == 1 && is_scalar_arg_v<U> &&
                                               !std::is_same<U, T>::value>::type>
  SLMC_HD operator U() const {
    return static_cast<U>(v_->d_[(I, ...)]);
  }

  SLMC_HD static constexpr size_t size() noexcept { return M; }

  // ---- Swizzles of a swizzle: elements of the same vec -------------------
  template <int J> static constexpr int at() {
    constexpr int idx[] = {I...};
    return idx[J >= 0 && J < M ? J : 0];
  }
  template <int... J> SLMC_HD auto compose() const { return swizzle_ref<V, at<J>()...>(v_); }
  template <int... J> SLMC_HD auto swizzle() const {
    static_assert(sizeof...(J) >= 1, "sycl::vec::swizzle: give at least one index");
    static_assert(((J >= 0 && J < M) && ...), "sycl::vec::swizzle: index out of range for this vec");
    return compose<J...>();
  }
#define SLMC_VEC_ACCESS_T(name, limit, what, ...)                              \
  template <int K = M> SLMC_HD auto name() const {                             \
    static_assert(K <= limit && detail::max_index<__VA_ARGS__>() < K, "sycl::vec::" #name "(): " what); \
    return this->template compose<__VA_ARGS__>();                              \
  }
#define SLMC_VEC_RGBA(name, ...)                                               \
  template <int K = M> SLMC_HD auto name() const {                             \
    static_assert(K == 4, "sycl::vec::" #name "(): rgba access needs a vec of 4 elements"); \
    return this->template compose<__VA_ARGS__>();                              \
  }
#define SLMC_XYZW(name, ...) SLMC_VEC_ACCESS_T(name, 4, "xyzw access needs a vec of at most 4 elements, each index below its size", __VA_ARGS__)
#define SLMC_SN(name, i) SLMC_VEC_ACCESS_T(name, 16, "index out of range for this vec", i)
  SLMC_XYZW(x, 0)
  SLMC_XYZW(y, 1)
  SLMC_XYZW(z, 2)
  SLMC_XYZW(w, 3)
  SLMC_VEC_RGBA(r, 0)
  SLMC_VEC_RGBA(g, 1)
  SLMC_VEC_RGBA(b, 2)
  SLMC_VEC_RGBA(a, 3)
  SLMC_SN(s0, 0) SLMC_SN(s1, 1) SLMC_SN(s2, 2) SLMC_SN(s3, 3)
  SLMC_SN(s4, 4) SLMC_SN(s5, 5) SLMC_SN(s6, 6) SLMC_SN(s7, 7)
  SLMC_SN(s8, 8) SLMC_SN(s9, 9) SLMC_SN(sA, 10) SLMC_SN(sB, 11)
  SLMC_SN(sC, 12) SLMC_SN(sD, 13) SLMC_SN(sE, 14) SLMC_SN(sF, 15)
#ifdef SYCL_SIMPLE_SWIZZLES
#include "sycl/detail/vec_swizzles.inc"
#endif
#undef SLMC_XYZW
#undef SLMC_SN
#undef SLMC_VEC_RGBA
#undef SLMC_VEC_ACCESS_T
  SLMC_HD static constexpr size_t get_count() noexcept { return M; }
  SLMC_HD auto &operator[](int i) const {
    constexpr int idx[] = {I...};
    return v_->d_[idx[i]];
  }

  // ---- Assignment through the vec --------------------------------------
  SLMC_HD const swizzle_ref &operator=(const vec_t &x) const {
    static_assert(writable, "sycl::vec: this swizzle is not assignable (const vec or repeated index)");
    if constexpr (writable) {
      int k = 0;
      ((v_->d_[I] = x[k++]), ...);
    }
    return *this;
  }
  SLMC_HD const swizzle_ref &operator=(const T &x) const { return *this = vec_t(x); }
  SLMC_HD const swizzle_ref &operator=(const swizzle_ref &x) const { return *this = x.to_vec(); }
  template <typename V2, int... J, typename = typename std::enable_if<sizeof...(J) == M>::type>
  SLMC_HD const swizzle_ref &operator=(const swizzle_ref<V2, J...> &x) const {
    return *this = x.to_vec();
  }

  template <typename U, rounding_mode Mode = rounding_mode::automatic>
  SLMC_HD vec<U, M> convert() const {
    return to_vec().template convert<U, Mode>();
  }
  template <typename AsT> SLMC_HD AsT as() const { return to_vec().template as<AsT>(); }

#define SLMC_SWZ_OP(op, wrap)                                                  \
  friend SLMC_HD auto operator op(const swizzle_ref &a, const vec_t &b) { return a.to_vec() op b; } \
  friend SLMC_HD auto operator op(const vec_t &a, const swizzle_ref &b) { return a op b.to_vec(); } \
  template <typename X, typename = typename std::enable_if<is_scalar_arg_v<X>>::type> \
  friend SLMC_HD auto operator op(const swizzle_ref &a, const X &b) { return wrap(a.to_vec() op b); } \
  template <typename X, typename = typename std::enable_if<is_scalar_arg_v<X>>::type> \
  friend SLMC_HD auto operator op(const X &a, const swizzle_ref &b) { return wrap(a op b.to_vec()); }
// One element with a scalar, in arithmetic, gives a scalar (v.x() * 2 is a
// T), so that it converts on to other arithmetic types; comparisons stay
// vecs of -1/0.
#define SLMC_SWZ_ASSIGN_OP(op)                                                 \
  SLMC_SWZ_OP(op, scalar_if_one)                                               \
  template <typename X> SLMC_HD const swizzle_ref &operator op##=(const X &b) const { \
    return *this = vec_t(to_vec() op b);                                       \
  }
  SLMC_SWZ_ASSIGN_OP(+)
  SLMC_SWZ_ASSIGN_OP(-)
  SLMC_SWZ_ASSIGN_OP(*)
  SLMC_SWZ_ASSIGN_OP(/)
  SLMC_SWZ_ASSIGN_OP(%)
  SLMC_SWZ_ASSIGN_OP(&)
  SLMC_SWZ_ASSIGN_OP(|)
  SLMC_SWZ_ASSIGN_OP(^)
  SLMC_SWZ_ASSIGN_OP(<<)
  SLMC_SWZ_ASSIGN_OP(>>)
  SLMC_SWZ_OP(==, )
  SLMC_SWZ_OP(!=, )
  SLMC_SWZ_OP(<, )
  SLMC_SWZ_OP(>, )
  SLMC_SWZ_OP(<=, )
  SLMC_SWZ_OP(>=, )
  SLMC_SWZ_OP(&&, )
  SLMC_SWZ_OP(||, )
#undef SLMC_SWZ_OP
#undef SLMC_SWZ_ASSIGN_OP
  SLMC_HD auto operator-() const { return -to_vec(); }
  SLMC_HD auto operator+() const { return to_vec(); }
  SLMC_HD auto operator~() const { return ~to_vec(); }
  SLMC_HD auto operator!() const { return !to_vec(); }
  SLMC_HD const swizzle_ref &operator++() const { return *this += T(1); }
  SLMC_HD const swizzle_ref &operator--() const { return *this -= T(1); }
  SLMC_HD vec_t operator++(int) const { vec_t t = to_vec(); *this += T(1); return t; }
  SLMC_HD vec_t operator--(int) const { vec_t t = to_vec(); *this -= T(1); return t; }

private:
  V *v_;
};

// Two swizzles: both become vecs (an exact match beats the friends above,
// which would each convert one side).
#define SLMC_SWZ2_OP(op, wrap, mixed)                                          \
  template <typename V1, int... I1, typename V2, int... I2>                    \
  SLMC_HD auto operator op(const swizzle_ref<V1, I1...> &a, const swizzle_ref<V2, I2...> &b) { \
    using T1 = typename swizzle_ref<V1, I1...>::element_type;                  \
    using T2 = typename swizzle_ref<V2, I2...>::element_type;                  \
    if constexpr (mixed && sizeof...(I1) == 1 && sizeof...(I2) == 1 && !std::is_same<T1, T2>::value) \
      return T1(a) op T2(b); /* two elements of different types: scalars */    \
    else                                                                       \
      return wrap(a.to_vec() op b.to_vec());                                   \
  }
SLMC_SWZ2_OP(+, scalar_if_one, true)
SLMC_SWZ2_OP(-, scalar_if_one, true)
SLMC_SWZ2_OP(*, scalar_if_one, true)
SLMC_SWZ2_OP(/, scalar_if_one, true)
SLMC_SWZ2_OP(%, scalar_if_one, true)
SLMC_SWZ2_OP(&, scalar_if_one, true)
SLMC_SWZ2_OP(|, scalar_if_one, true)
SLMC_SWZ2_OP(^, scalar_if_one, true)
SLMC_SWZ2_OP(<<, scalar_if_one, true)
SLMC_SWZ2_OP(>>, scalar_if_one, true)
SLMC_SWZ2_OP(==, , false)
SLMC_SWZ2_OP(!=, , false)
SLMC_SWZ2_OP(<, , false)
SLMC_SWZ2_OP(>, , false)
SLMC_SWZ2_OP(<=, , false)
SLMC_SWZ2_OP(>=, , false)
SLMC_SWZ2_OP(&&, , false)
SLMC_SWZ2_OP(||, , false)
#undef SLMC_SWZ2_OP

} // namespace detail

// Deduction guide (§4.14.2.1): vec{1.0f, 2.0f} is a vec<float, 2>.
template <class T, class... U> vec(T, U...) -> vec<T, sizeof...(U) + 1>;

// ---- Aliases (§4.14.2.2) -------------------------------------------------------
#define SLMC_VEC_ALIASES(prefix, type)                                         \
  using prefix##1 = vec<type, 1>;                                              \
  using prefix##2 = vec<type, 2>;                                              \
  using prefix##3 = vec<type, 3>;                                              \
  using prefix##4 = vec<type, 4>;                                              \
  using prefix##8 = vec<type, 8>;                                              \
  using prefix##16 = vec<type, 16>;
SLMC_VEC_ALIASES(char, int8_t)
SLMC_VEC_ALIASES(schar, signed char)
SLMC_VEC_ALIASES(uchar, uint8_t)
SLMC_VEC_ALIASES(short, int16_t)
SLMC_VEC_ALIASES(ushort, uint16_t)
SLMC_VEC_ALIASES(int, int32_t)
SLMC_VEC_ALIASES(uint, uint32_t)
SLMC_VEC_ALIASES(long, int64_t)
SLMC_VEC_ALIASES(ulong, uint64_t)
SLMC_VEC_ALIASES(longlong, long long)
SLMC_VEC_ALIASES(ulonglong, unsigned long long)
SLMC_VEC_ALIASES(half, half)
SLMC_VEC_ALIASES(float, float)
SLMC_VEC_ALIASES(double, double)
SLMC_VEC_ALIASES(bool, bool)
#undef SLMC_VEC_ALIASES

} // namespace sycl

#endif // SLMC_SYCL_DETAIL_VEC_HPP
