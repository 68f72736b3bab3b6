//===- ReplayMain.cpp - Running fuzz targets on saved inputs --------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The main of the fuzz targets in builds without libFuzzer (any compiler):
// runs LLVMFuzzerTestOneInput once on every file named, directories read
// recursively, so that the seed corpus and every saved finding stay tests
// of the ordinary build. A crash is the test's failure.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size);
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int *Argc, char ***Argv);

namespace fs = std::filesystem;

int main(int Argc, char **Argv) {
  if (LLVMFuzzerInitialize)
    LLVMFuzzerInitialize(&Argc, &Argv);
  std::vector<fs::path> Files;
  for (int I = 1; I < Argc; ++I) {
    fs::path P(Argv[I]);
    std::error_code EC;
    if (fs::is_directory(P, EC)) {
      for (const auto &E : fs::recursive_directory_iterator(P))
        if (E.is_regular_file())
          Files.push_back(E.path());
    } else {
      Files.push_back(P);
    }
  }
  std::sort(Files.begin(), Files.end());
  for (const fs::path &P : Files) {
    std::ifstream In(P, std::ios::binary);
    if (!In) {
      std::fprintf(stderr, "cannot read %s\n", P.c_str());
      return 1;
    }
    std::vector<char> Bytes((std::istreambuf_iterator<char>(In)),
                            std::istreambuf_iterator<char>());
    // A copy of exactly the file's size: reads past the end are caught by
    // the sanitizers in sanitizer builds.
    std::vector<uint8_t> Data(Bytes.begin(), Bytes.end());
    LLVMFuzzerTestOneInput(Data.data(), Data.size());
  }
  std::printf("replayed %zu input(s)\n", Files.size());
  return 0;
}
