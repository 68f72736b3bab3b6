//===- slmc/detail/early.h - What must come before any user header -------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Included first in every pass (by slmc/prelude.h in the check pass and by
// slmc/offload.h, which opens every lowered file), before the user's own
// includes, whatever their order.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_DETAIL_EARLY_H
#define SLMC_DETAIL_EARLY_H

// glibc declares a POSIX function ::index (<strings.h>, pulled in by most
// C++ headers); with `using namespace concurrency` the C++ AMP class
// template `index<1>` would then be ambiguous. Give the POSIX declaration
// another name before anything includes it (its include guard keeps it
// from coming back).
#if (defined(__GLIBC__) || defined(__linux__)) && !defined(_STRINGS_H)
#define index slmc_posix_index_
#include <strings.h>
#include <string.h>
#undef index
#endif

// Clang's CUDA and HIP modes put wrappers of some standard headers
// (<algorithm>, <complex>, <new>) on the include path; they use the CUDA
// attribute macros, which the device passes (-nocudainc, -nogpuinc) do not
// otherwise define.
#if (defined(__CUDA__) || defined(__HIP__)) && !defined(__host__)
#include <stdlib.h> // the <new> wrapper's device operator new names ::malloc
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#endif

#endif // SLMC_DETAIL_EARLY_H
