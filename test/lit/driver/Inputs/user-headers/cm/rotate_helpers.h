// _GENX_ helpers of a C for Metal kernel, in a user header.
#pragma once
#include <cm/cm.h>

#define LANES 16

// The lanes 0, 1, ..., LANES - 1.
_GENX_ inline vector<uint, LANES> lanes() {
  vector<uint, LANES> v;
  for (int i = 0; i < LANES; ++i)
    v(i) = i;
  return v;
}

// Each thread of a group writes its block into SLM, then reads its
// neighbour's (thread + 1 mod threads) block back.
_GENX_ inline vector<uint, LANES> from_neighbour(uint slm, vector<uint, LANES> mine) {
  const uint me = cm_linear_local_id(), threads = cm_linear_local_size();
  cm_slm_write(slm, lanes() + me * LANES, mine);
  cm_barrier();
  vector<uint, LANES> theirs;
  cm_slm_read(slm, lanes() + ((me + 1) % threads) * LANES, theirs);
  return theirs;
}
