// A barrier that the optimiser might copy into both sides of a branch on a
// work-item's private value. Every work-item of a tile decides, between two
// barriers, whether it still has work; after the second barrier the ones
// with work do some, and the tile leaves its loop when none had any (a flag
// in tile_static memory). Before the inliner, the kernel's barrier is a call
// of tile_barrier::wait() or of a helper of the program's own, which C++
// does not mark convergent: SimplifyCFG threaded the branch through the
// block with the barrier and gave each side its own copy of it, and the
// work-item loops reported barrier divergence for a valid program. slmc's
// host pipeline marks every caller of a barrier convergent first
// (lib/CpuFallback/WorkItemLoops.cpp, ConvergentCallersPass).
// RUN: %slmcxx -O2 %s -o %t
// RUN: env SLMC_DEVICE=cpu SLMC_VERBOSE=1 %t 2>&1 | FileCheck %s --check-prefixes=CHECK,LOOPS
// RUN: env SLMC_DEVICE=cpu SLMC_CPU_WORK_ITEM_LOOPS=0 %t 2>&1 | FileCheck %s
// LOOPS-NOT: runs as fibers
// LOOPS: runs as work-item loops
// CHECK: tile_barrier: 8 8 8 8 8 8 8 8 | 4 4 4 4
// CHECK: helper: 8 8 8 8 8 8 8 8 | 4 4 4 4
// CHECK: PASSED
#include <amp.h>
#include <cstdio>

using namespace concurrency;

// A wait of the program's own, as samples write them.
static void wait_for_tile(const tiled_index<8> &t) restrict(amp) { t.barrier.wait(); }

// Work-item i of a tile has (i % Work) + 1 units of work; each round every
// item with work left does one unit, so the tile runs Work rounds.
template <bool Helper> static bool run(const char *name) {
  const int N = 12, Work = 8;
  int rounds[N] = {}, units[N] = {};
  array_view<int, 1> r(N, rounds), u(N, units);
  parallel_for_each(extent<1>(16).tile<8>(), [=](tiled_index<8> t) restrict(amp) {
    tile_static int left[8];
    tile_static int busy;
    const int me = t.local[0];
    const bool real = t.global[0] < N;
    left[me] = real ? me % Work + 1 : 0;
    int done_rounds = 0, done_units = 0;
    for (;;) {
      if (me == 0)
        busy = 0;
      if (Helper) wait_for_tile(t); else t.barrier.wait();
      const bool mine = left[me] > 0;
      if (mine)
        busy = 1;
      if (Helper) wait_for_tile(t); else t.barrier.wait();
      if (mine) {
        --left[me];
        ++done_units;
      }
      if (!busy)
        break;
      ++done_rounds;
      if (Helper) wait_for_tile(t); else t.barrier.wait();
    }
    if (real) {
      r[t.global] = done_rounds;
      u[t.global] = done_units;
    }
  });
  r.synchronize();
  u.synchronize();
  bool ok = true;
  std::printf("%s:", name);
  for (int i = 0; i < 8; ++i) {
    std::printf(" %d", rounds[i]);
    ok = ok && rounds[i] == Work && units[i] == i % Work + 1;
  }
  std::printf(" |");
  for (int i = 8; i < N; ++i) {
    std::printf(" %d", rounds[i]);
    ok = ok && rounds[i] == 4 && units[i] == i % 8 % Work + 1;
  }
  std::printf("\n");
  return ok;
}

int main() {
  bool ok = run<false>("tile_barrier");
  ok = run<true>("helper") && ok;
  std::printf("%s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
