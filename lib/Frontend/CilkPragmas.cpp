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

/// Intel's loop and code-generation hints (`#pragma simd`, `novector`,
/// `ivdep`, `vector always`, `loop_count(n)`, ...), which ICC's Cilk Plus
/// programs put around host and offloaded loops alike. Each only allows or
/// asks for an optimisation; running the loop as written is always a
/// correct way to honour it, so they are accepted without the
/// unknown-pragma warning and otherwise ignored. (`#pragma unroll`,
/// `nounroll` and `unroll_and_jam` are Clang's own and keep their meaning.)
class IntelHintPragmaHandler : public PragmaHandler {
public:
  explicit IntelHintPragmaHandler(llvm::StringRef Name) : PragmaHandler(Name) {}
  void HandlePragma(Preprocessor &PP, PragmaIntroducer, Token &) override {
    readToEndOfDirective(PP);
  }
};

} // namespace

void registerDialectPragmas(Preprocessor &PP) {
  auto Records = cilk::createPragmaRecords(PP.getSourceManager());
  PP.AddPragmaHandler(new OffloadPragmaHandler(PP.getSourceManager(), Records));
  PP.AddPragmaHandler(new OffloadAttributePragmaHandler(Records));
  for (const char *Hint : {"simd", "novector", "vector", "ivdep", "loop_count",
                           "distribute_point", "nofusion", "forceinline", "noinline",
                           "inline", "prefetch", "noprefetch", "parallel", "noparallel"})
    PP.AddPragmaHandler(new IntelHintPragmaHandler(Hint));
}

} // namespace slmc
