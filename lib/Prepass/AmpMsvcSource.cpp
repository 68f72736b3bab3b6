//===- AmpMsvcSource.cpp --------------------------------------------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "Prepass/AmpMsvcSource.h"

#include "Prepass/RawTokens.h"

#include <vector>

using namespace clang;

namespace slmc {

namespace {

/// Whether the `{` at Toks[Brace] opens a lambda's body: `]` before it,
/// or before its parameters, which restrict(amp), mutable, constexpr and
/// noexcept may follow.
bool opensLambda(const std::vector<Token> &Toks, size_t Brace) {
  size_t J = Brace;
  while (J > 0) {
    const Token &T = Toks[--J];
    if (T.is(tok::r_square))
      return true;
    if (T.is(tok::raw_identifier) &&
        (T.getRawIdentifier() == "mutable" || T.getRawIdentifier() == "constexpr" ||
         T.getRawIdentifier() == "noexcept"))
      continue;
    if (!T.is(tok::r_paren))
      return false;
    // Back to the matching `(`: a specifier's arguments, or the parameters.
    for (int Parens = 0; J > 0; --J) {
      Parens += Toks[J].is(tok::r_paren) - Toks[J].is(tok::l_paren);
      if (Parens == 0)
        break;
    }
    if (J == 0)
      return false;
    const Token &Before = Toks[J - 1];
    if (Before.is(tok::raw_identifier) &&
        (Before.getRawIdentifier() == "restrict" || Before.getRawIdentifier() == "noexcept")) {
      --J; // restrict(amp) or noexcept(...): go on before it
      continue;
    }
    return Before.is(tok::r_square);
  }
  return false;
}

/// `void main(...) { ... }` at file scope as `int  main`, each `return;` of
/// its body (not of lambdas in it) as `return 0;`; none if there is no such
/// definition.
std::optional<std::string> mainReturnsInt(llvm::StringRef Text) {
  if (!Text.contains("main"))
    return std::nullopt;
  std::vector<Token> Toks;
  forEachRawToken(Text, [&](const Token &T, bool InDirective) {
    if (!InDirective)
      Toks.push_back(T);
  });
  auto Is = [&](size_t I, llvm::StringRef Name) {
    return I < Toks.size() && Toks[I].is(tok::raw_identifier) &&
           Toks[I].getRawIdentifier() == Name;
  };
  // Replacements: (offset, length, text), in order.
  struct Edit {
    size_t At, Length;
    const char *With;
  };
  std::vector<Edit> Edits;
  int Depth = 0;
  for (size_t I = 0; I < Toks.size(); ++I) {
    if (Toks[I].is(tok::l_brace))
      ++Depth;
    else if (Toks[I].is(tok::r_brace))
      --Depth;
    if (Depth != 0 || !Is(I, "void") || !Is(I + 1, "main") || I + 2 >= Toks.size() ||
        !Toks[I + 2].is(tok::l_paren) ||
        (I > 0 && Toks[I - 1].isOneOf(tok::coloncolon, tok::period, tok::arrow)))
      continue;
    // The parameters, then the body.
    size_t J = I + 2;
    for (int Parens = 0; J < Toks.size(); ++J) {
      Parens += Toks[J].is(tok::l_paren) - Toks[J].is(tok::r_paren);
      if (Parens == 0)
        break;
    }
    if (J + 1 >= Toks.size() || !Toks[J + 1].is(tok::l_brace))
      continue; // a declaration, or something else
    Edits.push_back({rawTokenOffset(Toks[I]), 4, "int "});
    // The braces open in the body, each marked whether it is a lambda's.
    std::vector<bool> Open;
    size_t K = J + 1;
    int InLambda = 0;
    for (; K < Toks.size(); ++K) {
      if (Toks[K].is(tok::l_brace)) {
        Open.push_back(Open.empty() ? false : opensLambda(Toks, K));
        InLambda += Open.back();
      } else if (Toks[K].is(tok::r_brace)) {
        InLambda -= Open.back();
        Open.pop_back();
        if (Open.empty())
          break;
      } else if (!InLambda && Is(K, "return") && K + 1 < Toks.size() &&
                 Toks[K + 1].is(tok::semi)) {
        Edits.push_back({rawTokenOffset(Toks[K + 1]), 0, " 0"});
      }
    }
    I = K;
  }
  if (Edits.empty())
    return std::nullopt;
  std::string Out;
  size_t From = 0;
  for (const Edit &E : Edits) {
    Out += Text.slice(From, E.At);
    Out += E.With;
    From = E.At + E.Length;
  }
  Out += Text.substr(From);
  return Out;
}

} // namespace

bool isAmpSource(llvm::StringRef Text) {
  return Text.contains("amp.h") || Text.contains("restrict(amp") ||
         Text.contains("restrict (amp");
}

std::optional<std::string> rewriteAmpMsvcSource(llvm::StringRef Text) {
  if (!isAmpSource(Text))
    return std::nullopt;
  static constexpr llvm::StringRef MemberTemplates[] = {"tile", "reinterpret_as",
                                                        "view_as"};
  // Only in templates: elsewhere nothing is dependent, and the lines of
  // every tiled launch (`av.extent.tile<16>()`) keep their columns.
  std::optional<std::string> Keywords =
      insertTemplateKeywords(Text, MemberTemplates, /*OnlyInTemplates=*/true);
  std::optional<std::string> Main = mainReturnsInt(Keywords ? *Keywords : Text);
  if (Main)
    return Main;
  return Keywords;
}

} // namespace slmc
