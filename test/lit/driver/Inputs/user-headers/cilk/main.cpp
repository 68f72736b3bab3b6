#include "tiles.h"

#include <cstdio>
#include <gfx/gfx_rt.h>
#include <vector>

int main() {
  const int n = 64 * 16;
  std::vector<float> a(n), b(n);
  for (int i = 0; i < n; ++i)
    a[i] = b[i] = float(i);
  _GFX_share(a.data(), n * sizeof(float));
  _GFX_share(b.data(), n * sizeof(float));
  GfxTaskId t1 = _GFX_offload(reverse_tiles, a.data(), n);
  GfxTaskId t2 = _GFX_enqueue("reverse_tiles", b.data(), n); // by name
  int status = t1 && t2 ? _GFX_wait(t2) : -1;
  _GFX_unshare(a.data());
  _GFX_unshare(b.data());
  int bad = status != GFX_SUCCESS;
  for (int i = 0; i < n; ++i) {
    float want = 2.0f * float(i / TILE * TILE + TILE - 1 - i % TILE);
    bad += a[i] != want;
    bad += b[i] != want;
  }
  std::printf("cilk user headers: %s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  return bad != 0;
}
