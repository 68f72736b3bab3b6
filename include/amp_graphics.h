//===- amp_graphics.h - C++ AMP textures for slmc --------------------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Concurrency::graphics textures on every backend, as plain buffers:
//
//   texture<T, N>            an array<T, N> of texels (N = 1 to 3), one
//                            element per texel, 32 bits per scalar (64 for
//                            double); get/set/operator[] in kernels, copy to
//                            and from host memory, iterators and textures.
//   texture_view<T, N>       a read-write view of a texture (captured by
//                            value, like array_view).
//   texture_view<const T, N> a read-only view that also samples: sample()
//                            with a sampler (point or linear filtering; wrap,
//                            mirror, clamp or border addressing), computed in
//                            software the way Direct3D defines it, with the
//                            single mipmap level slmc textures have.
//   writeonly_texture_view   (deprecated in C++ AMP 1.2) set() only.
//   sampler                  filter mode, address mode, border colour.
//
// What a plain buffer cannot honour fails clearly instead: packed formats
// (8 or 16 bits per scalar element), more than one mipmap level and staging
// textures throw unsupported_feature when constructed; gather_*() and the
// Direct3D interop (graphics::direct3d::make_texture, get_texture, ...) are
// compile-time errors.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_AMP_GRAPHICS_H
#define SLMC_AMP_GRAPHICS_H

#include <amp.h>
#include <amp_short_vectors.h>

namespace Concurrency {
namespace graphics {

enum address_mode {
  address_wrap = 0,
  address_mirror = 1,
  address_clamp = 2,
  address_border = 3,
  address_unknown = 4,
};
enum filter_mode { filter_point = 0, filter_linear = 1, filter_unknown = 2 };

/// How texture_view<const T, N>::sample reads: a plain value, captured by
/// value into kernels.
class sampler {
public:
  SLMC_HD sampler() : sampler(filter_linear, address_clamp, float_4()) {}
  SLMC_HD explicit sampler(filter_mode f) : sampler(f, address_clamp, float_4()) {}
  SLMC_HD explicit sampler(address_mode a, float_4 border = float_4())
      : sampler(filter_linear, a, border) {}
  SLMC_HD sampler(filter_mode f, address_mode a, float_4 border = float_4())
      : filter_mode_(f), address_mode_(a), border_(border) {}

  SLMC_HD filter_mode get_filter_mode() const { return filter_mode_; }
  SLMC_HD address_mode get_address_mode() const { return address_mode_; }
  SLMC_HD float_4 get_border_color() const { return border_; }

private:
  filter_mode filter_mode_;
  address_mode address_mode_;
  float_4 border_;
};

namespace detail {
template <class T> struct texel_traits {
  static const bool ok = false;
};
#define SLMC_AMP_TEXEL(T, scalar, n, is_float)                                 \
  template <> struct texel_traits<T> {                                         \
    static const bool ok = true;                                               \
    typedef scalar scalar_type;                                                \
    static const int components = n;                                           \
    static const bool floating = is_float;                                     \
  };
#define SLMC_AMP_TEXELS(S, V, is_float)                                        \
  SLMC_AMP_TEXEL(S, S, 1, is_float) SLMC_AMP_TEXEL(V##_2, S, 2, is_float)      \
  SLMC_AMP_TEXEL(V##_3, S, 3, is_float) SLMC_AMP_TEXEL(V##_4, S, 4, is_float)
SLMC_AMP_TEXELS(int, int, false)
SLMC_AMP_TEXELS(unsigned int, uint, false)
SLMC_AMP_TEXELS(float, float, true)
SLMC_AMP_TEXELS(double, double, false)
SLMC_AMP_TEXELS(norm, norm, true)
SLMC_AMP_TEXELS(unorm, unorm, true)
#undef SLMC_AMP_TEXELS
#undef SLMC_AMP_TEXEL

/// Component i of a texel, as float (for filtering).
template <class T> SLMC_HD float component(const T &t, int i) {
  if constexpr (texel_traits<T>::components == 1)
    return float(t);
  else
    return float(t[i]);
}
/// A texel of type T from float components (norm and unorm clamp).
template <class T> SLMC_HD T texel_from(const float *c) {
  typedef typename texel_traits<T>::scalar_type S;
  if constexpr (texel_traits<T>::components == 1) {
    return T(c[0]);
  } else {
    T r;
    for (int i = 0; i < texel_traits<T>::components; ++i) r[i] = S(c[i]);
    return r;
  }
}

/// Where a coordinate (in texels, already scaled) lands under an address
/// mode; -1 means the border colour.
SLMC_HD inline int address(int i, int size, address_mode m) {
  if (i >= 0 && i < size) return i;
  switch (m) {
  case address_wrap: {
    int r = i % size;
    return r < 0 ? r + size : r;
  }
  case address_mirror: {
    int period = 2 * size;
    int r = i % period;
    if (r < 0) r += period;
    return r < size ? r : period - 1 - r;
  }
  case address_clamp:
    return i < 0 ? 0 : size - 1;
  default:
    return -1;
  }
}

inline void check_texture_format(unsigned int bits, unsigned int natural,
                                  unsigned int mipmap_levels) {
  if (bits != 0 && bits != natural)
    throw unsupported_feature(
        "texture: packed formats (8 or 16 bits per scalar element) are not "
        "supported; slmc stores textures as plain buffers of 32-bit (double: "
        "64-bit) scalars");
  if (mipmap_levels != 1)
    throw unsupported_feature("texture: slmc textures have one mipmap level");
}
} // namespace detail

template <class T, int N> class texture_view;
template <class T, int N> class writeonly_texture_view;

/// A texture: an array of texels on the accelerator, which kernels hold by
/// reference. It is an array<T, N> (privately), so it moves to devices as
/// arrays do.
template <class T, int N> class texture : private array<T, N> {
  static_assert(N >= 1 && N <= 3, "textures have rank 1, 2 or 3");
  static_assert(detail::texel_traits<T>::ok,
                "texture elements are int, uint, float, double, norm or unorm, "
                "or short vectors of them");
  typedef array<T, N> base;
  template <class, int> friend class texture_view;
  template <class, int> friend class writeonly_texture_view;

public:
  static const int rank = N;
  typedef T value_type;
  typedef typename detail::texel_traits<T>::scalar_type scalar_type;
  using base::extent;

  explicit texture(const Concurrency::extent<N> &e) : base(e) {}
  explicit texture(int e0) : base(e0) {}
  texture(int e0, int e1) : base(e0, e1) {}
  texture(int e0, int e1, int e2) : base(e0, e1, e2) {}
  texture(const Concurrency::extent<N> &e, const accelerator_view &av) : base(e, av) {}
  texture(int e0, const accelerator_view &av) : base(e0, av) {}
  texture(int e0, int e1, const accelerator_view &av) : base(e0, e1, av) {}
  texture(int e0, int e1, int e2, const accelerator_view &av) : base(e0, e1, e2, av) {}
  /// With a format and mipmap levels: only the natural one, one level.
  texture(const Concurrency::extent<N> &e, unsigned int bits_per_scalar_element,
          unsigned int mipmap_levels = 1)
      : base(e) {
    detail::check_texture_format(bits_per_scalar_element, natural_bits, mipmap_levels);
  }
  texture(const Concurrency::extent<N> &e, unsigned int bits_per_scalar_element,
          const accelerator_view &av)
      : base(e, av) {
    detail::check_texture_format(bits_per_scalar_element, natural_bits, 1);
  }
  texture(const Concurrency::extent<N> &e, unsigned int bits_per_scalar_element,
          unsigned int mipmap_levels, const accelerator_view &av)
      : base(e, av) {
    detail::check_texture_format(bits_per_scalar_element, natural_bits, mipmap_levels);
  }
  /// From host data: [first, last) must hold extent.size() texels.
  template <class It, class = typename std::enable_if<
                          Concurrency::detail::is_iterator<It>::value>::type>
  texture(const Concurrency::extent<N> &e, It first, It last) : base(e, first, last) {}
  template <class It, class = typename std::enable_if<
                          Concurrency::detail::is_iterator<It>::value>::type>
  texture(int e0, It first, It last) : base(e0, first, last) {}
  template <class It, class = typename std::enable_if<
                          Concurrency::detail::is_iterator<It>::value>::type>
  texture(int e0, int e1, It first, It last) : base(e0, e1, first, last) {}
  template <class It, class = typename std::enable_if<
                          Concurrency::detail::is_iterator<It>::value>::type>
  texture(int e0, int e1, int e2, It first, It last) : base(e0, e1, e2, first, last) {}
  template <class It, class = typename std::enable_if<
                          Concurrency::detail::is_iterator<It>::value>::type>
  texture(const Concurrency::extent<N> &e, It first, It last, const accelerator_view &av)
      : base(e, first, last, av) {}
  /// From raw bytes in the texture's own layout (row-major texels).
  texture(const Concurrency::extent<N> &e, unsigned int bits_per_scalar_element,
          const void *source, unsigned int source_byte_size)
      : base(e) {
    detail::check_texture_format(bits_per_scalar_element, natural_bits, 1);
    from_bytes(source, source_byte_size);
  }
  texture(const Concurrency::extent<N> &e, unsigned int bits_per_scalar_element,
          const void *source, unsigned int source_byte_size, const accelerator_view &av)
      : base(e, av) {
    detail::check_texture_format(bits_per_scalar_element, natural_bits, 1);
    from_bytes(source, source_byte_size);
  }
  /// Staging textures (with an associated view and row pitches) keep data
  /// in a layout slmc does not model.
  texture(const Concurrency::extent<N> &, unsigned int, const accelerator_view &,
          const accelerator_view &) = delete("slmc has no staging textures: use a texture "
                                             "and copy() to and from host memory");

  texture(const texture &o) : base(static_cast<const base &>(o)) {}
  texture(texture &&o) noexcept : base(static_cast<base &&>(o)) {}
  texture &operator=(const texture &o) {
    base::operator=(static_cast<const base &>(o));
    return *this;
  }
  texture &operator=(texture &&o) noexcept {
    base::operator=(static_cast<base &&>(o));
    return *this;
  }

  SLMC_HD Concurrency::extent<N> get_extent() const { return extent; }
  accelerator_view get_accelerator_view() const { return base::get_accelerator_view(); }
  accelerator_view get_associated_accelerator_view() const {
    return base::get_associated_accelerator_view();
  }
  unsigned int get_bits_per_scalar_element() const { return natural_bits; }
  unsigned int get_mipmap_levels() const { return 1; }
  unsigned int get_data_length() const { return unsigned(extent.size() * sizeof(T)); }

  SLMC_HD const value_type operator[](const index<N> &i) const { return base::operator[](i); }
  SLMC_HD const value_type operator[](int i0) const {
    static_assert(N == 1, "texture[int] needs rank 1");
    return base::operator()(index<N>(i0));
  }
  SLMC_HD const value_type operator()(const index<N> &i) const { return base::operator[](i); }
  SLMC_HD const value_type operator()(int i0) const { return (*this)[i0]; }
  SLMC_HD const value_type operator()(int i0, int i1) const {
    static_assert(N == 2, "texture(i0, i1) needs rank 2");
    return base::operator[](index<2>(i0, i1));
  }
  SLMC_HD const value_type operator()(int i0, int i1, int i2) const {
    static_assert(N == 3, "texture(i0, i1, i2) needs rank 3");
    return base::operator[](index<3>(i0, i1, i2));
  }
  SLMC_HD const value_type get(const index<N> &i) const { return base::operator[](i); }
  SLMC_HD void set(const index<N> &i, const value_type &v) { base::operator[](i) = v; }

  void copy_to(texture &dest) const {
    Concurrency::detail::check_same_extent(extent == dest.extent);
    base::copy_to(static_cast<base &>(dest));
  }
  inline void copy_to(const writeonly_texture_view<T, N> &dest) const;

  /// The array behind the texture (for device_ref and the views).
  base &as_array() { return *this; }
  const base &as_array() const { return *this; }

private:
  static const unsigned int natural_bits =
      unsigned(sizeof(typename detail::texel_traits<T>::scalar_type) * 8);
  void from_bytes(const void *source, unsigned int size) {
    if (size < get_data_length())
      throw runtime_exception("texture: fewer source bytes than the texture holds",
                              Concurrency::detail::E_INVALIDARG_CODE);
    const T *s = static_cast<const T *>(source);
    Concurrency::copy(s, s + extent.size(), as_array());
  }
};

/// A read-write view of a texture, captured by value into kernels.
template <class T, int N> class texture_view {
  static_assert(detail::texel_traits<T>::ok, "texture_view of a texel type");
  template <class, int> friend class texture_view;

public:
  static const int rank = N;
  typedef T value_type;
  typedef typename detail::texel_traits<T>::scalar_type scalar_type;

  texture_view(texture<T, N> &t) : view_(t.as_array()) {}
  texture_view(texture<T, N> &t, unsigned int mipmap_level) : view_(t.as_array()) {
    if (mipmap_level != 0)
      throw unsupported_feature("texture_view: slmc textures have one mipmap level");
  }

  SLMC_HD Concurrency::extent<N> get_extent() const { return view_.extent; }
  unsigned int get_bits_per_scalar_element() const {
    return unsigned(sizeof(scalar_type) * 8);
  }
  unsigned int get_mipmap_levels() const { return 1; }

  SLMC_HD const value_type operator[](const index<N> &i) const { return view_[i]; }
  SLMC_HD const value_type operator()(const index<N> &i) const { return view_[i]; }
  SLMC_HD const value_type get(const index<N> &i) const { return view_[i]; }
  SLMC_HD void set(const index<N> &i, const value_type &v) const { view_[i] = v; }

private:
  array_view<T, N> view_;
};

/// A read-only view of a texture: reads and samples.
template <class T, int N> class texture_view<const T, N> {
  static_assert(detail::texel_traits<T>::ok, "texture_view of a texel type");
  template <class, int> friend class texture_view;
  typedef detail::texel_traits<T> traits;

public:
  static const int rank = N;
  typedef T value_type;
  typedef typename traits::scalar_type scalar_type;
  typedef typename short_vector<float, N>::type coordinates_type;
  typedef typename short_vector<scalar_type, 4>::type gather_return_type;

  texture_view(const texture<T, N> &t) : view_(t.as_array()) {}
  texture_view(const texture<T, N> &t, unsigned int most_detailed_mip,
               unsigned int mip_levels)
      : view_(t.as_array()) {
    if (most_detailed_mip != 0 || mip_levels != 1)
      throw unsupported_feature("texture_view: slmc textures have one mipmap level");
  }
  texture_view(const texture_view<T, N> &o) : view_(o.view_) {}

  SLMC_HD Concurrency::extent<N> get_extent() const { return view_.extent; }
  unsigned int get_mipmap_levels() const { return 1; }

  SLMC_HD const value_type operator[](const index<N> &i) const { return view_[i]; }
  SLMC_HD const value_type operator()(const index<N> &i) const { return view_[i]; }
  SLMC_HD const value_type get(const index<N> &i, unsigned int mip_level = 0) const {
    return view_[i];
  }

  /// Samples at normalized coordinates ([0, 1) covers the texture) as
  /// Direct3D does: point filtering takes the texel the coordinate falls in,
  /// linear filtering interpolates the 2^N texels around it (texel centres
  /// at (i + 0.5) / size); coordinates outside use the address mode. slmc
  /// textures have one mipmap level, which every level of detail selects.
  SLMC_HD value_type sample(const sampler &s, const coordinates_type &coord,
                            float level_of_detail = 0.0f) const {
    static_assert(traits::floating,
                  "sample() needs float, norm or unorm texels (as in C++ AMP)");
    return sample_impl(s.get_filter_mode(), s.get_address_mode(), s.get_border_color(),
                       coord);
  }
  template <filter_mode F = filter_linear, address_mode A = address_clamp>
  SLMC_HD value_type sample(const coordinates_type &coord,
                            float level_of_detail = 0.0f) const {
    static_assert(traits::floating,
                  "sample() needs float, norm or unorm texels (as in C++ AMP)");
    static_assert(A != address_border, "address_border needs a sampler with a border colour");
    return sample_impl(F, A, float_4(), coord);
  }

  template <class... A>
  gather_return_type gather_red(const A &...) const = delete(
      "texture_view::gather_red/green/blue/alpha are not implemented by slmc");
  template <class... A>
  gather_return_type gather_green(const A &...) const = delete(
      "texture_view::gather_red/green/blue/alpha are not implemented by slmc");
  template <class... A>
  gather_return_type gather_blue(const A &...) const = delete(
      "texture_view::gather_red/green/blue/alpha are not implemented by slmc");
  template <class... A>
  gather_return_type gather_alpha(const A &...) const = delete(
      "texture_view::gather_red/green/blue/alpha are not implemented by slmc");

private:
  SLMC_HD float coord_of(const coordinates_type &c, int d) const {
    if constexpr (N == 1)
      return c;
    else
      return c[d];
  }
  /// Texel at integer texel coordinates t (device order: t[0] is the
  /// fastest dimension, u), into out[]; border colour outside.
  SLMC_HD void fetch(const int *t, address_mode am, const float_4 &border,
                     float *out) const {
    index<N> idx;
    for (int d = 0; d < N; ++d) {
      const int size = view_.extent[N - 1 - d];
      const int a = detail::address(t[d], size, am);
      if (a < 0) {
        for (int c = 0; c < traits::components; ++c) out[c] = border[c];
        return;
      }
      idx[N - 1 - d] = a;
    }
    const T v = view_[idx];
    for (int c = 0; c < traits::components; ++c) out[c] = detail::component(v, c);
  }
  SLMC_HD value_type sample_impl(filter_mode fm, address_mode am, const float_4 &border,
                                 const coordinates_type &coord) const {
    // Coordinate d (u, v, w) addresses AMP dimension N - 1 - d.
    float acc[4] = {0, 0, 0, 0};
    if (fm == filter_point) {
      int t[3];
      for (int d = 0; d < N; ++d)
        t[d] = int(__builtin_floorf(coord_of(coord, d) * float(view_.extent[N - 1 - d])));
      fetch(t, am, border, acc);
      return detail::texel_from<T>(acc);
    }
    int base[3];
    float frac[3];
    for (int d = 0; d < N; ++d) {
      const float x = coord_of(coord, d) * float(view_.extent[N - 1 - d]) - 0.5f;
      const float f = __builtin_floorf(x);
      base[d] = int(f);
      frac[d] = x - f;
    }
    for (int corner = 0; corner < (1 << N); ++corner) {
      int t[3];
      float w = 1.0f;
      for (int d = 0; d < N; ++d) {
        const int hi = (corner >> d) & 1;
        t[d] = base[d] + hi;
        w *= hi ? frac[d] : 1.0f - frac[d];
      }
      float v[4];
      fetch(t, am, border, v);
      for (int c = 0; c < traits::components; ++c) acc[c] += w * v[c];
    }
    return detail::texel_from<T>(acc);
  }

  array_view<const T, N> view_;
};

/// Deprecated in C++ AMP 1.2: a view that only writes.
template <class T, int N> class writeonly_texture_view {
public:
  static const int rank = N;
  typedef T value_type;
  writeonly_texture_view(texture<T, N> &t) : view_(t.as_array()) {}
  SLMC_HD Concurrency::extent<N> get_extent() const { return view_.extent; }
  unsigned int get_bits_per_scalar_element() const {
    return unsigned(sizeof(typename detail::texel_traits<T>::scalar_type) * 8);
  }
  SLMC_HD void set(const index<N> &i, const value_type &v) const { view_[i] = v; }

private:
  template <class, int> friend class texture;
  array_view<T, N> view_;
};

template <class T, int N>
void texture<T, N>::copy_to(const writeonly_texture_view<T, N> &dest) const {
  Concurrency::detail::check_same_extent(extent == dest.get_extent());
  base::copy_to(dest.view_);
}

// ---- copy ---------------------------------------------------------------------
template <class T, int N> void copy(const texture<T, N> &src, texture<T, N> &dest) {
  src.copy_to(dest);
}
/// To host memory of at least get_data_length() bytes.
template <class T, int N>
void copy(const texture<T, N> &src, void *dst, unsigned int dst_byte_size) {
  if (dst_byte_size < src.get_data_length())
    throw runtime_exception("copy: the destination is smaller than the texture",
                            Concurrency::detail::E_INVALIDARG_CODE);
  Concurrency::copy(src.as_array(), static_cast<T *>(dst));
}
/// From host memory of at least get_data_length() bytes.
template <class T, int N>
void copy(const void *src, unsigned int src_byte_size, texture<T, N> &dst) {
  if (src_byte_size < dst.get_data_length())
    throw runtime_exception("copy: the source is smaller than the texture",
                            Concurrency::detail::E_INVALIDARG_CODE);
  const T *s = static_cast<const T *>(src);
  Concurrency::copy(s, s + dst.extent.size(), dst.as_array());
}
template <class It, class T, int N,
          class = typename std::enable_if<Concurrency::detail::is_iterator<It>::value>::type>
void copy(It first, It last, texture<T, N> &dst) {
  Concurrency::copy(first, last, dst.as_array());
}
template <class Out, class T, int N,
          class = typename std::enable_if<Concurrency::detail::is_iterator<Out>::value>::type>
void copy(const texture<T, N> &src, Out dst) {
  Concurrency::copy(src.as_array(), dst);
}
/// Copies finish before they return (as Concurrency::copy_async).
template <class... Args>
auto copy_async(Args &&...args)
    -> decltype(graphics::copy(std::forward<Args>(args)...), completion_future()) {
  graphics::copy(std::forward<Args>(args)...);
  return completion_future::ready();
}

namespace direct3d {
template <class T, int N>
texture<T, N> make_texture(const accelerator_view &av, IUnknown *d3d_texture)
    SLMC_AMP_NO_D3D("graphics::direct3d::make_texture");
template <class T, int N>
IUnknown *get_texture(const texture<T, N> &t) SLMC_AMP_NO_D3D("graphics::direct3d::get_texture");
inline sampler make_sampler(IUnknown *d3d_sampler)
    SLMC_AMP_NO_D3D("graphics::direct3d::make_sampler");
inline IUnknown *get_sampler(const accelerator_view &av, const sampler &s)
    SLMC_AMP_NO_D3D("graphics::direct3d::get_sampler");
} // namespace direct3d

} // namespace graphics

namespace detail {
/// Lambdas capture textures by reference, as arrays: slmc's lowering
/// rewrites the capture into a pointer to the texture's device-visible twin
/// (the twin of its array, which is all a texture holds).
template <class T, int N>
graphics::texture<T, N> *device_ref(graphics::texture<T, N> &t) {
  return reinterpret_cast<graphics::texture<T, N> *>(device_ref(t.as_array()));
}
template <class T, int N>
const graphics::texture<T, N> *device_ref(const graphics::texture<T, N> &t) {
  return reinterpret_cast<const graphics::texture<T, N> *>(device_ref(t.as_array()));
}
} // namespace detail
} // namespace Concurrency

#endif // SLMC_AMP_GRAPHICS_H
