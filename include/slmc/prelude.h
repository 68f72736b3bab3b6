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
#define restrict(...) __attribute__((annotate("slmc.amp.restrict", #__VA_ARGS__)))
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
#define __declspec(...) __attribute__((annotate("slmc.cilk.declspec", #__VA_ARGS__)))

#endif // SLMC_PRELUDE_H
