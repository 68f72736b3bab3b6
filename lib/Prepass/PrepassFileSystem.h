//===- PrepassFileSystem.h - User sources with array notation rewritten -*- C++ -*-===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Cilk Plus array notation is not C++, so it is rewritten in the source text
// before Clang reads it (ArrayNotation.h). Rather than writing rewritten
// copies of files under other names, this file system serves every user
// file (the main file and the project's headers; never a file under a
// system include directory) with the pre-pass applied, under its own name:
// slmc++'s check pass reads through it, slmc-clangd and the clang-tidy
// module get the same text through installPrepass (below), so every door
// parses the same C++, diagnostics name the user's files and lines, and
// `#include "x.h"` finds the same files as before.
//
// A file in which the pre-pass finds errors is served unchanged and its
// errors are kept, for reportPrepassErrors() to report where the file is
// entered.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_PREPASS_PREPASSFILESYSTEM_H
#define SLMC_PREPASS_PREPASSFILESYSTEM_H

#include "Prepass/ArrayNotation.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class CompilerInstance;
class HeaderSearchOptions;
class SourceLocation;
class Preprocessor;
} // namespace clang

namespace slmc {

class PrepassFileSystem
    : public llvm::RTTIExtends<PrepassFileSystem, llvm::vfs::ProxyFileSystem> {
public:
  static const char ID;

  /// What the pre-pass made of one user file.
  struct Entry {
    std::string Path;     // absolute, without . or ..
    std::string Text;     // what is served (the original if there were errors)
    std::string Original; // the text as written, when Changed
    bool Changed = false; // Text differs from the file on disk
    bool NeedsCilkHeader = false;
    std::vector<PrepassDiagnostic> Diags;
  };

  explicit PrepassFileSystem(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Base);

  /// Files under `Dir` are system headers: served as they are.
  void addSystemDirectory(llvm::StringRef Dir);
  /// Every system directory of a compilation (-isystem, the C++ library,
  /// the resource directory, ...).
  void addSystemDirectories(const clang::HeaderSearchOptions &HSOpts);

  llvm::ErrorOr<llvm::vfs::Status> status(const llvm::Twine &Path) override;
  llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>>
  openFileForRead(const llvm::Twine &Path) override;

  /// Runs the pre-pass on `Text`, the contents of user file `Path` as a
  /// door already has them (clangd's editor buffer): what lookup() then
  /// gives for that file. The file itself is not read.
  Entry prepassText(llvm::StringRef Path, llvm::StringRef Text);

  /// The pre-pass's result for user file `Path`, read from the underlying
  /// file system on first use; none for system files and files that cannot
  /// be read.
  std::optional<Entry> prepassFile(llvm::StringRef Path);

  /// The pre-pass's result for a file read so far (by any spelling of its
  /// path); none for system headers and files not read.
  std::optional<Entry> lookup(llvm::StringRef Path) const;
  /// Every user file read so far that the pre-pass changed or found errors
  /// in.
  std::vector<Entry> rewritten() const;

private:
  std::string canonical(llvm::StringRef Path) const;
  bool isSystem(llvm::StringRef CanonicalPath) const;
  /// The entry of a user file, running the pre-pass on first use; null for
  /// system files and files that cannot be read.
  const Entry *entryFor(const llvm::Twine &Path);
  static Entry prepass(llvm::StringRef Key, llvm::StringRef Text);

  mutable std::mutex Mutex; // clangd reads files from several threads
  std::vector<std::string> SystemDirs;
  llvm::StringMap<Entry> Entries;
  llvm::StringSet<> Unreadable;
};

/// Reports the pre-pass errors of each file when the compilation enters it,
/// as Clang-style errors at their lines and columns; after them, Clang's
/// own diagnostics (which would only repeat them as parse errors of the
/// array notation left in place) are suppressed.
/// Where a door wants pre-pass errors that are not to go to the
/// compilation's DiagnosticsEngine (clang-tidy: under its check's name).
using PrepassErrorSink =
    std::function<void(clang::SourceLocation, llvm::StringRef Message)>;
void reportPrepassErrors(clang::CompilerInstance &CI,
                         llvm::IntrusiveRefCntPtr<PrepassFileSystem> FS);
void reportPrepassErrors(clang::Preprocessor &PP,
                         llvm::IntrusiveRefCntPtr<PrepassFileSystem> FS,
                         PrepassErrorSink Sink = nullptr);

/// The pre-pass in a door that does not choose the file system of its
/// compilations (slmc-clangd, clang-tidy with slmc's module): called once
/// the preprocessor exists and before parsing starts (the main file is
/// loaded, nothing else of the user's is), it makes the compilation read
/// every user file rewritten. Each user header gets its rewritten text as
/// the source manager's contents for it when an #include names it, before
/// it is entered; the file manager is left alone, so a file's size and date
/// stay those on disk (clangd keeps a preamble while they do not change).
/// The main file, already loaded, gets a new file ID holding its rewritten
/// text (the old one is never lexed), unless `MainFileToo` is false (a
/// preamble build, which reads only the main file's leading directives).
/// Files under `SlmcInclude` and the compilation's system directories are
/// read as they are; pre-pass errors are reported as by
/// reportPrepassErrors. The returned file system is not the compilation's:
/// it holds what the pre-pass made of each file (lookup()).
llvm::IntrusiveRefCntPtr<PrepassFileSystem>
installPrepass(clang::Preprocessor &PP, llvm::StringRef SlmcInclude,
               bool MainFileToo = true, PrepassErrorSink Sink = nullptr);

} // namespace slmc

#endif // SLMC_PREPASS_PREPASSFILESYSTEM_H
