//===- CheckMode.cpp - slmc-clangd --check=FILE ---------------------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// clangd's own --check builds the file without feature modules, so it would
// not see slmc at all. slmc-clangd's --check instead runs the real server (a
// child slmc-clangd speaking LSP over pipes, exactly as an editor would),
// opens the file, and prints what the editor would show, in the compiler's
// format:
//
//   file:L:C: error: Message [code]
//   file:L:C: note: Message             (the diagnostic's related information)
//   fix-it:"file":{L:C-L:C}:"text"      (the edits of its quick fixes)
//
// Lines and columns are 1-based bytes (the session negotiates UTF-8
// offsets), as in clang's output. clangd capitalizes the first letter of
// each message. The exit status is 1 when there is an error, as for a
// compiler.
//
//===----------------------------------------------------------------------===//
#include "CheckMode.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace slmc::clangd {
namespace {

namespace json = llvm::json;

class Connection {
public:
  Connection(int In, int Out) : In(In), Out(Out) {}

  bool send(json::Value Message) {
    std::string Body;
    llvm::raw_string_ostream(Body) << Message;
    std::string Frame =
        "Content-Length: " + std::to_string(Body.size()) + "\r\n\r\n" + Body;
    for (size_t Done = 0; Done < Frame.size();) {
      ssize_t N = ::write(Out, Frame.data() + Done, Frame.size() - Done);
      if (N < 0 && errno == EINTR)
        continue;
      if (N <= 0)
        return false;
      Done += size_t(N);
    }
    return true;
  }

  std::optional<json::Value> receive() {
    size_t Length = 0;
    for (;;) { // headers
      std::string Line;
      if (!readLine(Line))
        return std::nullopt;
      if (Line.empty())
        break;
      llvm::StringRef L = Line;
      if (L.consume_front_insensitive("Content-Length:"))
        L.trim().getAsInteger(10, Length);
    }
    std::string Body;
    while (Body.size() < Length) {
      if (Buffered.empty() && !fill())
        return std::nullopt;
      size_t Take = std::min(Length - Body.size(), Buffered.size());
      Body.append(Buffered, 0, Take);
      Buffered.erase(0, Take);
    }
    auto V = json::parse(Body);
    if (!V) {
      llvm::consumeError(V.takeError());
      return std::nullopt;
    }
    return std::move(*V);
  }

private:
  bool fill() {
    char Buf[65536];
    for (;;) {
      ssize_t N = ::read(In, Buf, sizeof Buf);
      if (N < 0 && errno == EINTR)
        continue;
      if (N <= 0)
        return false;
      Buffered.append(Buf, size_t(N));
      return true;
    }
  }
  bool readLine(std::string &Line) {
    for (;;) {
      size_t End = Buffered.find("\r\n");
      if (End != std::string::npos) {
        Line = Buffered.substr(0, End);
        Buffered.erase(0, End + 2);
        return true;
      }
      if (!fill())
        return false;
    }
  }

  int In, Out;
  std::string Buffered;
};

std::string uriFor(llvm::StringRef Path) {
  std::string U = "file://";
  for (char C : Path) {
    if (llvm::isAlnum(C) || llvm::StringRef("/-_.~").contains(C))
      U += C;
    else {
      char Hex[4];
      snprintf(Hex, sizeof Hex, "%%%02X", unsigned((unsigned char)C));
      U += Hex;
    }
  }
  return U;
}

std::string pathFor(llvm::StringRef URI) {
  if (!URI.consume_front("file://"))
    return URI.str();
  std::string P;
  for (size_t I = 0; I < URI.size(); ++I) {
    unsigned V;
    if (URI[I] == '%' && I + 2 < URI.size() &&
        !URI.substr(I + 1, 2).getAsInteger(16, V)) {
      P += char(V);
      I += 2;
    } else {
      P += URI[I];
    }
  }
  return P;
}

struct Position {
  int64_t Line = 0, Column = 0; // 1-based
};

Position position(const json::Object *P) {
  Position Pos;
  if (P) {
    Pos.Line = P->getInteger("line").value_or(0) + 1;
    Pos.Column = P->getInteger("character").value_or(0) + 1;
  }
  return Pos;
}

const json::Object *rangeStart(const json::Object *O) {
  if (const json::Object *R = O ? O->getObject("range") : nullptr)
    return R->getObject("start");
  return nullptr;
}

const char *severityName(int64_t S) {
  switch (S) {
  case 1: return "error";
  case 2: return "warning";
  case 3: return "note";
  default: return "remark";
  }
}

/// Prints one published diagnostic as the compiler would.
void print(llvm::raw_ostream &OS, llvm::StringRef Path, const json::Object &D) {
  Position P = position(rangeStart(&D));
  OS << Path << ":" << P.Line << ":" << P.Column << ": "
     << severityName(D.getInteger("severity").value_or(1)) << ": "
     << D.getString("message").value_or("");
  if (auto Code = D.getString("code"))
    OS << " [" << *Code << "]";
  OS << "\n";
  if (const json::Array *Related = D.getArray("relatedInformation"))
    for (const json::Value &RV : *Related) {
      const json::Object *R = RV.getAsObject();
      const json::Object *Loc = R ? R->getObject("location") : nullptr;
      if (!Loc)
        continue;
      Position NP = position(rangeStart(Loc));
      OS << pathFor(Loc->getString("uri").value_or("")) << ":" << NP.Line
         << ":" << NP.Column << ": note: " << R->getString("message").value_or("")
         << "\n";
    }
  if (const json::Array *Actions = D.getArray("codeActions"))
    for (const json::Value &AV : *Actions) {
      const json::Object *A = AV.getAsObject();
      const json::Object *Edit = A ? A->getObject("edit") : nullptr;
      const json::Object *Changes = Edit ? Edit->getObject("changes") : nullptr;
      if (!Changes)
        continue;
      for (const auto &FileEdits : *Changes)
        if (const json::Array *Edits = FileEdits.second.getAsArray())
          for (const json::Value &EV : *Edits) {
            const json::Object *E = EV.getAsObject();
            const json::Object *R = E ? E->getObject("range") : nullptr;
            if (!R)
              continue;
            Position B = position(R->getObject("start"));
            Position End = position(R->getObject("end"));
            OS << "fix-it:\"" << pathFor(FileEdits.first) << "\":{" << B.Line
               << ":" << B.Column << "-" << End.Line << ":" << End.Column
               << "}:\"";
            OS.write_escaped(E->getString("newText").value_or(""));
            OS << "\"\n";
          }
    }
}

} // namespace

int runCheck(llvm::StringRef File, const std::string &Self,
             const std::vector<std::string> &ServerArgs) {
  llvm::SmallString<256> Path(File);
  if (std::error_code EC = llvm::sys::fs::make_absolute(Path)) {
    llvm::errs() << "slmc-clangd: " << File << ": " << EC.message() << "\n";
    return 2;
  }
  llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  auto Text = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Text) {
    llvm::errs() << "slmc-clangd: " << File << ": "
                 << Text.getError().message() << "\n";
    return 2;
  }

  // The server: this binary without --check, answering one request at a
  // time (--sync), so the diagnostics of didOpen come before the reply to
  // the request that follows it.
  std::vector<std::string> Args = {Self, "--sync", "--background-index=false"};
  bool HasLog = false;
  for (const std::string &A : ServerArgs)
    HasLog |= llvm::StringRef(A).starts_with("--log");
  if (!HasLog)
    Args.push_back("--log=error");
  Args.insert(Args.end(), ServerArgs.begin(), ServerArgs.end());
  std::vector<char *> Argv;
  for (std::string &A : Args)
    Argv.push_back(A.data());
  Argv.push_back(nullptr);

  int ToServer[2], FromServer[2];
  if (pipe(ToServer) || pipe(FromServer)) {
    perror("slmc-clangd: pipe");
    return 2;
  }
  posix_spawn_file_actions_t Actions;
  posix_spawn_file_actions_init(&Actions);
  posix_spawn_file_actions_adddup2(&Actions, ToServer[0], 0);
  posix_spawn_file_actions_adddup2(&Actions, FromServer[1], 1);
  for (int FD : {ToServer[0], ToServer[1], FromServer[0], FromServer[1]})
    posix_spawn_file_actions_addclose(&Actions, FD);
  pid_t Pid;
  int Err = posix_spawn(&Pid, Self.c_str(), &Actions, nullptr, Argv.data(),
                        environ);
  posix_spawn_file_actions_destroy(&Actions);
  close(ToServer[0]);
  close(FromServer[1]);
  if (Err) {
    llvm::errs() << "slmc-clangd: cannot start the server: " << strerror(Err)
                 << "\n";
    return 2;
  }
  signal(SIGPIPE, SIG_IGN);
  // A server that hangs must not hang the caller (a test, a script): stop
  // after five minutes; the server exits when its input closes.
  alarm(300);

  Connection C(FromServer[0], ToServer[1]);
  llvm::SmallString<256> Cwd;
  llvm::sys::fs::current_path(Cwd);
  std::string URI = uriFor(Path);
  json::Object Caps{
      {"general", json::Object{{"positionEncodings", json::Array{"utf-8"}}}},
      {"textDocument",
       json::Object{{"publishDiagnostics",
                     json::Object{{"relatedInformation", true},
                                  {"codeActionsInline", true}}}}}};
  C.send(json::Object{{"jsonrpc", "2.0"},
                      {"id", 1},
                      {"method", "initialize"},
                      {"params", json::Object{{"processId", int64_t(getpid())},
                                              {"rootUri", uriFor(Cwd)},
                                              {"capabilities", std::move(Caps)}}}});
  C.send(json::Object{{"jsonrpc", "2.0"},
                      {"method", "initialized"},
                      {"params", json::Object{}}});
  C.send(json::Object{
      {"jsonrpc", "2.0"},
      {"method", "textDocument/didOpen"},
      {"params", json::Object{{"textDocument",
                               json::Object{{"uri", URI},
                                            {"languageId", "cpp"},
                                            {"version", 1},
                                            {"text", (*Text)->getBuffer()}}}}}});
  C.send(json::Object{{"jsonrpc", "2.0"}, {"id", 2}, {"method", "shutdown"}});

  std::optional<json::Array> Diagnostics;
  bool ShutDown = false;
  while (!ShutDown) {
    std::optional<json::Value> M = C.receive();
    if (!M)
      break;
    json::Object *O = M->getAsObject();
    if (!O)
      continue;
    if (O->getInteger("id") == 2 && !O->get("method"))
      ShutDown = true;
    else if (O->getString("method") == "textDocument/publishDiagnostics")
      if (json::Object *P = O->getObject("params"))
        if (P->getString("uri") == URI)
          if (json::Array *A = P->getArray("diagnostics"))
            Diagnostics = std::move(*A);
  }
  C.send(json::Object{{"jsonrpc", "2.0"}, {"method", "exit"}});
  close(ToServer[1]);
  int Status = 0;
  while (waitpid(Pid, &Status, 0) < 0 && errno == EINTR)
    ;
  close(FromServer[0]);
  if (!ShutDown || !Diagnostics) {
    llvm::errs() << "slmc-clangd: the server "
                 << (ShutDown ? "published no diagnostics" : "stopped")
                 << " for " << Path << "\n";
    return 2;
  }

  bool Errors = false;
  for (const json::Value &V : *Diagnostics)
    if (const json::Object *D = V.getAsObject()) {
      print(llvm::outs(), Path, *D);
      Errors |= D->getInteger("severity") == 1;
    }
  llvm::outs().flush();
  return Errors ? 1 : 0;
}

} // namespace slmc::clangd
