// expected-no-diagnostics
#include <cm/cm.h>

// Out row 0: which branch each channel took; row 1: the nested result.
extern "C" _GENX_MAIN_ void branches(SurfaceIndex buf) {
  vector<int, 16> v, out = 0, nested = 0, picked = 0;
  read(buf, 0, v);
  int hits = 0;
  SIMD_IF_BEGIN (v > 0) {
    out = 1;
    hits += 1;                                   // width 1: runs once
    SIMD_IF_BEGIN (v > 10) {
      nested += 100;
    } SIMD_ELSEIF (v > 5) {
      nested.select<16, 1>(0) += 50;
    } SIMD_ELSE {
      nested.merge(7, 0xFFFF);                   // merge, masked too
      SIMD_IF_BEGIN (hits == 1) {                // scalar: all its channels
        picked = 3;
      } SIMD_IF_END;
    } SIMD_IF_END;
  } SIMD_ELSEIF (v == 0) {
    out = 2;
    for (int i = 0; i < 2; ++i)
      out += 10;                                 // after a for head
  } SIMD_ELSE {
    if (hits > 0) out = -1;                      // after an if head
    picked = v.any() ? 9 : 8;                    // any() of the channels on
  } SIMD_IF_END;
  SIMD_IF_BEGIN (v > 1000) {                     // no channel: not run
    hits = 1000;
  } SIMD_IF_END;
  out(15) = hits;
  write(buf, 64, out);
  write(buf, 128, nested);
  write(buf, 192, picked);
}

// Row 0: steps counted down to 0, at most 8 (SIMD_BREAK); row 1: steps
// that were odd (SIMD_CONTINUE skips the even ones).
extern "C" _GENX_MAIN_ void loops(SurfaceIndex buf) {
  vector<int, 16> v, n, steps = 0, odd = 0;
  read(buf, 0, v);
  n = v;
  SIMD_IF_BEGIN (n > 0) {
    SIMD_DO_WHILE_BEGIN {
      n -= 1;
      steps += 1;
      SIMD_IF_BEGIN (steps == 8) {
        SIMD_BREAK;
      } SIMD_IF_END;
      SIMD_IF_BEGIN ((steps & 1) == 0) {
        SIMD_CONTINUE;
      } SIMD_IF_END;
      odd += 1;
    } SIMD_DO_WHILE_END (n > 0);
  } SIMD_IF_END;
  write(buf, 64, steps);
  write(buf, 128, odd);
}

// Scattered reads and writes in a block touch the channels on only.
extern "C" _GENX_MAIN_ void memory(SurfaceIndex buf) {
  vector<int, 16> v, got = -5;
  vector<uint, 16> idx;
  read(buf, 0, v);
  for (int i = 0; i < 16; ++i)
    idx(i) = 15 - i;
  SIMD_IF_BEGIN (v > 0) {
    read(buf, 0, idx, got);                      // v reversed, where v > 0
    write(buf, 16, idx, v * 2);                  // into row 1, reversed
  } SIMD_IF_END;
  write(buf, 128, got);
}

// Intel's mandelbrot kernel: escape-time iterations of 16 pixels a thread.
extern "C" _GENX_MAIN_ void mandelbrot(SurfaceIndex out, int crunch, float xoff,
                                       float yoff, float scale) {
  vector<int, 16> lane;
  for (int i = 0; i < 16; ++i)
    lane(i) = i;
  vector<float, 16> ix = int(get_thread_origin_x() * 16) + lane;
  vector<float, 16> iy = int(get_thread_origin_y());
  vector<int, 16> m = crunch - 1;
  vector<float, 16> xpos = ix * scale + xoff, ypos = iy * scale + yoff;
  vector<float, 16> x = xpos, y = ypos, xx = x * x, yy = y * y;
  SIMD_IF_BEGIN ((m != 0) & (xx + yy < 4.0f)) {
    SIMD_DO_WHILE_BEGIN {
      y = x * y * 2.0f + ypos;
      x = xx - yy + xpos;
      yy = y * y;
      xx = x * x;
      m -= 1;
    } SIMD_DO_WHILE_END ((m != 0) & (xx + yy < 4.0f));
  } SIMD_IF_END;
  m.merge(crunch - m, 0, m > 0);
  write(out, (get_thread_origin_y() * 64 + get_thread_origin_x() * 16) * 4, m);
}

