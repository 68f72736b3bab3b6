// C++ AMP written through macros, as test harnesses and portability headers
// do: `tile_static` and `restrict(amp)` inside a macro's definition, a
// restriction macro, a kernel passed as a macro argument, one macro expanded
// several times. Lowering edits the text where it is spelled, once for every
// expansion; what a macro assembles from separate pieces, or needs lowered
// differently per expansion, is an error with the macro named, not a
// mangled translation unit.
// RUN: %slmcxx -O2 %s -o %t
// RUN: %t | FileCheck %s
// RUN: %slmcxx -O0 %s -o %t.O0
// RUN: %t.O0 | FileCheck %s
// RUN: %slmcxx --emit=spirv %s -o %t.spv
// RUN: %spirv-val %t.spv
// RUN: not %slmcxx -c -DPIECES %s -o %t.o 2>&1 | FileCheck %s --check-prefix=PIECES
// RUN: not %slmcxx -c -DDIFFERS %s -o %t.o 2>&1 | FileCheck %s --check-prefix=DIFFERS
// CHECK: scaled 0: ok
// CHECK: scaled 1: ok
// CHECK: scaled 2: ok
// CHECK: reversed: ok
// CHECK: summed: ok
// CHECK: restricted: ok
// PIECES: kernels-in-macros.cpp:{{[0-9]+}}:31: error: slmc cannot rewrite this construct: a macro assembles it from separate pieces
// PIECES: note: expanded from macro 'LAMBDA_OPEN'
// DIFFERS: kernels-in-macros.cpp:{{[0-9]+}}:45: error: slmc cannot rewrite this macro text: its expansions need different code

#include <amp.h>
#include <cstdio>
#include <vector>

using namespace concurrency;

#define AMP_RESTRICT restrict(amp)
#define TILE_LOCAL tile_static

static void report(const char *what, int k, bool ok) {
  if (k >= 0)
    std::printf("%s %d: %s\n", what, k, ok ? "ok" : "FAILED");
  else
    std::printf("%s: %s\n", what, ok ? "ok" : "FAILED");
}

// One definition, expanded three times: the kernel and its tile_static
// array are written inside the macro.
#define SCALE_KERNEL(NAME, FACTOR)                                                \
  static bool NAME() {                                                            \
    std::vector<int> data(64);                                                    \
    for (int i = 0; i < 64; ++i) data[i] = i;                                     \
    array_view<int, 1> v(64, data);                                               \
    parallel_for_each(v.extent.tile<16>(), [=](tiled_index<16> t) restrict(amp) { \
      tile_static int s[16];                                                      \
      s[t.local[0]] = v[t.global] * (FACTOR);                                     \
      t.barrier.wait();                                                           \
      v[t.global] = s[15 - t.local[0]];                                           \
    });                                                                           \
    v.synchronize();                                                              \
    for (int i = 0; i < 64; ++i)                                                  \
      if (data[i] != (i / 16 * 16 + 15 - i % 16) * (FACTOR)) return false;        \
    return true;                                                                  \
  }

SCALE_KERNEL(scaled0, 1)
SCALE_KERNEL(scaled1, 2)
SCALE_KERNEL(scaled2, -3)

// Restriction and tile_static through object-like macros.
static bool reversed() {
  std::vector<int> data(32);
  for (int i = 0; i < 32; ++i) data[i] = i;
  array_view<int, 1> v(32, data);
  parallel_for_each(v.extent.tile<32>(), [=](tiled_index<32> t) AMP_RESTRICT {
    TILE_LOCAL int s[32];
    s[t.local[0]] = v[t.global];
    t.barrier.wait();
    v[t.global] = s[31 - t.local[0]];
  });
  v.synchronize();
  for (int i = 0; i < 32; ++i)
    if (data[i] != 31 - i) return false;
  return true;
}

// The whole kernel is a macro argument.
#define LAUNCH(EXTENT, KERNEL) parallel_for_each(EXTENT, KERNEL)
static bool summed() {
  std::vector<int> data(64, 1), sums(4, 0);
  array_view<const int, 1> in(64, data);
  array_view<int, 1> out(4, sums);
  LAUNCH(in.extent.tile<16>(), [=](tiled_index<16> t) restrict(amp) {
    tile_static int s[16];
    s[t.local[0]] = in[t.global];
    t.barrier.wait();
    if (t.local[0] == 0) {
      int total = 0;
      for (int i = 0; i < 16; ++i) total += s[i];
      out[t.tile] = total;
    }
  });
  out.synchronize();
  return sums[0] == 16 && sums[1] == 16 && sums[2] == 16 && sums[3] == 16;
}

// A restriction macro that covers the whole restriction, one per
// invocation, and one that leaves its closing parenthesis to the caller.
#define RESTRICTED(...) restrict(__VA_ARGS__)
#define OPEN_RESTRICT(REST) restrict(REST
static int twice(int x) RESTRICTED(amp) { return 2 * x; }
static int thrice(int x) RESTRICTED(cpu, amp) { return 3 * x; }
static bool restricted() {
  std::vector<int> data(16, 1);
  array_view<int, 1> v(16, data);
  parallel_for_each(v.extent, [=](index<1> i) OPEN_RESTRICT(amp)) { v[i] = twice(thrice(v[i])); });
  v.synchronize();
  return data[0] == 6 && data[15] == 6 && thrice(1) == 3;
}

#ifdef PIECES
// `restrict(` from the middle of the definition, `amp)` from the caller.
#define LAMBDA_OPEN(R) [=](index<1> i) restrict(R
void pieces(array_view<int, 1> v) {
  parallel_for_each(v.extent, LAMBDA_OPEN(amp)) { v[i] = 1; });
}
#endif

#ifdef DIFFERS
// One spelling of restrict(...), inside the definition, that must become two
// different things.
#define FUNCTION(NAME, ...) int NAME(int x) restrict(__VA_ARGS__) { return x; }
FUNCTION(device_only, amp)
FUNCTION(both, cpu, amp)
#endif

int main() {
  report("scaled", 0, scaled0());
  report("scaled", 1, scaled1());
  report("scaled", 2, scaled2());
  report("reversed", -1, reversed());
  report("summed", -1, summed());
  report("restricted", -1, restricted());
  return 0;
}
