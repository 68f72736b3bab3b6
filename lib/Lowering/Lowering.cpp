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

using namespace clang;

namespace slmc {

LoweringContext::LoweringContext(ASTContext &Ctx, Reporter &R)
    : Ctx(Ctx), R(R), Rewrite(Ctx.getSourceManager(), Ctx.getLangOpts()) {}

bool LoweringContext::inMainFile(SourceLocation Loc) {
  const SourceManager &SM = Ctx.getSourceManager();
  FileID FID = SM.getFileID(SM.getExpansionLoc(Loc));
  if (FID == SM.getMainFileID())
    return true;
  if (std::find(Reported.begin(), Reported.end(), FID) == Reported.end()) {
    Reported.push_back(FID);
    R.report(Loc, Diag::err_lowering_outside_main_file)
        << SM.getFileEntryRefForID(FID)->getName();
  }
  return false;
}

bool LoweringContext::replace(SourceRange Range, llvm::StringRef Text) {
  if (!inMainFile(Range.getBegin()))
    return false;
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange CR = CharSourceRange::getTokenRange(
      SM.getExpansionLoc(Range.getBegin()), SM.getExpansionRange(Range.getEnd()).getEnd());
  return !Rewrite.ReplaceText(CR, Text);
}

bool LoweringContext::insertBefore(SourceLocation Loc, llvm::StringRef Text) {
  if (!inMainFile(Loc))
    return false;
  return !Rewrite.InsertTextBefore(Ctx.getSourceManager().getExpansionLoc(Loc), Text);
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
  Loc = SM.getExpansionLoc(Loc);
  if (std::find(MadeDeviceCallable.begin(), MadeDeviceCallable.end(), Loc) !=
      MadeDeviceCallable.end())
    return;
  MadeDeviceCallable.push_back(Loc);
  insertBefore(Loc, "SLMC_HD ");
}

std::string LoweringContext::output(llvm::StringRef PresumedName) const {
  const SourceManager &SM = Ctx.getSourceManager();
  FileID Main = SM.getMainFileID();
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
  if (const llvm::RewriteBuffer *B = Rewrite.getRewriteBufferFor(Main))
    Out.append(B->begin(), B->end());
  else
    Out += SM.getBufferData(Main);
  return Out;
}

bool lowerProgram(const ProgramModel &Model, LoweringContext &L) {
  std::vector<std::unique_ptr<DialectLowering>> Lowerings;
  Lowerings.push_back(createAmpLowering());
  Lowerings.push_back(createSyclLowering());
  for (auto &Lw : Lowerings)
    Lw->lower(Model, L);
  return !L.astContext().getDiagnostics().hasErrorOccurred();
}

} // namespace slmc
