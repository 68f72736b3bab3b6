// Helpers of header-helpers.cpp: amp functions defined in a header.
#include <amp.h>

inline void sync_all(const concurrency::tiled_index<64> &t) restrict(amp) {
  t.barrier.wait();
}

inline int uses_tile_static() restrict(amp) {
  tile_static int shared;
  return shared;
}
