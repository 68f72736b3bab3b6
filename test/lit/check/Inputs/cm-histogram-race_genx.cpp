// examples/cm/histogram_genx.cpp with a seeded bug: no barrier between
// clearing the group's bins and adding to them atomically.
#include <cm/cm.h>

#define BINS 256
#define BYTES_PER_THREAD 1024
#define BLOCK 128 // bytes per block read
#define LANES 16  // bins updated per SLM atomic

extern "C" _GENX_MAIN_ void histogram(SurfaceIndex input, SurfaceIndex output,
                                      int size) {
  cm_slm_init(BINS * sizeof(uint));
  uint hist = cm_slm_alloc(BINS * sizeof(uint));

  const uint threads = cm_linear_local_size();
  const uint me = cm_linear_local_id();
  vector<uint, LANES> lane;
  for (int i = 0; i < LANES; ++i)
    lane(i) = i;

  // Clear the group's histogram, the threads sharing the bins.
  vector<uint, LANES> zeros = 0;
  for (uint bin = me * LANES; bin < BINS; bin += threads * LANES)
    cm_slm_write(hist, lane + bin, zeros);
  // (the barrier that belongs here is missing)

  // Count this thread's bytes.
  const uint first = cm_linear_global_id() * BYTES_PER_THREAD;
  for (uint offset = 0; offset < BYTES_PER_THREAD; offset += BLOCK) {
    vector<uchar, BLOCK> bytes;
    read(input, first + offset, bytes);
    for (int i = 0; i < BLOCK; i += LANES) {
      vector<ushort, LANES> bins = bytes.select<LANES, 1>(i);
      // 1 for the bytes inside the input, 0 past its end.
      vector<uint, LANES> valid = (lane + (first + offset + i)) < uint(size);
      cm_slm_atomic(hist, ATOMIC_ADD, bins, 0, valid);
    }
  }
  cm_barrier();

  // Add the group's counts to the global histogram.
  for (uint bin = me * LANES; bin < BINS; bin += threads * LANES) {
    vector<uint, LANES> counts;
    cm_slm_read(hist, lane + bin, counts);
    write_atomic<ATOMIC_ADD>(output, lane + bin, counts);
  }
}
