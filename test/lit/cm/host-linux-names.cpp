// Host code written for Intel's CM runtime on Windows and built on Linux
// with Intel's Linux header, as the CM samples' harnesses are: `_tmain`
// and `_TCHAR`, `__int64`, `_NAME(kernel)` for a kernel's name, TRUE and FALSE, the CM_x_y
// runtime versions, and UINT64 as `unsigned long long` (GetExecutionTime
// takes one by reference).
// RUN: %slmcxx -O1 %s -o %t && %t first second | FileCheck %s
// CHECK: argc 3, argv[2] second
// CHECK: version at least CM_1_0: yes
// CHECK: _NAME: fill<8U, 8U>
#include <cm_rt.h>

#include <cstdio>
#include <type_traits>

static_assert(std::is_same<UINT64, unsigned long long>::value, "UINT64");
static_assert(std::is_same<INT64, long long>::value, "INT64");
static_assert(sizeof(__int64) == 8, "__int64");
static_assert(CM_1_0 < CM_2_0 && CM_2_0 < CURRENT_CM_VERSION + 1, "versions");

// Compiles: the reference binds to an unsigned long long.
void elapsed(CmEvent *event) {
  unsigned long long ns = 0;
  event->GetExecutionTime(ns);
}

int _tmain(int argc, _TCHAR *argv[]) {
  std::printf("argc %d, argv[2] %s\n", argc, argv[2]);
  CmDevice *device = nullptr;
  UINT version = 0;
  if (CreateCmDevice(device, version) != CM_SUCCESS)
    return 1;
  std::printf("version at least CM_1_0: %s\n", version >= CM_1_0 ? "yes" : "no");
  std::printf("_NAME: %s\n", _NAME(fill<8U, 8U>));
  DestroyCmDevice(device);
  return 0;
}
