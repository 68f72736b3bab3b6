//===- Driver.cpp - slmc++ ------------------------------------------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "Driver/Driver.h"
#include "Driver/CmcMode.h"

#include "Driver/CheckPass.h"
#include "Driver/DeviceCode.h"
#include "Driver/Options.h"
#include "Driver/Toolchain.h"
#include "Frontend/Frontend.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"
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
    if (Opts.TheMode == Mode::SyntaxOnly)
      return runCheckPass(TC, Opts, Source, nullptr);
    if (Opts.TheMode == Mode::Preprocess)
      return runPreprocessor(TC, Opts, Source);

    LoweredSource Result;
    if (!Opts.DryRun && !runCheckPass(TC, Opts, Source, &Result))
      return false;
    StringRef Stem = sys::path::stem(Source);
    if (Opts.Emit == EmitKind::OffloadCpp)
      return writeOffloadCpp(Source, Result.Files);

    // Every later pass compiles the user's file by its own name and reads
    // the lowered copies in place of the user's files.
    Options PassOpts = Opts;
    if (!writeOverlay(Source, Result.Files, PassOpts))
      return false;
    // What the check pass's prelude gave a Cilk Plus offload source.
    if (auto Text = MemoryBuffer::getFile(Source); Text && usesCilkOffload((*Text)->getBuffer()))
      PassOpts.CommonFlags.insert(PassOpts.CommonFlags.begin(),
                                  {"-D__GFX__=1", "-D__INTEL_OFFLOAD=1", "-include",
                                   "gfx/gfx_intrin.h"});
    // Forced includes come before the main file, whose lowered copy
    // includes the offload header: their lowered copies need it first.
    if (llvm::is_contained(Opts.CommonFlags, "-include"))
      PassOpts.CommonFlags.insert(PassOpts.CommonFlags.begin(),
                                  {"-include", "slmc/offload.h"});

    if (Opts.Emit == EmitKind::Spirv)
      return compileSpirv(TC, PassOpts, Temps, Source, Source, outputFor(Source, "spv"));
    if (Opts.Emit == EmitKind::Ptx)
      return compilePtx(TC, PassOpts, Temps, Source, Source, outputFor(Source, "ptx"));

    std::vector<DeviceImageFile> Images;
    if (Opts.Spirv) {
      std::string Spv = Temps.make(Stem, "spv");
      std::map<std::string, std::string> Strings;
      // With the default targets, a printf SPIR-V cannot express costs the
      // SPIR-V image only (a warning), as a missing libdevice costs the PTX
      // image below.
      bool PrintfUnsupported = false;
      if (Spv.empty() ||
          !compileSpirv(TC, PassOpts, Temps, Source, Source, Spv, &Strings,
                        Opts.TargetsChosen ? nullptr : &PrintfUnsupported)) {
        if (!PrintfUnsupported)
          return false;
      } else {
        Images.push_back(
            {DeviceImageFile::Spirv, Spv, "spirv" + Opts.SpirvVersion, std::move(Strings)});
      }
    }
    if (Opts.Ptx) {
      // With the default targets, a missing libdevice costs the PTX image
      // only (a warning); a user who asked for PTX gets an error.
      std::string Ptx = Temps.make(Stem, "ptx");
      bool LibdeviceMissing = false;
      if (Ptx.empty() || !compilePtx(TC, PassOpts, Temps, Source, Source, Ptx,
                                     Opts.TargetsChosen ? nullptr : &LibdeviceMissing)) {
        if (!LibdeviceMissing)
          return false;
      } else {
        Images.push_back({DeviceImageFile::Ptx, Ptx, Opts.CudaArch});
      }
    }
    if (Opts.Emit == EmitKind::Program) {
      // Host code loads this at run time: its kernels' host versions come
      // as a shared object for the CPU fallback.
      std::string Shared = Temps.make(Stem, "so");
      if (Shared.empty() || !compileHostSharedObject(PassOpts, Source, Shared))
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
    if (!Result.TestsGfxMacro)
      return compileHost(PassOpts, Source, Package, Object);

    // A source that tests __GFX__ means one thing in its host code and
    // another in its offloaded code, as ICC compiled it twice: the kernels'
    // CPU versions come from a compilation with the macro, the host pass
    // has it undefined (lib/CpuFallback/OffloadedCopy.cpp joins them).
    std::string Offloaded = Temps.make(Stem, "gfx.bc");
    if (Offloaded.empty() || !compileOffloadedCopy(PassOpts, Source, Offloaded))
      return false;
    Options HostOpts = PassOpts;
    llvm::erase(HostOpts.CommonFlags, "-D__GFX__=1");
    return compileHost(HostOpts, Source, Package, Object, Offloaded);
  }

  /// The lowered source as ICC's offload compilation saw it (`__GFX__`
  /// defined), as unoptimised host bitcode: the host pass takes its
  /// kernels' CPU versions.
  bool compileOffloadedCopy(const Options &PassOpts, StringRef Source, StringRef Out) {
    std::string Empty = Temps.make(sys::path::stem(Source), "empty.slmcfat");
    if (Empty.empty() || (!Opts.DryRun && !packageImages({}, Empty)))
      return false;
    std::vector<std::string> Args = {"-x", "hip", "--offload-host-only",
                                     "--offload=spirv64", "-nogpulib", "-nogpuinc",
                                     "-isystem", TC.ResourceInclude};
    Args.insert(Args.end(), PassOpts.CommonFlags.begin(), PassOpts.CommonFlags.end());
    appendHostFlags(Args);
    if (!Opts.OptLevel.empty())
      Args.push_back(Opts.OptLevel);
    Args.insert(Args.end(), {"-w", "-Xclang", "-fcuda-include-gpubinary", "-Xclang", Empty,
                             "-Xclang", "-disable-llvm-passes", "-emit-llvm", "-c",
                             Source.str(), "-o", Out.str()});
    return runProgram(TC.Clang, Args, Opts.Verbose, Opts.DryRun) == 0;
  }

  /// Writes the lowered files and a virtual file system overlay (clang's
  /// -ivfsoverlay) that serves them under the user's file names, and adds
  /// the overlay to `PassOpts`.
  bool writeOverlay(StringRef Source, const LoweredOutput &Files, Options &PassOpts) {
    vfs::YAMLVFSWriter Overlay;
    Overlay.setUseExternalNames(false);
    auto Map = [&](StringRef UserFile, StringRef Text) {
      std::string Copy = Temps.make(sys::path::stem(UserFile),
                                    ("slmc" + sys::path::extension(UserFile)).str());
      if (Copy.empty() || (!Opts.DryRun && !writeFile(Copy, Text)))
        return false;
      Overlay.addFileMapping(absolute(UserFile), absolute(Copy));
      return true;
    };
    if (!Map(Source, Files.Main))
      return false;
    for (const LoweredFile &H : Files.Headers)
      if (!Map(H.Path, H.Text))
        return false;
    std::string Yaml = Temps.make(sys::path::stem(Source), "vfs.yaml");
    if (Yaml.empty())
      return false;
    if (!Opts.DryRun) {
      std::string Text;
      raw_string_ostream OS(Text);
      Overlay.write(OS);
      if (!writeFile(Yaml, Text))
        return false;
    }
    PassOpts.CommonFlags.insert(PassOpts.CommonFlags.begin(), {"-ivfsoverlay", Yaml});
    return true;
  }

  /// --emit=offload-cpp: the lowered main file at the output; lowered
  /// headers (if any) next to it as <stem>.slmc<ext>, with an overlay
  /// <output>.vfs.yaml that serves them under the user's names (`-o -`
  /// prints them after the main file instead).
  bool writeOffloadCpp(StringRef Source, const LoweredOutput &Files) {
    std::string Out = outputFor(Source, "slmc.cpp");
    if (Out == "-") {
      std::string Text = Files.Main;
      for (const LoweredFile &H : Files.Headers)
        Text += "\n// ---- slmc: lowered header " + H.Path + "\n" + H.Text;
      return writeFile(Out, Text);
    }
    if (!writeFile(Out, Files.Main))
      return false;
    if (Files.Headers.empty())
      return true;
    vfs::YAMLVFSWriter Overlay;
    Overlay.setUseExternalNames(false);
    Overlay.addFileMapping(absolute(Source), absolute(Out));
    SmallString<256> Dir(sys::path::parent_path(absolute(Out)));
    for (const LoweredFile &H : Files.Headers) {
      SmallString<256> Copy(Dir);
      sys::path::append(Copy, sys::path::stem(H.Path) + ".slmc" +
                                  sys::path::extension(H.Path));
      if (!writeFile(Copy, H.Text))
        return false;
      Overlay.addFileMapping(H.Path, Copy);
    }
    std::string Text;
    raw_string_ostream OS(Text);
    Overlay.write(OS);
    return writeFile(Out + ".vfs.yaml", Text);
  }

  static std::string absolute(StringRef Path) {
    SmallString<256> P(Path);
    sys::fs::make_absolute(P);
    sys::path::remove_dots(P, /*remove_dot_dot=*/true);
    return std::string(P);
  }

  std::string outputFor(StringRef Source, StringRef Ext) {
    if (!Opts.Output.empty())
      return Opts.Output;
    return replaceExtension(Source, Ext);
  }

  /// The host pass: `Source` through `PassOpts`' overlay, in HIP host mode,
  /// with the device images embedded.
  bool compileHost(const Options &PassOpts, StringRef Source, StringRef Package,
                   StringRef Object, StringRef OffloadedCopy = {}) {
    std::vector<std::string> Args = {"-x", "hip", "--offload-host-only",
                                     "--offload=spirv64", "-nogpulib", "-nogpuinc",
                                     "-isystem", TC.ResourceInclude};
    Args.insert(Args.end(), PassOpts.CommonFlags.begin(), PassOpts.CommonFlags.end());
    if (!OffloadedCopy.empty()) {
      // First: the other plugins work on the joined module.
      SmallString<256> Plugin(TC.RuntimeLibDir);
      sys::path::append(Plugin, "slmcOffloadedCopy.so");
      Args.insert(Args.end(), {"-fpass-plugin=" + std::string(Plugin), "-mllvm",
                               "-slmc-offloaded-copy=" + OffloadedCopy.str()});
    }
    appendPassPlugins(Args);
    appendHostFlags(Args);
    if (!Opts.OptLevel.empty())
      Args.push_back(Opts.OptLevel);
    if (Opts.Verbose) // clang's own report (build systems read its search paths)
      Args.push_back("-v");
    // -w: the check pass has reported the source's warnings once.
    Args.insert(Args.end(), {"-w", "-Xclang", "-fcuda-include-gpubinary",
                             "-Xclang", Package.str(), "-c", Source.str(), "-o",
                             Object.str()});
    return runProgram(TC.Clang, Args, Opts.Verbose, Opts.DryRun) == 0;
  }

  /// The host pass's LLVM plugins. -fslmc-check: the kernels' host copies
  /// call the runtime's race and barrier hooks (lib/Instrument), which name
  /// source lines, so line tables are on (before the user's flags: a -g of
  /// theirs wins).
  void appendPassPlugins(std::vector<std::string> &Args) {
    if (!Opts.CheckInstrumentation) {
      // Work-item loops for the CPU fallback (lib/CpuFallback); checked
      // builds keep fibers, whose interleaving the checks observe.
      SmallString<256> Loops(TC.RuntimeLibDir);
      sys::path::append(Loops, "slmcWorkItemLoops.so");
      Args.push_back("-fpass-plugin=" + std::string(Loops));
      return;
    }
    SmallString<256> Plugin(TC.RuntimeLibDir);
    sys::path::append(Plugin, "slmcCheck.so");
    Args.insert(Args.end(), {"-fpass-plugin=" + std::string(Plugin), "-gline-tables-only"});
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

  bool compileHostSharedObject(const Options &PassOpts, StringRef Source, StringRef Out) {
    std::string Object = Temps.make(sys::path::stem(Source), "pic.o");
    // HIP host code needs an image to register; the program's images are
    // loaded by the runtime instead, so this one is empty.
    std::string Empty = Temps.make(sys::path::stem(Source), "empty.slmcfat");
    if (Empty.empty() || (!Opts.DryRun && !packageImages({}, Empty)))
      return false;
    std::vector<std::string> Args = {"-Xclang", "-fcuda-include-gpubinary",
                                     "-Xclang", Empty, "-x", "hip", "--offload-host-only",
                                     "--offload=spirv64", "-nogpulib", "-nogpuinc",
                                     "-fPIC", "-isystem", TC.ResourceInclude};
    Args.insert(Args.end(), PassOpts.CommonFlags.begin(), PassOpts.CommonFlags.end());
    appendPassPlugins(Args);
    appendHostFlags(Args);
    Args.push_back(Opts.OptLevel.empty() ? "-O2" : Opts.OptLevel);
    Args.insert(Args.end(), {"-w", "-c", Source.str(), "-o", Object});
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
    if (Opts.Verbose) // clang's own report (build systems read the linker line)
      Args.push_back("-v");
    return runProgram(TC.Clang, Args, Opts.Verbose, Opts.DryRun) == 0;
  }

  const Toolchain &TC;
  const Options &Opts;
  TempFiles Temps;
};

} // namespace

int run(int Argc, const char **Argv) {
  InitLLVM X(Argc, Argv);
  // @file arguments, as GCC and clang read them.
  SmallVector<const char *, 64> Args(Argv, Argv + Argc);
  BumpPtrAllocator Alloc;
  cl::ExpansionContext Expander(Alloc, cl::TokenizeGNUCommandLine);
  if (Error E = Expander.expandResponseFiles(Args)) {
    errs() << "slmc++: error: " << toString(std::move(E)) << "\n";
    return 1;
  }
  // Intel's cmc command line for C for Metal kernel files (CmcMode.h).
  ArrayRef<const char *> UserArgs = ArrayRef<const char *>(Args).drop_front();
  bool Cmc = isCmcDriverName(Argv[0]);
  if (!UserArgs.empty() && StringRef(UserArgs.front()) == "--driver-mode=cmc") {
    Cmc = true;
    UserArgs = UserArgs.drop_front();
  }
  std::vector<std::string> CmcArgs;
  std::vector<const char *> CmcArgPointers;
  if (Cmc) {
    if (!translateCmcArguments(UserArgs, CmcArgs))
      return 1;
    for (const std::string &A : CmcArgs)
      CmcArgPointers.push_back(A.c_str());
    UserArgs = CmcArgPointers;
  }
  Options Opts;
  Opts.CmKernelFile = Cmc;
  if (!parseOptions(UserArgs, Opts))
    return 1;
  if (Opts.TheMode == Mode::Help) {
    if (Cmc)
      printCmcHelp();
    else
      printHelp();
    return 0;
  }
  if (Opts.TheMode == Mode::Version) {
    printVersion();
    return 0;
  }
  Toolchain TC = Toolchain::discover(Argv[0]);
  if (Opts.TheMode == Mode::ClangQuery) {
    // The host compiler answers: slmc++ compiles and links with it.
    std::vector<std::string> Query = Opts.HostFlags;
    Query.insert(Query.end(), Opts.LinkFlags.begin(), Opts.LinkFlags.end());
    Query.insert(Query.end(), Opts.QueryFlags.begin(), Opts.QueryFlags.end());
    int RC = runProgram(TC.Clang, Query, Opts.Verbose, Opts.DryRun);
    return RC < 0 ? 1 : RC;
  }
  return Compilation(TC, Opts).run();
}

} // namespace slmc::driver
