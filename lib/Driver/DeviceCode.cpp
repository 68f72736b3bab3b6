//===- DeviceCode.cpp -----------------------------------------------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "Driver/DeviceCode.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Object/OffloadBinary.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

#include "spirv-tools/libspirv.h"

using namespace llvm;

namespace slmc::driver {

TempFiles::~TempFiles() {
  if (Keep)
    return;
  for (const std::string &F : Files)
    sys::fs::remove(F);
}

std::string TempFiles::make(StringRef Stem, StringRef Ext) {
  SmallString<256> Path;
  if (Keep) {
    Path = Stem;
    Path += ".";
    Path += Ext;
  } else if (std::error_code EC = sys::fs::createTemporaryFile(Stem, Ext, Path)) {
    errs() << "slmc++: error: cannot create a temporary file: " << EC.message() << "\n";
    return {};
  }
  Files.push_back(std::string(Path));
  return std::string(Path);
}

std::string deviceOptLevel(const Options &Opts) {
  // Unoptimised SPIR-V from LLVM's backend does not validate (non-constant
  // access-chain indices), so device code is optimised at least a little.
  if (Opts.OptLevel.empty())
    return "-O3";
  if (Opts.OptLevel == "-O0")
    return "-O1";
  return Opts.OptLevel;
}

std::vector<std::string> deviceFlags(const Toolchain &TC, const Options &Opts) {
  std::vector<std::string> F = {"-isystem", TC.ResourceInclude};
  F.insert(F.end(), Opts.CommonFlags.begin(), Opts.CommonFlags.end());
  F.push_back(deviceOptLevel(Opts));
  // Restriction keywords sit where nvcc would not put them; that is fine.
  F.push_back("-Wno-cuda-compat");
  return F;
}

static bool readWords(StringRef Path, std::vector<uint32_t> &Words) {
  auto Buf = MemoryBuffer::getFile(Path);
  if (!Buf || (*Buf)->getBufferSize() % 4)
    return false;
  Words.resize((*Buf)->getBufferSize() / 4);
  memcpy(Words.data(), (*Buf)->getBufferStart(), (*Buf)->getBufferSize());
  return true;
}

bool compileSpirv(const Toolchain &TC, const Options &Opts, TempFiles &Temps,
                  StringRef Lowered, StringRef SourceName, StringRef Out) {
  std::string Bitcode = Temps.make(sys::path::stem(SourceName), "spirv.bc");
  if (Bitcode.empty())
    return false;
  std::vector<std::string> Args = {"-x", "hip", "--offload=spirv64", "-nogpulib",
                                   "-nogpuinc", "--cuda-device-only", "-emit-llvm",
                                   "-c"};
  for (std::string &F : deviceFlags(TC, Opts))
    Args.push_back(std::move(F));
  Args.insert(Args.end(), {Lowered.str(), "-o", Bitcode});
  if (runProgram(TC.Clang, Args, Opts.Verbose, Opts.DryRun) != 0)
    return false;

  // The version comes from the target triple's sub-architecture.
  std::string Triple = "spirv64v" + Opts.SpirvVersion + "-unknown-unknown";
  // HIP's default address space is generic: let group-local and global
  // accesses use their own address spaces again (Intel GPUs access generic
  // pointers more slowly), before the SPIR-V backend runs.
  std::string Inferred = Temps.make(sys::path::stem(SourceName), "spirv.opt.bc");
  if (Inferred.empty() ||
      runProgram(TC.Opt,
                 {"-mtriple=" + Triple, "-passes=infer-address-spaces,instcombine",
                  Bitcode, "-o", Inferred},
                 Opts.Verbose, Opts.DryRun) != 0)
    return false;
  std::vector<std::string> LlcArgs = {"-mtriple=" + Triple, "-filetype=obj",
                                      deviceOptLevel(Opts), Inferred, "-o",
                                      Out.str()};
  if (LlcArgs[2] == "-Os" || LlcArgs[2] == "-Oz" || LlcArgs[2] == "-Ofast")
    LlcArgs[2] = "-O2";
  if (runProgram(TC.Llc, LlcArgs, Opts.Verbose, Opts.DryRun) != 0) {
    errs() << "slmc++: error: the SPIR-V backend failed on '" << SourceName << "'\n";
    return false;
  }
  if (Opts.DryRun)
    return true;
  std::vector<uint32_t> Words;
  std::string Message;
  if (!readWords(Out, Words) || !validateSpirv(Words, Opts.SpirvVersion, Message)) {
    errs() << "slmc++: error: the SPIR-V generated for '" << SourceName
           << "' does not validate: " << Message << "\n";
    return false;
  }
  return true;
}

bool compilePtx(const Toolchain &TC, const Options &Opts, StringRef Lowered,
                StringRef Out) {
  std::vector<std::string> Args = {"-x", "cuda", "--cuda-gpu-arch=" + Opts.CudaArch,
                                   "--cuda-device-only", "-nocudainc", "-nocudalib",
                                   "-Wno-unknown-cuda-version", "-S"};
  for (std::string &F : deviceFlags(TC, Opts))
    Args.push_back(std::move(F));
  // Written to a file first (also for `-o -`) to be fixed up for the driver.
  TempFiles Temps(false);
  std::string File = Out == "-" ? Temps.make("slmc-ptx", "ptx") : Out.str();
  Args.insert(Args.end(), {Lowered.str(), "-o", File});
  if (File.empty() || runProgram(TC.Clang, Args, Opts.Verbose, Opts.DryRun) != 0)
    return false;
  if (Opts.DryRun)
    return true;
  if (!fixPtxForDriver(File))
    return false;
  if (Out == "-") {
    auto Buf = MemoryBuffer::getFile(File);
    if (!Buf)
      return false;
    outs() << (*Buf)->getBuffer();
  }
  return true;
}

bool fixPtxForDriver(StringRef Path) {
  // The dynamic group memory parameter of slmc::kernel_entry_dynamic is a
  // pointer to address space 3 in every pass (so the kernel's mangled name
  // agrees), which NVPTX spells `.ptr .shared`; the CUDA driver rejects such
  // entry parameters although ptxas accepts them. The parameter is unused in
  // PTX (the memory is the kernel's extern .shared array): make it plain.
  auto Buf = MemoryBuffer::getFile(Path);
  if (!Buf) {
    errs() << "slmc++: error: cannot read '" << Path << "'\n";
    return false;
  }
  static const Regex SharedParam(" \\.ptr \\.shared( \\.align [0-9]+)?");
  std::string Text = std::string((*Buf)->getBuffer()), Fixed;
  StringRef Rest = Text;
  bool Changed = false;
  while (!Rest.empty()) {
    auto [Line, Tail] = Rest.split('\n');
    std::string L = Line.str();
    if (Line.contains(".param") && SharedParam.match(Line)) {
      L = SharedParam.sub("", Line);
      Changed = true;
    }
    Fixed += L;
    if (Rest.size() > Line.size()) // a newline followed
      Fixed += '\n';
    Rest = Tail;
  }
  if (!Changed)
    return true;
  std::error_code EC;
  raw_fd_ostream OS(Path, EC, sys::fs::OF_Text);
  if (EC) {
    errs() << "slmc++: error: cannot write '" << Path << "': " << EC.message() << "\n";
    return false;
  }
  OS << Fixed;
  return true;
}

bool validateSpirv(ArrayRef<uint32_t> Words, StringRef Version,
                   std::string &Message) {
  spv_target_env Env = StringSwitch<spv_target_env>(Version)
                           .Case("1.0", SPV_ENV_UNIVERSAL_1_0)
                           .Case("1.1", SPV_ENV_UNIVERSAL_1_1)
                           .Case("1.2", SPV_ENV_UNIVERSAL_1_2)
                           .Case("1.3", SPV_ENV_UNIVERSAL_1_3)
                           .Default(SPV_ENV_UNIVERSAL_1_4);
  spv_context Ctx = spvContextCreate(Env);
  spv_diagnostic Diag = nullptr;
  spv_const_binary_t Bin = {Words.data(), Words.size()};
  spv_result_t R = spvValidate(Ctx, &Bin, &Diag);
  if (R != SPV_SUCCESS)
    Message = Diag && Diag->error ? Diag->error : "unknown validation error";
  if (R == SPV_SUCCESS && Words.size() > 1) {
    // The module must not claim a newer version than asked for.
    unsigned Major = (Words[1] >> 16) & 0xff, Minor = (Words[1] >> 8) & 0xff;
    std::string Got = std::to_string(Major) + "." + std::to_string(Minor);
    if (Got > Version.str()) {
      Message = "module has version " + Got + ", asked for " + Version.str();
      R = SPV_ERROR_INVALID_BINARY;
    }
  }
  spvDiagnosticDestroy(Diag);
  spvContextDestroy(Ctx);
  return R == SPV_SUCCESS;
}

bool packageImages(const std::vector<DeviceImageFile> &Images, StringRef Out,
                   const std::vector<std::string> &Kernels) {
  std::string KernelList = llvm::join(Kernels, ";");
  SmallString<0> Package;
  for (const DeviceImageFile &I : Images) {
    auto Buf = MemoryBuffer::getFile(I.Path);
    if (!Buf) {
      errs() << "slmc++: error: cannot read '" << I.Path << "'\n";
      return false;
    }
    object::OffloadBinary::OffloadingImage Image;
    MapVector<StringRef, StringRef> Strings;
    if (I.TheKind == DeviceImageFile::Spirv) {
      Image.TheImageKind = object::IMG_SPIRV;
      Image.TheOffloadKind = object::OFK_HIP;
      Image.StringData["triple"] = "spirv64-unknown-unknown";
    } else if (I.TheKind == DeviceImageFile::Ptx) {
      Image.TheImageKind = object::IMG_PTX;
      Image.TheOffloadKind = object::OFK_Cuda;
      Image.StringData["triple"] = "nvptx64-nvidia-cuda";
    } else {
      Image.TheImageKind = object::IMG_Object;
      Image.TheOffloadKind = object::OFK_None;
      Image.StringData["triple"] = "x86_64-unknown-linux-gnu";
    }
    if (!Kernels.empty())
      Image.StringData["slmc.kernels"] = KernelList;
    Image.StringData["arch"] = I.Arch;
    Image.StringData["producer"] = "slmc";
    Image.Image = std::move(*Buf);
    SmallString<0> Bin = object::OffloadBinary::write(Image);
    Package.append(Bin.begin(), Bin.end());
    while (Package.size() % object::OffloadBinary::getAlignment())
      Package.push_back('\0');
  }
  Package.append(8, '\0'); // the terminator the runtime scans for
  std::error_code EC;
  raw_fd_ostream OS(Out, EC, sys::fs::OF_None);
  if (EC) {
    errs() << "slmc++: error: cannot write '" << Out << "': " << EC.message() << "\n";
    return false;
  }
  OS << Package;
  return true;
}

} // namespace slmc::driver
