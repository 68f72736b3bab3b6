// The timing rule of benchmarks/cpu: one warm-up run, then the best wall
// time of `reps` runs, in milliseconds.
#ifndef SLMC_BENCHMARKS_CPU_BEST_OF_H
#define SLMC_BENCHMARKS_CPU_BEST_OF_H

#include <algorithm>
#include <chrono>

template <class F> double best_of_ms(int reps, F f) {
  f();
  double best = 1e300;
  for (int r = 0; r < reps; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    f();
    best = std::min(best, std::chrono::duration<double, std::milli>(
                              std::chrono::steady_clock::now() - t0).count());
  }
  return best;
}

#endif
