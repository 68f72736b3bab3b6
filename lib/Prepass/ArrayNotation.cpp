//===- ArrayNotation.cpp - Cilk Plus array notation pre-pass --------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The pass, in linear steps over the raw tokens of the file:
//   1. lex (preprocessor directive lines are kept apart: array notation in
//      them is not rewritten, the GNU gfx attribute is; `#if 0` code is not
//      read, and if the brackets do not balance otherwise, `#elif`/`#else`
//      branches are not read either);
//   2. match brackets; a `[...]` holding a `:` at its own level that no `?`
//      claims is an array section;
//   3. find `__sec_reduce_*` calls and which reduction (if any) and brace
//      encloses every token;
//   4. group sections into postfix chains (`b[x:n][y:m].f`), whose rank is
//      their number of sections and whose k-th section is dimension k;
//   5. find the expression statement of each chain outside a reduction;
//   6. check ranks and literal lengths of each statement and reduction;
//   7. render statements as loop nests and reductions as lambdas.
//
//===----------------------------------------------------------------------===//
#include "Prepass/ArrayNotation.h"

#include "clang/Basic/LangOptions.h"
#include "clang/Basic/SourceLocation.h"
#include "clang/Basic/TokenKinds.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/Token.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>

using namespace clang;
using llvm::StringRef;

namespace slmc {
namespace {

struct Tok {
  tok::TokenKind Kind;
  unsigned Begin, End; // byte offsets
  bool NeedsCleaning;
};

enum class RedKind { Add, Mul, Min, Max, AllZero, AllNonzero, AnyZero, AnyNonzero };

struct Section {
  int LSq, RSq;
  int Colon1 = -1, Colon2 = -1;
  bool Whole = false; // e[:]
  int Chain = -1;
  unsigned Dim = 0;
};

/// A postfix expression with sections: `base[...]...`.
struct Chain {
  int Start;                 // first token of the base
  std::vector<int> Sections; // in source order; the k-th is dimension k
  int Owner = -1;            // enclosing reduction, -1: a statement
  int Stmt = -1;
};

struct Reduction {
  int Name, LParen, RParen;
  RedKind Kind;
  std::vector<int> Chains;
  unsigned Rank = 0;
  bool Unsupported = false; // already reported
};

struct Statement {
  int First, Last; // Last: the ';'
  std::vector<int> Chains;
  unsigned Rank = 0;
};

/// Index variables of the construct being rendered, one per dimension.
struct Scope {
  std::vector<std::string> Idx;
  int Owner; // reduction index, or -1 for a statement
  /// Rendering the base of `e[:]` for extent_of: only its type matters, so
  /// sections become `[0]` and the bound refers to no index variable (a
  /// loop nest may then be collapsed into one iteration space).
  bool TypeOnly = false;
};

constexpr const char *SectionAttr = "[[clang::annotate(\"slmc.cilk.section\")]] ";
constexpr const char *ReductionAttr = "[[clang::annotate(\"slmc.cilk.reduction\")]] ";

bool isOpener(tok::TokenKind K) {
  return K == tok::l_paren || K == tok::l_square || K == tok::l_brace;
}
bool isCloser(tok::TokenKind K) {
  return K == tok::r_paren || K == tok::r_square || K == tok::r_brace;
}
tok::TokenKind closerOf(tok::TokenKind K) {
  return K == tok::l_paren ? tok::r_paren : K == tok::l_square ? tok::r_square : tok::r_brace;
}

bool isAssignment(tok::TokenKind K) {
  switch (K) {
  case tok::equal: case tok::plusequal: case tok::minusequal: case tok::starequal:
  case tok::slashequal: case tok::percentequal: case tok::ampequal: case tok::pipeequal:
  case tok::caretequal: case tok::lesslessequal: case tok::greatergreaterequal:
    return true;
  default:
    return false;
  }
}

/// Tokens after a `}` that show the braces were part of an expression
/// (a lambda, `T{...}`) rather than a block ending the previous statement.
bool continuesExpression(tok::TokenKind K) {
  switch (K) {
  case tok::period: case tok::arrow: case tok::l_square: case tok::comma:
  case tok::r_paren: case tok::r_square: case tok::question: case tok::colon:
  case tok::plus: case tok::minus: case tok::star: case tok::slash: case tok::percent:
  case tok::amp: case tok::ampamp: case tok::pipe: case tok::pipepipe: case tok::caret:
  case tok::less: case tok::lessless: case tok::lessequal: case tok::greater:
  case tok::greatergreater: case tok::greaterequal: case tok::equalequal:
  case tok::exclaimequal: case tok::spaceship: case tok::plusplus: case tok::minusminus:
  case tok::periodstar: case tok::arrowstar:
    return true;
  default:
    return isAssignment(K);
  }
}

class Prepass {
public:
  explicit Prepass(StringRef Source) : Src(Source.str()) {}
  ArrayNotationResult run();

private:
  // ---- steps
  void lex();
  void selectTokens(bool Fallback);
  void findGnuAttributes();
  void matchBrackets();
  void findReductions();
  void scanEnclosing();
  void buildChains();
  void buildStatements();
  void checkStatement(Statement &S);
  void checkReduction(Reduction &R);
  bool checkRanks(const std::vector<int> &Chains, unsigned &Rank, int AssignAt,
                  int RedName);
  void checkLengths(const std::vector<int> &Chains, unsigned Rank);

  // ---- helpers
  StringRef text(int I) const {
    return StringRef(Src).slice(Toks[I].Begin, Toks[I].End);
  }
  bool isIdent(int I, StringRef S) const {
    return I >= 0 && I < int(Toks.size()) && Toks[I].Kind == tok::raw_identifier &&
           text(I) == S;
  }
  bool isControlParen(int Open) const;
  bool isStopKeyword(int I) const;
  bool isLambdaBody(int Brace) const;
  /// In a function body (or a block, or a lambda).
  bool isLocal(int I) const {
    int B = EncBrace[I];
    return B >= 0 && BraceKind[B] == Local;
  }
  /// At namespace scope, where lambdas may not have a capture-default.
  bool isNamespaceScope(int I) const {
    int B = EncBrace[I];
    return B < 0 || BraceKind[B] == Namespace;
  }
  int chainStart(int LSq) const;
  int findStatement(int T, int &Last);
  void error(unsigned Offset, std::string Message) {
    Errors.push_back({Offset, std::move(Message)});
  }
  void errorAt(int TokIdx, std::string Message) {
    error(Toks[TokIdx].Begin, std::move(Message));
  }
  unsigned newlines(unsigned Begin, unsigned End) const {
    return unsigned(std::count(Src.begin() + Begin, Src.begin() + End, '\n'));
  }
  bool directiveIn(unsigned Begin, unsigned End, unsigned &At) const;

  // ---- rendering
  std::string render(int First, int Last, const Scope *S, bool InPlace);
  std::string renderSection(int Sec, const Scope *S);
  std::string renderReduction(int R);
  std::string renderStatement(const Statement &S);
  std::vector<std::string> lengths(const std::vector<int> &Chains, unsigned Rank,
                                   const Scope &S);
  std::string tokenText(int I, bool InPlace) const;

  std::string Src;
  std::vector<Tok> All;  // every token, directives included
  enum : char { InDirectiveFlag = 1, ExclMainFlag = 2, ExclFallbackFlag = 4 };
  std::vector<char> AllFlags; // for each token in All
  std::vector<Tok> Toks;      // the code tokens read (see selectTokens)
  std::vector<unsigned> DirectiveStarts;
  std::map<unsigned, std::pair<unsigned, std::string>> AttrRepl; // Begin -> (End, text)

  std::vector<int> Match;
  bool Malformed = false;
  int MalformedAt = -1;
  bool SawSectionColon = false;
  unsigned FirstNotation = ~0u; // offset of the first section or __sec_ name

  std::vector<Section> Sections;
  std::vector<int> SecAt; // token -> section whose '[' it is
  std::vector<Reduction> Reductions;
  std::vector<int> RedAt;      // token -> reduction whose name it is
  std::vector<int> RedOfParen; // token -> reduction whose '(' it is
  std::vector<int> ImplAt;     // token -> dimension of __sec_implicit_index
  std::vector<int> ImplEnd;    // its ')'
  std::vector<int> EncRed, EncBrace;
  enum : char { Local, Namespace, Class };
  std::vector<char> BraceKind; // for each '{'

  std::vector<Chain> Chains;
  std::vector<Statement> Statements;

  struct Error {
    unsigned Offset;
    std::string Message;
  };
  std::vector<Error> Errors;
  int RenderDepth = 0;
  unsigned NestedCounter = 0;
  bool NeedsCilkHeader = false;
};

// ---- 1. lexing ------------------------------------------------------------

void Prepass::lex() {
  LangOptions LO;
  LO.CPlusPlus = LO.CPlusPlus11 = LO.CPlusPlus14 = LO.CPlusPlus17 = true;
  LO.LineComment = LO.Digraphs = LO.Bool = LO.WChar = true;
  LO.DollarIdents = LO.GNUMode = true;
  const char *B = Src.c_str(); // NUL-terminated, as the lexer needs
  SourceLocation FileLoc = SourceLocation::getFromRawEncoding(1);
  Lexer L(FileLoc, LO, B, B, B + Src.size());
  Token T;
  // Conditional directives: `#if 0` regions are never read; the fallback
  // reading (for files whose brackets only balance that way) also skips
  // every `#elif`/`#else` branch.
  struct Cond {
    bool Zero = false, Else = false;
  };
  std::vector<Cond> Conds;
  int Directive = -1; // index in All of the '#' of the current directive
  auto EndDirective = [&](size_t End) {
    if (Directive < 0 || size_t(Directive) + 1 >= End)
      return;
    auto Word = [&](size_t I) {
      return All[I].Kind == tok::raw_identifier
                 ? StringRef(Src).slice(All[I].Begin, All[I].End)
                 : StringRef();
    };
    StringRef Name = Word(Directive + 1);
    if (Name == "if" || Name == "ifdef" || Name == "ifndef") {
      Cond C;
      C.Zero = Name == "if" && End == size_t(Directive) + 3 &&
               All[Directive + 2].Kind == tok::numeric_constant &&
               StringRef(Src).slice(All[Directive + 2].Begin, All[Directive + 2].End) == "0";
      Conds.push_back(C);
    } else if (Name == "elif" || Name == "elifdef" || Name == "elifndef" || Name == "else") {
      if (!Conds.empty())
        Conds.back().Else = true;
    } else if (Name == "endif") {
      if (!Conds.empty())
        Conds.pop_back();
    }
  };
  bool InDirective = false, ExclMain = false, ExclFallback = false;
  for (;;) {
    L.LexFromRawLexer(T);
    if (T.is(tok::eof))
      break;
    unsigned Off = T.getLocation().getRawEncoding() - 1;
    Tok K{T.getKind(), Off, Off + T.getLength(), T.needsCleaning()};
    if (T.isAtStartOfLine()) {
      if (InDirective) {
        EndDirective(All.size());
        ExclMain = ExclFallback = false;
        for (const Cond &C : Conds) {
          ExclMain |= C.Zero && !C.Else;
          ExclFallback |= C.Zero ? !C.Else : C.Else;
        }
      }
      InDirective = T.is(tok::hash);
      if (InDirective) {
        DirectiveStarts.push_back(Off);
        Directive = int(All.size());
      }
    }
    All.push_back(K);
    AllFlags.push_back(InDirective ? char(InDirectiveFlag)
                                   : char((ExclMain ? ExclMainFlag : 0) |
                                          (ExclFallback ? ExclFallbackFlag : 0)));
  }
}

void Prepass::selectTokens(bool Fallback) {
  Toks.clear();
  char Skip = InDirectiveFlag | (Fallback ? ExclFallbackFlag : ExclMainFlag);
  for (size_t I = 0; I < All.size(); ++I)
    if (!(AllFlags[I] & Skip))
      Toks.push_back(All[I]);
}

// ---- GNU __attribute__((target(gfx))) -------------------------------------

void Prepass::findGnuAttributes() {
  auto Text = [&](size_t I) { return StringRef(Src).slice(All[I].Begin, All[I].End); };
  auto Ident = [&](size_t I, std::initializer_list<StringRef> Names) {
    if (I >= All.size() || All[I].Kind != tok::raw_identifier)
      return false;
    for (StringRef N : Names)
      if (Text(I) == N)
        return true;
    return false;
  };
  auto Is = [&](size_t I, tok::TokenKind K) { return I < All.size() && All[I].Kind == K; };
  for (size_t I = 0; I + 2 < All.size(); ++I) {
    if (!Ident(I, {"__attribute__", "__attribute"}) || !Is(I + 1, tok::l_paren) ||
        !Is(I + 2, tok::l_paren))
      continue;
    // The attribute list inside `((...))`, entries separated by commas.
    int Depth = 0;
    bool EntryStart = true;
    for (size_t K = I + 3; K < All.size(); ++K) {
      tok::TokenKind Kind = All[K].Kind;
      if (Kind == tok::semi || Kind == tok::l_brace || Kind == tok::r_brace)
        break;
      if (EntryStart && Depth == 0 && Ident(K, {"target", "__target__"}) &&
          Is(K + 1, tok::l_paren) && Ident(K + 2, {"gfx", "gfx_kernel"}) &&
          Is(K + 3, tok::r_paren)) {
        std::string Repl = "annotate(\"slmc.cilk.declspec\", \"target(";
        Repl += Text(K + 2);
        Repl += ")\")";
        AttrRepl[All[K].Begin] = {All[K + 3].End, Repl};
        K += 3;
        EntryStart = false;
        continue;
      }
      EntryStart = false;
      if (Kind == tok::l_paren) {
        ++Depth;
      } else if (Kind == tok::r_paren) {
        if (Depth == 0)
          break;
        --Depth;
      } else if (Kind == tok::comma && Depth == 0) {
        EntryStart = true;
      }
    }
  }
}

// ---- 2. brackets and sections ---------------------------------------------

void Prepass::matchBrackets() {
  struct Open {
    int Idx;
    int Questions = 0;
    bool Attr = false;
    std::vector<int> Colons;
  };
  std::vector<Open> Stack;
  Match.assign(Toks.size(), -1);
  for (int I = 0, N = int(Toks.size()); I < N; ++I) {
    tok::TokenKind K = Toks[I].Kind;
    if (isOpener(K)) {
      Open O;
      O.Idx = I;
      // `[[`: an attribute (C++ allows `[[` nowhere else).
      if (K == tok::l_square && !Stack.empty() && Stack.back().Idx == I - 1 &&
          Toks[I - 1].Kind == tok::l_square) {
        Stack.back().Attr = true;
        O.Attr = true;
      }
      Stack.push_back(std::move(O));
    } else if (isCloser(K)) {
      if (Stack.empty() || closerOf(Toks[Stack.back().Idx].Kind) != K) {
        Malformed = true;
        MalformedAt = I;
        return;
      }
      Open O = std::move(Stack.back());
      Stack.pop_back();
      Match[O.Idx] = I;
      Match[I] = O.Idx;
      if (K == tok::r_square && !O.Attr && !O.Colons.empty()) {
        Section S;
        S.LSq = O.Idx;
        S.RSq = I;
        if (O.Colons.size() > 2) {
          errorAt(O.Colons[2], "too many ':' in array section (expected "
                               "'[lower:length]' or '[lower:length:stride]')");
          continue;
        }
        S.Colon1 = O.Colons[0];
        S.Colon2 = O.Colons.size() > 1 ? O.Colons[1] : -1;
        bool LoEmpty = S.Colon1 == S.LSq + 1;
        bool LenEmpty = S.Colon1 + 1 == (S.Colon2 >= 0 ? S.Colon2 : S.RSq);
        if (S.Colon2 < 0 && LoEmpty && LenEmpty) {
          S.Whole = true;
        } else if (S.Colon2 < 0 && (LoEmpty || LenEmpty)) {
          errorAt(S.LSq, "array section needs both a lower bound and a length "
                         "('[lower:length]'), or '[:]' for a whole dimension");
          continue;
        } else if (S.Colon2 >= 0 && (LoEmpty || LenEmpty || S.Colon2 + 1 == S.RSq)) {
          errorAt(S.LSq, "array section with a stride needs all three parts "
                         "('[lower:length:stride]')");
          continue;
        }
        Sections.push_back(S);
      }
    } else if (K == tok::question) {
      if (!Stack.empty())
        ++Stack.back().Questions;
    } else if (K == tok::colon && !Stack.empty()) {
      Open &O = Stack.back();
      if (O.Questions > 0) {
        --O.Questions; // the `:` of a conditional operator
      } else if (Toks[O.Idx].Kind == tok::l_square && !O.Attr) {
        O.Colons.push_back(I);
        SawSectionColon = true;
        FirstNotation = std::min(FirstNotation, Toks[O.Idx].Begin);
      }
    }
  }
  if (!Stack.empty()) {
    Malformed = true;
    MalformedAt = Stack.back().Idx;
  }
}

// ---- 3. reductions, enclosing constructs ----------------------------------

void Prepass::findReductions() {
  int N = int(Toks.size());
  RedAt.assign(N, -1);
  RedOfParen.assign(N, -1);
  ImplAt.assign(N, -1);
  ImplEnd.assign(N, -1);
  for (int I = 0; I < N; ++I) {
    if (Toks[I].Kind != tok::raw_identifier)
      continue;
    StringRef Name = text(I);
    if (!Name.starts_with("__sec_"))
      continue;
    bool Paren = I + 1 < N && Toks[I + 1].Kind == tok::l_paren;
    if (Name == "__sec_implicit_index") {
      if (!Paren || Match[I + 1] != I + 3 || Toks[I + 2].Kind != tok::numeric_constant) {
        errorAt(I, "'__sec_implicit_index' needs an integer literal argument");
        continue;
      }
      unsigned Dim;
      if (text(I + 2).getAsInteger(0, Dim) || Dim > 16) {
        errorAt(I + 2, "invalid dimension in '__sec_implicit_index'");
        continue;
      }
      ImplAt[I] = int(Dim);
      ImplEnd[I] = I + 3;
      continue;
    }
    if (!Name.starts_with("__sec_reduce"))
      continue;
    std::optional<RedKind> Kind = llvm::StringSwitch<std::optional<RedKind>>(Name)
                                      .Case("__sec_reduce_add", RedKind::Add)
                                      .Case("__sec_reduce_mul", RedKind::Mul)
                                      .Case("__sec_reduce_min", RedKind::Min)
                                      .Case("__sec_reduce_max", RedKind::Max)
                                      .Case("__sec_reduce_all_zero", RedKind::AllZero)
                                      .Case("__sec_reduce_all_nonzero", RedKind::AllNonzero)
                                      .Case("__sec_reduce_any_zero", RedKind::AnyZero)
                                      .Case("__sec_reduce_any_nonzero", RedKind::AnyNonzero)
                                      .Default(std::nullopt);
    if (!Paren) {
      errorAt(I, "expected '(' after '" + Name.str() + "'");
      continue;
    }
    Reduction R;
    R.Name = I;
    R.LParen = I + 1;
    R.RParen = Match[I + 1];
    R.Kind = Kind.value_or(RedKind::Add);
    if (!Kind) {
      // Still a reduction, so that its argument raises no errors of its own.
      errorAt(I, "'" + Name.str() +
                     "' is not supported (supported: __sec_reduce_add, _mul, _min, "
                     "_max, _all_zero, _all_nonzero, _any_zero, _any_nonzero)");
      R.Unsupported = true;
    } else if (R.RParen == R.LParen + 1) {
      errorAt(I, "'" + Name.str() + "' needs an array section argument");
      R.Unsupported = true;
    }
    RedAt[I] = int(Reductions.size());
    RedOfParen[I + 1] = int(Reductions.size());
    Reductions.push_back(R);
  }
}

void Prepass::scanEnclosing() {
  int N = int(Toks.size());
  EncRed.assign(N, -1);
  EncBrace.assign(N, -1);
  BraceKind.assign(N, Local);
  std::vector<int> RedStack, BraceStack;
  for (int I = 0; I < N; ++I) {
    tok::TokenKind K = Toks[I].Kind;
    if (isCloser(K)) {
      int O = Match[I];
      if (K == tok::r_brace)
        BraceStack.pop_back();
      else if (K == tok::r_paren && RedOfParen[O] >= 0)
        RedStack.pop_back();
    }
    EncRed[I] = RedStack.empty() ? -1 : RedStack.back();
    EncBrace[I] = BraceStack.empty() ? -1 : BraceStack.back();
    if (K == tok::l_brace) {
      // Function bodies, blocks, lambdas: local; namespace (and
      // `extern "C"`) and class bodies are not.
      char Kind = Local;
      int J = I - 1;
      if (J >= 0 && Toks[J].Kind == tok::string_literal && isIdent(J - 1, "extern"))
        Kind = Namespace;
      while (Kind == Local && J >= 0 && J >= I - 64) {
        tok::TokenKind PK = Toks[J].Kind;
        if (PK == tok::raw_identifier) {
          StringRef W = text(J);
          if (W == "namespace")
            Kind = Namespace;
          else if (W == "class" || W == "struct" || W == "union" || W == "enum")
            Kind = Class;
          --J;
        } else if (PK == tok::r_square && Match[J] >= 0) {
          J = Match[J] - 1; // attributes
        } else if (PK == tok::coloncolon || PK == tok::comma || PK == tok::colon ||
                   PK == tok::less || PK == tok::greater || PK == tok::numeric_constant) {
          --J; // qualified names, base clauses, template arguments
        } else {
          break;
        }
      }
      BraceKind[I] = Kind;
      BraceStack.push_back(I);
    } else if (K == tok::l_paren && RedOfParen[I] >= 0) {
      RedStack.push_back(RedOfParen[I]);
    }
  }
}

// ---- 4. chains ------------------------------------------------------------

bool Prepass::isControlParen(int Open) const {
  int P = Open - 1;
  if (P < 0 || Toks[P].Kind != tok::raw_identifier)
    return false;
  StringRef W = text(P);
  if (W == "constexpr")
    return isIdent(P - 1, "if");
  return W == "if" || W == "while" || W == "for" || W == "switch" || W == "catch" ||
         W == "_Cilk_for" || W == "cilk_for" || W == "_Thread_group";
}

bool Prepass::isStopKeyword(int I) const {
  return llvm::StringSwitch<bool>(text(I))
      .Cases({"return", "if", "else", "while", "for", "do", "switch", "case",
              "default", "goto", "throw", "new", "delete", "sizeof", "alignof",
              "typeid", "co_return", "co_yield", "co_await", "_Cilk_for", "cilk_for",
              "_Thread_group", "_Cilk_spawn", "cilk_spawn", "decltype", "noexcept",
              "const", "volatile", "static", "auto", "operator", "template",
              "typename", "using", "constexpr"},
             true)
      .Default(false);
}

int Prepass::chainStart(int LSq) const {
  int Start = LSq;
  int J = LSq - 1;
  while (J >= 0) {
    tok::TokenKind K = Toks[J].Kind;
    if (K == tok::r_square) {
      if (J > 0 && Toks[J - 1].Kind == tok::r_square && Match[J - 1] == Match[J] + 1)
        break; // `]]` of an attribute
      Start = Match[J];
      J = Start - 1;
      continue;
    }
    if (K == tok::r_paren) {
      if (isControlParen(Match[J]))
        break;
      Start = Match[J];
      J = Start - 1;
      continue;
    }
    if ((K == tok::raw_identifier && !isStopKeyword(J)) || tok::isLiteral(K)) {
      Start = J;
      if (J > 0 && (Toks[J - 1].Kind == tok::period || Toks[J - 1].Kind == tok::arrow ||
                    Toks[J - 1].Kind == tok::coloncolon)) {
        Start = J - 1;
        J -= 2;
        continue;
      }
      break;
    }
    break;
  }
  return Start;
}

void Prepass::buildChains() {
  std::sort(Sections.begin(), Sections.end(),
            [](const Section &A, const Section &B) { return A.LSq < B.LSq; });
  SecAt.assign(Toks.size(), -1);
  std::vector<int> ChainOfStart(Toks.size(), -1);
  for (int S = 0; S < int(Sections.size()); ++S) {
    SecAt[Sections[S].LSq] = S;
    int Start = chainStart(Sections[S].LSq);
    int &C = ChainOfStart[Start];
    if (C < 0) {
      C = int(Chains.size());
      Chain Ch;
      Ch.Start = Start;
      Ch.Owner = EncRed[Start];
      Chains.push_back(Ch);
    }
    Sections[S].Chain = C;
    Sections[S].Dim = unsigned(Chains[C].Sections.size());
    Chains[C].Sections.push_back(S);
  }
  for (int C = 0; C < int(Chains.size()); ++C) {
    const Chain &Ch = Chains[C];
    // A reduction argument holding a lambda with array notation inside.
    if (Ch.Owner >= 0 && EncBrace[Ch.Start] > Reductions[Ch.Owner].LParen) {
      errorAt(Ch.Start, "array notation inside a lambda or block within "
                        "'__sec_reduce_*' is not supported");
      continue;
    }
    // Sections in the base or the subscripts of a chain that has sections
    // itself (`a[b[0:n]][0:m]`, `a[b[0:2]:n]`, `f(a[0:n])[0:m]`).
    int Last = Sections[Ch.Sections.back()].RSq;
    auto It = std::lower_bound(Sections.begin(), Sections.end(), Ch.Start,
                               [](const Section &S, int T) { return S.LSq < T; });
    for (; It != Sections.end() && It->LSq < Last; ++It)
      if (It->Chain != C && EncRed[It->LSq] == Ch.Owner) {
        errorAt(It->LSq, "array section inside the base or a subscript of another "
                         "array section is not supported");
        break;
      }
  }
}

// ---- 5. statements --------------------------------------------------------

bool Prepass::isLambdaBody(int Brace) const {
  int J = Brace - 1;
  for (int Steps = 0; J >= 0 && Steps < 16; ++Steps) {
    tok::TokenKind K = Toks[J].Kind;
    if (K == tok::r_square)
      return true; // [&] { ... }
    if (K == tok::r_paren)
      return Match[J] > 0 && Toks[Match[J] - 1].Kind == tok::r_square;
    if (K == tok::raw_identifier || K == tok::arrow || K == tok::coloncolon ||
        K == tok::star || K == tok::amp || K == tok::less || K == tok::greater) {
      --J;
      continue;
    }
    return false;
  }
  return false;
}

/// The expression statement around token `T` (a chain start): its first
/// token (returned) and its ';' (`Last`). Returns -1 after an error.
int Prepass::findStatement(int T, int &Last) {
  int N = int(Toks.size());
  int First = 0;
  int J = T - 1;
  while (J >= 0) {
    tok::TokenKind K = Toks[J].Kind;
    if (K == tok::r_paren) {
      if (isControlParen(Match[J])) {
        First = J + 1;
        break;
      }
      J = Match[J] - 1;
      continue;
    }
    if (K == tok::r_square) {
      J = Match[J] - 1;
      continue;
    }
    if (K == tok::r_brace) {
      tok::TokenKind Next = Toks[J + 1].Kind;
      if (continuesExpression(Next) ||
          (Next == tok::l_paren && isLambdaBody(Match[J]))) {
        J = Match[J] - 1;
        continue;
      }
      First = J + 1;
      break;
    }
    if (K == tok::l_brace || K == tok::semi) {
      First = J + 1;
      break;
    }
    if (K == tok::l_paren && isControlParen(J)) {
      std::string Kw = text(J - 1).str();
      if (Kw == "constexpr")
        Kw = "if";
      errorAt(T, "array section in the header of '" + Kw +
                     "' is not supported (only __sec_reduce_* results, which are "
                     "scalars, may appear there)");
      return -1;
    }
    if (K == tok::raw_identifier && (text(J) == "else" || text(J) == "do" || text(J) == "try")) {
      First = J + 1;
      break;
    }
    --J;
  }
  // Labels: `case 1:`, `default:`, `name:` — a ':' at statement level that
  // no '?' claims.
  int Questions = 0;
  for (int I = First; I < T;) {
    tok::TokenKind K = Toks[I].Kind;
    if (isOpener(K)) {
      if (Match[I] >= T)
        break;
      I = Match[I] + 1;
      continue;
    }
    if (K == tok::question)
      ++Questions;
    else if (K == tok::colon && Questions > 0)
      --Questions;
    else if (K == tok::colon)
      First = I + 1;
    ++I;
  }
  // The ';' at the same level.
  for (int I = First; I < N;) {
    tok::TokenKind K = Toks[I].Kind;
    if (K == tok::semi) {
      Last = I;
      return First;
    }
    if (isOpener(K)) {
      I = Match[I] + 1;
      continue;
    }
    if (isCloser(K))
      break;
    ++I;
  }
  errorAt(T, "array section outside an expression statement is not supported "
             "(e.g. in an initializer list)");
  return -1;
}

void Prepass::buildStatements() {
  int Cur = -1; // the last statement found, reused for chains inside it
  for (int C = 0; C < int(Chains.size()); ++C) {
    Chain &Ch = Chains[C];
    if (Ch.Owner >= 0) {
      Reductions[Ch.Owner].Chains.push_back(C);
      continue;
    }
    if (Cur >= 0) {
      const Statement &S = Statements[Cur];
      if (Ch.Start >= S.First && Ch.Start <= S.Last &&
          EncBrace[Ch.Start] == EncBrace[S.First]) {
        Ch.Stmt = Cur;
        Statements[Cur].Chains.push_back(C);
        continue;
      }
    }
    int Last = -1;
    int First = findStatement(Ch.Start, Last);
    if (First < 0)
      continue;
    // Another chain may have found this statement before (chains are in
    // order of their first section, not of their start).
    int Found = -1;
    for (int S = int(Statements.size()) - 1; S >= 0 && S >= int(Statements.size()) - 4; --S)
      if (Statements[S].First == First)
        Found = S;
    if (Found < 0) {
      Found = int(Statements.size());
      Statements.push_back({First, Last, {}, 0});
    }
    Cur = Found;
    Ch.Stmt = Found;
    Statements[Found].Chains.push_back(C);
  }
}

// ---- 6. rules -------------------------------------------------------------

bool Prepass::checkRanks(const std::vector<int> &Cs, unsigned &Rank, int AssignAt,
                         int RedName) {
  // Chains in source order of their start.
  std::vector<int> Order = Cs;
  std::sort(Order.begin(), Order.end(),
            [&](int A, int B) { return Chains[A].Start < Chains[B].Start; });
  if (Order.empty()) {
    Rank = 0;
    return true;
  }
  Rank = unsigned(Chains[Order.front()].Sections.size());
  if (AssignAt >= 0 && Chains[Order.front()].Start > AssignAt) {
    // Nothing on the left has a rank.
    const Chain &Ch = Chains[Order.front()];
    bool Declaration = false;
    for (int I = Statements[Ch.Stmt].First; I + 1 < AssignAt; ++I)
      if (Toks[I].Kind == tok::raw_identifier && Toks[I + 1].Kind == tok::raw_identifier)
        Declaration = true;
    if (Declaration)
      errorAt(Ch.Start, "an array section of rank " + std::to_string(Rank) +
                            " cannot initialize a declaration (a __sec_reduce_* "
                            "result can)");
    else
      errorAt(Ch.Start, "rank mismatch in array notation: cannot assign an "
                        "expression of rank " + std::to_string(Rank) +
                            " to a scalar (rank 0) left-hand side");
    return false;
  }
  bool OK = true;
  for (int C : Order) {
    unsigned R = unsigned(Chains[C].Sections.size());
    if (R != Rank) {
      std::string Msg = "rank mismatch in array notation: this section has rank " +
                        std::to_string(R) + ", but ";
      if (RedName >= 0)
        Msg += "the argument of '" + text(RedName).str() + "' has rank ";
      else
        Msg += "the statement has rank ";
      errorAt(Chains[C].Start, Msg + std::to_string(Rank));
      OK = false;
    }
  }
  return OK;
}

void Prepass::checkLengths(const std::vector<int> &Cs, unsigned Rank) {
  auto Literal = [&](const Section &S, uint64_t &V) {
    int B = S.Colon1 + 1, E = S.Colon2 >= 0 ? S.Colon2 : S.RSq;
    if (S.Whole || E != B + 1 || Toks[B].Kind != tok::numeric_constant)
      return false;
    std::string T;
    for (char Ch : text(B))
      if (Ch != '\'')
        T += Ch;
    StringRef R(T);
    R = R.rtrim("uUlLzZ");
    return !R.getAsInteger(0, V);
  };
  for (unsigned D = 0; D < Rank; ++D) {
    std::vector<int> Secs;
    for (int C : Cs)
      if (D < Chains[C].Sections.size())
        Secs.push_back(Chains[C].Sections[D]);
    std::sort(Secs.begin(), Secs.end());
    bool Have = false;
    uint64_t First = 0;
    for (int S : Secs) {
      uint64_t V;
      if (!Literal(Sections[S], V))
        continue;
      if (!Have) {
        Have = true;
        First = V;
      } else if (V != First) {
        errorAt(Sections[S].LSq, "length mismatch in array notation: this section "
                                 "has length " + std::to_string(V) + " in dimension " +
                                     std::to_string(D) + ", but an earlier one has " +
                                     std::to_string(First));
      }
    }
  }
}

void Prepass::checkStatement(Statement &S) {
  if (!isLocal(S.First)) {
    errorAt(Chains[S.Chains.front()].Start,
            "array notation is only supported in statements inside a function body");
    return;
  }
  if (Toks[S.First].Kind == tok::raw_identifier) {
    StringRef W = text(S.First);
    if (W == "return" || W == "throw" || W == "co_return" || W == "co_yield" ||
        W == "goto") {
      errorAt(Chains[S.Chains.front()].Start,
              "an array section of rank > 0 in a '" + W.str() +
                  "' statement is not supported");
      return;
    }
  }
  int AssignAt = -1;
  for (int I = S.First; I < S.Last;) {
    tok::TokenKind K = Toks[I].Kind;
    if (isOpener(K)) {
      I = Match[I] + 1;
      continue;
    }
    if (isAssignment(K)) {
      AssignAt = I;
      break;
    }
    ++I;
  }
  if (checkRanks(S.Chains, S.Rank, AssignAt, -1))
    checkLengths(S.Chains, S.Rank);
}

void Prepass::checkReduction(Reduction &R) {
  if (R.Unsupported)
    return;
  if (R.Chains.empty()) {
    errorAt(R.Name, "the argument of '" + text(R.Name).str() +
                        "' has no array section (rank 0)");
    return;
  }
  if (checkRanks(R.Chains, R.Rank, -1, R.Name))
    checkLengths(R.Chains, R.Rank);
}

// ---- 7. rendering ---------------------------------------------------------

bool Prepass::directiveIn(unsigned Begin, unsigned End, unsigned &At) const {
  auto It = std::lower_bound(DirectiveStarts.begin(), DirectiveStarts.end(), Begin);
  if (It == DirectiveStarts.end() || *It >= End)
    return false;
  At = *It;
  return true;
}

std::string Prepass::tokenText(int I, bool InPlace) const {
  StringRef T = text(I);
  if (InPlace || !Toks[I].NeedsCleaning)
    return T.str();
  // Drop escaped newlines (backslash, optional blanks, newline) so a copy
  // adds no line.
  std::string Out;
  for (size_t P = 0; P < T.size(); ++P) {
    if (T[P] == '\\') {
      size_t Q = P + 1;
      while (Q < T.size() && (T[Q] == ' ' || T[Q] == '\t'))
        ++Q;
      if (Q < T.size() && T[Q] == '\r')
        ++Q;
      if (Q < T.size() && T[Q] == '\n') {
        P = Q;
        continue;
      }
    }
    Out += T[P];
  }
  return Out;
}

std::string Prepass::render(int First, int Last, const Scope *S, bool InPlace) {
  std::string Out;
  for (int I = First; I <= Last; ++I) {
    if (I > First) {
      unsigned GB = Toks[I - 1].End, GE = Toks[I].Begin;
      if (InPlace) {
        Out.append(Src, GB, GE - GB);
      } else if (GB < GE) {
        unsigned At;
        if (directiveIn(GB, GE, At))
          error(At, "preprocessor directive inside array notation is not supported");
        Out += ' ';
      }
    }
    std::string Piece;
    int Next = I;
    if (auto It = AttrRepl.find(Toks[I].Begin); It != AttrRepl.end()) {
      Piece = It->second.second;
      while (Next < Last && Toks[Next].End < It->second.first)
        ++Next;
    } else if (RedAt[I] >= 0) {
      Piece = renderReduction(RedAt[I]);
      Next = Reductions[RedAt[I]].RParen;
    } else if (ImplAt[I] >= 0) {
      if (!S || unsigned(ImplAt[I]) >= S->Idx.size()) {
        errorAt(I, "'__sec_implicit_index(" + std::to_string(ImplAt[I]) +
                       ")' used outside array notation of rank > " +
                       std::to_string(ImplAt[I]));
        Piece = "0";
      } else {
        Piece = "((long)" + S->Idx[ImplAt[I]] + ")";
      }
      Next = ImplEnd[I];
    } else if (SecAt[I] >= 0) {
      Piece = renderSection(SecAt[I], S);
      Next = Sections[SecAt[I]].RSq;
    } else {
      Out += tokenText(I, InPlace);
      continue;
    }
    Out += Piece;
    if (InPlace) {
      unsigned Lost = newlines(Toks[I].Begin, Toks[Next].End);
      unsigned Have = unsigned(std::count(Piece.begin(), Piece.end(), '\n'));
      if (Lost > Have)
        Out.append(Lost - Have, '\n');
    }
    I = Next;
  }
  return Out;
}

std::string Prepass::renderSection(int Sec, const Scope *S) {
  const Section &X = Sections[Sec];
  const Chain &Ch = Chains[X.Chain];
  if (!S || S->Owner != Ch.Owner || X.Dim >= S->Idx.size()) {
    errorAt(X.LSq, "array section in a context that is not supported");
    return "[0]";
  }
  if (S->TypeOnly)
    return "[0]";
  const std::string &Idx = S->Idx[X.Dim];
  if (X.Whole)
    return "[" + Idx + "]";
  std::string Lo = render(X.LSq + 1, X.Colon1 - 1, S, false);
  if (X.Colon2 < 0)
    return "[(" + Lo + ") + " + Idx + "]";
  return "[(" + Lo + ") + " + Idx + " * (" + render(X.Colon2 + 1, X.RSq - 1, S, false) + ")]";
}

std::vector<std::string> Prepass::lengths(const std::vector<int> &Cs, unsigned Rank,
                                          const Scope &S) {
  std::vector<std::string> Lens;
  for (unsigned D = 0; D < Rank; ++D) {
    int Explicit = -1, Whole = -1;
    for (int C : Cs) {
      if (D >= Chains[C].Sections.size())
        continue;
      int Sec = Chains[C].Sections[D];
      if (Sections[Sec].Whole) {
        if (Whole < 0 || Sec < Whole)
          Whole = Sec;
      } else if (Explicit < 0 || Sec < Explicit) {
        Explicit = Sec;
      }
    }
    if (Explicit >= 0) {
      const Section &X = Sections[Explicit];
      Lens.push_back(render(X.Colon1 + 1, (X.Colon2 >= 0 ? X.Colon2 : X.RSq) - 1, &S, false));
    } else {
      const Section &X = Sections[Whole];
      NeedsCilkHeader = true;
      Scope Base = S;
      Base.TypeOnly = true;
      Lens.push_back("::slmc::cilk::extent_of(" +
                     render(Chains[X.Chain].Start, X.LSq - 1, &Base, false) + ")");
    }
  }
  return Lens;
}

std::string Prepass::renderReduction(int RI) {
  const Reduction &R = Reductions[RI];
  bool Nested = RenderDepth > 0;
  std::string P = Nested ? "__sec_" + std::to_string(++NestedCounter) + "_" : "__sec_";
  Scope S;
  S.Owner = RI;
  for (unsigned D = 0; D < R.Rank; ++D)
    S.Idx.push_back(P + "i" + std::to_string(D));
  ++RenderDepth;
  std::string E = render(R.LParen + 1, R.RParen - 1, &S, false);
  std::vector<std::string> Lens = lengths(R.Chains, R.Rank, S);
  --RenderDepth;

  std::string Params, Zeros, Args, Loops;
  for (unsigned D = 0; D < R.Rank; ++D) {
    const std::string &I = S.Idx[D];
    Params += (D ? ", long " : "long ") + I;
    Zeros += D ? ", 0" : "0";
    Args += (D ? ", " : "") + I;
    Loops += std::string(ReductionAttr) + "for (long " + I + " = 0; " + I + " < (" +
             Lens[D] + "); ++" + I + ") ";
  }
  std::string Fn = P + "e", Acc = P + "acc", Elem = Fn + "(" + Args + ")";
  std::string Out = !Nested && isNamespaceScope(R.Name) ? "[]" : "[&]";
  Out += "() { auto " + Fn + " = [&](" + Params + ") { return " + E + "; }; ";
  std::string Type = "decltype(" + Fn + "(" + Zeros + "))";
  switch (R.Kind) {
  case RedKind::Add:
  case RedKind::Mul:
    Out += "auto " + Acc + " = " + Type + (R.Kind == RedKind::Add ? "(0); " : "(1); ");
    Out += Loops + Acc + (R.Kind == RedKind::Add ? " += " : " *= ") + Elem + ";";
    break;
  case RedKind::Min:
  case RedKind::Max: {
    std::string Any = P + "any", V = P + "v";
    Out += "auto " + Acc + " = " + Type + "(); bool " + Any + " = false; ";
    Out += Loops + "{ auto " + V + " = " + Elem + "; if (!" + Any + " || " +
           (R.Kind == RedKind::Min ? V + " < " + Acc : Acc + " < " + V) + ") " + Acc +
           " = " + V + "; " + Any + " = true; }";
    break;
  }
  case RedKind::AllZero:
  case RedKind::AllNonzero:
  case RedKind::AnyZero:
  case RedKind::AnyNonzero: {
    bool All = R.Kind == RedKind::AllZero || R.Kind == RedKind::AllNonzero;
    bool TestZero = R.Kind == RedKind::AllNonzero || R.Kind == RedKind::AnyZero;
    Out += "int " + Acc + (All ? " = 1; " : " = 0; ");
    Out += Loops + "if (" + (TestZero ? Elem + " == 0" : "!(" + Elem + " == 0)") + ") " +
           Acc + (All ? " = 0;" : " = 1;");
    break;
  }
  }
  Out += " return " + Acc + "; }()";
  return Out;
}

std::string Prepass::renderStatement(const Statement &St) {
  Scope S;
  S.Owner = -1;
  for (unsigned D = 0; D < St.Rank; ++D)
    S.Idx.push_back("__sec_i" + std::to_string(D));
  ++RenderDepth;
  std::vector<std::string> Lens = lengths(St.Chains, St.Rank, S);
  std::string Body = render(St.First, St.Last, &S, true);
  --RenderDepth;
  std::string Out;
  for (unsigned D = 0; D < St.Rank; ++D) {
    const std::string &I = S.Idx[D];
    Out += std::string(SectionAttr) + "for (long " + I + " = 0; " + I + " < (" + Lens[D] +
           "); ++" + I + ") ";
  }
  return Out + "{ " + Body + " }";
}

// ---- driver ---------------------------------------------------------------

ArrayNotationResult Prepass::run() {
  ArrayNotationResult Result;
  lex();
  findGnuAttributes();
  selectTokens(false);
  bool SawNotation = false;
  for (size_t I = 0; I < Toks.size() && !SawNotation; ++I) {
    SawNotation = (Toks[I].Kind == tok::raw_identifier &&
                   text(int(I)).starts_with("__sec_")) ||
                  (Toks[I].Kind == tok::l_square && I + 1 < Toks.size() &&
                   Toks[I + 1].Kind == tok::colon);
    if (SawNotation)
      FirstNotation = Toks[I].Begin;
  }
  matchBrackets();
  SawNotation |= SawSectionColon;
  std::vector<unsigned> LineStarts = {0};
  for (unsigned I = 0; I < Src.size(); ++I)
    if (Src[I] == '\n')
      LineStarts.push_back(I + 1);
  auto LineCol = [&](unsigned Offset) {
    auto It = std::upper_bound(LineStarts.begin(), LineStarts.end(), Offset);
    unsigned Line = unsigned(It - LineStarts.begin());
    return std::make_pair(Line, Offset - LineStarts[Line - 1] + 1);
  };
  if (SawNotation && FirstNotation != ~0u)
    std::tie(Result.NotationLine, Result.NotationColumn) = LineCol(FirstNotation);
  if (Malformed && SawNotation) {
    // Braces opened in both branches of an #if/#else: read only the first
    // branch of each conditional.
    unsigned Offset = Toks[MalformedAt].Begin;
    std::string Message = (isOpener(Toks[MalformedAt].Kind) ? "unmatched '" : "unbalanced '") +
                          text(MalformedAt).str() +
                          "': array notation in this file is not rewritten";
    Malformed = false;
    MalformedAt = -1;
    Sections.clear();
    Errors.clear();
    selectTokens(true);
    matchBrackets();
    if (Malformed) {
      Errors.clear();
      error(Offset, Message);
    }
  }

  struct Replacement {
    unsigned Begin, End;
    std::string Text;
  };
  std::vector<Replacement> Repls;

  if (Malformed) {
    if (!SawNotation)
      Errors.clear(); // clang reports the brackets
  } else if (SawNotation) {
    findReductions();
    scanEnclosing();
    buildChains();
    buildStatements();
    for (Statement &S : Statements)
      checkStatement(S);
    for (Reduction &R : Reductions)
      checkReduction(R);
    // Statements nested in others (through lambdas).
    std::vector<int> Order(Statements.size());
    for (size_t I = 0; I < Order.size(); ++I)
      Order[I] = int(I);
    std::sort(Order.begin(), Order.end(), [&](int A, int B) {
      return Statements[A].First < Statements[B].First;
    });
    for (size_t I = 1; I < Order.size(); ++I)
      if (Statements[Order[I]].First <= Statements[Order[I - 1]].Last)
        errorAt(Chains[Statements[Order[I]].Chains.front()].Start,
                "array notation statement inside another array notation statement "
                "is not supported");
    if (Errors.empty()) {
      // Top level: statements, reductions outside them, attributes outside
      // both.
      for (int I : Order)
        Repls.push_back({Toks[Statements[I].First].Begin, Toks[Statements[I].Last].End,
                         renderStatement(Statements[I])});
      size_t NumStmts = Repls.size();
      auto InStatement = [&](unsigned Off) {
        auto It = std::upper_bound(Repls.begin(), Repls.begin() + NumStmts, Off,
                                   [](unsigned O, const Replacement &R) { return O < R.Begin; });
        return It != Repls.begin() && Off < std::prev(It)->End;
      };
      for (int RI = 0; RI < int(Reductions.size()); ++RI) {
        const Reduction &R = Reductions[RI];
        if (EncRed[R.Name] >= 0 || InStatement(Toks[R.Name].Begin))
          continue;
        Repls.push_back({Toks[R.Name].Begin, Toks[R.RParen].End, renderReduction(RI)});
      }
      for (size_t I = 0; I < Toks.size(); ++I)
        if (ImplAt[I] >= 0 && EncRed[I] < 0 && !InStatement(Toks[I].Begin))
          errorAt(int(I), "'__sec_implicit_index' used outside array notation");
    }
  }

  // Attributes not inside a rendered construct (those are rendered there).
  {
    std::vector<Replacement> Outer = Repls;
    std::sort(Outer.begin(), Outer.end(),
              [](const Replacement &A, const Replacement &B) { return A.Begin < B.Begin; });
    for (const auto &[Begin, EndText] : AttrRepl) {
      auto It = std::upper_bound(Outer.begin(), Outer.end(), Begin,
                                 [](unsigned O, const Replacement &R) { return O < R.Begin; });
      if (It != Outer.begin() && Begin < std::prev(It)->End)
        continue;
      Repls.push_back({Begin, EndText.first, EndText.second});
    }
  }

  if (!Errors.empty()) {
    std::stable_sort(Errors.begin(), Errors.end(),
                     [](const Error &A, const Error &B) { return A.Offset < B.Offset; });
    for (size_t I = 0; I < Errors.size(); ++I) {
      if (I && Errors[I].Offset == Errors[I - 1].Offset &&
          Errors[I].Message == Errors[I - 1].Message)
        continue;
      auto [Line, Col] = LineCol(Errors[I].Offset);
      Result.Diags.push_back({Line, Col, Errors[I].Message});
    }
    Result.Text = Src;
    return Result;
  }

  std::sort(Repls.begin(), Repls.end(),
            [](const Replacement &A, const Replacement &B) { return A.Begin < B.Begin; });
  std::string Out;
  Out.reserve(Src.size() + Src.size() / 4);
  unsigned Pos = 0;
  for (const Replacement &R : Repls) {
    if (R.Begin < Pos)
      continue; // cannot happen: replacements are disjoint
    Out.append(Src, Pos, R.Begin - Pos);
    Out += R.Text;
    unsigned Lost = newlines(R.Begin, R.End);
    unsigned Have = unsigned(std::count(R.Text.begin(), R.Text.end(), '\n'));
    if (Lost > Have)
      Out.append(Lost - Have, '\n');
    Pos = R.End;
  }
  Out.append(Src, Pos, std::string::npos);
  Result.Changed = !Repls.empty();
  Result.NeedsCilkHeader = NeedsCilkHeader;
  Result.Text = Result.Changed ? std::move(Out) : Src;
  return Result;
}

} // namespace

ArrayNotationResult rewriteArrayNotation(StringRef Source) {
  return Prepass(Source).run();
}

void printPrepassDiagnostics(llvm::raw_ostream &OS, StringRef FileName, StringRef Source,
                             llvm::ArrayRef<PrepassDiagnostic> Diags) {
  for (const PrepassDiagnostic &D : Diags) {
    OS << FileName << ":" << D.Line << ":" << D.Column << ": error: " << D.Message << "\n";
    // The line, tabs expanded as Clang shows them, and a caret.
    StringRef Rest = Source;
    for (unsigned L = 1; L < D.Line && !Rest.empty(); ++L)
      Rest = Rest.split('\n').second;
    StringRef Line = Rest.split('\n').first.rtrim("\r");
    std::string Shown, Caret;
    for (size_t I = 0; I <= Line.size(); ++I) {
      if (I + 1 == D.Column)
        Caret = std::string(Shown.size(), ' ') + "^";
      if (I == Line.size())
        break;
      if (Line[I] == '\t')
        Shown.append(8 - Shown.size() % 8, ' ');
      else
        Shown += Line[I];
    }
    std::string Num = std::to_string(D.Line);
    size_t Width = std::max<size_t>(4, Num.size());
    OS << std::string(Width - Num.size() + 1, ' ') << Num << " | " << Shown << "\n";
    OS << std::string(Width + 2, ' ') << "| " << Caret << "\n";
  }
  if (!Diags.empty())
    OS << Diags.size() << (Diags.size() == 1 ? " error" : " errors") << " generated.\n";
}

} // namespace slmc
