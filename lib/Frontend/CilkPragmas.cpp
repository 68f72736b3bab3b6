//===- CilkPragmas.cpp - #pragma offload and #pragma offload_attribute ----===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Intel's offload pragmas leave nothing in a stock Clang AST. Their handlers
// record them for the translation unit (cilk::PragmaRecords); the model
// builder attaches each `#pragma offload` to the statement right after it
// and treats functions declared between `#pragma offload_attribute(push,
// target(gfx))` and `(pop)` as target(gfx). Nothing is injected into the
// token stream, so tools that map tokens back to the source (clangd) see
// the file as written.
//
//===----------------------------------------------------------------------===//
#include "Frontend/Frontend.h"
#include "Model/CilkSyntax.h"

#include "clang/Lex/Preprocessor.h"

using namespace clang;

namespace slmc {
namespace {

/// The rest of the directive as text, tokens separated as written.
std::string readToEndOfDirective(Preprocessor &PP) {
  std::string Text;
  Token Tok;
  PP.LexUnexpandedToken(Tok);
  while (Tok.isNot(tok::eod) && Tok.isNot(tok::eof)) {
    if (!Text.empty() && (Tok.hasLeadingSpace() || Tok.isAtStartOfLine()))
      Text += ' ';
    Text += PP.getSpelling(Tok);
    PP.LexUnexpandedToken(Tok);
  }
  return Text;
}

class OffloadPragmaHandler : public PragmaHandler {
public:
  OffloadPragmaHandler(const SourceManager &SM, std::shared_ptr<cilk::PragmaRecords> Records)
      : PragmaHandler("offload"), SM(SM), Records(std::move(Records)) {}
  // The preprocessor owns its handlers: the records go with it.
  ~OffloadPragmaHandler() override { cilk::forgetPragmaRecords(SM); }

  void HandlePragma(Preprocessor &PP, PragmaIntroducer Introducer, Token &) override {
    Records->Directives.push_back(Introducer.Loc);
    Records->Offloads.push_back({Introducer.Loc, readToEndOfDirective(PP)});
  }

private:
  const SourceManager &SM;
  std::shared_ptr<cilk::PragmaRecords> Records;
};

class OffloadAttributePragmaHandler : public PragmaHandler {
public:
  explicit OffloadAttributePragmaHandler(std::shared_ptr<cilk::PragmaRecords> Records)
      : PragmaHandler("offload_attribute"), Records(std::move(Records)) {}

  void HandlePragma(Preprocessor &PP, PragmaIntroducer Introducer, Token &) override {
    Records->Directives.push_back(Introducer.Loc);
    llvm::StringRef T;
    std::string Text = readToEndOfDirective(PP);
    T = Text;
    // Problems are reported by the checker, through slmc's diagnostics.
    if (T.contains("push") && T.contains("target")) {
      Records->OpenPushes.push_back(Introducer.Loc);
    } else if (T.contains("pop")) {
      if (Records->OpenPushes.empty()) {
        Records->UnmatchedPops.push_back(Introducer.Loc);
        return;
      }
      Records->GfxRegions.push_back(SourceRange(Records->OpenPushes.back(), Introducer.Loc));
      Records->OpenPushes.pop_back();
    } else {
      Records->UnknownAttributePragmas.push_back(Introducer.Loc);
    }
  }

private:
  std::shared_ptr<cilk::PragmaRecords> Records;
};

} // namespace

void registerDialectPragmas(Preprocessor &PP) {
  auto Records = cilk::createPragmaRecords(PP.getSourceManager());
  PP.AddPragmaHandler(new OffloadPragmaHandler(PP.getSourceManager(), Records));
  PP.AddPragmaHandler(new OffloadAttributePragmaHandler(Records));
}

} // namespace slmc
