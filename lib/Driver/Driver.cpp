//===- Driver.cpp - slmc++ ------------------------------------------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "Driver/Driver.h"

#include "Driver/CheckPass.h"
#include "Driver/DeviceCode.h"
#include "Driver/Options.h"
#include "Driver/Toolchain.h"
#include "Frontend/ArrayNotation.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace slmc::driver {
namespace {

bool writeFile(StringRef Path, StringRef Text) {
  if (Path == "-") {
    outs() << Text;
    return true;
  }
  std::error_code EC;
  raw_fd_ostream OS(Path, EC, sys::fs::OF_Text);
  if (EC) {
    errs() << "slmc++: error: cannot write '" << Path << "': " << EC.message() << "\n";
    return false;
  }
  OS << Text;
  return true;
}

std::string replaceExtension(StringRef Path, StringRef Ext) {
  SmallString<256> P(sys::path::filename(Path));
  sys::path::replace_extension(P, Ext);
  return std::string(P);
}

class Compilation {
public:
  Compilation(const Toolchain &TC, const Options &Opts)
      : TC(TC), Opts(Opts), Temps(Opts.SaveTemps) {}

  int run() {
    if (Opts.DryRun)
      errs() << "slmc++: check pass and lowering run in process\n";
    bool Failed = false;
    std::vector<std::string> Objects;
    for (const Input &In : Opts.Inputs) {
      if (!In.IsSource) {
        Objects.push_back(In.Path);
        continue;
      }
      if (!sys::fs::exists(In.Path)) {
        errs() << "slmc++: error: no such file or directory: '" << In.Path << "'\n";
        Failed = true;
        continue;
      }
      std::string Object;
      if (!compileSource(In.Path, Object))
        Failed = true;
      else if (!Object.empty())
        Objects.push_back(Object);
    }
    if (Failed)
      return 1;
    if (Opts.TheMode != Mode::Link)
      return 0;
    return link(Objects) ? 0 : 1;
  }

private:
  /// Compiles one source as far as the mode asks; `Object` receives the
  /// object file when one is made.
  bool compileSource(const std::string &Source, std::string &Object) {
    // The lowered copy (and the pre-pass output) live elsewhere: keep
    // `#include "x.h"` finding the headers next to the source.
    SmallString<256> Dir(sys::path::parent_path(Source));
    if (Dir.empty())
      Dir = ".";
    QuoteDir = std::string(Dir);

    // Cilk Plus array notation: every pass compiles the rewritten copy.
    std::string Input;
    if (!runPrepass(Source, Input))
      return false;
    bool Prepassed = Input != Source;
    Options CheckOpts = Prepassed ? withQuoteDir() : Opts;

    if (Opts.TheMode == Mode::SyntaxOnly)
      return runCheckPass(TC, CheckOpts, Input, nullptr, Source);

    LoweredSource Result;
    if (!Opts.DryRun && !runCheckPass(TC, CheckOpts, Input, &Result, Source))
      return false;
    const std::string &LoweredText = Result.Text;
    StringRef Stem = sys::path::stem(Source);

    if (Opts.Emit == EmitKind::OffloadCpp)
      return writeFile(outputFor(Source, "slmc.cpp"), LoweredText);
    std::string Lowered = Temps.make(Stem, "slmc.cpp");
    if (Lowered.empty() || (!Opts.DryRun && !writeFile(Lowered, LoweredText)))
      return false;

    if (Opts.Emit == EmitKind::Spirv)
      return compileSpirv(TC, withQuoteDir(), Temps, Lowered, Source,
                          outputFor(Source, "spv"));
    if (Opts.Emit == EmitKind::Ptx)
      return compilePtx(TC, withQuoteDir(), Temps, Lowered, Source, outputFor(Source, "ptx"));

    std::vector<DeviceImageFile> Images;
    if (Opts.Spirv) {
      std::string Spv = Temps.make(Stem, "spv");
      if (Spv.empty() || !compileSpirv(TC, withQuoteDir(), Temps, Lowered, Source, Spv))
        return false;
      Images.push_back({DeviceImageFile::Spirv, Spv, "spirv" + Opts.SpirvVersion});
    }
    if (Opts.Ptx) {
      std::string Ptx = Temps.make(Stem, "ptx");
      if (Ptx.empty() || !compilePtx(TC, withQuoteDir(), Temps, Lowered, Source, Ptx))
        return false;
      Images.push_back({DeviceImageFile::Ptx, Ptx, Opts.CudaArch});
    }
    if (Opts.Emit == EmitKind::Program) {
      // Host code loads this at run time: its kernels' host versions come
      // as a shared object for the CPU fallback.
      std::string Shared = Temps.make(Stem, "so");
      if (Shared.empty() || !compileHostSharedObject(Lowered, Shared))
        return false;
      Images.push_back({DeviceImageFile::HostObject, Shared, "x86-64"});
      if (Result.ProgramKernels.empty() && !Opts.DryRun)
        llvm::errs() << "slmc++: warning: '" << Source
                     << "' defines no kernel that host code launches by name\n";
      return Opts.DryRun ||
             packageImages(Images, outputFor(Source, "slmcprog"), Result.ProgramKernels);
    }

    std::string Package = Temps.make(Stem, "slmcfat");
    if (Package.empty() || (!Opts.DryRun && !packageImages(Images, Package)))
      return false;

    Object = Opts.TheMode == Mode::CompileOnly ? outputFor(Source, "o")
                                               : Temps.make(Stem, "o");
    return compileHost(Lowered, Package, Object);
  }

  /// Runs the array-notation pre-pass over `Source`. `Input` receives the
  /// file the passes compile: `Source` itself when the pre-pass changed
  /// nothing, else a temporary copy (`<stem>.cilk.cpp` with -save-temps)
  /// that starts with `#line 1 "<Source>"` (after `#include <slmc/cilk.h>`
  /// when it uses `extent_of`). Returns false after printing the
  /// pre-pass's errors.
  bool runPrepass(const std::string &Source, std::string &Input) {
    Input = Source;
    auto Buf = MemoryBuffer::getFile(Source, /*IsText=*/true);
    if (!Buf)
      return true; // the check pass reports it
    ArrayNotationResult R = rewriteArrayNotation((*Buf)->getBuffer());
    if (!R.Diags.empty()) {
      printPrepassDiagnostics(errs(), Source, (*Buf)->getBuffer(), R.Diags);
      return false;
    }
    if (!R.Changed)
      return true;
    std::string Copy = Temps.make(sys::path::stem(Source), "cilk.cpp");
    if (Copy.empty())
      return false;
    // `[:]` needs ::slmc::cilk::extent_of, also in programs that include
    // no Cilk header (array notation needs none with Intel's compiler).
    std::string Text = R.NeedsCilkHeader ? "#include <slmc/cilk.h>\n" : "";
    Text += "#line 1 \"";
    for (char C : Source) {
      if (C == '\\' || C == '"')
        Text += '\\';
      Text += C;
    }
    Text += "\"\n";
    Text += R.Text;
    if (!writeFile(Copy, Text))
      return false;
    if (Opts.Verbose || Opts.DryRun)
      errs() << "slmc++: array notation of '" << Source << "' rewritten into '" << Copy
             << "'\n";
    Input = Copy;
    return true;
  }

  /// The options with the source's directory searched for quoted includes.
  Options withQuoteDir() const {
    Options O = Opts;
    O.CommonFlags.insert(O.CommonFlags.begin(), {"-iquote", QuoteDir});
    return O;
  }

  std::string outputFor(StringRef Source, StringRef Ext) {
    if (!Opts.Output.empty())
      return Opts.Output;
    return replaceExtension(Source, Ext);
  }

  bool compileHost(StringRef Lowered, StringRef Package, StringRef Object) {
    std::vector<std::string> Args = {"-x", "hip", "--offload-host-only",
                                     "--offload=spirv64", "-nogpulib", "-nogpuinc",
                                     "-iquote", QuoteDir, "-isystem", TC.ResourceInclude};
    Args.insert(Args.end(), Opts.CommonFlags.begin(), Opts.CommonFlags.end());
    appendHostFlags(Args);
    if (!Opts.OptLevel.empty())
      Args.push_back(Opts.OptLevel);
    Args.insert(Args.end(), {"-Wno-cuda-compat", "-Xclang", "-fcuda-include-gpubinary",
                             "-Xclang", Package.str(), "-c", Lowered.str(), "-o",
                             Object.str()});
    return runProgram(TC.Clang, Args, Opts.Verbose, Opts.DryRun) == 0;
  }

  /// The user's host flags for a HIP-mode compilation: OpenMP cannot be
  /// combined with HIP offloading at the driver level, so it is enabled in
  /// the front end only (and linked as usual).
  void appendHostFlags(std::vector<std::string> &Args) {
    for (const std::string &F : Opts.HostFlags) {
      if (F == "-fopenmp")
        Args.insert(Args.end(), {"-Xclang", "-fopenmp"});
      else
        Args.push_back(F);
    }
  }

  bool compileHostSharedObject(StringRef Lowered, StringRef Out) {
    std::string Object = Temps.make(sys::path::stem(Lowered), "pic.o");
    // HIP host code needs an image to register; the program's images are
    // loaded by the runtime instead, so this one is empty.
    std::string Empty = Temps.make(sys::path::stem(Lowered), "empty.slmcfat");
    if (Empty.empty() || (!Opts.DryRun && !packageImages({}, Empty)))
      return false;
    std::vector<std::string> Args = {"-Xclang", "-fcuda-include-gpubinary",
                                     "-Xclang", Empty, "-x", "hip", "--offload-host-only",
                                     "--offload=spirv64", "-nogpulib", "-nogpuinc",
                                     "-fPIC", "-iquote", QuoteDir, "-isystem",
                                     TC.ResourceInclude};
    Args.insert(Args.end(), Opts.CommonFlags.begin(), Opts.CommonFlags.end());
    appendHostFlags(Args);
    Args.push_back(Opts.OptLevel.empty() ? "-O2" : Opts.OptLevel);
    Args.insert(Args.end(), {"-Wno-cuda-compat", "-c", Lowered.str(), "-o", Object});
    if (Object.empty() || runProgram(TC.Clang, Args, Opts.Verbose, Opts.DryRun) != 0)
      return false;
    // Linked as plain C++ (a HIP link would want the HIP runtime library).
    return runProgram(TC.Clang,
                      {"-shared", Object, "-o", Out.str(), "-L" + TC.RuntimeLibDir,
                       "-lslmrt"},
                      Opts.Verbose, Opts.DryRun) == 0;
  }

  bool link(const std::vector<std::string> &Objects) {
    std::vector<std::string> Args(Objects.begin(), Objects.end());
    Args.insert(Args.end(), Opts.LinkFlags.begin(), Opts.LinkFlags.end());
    Args.insert(Args.end(), {"-L" + TC.RuntimeLibDir, "-lslmrt",
                             "-Wl,-rpath," + TC.RuntimeLibDir, "-o",
                             Opts.Output.empty() ? "a.out" : Opts.Output});
    return runProgram(TC.Clang, Args, Opts.Verbose, Opts.DryRun) == 0;
  }

  const Toolchain &TC;
  const Options &Opts;
  TempFiles Temps;
  std::string QuoteDir; // the current source's directory
};

} // namespace

int run(int Argc, const char **Argv) {
  InitLLVM X(Argc, Argv);
  Options Opts;
  if (!parseOptions(ArrayRef<const char *>(Argv + 1, Argv + Argc), Opts))
    return 1;
  if (Opts.TheMode == Mode::Help) {
    printHelp();
    return 0;
  }
  if (Opts.TheMode == Mode::Version) {
    printVersion();
    return 0;
  }
  Toolchain TC = Toolchain::discover(Argv[0]);
  return Compilation(TC, Opts).run();
}

} // namespace slmc::driver
