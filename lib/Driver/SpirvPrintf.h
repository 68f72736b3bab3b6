//===- SpirvPrintf.h - printf in SPIR-V device code -------------*- C++ -*-===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Device code calls printf (SYCL's ext::oneapi::experimental::printf, C for
// Metal's printf) as a plain C call; the PTX pass gets vprintf from clang and
// the CPU fallback the host's printf. SPIR-V has OpenCL.std's printf, whose
// format (and every %s string) must point to 8-bit integers in the
// UniformConstant storage class: OpenCL C's `constant` string literals.
// Clang's HIP front end puts string literals in global memory and passes
// generic pointers, so two steps make the call what IGC expects:
//  - before LLVM's SPIR-V backend, the strings move to the constant address
//    space (moveStringsToConstantSpace);
//  - after it, each format gets the pointer-to-char type OpenCL.std's printf
//    needs: the backend passes the string's array variable itself, which
//    spirv-val rejects ("expected Format data type to be 8-bit int"), so an
//    OpInBoundsPtrAccessChain to its first character is put before each call
//    (pointPrintfAtChars).
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_DRIVER_SPIRVPRINTF_H
#define SLMC_DRIVER_SPIRVPRINTF_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <vector>

namespace llvm {
class Module;
}

namespace slmc::driver {

/// Gives every call of printf in `M` a format (and string arguments) in the
/// constant address space, copying each constant string it passes there; a
/// format chosen between constant strings (`c ? "a" : "b"`) becomes one call
/// per string. Float arguments that C promoted to double go back to float.
/// False when a format is not a constant string (OpenCL.std's printf cannot
/// take one made at run time), after printing an error naming `SourceName`,
/// or with `FormatNotConstant` a warning that the file gets no SPIR-V image
/// (and setting it).
bool moveStringsToConstantSpace(llvm::Module &M, llvm::StringRef SourceName,
                                bool *FormatNotConstant = nullptr);

/// Rewrites a SPIR-V module's printf instructions so that each string
/// operand that is a UniformConstant array of 8-bit integers is passed as a
/// pointer to its first element. Returns the number of operands rewritten.
unsigned pointPrintfAtChars(std::vector<uint32_t> &Words);

} // namespace slmc::driver

#endif // SLMC_DRIVER_SPIRVPRINTF_H
