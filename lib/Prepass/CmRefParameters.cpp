//===- CmRefParameters.cpp - C for Metal values bound to _ref parameters --===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "Prepass/CmRefParameters.h"

#include "Prepass/CmMemberTemplates.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <limits>
#include <map>
#include <vector>

using namespace clang;

namespace slmc {

namespace {

/// The raw tokens of a file, without preprocessor directive lines (a
/// `#define` body is not declarations, and its braces do not nest).
std::vector<Token> lexDeclarations(StringRef Text) {
  std::vector<Token> Toks;
  forEachRawToken(Text, [&](const Token &T, bool InDirective) {
    if (!InDirective)
      Toks.push_back(T);
  });
  return Toks;
}

bool isWord(const Token &T, StringRef W) {
  return T.is(tok::raw_identifier) && T.getRawIdentifier() == W;
}

bool opens(const Token &T) {
  return T.isOneOf(tok::l_paren, tok::l_square, tok::l_brace);
}
bool closes(const Token &T) {
  return T.isOneOf(tok::r_paren, tok::r_square, tok::r_brace);
}

/// The index of the token that closes the bracket opened at Toks[Open]
/// (`(`, `[`, `{`), or none.
std::optional<size_t> matching(const std::vector<Token> &Toks, size_t Open) {
  int Depth = 0;
  for (size_t I = Open; I < Toks.size(); ++I) {
    if (opens(Toks[I]))
      ++Depth;
    else if (closes(Toks[I]) && --Depth == 0)
      return I;
  }
  return std::nullopt;
}

/// The index of the `>` that closes the template argument or parameter
/// list opened at Toks[Less] (brackets inside counted, `>>` closing two),
/// or none.
std::optional<size_t> matchingAngle(const std::vector<Token> &Toks, size_t Less) {
  int Angles = 0, Brackets = 0;
  for (size_t I = Less; I < Toks.size(); ++I) {
    const Token &T = Toks[I];
    if (opens(T))
      ++Brackets;
    else if (closes(T)) {
      if (--Brackets < 0)
        return std::nullopt;
    } else if (T.is(tok::semi))
      return std::nullopt;
    else if (Brackets == 0 && T.is(tok::less))
      ++Angles;
    else if (Brackets == 0 && T.isOneOf(tok::greater, tok::greatergreater)) {
      Angles -= T.is(tok::greater) ? 1 : 2;
      if (Angles == 0)
        return I;
      if (Angles < 0)
        return std::nullopt;
    }
  }
  return std::nullopt;
}

/// The most parameters a forwarding overload has (<cm/cm_vector.h> defines
/// SLMC_CM_REF_OVERLOAD_1 .. _8).
constexpr size_t kMaxArity = 8;

/// A namespace-scope function template with at least one by-value
/// vector_ref / matrix_ref parameter.
struct Candidate {
  std::string Scope, Name;
  std::vector<bool> RefAt; // one per parameter
  size_t MinArity;         // parameters without a default argument
  size_t End;              // just after the body's `}`
};

// Words after which a parenthesised group belongs to the declaration's
// specifiers, not its parameters.
constexpr llvm::StringLiteral kSpecifierCalls[] = {
    "__attribute__", "__attribute", "__declspec", "alignas", "decltype",
    "noexcept",      "_Pragma",     "requires",   "__asm__", "asm"};
// Words that make the template something other than a free function.
constexpr llvm::StringLiteral kNotAFunction[] = {
    "class", "struct", "union", "enum", "using", "concept", "operator", "friend",
    "_GENX_MAIN_"};

/// Whether the parameter Toks[B, E) is `[const] [::][slmc::][cm::]
/// vector_ref<...> | matrix_ref<...> [const] [name] [= default]`.
bool isRefByValue(const std::vector<Token> &Toks, size_t B, size_t E) {
  size_t I = B;
  auto Skip = [&](StringRef W) {
    if (I < E && isWord(Toks[I], W))
      ++I;
  };
  Skip("const");
  if (I < E && Toks[I].is(tok::coloncolon))
    ++I;
  for (StringRef Q : {"slmc", "cm"})
    if (I + 1 < E && isWord(Toks[I], Q) && Toks[I + 1].is(tok::coloncolon))
      I += 2;
  if (I + 1 >= E || !(isWord(Toks[I], "vector_ref") || isWord(Toks[I], "matrix_ref")) ||
      Toks[I + 1].isNot(tok::less))
    return false;
  std::optional<size_t> Close = matchingAngle(Toks, I + 1);
  if (!Close || *Close >= E)
    return false;
  I = *Close + 1;
  Skip("const");
  if (I < E && Toks[I].is(tok::raw_identifier))
    ++I;
  return I == E || Toks[I].is(tok::equal);
}

/// Reads the function template whose `template` keyword is Toks[At].
std::optional<Candidate> readFunctionTemplate(const std::vector<Token> &Toks, size_t At) {
  if (At + 1 >= Toks.size() || Toks[At + 1].isNot(tok::less))
    return std::nullopt; // an explicit instantiation
  std::optional<size_t> HeadEnd = matchingAngle(Toks, At + 1);
  if (!HeadEnd || *HeadEnd == At + 2 || *HeadEnd + 1 >= Toks.size() ||
      isWord(Toks[*HeadEnd + 1], "template"))
    return std::nullopt; // `template <>`, or a member of a class template
  // The declarator's `(`: the first one not after a specifier word.
  size_t I = *HeadEnd + 1, LParen = 0;
  for (; I < Toks.size(); ++I) {
    const Token &T = Toks[I];
    if (T.isOneOf(tok::semi, tok::l_brace, tok::r_brace, tok::equal))
      return std::nullopt;
    if (T.is(tok::raw_identifier) &&
        llvm::is_contained(kNotAFunction, T.getRawIdentifier()))
      return std::nullopt;
    if (T.is(tok::less)) { // a template argument list in the return type
      std::optional<size_t> Close = matchingAngle(Toks, I);
      if (!Close)
        return std::nullopt;
      I = *Close;
      continue;
    }
    if (T.is(tok::l_square)) { // [[attributes]]
      std::optional<size_t> Close = matching(Toks, I);
      if (!Close)
        return std::nullopt;
      I = *Close;
      continue;
    }
    if (T.is(tok::l_paren)) {
      if (I > 0 && Toks[I - 1].is(tok::raw_identifier) &&
          !llvm::is_contained(kSpecifierCalls, Toks[I - 1].getRawIdentifier())) {
        LParen = I;
        break;
      }
      std::optional<size_t> Close = matching(Toks, I);
      if (!Close)
        return std::nullopt;
      I = *Close;
    }
  }
  if (LParen == 0 || (LParen >= 2 && Toks[LParen - 2].isOneOf(tok::coloncolon, tok::tilde)))
    return std::nullopt; // no declarator, or a member defined out of its class
  if (Toks[LParen - 1].needsCleaning())
    return std::nullopt; // a name split by a line continuation (its raw text
                         // holds the newline, which the overload must not copy)
  std::optional<size_t> RParen = matching(Toks, LParen);
  if (!RParen || *RParen == LParen + 1)
    return std::nullopt;

  Candidate C;
  C.Name = Toks[LParen - 1].getRawIdentifier().str();
  // The parameters, split at top-level commas.
  C.MinArity = std::numeric_limits<size_t>::max();
  size_t Begin = LParen + 1;
  int Depth = 0, Angles = 0;
  for (size_t J = LParen + 1; J <= *RParen; ++J) {
    const Token &T = Toks[J];
    bool Last = J == *RParen;
    if (!Last && opens(T))
      ++Depth;
    else if (!Last && closes(T))
      --Depth;
    else if (Depth == 0 && T.is(tok::less))
      ++Angles;
    else if (Depth == 0 && Angles > 0 && T.isOneOf(tok::greater, tok::greatergreater))
      Angles -= T.is(tok::greater) ? 1 : 2;
    if (Depth == 0 && T.is(tok::ellipsis))
      return std::nullopt; // a parameter pack or C varargs
    if (Depth == 0 && Angles <= 0 && T.is(tok::equal) && C.MinArity > C.RefAt.size())
      C.MinArity = C.RefAt.size();
    if (Last || (Depth == 0 && Angles <= 0 && T.is(tok::comma))) {
      if (Begin == J)
        return std::nullopt;
      C.RefAt.push_back(isRefByValue(Toks, Begin, J));
      Begin = J + 1;
      Angles = 0;
    }
  }
  if (C.RefAt.size() == 1 && *RParen == LParen + 2 && isWord(Toks[LParen + 1], "void"))
    return std::nullopt;
  C.MinArity = std::min(C.MinArity, C.RefAt.size());
  if (llvm::none_of(C.RefAt, [](bool B) { return B; }))
    return std::nullopt;
  // The body: a declaration without one (or `= delete`) adds nothing.
  for (I = *RParen + 1; I < Toks.size(); ++I) {
    const Token &T = Toks[I];
    if (T.isOneOf(tok::semi, tok::equal, tok::colon, tok::r_brace) || isWord(T, "try"))
      return std::nullopt;
    if (T.is(tok::l_paren) || T.is(tok::l_square)) {
      std::optional<size_t> Close = matching(Toks, I);
      if (!Close)
        return std::nullopt;
      I = *Close;
      continue;
    }
    if (T.is(tok::l_brace)) {
      std::optional<size_t> Close = matching(Toks, I);
      if (!Close)
        return std::nullopt;
      C.End = rawTokenOffset(Toks[*Close]) + 1;
      return C;
    }
  }
  return std::nullopt;
}

/// The scope a `{` at Toks[At] opens: a namespace's name, "" for the
/// global scope continued (`extern "C++" {`), none for anything else.
std::optional<std::string> namespaceOpenedAt(const std::vector<Token> &Toks, size_t At) {
  if (At >= 2 && Toks[At - 1].is(tok::string_literal) && isWord(Toks[At - 2], "extern"))
    return std::string();
  size_t I = At;
  while (I > 0 && (Toks[I - 1].isOneOf(tok::raw_identifier, tok::coloncolon)) &&
         !isWord(Toks[I - 1], "namespace"))
    --I;
  if (I == 0 || !isWord(Toks[I - 1], "namespace"))
    return std::nullopt;
  std::string Name;
  for (size_t J = I; J < At; ++J)
    if (!isWord(Toks[J], "inline"))
      Name += Toks[J].is(tok::coloncolon) ? "::" : Toks[J].getRawIdentifier().str();
  return Name.empty() ? std::string("(anonymous)") : Name;
}

/// The forwarding overload: a macro of <cm/cm_vector.h>, which keeps the
/// line short where a diagnostic shows it.
std::string forwarder(StringRef Name, const std::vector<bool> &RefAt) {
  std::string Out = " SLMC_CM_REF_OVERLOAD_" + std::to_string(RefAt.size()) + "(" + Name.str();
  for (bool Ref : RefAt)
    Out += Ref ? ", 1" : ", 0";
  return Out + ")";
}

} // namespace

std::optional<std::string> addCmRefForwarders(StringRef Text) {
  if (!isCmSource(Text) || (!Text.contains("vector_ref") && !Text.contains("matrix_ref")))
    return std::nullopt; // the common case, without lexing
  std::vector<Token> Toks = lexDeclarations(Text);
  std::vector<Candidate> Found;
  std::vector<std::optional<std::string>> Scopes; // none: not a namespace
  for (size_t I = 0; I < Toks.size(); ++I) {
    const Token &T = Toks[I];
    if (T.is(tok::l_brace))
      Scopes.push_back(namespaceOpenedAt(Toks, I));
    else if (T.is(tok::r_brace) && !Scopes.empty())
      Scopes.pop_back();
    else if (isWord(T, "template") &&
             llvm::all_of(Scopes, [](const auto &S) { return S.has_value(); })) {
      if (std::optional<Candidate> C = readFunctionTemplate(Toks, I)) {
        for (const auto &S : Scopes)
          C->Scope += *S + "::";
        Found.push_back(std::move(*C));
      }
    }
  }
  if (Found.empty())
    return std::nullopt;

  // One forwarder per scope, name and arity, after the last overload.
  struct Group {
    std::string Name;
    std::vector<bool> RefAt;
    size_t End = 0;
  };
  std::map<std::tuple<std::string, std::string, size_t>, Group> Groups;
  for (const Candidate &C : Found)
    for (size_t Arity = C.MinArity; Arity <= std::min(C.RefAt.size(), kMaxArity); ++Arity) {
      if (std::find(C.RefAt.begin(), C.RefAt.begin() + Arity, true) ==
          C.RefAt.begin() + Arity)
        continue;
      Group &G = Groups[{C.Scope, C.Name, Arity}];
      G.Name = C.Name;
      G.RefAt.resize(Arity);
      for (size_t K = 0; K < Arity; ++K)
        G.RefAt[K] = G.RefAt[K] || C.RefAt[K];
      G.End = std::max(G.End, C.End);
    }
  std::vector<std::pair<size_t, std::string>> Inserts;
  for (const auto &[Key, G] : Groups)
    Inserts.emplace_back(G.End, forwarder(G.Name, G.RefAt));
  llvm::stable_sort(Inserts, [](const auto &A, const auto &B) { return A.first < B.first; });
  std::string Out;
  size_t From = 0;
  for (const auto &[At, Code] : Inserts) {
    Out += Text.slice(From, At);
    Out += Code;
    From = At;
  }
  Out += Text.substr(From);
  return Out;
}

} // namespace slmc
