//===- slmc/detail/cilk_keywords.h - Cilk Plus keywords of host code ------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Keywords that lowering leaves in place, so every pass (the check pass
// through the prelude, the later ones through slmc/offload.h) reads them.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_DETAIL_CILK_KEYWORDS_H
#define SLMC_DETAIL_CILK_KEYWORDS_H

// Host task parallelism runs as its serial elision, a valid Cilk execution.
#define _Cilk_spawn
#define _Cilk_sync
// `_Cilk_for _Simd`: a vectorisation hint, as `#pragma simd` is.
#define _Simd

#endif // SLMC_DETAIL_CILK_KEYWORDS_H
