// cmc's shared-local-memory rules, through slmc++ and the plugin.
// RUN: %slmcxx -fsyntax-only -Xclang -verify %s
// RUN: %clangxx -std=c++17 %plugin -fsyntax-only -Xclang -verify %s

#include <cm/cm.h>

const unsigned kBlock = 1024;

_GENX_ void helper() {
  cm_slm_init(256); // expected-error {{'cm_slm_init' can only be called in a kernel function (_GENX_MAIN_)}}
}

extern "C" _GENX_MAIN_ void good(SurfaceIndex in, SurfaceIndex out) {
  cm_slm_init(kBlock * 4);
  uint slm = cm_slm_alloc(kBlock);
  cm_slm_load(slm, in, 0, 512);
  vector<ushort, 16> idx(0);
  vector<uint, 16> v;
  cm_slm_read(slm, idx, v);
  cm_slm_write(slm, idx + cm_linear_local_id() * 16, v);
  cm_barrier();
  write(out, 0, v);
  write(out, 64, v.select<4, 1>(0));
}

extern "C" _GENX_MAIN_ void bad(SurfaceIndex in, SurfaceIndex out, uint n) {
  uint early = cm_slm_alloc(64); // expected-error {{'cm_slm_alloc' uses shared local memory before 'cm_slm_init'}} expected-note@-1 {{in kernel 'bad'}}
  cm_slm_init(n);       // expected-error {{the size passed to 'cm_slm_init' must be an integral constant expression}}
  cm_slm_init(0);       // expected-error {{the size passed to 'cm_slm_init' must be positive, not 0}} expected-error {{'cm_slm_init' is called more than once in this kernel}} expected-note@-1 {{shared local memory initialised here}}
  uint slm = cm_slm_alloc(1024);
  cm_slm_load(slm, in, 0, 300); // expected-error {{'cm_slm_load' copies whole 256-byte blocks; 300 bytes is not a multiple of 256}}
  vector<ushort, 4> idx4(0);
  vector<uint, 4> v4;
  cm_slm_read(slm, idx4, v4); // expected-error {{'cm_slm_read' accesses 4 elements; shared local memory reads and writes take 8, 16 or 32}}
  vector<uint, 8> v8;
  read(in, 20, v8);  // expected-error {{OWord block read at constant offset 20 is not 16-byte aligned}}
  write(out, 36, v8); // expected-error {{OWord block write at constant offset 36 is not 16-byte aligned}}
  read(DWALIGNED(in), 20, v8); // dword-aligned surfaces: fine
  write(out, 0u, uint(early + slm));
}

// A constant size over the work-group's shared local memory (64 KiB unless
// configured) is reported at the size.
extern "C" _GENX_MAIN_ void too_big(SurfaceIndex out) {
  cm_slm_init(kBlock * 80); // expected-error {{'cm_slm_init' asks for 81920 bytes of shared local memory, more than the 65536 bytes a work-group can have}}
  uint slm = cm_slm_alloc(kBlock);
  write(out, 0u, slm);
}

extern "C" _GENX_MAIN_ void never_init(SurfaceIndex out) { // expected-note {{in kernel 'never_init'}}
  uint slm = cm_slm_alloc(64); // expected-error {{'cm_slm_alloc' uses shared local memory but the kernel never calls 'cm_slm_init'}}
  write(out, 0u, slm);
}

extern "C" _GENX_MAIN_ void divergent(SurfaceIndex out) {
  cm_slm_init(1024);
  if (cm_local_id(0) < 8) // expected-note {{this condition depends on the work-item}}
    cm_barrier(); // expected-warning {{barrier is under thread-dependent control flow; every thread of the group must reach it}}
  if (cm_group_id(0) == 0) // uniform: fine
    cm_barrier();
  write(out, 0u, cm_local_id(0));
}

// cmc compiles a kernel file whole: what a kernel calls is defined in it.
_GENX_ void fill(vector_ref<uint, 16> v); // expected-note {{'fill' is declared here; slmc compiles each translation unit's device code on its own}}
extern "C" _GENX_MAIN_ void calls_elsewhere(SurfaceIndex out) {
  vector<uint, 16> v(0);
  fill(v); // expected-error {{'fill' is called from kernel code but is not defined in this translation unit}}
  write(out, 0, v);
}
