// SLMC_CHECK on the CPU fallback, Cilk Plus graphics offload: a thread
// group's nests over __thread_group_local data without the barrier between
// them race; with it, nothing is reported. A failed offload runs the nest
// on the host, as for any offload error, so the program still ends well.
// RUN: %slmcxx -fslmc-check -O2 %s -o %t
// RUN: env SLMC_CHECK=races %t 1 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: env SLMC_CHECK=races %t 0 2>&1 | FileCheck %s --check-prefix=CLEAN

#include <gfx/gfx_intrin.h>
#include <cstdio>
#include <cstdlib>

int main(int argc, char **argv) {
  const int seeded = argc > 1 ? std::atoi(argv[1]) : 0;
  const int blocks = 4;
  static float in[blocks * 64], out[blocks * 64];
  for (int i = 0; i < blocks * 64; i++)
    in[i] = (float)(i % 13);
  const float *pin_in = in;
  float *pin_out = out;
#pragma offload target(gfx) in(pin_in : length(blocks * 64)) out(pin_out : length(blocks * 64))
  _Cilk_for _Thread_group (int b = 0; b < blocks; b++) {
    __thread_group_local float part[64];
    _Cilk_for (int t = 0; t < 64; t++)
      part[t] = pin_in[b * 64 + t];
    if (!seeded)
      _gfx_gpgpu_thread_barrier();
    _Cilk_for (int t = 0; t < 64; t++)
      pin_out[b * 64 + t] = part[(t + 1) % 64];
  }
  // MISSING: slmc: data race on group-local memory in work-group ({{[0-9]+}},0,0) of kernel '{{.*}}': write of 4 bytes at byte 4 of 'part' (256 bytes) by work-item (1,0,0) at {{.*}}cilk-races.cpp:[[@LINE-6]] conflicts with a read by work-item (0,0,0) at {{.*}}cilk-races.cpp:[[@LINE-2]]; no barrier separates them
  // MISSING: slmc: offload of the loop nest at cilk-races.cpp:[[@LINE-10]] failed (slmc: data race on group-local memory {{.*}}); running it on the host
  // MISSING: PASSED
  bool ok = true;
  for (int i = 0; i < blocks * 64; i++)
    ok &= out[i] == in[i / 64 * 64 + (i % 64 + 1) % 64];
  std::printf("%s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
// CLEAN-NOT: slmc:
// CLEAN: PASSED
