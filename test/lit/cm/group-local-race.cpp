// Missing cm_barrier() calls over SLM: block reads and writes at byte
// offsets computed from thread ids. The host sizes thread groups at run
// time, so only races that every group of two threads or more has are
// reported; everything else is left alone.
// RUN: %slmcxx -fsyntax-only -Xclang -verify %s
// RUN: %clangxx -std=c++17 %plugin -fsyntax-only -Xclang -verify %s
// RUN: %slmcxx -fsyntax-only -Wno-slmc-group-local-race -Xclang -verify=off %s
// RUN: %slmcxx -fsyntax-only -fdiagnostics-parseable-fixits %s 2>&1 | FileCheck %s
// off-no-diagnostics

#include <cm/cm.h>

// Thread i writes its 64 bytes and reads those of thread i + 1.
extern "C" _GENX_MAIN_ void missing(SurfaceIndex out) {
  cm_slm_init(4096);
  uint slm = cm_slm_alloc(4096);
  const uint me = cm_linear_local_id();
  vector<uint, 16> mine = me, theirs;
  cm_slm_block_write(slm, me * 64, mine); // expected-note {{work-item (1) writes byte 64 of slm here}}
  // CHECK: fix-it:"{{.*}}group-local-race.cpp":{[[@LINE+1]]:3-[[@LINE+1]]:3}:"cm_barrier();\n  "
  cm_slm_block_read(slm, (me + 1) * 64, theirs); // expected-warning {{read of group-local byte 64 of slm by work-item (0) races with a write by work-item (1); no barrier separates them}} expected-note {{a barrier before this statement would order the accesses}}
  write(out, me * 64, theirs);
}

// Every thread writes the same block; thread x writes row x, which a
// read by thread x + 1 in another dimension does not make a race in every
// group (a group of 1 x 2 threads has no second x).
extern "C" _GENX_MAIN_ void write_write(SurfaceIndex out) {
  cm_slm_init(4096);
  uint slm = cm_slm_alloc(4096);
  vector<float, 4> v = 1.0f;
  cm_slm_block_write(slm, 0, v); // expected-warning {{write of group-local byte 0 of slm by work-item (0) races with a write by work-item (1)}}
  cm_barrier();
  cm_slm_block_write(slm, cm_local_id(0) * 16 + 256, v);
  cm_slm_block_read(slm, (cm_local_id(0) + 1) * 16 + 256, v);
  write(out, 0, v);
}

extern "C" _GENX_MAIN_ void fine(SurfaceIndex out, uint n) {
  cm_slm_init(4096);
  uint slm = cm_slm_alloc(2048);
  uint other = cm_slm_alloc(2048);
  const uint me = cm_linear_local_id();
  vector<uint, 16> v = me;
  cm_slm_block_write(slm, me * 64, v);
  cm_slm_block_read(slm, me * 64, v);         // its own block
  cm_slm_block_read(other, (me + 1) * 64, v); // another allocation
  cm_barrier();
  cm_slm_block_read(slm, (me + 1) * 64, v);   // after the barrier
  cm_barrier();
  if (me == 0)
    cm_slm_block_write(slm, 0, v);            // one writer
  cm_slm_block_write(slm, n * 64, v);         // not a thread id: not analysed
  cm_slm_block_write(slm, me * cm_linear_local_size() * 64, v);
  write(out, me * 64, v);
}
