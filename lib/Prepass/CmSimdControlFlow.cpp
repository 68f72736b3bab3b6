//===- CmSimdControlFlow.cpp - C for Metal SIMD control flow blocks -------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "Prepass/CmSimdControlFlow.h"

#include "Prepass/CmMemberTemplates.h"

#include "clang/Basic/TokenKinds.h"
#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <vector>

using namespace clang;

namespace slmc {

namespace {

struct Tok {
  Token T;
  size_t Begin, End; // byte offsets in the text
  bool InDirective;
};

bool isWord(const Tok &K, StringRef W) {
  return K.T.is(tok::raw_identifier) && K.T.getRawIdentifier() == W;
}

bool isSimdBegin(const Tok &K) {
  return isWord(K, "SIMD_IF_BEGIN") || isWord(K, "SIMD_DO_WHILE_BEGIN");
}
bool isSimdEnd(const Tok &K) {
  return isWord(K, "SIMD_IF_END") || isWord(K, "SIMD_DO_WHILE_END");
}
/// The SIMD macros that take a condition in parentheses.
bool takesCondition(const Tok &K) {
  return isWord(K, "SIMD_IF_BEGIN") || isWord(K, "SIMD_ELSEIF") ||
         isWord(K, "SIMD_DO_WHILE_END");
}
bool isSimdMacro(const Tok &K) {
  return K.T.is(tok::raw_identifier) && K.T.getRawIdentifier().starts_with("SIMD_");
}

// Functions whose calls in a block take the block's channels, as
// ::slmc::cm::detail::simd_<name> (cm_simdcf.h).
constexpr llvm::StringLiteral kMaskedCalls[] = {
    "read",          "write",          "cm_sum",           "cm_prod",
    "cm_reduced_min", "cm_reduced_max", "cm_dp4",           "cm_sad2",
    "cm_sada2",      "cm_div",         "cm_pack_mask",     "cm_slm_read",
    "cm_slm_write",  "cm_slm_read4",   "cm_slm_write4",    "cm_slm_read_scaled",
    "cm_slm_write_scaled", "cm_slm_read4_scaled", "cm_slm_write4_scaled",
    "cm_slm_atomic", "cm_slm_block_read", "cm_slm_block_write", "cm_slm_load",
    "write_atomic",  "write_typed_atomic", "read_untyped",   "write_untyped",
    "read_plane",    "write_plane",    "cm_barrier",       "cm_fence",
    "cm_slm_fence"};
// Members that do: merge -> simd_merge, any -> simd_any, all -> simd_all.
constexpr llvm::StringLiteral kMaskedMembers[] = {"merge", "any", "all"};
// Words that start a statement whose head is not an assignment's target.
constexpr llvm::StringLiteral kHeads[] = {"if", "for", "while", "switch"};
constexpr llvm::StringLiteral kPrefixes[] = {"else", "do"};

bool isAssignment(const Token &T) {
  switch (T.getKind()) {
  case tok::equal:
  case tok::plusequal:
  case tok::minusequal:
  case tok::starequal:
  case tok::slashequal:
  case tok::percentequal:
  case tok::ampequal:
  case tok::pipeequal:
  case tok::caretequal:
  case tok::lesslessequal:
  case tok::greatergreaterequal:
    return true;
  default:
    return false;
  }
}

bool opens(const Token &T) { return T.isOneOf(tok::l_paren, tok::l_square); }
bool closes(const Token &T) { return T.isOneOf(tok::r_paren, tok::r_square); }

/// The index of the token closing the bracket at Toks[Open], or none.
std::optional<size_t> matching(const std::vector<Tok> &Toks, size_t Open, size_t Limit) {
  int Depth = 0;
  for (size_t I = Open; I < Limit; ++I) {
    if (opens(Toks[I].T))
      ++Depth;
    else if (closes(Toks[I].T) && --Depth == 0)
      return I;
    else if (Toks[I].T.isOneOf(tok::l_brace, tok::r_brace))
      return std::nullopt;
  }
  return std::nullopt;
}

struct Edit {
  size_t Begin, End; // replaced range (empty: an insertion)
  std::string Text;
  unsigned Order; // among edits at one offset: insertions of one statement
};

class Rewriter {
public:
  Rewriter(StringRef Text, std::vector<Tok> Toks) : Text(Text), Toks(std::move(Toks)) {}

  std::optional<std::string> run() {
    // Which tokens lie in a block: between a BEGIN and its END, outside
    // the SIMD macros' own conditions.
    std::vector<bool> InBlock(Toks.size(), false), InCondition(Toks.size(), false);
    int Depth = 0;
    for (size_t I = 0; I < Toks.size(); ++I) {
      const Tok &K = Toks[I];
      if (K.InDirective)
        continue;
      if (takesCondition(K) && I + 1 < Toks.size() && Toks[I + 1].T.is(tok::l_paren))
        if (std::optional<size_t> Close = matching(Toks, I + 1, Toks.size()))
          for (size_t J = I + 1; J <= *Close; ++J)
            InCondition[J] = true;
      if (isSimdBegin(K))
        ++Depth;
      else if (isSimdEnd(K) && Depth > 0)
        --Depth;
      InBlock[I] = Depth > 0;
    }
    if (llvm::none_of(InBlock, [](bool B) { return B; }))
      return std::nullopt;

    // Statements: runs of tokens between `;` (outside parentheses: a for
    // head holds two), `{`, `}` and the SIMD macros (with their
    // conditions).
    size_t Start = 0;
    int Parens = 0;
    for (size_t I = 0; I <= Toks.size(); ++I) {
      if (I < Toks.size() && !Toks[I].InDirective && !InCondition[I]) {
        if (opens(Toks[I].T))
          ++Parens;
        else if (closes(Toks[I].T) && Parens > 0)
          --Parens;
        else if (Toks[I].T.isOneOf(tok::l_brace, tok::r_brace))
          Parens = 0;
      }
      bool Boundary = I == Toks.size() || Toks[I].InDirective ||
                      Toks[I].T.isOneOf(tok::l_brace, tok::r_brace) ||
                      (Parens == 0 && Toks[I].T.is(tok::semi)) || isSimdMacro(Toks[I]) ||
                      InCondition[I];
      if (!Boundary)
        continue;
      if (I > Start && InBlock[Start])
        statement(Start, I);
      Start = I + 1;
    }
    // Calls, anywhere in a block but in the macros' conditions.
    for (size_t I = 0; I < Toks.size(); ++I)
      if (InBlock[I] && !InCondition[I] && !Toks[I].InDirective)
        call(I);
    if (Edits.empty())
      return std::nullopt;

    llvm::stable_sort(Edits, [](const Edit &A, const Edit &B) {
      return A.Begin != B.Begin ? A.Begin < B.Begin : A.Order < B.Order;
    });
    std::string Out;
    size_t From = 0;
    for (const Edit &E : Edits) {
      if (E.Begin < From)
        continue; // overlaps an earlier replacement: cannot happen, be safe
      Out += Text.slice(From, E.Begin);
      Out += E.Text;
      From = E.End;
    }
    Out += Text.substr(From);
    return Out;
  }

private:
  StringRef Text;
  std::vector<Tok> Toks;
  std::vector<Edit> Edits;
  unsigned Counter = 0;

  void insert(size_t At, std::string S) { Edits.push_back({At, At, std::move(S), Counter++}); }
  void replace(const Tok &K, std::string S) {
    Edits.push_back({K.Begin, K.End, std::move(S), Counter++});
  }

  /// The tokens [B, E) respelled on one line.
  std::string spell(size_t B, size_t E) const {
    std::string S;
    for (size_t I = B; I < E; ++I) {
      if (I > B)
        S += ' ';
      S += Text.slice(Toks[I].Begin, Toks[I].End).str();
    }
    return S;
  }

  /// A statement-level assignment in [B, E): given the block's channels.
  void statement(size_t B, size_t E) {
    // Heads of control statements and `else`/`do` come before the
    // statement proper (`if (c) x = y;`).
    for (;;) {
      if (B < E && llvm::any_of(kPrefixes, [&](StringRef W) { return isWord(Toks[B], W); })) {
        ++B;
        continue;
      }
      if (B + 1 < E && llvm::any_of(kHeads, [&](StringRef W) { return isWord(Toks[B], W); }) &&
          Toks[B + 1].T.is(tok::l_paren)) {
        std::optional<size_t> Close = matching(Toks, B + 1, E);
        if (!Close)
          return;
        B = *Close + 1;
        continue;
      }
      break;
    }
    if (B >= E || Toks[B].T.is(tok::raw_identifier) &&
                      llvm::is_contained({"return", "case", "default", "break", "continue",
                                          "goto", "typedef", "using", "static_assert"},
                                         Toks[B].T.getRawIdentifier()))
      return;
    // The first assignment operator outside brackets.
    int Depth = 0;
    size_t Op = E;
    for (size_t I = B; I < E; ++I) {
      if (opens(Toks[I].T))
        ++Depth;
      else if (closes(Toks[I].T))
        --Depth;
      else if (Depth == 0 && isAssignment(Toks[I].T)) {
        Op = I;
        break;
      }
    }
    if (Op == E || Op == B || Op + 1 == E || isDeclaration(B, Op))
      return;
    insert(Toks[B].Begin, "::slmc::cm::detail::simd_assign(slmc_simd_ctx, ");
    if (Toks[Op].T.is(tok::equal)) {
      replace(Toks[Op], ",");
      insert(Toks[E - 1].End, ")");
    } else {
      // `x op= e` is `x = (x) op (e)`: the target respelled.
      StringRef Spelled = Text.slice(Toks[Op].Begin, Toks[Op].End);
      replace(Toks[Op], ", (" + spell(B, Op) + ") " + Spelled.drop_back().str() + " (");
      insert(Toks[E - 1].End, "))");
    }
  }

  /// Whether [B, Op) declares a variable (`int x`, `vector<T, 8> v`,
  /// `float *p`): its last token a name after a type, not an expression.
  bool isDeclaration(size_t B, size_t Op) const {
    if (Op - B < 2 || Toks[Op - 1].T.isNot(tok::raw_identifier))
      return false;
    if (Toks[B].T.isOneOf(tok::star, tok::amp, tok::l_paren, tok::coloncolon))
      return false;
    const Token &Before = Toks[Op - 2].T;
    return Before.isOneOf(tok::raw_identifier, tok::greater, tok::greatergreater, tok::star,
                          tok::amp, tok::ampamp);
  }

  /// A call of a name that takes the block's channels.
  void call(size_t I) {
    const Tok &K = Toks[I];
    if (K.T.isNot(tok::raw_identifier) || I + 1 >= Toks.size())
      return;
    StringRef Name = K.T.getRawIdentifier();
    bool Member = I > 0 && Toks[I - 1].T.isOneOf(tok::period, tok::arrow);
    bool Free = !Member && !(I > 0 && Toks[I - 1].T.is(tok::coloncolon));
    if (!(Member && llvm::is_contained(kMaskedMembers, Name)) &&
        !(Free && llvm::is_contained(kMaskedCalls, Name)))
      return;
    // Explicit template arguments, then the call's parenthesis.
    size_t Paren = I + 1;
    if (Toks[Paren].T.is(tok::less)) {
      int Angles = 0;
      for (; Paren < Toks.size(); ++Paren) {
        const Token &T = Toks[Paren].T;
        if (T.is(tok::less))
          ++Angles;
        else if (T.isOneOf(tok::greater, tok::greatergreater))
          Angles -= T.is(tok::greater) ? 1 : 2;
        else if (T.isOneOf(tok::semi, tok::l_brace, tok::r_brace))
          return;
        if (Angles <= 0)
          break;
      }
      if (Angles != 0)
        return;
      ++Paren;
    }
    if (Paren >= Toks.size() || Toks[Paren].T.isNot(tok::l_paren))
      return;
    replace(K, Member ? "simd_" + Name.str() : "::slmc::cm::detail::simd_" + Name.str());
    bool NoArguments = Paren + 1 < Toks.size() && Toks[Paren + 1].T.is(tok::r_paren);
    insert(Toks[Paren].End, NoArguments ? "slmc_simd_ctx" : "slmc_simd_ctx, ");
  }
};

} // namespace

std::optional<std::string> maskCmSimdControlFlow(StringRef Text) {
  if (!isCmSource(Text) ||
      (!Text.contains("SIMD_IF_BEGIN") && !Text.contains("SIMD_DO_WHILE_BEGIN")))
    return std::nullopt; // the common case, without lexing
  std::vector<Tok> Toks;
  forEachRawToken(Text, [&](const Token &T, bool InDirective) {
    size_t Begin = rawTokenOffset(T);
    // A token split by a line continuation is left alone (its respelling
    // would carry the newline).
    Toks.push_back({T, Begin, Begin + T.getLength(), InDirective || T.needsCleaning()});
  });
  return Rewriter(Text, std::move(Toks)).run();
}

} // namespace slmc
