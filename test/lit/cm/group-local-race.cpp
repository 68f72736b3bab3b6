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

// Scattered accesses: cm_slm_read/write address elements of the data's
// size, cm_slm_atomic 4-byte elements; the addresses come from vectors made
// from a constant table, a scalar or a fill loop, and arithmetic on them.
const uint sequence[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};

// Thread i writes elements 8i..8i+7 and reads those of thread i + 1.
extern "C" _GENX_MAIN_ void scattered(SurfaceIndex out) {
  cm_slm_init(4096);
  uint slm = cm_slm_alloc(4096);
  const uint me = cm_linear_local_id();
  vector<uint, 8> lane(sequence);
  vector<uint, 8> mine = me, theirs;
  cm_slm_write(slm, lane + me * 8, mine); // expected-note {{work-item (1) writes byte 32 of slm here}}
  // CHECK: fix-it:"{{.*}}group-local-race.cpp":{[[@LINE+1]]:3-[[@LINE+1]]:3}:"cm_barrier();\n  "
  cm_slm_read(slm, lane + (me + 1) * 8, theirs); // expected-warning {{read of group-local byte 32 of slm by work-item (0) races with a write by work-item (1); no barrier separates them}} expected-note {{a barrier before this statement would order the accesses}}
  write(out, me * 32, theirs);
}

// A fill loop: thread 0 writes the even elements, thread 1 the odd ones,
// and each then reads the other's.
extern "C" _GENX_MAIN_ void filled(SurfaceIndex out) {
  cm_slm_init(4096);
  uint slm = cm_slm_alloc(4096);
  const uint me = cm_linear_local_id();
  vector<ushort, 16> even;
  for (int i = 0; i < 16; ++i)
    even(i) = i * 2;
  vector<float, 16> v = 1.0f;
  cm_slm_write(slm, even + me, v); // expected-note {{work-item (1) writes byte 4 of slm here}}
  cm_slm_read(slm, even + me + 1, v); // expected-warning {{read of group-local byte 4 of slm by work-item (0) races with a write by work-item (1)}} expected-note {{a barrier before}}
  write(out, me * 64, v);
}

// Every thread writes the same 8 elements.
extern "C" _GENX_MAIN_ void scattered_write_write(SurfaceIndex out) {
  cm_slm_init(1024);
  uint slm = cm_slm_alloc(1024);
  vector<ushort, 8> lane(sequence);
  vector<int, 8> v = 7;
  cm_slm_write(slm, lane, v); // expected-warning {{write of group-local byte 0 of slm by work-item (0) races with a write by work-item (1)}}
  write(out, 0, v);
}

// Atomics do not race with atomics, but do with plain accesses.
extern "C" _GENX_MAIN_ void counters(SurfaceIndex out) {
  cm_slm_init(1024);
  uint slm = cm_slm_alloc(1024);
  const uint me = cm_linear_local_id();
  vector<ushort, 8> bin = 0;
  vector<uint, 8> ones = 1, old;
  if (me == 0)
    cm_slm_block_write(slm, 0, ones); // expected-note 2 {{work-item (0) writes byte 0 of slm here}}
  cm_slm_atomic(slm, ATOMIC_ADD, bin, old, ones); // expected-warning {{atomic update of group-local byte 0 of slm by work-item (1) races with a write by work-item (0)}} expected-note {{a barrier before}}
  cm_slm_atomic(slm, ATOMIC_INC, bin, 0); // expected-warning {{atomic update of group-local byte 0 of slm by work-item (1) races with a write by work-item (0)}} expected-note {{a barrier before}}
  cm_barrier();
  cm_slm_atomic(slm, ATOMIC_INC, bin + 4, 0); // expected-note {{work-item (1) atomically updates byte 16 of slm here}}
  vector<uint, 4> got;
  cm_slm_block_read(slm, 16, got); // expected-warning {{read of group-local byte 16 of slm by work-item (0) races with an atomic update by work-item (1)}} expected-note {{a barrier before}}
  write(out, me * 16, got);
}

// Four channels: thread i writes the red channel of 4 elements from
// element 16i, then reads bytes thread i + 1 wrote.
extern "C" _GENX_MAIN_ void channels(SurfaceIndex out) {
  cm_slm_init(1024);
  uint slm = cm_slm_alloc(1024);
  const uint me = cm_linear_local_id();
  vector<uint, 4> quad(sequence);
  vector<uint, 4> red = me;
  cm_slm_write4(slm, quad * 4 + me * 16, red, SLM_R_ENABLE); // expected-note {{work-item (1) writes byte 64 of slm here}}
  cm_slm_read_scaled(slm, quad * 16 + (me + 1) * 64, red); // expected-warning {{read of group-local byte 64 of slm by work-item (0) races with a write by work-item (1)}} expected-note {{a barrier before}}
  write(out, me * 16, red);
}

// Correct scattered code, and code this check leaves alone.
extern "C" _GENX_MAIN_ void scattered_fine(SurfaceIndex out, uint n) {
  cm_slm_init(4096);
  uint slm = cm_slm_alloc(4096);
  const uint me = cm_linear_local_id();
  vector<uint, 8> lane(sequence);
  vector<uint, 8> v = me;
  cm_slm_write(slm, lane + me * 8, v);
  cm_slm_read(slm, lane + me * 8, v);        // its own elements
  cm_barrier();
  cm_slm_read(slm, lane + (me + 1) * 8, v);  // after the barrier
  cm_barrier();
  vector<uint, 8> twice = lane;
  twice(0) = 3;                               // written: not analysed
  cm_slm_write(slm, twice, v);
  cm_slm_write(slm, lane + n, v);             // not a thread id
  vector<ushort, 8> same = 0;                 // one thread, one element, 8 lanes
  cm_slm_write(slm, same + me * 64, v);
  cm_barrier();
  cm_slm_atomic(slm, ATOMIC_ADD, same, 0, v); // atomics together
  cm_slm_atomic(slm, ATOMIC_ADD, same, 0, v);
  write(out, me * 32, v);
}
