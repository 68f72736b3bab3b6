//===- PrepassFileSystem.cpp ----------------------------------------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "Prepass/PrepassFileSystem.h"

#include "Prepass/AmpMsvcSource.h"
#include "Prepass/CmMemberTemplates.h"
#include "Prepass/CmRefParameters.h"
#include "Prepass/CmSimdControlFlow.h"
#include "Prepass/KernelAttributes.h"

#include "Basic/Diagnostics.h"

#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/HeaderSearchOptions.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace slmc {

const char PrepassFileSystem::ID = 0;

namespace {

/// A user file as the pre-pass rewrote it.
class RewrittenFile : public vfs::File {
public:
  RewrittenFile(vfs::Status S, std::string Text)
      : S(vfs::Status::copyWithNewSize(S, Text.size())), Text(std::move(Text)) {}
  ErrorOr<vfs::Status> status() override { return S; }
  ErrorOr<std::unique_ptr<MemoryBuffer>> getBuffer(const Twine &Name, int64_t, bool,
                                                   bool) override {
    return MemoryBuffer::getMemBufferCopy(Text, Name);
  }
  std::error_code close() override { return {}; }

private:
  vfs::Status S;
  std::string Text;
};

} // namespace

PrepassFileSystem::PrepassFileSystem(IntrusiveRefCntPtr<vfs::FileSystem> Base)
    : RTTIExtends(std::move(Base)) {}

std::string PrepassFileSystem::canonical(StringRef Path) const {
  SmallString<256> P(Path);
  // Relative paths are relative to the compilation's working directory.
  if (!sys::path::is_absolute(P))
    if (auto CWD = getUnderlyingFS().getCurrentWorkingDirectory())
      sys::path::make_absolute(*CWD, P);
  sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  return std::string(P);
}

void PrepassFileSystem::addSystemDirectory(StringRef Dir) {
  if (Dir.empty())
    return;
  std::string D = canonical(Dir);
  std::lock_guard<std::mutex> Lock(Mutex);
  SystemDirs.push_back(std::move(D));
}

void PrepassFileSystem::addSystemDirectories(const clang::HeaderSearchOptions &HS) {
  using clang::frontend::IncludeDirGroup;
  for (const auto &E : HS.UserEntries)
    if (E.Group != IncludeDirGroup::Quoted && E.Group != IncludeDirGroup::Angled)
      addSystemDirectory(E.Path);
  for (const auto &P : HS.SystemHeaderPrefixes)
    if (P.IsSystemHeader && sys::path::is_absolute(P.Prefix))
      addSystemDirectory(P.Prefix);
  if (!HS.ResourceDir.empty()) {
    SmallString<256> Inc(HS.ResourceDir);
    sys::path::append(Inc, "include");
    addSystemDirectory(Inc);
  }
}

bool PrepassFileSystem::isSystem(StringRef Path) const {
  for (const std::string &Dir : SystemDirs)
    if (Path.starts_with(Dir) &&
        (Path.size() == Dir.size() || sys::path::is_separator(Path[Dir.size()])))
      return true;
  return false;
}

const PrepassFileSystem::Entry *PrepassFileSystem::entryFor(const Twine &Path) {
  std::string Key = canonical(Path.str());
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    if (auto It = Entries.find(Key); It != Entries.end())
      return &It->second;
    if (isSystem(Key) || Unreadable.contains(Key))
      return nullptr;
  }
  auto S = getUnderlyingFS().status(Path);
  if (!S || !S->isRegularFile())
    return nullptr; // directories, missing files: as the base says
  auto File = getUnderlyingFS().openFileForRead(Path);
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
      File ? (*File)->getBuffer(Path) : ErrorOr<std::unique_ptr<MemoryBuffer>>(File.getError());
  std::lock_guard<std::mutex> Lock(Mutex);
  if (!Buf) {
    Unreadable.insert(Key);
    return nullptr;
  }
  return &Entries.try_emplace(Key, prepass(Key, (*Buf)->getBuffer())).first->second;
}

PrepassFileSystem::Entry PrepassFileSystem::prepass(StringRef Key, StringRef Text) {
  ArrayNotationResult R = rewriteArrayNotation(Text);
  Entry E;
  E.Path = Key.str();
  E.Changed = R.Changed && R.Diags.empty();
  E.Text = E.Changed ? std::move(R.Text) : Text.str();
  if (E.Changed)
    E.Original = Text.str();
  E.NeedsCilkHeader = E.Changed && R.NeedsCilkHeader;
  E.Diags = std::move(R.Diags);
  // The text-to-text passes after it, each on what the one before made.
  using TextPass = std::optional<std::string> (*)(StringRef);
  const TextPass Passes[] = {
      rewriteKernelAttributes,  // SYCL kernel attributes the prelude cannot spell
      rewriteAmpMsvcSource,     // C++ AMP as MSVC accepted it
      insertCmTemplateKeywords, // C for Metal member templates without `template`
      addCmRefForwarders,       // C for Metal values passed to _ref parameters
      maskCmSimdControlFlow,    // writes in C for Metal SIMD control flow blocks
  };
  for (TextPass Pass : Passes)
    if (std::optional<std::string> Rewritten = Pass(E.Text)) {
      if (!E.Changed)
        E.Original = Text.str();
      E.Text = std::move(*Rewritten);
      E.Changed = true;
    }
  return E;
}

PrepassFileSystem::Entry PrepassFileSystem::prepassText(StringRef Path, StringRef Text) {
  std::string Key = canonical(Path);
  Entry E = prepass(Key, Text);
  std::lock_guard<std::mutex> Lock(Mutex);
  Entries.insert_or_assign(Key, E);
  return E;
}

ErrorOr<vfs::Status> PrepassFileSystem::status(const Twine &Path) {
  auto S = getUnderlyingFS().status(Path);
  if (!S || !S->isRegularFile())
    return S;
  const Entry *E = entryFor(Path);
  if (!E || !E->Changed)
    return S;
  return vfs::Status::copyWithNewSize(*S, E->Text.size());
}

ErrorOr<std::unique_ptr<vfs::File>> PrepassFileSystem::openFileForRead(const Twine &Path) {
  const Entry *E = entryFor(Path);
  if (!E || !E->Changed)
    return getUnderlyingFS().openFileForRead(Path);
  auto S = getUnderlyingFS().status(Path);
  if (!S)
    return S.getError();
  return std::unique_ptr<vfs::File>(
      new RewrittenFile(vfs::Status::copyWithNewName(*S, Path), E->Text));
}

std::optional<PrepassFileSystem::Entry> PrepassFileSystem::prepassFile(StringRef Path) {
  if (const Entry *E = entryFor(Path)) {
    std::lock_guard<std::mutex> Lock(Mutex);
    return *E;
  }
  return std::nullopt;
}

std::optional<PrepassFileSystem::Entry> PrepassFileSystem::lookup(StringRef Path) const {
  std::string Key = canonical(Path);
  std::lock_guard<std::mutex> Lock(Mutex);
  if (auto It = Entries.find(Key); It != Entries.end())
    return It->second;
  return std::nullopt;
}

std::vector<PrepassFileSystem::Entry> PrepassFileSystem::rewritten() const {
  std::lock_guard<std::mutex> Lock(Mutex);
  std::vector<Entry> Out;
  for (const auto &KV : Entries)
    if (KV.second.Changed || !KV.second.Diags.empty())
      Out.push_back(KV.second);
  std::sort(Out.begin(), Out.end(),
            [](const Entry &A, const Entry &B) { return A.Path < B.Path; });
  return Out;
}

namespace {

class PrepassErrorReporter : public clang::PPCallbacks {
public:
  PrepassErrorReporter(clang::Preprocessor &PP,
                       IntrusiveRefCntPtr<PrepassFileSystem> FS, PrepassErrorSink Sink)
      : PP(PP), FS(std::move(FS)), Sink(std::move(Sink)) {}

  void FileChanged(clang::SourceLocation Loc, FileChangeReason Reason,
                   clang::SrcMgr::CharacteristicKind, clang::FileID) override {
    if (Reason != EnterFile)
      return;
    clang::SourceManager &SM = PP.getSourceManager();
    clang::FileID FID = SM.getFileID(Loc);
    auto File = SM.getFileEntryRefForID(FID);
    if (!File || !Reported.insert(FID.getHashValue()).second)
      return;
    std::optional<PrepassFileSystem::Entry> E = FS->lookup(File->getName());
    if (!E || E->Diags.empty())
      return;
    clang::DiagnosticsEngine &Diags = PP.getDiagnostics();
    Reporter R(Diags, Diags.getDiagnosticOptions());
    for (const PrepassDiagnostic &D : E->Diags) {
      clang::SourceLocation Loc = SM.translateLineCol(FID, D.Line, D.Column);
      if (Sink)
        Sink(Loc, D.Message);
      else
        R.report(Loc, Diag::err_array_notation) << D.Message;
    }
    // What follows would be parse errors of the same statements.
    Diags.setSuppressAllDiagnostics(true);
  }

private:
  clang::Preprocessor &PP;
  IntrusiveRefCntPtr<PrepassFileSystem> FS;
  PrepassErrorSink Sink;
  DenseSet<unsigned> Reported;
};

/// Gives each user header its rewritten text before it is entered.
class RewriteIncludedFiles : public clang::PPCallbacks {
public:
  RewriteIncludedFiles(clang::SourceManager &SM, IntrusiveRefCntPtr<PrepassFileSystem> FS)
      : SM(SM), FS(std::move(FS)) {}

  void InclusionDirective(clang::SourceLocation, const clang::Token &, StringRef, bool,
                          clang::CharSourceRange, clang::OptionalFileEntryRef File,
                          StringRef, StringRef, const clang::Module *, bool ModuleImported,
                          clang::SrcMgr::CharacteristicKind Kind) override {
    // A file already given its text keeps it: file IDs of earlier
    // inclusions point into that buffer.
    if (!File || ModuleImported || clang::SrcMgr::isSystem(Kind) ||
        SM.isFileOverridden(&File->getFileEntry()))
      return;
    std::optional<PrepassFileSystem::Entry> E = FS->prepassFile(File->getName());
    if (E && E->Changed)
      SM.overrideFileContents(*File, MemoryBuffer::getMemBufferCopy(E->Text, File->getName()));
  }

private:
  clang::SourceManager &SM;
  IntrusiveRefCntPtr<PrepassFileSystem> FS;
};

} // namespace

void reportPrepassErrors(clang::Preprocessor &PP,
                         IntrusiveRefCntPtr<PrepassFileSystem> FS, PrepassErrorSink Sink) {
  PP.addPPCallbacks(
      std::make_unique<PrepassErrorReporter>(PP, std::move(FS), std::move(Sink)));
}

void reportPrepassErrors(clang::CompilerInstance &CI,
                         IntrusiveRefCntPtr<PrepassFileSystem> FS) {
  reportPrepassErrors(CI.getPreprocessor(), std::move(FS));
}

IntrusiveRefCntPtr<PrepassFileSystem>
installPrepass(clang::Preprocessor &PP, StringRef SlmcInclude, bool MainFileToo,
               PrepassErrorSink Sink) {
  clang::FileManager &FM = PP.getFileManager();
  auto FS = makeIntrusiveRefCnt<PrepassFileSystem>(FM.getVirtualFileSystemPtr());
  FS->addSystemDirectories(PP.getHeaderSearchInfo().getHeaderSearchOpts());
  FS->addSystemDirectory(SlmcInclude);
  clang::SourceManager &SM = PP.getSourceManager();
  PP.addPPCallbacks(std::make_unique<RewriteIncludedFiles>(SM, FS));
  reportPrepassErrors(PP, FS, std::move(Sink));

  clang::FileID Main = SM.getMainFileID();
  clang::OptionalFileEntryRef File = SM.getFileEntryRefForID(Main);
  if (!MainFileToo || !File)
    return FS;
  // The text the compilation has (an editor's unsaved buffer, in clangd),
  // not the file on disk.
  StringRef Text = SM.getBufferData(Main);
  PrepassFileSystem::Entry E = FS->prepassText(File->getName(), Text);
  if (!E.Changed)
    return FS;
  // With a preamble (clangd), the lexer skips the main file's leading
  // directives, which the preamble holds (rewritten too: the pre-pass
  // changes the GNU gfx attribute in directives): skip as far in the
  // rewritten text, to the same line and column (the pre-pass keeps lines).
  const auto &Skip = PP.getPreprocessorOpts().PrecompiledPreambleBytes;
  if (Skip.first > 0 && Skip.first <= Text.size()) {
    StringRef Before = Text.take_front(Skip.first);
    size_t Line = Before.count('\n');
    size_t Column = Skip.first - (Before.rfind('\n') + 1); // npos + 1 == 0
    size_t At = 0;
    for (size_t L = 0; L < Line; ++L) {
      At = E.Text.find('\n', At);
      if (At == std::string::npos)
        return FS; // cannot happen: the pre-pass keeps lines
      ++At;
    }
    size_t LineEnd = std::min(E.Text.find('\n', At), E.Text.size());
    PP.setSkipMainFilePreamble(unsigned(std::min(At + Column, LineEnd)), Skip.second);
  }
  // A file ID spans the size its text had when it was created, so the
  // longer rewritten text needs a new one; it takes the old one's place
  // before the preprocessor enters the main file.
  clang::SrcMgr::CharacteristicKind Kind =
      SM.getFileCharacteristic(SM.getLocForStartOfFile(Main));
  SM.overrideFileContents(*File, MemoryBuffer::getMemBufferCopy(E.Text, File->getName()));
  SM.setMainFileID(SM.createFileID(*File, clang::SourceLocation(), Kind));
  return FS;
}

} // namespace slmc
