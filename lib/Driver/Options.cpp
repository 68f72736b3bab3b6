//===- Options.cpp --------------------------------------------------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "Driver/Options.h"

#include "Basic/Diagnostics.h"
#include "Driver/CmcMode.h"

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
      .Cases({".cpp", ".cc", ".cxx", ".c++", ".C", ".cp"}, true)
      .Default(false);
}

/// -f flags of the language itself, which every pass must see alike.
bool isLanguageFlag(llvm::StringRef A) {
  static const char *const Exact[] = {
      "-fms-extensions",           "-fno-ms-extensions",
      "-fms-compatibility",        "-fno-ms-compatibility",
      "-fdeclspec",                "-fno-declspec",
      "-fdelayed-template-parsing", "-fno-delayed-template-parsing",
      "-fchar8_t",                 "-fno-char8_t",
      "-fsigned-char",             "-funsigned-char",
      "-fno-signed-char",          "-fno-unsigned-char",
      "-fshort-wchar",             "-fno-short-wchar",
      "-fno-operator-names",       "-fgnu-keywords",
      "-fno-gnu-keywords",         "-fdollars-in-identifiers",
      "-fno-dollars-in-identifiers", "-fwrapv",
      "-fno-wrapv",                "-fno-access-control",
      "-fborland-extensions",
  };
  for (const char *E : Exact)
    if (A == E)
      return true;
  return A.starts_with("-fms-compatibility-version=") || A.starts_with("-ftemplate-depth=") ||
         A.starts_with("-fconstexpr-depth=") || A.starts_with("-fconstexpr-steps=") ||
         A.starts_with("-fbracket-depth=");
}

/// Flags that take their value as the next argument.
bool takesSeparateValue(llvm::StringRef A) {
  return A == "-I" || A == "-D" || A == "-U" || A == "-isystem" ||
         A == "-include" || A == "-imacros" || A == "-iquote" ||
         A == "-idirafter" || A == "-L" || A == "-l" || A == "-o" ||
         A == "-x" || A == "-Xlinker";
}

void setCudaArch(Options &O, llvm::StringRef SmName) {
  O.Ptx = true;
  O.TargetsChosen = true;
  O.CudaArch = SmName.str();
}

/// DPC++'s -fsycl-targets=: triples and device names, comma-separated.
/// The CPU fallback is always built, so x86-64 targets add nothing.
bool applySyclTargets(llvm::StringRef List, Options &O) {
  O.Spirv = O.Ptx = false;
  O.TargetsChosen = true;
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  List.split(Parts, ',', -1, false);
  for (llvm::StringRef T : Parts) {
    llvm::StringRef Arch = T;
    if (T == "spir64" || T == "spir64_gen" || T == "spirv64" ||
        T.starts_with("spir64-") || T.starts_with("spirv64-") ||
        T.starts_with("spir64_gen-") || T.starts_with("intel_gpu_"))
      O.Spirv = true;
    else if (T == "spir64_x86_64" || T.starts_with("spir64_x86_64-"))
      ; // the CPU fallback
    else if (T == "nvptx64" || T.starts_with("nvptx64-"))
      O.Ptx = true;
    else if (Arch.consume_front("nvidia_gpu_") && Arch.starts_with("sm_"))
      setCudaArch(O, Arch);
    else if (T.starts_with("amdgcn") || T.starts_with("amd_gpu_"))
      return error("-fsycl-targets: '" + T + "': slmc has no AMD GPU backend "
                   "(targets: spir64, nvptx64-nvidia-cuda, spir64_x86_64)");
    else
      return error("-fsycl-targets: unsupported target '" + T +
                   "' (expected spir64, spir64_gen, intel_gpu_*, "
                   "nvptx64-nvidia-cuda, nvidia_gpu_sm_XX or spir64_x86_64)");
  }
  return true;
}

/// AdaptiveCpp's --acpp-targets=: "backend[:arch,...]" separated by ';'.
bool applyAcppTargets(llvm::StringRef List, Options &O) {
  O.Spirv = O.Ptx = false;
  O.TargetsChosen = true;
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  List.split(Parts, ';', -1, false);
  for (llvm::StringRef T : Parts) {
    auto [Backend, Archs] = T.trim().split(':');
    if (Backend == "generic") {
      O.Spirv = O.Ptx = true;
    } else if (Backend.starts_with("omp")) {
      // the CPU fallback, always built
    } else if (Backend.starts_with("cuda")) {
      O.Ptx = true;
      llvm::StringRef First = Archs.split(',').first;
      if (First.starts_with("sm_"))
        setCudaArch(O, First);
      else if (!First.empty())
        return error("--acpp-targets: invalid CUDA architecture '" + First +
                     "' (expected sm_XX)");
    } else if (Backend == "spirv" || Backend == "ze" || Backend == "level_zero") {
      O.Spirv = true;
    } else if (Backend.starts_with("hip")) {
      return error("--acpp-targets: '" + T + "': slmc has no AMD GPU backend");
    } else {
      return error("--acpp-targets: unsupported target '" + T +
                   "' (expected generic, omp, cuda:sm_XX or spirv)");
    }
  }
  return true;
}

/// --target=: slmc++ builds host code for the machine it runs on.
bool isHostTriple(llvm::StringRef T) {
  return T == "x86_64-linux-gnu" || T == "x86_64-pc-linux-gnu" ||
         T == "x86_64-unknown-linux-gnu" || T == "x86_64-linux";
}

} // namespace

bool parseOptions(llvm::ArrayRef<const char *> Args, Options &O) {
  bool SawSyntaxOnly = false, SawCompileOnly = false, SawPreprocess = false;
  bool ForceCxx = false; // -x c++ until -x none
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
    } else if (A == "-E") {
      SawPreprocess = true;
      O.PreprocessFlags.push_back(A.str());
    } else if (A == "-P" || A == "-C" || A == "-CC" || A == "-dM" || A == "-dD" ||
               A == "-dI") {
      O.PreprocessFlags.push_back(A.str());
    } else if (A == "-M" || A == "-MM") {
      SawPreprocess = true;
      O.DepFlags.push_back(A.str());
    } else if (A == "-MD" || A == "-MMD" || A == "-MP" || A == "-MG" || A == "-MV") {
      O.DepFlags.push_back(A.str());
    } else if (A == "-MF" || A == "-MT" || A == "-MQ") {
      if (!Next(V)) return false;
      O.DepFlags.insert(O.DepFlags.end(), {A.str(), V.str()});
    } else if (A.starts_with("-MF") || A.starts_with("-MT") || A.starts_with("-MQ")) {
      O.DepFlags.insert(O.DepFlags.end(), {A.take_front(3).str(), A.drop_front(3).str()});
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
      O.TargetsChosen = true;
      llvm::SmallVector<llvm::StringRef, 2> Parts;
      A.split(Parts, ',', -1, false);
      for (llvm::StringRef P : Parts) {
        if (P == "spirv") O.Spirv = true;
        else if (P == "ptx") O.Ptx = true;
        else if (P == "none") ;
        else return error("invalid offload target '" + P + "' (expected spirv, ptx or none)");
      }
    } else if (A == "-fsycl" || A == "-fsycl-unnamed-lambda" ||
               A.starts_with("-fsycl-device-code-split")) {
      // DPC++'s switches: slmc++ always compiles SYCL, names lambdas
      // itself and builds one image per translation unit.
    } else if (A == "-fno-sycl-rdc" || A == "-fsycl-rdc") {
      // Relocatable device code: slmc++ never links device code across
      // files (-fno-sycl-rdc's model). With either spelling, a kernel's call
      // to a function another file defines is a compile error, not a link.
    } else if (A == "-fsycl-early-optimizations" || A == "-fno-sycl-early-optimizations" ||
               A == "-fsycl-dead-args-optimization" ||
               A == "-fno-sycl-dead-args-optimization") {
      // DPC++'s device optimisation switches: they change how fast its code
      // is, never what it means; slmc++'s device passes keep their -O.
    } else if (A == "-fsycl-id-queries-fit-in-int" || A == "-fno-sycl-id-queries-fit-in-int") {
      // Read by the SYCL headers in host and device code alike (see
      // include/sycl/detail/item.hpp); the last one given wins.
      O.CommonFlags.push_back(std::string("-DSLMC_SYCL_ID_QUERIES_FIT_IN_INT=") +
                              (A.starts_with("-fno-") ? "0" : "1"));
    } else if (A.consume_front("-fsycl-targets=")) {
      if (!applySyclTargets(A, O)) return false;
    } else if (A.consume_front("--acpp-targets=") || A.consume_front("--hipsycl-targets=")) {
      if (!applyAcppTargets(A, O)) return false;
    } else if (A.starts_with("-fsycl") || A.starts_with("-fno-sycl")) {
      return error("'" + A + "' is not supported (slmc++ accepts -fsycl, "
                   "-fsycl-targets=, -fsycl-unnamed-lambda, "
                   "-f[no-]sycl-id-queries-fit-in-int, "
                   "-f[no-]sycl-early-optimizations, "
                   "-f[no-]sycl-dead-args-optimization, -f[no-]sycl-rdc "
                   "and -fsycl-device-code-split)");
    } else if (A.consume_front("--target=") || A == "-target") {
      if (A == "-target" && !Next(A)) return false;
      if (!isHostTriple(A))
        return error("unsupported target '" + A + "': slmc++ builds host code "
                     "for x86_64-linux-gnu (device code: --offload-targets=)");
    } else if (A.starts_with("-print-") || A.starts_with("--print-") ||
               A == "-dumpversion" || A == "-dumpmachine" ||
               A == "-dumpfullversion") {
      O.QueryFlags.push_back(A.str());
    } else if (A == "-pipe") {
      // Temporary files are slmc++'s business; nothing to change.
    } else if (A.consume_front("--spirv-version=")) {
      if (A != "1.0" && A != "1.1" && A != "1.2" && A != "1.3" && A != "1.4")
        return error("unsupported SPIR-V version '" + A +
                     "' (Level Zero accepts 1.0 to 1.4)");
      O.SpirvVersion = A.str();
    } else if (A.consume_front("--cuda-arch=")) {
      if (!A.starts_with("sm_"))
        return error("invalid CUDA architecture '" + A + "' (expected sm_XX)");
      O.CudaArch = A.str();
    } else if (A.consume_front("--cm-target=")) {
      if (!findCmTarget(A))
        return error("invalid C for Metal target '" + A + "' (expected " + knownCmTargets() +
                     ")");
      O.CmTarget = A.str();
    } else if (A.consume_front("--cm-revid=")) {
      if (A.getAsInteger(0, O.CmRevId))
        return error("invalid C for Metal revision id '" + A + "'");
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
    } else if (A == "-fslmc-check") {
      O.CheckInstrumentation = true;
    } else if (A == "-fslmc-split-kernel-arguments") {
      O.SplitKernelArguments = true;
    } else if (A == "-fno-slmc-split-kernel-arguments") {
      O.SplitKernelArguments = false;
    } else if (A == "-fcilkplus") {
      // GCC's switch for Cilk Plus: slmc++ always reads it (array notation
      // is rewritten before the passes), so there is nothing to turn on.
    } else if (A == "-x" || (A.starts_with("-x") && A.size() > 2)) {
      if (A == "-x" && !Next(V)) return false;
      llvm::StringRef Lang = A == "-x" ? V : A.drop_front(2);
      if (Lang == "c++")
        ForceCxx = true;
      else if (Lang == "none")
        ForceCxx = false;
      else
        return error("'-x " + Lang + "' is not supported: slmc++ compiles C++ "
                     "sources (-x c++ or -x none)");
    } else if (A == "-S") {
      return error("'" + A + "' is not supported; use --emit=offload-cpp, "
                   "--emit=spirv or --emit=ptx");
    } else if (A == "-mllvm") {
      // LLVM's own options, for the host pass's optimiser (and plugins).
      if (!Next(V)) return false;
      O.HostFlags.insert(O.HostFlags.end(), {"-mllvm", V.str()});
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
               A.starts_with("-std=") || A.starts_with("-stdlib=") || A == "-w" ||
               A.starts_with("-isystem") || A.starts_with("-iquote") ||
               A.starts_with("-idirafter") || A == "-nostdinc" || A == "-nostdinc++") {
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
               A == "-no-pie" || A == "-nostdlib" || A == "-nodefaultlibs") {
      O.LinkFlags.push_back(A.str());
    } else if (A == "-pthread" || A == "-fopenmp" || A.starts_with("-fsanitize") ||
               A.starts_with("-fuse-ld=") || A.starts_with("--rtlib=") ||
               A.starts_with("-rtlib=") || A == "--coverage") {
      // Needed both to compile host code and to link it.
      O.HostFlags.push_back(A.str());
      O.LinkFlags.push_back(A.str());
    } else if (A.starts_with("-ffp-contract=")) {
      // The device passes honour it too (SPIR-V ContractionOff, llc's
      // -fp-contract): a * b + c fused or not is a result users choose.
      O.CommonFlags.push_back(A.str());
    } else if (isLanguageFlag(A)) {
      // What the source means (which extensions parse, how char is signed,
      // how overflow wraps): the same in every pass, or a kernel would mean
      // one thing in the check pass and another on the device.
      O.CommonFlags.push_back(A.str());
    } else if (A.starts_with("-g") || A.starts_with("-f") || A.starts_with("-m") ||
               A == "-pedantic" || A == "-pedantic-errors") {
      O.HostFlags.push_back(A.str());
    } else if (A.starts_with("-") && A != "-") {
      return error("unknown argument: '" + A + "'");
    } else if (A.starts_with("@")) {
      // Readable response files were expanded before parsing.
      return error("cannot read response file '" + A.drop_front() + "'");
    } else {
      O.Inputs.push_back({A.str(), ForceCxx || isSourceFile(A)});
    }
  }

  if (!O.QueryFlags.empty()) {
    O.TheMode = Mode::ClangQuery;
    return true;
  }
  if (O.Emit != EmitKind::None)
    O.TheMode = Mode::Emit;
  else if (SawPreprocess)
    O.TheMode = Mode::Preprocess;
  else if (SawSyntaxOnly)
    O.TheMode = Mode::SyntaxOnly;
  else if (SawCompileOnly)
    O.TheMode = Mode::CompileOnly;
  // MSVC's __declspec(property), for C++ AMP's swizzle properties
  // (<amp_short_vectors.h>); other __declspec spellings are the prelude's.
  if (!llvm::is_contained(O.CommonFlags, "-fno-declspec") &&
      !llvm::is_contained(O.CommonFlags, "-fdeclspec"))
    O.CommonFlags.push_back("-fdeclspec");
  // Clang's MSVC compatibility mode below version 19 has no char16_t and
  // char32_t, which libstdc++ needs; off Windows Clang picks no version, so
  // the mode is unusable unless one is given (slmc/detail/early.h restores
  // the GCC macros the mode drops).
  auto LastMsCompat = std::find_if(O.CommonFlags.rbegin(), O.CommonFlags.rend(),
                                   [](const std::string &F) {
                                     return F == "-fms-compatibility" ||
                                            F == "-fno-ms-compatibility";
                                   });
  if (LastMsCompat != O.CommonFlags.rend() && *LastMsCompat == "-fms-compatibility" &&
      llvm::none_of(O.CommonFlags, [](const std::string &F) {
        return llvm::StringRef(F).starts_with("-fms-compatibility-version=");
      }))
    O.CommonFlags.push_back("-fms-compatibility-version=19.40");
  // A program file (or a file given a C for Metal target) is a C for Metal
  // kernel file: it sees cmc's predefined macros in every pass.
  if (O.Emit == EmitKind::Program || O.CmKernelFile || !O.CmTarget.empty())
    llvm::append_range(O.CommonFlags,
                       cmKernelMacros(O.CmTarget.empty() ? nullptr : findCmTarget(O.CmTarget),
                                      O.CmRevId));

  if (O.Inputs.empty()) {
    if (O.Verbose) { // as clang: `-v` alone prints the version
      O.TheMode = Mode::Version;
      return true;
    }
    return error("no input files");
  }
  if (O.TheMode == Mode::Emit && SawPreprocess)
    return error("'--emit=' cannot be combined with -E, -M or -MM");
  if (O.TheMode != Mode::Link)
    for (const Input &In : O.Inputs)
      if (!In.IsSource)
        return error("'" + In.Path + "': not a C++ source file (expected "
                     ".cpp, .cc, .cxx, or -x c++ before it); linker inputs "
                     "need a link step");
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

Compiles unmodified C++ AMP, Intel Cilk Plus graphics offload, Intel C for
Metal and SYCL (group_local_memory) programs into executables that run on
Intel GPUs (Level Zero, SPIR-V), NVIDIA GPUs (CUDA, PTX) and on the CPU,
choosing the best device present when they start. Takes clang++'s flags, so
build systems (CMake, Make, Ninja, ccache) use it as their C++ compiler.

USAGE: slmc++ [options] file...

MODES:
  (default)               Compile and link an executable (a.out unless -o)
  -c                      Compile each source to an object file
  -fsyntax-only           Parse and check the dialect rules only
  -E                      Preprocess the source (with the dialect prelude)
  -M, -MM                 Print the source's dependencies as make rules
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
  -MD, -MMD, -MF, -MT, -MQ, -MP, -MG
                          Dependency files, as for clang++ (they name the
                          user's files, never slmc's lowered copies)
  -x c++, -x none         Treat the following inputs as C++ / by extension
  @<file>                 Read options from <file>
  -fPIC, -shared          Objects and shared libraries, as for clang++
  -L, -l, -Wl,...         As for clang++, for the link
  -print-*, -dumpmachine, -dumpversion
                          Answered by the host clang++
  -Xclang <arg>           Pass <arg> to the front end (check and host passes)
  -Wno-slmc-<group>       Disable an slmc warning group (-Wslmc: all of them)
  --offload-targets=<l>   Device code to build: spirv, ptx, both (default)
                          or none (CPU fallback only)
  --spirv-version=<v>     SPIR-V version 1.0 to 1.4 (default 1.4)
  --cuda-arch=<sm_XX>     PTX target architecture (default sm_75)
  --cm-target=<gen>       C for Metal kernel files: the target's CM_GENX and
                          CM_GEN<n> macros, as cmc's -march= (tgllp, dg2, ...);
                          the program still runs on every device
  --cm-revid=<n>          Their CM_GENX_REVID (default 0)
  --cilk-group-size=<n>   Threads per Cilk Plus thread group (default: derived
                          from the second-level nests, see docs/user-guide.md)
  --group-memory-limit=<bytes>
                          Group-local memory a kernel may use (default 65536)
  -v                      Show the commands slmc++ runs (and clang's report)
  -###                    Print the commands without running them
  -save-temps             Keep intermediate files in the current directory
                          (<stem>.slmc.cpp and <header>.slmc.h: the lowered
                          files; <stem>.vfs.yaml: the overlay that serves
                          them to the later passes)
  --help                  Display this help
  --version               Display the version

OTHER COMPILERS' SPELLINGS (see docs/user-guide.md):
  -fsycl                  Accepted (SYCL is always on)
  -fsycl-targets=<l>      spir64, spir64_gen, intel_gpu_* -> SPIR-V;
                          nvptx64-nvidia-cuda, nvidia_gpu_sm_XX -> PTX;
                          spir64_x86_64 -> the CPU fallback (always built)
  --acpp-targets=<l>      generic -> SPIR-V and PTX; cuda:sm_XX -> PTX;
                          omp -> the CPU fallback
  -fsycl-id-queries-fit-in-int     SYCL ids and ranges fit in an int, so
                          GPU code indexes in 32 bits (default, as DPC++);
                          a launch over more work-items is refused
  -fno-sycl-id-queries-fit-in-int  Make no such assumption
  -f[no-]sycl-rdc         Accepted; device code is never linked across
                          files, so what a kernel calls must be defined in
                          its own file (or use --offload-targets=none)
  -fslmc-check            Instrument the kernels' host copies for the CPU
                          fallback's race and barrier checks (SLMC_CHECK)
  -fno-slmc-split-kernel-arguments  Keep each SPIR-V kernel's argument
                          object whole (for a .spv that another host program
                          launches); by default a kernel takes the fields it
                          reads as parameters, and slmc's runtime passes them
  -fcilkplus              Accepted (Cilk Plus is always on)

ENVIRONMENT (programs built by slmc++; `slmc-ls` lists the devices):
  SLMC_DEVICE=level_zero|cuda|cpu   Device to run on (default: best present)
  ONEAPI_DEVICE_SELECTOR=<be>:<dev> The same, in DPC++'s spelling
                                    (level_zero:gpu, cuda:*, *:cpu, ...)
  SLMC_VERBOSE=1                    Report the device chosen
See docs/user-guide.md for more.
)";
}

void printVersion() {
  llvm::outs() << "slmc++ version " SLMC_VERSION " (LLVM " LLVM_VERSION_STRING ")\n"
               << "Target: x86_64-pc-linux-gnu, spirv64, nvptx64\n";
}

} // namespace slmc::driver
