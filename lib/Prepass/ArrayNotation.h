//===- ArrayNotation.h - Cilk Plus array notation pre-pass ------*- C++ -*-===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Cilk Plus array notation (`A[lo:len]`, `A[lo:len:stride]`, `A[:]`,
// `__sec_reduce_*`) is not C++ and no Clang plugin can parse it, so slmc++
// rewrites it in the source text before any pass sees the file. The pass
// works on tokens of Clang's raw lexer (comments, string and character
// literals are never touched) and keeps every token on its line, so
// diagnostics of later passes point into the user's file.
//
// Statements whose operands have rank > 0 become loop nests on the same
// line(s), one loop per dimension:
//
//   a[:][:] = b[x:N][y:M] * 2;
//     -> [[clang::annotate("slmc.cilk.section")]] for (long __sec_i0 = 0;
//          __sec_i0 < (N); ++__sec_i0) [[clang::annotate("slmc.cilk.section")]]
//          for (long __sec_i1 = 0; __sec_i1 < (M); ++__sec_i1)
//          { a[__sec_i0][__sec_i1] = b[(x) + __sec_i0][(y) + __sec_i1] * 2; }
//
// `e[lo:len:stride]` in dimension k becomes `e[(lo) + __sec_ik * (stride)]`
// (`e[(lo) + __sec_ik]` without a stride, `e[__sec_ik]` for `e[:]`). The
// trip count of dimension k is the length of the first section of that
// dimension that has one, else `::slmc::cilk::extent_of(<base>)` of the
// first `[:]` (slmc/cilk.h; it rejects pointers at compile time), the
// sections of the base written `[0]` so that no bound depends on an outer
// index (`a[:][:]`: `extent_of(a)`, `extent_of(a[0])`). Bounds,
// lengths and strides are copied as written and so evaluated again for
// every element, which is what Cilk Plus means for side-effect-free bounds.
//
// `__sec_reduce_{add,mul,min,max}(e)` and `__sec_reduce_{all,any}_{zero,
// nonzero}(e)` become an immediately invoked lambda (valid in host code and
// in CUDA/HIP device code, where Clang makes lambdas host-device):
//
//   [&]() { auto __sec_e = [&](long __sec_i0) { return <e at i0>; };
//           auto __sec_acc = decltype(__sec_e(0))(0);
//           [[clang::annotate("slmc.cilk.reduction")]] for (long __sec_i0 = 0;
//             __sec_i0 < (LEN0); ++__sec_i0) __sec_acc += __sec_e(__sec_i0);
//           return __sec_acc; }()
//
// min/max start from the first element (a flag marks it, so an empty
// section reads nothing and gives a value-initialised result). Reductions
// nested in another rewritten construct use names `__sec_<n>_...`, n
// counting per file. `__sec_implicit_index(k)` becomes the index of
// dimension k.
//
// The GNU spelling `__attribute__((target(gfx)))` (and `gfx_kernel`), which
// Clang's own `target` attribute rejects, becomes
// `__attribute__((annotate("slmc.cilk.declspec", "target(gfx)")))`: what the
// prelude makes of `__declspec(target(gfx))`.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_PREPASS_ARRAYNOTATION_H
#define SLMC_PREPASS_ARRAYNOTATION_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
}

namespace slmc {

/// An error of the pre-pass, at a position of the original text.
struct PrepassDiagnostic {
  unsigned Line = 0;   // 1-based
  unsigned Column = 0; // 1-based, in bytes (as Clang counts)
  std::string Message;
};

struct ArrayNotationResult {
  /// The rewritten text; the input unchanged when `Changed` is false or
  /// there are diagnostics.
  std::string Text;
  /// Whether anything was rewritten (array notation or the GNU attribute).
  bool Changed = false;
  /// Whether the text calls ::slmc::cilk::extent_of (for `[:]`), which
  /// <slmc/cilk.h> declares.
  bool NeedsCilkHeader = false;
  /// Errors; a file with any must not be compiled.
  std::vector<PrepassDiagnostic> Diags;
  /// Where the first array notation is (the `[` of a section or a
  /// `__sec_` name; 1-based); 0 when the text has none.
  unsigned NotationLine = 0, NotationColumn = 0;
};

/// Rewrites Cilk Plus array notation and `__attribute__((target(gfx...)))`
/// in one C++ source file. Linear in the size of the text; never fails on
/// malformed input (unbalanced brackets leave the text alone, with an error
/// when array notation was seen).
ArrayNotationResult rewriteArrayNotation(llvm::StringRef Source);

/// Prints `Diags` as Clang does: `file:line:col: error: message`, the
/// source line and a caret; then "N error(s) generated." if any.
void printPrepassDiagnostics(llvm::raw_ostream &OS, llvm::StringRef FileName,
                             llvm::StringRef Source,
                             llvm::ArrayRef<PrepassDiagnostic> Diags);

} // namespace slmc

#endif // SLMC_PREPASS_ARRAYNOTATION_H
