//===- cm/cm_slm.h - CM thread groups and shared local memory -------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A thread group is a work-group; one CM thread is one work-item.
//
// Shared local memory (SLM) of a kernel:
//
//  * cm_slm_init(N), N an integral constant, once at the start of the
//    kernel, by every thread. slmc++ rewrites the call to
//    cm_slm_init(slmc::cm_slm_size<N>{}, site) (one group-local block per
//    call site, a Workgroup variable of N bytes in SPIR-V, .shared in PTX,
//    thread_local on the CPU). It records the block's address and size in a
//    small group-local record that every SLM function reads; every thread
//    writes the same values. Without slmc++'s rewriting (a plain clang++
//    with the slmc plugin, which only checks) the cm_slm_init(unsigned)
//    overload serves: on the host, a fixed block of kCheckOnlySlmBytes
//    (64 KiB) per running group holds the first min(size, 64 KiB) bytes.
//  * cm_slm_alloc(size) returns the next free byte offset (16-byte aligned)
//    of the block; cm_slm_free(offset) frees it and everything allocated
//    after it, cm_slm_free() everything. Both contain barriers (the offset
//    is group-wide state), so every thread of the group calls them, in the
//    same order, as CM programs do.
//  * cm_slm_load(slm, surface, offset, size) copies `size` bytes of a
//    surface into SLM, the group's threads sharing the 256-byte blocks. It
//    starts with a barrier (so that reloading never overwrites data another
//    thread still reads) and ends with a fence and a barrier (so that every
//    thread sees all of it): every thread calls it.
//  * SLM offsets (the slmBuffer values) are bytes from the block's start;
//    accesses outside [0, N) read 0 and drop writes, like surfaces.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_CM_SLM_H
#define SLMC_CM_SLM_H

#include "cm/cm_memory.h"

// ---- Thread-group interface ------------------------------------------------

SLMC_CM_FN inline uint cm_local_id(uint dim) { return slmc::local_id(int(dim)); }
SLMC_CM_FN inline uint cm_local_size(uint dim) { return slmc::local_size(int(dim)); }
SLMC_CM_FN inline uint cm_group_id(uint dim) { return slmc::group_id(int(dim)); }
SLMC_CM_FN inline uint cm_group_count(uint dim) { return slmc::group_count(int(dim)); }

SLMC_CM_FN inline uint cm_linear_local_id() {
  return cm_local_id(0) +
         cm_local_size(0) * (cm_local_id(1) + cm_local_size(1) * cm_local_id(2));
}
SLMC_CM_FN inline uint cm_linear_local_size() {
  return cm_local_size(0) * cm_local_size(1) * cm_local_size(2);
}
SLMC_CM_FN inline uint cm_linear_group_id() {
  return cm_group_id(0) +
         cm_group_count(0) * (cm_group_id(1) + cm_group_count(1) * cm_group_id(2));
}
SLMC_CM_FN inline uint cm_linear_group_count() {
  return cm_group_count(0) * cm_group_count(1) * cm_group_count(2);
}
SLMC_CM_FN inline uint cm_linear_global_id() {
  return cm_linear_group_id() * cm_linear_local_size() + cm_linear_local_id();
}
SLMC_CM_FN inline uint cm_linear_global_size() {
  return cm_linear_group_count() * cm_linear_local_size();
}

/// The thread's position in a media-walker thread space (CmQueue::Enqueue
/// with a CmThreadSpace of width x height): x and y.
SLMC_CM_FN inline uint get_thread_origin_x() {
  return cm_group_id(0) * cm_local_size(0) + cm_local_id(0);
}
SLMC_CM_FN inline uint get_thread_origin_y() {
  return cm_group_id(1) * cm_local_size(1) + cm_local_id(1);
}

/// Waits until every thread of the group arrives; orders SLM and memory.
SLMC_CM_FN inline void cm_barrier() { slmc::group_barrier(); }

// Fence modes (accepted; every fence orders SLM and global memory).
#define CM_GLOBAL_COHERENT_FENCE 1
#define CM_L3_FLUSH_INSTRUCTIONS 2
#define CM_L3_FLUSH_TEXTURE_DATA 4
#define CM_L3_FLUSH_CONSTANT_DATA 8
#define CM_L3_FLUSH_RW_DATA 0x10
#define CM_LOCAL_BARRIER 0x20
#define CM_L1_FLUASH_RO_DATA 0x40
#define CM_SW_BARRIER 0x80

/// Orders this thread's SLM and memory accesses for the group.
SLMC_CM_FN inline void cm_slm_fence(unsigned char mode = CM_GLOBAL_COHERENT_FENCE) {
  (void)mode;
  slmc::group_fence();
}
SLMC_CM_FN inline void cm_fence(unsigned char mode = CM_GLOBAL_COHERENT_FENCE) {
  (void)mode;
  slmc::group_fence();
}

// ---- SLM record ------------------------------------------------------------

enum SLM_ChannelMaskType {
  // A set bit disables a channel (bit 0 R, 1 G, 2 B, 3 A), as in CM.
  SLM_R_ENABLE = 14,
  SLM_G_ENABLE = 13,
  SLM_GR_ENABLE = 12,
  SLM_B_ENABLE = 11,
  SLM_BR_ENABLE = 10,
  SLM_BG_ENABLE = 9,
  SLM_BGR_ENABLE = 8,
  SLM_A_ENABLE = 7,
  SLM_AR_ENABLE = 6,
  SLM_AG_ENABLE = 5,
  SLM_AGR_ENABLE = 4,
  SLM_AB_ENABLE = 3,
  SLM_ABR_ENABLE = 2,
  SLM_ABG_ENABLE = 1,
  SLM_ABGR_ENABLE = 0
};

namespace slmc {

/// The size of cm_slm_init's rewritten form, as a type.
template <unsigned N> struct cm_slm_size {};

namespace cm {
namespace detail {

/// Bytes cm_slm_init(unsigned) gives when slmc++ has not rewritten it.
constexpr unsigned kCheckOnlySlmBytes = 64 * 1024;

template <unsigned N> struct slm_block {
  alignas(16) unsigned char bytes[N];
};

/// Where the kernel's SLM is, for the group. Internal linkage: one record
/// per translation unit (a kernel file) and no process-wide symbol in the
/// host object.
struct slm_record {
  unsigned char *base;
  uint32_t size;
  uint32_t next; // cm_slm_alloc's bump offset
};

static SLMC_CM_FN inline slm_record *slm() {
  SLMC_GROUP_LOCAL slm_record record;
  return &record;
}

static SLMC_CM_FN inline void slm_set(unsigned char *base, uint32_t size) {
  slm_record *r = slm();
  r->base = base;
  r->size = size;
  r->next = 0;
}

// SLM offsets are 32-bit, as the hardware's SLM addresses are: an offset
// computed from slm_buffer and element indices wraps around as it would
// there, and costs one 32-bit add (64-bit adds are emulated on Gen12).
template <class T> static SLMC_CM_FN inline T slm_load(uint32_t off) {
  slm_record *r = slm();
  return load<T, kLocal>(r->base, r->size, off);
}
template <class T> static SLMC_CM_FN inline void slm_store(uint32_t off, T v) {
  slm_record *r = slm();
  store<T, kLocal>(r->base, r->size, off, v);
}

/// Channels enabled by a mask, in R, G, B, A order.
SLMC_CM_FN inline int slm_channels(int mask, int out[4]) {
  int n = 0;
  SLMC_CM_ELEMENTS
  for (int c = 0; c < 4; ++c)
    if (!(mask & (1 << c)))
      out[n++] = c;
  return n;
}

} // namespace detail
} // namespace cm
} // namespace slmc

// ---- SLM management --------------------------------------------------------

/// The form slmc++ rewrites cm_slm_init(N) to: N bytes of group-local
/// memory for this call site.
template <unsigned N, class Site>
SLMC_CM_FN inline void cm_slm_init(slmc::cm_slm_size<N>, Site) {
  static_assert(N > 0, "cm_slm_init: the size must be positive");
  auto *block = slmc::group_local_storage<slmc::cm::detail::slm_block<N>, Site>();
  slmc::cm::detail::slm_set(block->bytes, N);
}

/// cm_slm_init(size) without slmc++'s rewriting (checking builds): see the
/// file comment. Device passes always see the rewritten form.
SLMC_CM_FN inline void cm_slm_init(unsigned size) {
#if defined(SLMC_DEVICE_PASS)
  (void)size;
  slmc::cm::detail::slm_set(nullptr, 0);
#else
  using slmc::cm::detail::kCheckOnlySlmBytes;
  static thread_local slmc::cm::detail::slm_block<kCheckOnlySlmBytes> block;
  slmc::cm::detail::slm_set(block.bytes,
                            size < kCheckOnlySlmBytes ? size : kCheckOnlySlmBytes);
#endif
}

/// The byte offset of `size` fresh bytes of SLM (16-byte aligned).
SLMC_CM_FN inline uint cm_slm_alloc(uint size) {
  slmc::cm::detail::slm_record *r = slmc::cm::detail::slm();
  slmc::group_barrier_local(); // every thread has initialised and read
  // (a multiple of 16 always; the mask tells the compiler, whose accesses
  // at offsets from it are then aligned)
  uint offset = r->next & ~15u;
  slmc::group_barrier_local(); // every thread has the offset
  if (slmc::is_group_leader())
    r->next = offset + ((size + 15u) & ~15u);
  return offset;
}

/// Frees the buffer at `slm_buffer` and all allocated after it.
SLMC_CM_FN inline void cm_slm_free(uint slm_buffer) {
  slmc::cm::detail::slm_record *r = slmc::cm::detail::slm();
  slmc::group_barrier_local();
  if (slmc::is_group_leader() && slm_buffer < r->next)
    r->next = slm_buffer;
}
/// Frees every SLM buffer.
SLMC_CM_FN inline void cm_slm_free() { cm_slm_free(0u); }

/// Copies `size` bytes at byte `offset` of `surface` into SLM at
/// `slm_buffer`, shared among the group's threads in 256-byte blocks; every
/// thread calls it (see the file comment).
SLMC_CM_FN inline void cm_slm_load(uint slm_buffer, SurfaceIndex surface, uint offset,
                                   uint size) {
  using namespace slmc::cm::detail;
  cm_barrier();
  const uint threads = cm_linear_local_size(), me = cm_linear_local_id();
  const uint blocks = (size + 255u) / 256u;
  const bool aligned = ((slm_buffer | offset) & 3u) == 0;
  for (uint b = me; b < blocks; b += threads) {
    const uint first = b * 256u;
    const uint end = size - first < 256u ? size - first : 256u;
    if (aligned && end % 4u == 0) {
      for (uint k = 0; k < end; k += 4)
        slm_store<uint32_t>(slm_buffer + first + k,
                            load<uint32_t>(surface.data, surface.bytes,
                                           offset + first + k));
    } else {
      for (uint k = 0; k < end; ++k)
        slm_store<unsigned char>(slm_buffer + first + k,
                                 load<unsigned char>(surface.data, surface.bytes,
                                                     offset + first + k));
    }
  }
  cm_slm_fence(CM_GLOBAL_COHERENT_FENCE);
  cm_barrier();
}

// ---- SLM reads and writes ----------------------------------------------------
// Offsets are in units of the data's elements (bytes for the _scaled forms),
// from slm_buffer.

namespace slmc {
namespace cm {
namespace detail {
template <class A, class D>
SLMC_CM_FN inline void slm_gather(uint slm_buffer, const A &addr, D &dst, int scale) {
  typedef element_t<D> T;
  constexpr int N = size_of<D>::value;
  static_assert(is_object<A> && size_of<A>::value == N,
                "SLM read: as many offsets as elements");
  T tmp[N];
  SLMC_CM_ELEMENTS
  for (int i = 0; i < N; ++i)
    tmp[i] = slm_load<T>(slm_buffer + uint32_t(addr.get(i)) * uint32_t(scale));
  SLMC_CM_ELEMENTS
  for (int i = 0; i < N; ++i)
    dst.at(i) = tmp[i];
}
template <class A, class X>
SLMC_CM_FN inline void slm_scatter(uint slm_buffer, const A &addr, const X &src, int scale) {
  typedef element_t<X> T;
  constexpr int N = size_of<X>::value;
  static_assert(is_object<A> && size_of<A>::value == N,
                "SLM write: as many offsets as elements");
  SLMC_CM_ELEMENTS
  for (int i = 0; i < N; ++i)
    slm_store<T>(slm_buffer + uint32_t(addr.get(i)) * uint32_t(scale), src.get(i));
}
/// Four consecutive 4-byte elements, read or written as one access: the
/// hardware's 4-channel SLM message moves them for a lane at once. Only
/// 4-byte alignment is assumed, as that message needs.
template <class T> struct quad {
  typedef T type __attribute__((ext_vector_type(4), aligned(4)));
};

template <class A, class D>
SLMC_CM_FN inline void slm_gather4(uint slm_buffer, const A &addr, D &dst, int mask,
                                   int scale) {
  typedef element_t<D> T;
  constexpr int N = size_of<A>::value, M = size_of<D>::value;
  static_assert(sizeof(T) == 4, "cm_slm_read4 reads 4-byte elements");
  int ch[4];
  const int n = slm_channels(mask, ch);
  // Each address reads its four elements at once when all N quads lie in
  // SLM (tested once, as a block is): one message per address instead of
  // one per channel, and no per-element test. Otherwise element by element,
  // each tested. Every read happens before dst is written: dst may be
  // addr.
  typedef typename quad<T>::type Q;
  slm_record *r = slm();
  uint32_t off[N];
  bool whole = true;
  SLMC_CM_ELEMENTS
  for (int i = 0; i < N; ++i) {
    off[i] = slm_buffer + uint32_t(addr.get(i)) * uint32_t(scale);
    whole = whole & whole_block<T>(r->size, off[i], sizeof(Q));
  }
  if (whole) {
    Q q[N];
    SLMC_CM_ELEMENTS
    for (int i = 0; i < N; ++i)
      q[i] = aligned_load<Q, kLocal>(r->base, off[i]);
    SLMC_CM_ELEMENTS
    for (int c = 0; c < n && (c + 1) * N <= M; ++c)
      SLMC_CM_ELEMENTS
      for (int i = 0; i < N; ++i)
        dst.at(c * N + i) = q[i][ch[c]];
    return;
  }
  // The rare path: element by element in a loop left rolled, through
  // private copies (so that only this path indexes memory).
  uint32_t where[N];
  SLMC_CM_ELEMENTS
  for (int i = 0; i < N; ++i)
    where[i] = off[i];
  T tmp[4 * N];
  SLMC_CM_ROLLED
  for (int i = 0; i < N; ++i)
    SLMC_CM_ELEMENTS
    for (int c = 0; c < n; ++c)
      tmp[c * N + i] = slm_load<T>(where[i] + ch[c] * 4u);
  SLMC_CM_ELEMENTS
  for (int c = 0; c < n && (c + 1) * N <= M; ++c)
    SLMC_CM_ELEMENTS
    for (int i = 0; i < N; ++i)
      dst.at(c * N + i) = tmp[c * N + i];
}
template <class A, class X>
SLMC_CM_FN inline void slm_scatter4(uint slm_buffer, const A &addr, const X &src, int mask,
                                    int scale) {
  typedef element_t<X> T;
  constexpr int N = size_of<A>::value, M = size_of<X>::value;
  static_assert(sizeof(T) == 4, "cm_slm_write4 writes 4-byte elements");
  int ch[4];
  const int n = slm_channels(mask, ch);
  SLMC_CM_ELEMENTS
  for (int c = 0; c < n && (c + 1) * N <= M; ++c)
    SLMC_CM_ELEMENTS
    for (int i = 0; i < N; ++i)
      slm_store<T>(slm_buffer + uint32_t(addr.get(i)) * uint32_t(scale) + ch[c] * 4u,
                   src.get(c * N + i));
}
} // namespace detail
} // namespace cm
} // namespace slmc

/// dst[i] = SLM element at slm_buffer + addr[i] * sizeof(element).
template <class A, class D>
SLMC_CM_FN inline void cm_slm_read(uint slm_buffer, const A &addr, D &&dst) {
  typedef ::slmc::cm::detail::element_t<D> T;
  ::slmc::cm::detail::slm_gather(slm_buffer, addr, dst, int(sizeof(T)));
}
/// dst[i] = SLM element at byte slm_buffer + addr[i].
template <class A, class D>
SLMC_CM_FN inline void cm_slm_read_scaled(uint slm_buffer, const A &addr, D &&dst) {
  ::slmc::cm::detail::slm_gather(slm_buffer, addr, dst, 1);
}
template <class A, class X>
SLMC_CM_FN inline void cm_slm_write(uint slm_buffer, const A &addr, const X &src) {
  typedef ::slmc::cm::detail::element_t<X> T;
  ::slmc::cm::detail::slm_scatter(slm_buffer, addr, src, int(sizeof(T)));
}
template <class A, class X>
SLMC_CM_FN inline void cm_slm_write_scaled(uint slm_buffer, const A &addr, const X &src) {
  ::slmc::cm::detail::slm_scatter(slm_buffer, addr, src, 1);
}

/// For each address (in 4-byte units), the enabled channels among the four
/// consecutive 4-byte elements there, stored channel by channel: dst holds
/// all R values, then all G values, ... (M = N x enabled channels).
template <class A, class D>
SLMC_CM_FN inline void cm_slm_read4(uint slm_buffer, const A &addr, D &&dst,
                                    SLM_ChannelMaskType mask) {
  ::slmc::cm::detail::slm_gather4(slm_buffer, addr, dst, int(mask), 4);
}
template <class A, class D>
SLMC_CM_FN inline void cm_slm_read4_scaled(uint slm_buffer, const A &addr, D &&dst,
                                           SLM_ChannelMaskType mask) {
  ::slmc::cm::detail::slm_gather4(slm_buffer, addr, dst, int(mask), 1);
}
template <class A, class X>
SLMC_CM_FN inline void cm_slm_write4(uint slm_buffer, const A &addr, const X &src,
                                     SLM_ChannelMaskType mask) {
  ::slmc::cm::detail::slm_scatter4(slm_buffer, addr, src, int(mask), 4);
}
template <class A, class X>
SLMC_CM_FN inline void cm_slm_write4_scaled(uint slm_buffer, const A &addr, const X &src,
                                            SLM_ChannelMaskType mask) {
  ::slmc::cm::detail::slm_scatter4(slm_buffer, addr, src, int(mask), 1);
}

/// Contiguous bytes at byte `offset` of the buffer (16-byte aligned, 4 with
/// a DWALIGNED attribute), at most 256.
template <class D, class = typename std::enable_if<::slmc::cm::detail::is_object<D>>::type>
SLMC_CM_FN inline void cm_slm_block_read(uint slm_buffer, CmBufferAttrib attr, int offset,
                                         D &&dst) {
  const bool dw = attr == GENX_DWALIGNED || attr == GENX_MODIFIED_DWALIGNED ||
                  attr == GENX_CONSTANT_DWALIGNED;
  slmc::cm::detail::slm_record *r = slmc::cm::detail::slm();
  ::slmc::cm::detail::block_read<::slmc::cm::detail::kLocal>(r->base, r->size,
                                 slm_buffer + uint32_t(offset & (dw ? ~3 : ~15)), dst);
}
template <class D, class = typename std::enable_if<::slmc::cm::detail::is_object<D>>::type>
SLMC_CM_FN inline void cm_slm_block_read(uint slm_buffer, int offset, D &&dst) {
  cm_slm_block_read(slm_buffer, GENX_NONE, offset, dst);
}
template <class X, class = typename std::enable_if<::slmc::cm::detail::is_object<X>>::type>
SLMC_CM_FN inline void cm_slm_block_write(uint slm_buffer, int offset, const X &src) {
  slmc::cm::detail::slm_record *r = slmc::cm::detail::slm();
  ::slmc::cm::detail::block_write<::slmc::cm::detail::kLocal>(r->base, r->size,
                                  slm_buffer + uint32_t(offset & ~15), src);
}

// ---- SLM atomics ------------------------------------------------------------------
/// cm_slm_atomic(slm, op, addr, dst[, src0[, src1]]): the atomic operation
/// `op` on the 4-byte elements at slm + addr[i] * 4; dst receives the old
/// values (pass 0 to ignore them). INC, DEC and PREDEC take no source,
/// CMPXCHG and FCMPWR two, the others one.
template <class A, class D>
SLMC_CM_FN inline void cm_slm_atomic(uint slm_buffer, CmAtomicOpType op, const A &addr,
                                     D &&dst) {
  typedef typename ::slmc::cm::detail::atomic_type<D>::type T;
  slmc::cm::detail::slm_record *r = slmc::cm::detail::slm();
  ::slmc::cm::detail::atomic_elements<__MEMORY_SCOPE_WRKGRP, ::slmc::cm::detail::kLocal, T>(
      r->base, r->size, (long long)slm_buffer, int(op), addr, dst, 0u, 0u);
}
template <class A, class D, class S0>
SLMC_CM_FN inline void cm_slm_atomic(uint slm_buffer, CmAtomicOpType op, const A &addr,
                                     D &&dst, const S0 &src0) {
  typedef typename ::slmc::cm::detail::atomic_type<D, S0>::type T;
  slmc::cm::detail::slm_record *r = slmc::cm::detail::slm();
  ::slmc::cm::detail::atomic_elements<__MEMORY_SCOPE_WRKGRP, ::slmc::cm::detail::kLocal, T>(
      r->base, r->size, (long long)slm_buffer, int(op), addr, dst, src0, 0u);
}
template <class A, class D, class S0, class S1>
SLMC_CM_FN inline void cm_slm_atomic(uint slm_buffer, CmAtomicOpType op, const A &addr,
                                     D &&dst, const S0 &src0, const S1 &src1) {
  typedef typename ::slmc::cm::detail::atomic_type<D, S0, S1>::type T;
  slmc::cm::detail::slm_record *r = slmc::cm::detail::slm();
  ::slmc::cm::detail::atomic_elements<__MEMORY_SCOPE_WRKGRP, ::slmc::cm::detail::kLocal, T>(
      r->base, r->size, (long long)slm_buffer, int(op), addr, dst, src0, src1);
}

#endif // SLMC_CM_SLM_H
