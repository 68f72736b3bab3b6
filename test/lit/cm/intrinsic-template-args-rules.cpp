// The explicit template arguments that cmc's intrinsic declarations allow
// must agree with the operands: the size of cm_sin<SZ>, the element type of
// cm_cbit<T>; cm_sad2 takes an even number of integer elements.
// RUN: not %slmcxx -fsyntax-only %s 2>&1 | FileCheck %s
// CHECK-DAG: error: static assertion failed{{.*}}cm_sin: the explicit size is not the operand's
// CHECK-DAG: error: static assertion failed{{.*}}cm_cbit: the explicit element type is not the operand's
// CHECK-DAG: error: static assertion failed{{.*}}cm_sad2: an even number of elements
// CHECK-DAG: error: static assertion failed{{.*}}cm_sad2 takes integer operands
#include <cm/cm.h>

extern "C" _GENX_MAIN_ void k(SurfaceIndex s) {
  vector<float, 16> f = 0.5f;
  vector<float, 16> a = cm_sin<8>(f);
  vector<uint, 8> bits = 3;
  vector<uint, 8> n = cm_cbit<int>(bits);
  vector<uchar, 7> odd = 1;
  vector<ushort, 7> d = cm_sad2<ushort>(odd, odd);
  vector<ushort, 16> e = cm_sad2<ushort>(f, f);
  write(s, 0, a);
}
