//===- RawTokens.cpp ------------------------------------------------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "Prepass/RawTokens.h"

#include "clang/Basic/LangOptions.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"

#include <vector>

using namespace clang;

namespace slmc {

namespace {

/// Whether the `<` at Toks[Less] opens a template argument list that a
/// call follows: its matching `>` (nested brackets and parentheses
/// counted, `>>` closing two) comes before the statement ends, with no
/// logical, conditional or comparison operator outside parentheses before
/// it (member templates' arguments are types, sizes and strides), and `(` right after it.
/// `a.select < b;` and `o->select < n && o->select > (0)` are comparisons.
bool opensCalledTemplate(const std::vector<Token> &Toks, size_t Less) {
  int Angles = 0, Parens = 0;
  for (size_t I = Less; I < Toks.size(); ++I) {
    const Token &T = Toks[I];
    switch (T.getKind()) {
    case tok::less:
      if (Parens == 0)
        ++Angles;
      break;
    case tok::greater:
    case tok::greatergreater:
      if (Parens == 0) {
        Angles -= T.is(tok::greater) ? 1 : 2;
        if (Angles <= 0)
          return Angles == 0 && I + 1 < Toks.size() && Toks[I + 1].is(tok::l_paren);
      }
      break;
    case tok::l_paren:
    case tok::l_square:
      ++Parens;
      break;
    case tok::r_paren:
    case tok::r_square:
      if (--Parens < 0)
        return false;
      break;
    case tok::semi:
    case tok::l_brace:
    case tok::r_brace:
      return false;
    case tok::ampamp:
    case tok::pipepipe:
    case tok::question:
    case tok::equal:
    case tok::equalequal:
    case tok::exclaimequal:
    case tok::lessequal:
    case tok::greaterequal:
      if (Parens == 0)
        return false;
      break;
    default:
      break;
    }
  }
  return false;
}

/// For each token, whether it lies in the braces of a declaration that
/// starts with `template` (a function or class template's body, and what
/// is nested in it). A declaration starts after the `;`, `{` or `}` before
/// its `{` (parentheses and brackets skipped).
std::vector<bool> inTemplateBodies(const std::vector<Token> &Toks) {
  std::vector<bool> In(Toks.size(), false);
  std::vector<bool> Scopes; // per open brace: a template's
  for (size_t I = 0; I < Toks.size(); ++I) {
    const bool Outer = !Scopes.empty() && Scopes.back();
    In[I] = Outer;
    if (Toks[I].is(tok::r_brace)) {
      if (!Scopes.empty())
        Scopes.pop_back();
      continue;
    }
    if (!Toks[I].is(tok::l_brace))
      continue;
    bool Templated = Outer;
    int Nest = 0;
    for (size_t J = I; !Templated && J-- > 0;) {
      const Token &T = Toks[J];
      if (T.isOneOf(tok::r_paren, tok::r_square))
        ++Nest;
      else if (T.isOneOf(tok::l_paren, tok::l_square))
        --Nest;
      if (Nest > 0)
        continue;
      if (Nest < 0 || T.isOneOf(tok::semi, tok::l_brace, tok::r_brace))
        break;
      if (T.is(tok::raw_identifier) && T.getRawIdentifier() == "template")
        Templated = J == 0 || Toks[J - 1].isOneOf(tok::semi, tok::l_brace, tok::r_brace) ||
                    Toks[J - 1].is(tok::greater) || Toks[J - 1].is(tok::raw_identifier);
    }
    Scopes.push_back(Templated);
  }
  return In;
}

} // namespace

void forEachRawToken(StringRef Text,
                     llvm::function_ref<void(const Token &, bool InDirective)> F) {
  LangOptions LO;
  LO.CPlusPlus = LO.CPlusPlus11 = LO.CPlusPlus17 = 1;
  Lexer Lex(SourceLocation::getFromRawEncoding(1), LO, Text.begin(), Text.begin(),
            Text.end());
  Lex.SetCommentRetentionState(false);
  bool InDirective = false;
  for (Token T;;) {
    Lex.LexFromRawLexer(T);
    if (T.is(tok::eof))
      break;
    if (T.isAtStartOfLine())
      InDirective = T.is(tok::hash);
    F(T, InDirective);
  }
}

std::optional<std::string> insertTemplateKeywords(StringRef Text,
                                                  llvm::ArrayRef<StringRef> Names,
                                                  bool OnlyInTemplates) {
  if (llvm::none_of(Names, [&](StringRef N) { return Text.contains(N); }))
    return std::nullopt; // the common case, without lexing
  std::vector<Token> Toks;
  forEachRawToken(Text, [&](const Token &T, bool) { Toks.push_back(T); });
  auto IsName = [&](const Token &T) {
    return T.is(tok::raw_identifier) && llvm::is_contained(Names, T.getRawIdentifier());
  };
  std::vector<bool> InTemplate;
  if (OnlyInTemplates)
    InTemplate = inTemplateBodies(Toks);
  std::vector<size_t> Inserts;
  for (size_t I = 1; I + 1 < Toks.size(); ++I)
    if ((!OnlyInTemplates || InTemplate[I]) && IsName(Toks[I]) &&
        Toks[I - 1].isOneOf(tok::period, tok::arrow) &&
        Toks[I + 1].is(tok::less) && opensCalledTemplate(Toks, I + 1))
      Inserts.push_back(rawTokenOffset(Toks[I]));
  if (Inserts.empty())
    return std::nullopt;
  std::string Out;
  Out.reserve(Text.size() + Inserts.size() * 9);
  size_t From = 0;
  for (size_t At : Inserts) {
    Out += Text.slice(From, At);
    Out += "template ";
    From = At;
  }
  Out += Text.substr(From);
  return Out;
}

} // namespace slmc
