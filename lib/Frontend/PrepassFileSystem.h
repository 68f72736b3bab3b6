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
// every door (slmc++'s check pass, slmc-clangd) then parses the same C++,
// diagnostics name the user's files and lines, and `#include "x.h"` finds
// the same files as before.
//
// A file in which the pre-pass finds errors is served unchanged and its
// errors are kept, for reportPrepassErrors() to report where the file is
// entered.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_FRONTEND_PREPASSFILESYSTEM_H
#define SLMC_FRONTEND_PREPASSFILESYSTEM_H

#include "Frontend/ArrayNotation.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class CompilerInstance;
class HeaderSearchOptions;
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

  mutable std::mutex Mutex; // clangd reads files from several threads
  std::vector<std::string> SystemDirs;
  llvm::StringMap<Entry> Entries;
  llvm::StringSet<> Unreadable;
};

/// Reports the pre-pass errors of each file when the compilation enters it,
/// as Clang-style errors at their lines and columns; after them, Clang's
/// own diagnostics (which would only repeat them as parse errors of the
/// array notation left in place) are suppressed.
void reportPrepassErrors(clang::CompilerInstance &CI,
                         llvm::IntrusiveRefCntPtr<PrepassFileSystem> FS);

} // namespace slmc

#endif // SLMC_FRONTEND_PREPASSFILESYSTEM_H
