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

// Clang's MSVC compatibility mode (-fms-compatibility, which MSVC-era
// C++ AMP code needs: unqualified names found in dependent bases, template
// parameters redeclared by member templates) leaves out GCC's predefined
// macros, which glibc and libstdc++ read, when it targets Linux. Define
// them as Clang does outside the mode. _NATIVE_WCHAR_T_DEFINED is a mark of
// Microsoft extensions; __GNUC__ is missing only under compatibility.
#if defined(_NATIVE_WCHAR_T_DEFINED) && !defined(__GNUC__) && !defined(_WIN32)
#define __GNUC__ 4
#define __GNUC_MINOR__ 2
#define __GNUC_PATCHLEVEL__ 1
#define __GNUG__ 4
#define __GXX_ABI_VERSION 1002
#define __GXX_WEAK__ 1
#define __GNUC_GNU_INLINE__ 1
#if __cpp_rtti
#define __GXX_RTTI 1
#endif
#if __cpp_exceptions
#define __EXCEPTIONS 1
#endif
#define __GCC_ATOMIC_BOOL_LOCK_FREE 2
#define __GCC_ATOMIC_CHAR_LOCK_FREE 2
#define __GCC_ATOMIC_CHAR16_T_LOCK_FREE 2
#define __GCC_ATOMIC_CHAR32_T_LOCK_FREE 2
#define __GCC_ATOMIC_WCHAR_T_LOCK_FREE 2
#define __GCC_ATOMIC_SHORT_LOCK_FREE 2
#define __GCC_ATOMIC_INT_LOCK_FREE 2
#define __GCC_ATOMIC_LONG_LOCK_FREE 2
#define __GCC_ATOMIC_LLONG_LOCK_FREE 2
#define __GCC_ATOMIC_POINTER_LOCK_FREE 2
#define __GCC_ATOMIC_TEST_AND_SET_TRUEVAL 1
// A strict -std=c++NN (no GNU extensions: no __int128 for libstdc++).
#if !defined(__GLIBCXX_TYPE_INT_N_0) && !defined(__STRICT_ANSI__)
#define __STRICT_ANSI__ 1
#endif
#endif

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
