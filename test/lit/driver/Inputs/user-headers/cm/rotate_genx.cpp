// A C for Metal kernel whose helpers live in a user header.
#include "rotate_helpers.h"

#define MAX_THREADS 64

extern "C" _GENX_MAIN_ void rotate(SurfaceIndex data) {
  cm_slm_init(MAX_THREADS * LANES * sizeof(uint));
  uint slm = cm_slm_alloc(MAX_THREADS * LANES * sizeof(uint));
  const uint offset = cm_linear_global_id() * LANES * sizeof(uint);
  vector<uint, LANES> mine;
  read(data, offset, mine);
  vector<uint, LANES> theirs = from_neighbour(slm, mine);
  cm_barrier(); // every block is read before any is overwritten
  write(data, offset, theirs);
}
