//===- DeviceCode.h - SPIR-V, PTX and their packaging -----------*- C++ -*-===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_DRIVER_DEVICECODE_H
#define SLMC_DRIVER_DEVICECODE_H

#include "Driver/Options.h"
#include "Driver/Toolchain.h"

#include <map>
#include <string>
#include <vector>

namespace slmc::driver {

/// Temporary files of one compilation, removed at exit unless -save-temps.
class TempFiles {
public:
  explicit TempFiles(bool Keep) : Keep(Keep) {}
  ~TempFiles();
  /// A new file name "<stem>-XXXXXX.<ext>" (in the current directory with
  /// -save-temps, else in the system temporary directory).
  std::string make(llvm::StringRef Stem, llvm::StringRef Ext);

private:
  bool Keep;
  std::vector<std::string> Files;
};

/// Flags every device pass shares: the user's -I/-D/-std..., the resource
/// directory, the optimisation level.
std::vector<std::string> deviceFlags(const Toolchain &TC, const Options &Opts);

/// Lowered source -> SPIR-V module (validated in process). Returns false
/// after printing the reason. Every symbol but the kernels is made internal
/// before optimisation.
/// `ImageStrings`, when given, receives what the image must carry for the
/// runtime: "slmc.args.<kernel>" for each kernel whose argument object was
/// split into parameters (splitKernelArgumentObjects in the definition).
/// A printf whose format is made at run time is an error, or, with
/// `PrintfUnsupported`, a warning that sets it (the caller leaves the SPIR-V
/// image out).
bool compileSpirv(const Toolchain &TC, const Options &Opts, TempFiles &Temps,
                  llvm::StringRef Lowered, llvm::StringRef SourceName,
                  llvm::StringRef Out,
                  std::map<std::string, std::string> *ImageStrings = nullptr,
                  bool *PrintfUnsupported = nullptr);

/// Lowered source -> PTX module. Every symbol but the kernels is made
/// internal before optimisation; opt unrolls and llc contracts as nvcc does
/// (see the definition). When the kernels call a math function only CUDA's
/// libdevice has and none is installed, that is an error, or, with
/// `LibdeviceMissing`, a warning that sets it (the caller leaves the PTX
/// image out).
bool compilePtx(const Toolchain &TC, const Options &Opts, TempFiles &Temps,
                llvm::StringRef Lowered, llvm::StringRef SourceName,
                llvm::StringRef Out, bool *LibdeviceMissing = nullptr);

/// Makes clang's PTX loadable by the CUDA driver (see the definition).
bool fixPtxForDriver(llvm::StringRef Path);

/// Validates a SPIR-V binary with SPIRV-Tools for the given version; on
/// failure stores the validator's message.
bool validateSpirv(llvm::ArrayRef<uint32_t> Words, llvm::StringRef Version,
                   std::string &Message);

/// Writes the device images as a sequence of LLVM OffloadBinary images
/// ended by eight zero bytes (what libslmrt reads at run time).
struct DeviceImageFile {
  enum Kind { Spirv, Ptx, HostObject } TheKind;
  std::string Path;
  std::string Arch;
  std::map<std::string, std::string> Strings; // more string entries
};
/// `Kernels`: signatures of kernels launched by name (program files), stored
/// as the string "slmc.kernels" of every image.
bool packageImages(const std::vector<DeviceImageFile> &Images,
                   llvm::StringRef Out,
                   const std::vector<std::string> &Kernels = {});

} // namespace slmc::driver

#endif // SLMC_DRIVER_DEVICECODE_H
