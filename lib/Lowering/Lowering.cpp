//===- Lowering.cpp -------------------------------------------------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "Lowering/Lowering.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/Path.h"

#include <optional>

using namespace clang;

namespace slmc {

LoweringContext::LoweringContext(ASTContext &Ctx, Reporter &R)
    : Ctx(Ctx), R(R), Rewrite(Ctx.getSourceManager(), Ctx.getLangOpts()) {}

bool LoweringContext::isUserFile(SourceLocation Loc) const {
  const SourceManager &SM = Ctx.getSourceManager();
  Loc = SM.getExpansionLoc(Loc);
  return Loc.isValid() && !SM.isInSystemHeader(Loc) &&
         SM.getFileEntryRefForID(SM.getFileID(Loc));
}

bool LoweringContext::editable(SourceLocation Loc) {
  if (isUserFile(Loc))
    return true;
  const SourceManager &SM = Ctx.getSourceManager();
  FileID FID = SM.getFileID(SM.getExpansionLoc(Loc));
  if (std::find(Reported.begin(), Reported.end(), FID) == Reported.end()) {
    Reported.push_back(FID);
    auto File = SM.getFileEntryRefForID(FID);
    R.report(Loc, Diag::err_lowering_in_system_header)
        << (File ? File->getName() : llvm::StringRef("<built-in>"));
  }
  return false;
}

std::optional<SourceRange> LoweringContext::spelledInMacro(SourceRange Range) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation B = SM.getSpellingLoc(Range.getBegin()),
                 E = SM.getSpellingLoc(Range.getEnd());
  // One macro expansion entry maps a contiguous piece of its definition or
  // of one argument: the range is spelled as one piece when both ends lie in
  // the same entry, as far apart there as where they are spelled.
  auto [BF, BO] = SM.getDecomposedLoc(Range.getBegin());
  auto [EF, EO] = SM.getDecomposedLoc(Range.getEnd());
  if (Range.getBegin().isMacroID() && Range.getEnd().isMacroID() && BF == EF &&
      SM.getFileID(B) == SM.getFileID(E) && EO >= BO &&
      SM.getFileOffset(E) >= SM.getFileOffset(B) &&
      SM.getFileOffset(E) - SM.getFileOffset(B) == EO - BO)
    return SourceRange(B, E);
  R.report(Range.getBegin(), Diag::err_lowering_macro_pieces);
  return std::nullopt;
}

bool LoweringContext::firstEdit(SourceLocation Spelled, llvm::StringRef Text) {
  const SourceManager &SM = Ctx.getSourceManager();
  auto Key = std::make_pair(SM.getFileID(Spelled).getHashValue(), SM.getFileOffset(Spelled));
  auto [It, New] = MacroEdits.try_emplace(Key, Text.str());
  if (!New && It->second != Text)
    R.report(Spelled, Diag::err_lowering_macro_differs);
  return New;
}

bool LoweringContext::replace(SourceRange Range, llvm::StringRef Text) {
  const SourceManager &SM = Ctx.getSourceManager();
  // Text of the file that is exactly this range (a whole macro invocation,
  // text in one argument): edited there, as for this expansion only.
  CharSourceRange File = Lexer::makeFileCharRange(CharSourceRange::getTokenRange(Range), SM,
                                                  Ctx.getLangOpts());
  if (File.isValid()) {
    if (!editable(File.getBegin()))
      return false;
    return !Rewrite.ReplaceText(File, Text);
  }
  if (Range.getBegin().isMacroID() || Range.getEnd().isMacroID()) {
    // Written inside a macro's definition or argument: the edit goes where
    // the text is spelled, once for all the macro's expansions (lowering
    // edits keywords, which mean the same in each), not over the whole
    // invocation.
    std::optional<SourceRange> Spelled = spelledInMacro(Range);
    if (!Spelled || !editable(Spelled->getBegin()))
      return false;
    if (!firstEdit(Spelled->getBegin(), Text))
      return true;
    return !Rewrite.ReplaceText(CharSourceRange::getTokenRange(*Spelled), Text);
  }
  if (!editable(Range.getBegin()))
    return false;
  CharSourceRange CR = CharSourceRange::getTokenRange(
      SM.getExpansionLoc(Range.getBegin()), SM.getExpansionRange(Range.getEnd()).getEnd());
  return !Rewrite.ReplaceText(CR, Text);
}

bool LoweringContext::insertBefore(SourceLocation Loc, llvm::StringRef Text) {
  if (!editable(Loc))
    return false;
  return !Rewrite.InsertTextBefore(Ctx.getSourceManager().getExpansionLoc(Loc), Text);
}

bool LoweringContext::removeDirective(SourceLocation Hash) {
  if (!editable(Hash))
    return false;
  const SourceManager &SM = Ctx.getSourceManager();
  Hash = SM.getExpansionLoc(Hash);
  bool Invalid = false;
  const char *P = SM.getCharacterData(Hash, &Invalid);
  if (Invalid)
    return false;
  llvm::StringRef Rest(P, SM.getBufferData(SM.getFileID(Hash)).end() - P);
  // The directive ends at the first line break not escaped by a backslash.
  std::string Blank;
  size_t I = 0;
  for (; I < Rest.size(); ++I) {
    if (Rest[I] == '\n') {
      if (I > 0 && Rest[I - 1] == '\\') {
        Blank.back() = ' ';
        Blank += '\n';
        continue;
      }
      break;
    }
    Blank += ' ';
  }
  return !Rewrite.ReplaceText(Hash, I, Blank);
}

bool LoweringContext::insertAfterToken(SourceLocation Loc, llvm::StringRef Text) {
  if (!editable(Loc))
    return false;
  return !Rewrite.InsertTextAfterToken(Ctx.getSourceManager().getExpansionLoc(Loc),
                                       Text);
}

void LoweringContext::addPrologue(llvm::StringRef Text) {
  if (std::find(Prologue.begin(), Prologue.end(), Text) == Prologue.end())
    Prologue.push_back(Text.str());
}

void LoweringContext::makeDeviceCallable(const FunctionDecl *FD) {
  if (const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern())
    FD = Pattern;
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Loc = FD->getInnerLocStart();
  if (FD->isImplicit() || FD->isDefaulted() || FD->isConstexpr() ||
      Loc.isInvalid() || SM.isInSystemHeader(SM.getExpansionLoc(Loc)))
    return;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD); MD && MD->getParent()->isLambda())
    return; // lambdas are host and device already
  for (const auto *A : FD->specific_attrs<AnnotateAttr>())
    if (A->getAnnotation() == "slmc.hd")
      return;
  if (FD->hasAttr<CUDADeviceAttr>())
    return;
  // Every declaration: offload C++ refuses a host-and-device definition of
  // a function first declared host-only (a prototype, a member function
  // defined outside its class).
  for (const FunctionDecl *D : FD->redecls()) {
    Loc = D->getInnerLocStart();
    if (D->isImplicit() || Loc.isInvalid() || SM.isInSystemHeader(SM.getExpansionLoc(Loc)))
      continue;
    Loc = SM.getExpansionLoc(Loc);
    if (std::find(MadeDeviceCallable.begin(), MadeDeviceCallable.end(), Loc) !=
        MadeDeviceCallable.end())
      continue;
    MadeDeviceCallable.push_back(Loc);
    insertBefore(Loc, "SLMC_HD ");
  }
}

LoweredOutput LoweringContext::output(llvm::StringRef PresumedName) {
  const SourceManager &SM = Ctx.getSourceManager();
  FileID Main = SM.getMainFileID();
  LoweredOutput Result;
  std::string Out = "// Lowered by slmc from ";
  Out += PresumedName;
  Out += "; compile with slmc/offload.h.\n#include <slmc/offload.h>\n";
  for (const std::string &P : Prologue)
    Out += P + "\n";
  Out += "#line 1 \"";
  for (char C : PresumedName) {
    if (C == '\\' || C == '"')
      Out += '\\';
    Out += C;
  }
  Out += "\"\n";
  const size_t Body = Out.size();
  if (const llvm::RewriteBuffer *B = Rewrite.getRewriteBufferFor(Main))
    Out.append(B->begin(), B->end());
  else
    Out += SM.getBufferData(Main);
  // A UTF-8 byte order mark (Visual Studio's "UTF-8 with signature") is
  // skipped only at the start of a file: here it would be an unexpected
  // character. Spaces keep line 1's columns, which count its bytes.
  if (llvm::StringRef(Out).substr(Body).starts_with("\xEF\xBB\xBF"))
    Out.replace(Body, 3, "   ");
  if (!Epilogue.empty())
    Out += "\n// ---- generated by slmc\n" + Epilogue;
  Result.Main = std::move(Out);

  // Headers: one copy per file, however often it was entered.
  for (auto It = Rewrite.buffer_begin(); It != Rewrite.buffer_end(); ++It) {
    if (It->first == Main)
      continue;
    auto File = SM.getFileEntryRefForID(It->first);
    if (!File)
      continue;
    llvm::SmallString<256> Path(File->getName());
    Ctx.getSourceManager().getFileManager().makeAbsolutePath(Path);
    llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
    std::string Text(It->second.begin(), It->second.end());
    auto Same = std::find_if(Result.Headers.begin(), Result.Headers.end(),
                             [&](const LoweredFile &F) { return F.Path == Path; });
    if (Same == Result.Headers.end())
      Result.Headers.push_back({std::string(Path), std::move(Text)});
    else if (Same->Text != Text)
      R.report(SM.getIncludeLoc(It->first), Diag::err_lowering_header_differs)
          << File->getName();
  }
  return Result;
}

bool lowerProgram(const ProgramModel &Model, LoweringContext &L) {
  std::vector<std::unique_ptr<DialectLowering>> Lowerings;
  Lowerings.push_back(createAmpLowering());
  Lowerings.push_back(createSyclLowering());
  Lowerings.push_back(createCmLowering());
  Lowerings.push_back(createCilkLowering());
  for (auto &Lw : Lowerings)
    Lw->lower(Model, L);
  return !L.astContext().getDiagnostics().hasErrorOccurred();
}

} // namespace slmc
