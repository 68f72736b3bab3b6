// An asynchronous pipeline with the Cilk Plus offload API (<gfx/gfx_rt.h>):
// buffers shared with _GFX_share, three gfx_kernel stages queued with
// _GFX_offload (one in-order queue: each stage sees the previous one's
// results), one more started by name with _GFX_enqueue, a wait on the last
// id (which also retires the earlier ones), and the host versions of the
// same kernels as the reference.
//
//   slmc++ -O2 async.cpp -o async && ./async [n]
#include <gfx/gfx_intrin.h>
#include <gfx/gfx_rt.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

// y = a*x + y, one work-item per element.
__declspec(target(gfx_kernel)) void saxpy(float a, const float *x, float *y, int n) {
  _Cilk_for (int i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
}

// Each group of 256 elements is reversed through __thread_group_local memory.
__declspec(target(gfx_kernel)) void reverse_blocks(float *y, int blocks) {
  _Cilk_for _Thread_group (int b = 0; b < blocks; b++) {
    __thread_group_local float tile[256];
    _Cilk_for (int i = 0; i < 256; i++)
      tile[i] = y[b * 256 + i];
    _gfx_gpgpu_thread_barrier();
    _Cilk_for (int i = 0; i < 256; i++)
      y[b * 256 + i] = tile[255 - i];
  }
}

// y = |y| / 2, through a target(gfx) function.
__declspec(target(gfx)) float halve_magnitude(float v) { return (v < 0 ? -v : v) * 0.5f; }
__declspec(target(gfx_kernel)) void roots(float *y, int n) {
  _Cilk_for (int i = 0; i < n; i++)
    y[i] = halve_magnitude(y[i]);
}

int main(int argc, char **argv) {
  int blocks = argc > 1 ? atoi(argv[1]) : 512;
  if (blocks <= 0) {
    fprintf(stderr, "usage: %s [blocks > 0]\n", argv[0]);
    return 2;
  }
  const int n = blocks * 256;
  std::vector<float> x(n), y(n), ref_y(n);
  for (int i = 0; i < n; i++) {
    x[i] = (float)(i % 100) - 50.0f;
    y[i] = ref_y[i] = (float)(i % 7);
  }

  if (_GFX_share(x.data(), n * sizeof(float)) != GFX_SUCCESS ||
      _GFX_share(y.data(), n * sizeof(float)) != GFX_SUCCESS) {
    fprintf(stderr, "async: _GFX_share failed (%d)\n", _GFX_get_last_error());
    return 1;
  }
  GfxTaskId t1 = _GFX_offload(saxpy, 2.0f, (const float *)x.data(), y.data(), n);
  GfxTaskId t2 = _GFX_offload(reverse_blocks, y.data(), blocks);
  GfxTaskId t3 = _GFX_offload(saxpy, -1.0f, (const float *)x.data(), y.data(), n);
  GfxTaskId t4 = _GFX_enqueue("roots", y.data(), n);
  if (!t1 || !t2 || !t3 || !t4) {
    fprintf(stderr, "async: enqueue failed (%d)\n", _GFX_get_last_error());
    return 1;
  }
  int status = _GFX_wait(t4);
  bool retired = _GFX_wait(t1) == GFX_TASKID_NOT_FOUND; // retired by the wait on t4
  _GFX_unshare(x.data());
  _GFX_unshare(y.data());

  // The host versions of the same kernels.
  saxpy(2.0f, x.data(), ref_y.data(), n);
  reverse_blocks(ref_y.data(), blocks);
  saxpy(-1.0f, x.data(), ref_y.data(), n);
  roots(ref_y.data(), n);

  int bad = 0;
  for (int i = 0; i < n; i++)
    bad += std::fabs(y[i] - ref_y[i]) > 1e-5f * (1 + std::fabs(ref_y[i]));
  printf("async %d elements, ids %llu..%llu: wait %s, earlier ids retired: %s, %s (%d wrong)\n",
         n, (unsigned long long)t1, (unsigned long long)t4,
         status == GFX_SUCCESS ? "ok" : "FAILED", retired ? "yes" : "no",
         bad ? "FAILED" : "PASSED", bad);
  return bad || status != GFX_SUCCESS || !retired ? 1 : 0;
}
