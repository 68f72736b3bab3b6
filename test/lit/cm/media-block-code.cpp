// Media block reads and writes of 2-D surfaces compile to one load or
// store per element, and the rare path (a block across an edge of the
// surface, clamped or clipped byte by byte) to one rolled loop: unrolled,
// that path made an 8x8 block access tens of thousands of instructions,
// and Intel's matrix_transpose and Sgemm samples compiled for over 15
// minutes. What the accesses compute at and across the edges is checked by
// cm/surface2d.test.
// RUN: %slmcxx -O2 --emit=ptx %s -o %t.ptx
// RUN: grep -c "ld.global.b32" %t.ptx | FileCheck %s --check-prefix=WORDS
// RUN: grep -c "st.global.b32" %t.ptx | FileCheck %s --check-prefix=WORDS
// RUN: grep -c "ld.global.b8" %t.ptx | FileCheck %s --check-prefix=BYTES
// RUN: grep -c "st.global.b8" %t.ptx | FileCheck %s --check-prefix=BYTES
// WORDS: {{^64$}}
// BYTES: {{^1$}}
#include <cm/cm.h>

extern "C" _GENX_MAIN_ void shift(SurfaceIndex s) {
  matrix<int, 8, 8> m;
  int x = get_thread_origin_x(), y = get_thread_origin_y();
  read(s, x * 32, y * 8, m);
  m += 1;
  write(s, y * 32, x * 8, m);
}
