//===- cm/cm_memory.h - CM surface reads, writes and atomics --------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Buffers are SurfaceIndex kernel arguments (cm/cm_surface.h). Every access
// is checked element by element against the buffer's size: reads outside
// it give 0 and writes there are dropped, as on the hardware; a negative
// offset is outside too.
//
//   read(s, offset, v)            OWord block read, `offset` in bytes; the
//   write(s, offset, v)           offset is aligned down to 16 bytes (4 for
//                                 read(DWALIGNED(s), ...)); at most 256 bytes
//   read(s, g, offsets, v)        scattered read: element i from element
//   write(s, g, offsets, v)       g + offsets[i] (units of v's elements)
//   write(s, i, x)                one scalar at element i
//   write_atomic<OP>(s, offsets[, src0[, src1]][, ret])
//                                 atomic update of 4-byte elements at element
//                                 offsets; ret receives the old values
//   write_typed_atomic<OP[, T, N]>([mask,] s, ret, [src0, [src1,]] u[, v])
//                                 atomic update of 4-byte pixels (u, v) of
//                                 a 2-D surface (dwords u of a buffer)
//
// 2-D surfaces (CmSurface2D, CmSurface2DUP) have media block accesses:
//
//   read(s, x, y, m)              the block of m's rows x columns elements
//   write(s, x, y, m)             whose top-left byte is byte x of row y; m
//                                 a matrix or vector (one row), or a
//                                 reference to one. Reads outside the
//                                 surface give the nearest edge pixel (x
//                                 and y clamped to the surface, pixel by
//                                 pixel); writes outside it are dropped.
//                                 A block is at most 64 bytes wide, 64 rows
//                                 high and 256 bytes once its width is
//                                 rounded up to a power of two (at least 4).
//   read(TOP_FIELD(s), x, y, m)   the same on the surface's even rows
//   read(BOTTOM_FIELD(s), ...)    (odd rows), as a surface of half height
//   read_plane(s, GENX_SURFACE_UV_PLANE, x, y, m)
//                                 NV12's UV plane (the Y plane is plane 0,
//                                 and what plain read/write access)
//
// MODIFIED(s) is accepted by both kinds of reads: every read sees earlier
// writes of the same kernel. Media block accesses on a buffer, or on a plane
// the surface does not have, read zeros and drop writes.
//
// Atomic operations (also cm_slm_atomic): ADD, SUB, INC (+1), DEC (-1),
// PREDEC (-1, returning the new value), MIN/MAX (unsigned), MINSINT/MAXSINT
// (signed), XCHG, CMPXCHG (old == src0 ? src1 : old), AND, OR, XOR, and on
// float elements FMAX, FMIN, FCMPWR (as CMPXCHG), FADD, FSUB.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_CM_MEMORY_H
#define SLMC_CM_MEMORY_H

#include "cm/cm_surface.h"
#include "cm/cm_vector.h"

#include <tuple>

enum CmAtomicOpType {
  ATOMIC_ADD = 0x0,
  ATOMIC_SUB = 0x1,
  ATOMIC_INC = 0x2,
  ATOMIC_DEC = 0x3,
  ATOMIC_MIN = 0x4,
  ATOMIC_MAX = 0x5,
  ATOMIC_XCHG = 0x6,
  ATOMIC_CMPXCHG = 0x7,
  ATOMIC_AND = 0x8,
  ATOMIC_OR = 0x9,
  ATOMIC_XOR = 0xa,
  ATOMIC_MINSINT = 0xb,
  ATOMIC_MAXSINT = 0xc,
  ATOMIC_FMAX = 0x10,
  ATOMIC_FMIN = 0x11,
  ATOMIC_FCMPWR = 0x12,
  ATOMIC_FADD = 0x13,
  ATOMIC_FSUB = 0x14,
  ATOMIC_PREDEC = 0xff
};

enum CmBufferAttrib {
  GENX_NONE = 0,
  GENX_DWALIGNED,
  GENX_MODIFIED,
  GENX_CONSTANT,
  GENX_MODIFIED_DWALIGNED,
  GENX_CONSTANT_DWALIGNED
};

// Memory scopes of clang's __scoped_atomic builtins (device passes and the
// host with clang); other host compilers ignore scopes.
#ifndef __MEMORY_SCOPE_DEVICE
#define __MEMORY_SCOPE_DEVICE 1
#endif
#ifndef __MEMORY_SCOPE_WRKGRP
#define __MEMORY_SCOPE_WRKGRP 2
#endif

namespace slmc {
namespace cm {
namespace detail {

/// A surface with the alignment its block accesses assume.
struct aligned_surface {
  SurfaceIndex surface;
  int alignment;
};

/// Largest block read or write, in bytes.
constexpr int kMaxBlockBytes = 256;

/// Memory spaces of the device passes: buffers are global memory (SPIR-V
/// CrossWorkgroup, PTX .global), SLM is group-local (Workgroup, .shared).
/// Accessing them through pointers of their own space spares IGC the
/// run-time checks of generic pointers; the host ignores spaces.
enum : int { kGlobal = 1, kLocal = 3 };

#if defined(SLMC_DEVICE_PASS)
template <class T, int Space> struct space_ptr {
  typedef __attribute__((address_space(Space))) typename alias<T>::type *type;
  typedef __attribute__((address_space(Space))) unsigned char *bytes;
};
#endif

/// The T at byte `off` of `base` (in bounds): one naturally aligned access
/// when `off` is a multiple of T's size (the base is always aligned), else
/// byte by byte.
template <class T, int Space>
SLMC_CM_FN inline T raw_load(const void *base, uint32_t off) {
#if defined(SLMC_DEVICE_PASS)
  typedef typename space_ptr<T, Space>::bytes P;
  P p = (P)base + off;
  if ((off & (sizeof(T) - 1)) == 0)
    return *(typename space_ptr<T, Space>::type)p;
  T v;
  unsigned char *d = reinterpret_cast<unsigned char *>(&v);
  SLMC_CM_ELEMENTS
  for (unsigned k = 0; k < sizeof(T); ++k)
    d[k] = p[k];
  return v;
#else
  T v;
  __builtin_memcpy(&v, static_cast<const unsigned char *>(base) + off, sizeof(T));
  return v;
#endif
}

template <class T, int Space>
SLMC_CM_FN inline void raw_store(void *base, uint32_t off, T v) {
#if defined(SLMC_DEVICE_PASS)
  typedef typename space_ptr<T, Space>::bytes P;
  P p = (P)base + off;
  if ((off & (sizeof(T) - 1)) == 0) {
    *(typename space_ptr<T, Space>::type)p = v;
    return;
  }
  const unsigned char *s = reinterpret_cast<const unsigned char *>(&v);
  SLMC_CM_ELEMENTS
  for (unsigned k = 0; k < sizeof(T); ++k)
    p[k] = s[k];
#else
  __builtin_memcpy(static_cast<unsigned char *>(base) + off, &v, sizeof(T));
#endif
}

// Byte offsets into a surface or SLM are 32-bit, as the hardware's are
// (a surface holds less than 4 GiB): an offset computed past 2^32 or below
// 0 wraps around as it would there, and each costs one 32-bit add where
// Gen12 emulates 64-bit ones.

/// Reads a T at byte `off` of [base, base + bytes); 0 outside. A memory
/// without storage has no bytes, so `base` itself is never tested (IGC
/// rejects the SPIR-V pointer comparison that would need). Outside, the
/// read is of the first T instead, and its value dropped: a load with no
/// branch around it, which unrolled element loops keep in registers.
template <class T, int Space = kGlobal>
SLMC_CM_FN inline T load(const void *base, uint32_t bytes, uint32_t off) {
  if (bytes < sizeof(T))
    return T(0);
  const bool inside = off <= bytes - sizeof(T);
  const T v = raw_load<T, Space>(base, inside ? off : 0u);
  return inside ? v : T(0);
}

/// Writes a T at byte `off`; dropped outside.
template <class T, int Space = kGlobal>
SLMC_CM_FN inline void store(void *base, uint32_t bytes, uint32_t off, T v) {
  if (bytes < sizeof(T) || off > bytes - sizeof(T))
    return;
  raw_store<T, Space>(base, off, v);
}

/// Whether a block of `size` bytes at `off` lies inside [0, bytes) and
/// starts at a multiple of T's size: then its elements are plain aligned
/// accesses, tested once for the whole block as the hardware's block
/// messages are.
template <class T>
SLMC_CM_FN inline bool whole_block(uint32_t bytes, uint32_t off, uint32_t size) {
  return bytes >= size && off <= bytes - size && (off & (sizeof(T) - 1)) == 0;
}

template <class T, int Space>
SLMC_CM_FN inline T aligned_load(const void *base, uint32_t off) {
#if defined(SLMC_DEVICE_PASS)
  return *(typename space_ptr<T, Space>::type)((typename space_ptr<T, Space>::bytes)base +
                                              off);
#else
  return raw_load<T, Space>(base, off);
#endif
}

template <class T, int Space>
SLMC_CM_FN inline void aligned_store(void *base, uint32_t off, T v) {
#if defined(SLMC_DEVICE_PASS)
  *(typename space_ptr<T, Space>::type)((typename space_ptr<T, Space>::bytes)base + off) = v;
#else
  raw_store<T, Space>(base, off, v);
#endif
}

// A block that reaches outside its memory is moved element by element, in
// a loop left rolled through a private copy: it is the rare case, and
// unrolled it made the code of every block access several times larger.

template <int Space, class D>
SLMC_CM_FN inline void block_read(void *base, uint32_t bytes, uint32_t off, D &dst) {
  typedef element_t<D> T;
  constexpr int N = size_of<D>::value;
  static_assert(N * sizeof(T) <= kMaxBlockBytes,
                "a block read moves at most 256 bytes (16 OWords)");
  if (whole_block<T>(bytes, off, N * sizeof(T))) {
    SLMC_CM_ELEMENTS
    for (int i = 0; i < N; ++i)
      dst.at(i) = aligned_load<T, Space>(base, off + uint32_t(i * sizeof(T)));
    return;
  }
  T tmp[N];
  SLMC_CM_ROLLED
  for (int i = 0; i < N; ++i)
    tmp[i] = load<T, Space>(base, bytes, off + uint32_t(i * sizeof(T)));
  SLMC_CM_ELEMENTS
  for (int i = 0; i < N; ++i)
    dst.at(i) = tmp[i];
}

template <int Space, class X>
SLMC_CM_FN inline void block_write(void *base, uint32_t bytes, uint32_t off,
                                   const X &src) {
  typedef element_t<X> T;
  constexpr int N = size_of<X>::value;
  static_assert(N * sizeof(T) <= kMaxBlockBytes,
                "a block write moves at most 256 bytes (16 OWords)");
  if (whole_block<T>(bytes, off, N * sizeof(T))) {
    SLMC_CM_ELEMENTS
    for (int i = 0; i < N; ++i)
      aligned_store<T, Space>(base, off + uint32_t(i * sizeof(T)), src.get(i));
    return;
  }
  T tmp[N];
  SLMC_CM_ELEMENTS
  for (int i = 0; i < N; ++i)
    tmp[i] = src.get(i);
  SLMC_CM_ROLLED
  for (int i = 0; i < N; ++i)
    store<T, Space>(base, bytes, off + uint32_t(i * sizeof(T)), tmp[i]);
}

// ---- Atomics -----------------------------------------------------------------
template <class T> SLMC_CM_FN inline uint32_t bits_of(T v) {
  uint32_t b;
  __builtin_memcpy(&b, &v, 4);
  return b;
}
template <class T> SLMC_CM_FN inline T from_bits(uint32_t b) {
  T v;
  __builtin_memcpy(&v, &b, 4);
  return v;
}

/// The new value of a 4-byte element under `op` (old value `o`); false for
/// an unknown operation. Float comparisons (FCMPWR, FMIN, FMAX) compare
/// values: +0 equals -0, NaN equals nothing.
template <class T>
SLMC_CM_FN inline bool atomic_result(int op, uint32_t o, uint32_t a, uint32_t b,
                                     uint32_t &r) {
  const int32_t so = int32_t(o), sa = int32_t(a);
  const float fo = from_bits<float>(o), fa = from_bits<float>(a);
  const bool fp = std::is_floating_point<T>::value;
  switch (op) {
  case ATOMIC_ADD: r = fp ? bits_of(fo + fa) : o + a; return true;
  case ATOMIC_SUB: r = fp ? bits_of(fo - fa) : o - a; return true;
  case ATOMIC_INC: r = o + 1u; return true;
  case ATOMIC_DEC:
  case ATOMIC_PREDEC: r = o - 1u; return true;
  case ATOMIC_MIN: r = o < a ? o : a; return true;
  case ATOMIC_MAX: r = o > a ? o : a; return true;
  case ATOMIC_MINSINT: r = uint32_t(so < sa ? so : sa); return true;
  case ATOMIC_MAXSINT: r = uint32_t(so > sa ? so : sa); return true;
  case ATOMIC_XCHG: r = a; return true;
  case ATOMIC_CMPXCHG: r = o == a ? b : o; return true;
  case ATOMIC_FCMPWR: r = fo == fa ? b : o; return true;
  case ATOMIC_AND: r = o & a; return true;
  case ATOMIC_OR: r = o | a; return true;
  case ATOMIC_XOR: r = o ^ a; return true;
  case ATOMIC_FMAX: r = fo > fa || fa != fa ? o : a; return true;
  case ATOMIC_FMIN: r = fo < fa || fa != fa ? o : a; return true;
  case ATOMIC_FADD: r = bits_of(fo + fa); return true;
  case ATOMIC_FSUB: r = bits_of(fo - fa); return true;
  }
  return false;
}

#if !defined(__clang__)
/// Host compilers without scoped atomic builtins (the CPU fallback built by
/// another compiler): one compare-and-swap loop for every operation.
template <int Scope, int Space, class T>
SLMC_CM_FN inline T atomic_update(void *where, int op, T src0, T src1) {
  static_assert(sizeof(T) == 4, "CM atomics update 4-byte elements");
  uint32_t *p = static_cast<uint32_t *>(where);
  const uint32_t a = bits_of(src0), b = bits_of(src1);
  uint32_t old = __atomic_load_n(p, __ATOMIC_RELAXED), r = 0;
  while (atomic_result<T>(op, old, a, b, r) && r != old &&
         !__atomic_compare_exchange_n(p, &old, r, false, __ATOMIC_RELAXED,
                                      __ATOMIC_RELAXED)) {
  }
  return from_bits<T>(op == ATOMIC_PREDEC ? old - 1u : old);
}
#else
/// Applies `op` to the 4-byte element at `p` at memory scope Scope; returns
/// the old value (the new one for PREDEC).
template <int Scope, int Space, class T>
SLMC_CM_FN inline T atomic_update(void *where, int op, T src0, T src1) {
  static_assert(sizeof(T) == 4, "CM atomics update 4-byte elements");
#if defined(SLMC_DEVICE_PASS)
  typedef __attribute__((address_space(Space))) uint32_t *U;
  typedef __attribute__((address_space(Space))) int32_t *S;
  U p = (U)where;
  S sp = (S)where;
#else
  uint32_t *p = static_cast<uint32_t *>(where);
  int32_t *sp = static_cast<int32_t *>(where);
#endif
  const uint32_t a = bits_of(src0), b = bits_of(src1);
  switch (op) {
  case ATOMIC_ADD:
    if constexpr (std::is_floating_point<T>::value)
      break; // float ADD is FADD below
    else
      return from_bits<T>(__scoped_atomic_fetch_add(p, a, __ATOMIC_RELAXED, Scope));
  case ATOMIC_SUB:
    if constexpr (std::is_floating_point<T>::value)
      break;
    else
      return from_bits<T>(__scoped_atomic_fetch_sub(p, a, __ATOMIC_RELAXED, Scope));
  case ATOMIC_INC:
    return from_bits<T>(__scoped_atomic_fetch_add(p, 1u, __ATOMIC_RELAXED, Scope));
  case ATOMIC_DEC:
    return from_bits<T>(__scoped_atomic_fetch_sub(p, 1u, __ATOMIC_RELAXED, Scope));
  case ATOMIC_PREDEC:
    return from_bits<T>(__scoped_atomic_fetch_sub(p, 1u, __ATOMIC_RELAXED, Scope) - 1u);
  case ATOMIC_MIN:
    return from_bits<T>(__scoped_atomic_fetch_min(p, a, __ATOMIC_RELAXED, Scope));
  case ATOMIC_MAX:
    return from_bits<T>(__scoped_atomic_fetch_max(p, a, __ATOMIC_RELAXED, Scope));
  case ATOMIC_MINSINT:
    return from_bits<T>(
        __scoped_atomic_fetch_min(sp, int32_t(a), __ATOMIC_RELAXED, Scope));
  case ATOMIC_MAXSINT:
    return from_bits<T>(
        __scoped_atomic_fetch_max(sp, int32_t(a), __ATOMIC_RELAXED, Scope));
  case ATOMIC_XCHG:
    return from_bits<T>(__scoped_atomic_exchange_n(p, a, __ATOMIC_RELAXED, Scope));
  case ATOMIC_CMPXCHG: {
    uint32_t expected = a;
    __scoped_atomic_compare_exchange_n(p, &expected, b, false, __ATOMIC_RELAXED,
                                       __ATOMIC_RELAXED, Scope);
    return from_bits<T>(expected);
  }
  case ATOMIC_AND:
    return from_bits<T>(__scoped_atomic_fetch_and(p, a, __ATOMIC_RELAXED, Scope));
  case ATOMIC_OR:
    return from_bits<T>(__scoped_atomic_fetch_or(p, a, __ATOMIC_RELAXED, Scope));
  case ATOMIC_XOR:
    return from_bits<T>(__scoped_atomic_fetch_xor(p, a, __ATOMIC_RELAXED, Scope));
  default:
    break;
  }
  // Float operations: a compare-and-swap loop on the bits.
  uint32_t old = __scoped_atomic_load_n(p, __ATOMIC_RELAXED, Scope), r = 0;
  while (atomic_result<T>(op, old, a, b, r) && r != old &&
         !__scoped_atomic_compare_exchange_n(p, &old, r, false, __ATOMIC_RELAXED,
                                             __ATOMIC_RELAXED, Scope)) {
  }
  return from_bits<T>(old);
}
#endif

/// The atomic update of the 4-byte elements at byte first + offsets[i] * 4
/// of a memory of `bytes` bytes at `base`; `ret` (an object, or an int
/// placeholder) gets the old values, 0 where the element is outside.
template <int Scope, int Space, class T, class O, class R, class S0, class S1>
SLMC_CM_FN inline void atomic_elements(void *base, uint32_t bytes, long long first,
                                       int op, const O &offsets, R &ret,
                                       const S0 &src0, const S1 &src1) {
  constexpr int N = size_of<O>::value;
  static_assert(!is_object<R> || size_of<R>::value == N,
                "the result of an atomic has another size than its offsets");
  SLMC_CM_ELEMENTS
  for (int i = 0; i < N; ++i) {
    long long off = first + (long long)elem(offsets, i) * 4;
    T old = T(0);
    if (off >= 0 && (unsigned long long)off + 4 <= bytes)
      old = atomic_update<Scope, Space, T>(static_cast<unsigned char *>(base) + off, op,
                                    T(elem(src0, i)), T(elem(src1, i)));
    if constexpr (is_object<R>)
      ret.at(i) = old;
  }
}

/// The element type of an atomic: of the first object among the operands,
/// else uint.
template <class... X> struct atomic_type { typedef uint type; };
template <class X, class... Rest> struct atomic_type<X, Rest...> {
  typedef typename std::conditional<is_object<X>, element_t<X>,
                                    typename atomic_type<Rest...>::type>::type type;
};

} // namespace detail
} // namespace cm
} // namespace slmc

#define DWALIGNED(s) (::slmc::cm::detail::aligned_surface{(s), 4})
#define MODIFIED(s) (::slmc::cm::detail::aligned_surface{(s), 16})
#define CONSTANT(s) (::slmc::cm::detail::aligned_surface{(s), 16})
#define MODIFIED_DWALIGNED(s) (::slmc::cm::detail::aligned_surface{(s), 4})
#define CONSTANT_DWALIGNED(s) (::slmc::cm::detail::aligned_surface{(s), 4})

// ---- Block reads and writes ---------------------------------------------------
template <class D, class = typename std::enable_if<::slmc::cm::detail::is_object<D>>::type>
SLMC_CM_FN inline void read(SurfaceIndex s, int offset, D &&dst) {
  ::slmc::cm::detail::block_read<::slmc::cm::detail::kGlobal>(s.data, s.bytes, uint32_t(offset & ~15), dst);
}

template <class D, class = typename std::enable_if<::slmc::cm::detail::is_object<D>>::type>
SLMC_CM_FN inline void read(::slmc::cm::detail::aligned_surface s, int offset, D &&dst) {
  const int mask = s.alignment == 4 ? ~3 : ~15;
  ::slmc::cm::detail::block_read<::slmc::cm::detail::kGlobal>(s.surface.data, s.surface.bytes,
                                 uint32_t(offset & mask), dst);
}

template <class X, class = typename std::enable_if<::slmc::cm::detail::is_object<X>>::type>
SLMC_CM_FN inline void write(SurfaceIndex s, int offset, const X &src) {
  ::slmc::cm::detail::block_write<::slmc::cm::detail::kGlobal>(s.data, s.bytes, uint32_t(offset & ~15), src);
}

// ---- Media block reads and writes on 2-D surfaces ----------------------------
enum CmSurfacePlaneIndex {
  GENX_SURFACE_Y_PLANE = 0,
  GENX_SURFACE_U_PLANE = 1,
  GENX_SURFACE_UV_PLANE = 1,
  GENX_SURFACE_V_PLANE = 2
};

namespace slmc {
namespace cm {
namespace detail {

/// Field selection of TOP_FIELD / BOTTOM_FIELD.
enum : int { kFrame = 0, kTopField = 1, kBottomField = 2 };

struct field_surface {
  SurfaceIndex surface;
  int field;
};

/// One plane (or field of a plane) of a 2-D surface: rows of `row_bytes`
/// bytes, `pitch` apart, from byte `start` of the surface's memory.
struct plane2d {
  long long start;
  long long pitch;
  int row_bytes; // width in pixels times pixel
  int rows;
  int pixel;
};

SLMC_CM_FN inline plane2d plane_of(const SurfaceIndex &s, int plane, int field) {
  plane2d p{0, (long long)s.pitch, int(s.width * s.pixel), int(s.height),
            int(s.pixel)};
  if (s.pixel == 0 || plane < 0 || (uint32_t)plane >= s.planes) {
    p.rows = 0; // a buffer, or no such plane: nothing to read or write
    return p;
  }
  if (plane == 1) { // NV12's UV plane: pairs of bytes, half the rows
    p.start = (long long)s.pitch * s.height;
    p.rows = int(s.height / 2);
    p.pixel = 2;
    p.row_bytes = int(s.width / 2) * 2;
  }
  if (field == kTopField) {
    p.rows = (p.rows + 1) / 2;
    p.pitch *= 2;
  } else if (field == kBottomField) {
    p.start += p.pitch;
    p.rows /= 2;
    p.pitch *= 2;
  }
  return p;
}

/// Byte `b` of a row moved onto the row: pixels left of it read pixel 0,
/// right of it the last pixel (each byte keeps its place in the pixel).
SLMC_CM_FN inline long long clamp_byte(const plane2d &p, long long b) {
  if (b >= 0 && b < p.row_bytes)
    return b;
  long long px = b >= 0 ? b / p.pixel : -((-b + p.pixel - 1) / p.pixel);
  long long within = b - px * p.pixel;
  const long long last = p.row_bytes / p.pixel - 1;
  px = px < 0 ? 0 : px > last ? last : px;
  return px * p.pixel + within;
}

constexpr int pow2_at_least(int n, int p = 4) {
  return p >= n ? p : pow2_at_least(n, p * 2);
}

/// The rows and columns of a block: a matrix's, or one row of a vector.
template <class D> struct block_shape {
  typedef traits<bare<D>> t;
  static constexpr int rows = t::rows, cols = t::cols;
  static constexpr int width = cols * int(sizeof(typename t::element));
  static constexpr bool fits = width <= 64 && rows <= 64 &&
                               pow2_at_least(width) * rows <= 256;
};

/// Where the block at (x, y), `rows` rows of `width` bytes, starts when it
/// lies wholly inside the plane with every T naturally aligned; -1 when it
/// does not (an edge to clamp or clip, no such plane, or an unaligned x).
template <class T>
SLMC_CM_FN inline long long inside_block(const SurfaceIndex &s, const plane2d &p, int x,
                                         int y, int rows, int width) {
  if (p.rows <= 0 || x < 0 || y < 0 || (long long)x + width > p.row_bytes ||
      (long long)y + rows > p.rows)
    return -1;
  const long long at = p.start + (long long)y * p.pitch + x;
  if (at + (rows - 1) * p.pitch + width > (long long)s.bytes)
    return -1; // a surface smaller than its description says
  return (at | p.pitch) & (long long)(sizeof(T) - 1) ? -1 : at;
}

// A block that crosses an edge of its surface (or reads a plane the
// surface lacks) goes byte by byte, in rolled loops through a private
// copy: it is the rare case, and unrolled it made each media block access
// tens of thousands of instructions long.

/// Reads `rows` rows of `width` bytes at (x, y) into `out`, each byte's
/// row and pixel clamped to the plane (zeros with no plane).
SLMC_CM_FN inline void media_read_clamped(const SurfaceIndex &s, const plane2d &p,
                                          int x, int y, int rows, int width,
                                          unsigned char *out) {
  SLMC_CM_ROLLED
  for (int r = 0; r < rows; ++r) {
    long long yy = (long long)y + r;
    yy = yy < 0 ? 0 : yy >= p.rows ? p.rows - 1 : yy;
    const long long row = p.start + yy * p.pitch;
    SLMC_CM_ROLLED
    for (int k = 0; k < width; ++k)
      out[r * width + k] =
          p.rows <= 0 || p.row_bytes <= 0
              ? (unsigned char)0
              : load<unsigned char>(s.data, s.bytes,
                                    uint32_t(row + clamp_byte(p, (long long)x + k)));
  }
}

/// Writes `rows` rows of `width` bytes from `in` at (x, y), dropping the
/// bytes outside the plane.
SLMC_CM_FN inline void media_write_clipped(const SurfaceIndex &s, const plane2d &p,
                                           int x, int y, int rows, int width,
                                           const unsigned char *in) {
  SLMC_CM_ROLLED
  for (int r = 0; r < rows; ++r) {
    const long long yy = (long long)y + r;
    if (yy < 0 || yy >= p.rows)
      continue;
    const long long row = p.start + yy * p.pitch;
    SLMC_CM_ROLLED
    for (int k = 0; k < width; ++k) {
      const long long bx = (long long)x + k;
      if (bx >= 0 && bx < p.row_bytes)
        store<unsigned char>(s.data, s.bytes, uint32_t(row + bx), in[r * width + k]);
    }
  }
}

template <class D>
SLMC_CM_FN inline void media_read(const SurfaceIndex &s, int plane, int field,
                                  int x, int y, D &dst) {
  typedef element_t<D> T;
  typedef block_shape<D> B;
  static_assert(B::fits, "media block read: a block is at most 64 bytes wide "
                         "and 64 rows high, and at most 256 bytes with its "
                         "width rounded up to a power of two");
  const plane2d p = plane_of(s, plane, field);
  // Straight into dst: it is private memory, never the surface.
  const long long at = inside_block<T>(s, p, x, y, B::rows, B::width);
  if (at >= 0) {
    SLMC_CM_ELEMENTS
    for (int r = 0; r < B::rows; ++r) {
      SLMC_CM_ELEMENTS
      for (int c = 0; c < B::cols; ++c)
        dst.at(r * B::cols + c) = aligned_load<T, kGlobal>(
            s.data, uint32_t(at + r * p.pitch + (long long)c * sizeof(T)));
    }
    return;
  }
  unsigned char b[B::rows * B::width];
  media_read_clamped(s, p, x, y, B::rows, B::width, b);
  SLMC_CM_ELEMENTS
  for (int i = 0; i < B::rows * B::cols; ++i) {
    T v;
    __builtin_memcpy(&v, b + i * sizeof(T), sizeof(T));
    dst.at(i) = v;
  }
}

template <class X>
SLMC_CM_FN inline void media_write(const SurfaceIndex &s, int plane, int field,
                                   int x, int y, const X &src) {
  typedef element_t<X> T;
  typedef block_shape<X> B;
  static_assert(B::fits, "media block write: a block is at most 64 bytes wide "
                         "and 64 rows high, and at most 256 bytes with its "
                         "width rounded up to a power of two");
  const plane2d p = plane_of(s, plane, field);
  const long long at = inside_block<T>(s, p, x, y, B::rows, B::width);
  if (at >= 0) {
    SLMC_CM_ELEMENTS
    for (int r = 0; r < B::rows; ++r) {
      SLMC_CM_ELEMENTS
      for (int c = 0; c < B::cols; ++c)
        aligned_store<T, kGlobal>(s.data,
                                  uint32_t(at + r * p.pitch + (long long)c * sizeof(T)),
                                  src.get(r * B::cols + c));
    }
    return;
  }
  unsigned char b[B::rows * B::width];
  SLMC_CM_ELEMENTS
  for (int i = 0; i < B::rows * B::cols; ++i) {
    const T v = src.get(i);
    __builtin_memcpy(b + i * sizeof(T), &v, sizeof(T));
  }
  media_write_clipped(s, p, x, y, B::rows, B::width, b);
}

} // namespace detail
} // namespace cm
} // namespace slmc

#define TOP_FIELD(s) (::slmc::cm::detail::field_surface{(s), ::slmc::cm::detail::kTopField})
#define BOTTOM_FIELD(s)                                                        \
  (::slmc::cm::detail::field_surface{(s), ::slmc::cm::detail::kBottomField})
#define MODIFIED_TOP_FIELD(s) TOP_FIELD(s)
#define MODIFIED_BOTTOM_FIELD(s) BOTTOM_FIELD(s)

template <class Y, class D,
          class = typename std::enable_if<::slmc::cm::detail::is_scalar<Y> &&
                                          ::slmc::cm::detail::is_object<D>>::type>
SLMC_CM_FN inline void read(SurfaceIndex s, int x, Y y, D &&dst) {
  ::slmc::cm::detail::media_read(s, 0, ::slmc::cm::detail::kFrame, x, int(y), dst);
}
template <class Y, class D,
          class = typename std::enable_if<::slmc::cm::detail::is_scalar<Y> &&
                                          ::slmc::cm::detail::is_object<D>>::type>
SLMC_CM_FN inline void read(::slmc::cm::detail::aligned_surface s, int x, Y y, D &&dst) {
  ::slmc::cm::detail::media_read(s.surface, 0, ::slmc::cm::detail::kFrame, x, int(y),
                                 dst);
}
template <class Y, class D,
          class = typename std::enable_if<::slmc::cm::detail::is_scalar<Y> &&
                                          ::slmc::cm::detail::is_object<D>>::type>
SLMC_CM_FN inline void read(::slmc::cm::detail::field_surface s, int x, Y y, D &&dst) {
  ::slmc::cm::detail::media_read(s.surface, 0, s.field, x, int(y), dst);
}
template <class Y, class X,
          class = typename std::enable_if<::slmc::cm::detail::is_scalar<Y> &&
                                          ::slmc::cm::detail::is_object<X>>::type>
SLMC_CM_FN inline void write(SurfaceIndex s, int x, Y y, const X &src) {
  ::slmc::cm::detail::media_write(s, 0, ::slmc::cm::detail::kFrame, x, int(y), src);
}
template <class Y, class X,
          class = typename std::enable_if<::slmc::cm::detail::is_scalar<Y> &&
                                          ::slmc::cm::detail::is_object<X>>::type>
SLMC_CM_FN inline void write(::slmc::cm::detail::field_surface s, int x, Y y,
                             const X &src) {
  ::slmc::cm::detail::media_write(s.surface, 0, s.field, x, int(y), src);
}

/// Media block access to one plane of a planar surface (NV12: Y is plane 0,
/// the interleaved UV plane is plane 1).
template <class D, class = typename std::enable_if<::slmc::cm::detail::is_object<D>>::type>
SLMC_CM_FN inline void read_plane(SurfaceIndex s, CmSurfacePlaneIndex plane, int x, int y,
                                  D &&dst) {
  ::slmc::cm::detail::media_read(s, int(plane), ::slmc::cm::detail::kFrame, x, y, dst);
}
template <class X, class = typename std::enable_if<::slmc::cm::detail::is_object<X>>::type>
SLMC_CM_FN inline void write_plane(SurfaceIndex s, CmSurfacePlaneIndex plane, int x, int y,
                                   const X &src) {
  ::slmc::cm::detail::media_write(s, int(plane), ::slmc::cm::detail::kFrame, x, y, src);
}

// ---- Scattered reads and writes ------------------------------------------------
template <class O, class D,
          class = typename std::enable_if<::slmc::cm::detail::is_object<O> &&
                                          ::slmc::cm::detail::is_object<D>>::type>
SLMC_CM_FN inline void read(SurfaceIndex s, uint global_offset, const O &element_offset,
                            D &&dst) {
  typedef ::slmc::cm::detail::element_t<D> T;
  constexpr int N = ::slmc::cm::detail::size_of<D>::value;
  static_assert(::slmc::cm::detail::size_of<O>::value == N,
                "scattered read: as many offsets as elements");
  T tmp[N];
  SLMC_CM_ELEMENTS
  for (int i = 0; i < N; ++i)
    tmp[i] = ::slmc::cm::detail::load<T>(
        s.data, s.bytes,
        (global_offset + uint32_t(element_offset.get(i))) * uint32_t(sizeof(T)));
  SLMC_CM_ELEMENTS
  for (int i = 0; i < N; ++i)
    dst.at(i) = tmp[i];
}

template <class O, class X,
          class = typename std::enable_if<::slmc::cm::detail::is_object<O> &&
                                          ::slmc::cm::detail::is_object<X>>::type>
SLMC_CM_FN inline void write(SurfaceIndex s, uint global_offset, const O &element_offset,
                             const X &src) {
  typedef ::slmc::cm::detail::element_t<X> T;
  constexpr int N = ::slmc::cm::detail::size_of<X>::value;
  static_assert(::slmc::cm::detail::size_of<O>::value == N,
                "scattered write: as many offsets as elements");
  SLMC_CM_ELEMENTS
  for (int i = 0; i < N; ++i)
    ::slmc::cm::detail::store<T>(
        s.data, s.bytes,
        (global_offset + uint32_t(element_offset.get(i))) * uint32_t(sizeof(T)),
        src.get(i));
}

/// One scalar at element `element_offset` (units of T).
template <class T, class = typename std::enable_if<::slmc::cm::detail::is_scalar<T>>::type>
SLMC_CM_FN inline void write(SurfaceIndex s, uint element_offset, T data) {
  ::slmc::cm::detail::store<T>(s.data, s.bytes,
                               element_offset * uint32_t(sizeof(T)), data);
}

// ---- Untyped surface reads and writes (channels) --------------------------------------
/// The channels of an untyped access: a set bit enables one (bit 0 R, 1 G,
/// 2 B, 3 A).
enum ChannelMaskType {
  CM_R_ENABLE = 1,
  CM_G_ENABLE = 2,
  CM_GR_ENABLE = 3,
  CM_B_ENABLE = 4,
  CM_BR_ENABLE = 5,
  CM_BG_ENABLE = 6,
  CM_BGR_ENABLE = 7,
  CM_A_ENABLE = 8,
  CM_AR_ENABLE = 9,
  CM_AG_ENABLE = 10,
  CM_AGR_ENABLE = 11,
  CM_AB_ENABLE = 12,
  CM_ABR_ENABLE = 13,
  CM_ABG_ENABLE = 14,
  CM_ABGR_ENABLE = 15
};

namespace slmc {
namespace cm {
namespace detail {
/// The shape rules of read_untyped / write_untyped: dword elements, 8 or 16
/// offsets, a row of the matrix per enabled channel.
template <class M, class U> struct untyped_shape {
  typedef element_t<M> T;
  typedef traits<bare<M>> t;
  static constexpr int rows = t::rows, cols = t::cols, n = size_of<U>::value;
  static_assert(sizeof(T) == 4, "untyped surface accesses move dword elements "
                                "(int, uint or float)");
  static_assert(n == 8 || n == 16, "untyped surface accesses take 8 or 16 offsets");
  static_assert(cols == n, "untyped surface accesses: a matrix column per offset");
};
} // namespace detail
} // namespace cm
} // namespace slmc

/// For each offset u[i] (in dwords), the enabled channels among the four
/// dwords there: row k of m gets the k-th enabled channel (R, G, B, A
/// order, no gap). Dwords past the end of the surface read 0.
template <class M, class U,
          class = typename std::enable_if<::slmc::cm::detail::is_object<M> &&
                                          ::slmc::cm::detail::is_object<U>>::type>
SLMC_CM_FN inline void read_untyped(SurfaceIndex s, ChannelMaskType mask, M &&m, const U &u) {
  typedef ::slmc::cm::detail::untyped_shape<M, U> S;
  typedef typename S::T T;
  T tmp[4 * S::n];
  int row = 0;
  SLMC_CM_ELEMENTS
  for (int c = 0; c < 4; ++c) {
    if (!(int(mask) & (1 << c)) || row >= S::rows)
      continue;
    SLMC_CM_ELEMENTS
    for (int i = 0; i < S::n; ++i)
      tmp[row * S::n + i] = ::slmc::cm::detail::load<T>(
          s.data, s.bytes, (uint32_t(u.get(i)) + uint32_t(c)) * 4u);
    ++row;
  }
  SLMC_CM_ELEMENTS
  for (int i = 0; i < row * S::n; ++i)
    m.at(i) = tmp[i];
}

/// The converse: row k of m to the k-th enabled channel of each offset's
/// four dwords; writes past the end are dropped.
template <class M, class U,
          class = typename std::enable_if<::slmc::cm::detail::is_object<M> &&
                                          ::slmc::cm::detail::is_object<U>>::type>
SLMC_CM_FN inline void write_untyped(SurfaceIndex s, ChannelMaskType mask, const M &m,
                                     const U &u) {
  typedef ::slmc::cm::detail::untyped_shape<M, U> S;
  typedef typename S::T T;
  int row = 0;
  SLMC_CM_ELEMENTS
  for (int c = 0; c < 4; ++c) {
    if (!(int(mask) & (1 << c)) || row >= S::rows)
      continue;
    SLMC_CM_ELEMENTS
    for (int i = 0; i < S::n; ++i)
      ::slmc::cm::detail::store<T>(s.data, s.bytes, (uint32_t(u.get(i)) + uint32_t(c)) * 4u,
                                   m.get(row * S::n + i));
    ++row;
  }
}

// ---- Atomics on surfaces ------------------------------------------------------------
namespace slmc {
namespace cm {
namespace detail {
template <CmAtomicOpType OP> struct atomic_arity {
  static constexpr int sources =
      OP == ATOMIC_INC || OP == ATOMIC_DEC || OP == ATOMIC_PREDEC ? 0
      : OP == ATOMIC_CMPXCHG || OP == ATOMIC_FCMPWR               ? 2
                                                                  : 1;
};
} // namespace detail
} // namespace cm
} // namespace slmc

/// write_atomic<OP>(s, offsets)                    INC, DEC, PREDEC
/// write_atomic<OP>(s, offsets, ret)               the same, returning old values
/// write_atomic<OP>(s, offsets, src0[, ret])       the others but CMPXCHG/FCMPWR
/// write_atomic<OP>(s, offsets, src0, src1[, ret]) CMPXCHG, FCMPWR
/// Offsets are in 4-byte elements; OP is a CmAtomicOpType; the elements are
/// uint unless a source or the result says otherwise.
template <CmAtomicOpType OP, class O>
SLMC_CM_FN inline void write_atomic(SurfaceIndex s, const O &offsets) {
  static_assert(::slmc::cm::detail::atomic_arity<OP>::sources == 0,
                "write_atomic: this operation needs sources");
  int none = 0;
  ::slmc::cm::detail::atomic_elements<__MEMORY_SCOPE_DEVICE, ::slmc::cm::detail::kGlobal, uint>(
      s.data, s.bytes, 0, OP, offsets, none, 0u, 0u);
}

template <CmAtomicOpType OP, class O, class A>
SLMC_CM_FN inline void write_atomic(SurfaceIndex s, const O &offsets, A &&a) {
  constexpr int Sources = ::slmc::cm::detail::atomic_arity<OP>::sources;
  static_assert(Sources <= 1, "write_atomic: CMPXCHG needs two sources");
  typedef typename ::slmc::cm::detail::atomic_type<A>::type T;
  int none = 0;
  if constexpr (Sources == 0) // a is the result
    ::slmc::cm::detail::atomic_elements<__MEMORY_SCOPE_DEVICE, ::slmc::cm::detail::kGlobal, T>(
        s.data, s.bytes, 0, OP, offsets, a, 0u, 0u);
  else
    ::slmc::cm::detail::atomic_elements<__MEMORY_SCOPE_DEVICE, ::slmc::cm::detail::kGlobal, T>(
        s.data, s.bytes, 0, OP, offsets, none, a, 0u);
}

template <CmAtomicOpType OP, class O, class A, class B>
SLMC_CM_FN inline void write_atomic(SurfaceIndex s, const O &offsets, A &&a, B &&b) {
  constexpr int Sources = ::slmc::cm::detail::atomic_arity<OP>::sources;
  static_assert(Sources >= 1, "write_atomic: too many operands for this operation");
  typedef typename ::slmc::cm::detail::atomic_type<A, B>::type T;
  int none = 0;
  if constexpr (Sources == 1) // a is the source, b the result
    ::slmc::cm::detail::atomic_elements<__MEMORY_SCOPE_DEVICE, ::slmc::cm::detail::kGlobal, T>(
        s.data, s.bytes, 0, OP, offsets, b, a, 0u);
  else
    ::slmc::cm::detail::atomic_elements<__MEMORY_SCOPE_DEVICE, ::slmc::cm::detail::kGlobal, T>(
        s.data, s.bytes, 0, OP, offsets, none, a, b);
}

template <CmAtomicOpType OP, class O, class A, class B, class C>
SLMC_CM_FN inline void write_atomic(SurfaceIndex s, const O &offsets, A &&a, B &&b,
                                    C &&ret) {
  static_assert(::slmc::cm::detail::atomic_arity<OP>::sources == 2,
                "write_atomic: too many operands for this operation");
  typedef typename ::slmc::cm::detail::atomic_type<A, B, C>::type T;
  ::slmc::cm::detail::atomic_elements<__MEMORY_SCOPE_DEVICE, ::slmc::cm::detail::kGlobal, T>(
      s.data, s.bytes, 0, OP, offsets, ret, a, b);
}

// ---- Typed atomics ------------------------------------------------------------
namespace slmc {
namespace cm {
namespace detail {

/// The byte offset of typed element (u, v) of a surface, -1 where there is
/// none: a pixel of a 2-D surface of 4-byte pixels, or dword u of a buffer.
/// The hardware drops an access outside (its old value reads as 0).
SLMC_CM_FN inline long long typed_dword(const SurfaceIndex &s, uint32_t u, uint32_t v) {
  if (s.pixel == 0)
    return v == 0 && (unsigned long long)u * 4 + 4 <= s.bytes ? (long long)u * 4 : -1;
  if (s.pixel != 4 || u >= s.width || v >= s.height)
    return -1;
  return (long long)v * s.pitch + (long long)u * 4;
}

struct all_lanes {};
SLMC_CM_FN inline bool lane_on(all_lanes, int) { return true; }
template <class M> SLMC_CM_FN inline bool lane_on(const M &mask, int i) {
  return elem(mask, i) != 0;
}

/// write_typed_atomic's operands after the surface: the result, then the
/// operation's sources, then u [, v [, r [, lod]]] (r and lod name places
/// in 3-D surfaces and mip levels, which slmc's surfaces do not have:
/// only r = lod = 0 is an element).
template <CmAtomicOpType OP, class E, int Lanes, int Coords, class M, class Ops>
SLMC_CM_FN inline void typed_atomic_lanes(const M &mask, const SurfaceIndex &s, Ops ops) {
  constexpr int Sources = atomic_arity<OP>::sources;
  auto &ret = std::get<0>(ops);
  const auto &u = std::get<1 + Sources>(ops);
  SLMC_CM_ELEMENTS
  for (int i = 0; i < Lanes; ++i) {
    if (!lane_on(mask, i))
      continue;
    uint32_t v = 0, r = 0, lod = 0;
    if constexpr (Coords >= 2)
      v = uint32_t(elem(std::get<2 + Sources>(ops), i));
    if constexpr (Coords >= 3)
      r = uint32_t(elem(std::get<3 + Sources>(ops), i));
    if constexpr (Coords >= 4)
      lod = uint32_t(elem(std::get<4 + Sources>(ops), i));
    E s0 = E(0), s1 = E(0);
    if constexpr (Sources >= 1)
      s0 = E(elem(std::get<1>(ops), i));
    if constexpr (Sources >= 2)
      s1 = E(elem(std::get<2>(ops), i));
    const long long at = r || lod ? -1 : typed_dword(s, uint32_t(elem(u, i)), v);
    E old = E(0);
    if (at >= 0)
      old = atomic_update<__MEMORY_SCOPE_DEVICE, kGlobal, E>(
          static_cast<unsigned char *>(s.data) + at, OP, s0, s1);
    ret.at(i) = old;
  }
}

/// write_typed_atomic's operands after the surface: the result, then the
/// operation's sources, then u [, v [, r [, lod]]] (r and lod name places
/// in 3-D surfaces and mip levels, which slmc's surfaces do not have:
/// only r = lod = 0 is an element).
template <CmAtomicOpType OP, class T, int N, class M, class R, class... A>
SLMC_CM_FN inline void typed_atomic(const M &mask, const SurfaceIndex &s, R &&ret, A &&...a) {
  constexpr int Coords = int(sizeof...(A)) - atomic_arity<OP>::sources;
  typedef typename std::conditional<std::is_void<T>::value, element_t<R>, T>::type E;
  constexpr int Lanes = N ? N : size_of<R>::value;
  constexpr bool Operands = Coords >= 1 && Coords <= 4;
  constexpr bool Shape = is_object<R> && size_of<R>::value == Lanes;
  constexpr bool Width = Lanes == 1 || Lanes == 2 || Lanes == 4 || Lanes == 8;
  constexpr bool Type = sizeof(E) == 4 && std::is_same<element_t<R>, E>::value;
  static_assert(Operands, "write_typed_atomic: wrong number of operands for this operation "
                          "(result, sources, then u [, v [, r [, lod]]])");
  static_assert(!Operands || Shape,
                "write_typed_atomic: the result is not a vector of N elements");
  static_assert(!Operands || !Shape || Width, "write_typed_atomic: N must be 1, 2, 4 or 8");
  static_assert(!Operands || !Shape || !Width || Type,
                "write_typed_atomic: T must be a 4-byte type, the result's element type");
  if constexpr (Operands && Shape && Width && Type)
    typed_atomic_lanes<OP, E, Lanes, Coords>(mask, s, std::forward_as_tuple(ret, a...));
}

} // namespace detail
} // namespace cm
} // namespace slmc

/// write_typed_atomic<OP[, T, N]>([mask,] s, ret, [src0, [src1,]] u [, v [, r [, lod]]]):
/// the atomic OP on the 4-byte pixels (u[i], v[i]) of a 2-D surface (dword
/// u[i] of a buffer), old values to ret (the new one for PREDEC; 0 where
/// the pixel is outside the surface, whose access is dropped). With a
/// mask, only lanes whose mask element is not 0 take part.
template <CmAtomicOpType OP, class T = void, int N = 0, class... A>
SLMC_CM_FN inline void write_typed_atomic(SurfaceIndex s, A &&...a) {
  ::slmc::cm::detail::typed_atomic<OP, T, N>(::slmc::cm::detail::all_lanes{}, s,
                                             static_cast<A &&>(a)...);
}
template <CmAtomicOpType OP, class T = void, int N = 0, class M, class... A,
          class = typename std::enable_if<::slmc::cm::detail::is_object<M>>::type>
SLMC_CM_FN inline void write_typed_atomic(const M &mask, SurfaceIndex s, A &&...a) {
  ::slmc::cm::detail::typed_atomic<OP, T, N>(mask, s, static_cast<A &&>(a)...);
}

#endif // SLMC_CM_MEMORY_H
