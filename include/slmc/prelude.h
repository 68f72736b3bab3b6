//===- slmc/prelude.h - Dialect keywords for the check pass ---------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Injected before the user's source by the slmc plugin and by slmc++. It makes
// each dialect's keywords parseable by stock Clang by turning them into
// annotations that the front end reads back from the AST; the source is not
// edited. Each dialect owns one section.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_PRELUDE_H
#define SLMC_PRELUDE_H

#define __SLMC__ 1

#include "slmc/detail/early.h"
#include "slmc/detail/array_notation.h"
#include "slmc/detail/cilk_keywords.h"

// ---- C++ AMP -----------------------------------------------------------
// restrict(amp), restrict(cpu), restrict(amp, cpu) after a declarator; the
// front end validates the specifier list.
//
// Functions that differ only in their restriction are distinct overloads
// (§2.3.2). Clang tells declarations of one signature apart by their
// enable_if attributes, and prefers the one whose list extends the other's,
// so restrict(amp) adds one always-true enable_if and restrict(cpu, amp)
// two (in either order); restrict(cpu) adds none, like no restriction.
// Clang thus picks the amp-capable overload everywhere; the front end
// resolves each call again for its caller's contexts (the model's
// RestrictionOverloads). Unknown specifiers add nothing and are reported.
#define SLMC_AMP_CAT_(a, b) a##b
#define SLMC_AMP_CAT(a, b) SLMC_AMP_CAT_(a, b)
#define SLMC_AMP_SECOND_(a, b, ...) b
#define SLMC_AMP_SECOND(...) SLMC_AMP_SECOND_(__VA_ARGS__, 0, 0)
#define SLMC_AMP_IS_amp_amp ~, 1
#define SLMC_AMP_IS_cpu_cpu ~, 1
#define SLMC_AMP_IS(kw, x) SLMC_AMP_SECOND(SLMC_AMP_IS_##kw##_##x, 0)
#define SLMC_AMP_OR_000 0
#define SLMC_AMP_OR_001 1
#define SLMC_AMP_OR_010 1
#define SLMC_AMP_OR_011 1
#define SLMC_AMP_OR_100 1
#define SLMC_AMP_OR_101 1
#define SLMC_AMP_OR_110 1
#define SLMC_AMP_OR_111 1
#define SLMC_AMP_OR3_(a, b, c) SLMC_AMP_OR_##a##b##c
#define SLMC_AMP_OR3(a, b, c) SLMC_AMP_OR3_(a, b, c)
#define SLMC_AMP_ANY(kw, a, b, c)                                              \
  SLMC_AMP_OR3(SLMC_AMP_IS(kw, a), SLMC_AMP_IS(kw, b), SLMC_AMP_IS(kw, c))
#define SLMC_AMP_OVERLOAD_00
#define SLMC_AMP_OVERLOAD_01
#define SLMC_AMP_OVERLOAD_10 __attribute__((enable_if(true, "")))
#define SLMC_AMP_OVERLOAD_11                                                   \
  __attribute__((enable_if(true, ""), enable_if(true, "")))
#define SLMC_AMP_OVERLOAD_(amp, cpu)                                           \
  SLMC_AMP_CAT(SLMC_AMP_OVERLOAD_, SLMC_AMP_CAT(amp, cpu))
#define SLMC_AMP_OVERLOAD_TAG_(a, b, c, ...)                                   \
  SLMC_AMP_OVERLOAD_(SLMC_AMP_ANY(amp, a, b, c), SLMC_AMP_ANY(cpu, a, b, c))
#define SLMC_AMP_OVERLOAD_TAG(...) SLMC_AMP_OVERLOAD_TAG_(__VA_ARGS__, , , )
#define restrict(...)                                                          \
  __attribute__((annotate("slmc.amp.restrict", #__VA_ARGS__)))                 \
  SLMC_AMP_OVERLOAD_TAG(__VA_ARGS__)
#define tile_static __attribute__((annotate("slmc.amp.tile_static")))

// ---- Intel Cilk Plus graphics offload ----------------------------------
// _Cilk_for marks its loop with a statement annotation; _Thread_group is
// read back from the source text between `for` and `(`. The GNU spelling
// __attribute__((target(gfx))) is rewritten by slmc++'s source pre-pass
// (clang's own `target` attribute rejects it); #pragma offload and
// #pragma offload_attribute are read by the front end's pragma handlers.
#define _Cilk_for [[clang::annotate("slmc.cilk.for")]] for
#define _Thread_group
#define __thread_group_local __attribute__((annotate("slmc.cilk.thread_group_local")))
// Cilk Plus's __declspec spellings as annotations; MSVC's others stay
// Clang's (slmc/detail/cilk_declspec.h).
#define SLMC_DECLSPEC_CILK(...) __attribute__((annotate("slmc.cilk.declspec", #__VA_ARGS__)))
#include "slmc/detail/cilk_declspec.h"

#endif // SLMC_PRELUDE_H
