// A test harness forced into every source with -include, as MSVC projects
// do with /FI: C++ AMP helpers with restriction specifiers.
#pragma once
#include <amp.h>

inline int harness_square(int x) restrict(amp, cpu) { return x * x; }

inline void harness_fill(concurrency::array_view<int, 1> v) {
  concurrency::parallel_for_each(v.extent, [=](concurrency::index<1> i) restrict(amp) {
    v[i] = harness_square(i[0]);
  });
}
