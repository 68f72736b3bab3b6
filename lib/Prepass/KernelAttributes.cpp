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

/// One reqd_sub_group_size attribute: the bytes from `sycl`/`intel` to the
/// `(`, and whether it follows a declarator.
struct KernelAttribute {
  size_t Begin, End;
  bool OnType;
};

std::vector<KernelAttribute> findKernelAttributes(StringRef Text) {
  std::vector<KernelAttribute> Found;
  if (!Text.contains("reqd_sub_group_size"))
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
  std::optional<bool> InAttribute;
  for (size_t I = 0; I < Toks.size(); ++I) {
    const Token &T = Toks[I];
    if (!InAttribute) {
      if (T.is(tok::l_square) && I + 1 < Toks.size() && Toks[I + 1].is(tok::l_square)) {
        InAttribute = Before[I] && followsDeclarator(*Before[I]);
        ++I;
      }
      continue;
    }
    if (T.is(tok::r_square) && I + 1 < Toks.size() && Toks[I + 1].is(tok::r_square)) {
      InAttribute.reset();
      ++I;
      continue;
    }
    // sycl::reqd_sub_group_size( or intel::reqd_sub_group_size(
    if (I + 3 >= Toks.size() || !(isIdentifier(T, "sycl") || isIdentifier(T, "intel")) ||
        Toks[I + 1].isNot(tok::coloncolon) || !isIdentifier(Toks[I + 2], "reqd_sub_group_size") ||
        Toks[I + 3].isNot(tok::l_paren))
      continue;
    Found.push_back({offset(T), offset(Toks[I + 3]) + 1, *InAttribute});
    I += 3;
  }
  return Found;
}

} // namespace

std::optional<std::string> rewriteKernelAttributes(StringRef Text) {
  std::vector<KernelAttribute> Found = findKernelAttributes(Text);
  if (Found.empty())
    return std::nullopt;
  std::string Out = Text.str();
  for (const KernelAttribute &A : Found) {
    std::string Spelling =
        A.OnType
            ? "clang::annotate_type(\"" + kRequiredSubGroupSizeTypeAnnotation.str() + "\","
            : "clang::annotate(\"" + kRequiredSubGroupSizeAnnotation.str() + "\",";
    if (Spelling.size() > A.End - A.Begin)
      continue; // cannot happen with the spellings above (26 and 27 bytes)
    Spelling.resize(A.End - A.Begin, ' ');
    Out.replace(A.Begin, A.End - A.Begin, Spelling);
  }
  return Out;
}

std::vector<size_t> findUnrespelledKernelAttributes(StringRef Text) {
  std::vector<size_t> At;
  for (const KernelAttribute &A : findKernelAttributes(Text))
    At.push_back(A.Begin);
  return At;
}

} // namespace slmc
