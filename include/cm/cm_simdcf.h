//===- cm/cm_simdcf.h - C for Metal SIMD control flow ---------------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// SIMD control flow (C for Metal spec 3.4.2): each channel of a vector
// condition takes its own path.
//
//   SIMD_IF_BEGIN (v > 0) { ... } SIMD_ELSEIF (v < 0) { ... }
//   SIMD_ELSE { ... } SIMD_IF_END;
//   SIMD_DO_WHILE_BEGIN { ... SIMD_BREAK; ... SIMD_CONTINUE; ... }
//   SIMD_DO_WHILE_END (v < n);
//
// A block runs when one of its channels is on; in it, a statement of the
// block's width writes only the channels on, one of width 1 runs as it is.
// Here a CM thread is one work-item, so the channels are a bit mask, kept
// in a variable each block declares, `slmc_simd_ctx` (outside every block
// the name is the constant below: all channels on). slmc++'s pre-pass
// (lib/Prepass/CmSimdControlFlow.h) rewrites what a block writes to take
// it: assignments and compound assignments, merge, scattered read and
// write, any() and all(); what the spec does not allow in a block, or slmc
// cannot mask there (reductions, SLM and atomic messages, barriers), is a
// compile error naming it.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_CM_SIMDCF_H
#define SLMC_CM_SIMDCF_H

#include "cm/cm_memory.h"
#include "cm/cm_vector.h"

namespace slmc {
namespace cm {
namespace detail {

/// Outside SIMD control flow: every channel on.
struct simd_top {};

SLMC_CM_FN inline uint simd_bits(simd_top) { return 0xFFFFFFFFu; }
SLMC_CM_FN inline uint simd_bits(const simd_ctx &c) { return c.on; }

/// The channels where condition `c` holds (an element not 0), among
/// `outer`. A scalar condition (allowed in nested blocks) stands for all of
/// them.
template <class O, class C> SLMC_CM_FN inline uint simd_where(const O &outer, const C &c) {
  const uint o = simd_bits(outer);
  if constexpr (is_object<C>) {
    constexpr int N = size_of<C>::value;
    static_assert(N > 1 && N <= 32 && (N & (N - 1)) == 0,
                  "SIMD control flow: the condition's width must be a power of two "
                  "from 2 to 32");
    uint b = 0;
    SLMC_CM_ELEMENTS
    for (int i = 0; i < N; ++i)
      b |= (elem(c, i) != 0 ? 1u : 0u) << i;
    return o & b;
  } else {
    static_assert(!std::is_same<O, simd_top>::value,
                  "SIMD control flow: a scalar condition needs an enclosing SIMD block");
    return c ? o : 0u;
  }
}

/// One SIMD_IF_BEGIN ... SIMD_IF_END: the branch being run and the
/// channels no branch has taken yet.
struct simd_if {
  simd_ctx ctx;
  uint remaining;
  template <class O, class C> SLMC_CM_FN simd_if(const O &outer, const C &c) {
    ctx.on = simd_where(outer, c);
    remaining = simd_bits(outer) & ~ctx.on;
  }
  template <class C> SLMC_CM_FN bool elseif(const C &c) {
    ctx.on = remaining & simd_where(simd_ctx{remaining}, c);
    remaining &= ~ctx.on;
    return ctx.on != 0;
  }
  SLMC_CM_FN bool otherwise() {
    ctx.on = remaining;
    remaining = 0;
    return ctx.on != 0;
  }
};

/// One SIMD_DO_WHILE_BEGIN ... SIMD_DO_WHILE_END: the channels still in the
/// loop, and those running this iteration.
struct simd_loop {
  uint active;
  simd_ctx ctx;
  template <class O> SLMC_CM_FN explicit simd_loop(const O &outer) : active(simd_bits(outer)) {
    ctx.on = active;
  }
  SLMC_CM_FN const simd_ctx &iteration() {
    ctx.on = active;
    return ctx;
  }
  /// SIMD_BREAK in the block whose channels are `in`: they leave the loop
  /// (and the rest of that block).
  SLMC_CM_FN void leave(const simd_ctx &in) {
    active &= ~in.on;
    ctx.on &= ~in.on;
    const_cast<simd_ctx &>(in).on = 0;
  }
  /// SIMD_CONTINUE: they skip the rest of this iteration.
  SLMC_CM_FN void skip(const simd_ctx &in) {
    ctx.on &= ~in.on;
    const_cast<simd_ctx &>(in).on = 0;
  }
  template <class C> SLMC_CM_FN bool next(const C &c) {
    active = simd_where(simd_ctx{active}, c);
    return active != 0;
  }
};

/// `lhs = rhs` in a SIMD block: an object of more than one element takes
/// the channels on only; anything else is assigned as it is.
template <class L, class R> SLMC_CM_FN inline void simd_assign(const simd_ctx &c, L &&lhs,
                                                              const R &rhs) {
  if constexpr (is_object<L> && size_of<L>::value > 1) {
    static_assert(size_of<L>::value <= 32,
                  "SIMD control flow: a statement's width must be the block's (at most 32) or 1");
    lhs.merge(rhs, c.on);
  } else {
    static_cast<L &&>(lhs) = rhs;
  }
}

/// Whether a read or write's operands are the scattered form's: surface,
/// global offset, element offsets, data.
template <class... A> struct scattered_form : std::false_type {};
template <class S, class G, class O, class D>
struct scattered_form<S, G, O, D>
    : std::integral_constant<bool, std::is_convertible<S, SurfaceIndex>::value &&
                                       std::is_integral<bare<G>>::value && is_object<O> &&
                                       is_object<D>> {};

/// A scattered read in a SIMD block: the channels on take the elements.
template <class... A> SLMC_CM_FN inline void simd_read(const simd_ctx &c, A &&...a) {
  constexpr bool Scattered = scattered_form<A...>::value;
  static_assert(Scattered, "SIMD control flow: only scattered reads (surface, global "
                           "offset, element offsets, destination) are allowed");
  if constexpr (Scattered)
    simd_read_scattered(c, static_cast<A &&>(a)...);
}
template <class O, class D>
SLMC_CM_FN inline void simd_read_scattered(const simd_ctx &c, SurfaceIndex s, uint global_offset,
                                           const O &element_offset, D &&dst) {
  vector<element_t<D>, size_of<D>::value> got;
  read(s, global_offset, element_offset, got);
  dst.merge(got, c.on);
}

/// A scattered write in a SIMD block: only the channels on write.
template <class... A> SLMC_CM_FN inline void simd_write(const simd_ctx &c, A &&...a) {
  constexpr bool Scattered = scattered_form<A...>::value;
  static_assert(Scattered, "SIMD control flow: only scattered writes (surface, global "
                           "offset, element offsets, source) are allowed");
  if constexpr (Scattered)
    simd_write_scattered(c, static_cast<A &&>(a)...);
}
template <class O, class X>
SLMC_CM_FN inline void simd_write_scattered(const simd_ctx &c, SurfaceIndex s,
                                            uint global_offset, const O &element_offset,
                                            const X &src) {
  typedef element_t<X> T;
  constexpr int N = size_of<X>::value;
  static_assert(size_of<O>::value == N, "scattered write: as many offsets as elements");
  SLMC_CM_ELEMENTS
  for (int i = 0; i < N; ++i)
    if ((c.on >> i) & 1u)
      store<T>(s.data, s.bytes,
               (global_offset + uint32_t(element_offset.get(i))) * uint32_t(sizeof(T)),
               src.get(i));
}

// What a SIMD block may not call here: reductions, dot products and SAD
// (spec 3.4.2), SLM, atomic and untyped messages and barriers (slmc does
// not mask them). The pre-pass renames each call in a block to these.
/// What a refused call gives: anything, so that its error comes alone.
struct simd_refused {
  template <class T> SLMC_CM_FN operator T() const { return T(); }
};
#define SLMC_CM_SIMD_REFUSED(NAME)                                             \
  template <auto... P, class... A>                                             \
  SLMC_CM_FN inline simd_refused simd_##NAME(const simd_ctx &, A &&...) {      \
    static_assert(sizeof...(P) < 0,                                            \
                  #NAME " is not supported in SIMD control flow by slmc");     \
    return {};                                                                 \
  }                                                                            \
  template <class T, auto... P, class... A>                                    \
  SLMC_CM_FN inline simd_refused simd_##NAME(const simd_ctx &, A &&...) {      \
    static_assert(sizeof(T) == 0,                                              \
                  #NAME " is not supported in SIMD control flow by slmc");     \
    return {};                                                                 \
  }
SLMC_CM_SIMD_REFUSED(cm_sum)
SLMC_CM_SIMD_REFUSED(cm_prod)
SLMC_CM_SIMD_REFUSED(cm_reduced_min)
SLMC_CM_SIMD_REFUSED(cm_reduced_max)
SLMC_CM_SIMD_REFUSED(cm_dp4)
SLMC_CM_SIMD_REFUSED(cm_sad2)
SLMC_CM_SIMD_REFUSED(cm_sada2)
SLMC_CM_SIMD_REFUSED(cm_div)
SLMC_CM_SIMD_REFUSED(cm_pack_mask)
SLMC_CM_SIMD_REFUSED(cm_slm_read)
SLMC_CM_SIMD_REFUSED(cm_slm_write)
SLMC_CM_SIMD_REFUSED(cm_slm_read4)
SLMC_CM_SIMD_REFUSED(cm_slm_write4)
SLMC_CM_SIMD_REFUSED(cm_slm_read_scaled)
SLMC_CM_SIMD_REFUSED(cm_slm_write_scaled)
SLMC_CM_SIMD_REFUSED(cm_slm_read4_scaled)
SLMC_CM_SIMD_REFUSED(cm_slm_write4_scaled)
SLMC_CM_SIMD_REFUSED(cm_slm_atomic)
SLMC_CM_SIMD_REFUSED(cm_slm_block_read)
SLMC_CM_SIMD_REFUSED(cm_slm_block_write)
SLMC_CM_SIMD_REFUSED(cm_slm_load)
SLMC_CM_SIMD_REFUSED(write_atomic)
SLMC_CM_SIMD_REFUSED(write_typed_atomic)
SLMC_CM_SIMD_REFUSED(read_untyped)
SLMC_CM_SIMD_REFUSED(write_untyped)
SLMC_CM_SIMD_REFUSED(read_plane)
SLMC_CM_SIMD_REFUSED(write_plane)
SLMC_CM_SIMD_REFUSED(cm_barrier)
SLMC_CM_SIMD_REFUSED(cm_fence)
SLMC_CM_SIMD_REFUSED(cm_slm_fence)
#undef SLMC_CM_SIMD_REFUSED

} // namespace detail
} // namespace cm
} // namespace slmc

/// Outside every SIMD block: all channels on (a block's own variable of
/// this name hides it).
[[maybe_unused]] constexpr ::slmc::cm::detail::simd_top slmc_simd_ctx{};

#define SIMD_IF_BEGIN(...)                                                     \
  {                                                                            \
    ::slmc::cm::detail::simd_if slmc_simd_if(slmc_simd_ctx, (__VA_ARGS__));    \
    if (slmc_simd_if.ctx.on != 0) {                                            \
      [[maybe_unused]] const ::slmc::cm::detail::simd_ctx &slmc_simd_ctx = slmc_simd_if.ctx;
#define SIMD_ELSEIF(...)                                                       \
  }                                                                            \
  if (slmc_simd_if.elseif((__VA_ARGS__))) {                                    \
    [[maybe_unused]] const ::slmc::cm::detail::simd_ctx &slmc_simd_ctx = slmc_simd_if.ctx;
#define SIMD_ELSE                                                              \
  }                                                                            \
  if (slmc_simd_if.otherwise()) {                                              \
    [[maybe_unused]] const ::slmc::cm::detail::simd_ctx &slmc_simd_ctx = slmc_simd_if.ctx;
#define SIMD_IF_END                                                            \
  }                                                                            \
  }
#define SIMD_DO_WHILE_BEGIN                                                    \
  {                                                                            \
    ::slmc::cm::detail::simd_loop slmc_simd_loop(slmc_simd_ctx);               \
    do {                                                                       \
      [[maybe_unused]] const ::slmc::cm::detail::simd_ctx &slmc_simd_ctx =     \
          slmc_simd_loop.iteration();
#define SIMD_DO_WHILE_END(...)                                                 \
  }                                                                            \
  while (slmc_simd_loop.next((__VA_ARGS__)))                                   \
    ;                                                                          \
  }
#define SIMD_BREAK slmc_simd_loop.leave(slmc_simd_ctx)
#define SIMD_CONTINUE slmc_simd_loop.skip(slmc_simd_ctx)

#endif // SLMC_CM_SIMDCF_H
