0// A kernel's static group-local memory must fit in a work-group: 64 KiB by
// default, --group-memory-limit (slmc++) or a plugin argument to change it.
// RUN: %slmcxx -fsyntax-only -Xclang -verify %s
// RUN: %clangxx -std=c++17 %plugin -fsyntax-only -Xclang -verify %s
// RUN: %slmcxx -fsyntax-only --group-memory-limit=131072 -Xclang -verify=big %s
// RUN: %clangxx -std=c++17 %plugin -fplugin-arg-slmc-group-memory-limit=131072 -fsyntax-only -Xclang -verify=big %s
// big-no-diagnostics

#include <amp.h>
using namespace concurrency;

void big(array_view<float, 1> av) {
  parallel_for_each(av.extent.tile<256>(), [=](tiled_index<256> t) restrict(amp) { // expected-error {{this kernel uses 81920 bytes of group-local memory, more than the 65536 bytes a work-group can have}}
    tile_static float a[256][40]; // expected-note {{'a' takes 40960 bytes}}
    tile_static float b[256][40]; // expected-note {{'b' takes 40960 bytes}}
    a[t.local[0]][0] = av[t.global];
    t.barrier.wait();
    b[t.local[0]][0] = a[255 - t.local[0]][0];
    av[t.global] = b[t.local[0]][0];
  });
}
