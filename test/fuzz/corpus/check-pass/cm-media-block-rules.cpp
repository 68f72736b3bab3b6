2// Media block reads and writes take blocks the hardware can move in one
// message: at most 64 bytes wide, 64 rows high and 256 bytes with the width
// rounded up to a power of two. The bit intrinsics take integers (cm_fbl
// and cm_fbh 32-bit ones), cm_pack_mask at most 32 elements. Each rule is a
// static_assert with a plain message.
// RUN: %slmcxx -fsyntax-only -Xclang -verify %s
// RUN: %clangxx -std=c++17 %plugin -fsyntax-only -Xclang -verify %s

#include <cm/cm.h>

extern "C" _GENX_MAIN_ void fine(SurfaceIndex s) {
  matrix<uchar, 8, 32> a; // 256 bytes
  read(s, 0, 0, a);
  write(s, 0, 0, a);
  matrix<uint, 16, 4> b; // 16 bytes x 16 rows
  read(s, 4, 2, b);
  matrix<uchar, 10, 24> c; // 24 bytes wide counts as 32: 320 > 256 for the read
  read(s, 0, 0, c.select<8, 1, 24, 1>(0, 0));
  vector<uchar, 64> row;
  read(s, 0, 0, row);
  write(s, 0, 0, row);
}

extern "C" _GENX_MAIN_ void wide(SurfaceIndex s) {
  vector<uchar, 128> row;
  read(s, 0, 0, row);
}
// expected-error@*:* {{media block read: a block is at most 64 bytes wide and 64 rows high, and at most 256 bytes with its width rounded up to a power of two}}

extern "C" _GENX_MAIN_ void big(SurfaceIndex s) {
  matrix<uchar, 10, 32> m; // 320 bytes
  write(s, 0, 0, m);
}
// expected-error@*:* {{media block write: a block is at most 64 bytes wide and 64 rows high, and at most 256 bytes with its width rounded up to a power of two}}

extern "C" _GENX_MAIN_ void padded(SurfaceIndex s) {
  matrix<uchar, 6, 40> m; // 40 bytes wide count as 64: 384 bytes
  read(TOP_FIELD(s), 0, 0, m);
}
// expected-error@*:* {{media block read: a block is at most 64 bytes wide and 64 rows high, and at most 256 bytes with its width rounded up to a power of two}}

extern "C" _GENX_MAIN_ void bits(SurfaceIndex s) {
  vector<float, 8> f = 1.0f;
  vector<ushort, 8> h = 1;
  vector<ushort, 64> mask = 1;
  vector<int, 8> r;
  r = cm_shl<int>(f, 1);
  r = cm_avg<int>(f, f);
  r = cm_fbl(h);
  r = cm_cbit(f);
  uint p = cm_pack_mask(mask);
  write(s, 0, r);
  write(s, 0u, p);
}
// expected-error@*:* {{cm_shl takes integer operands}}
// expected-error@*:* {{cm_avg takes integer operands}}
// expected-error@*:* {{cm_fbl takes 32-bit integers}}
// expected-error@*:* {{cm_cbit takes integers}}
// expected-error@*:* {{cm_pack_mask packs at most 32 elements into a uint}}
// expected-note@*:* 0+ {{in instantiation of}}
// expected-note@*:* 0+ {{expression evaluates to}}
