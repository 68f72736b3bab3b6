//===- CilkSyntax.cpp -----------------------------------------------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "Model/CilkSyntax.h"
#include "Model/Model.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"

#include <map>
#include <mutex>

using namespace clang;

namespace slmc::cilk {
namespace {

std::optional<llvm::StringRef> annotationArg(const AnnotateAttr *A, unsigned I) {
  if (A->args_size() <= I)
    return std::nullopt;
  if (const auto *SL = dyn_cast<StringLiteral>((*(A->args_begin() + I))->IgnoreParenCasts()))
    return SL->getString();
  return std::nullopt;
}

const VarDecl *refersTo(const Expr *E) {
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
    return dyn_cast<VarDecl>(DRE->getDecl());
  return nullptr;
}

bool hasAnnotation(const Stmt *S, llvm::StringRef Name,
                   const AnnotateAttr **Found = nullptr) {
  const auto *AS = dyn_cast_or_null<AttributedStmt>(S);
  if (!AS)
    return false;
  for (const Attr *A : AS->getAttrs())
    if (const auto *AA = dyn_cast<AnnotateAttr>(A); AA && AA->getAnnotation() == Name) {
      if (Found)
        *Found = AA;
      return true;
    }
  return false;
}

} // namespace

std::optional<ParallelLoop> asParallelLoop(const Stmt *S, const SourceManager &SM) {
  const auto *AS = dyn_cast_or_null<AttributedStmt>(S);
  if (!AS)
    return std::nullopt;
  const auto *FS = dyn_cast<ForStmt>(AS->getSubStmt());
  if (!FS)
    return std::nullopt;
  ParallelLoop L;
  L.For = FS;
  L.Written = AS;
  if (hasAnnotation(AS, "slmc.cilk.section")) {
    L.Kind = LoopKind::Section;
    return L;
  }
  if (!hasAnnotation(AS, "slmc.cilk.for"))
    return std::nullopt;
  L.Kind = LoopKind::CilkFor;
  // `_Thread_group` expands to nothing: look for it between the keyword and
  // the parenthesis as written.
  SourceLocation B = SM.getExpansionLoc(FS->getForLoc());
  SourceLocation E = SM.getExpansionLoc(FS->getLParenLoc());
  if (B.isValid() && E.isValid() && SM.getFileID(B) == SM.getFileID(E) &&
      SM.isBeforeInTranslationUnit(B, E)) {
    bool Invalid = false;
    llvm::StringRef Text(SM.getCharacterData(B, &Invalid),
                         SM.getFileOffset(E) - SM.getFileOffset(B));
    if (!Invalid && Text.contains("_Thread_group"))
      L.Kind = LoopKind::ThreadGroup;
  }
  return L;
}

namespace {
std::mutex RegistryLock;
struct RegionCache {
  std::shared_ptr<PragmaRecords> Handlers; // identity of the records scanned for
  PragmaRecords Regions;
};
std::map<const SourceManager *, RegionCache> &regionCache() {
  static std::map<const SourceManager *, RegionCache> C;
  return C;
}
std::map<const SourceManager *, std::shared_ptr<PragmaRecords>> &registry() {
  static std::map<const SourceManager *, std::shared_ptr<PragmaRecords>> R;
  return R;
}
} // namespace

std::shared_ptr<PragmaRecords> pragmaRecords(const SourceManager &SM) {
  std::lock_guard<std::mutex> G(RegistryLock);
  auto It = registry().find(&SM);
  return It == registry().end() ? std::make_shared<PragmaRecords>() : It->second;
}

std::shared_ptr<PragmaRecords> createPragmaRecords(const SourceManager &SM) {
  std::lock_guard<std::mutex> G(RegistryLock);
  auto &Slot = registry()[&SM];
  Slot = std::make_shared<PragmaRecords>();
  return Slot;
}

void forgetPragmaRecords(const SourceManager &SM) {
  std::lock_guard<std::mutex> G(RegistryLock);
  registry().erase(&SM);
  regionCache().erase(&SM);
}

namespace {

/// Adds the offload_attribute pragmas written in `SM`'s main file to `Out`.
void scanMainFile(const SourceManager &SM, PragmaRecords &Out) {
  FileID Main = SM.getMainFileID();
  if (Main.isInvalid())
    return;
  llvm::StringRef Text = SM.getBufferData(Main);
  SourceLocation Start = SM.getLocForStartOfFile(Main);
  size_t Pos = 0;
  while (Pos < Text.size()) {
    size_t End = Text.find('\n', Pos);
    if (End == llvm::StringRef::npos)
      End = Text.size();
    llvm::StringRef Line = Text.slice(Pos, End);
    llvm::StringRef T = Line.ltrim();
    if (T.consume_front("#")) {
      T = T.ltrim();
      if (T.consume_front("pragma") && T.ltrim().starts_with("offload_attribute")) {
        SourceLocation Loc = Start.getLocWithOffset(Pos + (Line.size() - Line.ltrim().size()));
        T = T.ltrim().drop_front(strlen("offload_attribute"));
        T = T.take_until([](char C) { return C == '/'; }); // drop a trailing comment
        if (T.contains("push") && T.contains("target")) {
          Out.OpenPushes.push_back(Loc);
        } else if (T.contains("pop")) {
          if (Out.OpenPushes.empty()) {
            Out.UnmatchedPops.push_back(Loc);
          } else {
            Out.GfxRegions.push_back(SourceRange(Out.OpenPushes.back(), Loc));
            Out.OpenPushes.pop_back();
          }
        } else {
          Out.UnknownAttributePragmas.push_back(Loc);
        }
      }
    }
    Pos = End + 1;
  }
}
} // namespace

const PragmaRecords &offloadAttributeRegions(const SourceManager &SM) {
  auto Handlers = pragmaRecords(SM);
  std::lock_guard<std::mutex> G(RegistryLock);
  RegionCache &C = regionCache()[&SM];
  if (C.Handlers == Handlers && Handlers)
    return C.Regions;
  C.Handlers = Handlers;
  C.Regions = PragmaRecords();
  FileID Main = SM.getMainFileID();
  auto NotMain = [&](SourceLocation L) { return SM.getFileID(SM.getExpansionLoc(L)) != Main; };
  for (SourceRange R : Handlers->GfxRegions)
    if (NotMain(R.getBegin()))
      C.Regions.GfxRegions.push_back(R);
  for (SourceLocation L : Handlers->OpenPushes)
    if (NotMain(L))
      C.Regions.OpenPushes.push_back(L);
  for (SourceLocation L : Handlers->UnmatchedPops)
    if (NotMain(L))
      C.Regions.UnmatchedPops.push_back(L);
  for (SourceLocation L : Handlers->UnknownAttributePragmas)
    if (NotMain(L))
      C.Regions.UnknownAttributePragmas.push_back(L);
  scanMainFile(SM, C.Regions);
  return C.Regions;
}

std::optional<PragmaRecords::Offload> offloadPragma(const Stmt *S, const SourceManager &SM) {
  SourceLocation Start = SM.getExpansionLoc(S->getBeginLoc());
  auto Records = pragmaRecords(SM);
  for (const auto &O : Records->Offloads) {
    SourceLocation Hash = SM.getExpansionLoc(O.Hash);
    if (SM.getFileID(Hash) != SM.getFileID(Start) || !SM.isBeforeInTranslationUnit(Hash, Start))
      continue;
    bool Invalid = false;
    const char *P = SM.getCharacterData(Hash, &Invalid);
    if (Invalid)
      continue;
    llvm::StringRef Between(P, SM.getFileOffset(Start) - SM.getFileOffset(Hash));
    // Skip the directive (with its continuation lines), then allow only
    // blanks and comments before the statement.
    size_t I = 0;
    while (I < Between.size() && !(Between[I] == '\n' && (I == 0 || Between[I - 1] != '\\')))
      ++I;
    llvm::StringRef Rest = Between.substr(I);
    bool OnlyBlank = true;
    while (!Rest.empty() && OnlyBlank) {
      Rest = Rest.ltrim();
      if (Rest.starts_with("//"))
        Rest = Rest.drop_until([](char C) { return C == '\n'; });
      else if (Rest.starts_with("/*"))
        Rest = Rest.drop_front(std::min(Rest.size(), Rest.find("*/") + 2));
      else if (!Rest.empty())
        OnlyBlank = false;
    }
    if (OnlyBlank)
      return O;
  }
  return std::nullopt;
}

const Stmt *onlyStatement(const Stmt *Body) {
  while (const auto *CS = dyn_cast_or_null<CompoundStmt>(Body)) {
    if (CS->size() != 1)
      return nullptr;
    Body = CS->body_front();
  }
  return Body;
}

std::optional<CanonicalLoop> analyzeLoop(const ForStmt *FS, std::string *Why,
                                         SourceLocation *Where) {
  auto Fail = [&](const char *What, SourceLocation Loc) -> std::optional<CanonicalLoop> {
    if (Why)
      *Why = What;
    if (Where)
      *Where = Loc;
    return std::nullopt;
  };
  CanonicalLoop L;
  const auto *DS = dyn_cast_or_null<DeclStmt>(FS->getInit());
  if (!DS || !DS->isSingleDecl())
    return Fail("the loop must declare one control variable in its initialization",
                FS->getInit() ? FS->getInit()->getBeginLoc() : FS->getLParenLoc());
  L.Var = dyn_cast<VarDecl>(DS->getSingleDecl());
  if (!L.Var || !L.Var->getInit() || !L.Var->getType()->isIntegerType())
    return Fail("the control variable must be an initialized integer", DS->getBeginLoc());
  L.Lo = L.Var->getInit();

  const auto *Cond = dyn_cast_or_null<BinaryOperator>(
      FS->getCond() ? FS->getCond()->IgnoreParenImpCasts() : nullptr);
  if (!Cond)
    return Fail("the condition must compare the control variable with a bound",
                FS->getCond() ? FS->getCond()->getBeginLoc() : FS->getLParenLoc());
  bool VarOnLeft = refersTo(Cond->getLHS()) == L.Var;
  bool VarOnRight = refersTo(Cond->getRHS()) == L.Var;
  if (VarOnLeft == VarOnRight)
    return Fail("the condition must compare the control variable with a bound",
                Cond->getBeginLoc());
  L.Hi = VarOnLeft ? Cond->getRHS() : Cond->getLHS();
  switch (Cond->getOpcode()) {
  case BO_LT: L.Cmp = VarOnLeft ? Compare::LT : Compare::GT; break;
  case BO_LE: L.Cmp = VarOnLeft ? Compare::LE : Compare::GE; break;
  case BO_GT: L.Cmp = VarOnLeft ? Compare::GT : Compare::LT; break;
  case BO_GE: L.Cmp = VarOnLeft ? Compare::GE : Compare::LE; break;
  case BO_NE: L.Cmp = Compare::NE; break;
  default:
    return Fail("the condition must use <, <=, >, >= or !=", Cond->getOperatorLoc());
  }

  const Expr *Inc = FS->getInc() ? FS->getInc()->IgnoreParenImpCasts() : nullptr;
  if (const auto *UO = dyn_cast_or_null<UnaryOperator>(Inc); UO && UO->isIncrementDecrementOp() &&
                                                             refersTo(UO->getSubExpr()) == L.Var) {
    L.StepNegated = UO->isDecrementOp();
    return L;
  }
  if (const auto *CA = dyn_cast_or_null<CompoundAssignOperator>(Inc);
      CA && refersTo(CA->getLHS()) == L.Var &&
      (CA->getOpcode() == BO_AddAssign || CA->getOpcode() == BO_SubAssign)) {
    L.Step = CA->getRHS();
    L.StepNegated = CA->getOpcode() == BO_SubAssign;
    return L;
  }
  if (const auto *BO = dyn_cast_or_null<BinaryOperator>(Inc);
      BO && BO->getOpcode() == BO_Assign && refersTo(BO->getLHS()) == L.Var) {
    if (const auto *Add = dyn_cast<BinaryOperator>(BO->getRHS()->IgnoreParenImpCasts());
        Add && (Add->getOpcode() == BO_Add || Add->getOpcode() == BO_Sub) &&
        refersTo(Add->getLHS()) == L.Var) {
      L.Step = Add->getRHS();
      L.StepNegated = Add->getOpcode() == BO_Sub;
      return L;
    }
  }
  return Fail("the increment must be ++, --, += or -= of the control variable",
              Inc ? Inc->getBeginLoc() : FS->getRParenLoc());
}

std::optional<uint64_t> constantTripCount(const CanonicalLoop &L, const ASTContext &Ctx) {
  auto Value = [&](const Expr *E) -> std::optional<int64_t> {
    if (!E)
      return 1;
    if (E->isValueDependent() || E->isTypeDependent())
      return std::nullopt;
    if (auto V = E->getIntegerConstantExpr(Ctx))
      return V->getExtValue();
    return std::nullopt;
  };
  auto Lo = Value(L.Lo), Hi = Value(L.Hi), Step = Value(L.Step);
  if (!Lo || !Hi || !Step || *Step == 0)
    return std::nullopt;
  int64_t S = L.StepNegated ? -*Step : *Step;
  int64_t A = *Lo, B = *Hi;
  switch (L.Cmp) {
  case Compare::LT: return S > 0 && A < B ? uint64_t((B - A + S - 1) / S) : 0;
  case Compare::LE: return S > 0 && A <= B ? uint64_t((B - A) / S + 1) : 0;
  case Compare::GT: return S < 0 && A > B ? uint64_t((A - B - S - 1) / -S) : 0;
  case Compare::GE: return S < 0 && A >= B ? uint64_t((A - B) / -S + 1) : 0;
  case Compare::NE: return (B - A) / S > 0 ? uint64_t((B - A) / S) : 0;
  }
  return std::nullopt;
}

static bool hasGfxDeclspec(const FunctionDecl *FD, bool KernelOnly) {
  for (const FunctionDecl *R : FD->redecls())
    for (const auto *A : R->specific_attrs<AnnotateAttr>()) {
      if (A->getAnnotation() != "slmc.cilk.declspec")
        continue;
      llvm::StringRef Arg = annotationArg(A, 0).value_or("");
      std::string Compact;
      for (char C : Arg)
        if (!isspace((unsigned char)C))
          Compact += C;
      if (llvm::StringRef(Compact).contains("target(gfx_kernel)"))
        return true;
      if (!KernelOnly && llvm::StringRef(Compact).contains("target(gfx)"))
        return true;
    }
  return false;
}

bool isGfxKernel(const FunctionDecl *FD) { return hasGfxDeclspec(FD, true); }
bool isGfxFunction(const FunctionDecl *FD) {
  if (hasGfxDeclspec(FD, false))
    return true;
  // Declared between #pragma offload_attribute(push, target(gfx)) and pop.
  const SourceManager &SM = FD->getASTContext().getSourceManager();
  const PragmaRecords &Records = offloadAttributeRegions(SM);
  for (const FunctionDecl *R : FD->redecls()) {
    SourceLocation Loc = SM.getExpansionLoc(R->getLocation());
    for (SourceRange Region : Records.GfxRegions)
      if (writtenWithin(SM, Region, Loc))
        return true;
    for (SourceLocation Push : Records.OpenPushes)
      if (SM.getFileID(SM.getExpansionLoc(Push)) == SM.getFileID(Loc) &&
          SM.isBeforeInTranslationUnit(SM.getExpansionLoc(Push), Loc))
        return true;
  }
  return false;
}

} // namespace slmc::cilk

namespace slmc::cilk {

std::optional<std::vector<OffloadClause>> parseOffloadClauses(llvm::StringRef Text,
                                                              std::string &Error) {
  std::vector<OffloadClause> Out;
  size_t I = 0, N = Text.size();
  auto SkipSpace = [&] {
    while (I < N && isspace((unsigned char)Text[I]))
      ++I;
  };
  // The text up to the parenthesis matching the one at I (exclusive).
  auto Balanced = [&](std::string &Inner) -> bool {
    int Depth = 0;
    size_t Start = I + 1;
    for (; I < N; ++I) {
      if (Text[I] == '(')
        ++Depth;
      else if (Text[I] == ')' && --Depth == 0) {
        Inner = Text.substr(Start, I - Start).trim().str();
        ++I;
        return true;
      }
    }
    return false;
  };
  while (true) {
    SkipSpace();
    if (I >= N)
      break;
    size_t Start = I;
    while (I < N && (isalnum((unsigned char)Text[I]) || Text[I] == '_'))
      ++I;
    if (I == Start) {
      Error = "expected a clause name at '" + Text.substr(Start).str() + "'";
      return std::nullopt;
    }
    OffloadClause C;
    C.Name = Text.substr(Start, I - Start).str();
    SkipSpace();
    if (I < N && Text[I] == '(') {
      if (!Balanced(C.Argument)) {
        Error = "unbalanced parentheses in clause '" + C.Name + "'";
        return std::nullopt;
      }
    }
    if (C.Name == "in" || C.Name == "out" || C.Name == "inout" || C.Name == "pin" ||
        C.Name == "nocopy") {
      llvm::StringRef Arg(C.Argument);
      // Variables before the top-level ':' (modifiers after it).
      int Depth = 0;
      size_t Colon = llvm::StringRef::npos;
      for (size_t K = 0; K < Arg.size(); ++K) {
        if (Arg[K] == '(' || Arg[K] == '[')
          ++Depth;
        else if (Arg[K] == ')' || Arg[K] == ']')
          --Depth;
        else if (Arg[K] == ':' && Depth == 0 &&
                 !(K + 1 < Arg.size() && Arg[K + 1] == ':') && !(K > 0 && Arg[K - 1] == ':')) {
          Colon = K;
          break;
        }
      }
      llvm::StringRef Vars = Arg.substr(0, Colon);
      llvm::SmallVector<llvm::StringRef, 4> Parts;
      Vars.split(Parts, ',', -1, false);
      for (llvm::StringRef P : Parts)
        if (!P.trim().empty())
          C.Vars.push_back(P.trim().str());
      if (C.Vars.empty()) {
        Error = "clause '" + C.Name + "' names no variable";
        return std::nullopt;
      }
      if (Colon != llvm::StringRef::npos) {
        llvm::StringRef Mods = Arg.substr(Colon + 1).trim();
        size_t L = Mods.find("length");
        if (L != llvm::StringRef::npos) {
          size_t Open = Mods.find('(', L);
          int D = 0;
          for (size_t K = Open; Open != llvm::StringRef::npos && K < Mods.size(); ++K) {
            if (Mods[K] == '(')
              ++D;
            else if (Mods[K] == ')' && --D == 0) {
              C.Length = Mods.substr(Open + 1, K - Open - 1).trim().str();
              break;
            }
          }
          if (C.Length.empty()) {
            Error = "malformed 'length' in clause '" + C.Name + "'";
            return std::nullopt;
          }
        }
      }
    }
    Out.push_back(std::move(C));
  }
  return Out;
}

} // namespace slmc::cilk
