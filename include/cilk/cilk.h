//===- cilk/cilk.h - Cilk Plus keywords -----------------------------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The lower-case spellings of the Cilk Plus keywords. slmc offloads
// _Cilk_for nests to the device; host-side task parallelism (cilk_spawn,
// cilk_sync) runs serially, which is a valid Cilk execution (the serial
// elision).
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_CILK_CILK_H
#define SLMC_CILK_CILK_H

#define cilk_for _Cilk_for
#define cilk_spawn
#define cilk_sync
#define cilk_grainsize

#endif // SLMC_CILK_CILK_H
