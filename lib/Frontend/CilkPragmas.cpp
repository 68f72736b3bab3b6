//===- CilkPragmas.cpp - #pragma offload and #pragma offload_attribute ----===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Intel's offload pragmas leave nothing in a stock Clang AST, so their
// handlers turn them into constructs that do:
//
//   #pragma offload target(gfx) pin(a : length(n))  <statement>
//     -> [[clang::annotate("slmc.cilk.offload", "target(gfx) pin(a : length(n))")]]
//        <statement>
//   #pragma offload_attribute(push, target(gfx)) ... (pop)
//     -> #pragma clang attribute push / pop of the annotation that
//        __declspec(target(gfx)) produces, on every function in between.
//
// The clauses are kept as text; the model builder parses them.
//
//===----------------------------------------------------------------------===//
#include "Frontend/Frontend.h"

#include "clang/Basic/DiagnosticLex.h"
#include "clang/Lex/Preprocessor.h"

using namespace clang;

namespace slmc {
namespace {

/// The rest of the directive as text, tokens separated as written.
std::string readToEndOfDirective(Preprocessor &PP, Token &Tok) {
  std::string Text;
  PP.Lex(Tok);
  while (Tok.isNot(tok::eod) && Tok.isNot(tok::eof)) {
    if (!Text.empty() && (Tok.hasLeadingSpace() || Tok.isAtStartOfLine()))
      Text += ' ';
    Text += PP.getSpelling(Tok);
    PP.Lex(Tok);
  }
  return Text;
}

std::string quoted(llvm::StringRef S) {
  std::string Out = "\"";
  for (char C : S) {
    if (C == '\\' || C == '"')
      Out += '\\';
    Out += C;
  }
  return Out + "\"";
}

/// Makes the parser see `Text` (simple tokens only) next, at `Loc`.
void injectTokens(Preprocessor &PP, SourceLocation Loc,
                  llvm::ArrayRef<std::pair<tok::TokenKind, std::string>> Spec,
                  bool ExpandMacros) {
  auto Toks = std::make_unique<Token[]>(Spec.size());
  for (size_t I = 0; I < Spec.size(); ++I) {
    Token &T = Toks[I];
    T.startToken();
    T.setKind(Spec[I].first);
    T.setLocation(Loc);
    if (Spec[I].first == tok::identifier) {
      IdentifierInfo *II = PP.getIdentifierInfo(Spec[I].second);
      T.setIdentifierInfo(II);
      T.setKind(II->getTokenID());
      T.setLength(Spec[I].second.size());
    } else if (Spec[I].first == tok::string_literal) {
      PP.CreateString(Spec[I].second, T, Loc, Loc);
    } else {
      T.setLength(Spec[I].second.size());
    }
  }
  PP.EnterTokenStream(std::move(Toks), Spec.size(), /*DisableMacroExpansion=*/!ExpandMacros,
                      /*IsReinject=*/false);
}

class OffloadPragmaHandler : public PragmaHandler {
public:
  OffloadPragmaHandler() : PragmaHandler("offload") {}

  void HandlePragma(Preprocessor &PP, PragmaIntroducer Introducer,
                    Token &FirstTok) override {
    Token Tok;
    std::string Clauses = readToEndOfDirective(PP, Tok);
    injectTokens(PP, Introducer.Loc,
                 {{tok::l_square, "["},
                  {tok::l_square, "["},
                  {tok::identifier, "clang"},
                  {tok::coloncolon, "::"},
                  {tok::identifier, "annotate"},
                  {tok::l_paren, "("},
                  {tok::string_literal, quoted("slmc.cilk.offload")},
                  {tok::comma, ","},
                  {tok::string_literal, quoted(Clauses)},
                  {tok::r_paren, ")"},
                  {tok::r_square, "]"},
                  {tok::r_square, "]"}},
                 /*ExpandMacros=*/false);
  }
};

class OffloadAttributePragmaHandler : public PragmaHandler {
public:
  OffloadAttributePragmaHandler() : PragmaHandler("offload_attribute") {}

  void HandlePragma(Preprocessor &PP, PragmaIntroducer Introducer,
                    Token &FirstTok) override {
    Token Tok;
    std::string Text = readToEndOfDirective(PP, Tok);
    llvm::StringRef T(Text);
    std::string Pragma;
    if (T.contains("push") && T.contains("target")) {
      Pragma = "clang attribute push(__attribute__((annotate(\"slmc.cilk.declspec\", "
               "\"target(gfx)\"))), apply_to = function)";
      ++Depth;
    } else if (T.contains("pop")) {
      if (Depth == 0) {
        DiagnosticsEngine &D = PP.getDiagnostics();
        D.Report(Introducer.Loc,
                 D.getCustomDiagID(DiagnosticsEngine::Warning,
                                   "'#pragma offload_attribute(pop)' without a matching push"));
        return;
      }
      --Depth;
      Pragma = "clang attribute pop";
    } else {
      DiagnosticsEngine &D = PP.getDiagnostics();
      D.Report(Introducer.Loc,
               D.getCustomDiagID(DiagnosticsEngine::Warning,
                                 "'#pragma offload_attribute' expects 'push, target(gfx)' "
                                 "or 'pop'; ignored"));
      return;
    }
    injectTokens(PP, Introducer.Loc,
                 {{tok::identifier, "_Pragma"},
                  {tok::l_paren, "("},
                  {tok::string_literal, quoted(Pragma)},
                  {tok::r_paren, ")"}},
                 /*ExpandMacros=*/true);
  }

private:
  unsigned Depth = 0;
};

} // namespace

void registerDialectPragmas(Preprocessor &PP) {
  PP.AddPragmaHandler(new OffloadPragmaHandler());
  PP.AddPragmaHandler(new OffloadAttributePragmaHandler());
}

} // namespace slmc
