// A kernel's static group-local memory must fit in a work-group: 64 KiB by
// default, --group-memory-limit (slmc++) or a plugin argument to change it.
// The error points at the tile_static variable that takes the kernel over
// the limit, in the order the kernel declares them (a helper's where the
// kernel calls it); notes show the kernel, the other variables and, when
// later variables add more, the total.
// RUN: %slmcxx -fsyntax-only -Xclang -verify %s
// RUN: %clangxx -std=c++17 %plugin -fsyntax-only -Xclang -verify %s
// RUN: %slmcxx -fsyntax-only --group-memory-limit=131072 -Xclang -verify=big %s
// RUN: %clangxx -std=c++17 %plugin -fplugin-arg-slmc-group-memory-limit=131072 -fsyntax-only -Xclang -verify=big %s
// RUN: %slmcxx -fsyntax-only --group-memory-limit=262400 -Xclang -verify=huge %s
// huge-no-diagnostics

#include <amp.h>
using namespace concurrency;

// Two variables: the second crosses the limit.
void two(array_view<float, 1> av) {
  parallel_for_each(av.extent.tile<256>(), [=](tiled_index<256> t) restrict(amp) { // expected-note {{in the kernel launched here}}
    tile_static float a[256][40]; // expected-note {{'a' takes 40960 bytes}}
    tile_static float b[256][40]; // expected-error {{'b' brings the group-local memory of this kernel to 81920 bytes, more than the 65536 bytes a work-group can have}}
    a[t.local[0]][0] = av[t.global];
    t.barrier.wait();
    b[t.local[0]][0] = a[255 - t.local[0]][0];
    av[t.global] = b[t.local[0]][0];
  });
}

// One variable over the limit by itself.
void alone(array_view<float, 1> av) {
  parallel_for_each(av.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expected-note {{in the kernel launched here}} big-note {{in the kernel launched here}}
    tile_static float huge[64][1025]; // expected-error {{'huge' takes 262400 bytes of group-local memory, more than the 65536 bytes a work-group can have}} big-error {{'huge' takes 262400 bytes of group-local memory, more than the 131072 bytes a work-group can have}}
    huge[t.local[0]][0] = av[t.global];
    t.barrier.wait();
    av[t.global] = huge[63 - t.local[0]][0];
  });
}

// Several contributors: the error is at the first one over, later ones are
// notes, and the total differs from where the limit was crossed.
void several(array_view<float, 1> av) {
  parallel_for_each(av.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expected-note {{in the kernel launched here, which uses 163840 bytes of group-local memory in all}} big-note {{in the kernel launched here}}
    tile_static float p[10240]; // expected-note {{'p' takes 40960 bytes}} big-note {{'p' takes 40960 bytes}}
    tile_static float q[10240]; // expected-error {{'q' brings the group-local memory of this kernel to 81920 bytes, more than the 65536 bytes}} big-note {{'q' takes 40960 bytes}}
    tile_static float r[10240]; // expected-note {{'r' takes 40960 bytes}} big-note {{'r' takes 40960 bytes}}
    tile_static float s[10240]; // expected-note {{'s' takes 40960 bytes}} big-error {{'s' brings the group-local memory of this kernel to 163840 bytes, more than the 131072 bytes}}
    p[t.local[0]] = q[t.local[0]] = r[t.local[0]] = s[t.local[0]] = av[t.global];
  });
}

// A variable of a function the kernel calls counts where the kernel calls
// it; the error shows the call.
float helper_stage(tiled_index<64> t, float v) restrict(amp) {
  tile_static float staged[12288]; // expected-error {{'staged' brings the group-local memory of this kernel to 81920 bytes, more than the 65536 bytes}}
  staged[t.local[0]] = v;
  t.barrier.wait();
  return staged[63 - t.local[0]];
}

void through_helper(array_view<float, 1> av) {
  parallel_for_each(av.extent.tile<64>(), [=](tiled_index<64> t) restrict(amp) { // expected-note {{in the kernel launched here, which uses 98304 bytes of group-local memory in all}}
    tile_static float first[8192]; // expected-note {{'first' takes 32768 bytes}}
    float v = helper_stage(t, av[t.global]); // expected-note {{called from 'operator()' here}}
    tile_static float last[4096]; // expected-note {{'last' takes 16384 bytes}}
    last[t.local[0]] = first[t.local[0]] = v;
    av[t.global] = last[t.local[0]];
  });
}
