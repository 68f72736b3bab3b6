//===- amp_short_vectors.h - C++ AMP short vector types for slmc ----------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Concurrency::graphics: norm and unorm (floats clamped to [-1, 1] and
// [0, 1]) and the short vectors int_2..int_4, uint_2..uint_4, float_2..
// float_4, double_2..double_4, norm_2..norm_4 and unorm_2..unorm_4, usable in
// restrict(amp) and host code on every backend (plain structs of scalars).
//
// Components are data members x, y, z, w (and r, g, b, a naming the same
// storage); every component and swizzle also has MSVC's accessor functions
// get_x(), set_x(v), ref_x() and get_yx(), set_xz(v), get_wzyx(), ... (no
// repeated component, as in MSVC), and MSVC's swizzle properties over them
// (`v.yx`, `v.xyz = w`; spec 10.8.2) where __declspec(property) is
// available: slmc++ compiles every pass with -fdeclspec; a plain clang++
// needs -fdeclspec or -fms-extensions for them.
//
// norm and unorm clamp on every construction and after every operation; a NaN
// becomes 0, as Direct3D converts NaN to a normalized format.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_AMP_SHORT_VECTORS_H
#define SLMC_AMP_SHORT_VECTORS_H

#include <amp.h>

namespace Concurrency {
namespace graphics {

class norm;

/// A float in [0, 1]: every value stored is clamped (NaN to 0).
class unorm {
  float v_;
  SLMC_HD static float clamp(float v) { return v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f; }

public:
  SLMC_HD unorm() : v_(0.0f) {}
  SLMC_HD explicit unorm(float v) : v_(clamp(v)) {}
  SLMC_HD explicit unorm(unsigned int v) : v_(clamp(float(v))) {}
  SLMC_HD explicit unorm(int v) : v_(clamp(float(v))) {}
  SLMC_HD explicit unorm(double v) : v_(clamp(float(v))) {}
  SLMC_HD explicit inline unorm(const norm &n);
  SLMC_HD operator float() const { return v_; }

  SLMC_HD unorm &operator+=(const unorm &o) { v_ = clamp(v_ + o.v_); return *this; }
  SLMC_HD unorm &operator-=(const unorm &o) { v_ = clamp(v_ - o.v_); return *this; }
  SLMC_HD unorm &operator*=(const unorm &o) { v_ = clamp(v_ * o.v_); return *this; }
  SLMC_HD unorm &operator/=(const unorm &o) { v_ = clamp(v_ / o.v_); return *this; }
  SLMC_HD unorm &operator++() { v_ = clamp(v_ + 1.0f); return *this; }
  SLMC_HD unorm operator++(int) { unorm r = *this; ++*this; return r; }
  SLMC_HD unorm &operator--() { v_ = clamp(v_ - 1.0f); return *this; }
  SLMC_HD unorm operator--(int) { unorm r = *this; --*this; return r; }
};

/// A float in [-1, 1]: every value stored is clamped (NaN to 0).
class norm {
  float v_;
  SLMC_HD static float clamp(float v) { return v > -1.0f ? (v < 1.0f ? v : 1.0f) : (v == v ? -1.0f : 0.0f); }

public:
  SLMC_HD norm() : v_(0.0f) {}
  SLMC_HD explicit norm(float v) : v_(clamp(v)) {}
  SLMC_HD explicit norm(unsigned int v) : v_(clamp(float(v))) {}
  SLMC_HD explicit norm(int v) : v_(clamp(float(v))) {}
  SLMC_HD explicit norm(double v) : v_(clamp(float(v))) {}
  SLMC_HD norm(const unorm &u) : v_(float(u)) {}
  SLMC_HD operator float() const { return v_; }

  SLMC_HD norm operator-() const { return norm(-v_); }
  SLMC_HD norm &operator+=(const norm &o) { v_ = clamp(v_ + o.v_); return *this; }
  SLMC_HD norm &operator-=(const norm &o) { v_ = clamp(v_ - o.v_); return *this; }
  SLMC_HD norm &operator*=(const norm &o) { v_ = clamp(v_ * o.v_); return *this; }
  SLMC_HD norm &operator/=(const norm &o) { v_ = clamp(v_ / o.v_); return *this; }
  SLMC_HD norm &operator++() { v_ = clamp(v_ + 1.0f); return *this; }
  SLMC_HD norm operator++(int) { norm r = *this; ++*this; return r; }
  SLMC_HD norm &operator--() { v_ = clamp(v_ - 1.0f); return *this; }
  SLMC_HD norm operator--(int) { norm r = *this; --*this; return r; }
};

SLMC_HD inline unorm::unorm(const norm &n) : v_(clamp(float(n))) {}

// Arithmetic and comparisons of two norms or two unorms (mixed: norm).
#define SLMC_AMP_NORM_OPS(T)                                                   \
  SLMC_HD inline T operator+(const T &a, const T &b) { return T(float(a) + float(b)); } \
  SLMC_HD inline T operator-(const T &a, const T &b) { return T(float(a) - float(b)); } \
  SLMC_HD inline T operator*(const T &a, const T &b) { return T(float(a) * float(b)); } \
  SLMC_HD inline T operator/(const T &a, const T &b) { return T(float(a) / float(b)); } \
  SLMC_HD inline bool operator==(const T &a, const T &b) { return float(a) == float(b); } \
  SLMC_HD inline bool operator!=(const T &a, const T &b) { return float(a) != float(b); } \
  SLMC_HD inline bool operator<(const T &a, const T &b) { return float(a) < float(b); } \
  SLMC_HD inline bool operator>(const T &a, const T &b) { return float(a) > float(b); } \
  SLMC_HD inline bool operator<=(const T &a, const T &b) { return float(a) <= float(b); } \
  SLMC_HD inline bool operator>=(const T &a, const T &b) { return float(a) >= float(b); }
SLMC_AMP_NORM_OPS(unorm)
SLMC_AMP_NORM_OPS(norm)
#undef SLMC_AMP_NORM_OPS

#define UNORM_MIN ((::Concurrency::graphics::unorm)0.0f)
#define UNORM_MAX ((::Concurrency::graphics::unorm)1.0f)
#define UNORM_ZERO ((::Concurrency::graphics::unorm)0.0f)
#define NORM_ZERO ((::Concurrency::graphics::norm)0.0f)
#define NORM_MIN ((::Concurrency::graphics::norm)-1.0f)
#define NORM_MAX ((::Concurrency::graphics::norm)1.0f)

namespace detail {
template <class T> struct is_integral_component {
  static const bool value = false;
};
template <> struct is_integral_component<int> { static const bool value = true; };
template <> struct is_integral_component<unsigned int> { static const bool value = true; };

// Storage: components x, y, z, w, with r, g, b, a naming the same ones;
// each starts at zero (the initializers also let norm and unorm, whose
// default constructors are not trivial, live in the unions).
template <class T, int N> struct vec_storage;
template <class T> struct vec_storage<T, 2> {
  union { T x = T(); T r; };
  union { T y = T(); T g; };
  SLMC_HD T &c(int i) { return i == 0 ? x : y; }
};
template <class T> struct vec_storage<T, 3> {
  union { T x = T(); T r; };
  union { T y = T(); T g; };
  union { T z = T(); T b; };
  SLMC_HD T &c(int i) { return i == 0 ? x : i == 1 ? y : z; }
};
template <class T> struct vec_storage<T, 4> {
  union { T x = T(); T r; };
  union { T y = T(); T g; };
  union { T z = T(); T b; };
  union { T w = T(); T a; };
  SLMC_HD T &c(int i) { return i == 0 ? x : i == 1 ? y : i == 2 ? z : w; }
};

template <class T, int N> class short_vec;
} // namespace detail

typedef detail::short_vec<int, 2> int_2;
typedef detail::short_vec<int, 3> int_3;
typedef detail::short_vec<int, 4> int_4;
typedef detail::short_vec<unsigned int, 2> uint_2;
typedef detail::short_vec<unsigned int, 3> uint_3;
typedef detail::short_vec<unsigned int, 4> uint_4;
typedef detail::short_vec<float, 2> float_2;
typedef detail::short_vec<float, 3> float_3;
typedef detail::short_vec<float, 4> float_4;
typedef detail::short_vec<double, 2> double_2;
typedef detail::short_vec<double, 3> double_3;
typedef detail::short_vec<double, 4> double_4;
typedef detail::short_vec<unorm, 2> unorm_2;
typedef detail::short_vec<unorm, 3> unorm_3;
typedef detail::short_vec<unorm, 4> unorm_4;
typedef detail::short_vec<norm, 2> norm_2;
typedef detail::short_vec<norm, 3> norm_3;
typedef detail::short_vec<norm, 4> norm_4;
typedef unsigned int uint;

/// short_vector<T, N>::type: the short vector of N components of type T (T
/// itself for N == 1).
template <class T, int N> struct short_vector {
  static_assert(N >= 1 && N <= 4, "short vectors have 1 to 4 components");
  typedef detail::short_vec<T, N> type;
};
template <class T> struct short_vector<T, 1> { typedef T type; };

/// short_vector_traits<V>: value_type and size of a scalar or short vector.
template <class V> struct short_vector_traits;
#define SLMC_AMP_SCALAR_TRAITS(T)                                              \
  template <> struct short_vector_traits<T> {                                  \
    typedef T value_type;                                                      \
    static const int size = 1;                                                 \
  };
SLMC_AMP_SCALAR_TRAITS(int)
SLMC_AMP_SCALAR_TRAITS(unsigned int)
SLMC_AMP_SCALAR_TRAITS(float)
SLMC_AMP_SCALAR_TRAITS(double)
SLMC_AMP_SCALAR_TRAITS(norm)
SLMC_AMP_SCALAR_TRAITS(unorm)
#undef SLMC_AMP_SCALAR_TRAITS
template <class T, int N> struct short_vector_traits<detail::short_vec<T, N>> {
  typedef T value_type;
  static const int size = N;
};

namespace detail {
// Swizzle accessors: get_ab() returns the components a, b as a 2-vector and
// set_ab(v) stores one; a component missing from the vector makes the
// accessor an error where it is used, as in MSVC.
// MSVC's swizzle properties: reading one calls get_, assigning it set_
// (which takes its value by copy: `t.yx = t` swaps).
#if defined(__has_declspec_attribute)
#if __has_declspec_attribute(property)
#define SLMC_AMP_SWIZZLE_PROPERTIES 1
#endif
#endif
#if defined(SLMC_AMP_SWIZZLE_PROPERTIES)
#pragma push_macro("__declspec")
#undef __declspec // the check pass's prelude makes it an annotation
#define SLMC_SW_PROPERTY(name, n)                                              \
  __declspec(property(get = get_##name, put = set_##name)) short_vec<T, n> name;
#else
#define SLMC_SW_PROPERTY(name, n)
#endif
#define SLMC_SW2(a, b)                                                         \
  SLMC_HD short_vec<T, 2> get_##a##b() const { return short_vec<T, 2>(this->a, this->b); } \
  SLMC_HD void set_##a##b(short_vec<T, 2> v) { this->a = v.x; this->b = v.y; } \
  SLMC_SW_PROPERTY(a##b, 2)
#define SLMC_SW3(a, b, c)                                                      \
  SLMC_HD short_vec<T, 3> get_##a##b##c() const {                             \
    return short_vec<T, 3>(this->a, this->b, this->c);                         \
  }                                                                            \
  SLMC_HD void set_##a##b##c(short_vec<T, 3> v) {                       \
    this->a = v.x; this->b = v.y; this->c = v.z;                               \
  }                                                                            \
  SLMC_SW_PROPERTY(a##b##c, 3)
#define SLMC_SW4(a, b, c, d)                                                   \
  SLMC_HD short_vec<T, 4> get_##a##b##c##d() const {                          \
    return short_vec<T, 4>(this->a, this->b, this->c, this->d);                \
  }                                                                            \
  SLMC_HD void set_##a##b##c##d(short_vec<T, 4> v) {                    \
    this->a = v.x; this->b = v.y; this->c = v.z; this->d = v.w;                \
  }                                                                            \
  SLMC_SW_PROPERTY(a##b##c##d, 4)
// Every ordered choice of distinct components.
#define SLMC_SW3_ALL(a, b, c, d)                                               \
  SLMC_SW3(a, b, c) SLMC_SW3(a, b, d) SLMC_SW3(a, c, b) SLMC_SW3(a, c, d)      \
  SLMC_SW3(a, d, b) SLMC_SW3(a, d, c)
#define SLMC_SW4_ALL(a, b, c, d)                                               \
  SLMC_SW4(a, b, c, d) SLMC_SW4(a, b, d, c) SLMC_SW4(a, c, b, d)               \
  SLMC_SW4(a, c, d, b) SLMC_SW4(a, d, b, c) SLMC_SW4(a, d, c, b)
#define SLMC_SWIZZLES(x, y, z, w)                                              \
  SLMC_SW2(x, y) SLMC_SW2(x, z) SLMC_SW2(x, w) SLMC_SW2(y, x) SLMC_SW2(y, z)   \
  SLMC_SW2(y, w) SLMC_SW2(z, x) SLMC_SW2(z, y) SLMC_SW2(z, w) SLMC_SW2(w, x)   \
  SLMC_SW2(w, y) SLMC_SW2(w, z)                                                \
  SLMC_SW3_ALL(x, y, z, w) SLMC_SW3_ALL(y, x, z, w) SLMC_SW3_ALL(z, x, y, w)   \
  SLMC_SW3_ALL(w, x, y, z)                                                     \
  SLMC_SW4_ALL(x, y, z, w) SLMC_SW4_ALL(y, x, z, w) SLMC_SW4_ALL(z, x, y, w)   \
  SLMC_SW4_ALL(w, x, y, z)
#define SLMC_COMPONENT(c)                                                      \
  SLMC_HD T get_##c() const { return this->c; }                               \
  SLMC_HD void set_##c(T v) { this->c = v; }                                   \
  SLMC_HD T &ref_##c() { return this->c; }

template <class T, int N> class short_vec : public vec_storage<T, N> {
  static_assert(N >= 2 && N <= 4, "short vectors have 2 to 4 components");
  typedef vec_storage<T, N> base;
  SLMC_HD T &at(int i) { return this->c(i); }
  SLMC_HD const T &at(int i) const { return const_cast<short_vec *>(this)->at(i); }
  static const bool integral = is_integral_component<T>::value;

public:
  typedef T value_type;
  static const int size = N;

  /// All components zero.
  SLMC_HD short_vec() {}
  /// Every component v. Not explicit, as MSVC's (float_4(float) and the
  /// others): `v * 2.0f` and `float_4 z = 0.0f;` convert the scalar.
  SLMC_HD short_vec(T v) { for (int i = 0; i < N; ++i) at(i) = v; }
  template <int M = N, typename std::enable_if<M == 2, int>::type = 0>
  SLMC_HD short_vec(T v0, T v1) { this->x = v0; this->y = v1; }
  template <int M = N, typename std::enable_if<M == 3, int>::type = 0>
  SLMC_HD short_vec(T v0, T v1, T v2) { at(0) = v0; at(1) = v1; at(2) = v2; }
  template <int M = N, typename std::enable_if<M == 4, int>::type = 0>
  SLMC_HD short_vec(T v0, T v1, T v2, T v3) {
    at(0) = v0; at(1) = v1; at(2) = v2; at(3) = v3;
  }
  /// From a vector of another component type, converting each component.
  template <class U, typename std::enable_if<!std::is_same<U, T>::value, int>::type = 0>
  SLMC_HD explicit short_vec(const short_vec<U, N> &o) {
    for (int i = 0; i < N; ++i) at(i) = convert(o[i]);
  }

  SLMC_HD T &operator[](int i) { return at(i); }
  SLMC_HD const T &operator[](int i) const { return at(i); }

  SLMC_COMPONENT(x) SLMC_COMPONENT(y) SLMC_COMPONENT(z) SLMC_COMPONENT(w)
  SLMC_COMPONENT(r) SLMC_COMPONENT(g) SLMC_COMPONENT(b) SLMC_COMPONENT(a)
  SLMC_SWIZZLES(x, y, z, w)
  SLMC_SWIZZLES(r, g, b, a)

  SLMC_HD short_vec operator-() const {
    constexpr bool ok = !std::is_same<T, unsigned int>::value && !std::is_same<T, unorm>::value;
    static_assert(ok, "no unary minus on unsigned or unorm vectors");
    short_vec r;
    if constexpr (ok)
      for (int i = 0; i < N; ++i) r[i] = -at(i);
    return r;
  }
  SLMC_HD short_vec operator~() const {
    static_assert(integral, "operator~ needs int or uint components");
    short_vec r;
    if constexpr (integral)
      for (int i = 0; i < N; ++i) r[i] = ~at(i);
    return r;
  }
  SLMC_HD short_vec &operator++() { for (int i = 0; i < N; ++i) ++at(i); return *this; }
  SLMC_HD short_vec operator++(int) { short_vec r = *this; ++*this; return r; }
  SLMC_HD short_vec &operator--() { for (int i = 0; i < N; ++i) --at(i); return *this; }
  SLMC_HD short_vec operator--(int) { short_vec r = *this; --*this; return r; }

#define SLMC_AMP_VEC_ASSIGN(op, ok, check)                                         \
  SLMC_HD short_vec &operator op##=(const short_vec &o) {                      \
    check;                                                                     \
    if constexpr (ok)                                                          \
      for (int i = 0; i < N; ++i) at(i) op##= o[i];                            \
    return *this;                                                              \
  }
  SLMC_AMP_VEC_ASSIGN(+, true, )
  SLMC_AMP_VEC_ASSIGN(-, true, )
  SLMC_AMP_VEC_ASSIGN(*, true, )
  SLMC_AMP_VEC_ASSIGN(/, true, )
  SLMC_AMP_VEC_ASSIGN(%, integral, static_assert(integral, "operator% needs int or uint components"))
  SLMC_AMP_VEC_ASSIGN(&, integral, static_assert(integral, "operator& needs int or uint components"))
  SLMC_AMP_VEC_ASSIGN(|, integral, static_assert(integral, "operator| needs int or uint components"))
  SLMC_AMP_VEC_ASSIGN(^, integral, static_assert(integral, "operator^ needs int or uint components"))
  SLMC_AMP_VEC_ASSIGN(<<, integral, static_assert(integral, "operator<< needs int or uint components"))
  SLMC_AMP_VEC_ASSIGN(>>, integral, static_assert(integral, "operator>> needs int or uint components"))
#undef SLMC_AMP_VEC_ASSIGN

  // Binary operators as non-template friends (MSVC's are), so that a scalar
  // operand converts: `v * s`, `s * v`, `v == 0`.
#define SLMC_AMP_VEC_BINARY(op)                                                \
  friend SLMC_HD short_vec operator op(const short_vec &a, const short_vec &b) { \
    short_vec r = a;                                                           \
    r op## = b;                                                                \
    return r;                                                                  \
  }
  SLMC_AMP_VEC_BINARY(+)
  SLMC_AMP_VEC_BINARY(-)
  SLMC_AMP_VEC_BINARY(*)
  SLMC_AMP_VEC_BINARY(/)
  SLMC_AMP_VEC_BINARY(%)
  SLMC_AMP_VEC_BINARY(&)
  SLMC_AMP_VEC_BINARY(|)
  SLMC_AMP_VEC_BINARY(^)
  SLMC_AMP_VEC_BINARY(<<)
  SLMC_AMP_VEC_BINARY(>>)
#undef SLMC_AMP_VEC_BINARY
  /// Equal when every component is.
  friend SLMC_HD bool operator==(const short_vec &a, const short_vec &b) {
    for (int i = 0; i < N; ++i)
      if (!(a[i] == b[i])) return false;
    return true;
  }
  friend SLMC_HD bool operator!=(const short_vec &a, const short_vec &b) { return !(a == b); }

private:
  template <class U> SLMC_HD static T convert(const U &u) { return T(u); }
  SLMC_HD static T convert(const norm &u) { return T(float(u)); }
  SLMC_HD static T convert(const unorm &u) { return T(float(u)); }
};
#undef SLMC_SW_PROPERTY
#if defined(SLMC_AMP_SWIZZLE_PROPERTIES)
#pragma pop_macro("__declspec")
#endif
#undef SLMC_SW2
#undef SLMC_SW3
#undef SLMC_SW4
#undef SLMC_SW3_ALL
#undef SLMC_SW4_ALL
#undef SLMC_SWIZZLES
#undef SLMC_COMPONENT

} // namespace detail

/// HLSL's names for the short vectors.
namespace direct3d {
typedef int_2 int2;
typedef int_3 int3;
typedef int_4 int4;
typedef uint_2 uint2;
typedef uint_3 uint3;
typedef uint_4 uint4;
typedef float_2 float2;
typedef float_3 float3;
typedef float_4 float4;
typedef double_2 double2;
typedef double_3 double3;
typedef double_4 double4;
typedef unorm_2 unorm2;
typedef unorm_3 unorm3;
typedef unorm_4 unorm4;
typedef norm_2 norm2;
typedef norm_3 norm3;
typedef norm_4 norm4;
} // namespace direct3d

} // namespace graphics
} // namespace Concurrency

#endif // SLMC_AMP_SHORT_VECTORS_H
