// Each thread scales ELEMS_PER_THREAD integers; the group first sums the
// factors of its threads in SLM, so every element is multiplied by the
// group's total (threads 0..15 contribute 1: factor 16 on every target).
#include <cm/cm.h>
#include "scale_params.h"
#include "scale_helpers.h"

#if !defined(CM_GENX) || !defined(__CM)
#error "built without a CM target"
#endif

extern "C" _GENX_MAIN_ void scale(SurfaceIndex in, SurfaceIndex out) {
  // Each thread writes 8 ones (SLM accesses move 8, 16 or 32 elements).
  cm_slm_init(GROUP_THREADS * 8 * sizeof(uint));
  uint slm = cm_slm_alloc(GROUP_THREADS * 8 * sizeof(uint));
  vector<uint, 8> ones = 1, mine;
  for (int i = 0; i < 8; ++i)
    mine(i) = cm_local_id(0) * 8 + i;
  cm_slm_write(slm, mine, ones);
  cm_barrier();
  vector<uint, GROUP_THREADS> all, firsts;
  for (int i = 0; i < GROUP_THREADS; ++i)
    firsts(i) = i * 8;
  cm_slm_read(slm, firsts, all);
  const uint factor = cm_sum<uint>(all);

  const uint offset = cm_linear_global_id() * ELEMS_PER_THREAD * sizeof(int);
  vector<int, ELEMS_PER_THREAD> v;
  read(in, offset, v);
  scale_by(v, int(factor));
  write(out, offset, v);
}
