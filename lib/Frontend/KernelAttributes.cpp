//===- KernelAttributes.cpp - SYCL kernel attributes as annotations -------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "Frontend/KernelAttributes.h"

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

std::optional<std::string> rewriteKernelAttributes(StringRef Text) {
  if (!Text.contains("reqd_sub_group_size"))
    return std::nullopt; // the common case, without lexing
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

  std::string Out = Text.str();
  bool Changed = false;
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
    size_t Begin = offset(T), End = offset(Toks[I + 3]) + 1;
    std::string Spelling =
        *InAttribute
            ? "clang::annotate_type(\"" + kRequiredSubGroupSizeTypeAnnotation.str() + "\","
            : "clang::annotate(\"" + kRequiredSubGroupSizeAnnotation.str() + "\",";
    if (Spelling.size() > End - Begin)
      continue; // cannot happen with the spellings above (26 and 27 bytes)
    Spelling.resize(End - Begin, ' ');
    Out.replace(Begin, End - Begin, Spelling);
    Changed = true;
    I += 3;
  }
  if (!Changed)
    return std::nullopt;
  return Out;
}

} // namespace slmc
