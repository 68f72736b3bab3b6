//===- Options.cpp --------------------------------------------------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "Driver/Options.h"

#include "Frontend/Diagnostics.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace slmc::driver {
namespace {

bool error(const llvm::Twine &Message) {
  llvm::errs() << "slmc++: error: " << Message << "\n";
  return false;
}

bool isSourceFile(llvm::StringRef Path) {
  return llvm::StringSwitch<bool>(llvm::sys::path::extension(Path))
      .Cases(".cpp", ".cc", ".cxx", ".c++", ".C", ".cp", true)
      .Default(false);
}

/// Flags that take their value as the next argument.
bool takesSeparateValue(llvm::StringRef A) {
  return A == "-I" || A == "-D" || A == "-U" || A == "-isystem" ||
         A == "-include" || A == "-iquote" || A == "-idirafter" || A == "-L" ||
         A == "-l" || A == "-o" || A == "-x" || A == "-Xlinker";
}

} // namespace

bool parseOptions(llvm::ArrayRef<const char *> Args, Options &O) {
  bool SawSyntaxOnly = false, SawCompileOnly = false;
  for (size_t I = 0; I < Args.size(); ++I) {
    llvm::StringRef A = Args[I];
    auto Next = [&](llvm::StringRef &Value) {
      if (I + 1 >= Args.size())
        return error("argument to '" + A + "' is missing (expected 1 value)");
      Value = Args[++I];
      return true;
    };
    llvm::StringRef V;

    if (A == "--help" || A == "-help" || A == "-h") {
      O.TheMode = Mode::Help;
      return true;
    }
    if (A == "--version") {
      O.TheMode = Mode::Version;
      return true;
    }
    if (A == "-o") {
      if (!Next(V)) return false;
      O.Output = V.str();
    } else if (A.starts_with("-o") && A.size() > 2) {
      O.Output = A.drop_front(2).str();
    } else if (A == "-c") {
      SawCompileOnly = true;
    } else if (A == "-fsyntax-only") {
      SawSyntaxOnly = true;
    } else if (A.consume_front("--emit=") || A == "--emit") {
      if (A == "--emit" && !Next(A)) return false;
      O.Emit = llvm::StringSwitch<EmitKind>(A)
                   .Case("offload-cpp", EmitKind::OffloadCpp)
                   .Case("spirv", EmitKind::Spirv)
                   .Case("ptx", EmitKind::Ptx)
                   .Case("program", EmitKind::Program)
                   .Default(EmitKind::None);
      if (O.Emit == EmitKind::None)
        return error("invalid value '" + A +
                     "' in '--emit=' (expected offload-cpp, spirv, ptx or program)");
    } else if (A.consume_front("--offload-targets=")) {
      O.Spirv = O.Ptx = false;
      llvm::SmallVector<llvm::StringRef, 2> Parts;
      A.split(Parts, ',', -1, false);
      for (llvm::StringRef P : Parts) {
        if (P == "spirv") O.Spirv = true;
        else if (P == "ptx") O.Ptx = true;
        else if (P == "none") ;
        else return error("invalid offload target '" + P + "' (expected spirv, ptx or none)");
      }
    } else if (A.consume_front("--spirv-version=")) {
      if (A != "1.0" && A != "1.1" && A != "1.2" && A != "1.3" && A != "1.4")
        return error("unsupported SPIR-V version '" + A +
                     "' (Level Zero accepts 1.0 to 1.4)");
      O.SpirvVersion = A.str();
    } else if (A.consume_front("--cuda-arch=")) {
      if (!A.starts_with("sm_"))
        return error("invalid CUDA architecture '" + A + "' (expected sm_XX)");
      O.CudaArch = A.str();
    } else if (A.consume_front("--cilk-group-size=")) {
      unsigned N;
      if (A.getAsInteger(10, N) || N == 0 || N > 1024)
        return error("invalid Cilk thread-group size '" + A + "' (expected 1 to 1024)");
      O.CommonFlags.push_back("-DSLMC_CILK_GROUP_SIZE=" + A.str());
    } else if (A.consume_front("--group-memory-limit=")) {
      unsigned long long N;
      if (A.getAsInteger(0, N) || N == 0)
        return error("invalid group memory limit '" + A + "'");
      O.GroupMemoryLimit = N;
    } else if (A == "-v") {
      O.Verbose = true;
    } else if (A == "-###") {
      O.DryRun = true;
    } else if (A == "-save-temps") {
      O.SaveTemps = true;
    } else if (A == "-fcilkplus") {
      // GCC's switch for Cilk Plus: slmc++ always reads it (array notation
      // is rewritten before the passes), so there is nothing to turn on.
    } else if (A == "-x") {
      return error("'-x' is not supported: slmc++ compiles C++ sources");
    } else if (A == "-S" || A == "-E") {
      return error("'" + A + "' is not supported; use --emit=offload-cpp, "
                   "--emit=spirv or --emit=ptx");
    } else if (A == "-Xclang") {
      // Front-end flags (e.g. -verify) for the check and host passes.
      if (!Next(V)) return false;
      O.HostFlags.insert(O.HostFlags.end(), {"-Xclang", V.str()});
    } else if (takesSeparateValue(A)) {
      if (!Next(V)) return false;
      if (A == "-L" || A == "-l" || A == "-Xlinker")
        O.LinkFlags.insert(O.LinkFlags.end(), {A.str(), V.str()});
      else
        O.CommonFlags.insert(O.CommonFlags.end(), {A.str(), V.str()});
    } else if (A.starts_with("-I") || A.starts_with("-D") || A.starts_with("-U") ||
               A.starts_with("-std=") || A == "-w") {
      O.CommonFlags.push_back(A.str());
    } else if (A.starts_with("-Wl,")) {
      O.LinkFlags.push_back(A.str());
    } else if (A.starts_with("-W")) {
      if (isSlmcWarningOption(A.drop_front(2)))
        O.SlmcWarnings.push_back(A.str());
      else
        O.CommonFlags.push_back(A.str());
    } else if (A.starts_with("-O")) {
      O.OptLevel = A.str();
    } else if (A.starts_with("-L") || A.starts_with("-l")) {
      O.LinkFlags.push_back(A.str());
    } else if (A == "-shared" || A == "-static" || A == "-rdynamic" ||
               A == "-static-libstdc++" || A == "-static-libgcc" || A == "-pie" ||
               A == "-no-pie") {
      O.LinkFlags.push_back(A.str());
    } else if (A == "-pthread" || A == "-fopenmp" || A.starts_with("-fsanitize") ||
               A.starts_with("-fuse-ld=")) {
      // Needed both to compile host code and to link it.
      O.HostFlags.push_back(A.str());
      O.LinkFlags.push_back(A.str());
    } else if (A.starts_with("-g") || A.starts_with("-f") || A.starts_with("-m") ||
               A == "-pedantic" || A == "-pedantic-errors") {
      O.HostFlags.push_back(A.str());
    } else if (A.starts_with("-") && A != "-") {
      return error("unknown argument: '" + A + "'");
    } else {
      O.Inputs.push_back({A.str(), isSourceFile(A)});
    }
  }

  if (O.Emit != EmitKind::None)
    O.TheMode = Mode::Emit;
  else if (SawSyntaxOnly)
    O.TheMode = Mode::SyntaxOnly;
  else if (SawCompileOnly)
    O.TheMode = Mode::CompileOnly;

  if (O.Inputs.empty())
    return error("no input files");
  if (O.TheMode != Mode::Link)
    for (const Input &In : O.Inputs)
      if (!In.IsSource)
        return error("'" + In.Path + "': not a C++ source file (expected "
                     ".cpp, .cc, .cxx); linker inputs need a link step");
  size_t Sources = 0;
  for (const Input &In : O.Inputs)
    Sources += In.IsSource;
  if (!O.Output.empty() && Sources > 1 &&
      (O.TheMode == Mode::CompileOnly || O.TheMode == Mode::Emit))
    return error("cannot specify -o when generating multiple output files");
  if (O.Emit == EmitKind::Spirv && !O.Spirv)
    return error("--emit=spirv needs the spirv offload target");
  if (O.Emit == EmitKind::Ptx && !O.Ptx)
    return error("--emit=ptx needs the ptx offload target");
  return true;
}

void printHelp() {
  llvm::outs() << R"(OVERVIEW: slmc++ - compiler for GPU kernels with group-local memory

Compiles unmodified C++ AMP programs (and, as they land, Cilk Plus graphics
offload, C for Metal and SYCL group_local_memory programs) into executables
that run on Intel GPUs (Level Zero, SPIR-V), NVIDIA GPUs (CUDA, PTX) and on
the CPU, choosing the best device present when they start.

USAGE: slmc++ [options] file...

MODES:
  (default)               Compile and link an executable (a.out unless -o)
  -c                      Compile each source to an object file
  -fsyntax-only           Parse and check the dialect rules only
  --emit=offload-cpp      Write the lowered offload C++ source
  --emit=spirv            Write the SPIR-V module of the kernels
  --emit=ptx              Write the PTX module of the kernels
  --emit=program          Write a kernel program file (SPIR-V, PTX and a CPU
                          shared object) that host code loads at run time
                          (C for Metal's CmDevice::LoadProgram)

OPTIONS:
  -o <file>               Write output to <file> ('-' for stdout with --emit)
  -I, -D, -U, -isystem, -include, -std=, -O<n>, -g, -f..., -W..., -w
                          As for clang++; -O also sets the device code level
                          (default -O3 for device code)
  -L, -l, -Wl,...         As for clang++, for the link
  -Xclang <arg>           Pass <arg> to the front end (check and host passes)
  -Wno-slmc-<group>       Disable an slmc warning group (-Wslmc: all of them)
  --offload-targets=<l>   Device code to build: spirv, ptx, both (default)
                          or none (CPU fallback only)
  --spirv-version=<v>     SPIR-V version 1.0 to 1.4 (default 1.4)
  --cuda-arch=<sm_XX>     PTX target architecture (default sm_75)
  --cilk-group-size=<n>   Threads per Cilk Plus thread group (default: derived
                          from the second-level nests, see docs/user-guide.md)
  --group-memory-limit=<bytes>
                          Group-local memory a kernel may use (default 65536)
  -v                      Show the commands slmc++ runs
  -###                    Print the commands without running them
  -save-temps             Keep intermediate files in the current directory
                          (<stem>.slmc.cpp and <header>.slmc.h: the lowered
                          files; <stem>.vfs.yaml: the overlay that serves
                          them to the later passes)
  -fcilkplus              Accepted and ignored (Cilk Plus is always on)
  --help                  Display this help
  --version               Display the version

ENVIRONMENT (programs built by slmc++):
  SLMC_DEVICE=level_zero|cuda|cpu   Device to run on (default: best present)
  SLMC_VERBOSE=1                    Report the device chosen
See docs/user-guide.md for more.
)";
}

void printVersion() {
  llvm::outs() << "slmc++ version " SLMC_VERSION " (LLVM " LLVM_VERSION_STRING ")\n"
               << "Target: x86_64-pc-linux-gnu, spirv64, nvptx64\n";
}

} // namespace slmc::driver
