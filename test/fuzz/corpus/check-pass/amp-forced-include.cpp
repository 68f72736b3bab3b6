0// A header given with -include sees the dialect prelude exactly like the
// main file: restrict(...) and tile_static work in it, in slmc++, the plugin
// (slmc-clangd: test/lit/clangd/forced-include.cpp), and it is lowered like
// any user header.
// RUN: %slmcxx -fsyntax-only -include %S/Inputs/forced-harness.h -Xclang -verify %s
// RUN: %clangxx %plugin -fsyntax-only -include %S/Inputs/forced-harness.h -Xclang -verify %s
// RUN: %slmcxx -O2 -include %S/Inputs/forced-harness.h %s -o %t
// RUN: %t | FileCheck %s
// RUN: %slmcxx --emit=spirv -include %S/Inputs/forced-harness.h %s -o %t.spv
// RUN: %spirv-val %t.spv
// RUN: %slmcxx --emit=ptx -include %S/Inputs/forced-harness.h %s -o %t.ptx
// expected-no-diagnostics

#include <cstdio>
#include <vector>

int main() {
  std::vector<int> data(64, -1);
  concurrency::array_view<int, 1> v(64, data);
  harness_fill(v);
  v.synchronize();
  int bad = 0;
  for (int i = 0; i < 64; ++i)
    bad += data[i] != harness_square(i);
  // CHECK: forced include: PASSED
  std::printf("forced include: %s\n", bad ? "FAILED" : "PASSED");
  return bad;
}
