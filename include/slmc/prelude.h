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

// ---- C++ AMP -----------------------------------------------------------
// restrict(amp), restrict(cpu), restrict(amp, cpu) after a declarator; the
// front end validates the specifier list.
#define restrict(...) __attribute__((annotate("slmc.amp.restrict", #__VA_ARGS__)))
#define tile_static __attribute__((annotate("slmc.amp.tile_static")))

#endif // SLMC_PRELUDE_H
