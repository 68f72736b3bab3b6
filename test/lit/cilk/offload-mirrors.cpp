// What an offloaded nest may use on a GPU, where kernels see device copies
// of host data: ranges shared with _GFX_share (copied in before the task and
// back after it), local arrays a nest writes (copied to the device and back
// around that nest), and nothing else. A pointer into host memory the device
// cannot reach (here: arrays never shared) makes the nest run its host
// version, with one line on stderr, instead of handing the device an
// address it cannot see; data the device already holds then takes the
// host's results. Every case prints the same on every device (the GPU check
// script runs this file); the CPU fallback needs no copies.
// RUN: %slmcxx -O2 %s -o %t
// RUN: %t | FileCheck %s
// RUN: %t 2>&1 | FileCheck %s --check-prefix=CPU
// CPU-NOT: running it on the host
// On a GPU's device copies (the fake CUDA driver: host memory, launches run
// nothing), the cases a device cannot run go to the host and still succeed.
// RUN: %if fake-cuda %{ %fake-cuda %t fallbacks 2>&1 | FileCheck %s --check-prefix=FALLBACK %}
// FALLBACK: slmc: offload of the loop nest at offload-mirrors.cpp:[[#ADD:]] failed (slmc: host address {{0x[0-9a-f]+}} is in no shared or mapped range, so the device cannot reach it (share it with _GFX_share, or name it in an in/out/inout/pin clause of the #pragma offload)); running it on the host
// FALLBACK-NEXT: partly shared: ok (0 wrong, status 0)
// FALLBACK-NEXT: slmc: offload of the loop nest at offload-mirrors.cpp:[[#ADD+8]] failed
// FALLBACK-NEXT: slmc: offload of the loop nest at offload-mirrors.cpp:[[#ADD+10]] failed
// FALLBACK-NEXT: unshared: ok (0 wrong, status 0)
// FALLBACK-NOT: slmc:
// RUN: %slmcxx --emit=offload-cpp %s -o - | FileCheck %s --check-prefix=LOWERED
// LOWERED: [&](::slmc::cilk::pointer_map &slmc_pointers) { return [=, in = slmc_pointers(in), staged = slmc_pointers.array(staged)] SLMC_HD (int i) mutable {
// LOWERED: [&](::slmc::cilk::pointer_map &slmc_pointers) { return [=, out = slmc_pointers(out)] SLMC_HD (int i) mutable {

#include <gfx/gfx_rt.h>
#include <cstdio>
#include <cstring>

#define N 256

__declspec(target(gfx_kernel)) void add_into(int *acc, const int *in, int n) {
  _Cilk_for (int i = 0; i < n; i++)
    acc[i] += in[i];
}

// A local array written by one nest and read by the next: the host's array,
// so the second nest (which copies it in) sees what the first wrote.
__declspec(target(gfx_kernel)) void reverse_twice(const int *in, int *out, int n) {
  int staged[N];
  _Cilk_for (int i = 0; i < n; i++)
    staged[i] = 2 * in[n - 1 - i];
  _Cilk_for (int i = 0; i < n; i++)
    out[i] = staged[i] + 1;
}

int main(int argc, char **argv) {
  // "fallbacks": only the cases a device never runs (the fake CUDA driver's
  // launches run nothing).
  const bool fallbacks_only = argc > 1 && std::strcmp(argv[1], "fallbacks") == 0;
  static int acc[N], in[N], out[N];
  int status, bad;
  std::setvbuf(stdout, nullptr, _IOLBF, 0); // in order with the runtime's stderr

  if (!fallbacks_only) {
    // Both shared: runs on the device.
    for (int i = 0; i < N; i++)
      acc[i] = 10 + i, in[i] = i;
    _GFX_share(acc, sizeof acc);
    _GFX_share(in, sizeof in);
    _GFX_offload(add_into, acc, (const int *)in, N);
    status = _GFX_wait();
    bad = 0;
    for (int i = 0; i < N; i++)
      bad += acc[i] != 10 + 2 * i;
    std::printf("shared: %s (%d wrong, status %d)\n", bad ? "FAILED" : "ok", bad, status);
    _GFX_unshare(in);
    _GFX_unshare(acc);
  }

  // Only `acc` shared: the host version runs, and the device copy of `acc`
  // (already filled when `in` turned out unreachable) must not overwrite
  // the host's result when the task ends.
  for (int i = 0; i < N; i++)
    acc[i] = 10 + i, in[i] = 2 * i;
  _GFX_share(acc, sizeof acc);
  _GFX_offload(add_into, acc, (const int *)in, N);
  status = _GFX_wait();
  bad = 0;
  for (int i = 0; i < N; i++)
    bad += acc[i] != 10 + 3 * i;
  std::printf("partly shared: %s (%d wrong, status %d)\n", bad ? "FAILED" : "ok", bad, status);
  _GFX_unshare(acc);

  // Nothing shared at all.
  for (int i = 0; i < N; i++)
    in[i] = i;
  _GFX_offload(reverse_twice, (const int *)in, out, N);
  status = _GFX_wait();
  bad = 0;
  for (int i = 0; i < N; i++)
    bad += out[i] != 2 * (N - 1 - i) + 1;
  std::printf("unshared: %s (%d wrong, status %d)\n", bad ? "FAILED" : "ok", bad, status);

  if (!fallbacks_only) {
    // Shared again: the local array travels with its nests.
    _GFX_share(in, sizeof in);
    _GFX_share(out, sizeof out);
    for (int i = 0; i < N; i++)
      out[i] = -1;
    _GFX_offload(reverse_twice, (const int *)in, out, N);
    status = _GFX_wait();
    bad = 0;
    for (int i = 0; i < N; i++)
      bad += out[i] != 2 * (N - 1 - i) + 1;
    std::printf("local array: %s (%d wrong, status %d)\n", bad ? "FAILED" : "ok", bad, status);
    _GFX_unshare(out);
    _GFX_unshare(in);
  }
  return 0;
}

// CHECK: shared: ok (0 wrong, status 0)
// CHECK: partly shared: ok (0 wrong, status 0)
// CHECK: unshared: ok (0 wrong, status 0)
// CHECK: local array: ok (0 wrong, status 0)
