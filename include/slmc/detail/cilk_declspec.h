//===- slmc/detail/cilk_declspec.h - Cilk Plus's __declspec, only those ---===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Intel's compiler gave __declspec two Cilk Plus meanings Clang lacks,
// target(gfx) / target(gfx_kernel) and vector(...). This __declspec
// macro takes those two and hands every other spelling (MSVC's property,
// align, noinline, dllexport, ...) to Clang's own keyword, which slmc++
// always enables (-fdeclspec): the `__declspec` a macro's expansion makes
// is never expanded again. What the Cilk spellings become is the includer's
// SLMC_DECLSPEC_CILK(...) (an annotation in the check pass, nothing after
// lowering).
//
// The test looks at the first token only: SLMC_DECLSPEC_PROBE_<token> is a
// macro for the two Cilk names, so the list it expands to has 1 second.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_DETAIL_CILK_DECLSPEC_H
#define SLMC_DETAIL_CILK_DECLSPEC_H

#define SLMC_DECLSPEC_CAT_(a, b) a##b
#define SLMC_DECLSPEC_CAT(a, b) SLMC_DECLSPEC_CAT_(a, b)
#define SLMC_DECLSPEC_SECOND_(a, b, ...) b
#define SLMC_DECLSPEC_SECOND(...) SLMC_DECLSPEC_SECOND_(__VA_ARGS__)
#define SLMC_DECLSPEC_EAT(...)
#define SLMC_DECLSPEC_PROBE_target ~, 1, SLMC_DECLSPEC_EAT
#define SLMC_DECLSPEC_PROBE_vector ~, 1, SLMC_DECLSPEC_EAT
#define SLMC_DECLSPEC_IS_CILK(...) SLMC_DECLSPEC_SECOND(__VA_ARGS__, 0, ~)
#define SLMC_DECLSPEC_PICK_0(...) __declspec(__VA_ARGS__)
#define SLMC_DECLSPEC_PICK_1(...) SLMC_DECLSPEC_CILK(__VA_ARGS__)
#define __declspec(...)                                                        \
  SLMC_DECLSPEC_CAT(SLMC_DECLSPEC_PICK_,                                       \
                    SLMC_DECLSPEC_IS_CILK(SLMC_DECLSPEC_PROBE_##__VA_ARGS__))  \
  (__VA_ARGS__)

#endif // SLMC_DETAIL_CILK_DECLSPEC_H
