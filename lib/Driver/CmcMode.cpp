//===- CmcMode.cpp - Intel's cmc command line -----------------------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "Driver/CmcMode.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace slmc::driver {
namespace {

// cmc's targets and macros (its user guide, "Supported Gen Targets"). The
// targets without double are those cmc's GenX target lists as such.
const CmTarget Targets[] = {
    {"hsw", "CM_GEN7_5", 750, true},     {"bdw", "CM_GEN8", 800, true},
    {"chv", "CM_GEN8_5", 850, true},     {"skl", "CM_GEN9", 900, true},
    {"bxt", "CM_GEN9", 920, true},       {"kbl", "CM_GEN9_5", 950, true},
    {"glk", "CM_GEN9_5", 970, true},     {"icllp", "CM_GEN11", 1150, false},
    {"tgllp", "CM_GEN12", 1200, false},  {"rkl", "CM_GEN12", 1201, false},
    {"dg1", "CM_GEN12", 1210, false},    {"adlp", "CM_GEN12", 1220, false},
    {"adls", "CM_GEN12", 1230, false},   {"adln", "CM_GEN12", 1240, false},
    {"xehp_sdv", "CM_XEHP", 1270, true}, {"dg2", "CM_XEHPG", 1271, false},
    {"mtl", "CM_XELPG", 1275, true},     {"pvc", "CM_XEHPC", 1280, true},
};

/// Other spellings cmc takes: generation numbers and family names.
struct Alias {
  const char *Spelling, *Target;
};
const Alias Aliases[] = {
    {"gen7_5", "hsw"},    {"gen8", "bdw"},    {"gen8_5", "chv"},
    {"gen9", "skl"},      {"apl", "bxt"},     {"gen9_5", "kbl"},
    {"cfl", "kbl"},       {"icl", "icllp"},   {"gen11", "icllp"},
    {"gen11lp", "icllp"}, {"gen12", "tgllp"}, {"gen12lp", "tgllp"},
    {"xehp", "xehp_sdv"}, {"xehpg", "dg2"},   {"acm-g10", "dg2"},
    {"dg2-g10", "dg2"},   {"xelpg", "mtl"},   {"mtl-p", "mtl"},
    {"xehpc", "pvc"},     {"pvcxt", "pvc"},
};

bool error(const llvm::Twine &Message) {
  llvm::errs() << "slmc-cmc: error: " << Message << "\n";
  return false;
}

/// cmc's own options may start with '/' as well as '-'.
std::string normalise(llvm::StringRef A) {
  if (A.starts_with("/Qxcm") || A.starts_with("/mCM"))
    return ("-" + A.drop_front()).str();
  return A.str();
}

/// Options that change nothing in slmc's output: reports, finaliser and
/// register-allocation tuning, debug-information stripping, ICL-era
/// switches. cmc's -Qxcm_* and -mCM_* not named here are ignored with a
/// warning.
bool isNoEffectOption(llvm::StringRef A) {
  return A == "-Qxcm" || A == "-Qxcm_release" || A == "-Qxcm_print_asm_count" ||
         A == "-Qxcm_opt_report" || A == "-Qxcm_doubleGRF" ||
         A.starts_with("-Qxcm_register_file_size") ||
         A.starts_with("-Qxcm_preschedule_") || A == "-menableiga" ||
         A == "-mdump_asm" || A == "-mCM_emit_common_isa" ||
         A == "-mCM_printregusage" || A == "-mCM_init_global" ||
         A == "-mCM_no_input_reorder" || A.starts_with("-mCM_jit_option") ||
         A == "-mCM_old_asm_name" || A == "-mCM_printfargs" ||
         A == "-mCM_reverse_kernels" || A == "-mCM_no_debug" ||
         A == "-mCM_disable_jmpi" || A == "-mCM_no_vector_decomposition" ||
         A == "-mCM_translate_legacy" || A == "-mCM_warn_callable" ||
         A == "-femulate_i64" || A == "-fvolatile-global" ||
         A == "-fcm-pointer" || A == "-vc-use-plain-2d-images" || A == "-c";
}

/// Takes the value of an option written -opt=value, -optvalue or -opt value.
bool optionValue(llvm::ArrayRef<const char *> Args, size_t &I,
                 llvm::StringRef Name, std::string &Value, bool &Matched) {
  llvm::StringRef A = Args[I];
  Matched = false;
  if (!A.consume_front(Name))
    return true;
  Matched = true;
  if (A.consume_front("="))
    Value = A.str();
  else if (!A.empty())
    Value = A.str();
  else if (I + 1 < Args.size())
    Value = Args[++I];
  else
    return error("argument to '" + Name + "' is missing (expected 1 value)");
  return true;
}

} // namespace

const CmTarget *findCmTarget(llvm::StringRef Name) {
  std::string Lower = Name.lower();
  for (const Alias &A : Aliases)
    if (Lower == A.Spelling)
      Lower = A.Target;
  for (const CmTarget &T : Targets)
    if (Lower == T.Name)
      return &T;
  return nullptr;
}

std::string knownCmTargets() {
  std::string S;
  for (const CmTarget &T : Targets)
    S += (S.empty() ? "" : ", ") + std::string(T.Name);
  return S + " (or genN names: gen9, gen12, ...)";
}

std::vector<std::string> cmKernelMacros(const CmTarget *Target,
                                        unsigned RevId) {
  // slmc compiles 64-bit integers for every target (IGC emulates them where
  // the GPU lacks them, as cmc does with its i64 emulation).
  std::vector<std::string> Macros = {"-D__CM", "-DCM_HAS_LONG_LONG=1"};
  if (!Target || Target->HasDouble)
    Macros.push_back("-DCM_HAS_DOUBLE=1");
  if (Target) {
    Macros.push_back("-DCM_GENX=" + std::to_string(Target->GenX));
    Macros.push_back("-DCM_GENX_REVID=" + std::to_string(RevId));
    Macros.push_back(std::string("-D") + Target->Macro);
  }
  return Macros;
}

bool isCmcDriverName(llvm::StringRef Argv0) {
  llvm::StringRef Name = llvm::sys::path::stem(Argv0);
  return Name.ends_with("cmc");
}

bool translateCmcArguments(llvm::ArrayRef<const char *> Args,
                           std::vector<std::string> &Out) {
  // Target precedence as cmc's: -Qxcm_jit_target=, then -mcpu=, then -march=.
  std::string JitTarget, Mcpu, March, RevId, Output;
  std::vector<std::string> Sources, Rest;
  bool Help = false, Version = false;
  for (size_t I = 0; I < Args.size(); ++I) {
    std::string Normal = normalise(Args[I]);
    llvm::StringRef A = Normal;
    bool Matched;
    if (A == "--help" || A == "-help" || A == "-h") {
      Help = true;
    } else if (A == "--version") {
      Version = true;
    } else if (A == "-Qxcm_jit_target") {
      // cmc accepts it without a value: no target.
    } else if (A.starts_with("-Qxcm_jit_target")) {
      JitTarget = A.drop_front(strlen("-Qxcm_jit_target")).ltrim('=').str();
    } else if (A.starts_with("-mcpu=")) {
      Mcpu = A.drop_front(strlen("-mcpu=")).str();
    } else if (A.starts_with("-march=")) {
      March = A.drop_front(strlen("-march=")).str();
    } else if (A.starts_with("-Qxcm_revid")) {
      if (!optionValue(Args, I, "-Qxcm_revid", RevId, Matched))
        return false;
    } else if (A == "-o" || (A.starts_with("-o") && A.size() > 2)) {
      if (!optionValue(Args, I, "-o", Output, Matched))
        return false;
    } else if (A == "-fcmocl" || A == "-emit-spirv" ||
               A.starts_with("-binary-format")) {
      std::string Format = A == "-emit-spirv" ? "spirv" : "ze",
                  Spelled = A.str();
      if (A.starts_with("-binary-format")) {
        if (!optionValue(Args, I, "-binary-format", Format, Matched))
          return false;
        Spelled = "-binary-format=" + Format;
      }
      if (Format != "cm")
        return error("'" + Spelled +
                     "': slmc writes program files for slmc's CmDevice "
                     "runtime only (cmc's -binary-format=cm); for SPIR-V use "
                     "slmc++ --emit=spirv");
    } else if (isNoEffectOption(A)) {
      // Accepted: nothing in slmc's output depends on it.
    } else if (A.starts_with("-Qxcm") || A.starts_with("-mCM")) {
      llvm::errs() << "slmc-cmc: warning: '" << A
                   << "' ignored (not a cmc option slmc knows)\n";
    } else if (A == "-D" || A == "-U" || A == "-I" || A == "-isystem" ||
               A == "-include" || A == "-x") {
      if (I + 1 >= Args.size())
        return error("argument to '" + A + "' is missing (expected 1 value)");
      Rest.push_back(A.str());
      Rest.push_back(Args[++I]);
    } else if (A.starts_with("-")) {
      Rest.push_back(A.str()); // -D..., -I..., -O, -g, -W, -std=, -v, -###, ...
    } else {
      Sources.push_back(A.str());
    }
  }
  if (Help || Version) {
    Out = {Help ? "--help" : "--version"};
    return true;
  }
  std::string TargetName = !JitTarget.empty() ? JitTarget
                           : !Mcpu.empty()    ? Mcpu
                                              : March;
  if (!TargetName.empty() && !findCmTarget(TargetName))
    return error("invalid arch name '" + TargetName + "' (expected " +
                 knownCmTargets() + ")");
  if (Sources.empty())
    return error("no input files");
  if (Sources.size() > 1)
    return error("one kernel file at a time (got " +
                 llvm::Twine(Sources.size()) + ")");
  // -E, -M, -MM and -fsyntax-only: preprocess or check the kernel file only.
  bool NoProgram = llvm::any_of(Rest, [](const std::string &A) {
    return A == "-E" || A == "-M" || A == "-MM" || A == "-fsyntax-only";
  });
  if (NoProgram) {
    Out.clear();
    if (!Output.empty())
      Out = {"-o", Output};
  } else {
    if (Output.empty()) // cmc writes <stem>.isa in the current directory
      Output = (llvm::sys::path::stem(Sources.front()) + ".isa").str();
    Out = {"--emit=program", "-o", Output};
  }
  if (!TargetName.empty())
    Out.push_back("--cm-target=" + TargetName);
  if (RevId.empty() && llvm::StringRef(TargetName).equals_insensitive("pvcxt"))
    RevId = "5"; // cmc's table: PVCXT is PVC's revision 5
  if (!RevId.empty())
    Out.push_back("--cm-revid=" + RevId);
  llvm::append_range(Out, Rest);
  Out.push_back(Sources.front());
  return true;
}

void printCmcHelp() {
  llvm::outs()
      << R"(OVERVIEW: slmc-cmc - Intel C for Metal kernel files, cmc's command line

Compiles a C for Metal kernel file into a program file that CmDevice::LoadProgram
(slmc's <cm_rt.h>) loads; the program runs on Intel GPUs, NVIDIA GPUs and the CPU.
Equivalent to `slmc++ --emit=program [--cm-target=<gen>]`.

USAGE: slmc-cmc [options] kernel_genx.cpp

OPTIONS:
  -o <file>               Output (default: <stem>.isa in the current directory)
  -march=<gen>, -mcpu=<gen>, -Qxcm_jit_target=<gen>
                          Target: defines CM_GENX, CM_GENX_REVID and CM_GEN<n>/CM_XE*
                          as cmc does (tgllp, dg2, pvc, skl, gen9, gen12, ...); the
                          program still runs on every device
  -Qxcm_revid=<n>         CM_GENX_REVID's value
  -D, -U, -I, -isystem, -include, -O<n>, -g, -W..., -w, -std=, -v, -###
                          As for slmc++
  -Qxcm, -c, -Qxcm_release, -mCM_printregusage, -Qxcm_print_asm_count,
  -mCM_emit_common_isa, -menableiga, -mCM_jit_option..., and cmc's other
  report and tuning options
                          Accepted; they change nothing in slmc's output
  -binary-format=cm       Accepted (the default); ocl, ze, -fcmocl and -emit-spirv
                          are refused (use slmc++ --emit=spirv for SPIR-V)

cmc's own options may start with '/' (/Qxcm_jit_target=gen9). Every kernel file sees
__CM, CM_HAS_LONG_LONG and, unless the target lacks it, CM_HAS_DOUBLE.
)";
}

} // namespace slmc::driver
