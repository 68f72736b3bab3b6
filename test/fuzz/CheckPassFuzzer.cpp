//===- CheckPassFuzzer.cpp - Fuzzing the check pass on a source -----------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Runs slmc++'s check pass (prelude, array-notation pre-pass, Clang's parse,
// model builders, checkers and, when there is no error, lowering) over
// arbitrary source text. The first byte picks the dialect whose header
// comes first, so that every dialect's prelude and rules are reached:
//
//   byte % 4 == 0  C++ AMP      (<amp.h>)
//            == 1  SYCL         (<sycl/sycl.hpp>)
//            == 2  C for Metal  (<cm/cm.h>)
//            == 3  Cilk Plus    (<cilk/cilk.h>, graphics offload predefines)
//
// The rest is the main file. Diagnostics are the expected outcome of most
// inputs; a crash, a hang or a leak is a finding.
//
//===----------------------------------------------------------------------===//
#include "Driver/CheckPass.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>

using namespace slmc::driver;

namespace {

std::string Dir, Path;

void removeInput() {
  if (!Path.empty())
    ::unlink(Path.c_str());
  if (!Dir.empty())
    ::rmdir(Dir.c_str());
}

const char *const kDialectHeaders[4] = {
    "#include <amp.h>\nusing namespace concurrency;\n",
    "#include <sycl/sycl.hpp>\n",
    "#include <cm/cm.h>\n",
    // usesCilkOffload() looks at the text: the comment turns on the
    // graphics offload predefines (__GFX__, the _gfx_ intrinsics).
    "#include <cilk/cilk.h> // _Cilk_for\n",
};

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  const char *Tmp = std::getenv("TMPDIR");
  std::string Template = std::string(Tmp && *Tmp ? Tmp : "/tmp") +
                         "/slmc-fuzz-check-XXXXXX";
  if (!::mkdtemp(Template.data())) {
    std::perror("slmc-fuzz-check: mkdtemp");
    std::exit(1);
  }
  Dir = Template;
  Path = Dir + "/input.cpp";
  std::atexit(removeInput);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (Size == 0)
    return 0;
  std::string Text = kDialectHeaders[Data[0] % 4];
  Text += "#line 1\n";
  Text.append(reinterpret_cast<const char *>(Data + 1), Size - 1);
  FILE *F = std::fopen(Path.c_str(), "wb");
  if (!F || std::fwrite(Text.data(), 1, Text.size(), F) != Text.size() ||
      std::fclose(F) != 0) {
    std::perror("slmc-fuzz-check: writing the input");
    std::exit(1);
  }

  Toolchain TC;
  TC.Clang = SLMC_FUZZ_CLANGXX;
  TC.ResourceInclude = SLMC_FUZZ_RESOURCE_INCLUDE;
  Options Opts;
  Opts.TheMode = Mode::SyntaxOnly;
  // clang's cc1 leaves the AST to the process exit (-disable-free), which
  // would be a leak per input here.
  Opts.HostFlags = {"-Xclang", "-no-disable-free", "-fno-color-diagnostics"};
  LoweredSource Lowered;
  runCheckPass(TC, Opts, Path, &Lowered);
  return 0;
}
