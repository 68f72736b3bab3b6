//===- KernelAttributes.cpp - SYCL kernel attributes as annotations -------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "Prepass/KernelAttributes.h"

#include "clang/Basic/LangOptions.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ErrorHandling.h"

#include <vector>

using namespace clang;

namespace slmc {

namespace {

bool isIdentifier(const Token &T, StringRef Name) {
  return T.is(tok::raw_identifier) && T.getRawIdentifier() == Name;
}

/// Whether an attribute specifier after `Prev` appertains to a type: it
/// follows a declarator (a lambda's parameter list and its specifiers).
bool followsDeclarator(const Token &Prev) {
  if (Prev.is(tok::r_paren))
    return true;
  for (StringRef Keyword : {"mutable", "constexpr", "consteval", "noexcept", "static"})
    if (isIdentifier(Prev, Keyword))
      return true;
  return false;
}

} // namespace

namespace {

constexpr KernelAttributeKind kKinds[] = {KernelAttributeKind::RequiredSubGroupSize,
                                          KernelAttributeKind::RequiredWorkGroupSize,
                                          KernelAttributeKind::WorkGroupSizeHint};

/// One kernel attribute: the bytes from `sycl`/`intel` to the `(`, what it
/// is, and whether it follows a declarator.
struct KernelAttribute {
  size_t Begin, End;
  KernelAttributeKind Kind;
  bool OnType;
  bool NoArguments; // `name()`: the annotation then takes no comma
};

std::vector<KernelAttribute> findKernelAttributes(StringRef Text) {
  std::vector<KernelAttribute> Found;
  if (llvm::none_of(kKinds, [&](KernelAttributeKind K) {
        return Text.contains(kernelAttributeName(K));
      }))
    return Found; // the common case, without lexing
  LangOptions LO;
  LO.CPlusPlus = LO.CPlusPlus11 = LO.CPlusPlus17 = 1;
  Lexer Lex(SourceLocation::getFromRawEncoding(1), LO, Text.begin(), Text.begin(), Text.end());
  Lex.SetCommentRetentionState(false);
  // Tokens, and for each the token before it that decides the position of
  // an attribute specifier starting there: in code, the previous token that
  // is not in a preprocessor directive (a lambda may be split by #ifdef);
  // in a directive, the previous one in it.
  std::vector<Token> Toks;
  std::vector<std::optional<Token>> Before;
  std::optional<Token> LastCode, LastInDirective;
  bool InDirective = false;
  size_t DirectiveLength = 0;
  for (Token T; !Lex.LexFromRawLexer(T) || T.isNot(tok::eof);) {
    if (T.is(tok::eof))
      break;
    if (T.isAtStartOfLine()) {
      InDirective = T.is(tok::hash);
      DirectiveLength = 0;
      LastInDirective.reset();
    }
    Toks.push_back(T);
    Before.push_back(InDirective ? LastInDirective : LastCode);
    if (InDirective) {
      // In `#define NAME [[...]]` the body is most likely written for a
      // kernel lambda's declarator: count the name as a `)`.
      ++DirectiveLength;
      LastInDirective = T;
      if (DirectiveLength == 3 && isIdentifier(Toks[Toks.size() - 2], "define"))
        LastInDirective->setKind(tok::r_paren);
    } else {
      LastCode = T;
    }
  }
  auto offset = [&](const Token &T) { return T.getLocation().getRawEncoding() - 1; };

  // Inside `[[ ... ]]`: whether the specifier follows a declarator.
  // A specifier right after another (`[[a]] [[b]]`) is in the same place.
  std::optional<bool> InAttribute, LastAttribute;
  size_t LastAttributeEnd = 0;
  for (size_t I = 0; I < Toks.size(); ++I) {
    const Token &T = Toks[I];
    if (!InAttribute) {
      if (T.is(tok::l_square) && I + 1 < Toks.size() && Toks[I + 1].is(tok::l_square)) {
        if (LastAttribute && I == LastAttributeEnd + 1)
          InAttribute = *LastAttribute;
        else
          InAttribute = Before[I] && followsDeclarator(*Before[I]);
        ++I;
      }
      continue;
    }
    if (T.is(tok::r_square) && I + 1 < Toks.size() && Toks[I + 1].is(tok::r_square)) {
      LastAttribute = InAttribute;
      InAttribute.reset();
      LastAttributeEnd = ++I;
      continue;
    }
    // sycl::NAME( or intel::NAME(, and SYCL 1.2.1's cl::reqd_work_group_size(
    // and cl::intel_reqd_sub_group_size(
    if (I + 3 >= Toks.size() || Toks[I + 1].isNot(tok::coloncolon) ||
        Toks[I + 3].isNot(tok::l_paren))
      continue;
    std::optional<KernelAttributeKind> Kind;
    if (isIdentifier(T, "sycl") || isIdentifier(T, "intel")) {
      for (KernelAttributeKind K : kKinds)
        if (isIdentifier(Toks[I + 2], kernelAttributeName(K)))
          Kind = K;
    } else if (isIdentifier(T, "cl")) {
      if (isIdentifier(Toks[I + 2], "reqd_work_group_size"))
        Kind = KernelAttributeKind::RequiredWorkGroupSize;
      else if (isIdentifier(Toks[I + 2], "intel_reqd_sub_group_size"))
        Kind = KernelAttributeKind::RequiredSubGroupSize;
    }
    if (!Kind)
      continue;
    const bool NoArguments = I + 4 < Toks.size() && Toks[I + 4].is(tok::r_paren);
    Found.push_back({offset(T), offset(Toks[I + 3]) + 1, *Kind, *InAttribute, NoArguments});
    I += 3;
  }
  return Found;
}

} // namespace

StringRef kernelAttributeName(KernelAttributeKind Kind) {
  switch (Kind) {
  case KernelAttributeKind::RequiredSubGroupSize:
    return "reqd_sub_group_size";
  case KernelAttributeKind::RequiredWorkGroupSize:
    return "reqd_work_group_size";
  case KernelAttributeKind::WorkGroupSizeHint:
    return "work_group_size_hint";
  }
  llvm_unreachable("unknown kernel attribute");
}

// A respelling must fit in the spelling it replaces: `sycl::` and
// `intel::` ones (26 bytes and more) take `clang::annotate("slmc.sg",` (26)
// and `clang::annotate_type("sg",` (26); `cl::reqd_work_group_size(` (25)
// takes the short names, `clang::annotate("s.w",` (22) and
// `clang::annotate_type("w",` (25).
StringRef kernelAttributeAnnotation(KernelAttributeKind Kind, bool OnType, bool Short) {
  switch (Kind) {
  case KernelAttributeKind::RequiredSubGroupSize:
    return Short ? (OnType ? "s" : "s.s") : (OnType ? "sg" : "slmc.sg");
  case KernelAttributeKind::RequiredWorkGroupSize:
    return Short ? (OnType ? "w" : "s.w") : (OnType ? "wg" : "slmc.wg");
  case KernelAttributeKind::WorkGroupSizeHint:
    return Short ? (OnType ? "h" : "s.h") : (OnType ? "wh" : "slmc.wh");
  }
  llvm_unreachable("unknown kernel attribute");
}

std::optional<std::string> rewriteKernelAttributes(StringRef Text) {
  std::vector<KernelAttribute> Found = findKernelAttributes(Text);
  if (Found.empty())
    return std::nullopt;
  std::string Out = Text.str();
  for (const KernelAttribute &A : Found) {
    auto spell = [&](bool Short) {
      return (A.OnType ? "clang::annotate_type(\"" : "clang::annotate(\"") +
             kernelAttributeAnnotation(A.Kind, A.OnType, Short).str() +
             (A.NoArguments ? "\"" : "\",");
    };
    std::string Spelling = spell(false);
    if (Spelling.size() > A.End - A.Begin)
      Spelling = spell(true);
    if (Spelling.size() > A.End - A.Begin)
      continue; // cannot happen with the spellings above
    Spelling.resize(A.End - A.Begin, ' ');
    Out.replace(A.Begin, A.End - A.Begin, Spelling);
  }
  return Out;
}

std::vector<std::pair<size_t, KernelAttributeKind>>
findUnrespelledKernelAttributes(StringRef Text) {
  std::vector<std::pair<size_t, KernelAttributeKind>> At;
  for (const KernelAttribute &A : findKernelAttributes(Text))
    At.push_back({A.Begin, A.Kind});
  return At;
}

} // namespace slmc
