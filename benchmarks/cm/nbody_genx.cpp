// Benchmark kernel: the C for Metal N-body step of examples/cm/nbody_genx.cpp
// (the structure of Intel's CM tutorial 6, "Shared Local Memory and Thread
// Group"), unchanged, so that the benchmark does not move when the example
// does. The host program is nbody_bench.cpp.
//
// Each thread owns BODIES_CHUNK bodies and accumulates the force on them in
// vectors. The thread group walks over all bodies in blocks of
// BODIES_PER_SLM: the whole group copies a block into shared local memory
// with cm_slm_load, then every thread reads the block from SLM, 16 bodies at
// a time, and adds their pull on its own bodies.
//
// Positions are float4 (x, y, z, mass), velocities float4 (vx, vy, vz, 0).
// The last SLM block may reach past the end of the bodies: those reads give
// zeros, that is bodies without mass, which pull on nothing.
//
// Build: slmc++ --emit=program nbody_genx.cpp -o nbody_genx.isa
#include <cm/cm.h>

#define BODIES_CHUNK 16        // bodies per thread
#define BODIES_PER_SLM 1024    // bodies in one SLM block
#define BODY_BYTES 16          // one float4
#define SLM_SIZE (BODIES_PER_SLM * BODY_BYTES)
#define SLM_BATCH 16           // bodies read from SLM at a time

// Adds the pull of the bodies of one SLM block to the force on this
// thread's bodies (positions px, py, pz).
_GENX_ void accumulate_block(uint bodies_in_slm, vector_ref<float, BODIES_CHUNK> px,
                             vector_ref<float, BODIES_CHUNK> py,
                             vector_ref<float, BODIES_CHUNK> pz,
                             vector_ref<float, BODIES_CHUNK> fx,
                             vector_ref<float, BODIES_CHUNK> fy,
                             vector_ref<float, BODIES_CHUNK> fz,
                             float softening_squared) {
  // Element offsets (in floats) of SLM_BATCH consecutive bodies.
  vector<uint, SLM_BATCH> body;
  for (int i = 0; i < SLM_BATCH; ++i)
    body(i) = i * 4;
  for (int first = 0; first < BODIES_PER_SLM; first += SLM_BATCH) {
    // x of the batch, then y, then z, then mass (channel-wise).
    vector<float, 4 * SLM_BATCH> batch;
    cm_slm_read4(bodies_in_slm, body + first * 4, batch, SLM_ABGR_ENABLE);
    for (int j = 0; j < SLM_BATCH; ++j) {
      vector<float, BODIES_CHUNK> dx = batch(j) - px;
      vector<float, BODIES_CHUNK> dy = batch(SLM_BATCH + j) - py;
      vector<float, BODIES_CHUNK> dz = batch(2 * SLM_BATCH + j) - pz;
      vector<float, BODIES_CHUNK> dist2 = dx * dx + dy * dy + dz * dz + softening_squared;
      vector<float, BODIES_CHUNK> inv = cm_rsqrt(dist2);
      vector<float, BODIES_CHUNK> s = batch(3 * SLM_BATCH + j) * inv * inv * inv;
      fx += dx * s;
      fy += dy * s;
      fz += dz * s;
    }
  }
}

extern "C" _GENX_MAIN_ void nbody(SurfaceIndex INPOS, SurfaceIndex INVEL,
                                  SurfaceIndex OUTPOS, SurfaceIndex OUTVEL,
                                  float deltaTime, float damping,
                                  float softeningSquared, int numBodies) {
  cm_slm_init(SLM_SIZE);
  uint bodiesInSLM = cm_slm_alloc(SLM_SIZE);

  const uint first = cm_linear_global_id() * BODIES_CHUNK;
  const uint offset = first * BODY_BYTES; // byte offset of this thread's bodies

  // This thread's bodies: BODIES_CHUNK float4 rows.
  matrix<float, BODIES_CHUNK, 4> pos;
  read(INPOS, offset, pos.select<8, 1, 4, 1>(0, 0)); // 128-byte blocks
  read(INPOS, offset + 128, pos.select<8, 1, 4, 1>(8, 0));
  vector<float, BODIES_CHUNK> px = pos.column(0), py = pos.column(1),
                              pz = pos.column(2);
  vector<float, BODIES_CHUNK> fx = 0.0f, fy = 0.0f, fz = 0.0f;

  // 1. For each block of bodies: 2. the group loads it into SLM,
  // 3. each thread adds its pull on the thread's bodies.
  for (int block = 0; block * BODIES_PER_SLM < numBodies; ++block) {
    cm_slm_load(bodiesInSLM, INPOS, block * SLM_SIZE, SLM_SIZE);
    accumulate_block(bodiesInSLM, px, py, pz, fx, fy, fz, softeningSquared);
  }

  // 4. New velocities and positions of the thread's bodies.
  matrix<float, BODIES_CHUNK, 4> vel;
  read(INVEL, offset, vel.select<8, 1, 4, 1>(0, 0));
  read(INVEL, offset + 128, vel.select<8, 1, 4, 1>(8, 0));
  vel.column(0) = (vel.column(0) + fx * deltaTime) * damping;
  vel.column(1) = (vel.column(1) + fy * deltaTime) * damping;
  vel.column(2) = (vel.column(2) + fz * deltaTime) * damping;
  pos.column(0) = px + vel.column(0) * deltaTime;
  pos.column(1) = py + vel.column(1) * deltaTime;
  pos.column(2) = pz + vel.column(2) * deltaTime;

  // 5. Write them (256 bytes each: one block write).
  write(OUTVEL, offset, vel);
  write(OUTPOS, offset, pos);
}
