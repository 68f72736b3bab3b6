// slmc's rules follow calls into functions defined in headers. clangd parses
// the leading #includes once (the preamble) and normally skips the bodies of
// the functions there; slmc-clangd has them parsed, so a barrier reached
// through a header's helper is seen as by slmc++.
// RUN: %slmcxx -fsyntax-only -Xclang -verify %s
// RUN: %clangxx -std=c++17 %plugin -fsyntax-only -Xclang -verify %s
//
// An error inside a header is shown by clangd at the #include line, with
// the place in the header as a note (LSP diagnostics belong to one file):
// RUN: rm -rf %t && mkdir %t && %slmc-cdb %t %s %slmcxx -DHEADER_ERROR
// RUN: not %slmc-clangd --check=%s --compile-commands-dir=%t | FileCheck %s

#include "Inputs/header-helpers.h"
using namespace concurrency;

void kernels(array_view<int, 1> av) {
  parallel_for_each(av.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) {
    if (t.local[0] < 3) // expected-note {{this condition depends on the thread's index}}
      sync_all(t); // expected-warning {{call to 'sync_all', which waits on the tile barrier, is under thread-dependent control flow}}
    av[t.global] = 0;
  });
#ifdef HEADER_ERROR
  parallel_for_each(av.extent, [=](index<1> i) restrict(amp) {
    av[i] = uses_tile_static();
  });
#endif
}

// CHECK: header-helpers.cpp:19:7: warning: Call to 'sync_all', which waits on the tile barrier, is under thread-dependent control flow
// CHECK-NEXT: header-helpers.cpp:18:9: note: This condition depends on the thread's index
// CHECK-NEXT: header-helpers.cpp:13:10: error: In included file: 'tile_static' variable 'shared' is used in a kernel launched by a non-tiled 'parallel_for_each'
// CHECK-NEXT: header-helpers.h:9:19: note: Error occurred here
// CHECK-NEXT: header-helpers.cpp:24:13: note: Called from 'operator()' here
// CHECK-NEXT: header-helpers.cpp:23:3: note: Kernel launched here over an extent without tiles
