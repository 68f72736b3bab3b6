// The CM runtime's fast-copy API: CM_FASTCOPY_OPTION_*, surface-to-surface
// copies (EnqueueCopyGPUToGPU, same width, height and format: NV12's UV
// plane included) and host-to-host copies (EnqueueCopyCPUToCPU), each
// complete when it returns; surfaces that differ are refused.
// RUN: %slmcxx -O1 %s -o %t && %t | FileCheck %s
// CHECK: A8R8G8B8 surface to surface: PASSED
// CHECK: NV12 surface to surface: PASSED
// CHECK: other size: CM_INVALID_ARG_VALUE
// CHECK: host to host: PASSED
#include <cm_rt.h>

#include <cstdio>
#include <cstring>
#include <vector>

#define CHECK(call)                                                            \
  do {                                                                         \
    int r_ = (call);                                                           \
    if (r_ != CM_SUCCESS) {                                                    \
      std::printf("%s: %s (%s)\n", #call, GetCmErrorString(r_), slmc_last_error()); \
      return 1;                                                                \
    }                                                                          \
  } while (0)

int copy(CmDevice *dev, CmQueue *q, UINT w, UINT h, CM_SURFACE_FORMAT f, size_t bytes,
         const char *what) {
  CmSurface2D *a = nullptr, *b = nullptr;
  CHECK(dev->CreateSurface2D(w, h, f, a));
  CHECK(dev->CreateSurface2D(w, h, f, b));
  std::vector<unsigned char> src(bytes), dst(bytes);
  for (size_t i = 0; i < bytes; ++i)
    src[i] = (unsigned char)(i * 13 + 1);
  CmEvent *e = nullptr;
  CHECK(q->EnqueueCopyCPUToGPU(a, src.data(), e));
  CHECK(q->EnqueueCopyGPUToGPU(b, a, CM_FASTCOPY_OPTION_BLOCKING, e));
  CHECK(q->EnqueueCopyGPUToCPU(b, dst.data(), e));
  std::printf("%s surface to surface: %s\n", what, src == dst ? "PASSED" : "FAILED");
  return src == dst ? 0 : 1;
}

int main() {
  CmDevice *dev = nullptr;
  UINT version = 0;
  CHECK(CreateCmDevice(dev, version));
  CmQueue *q = nullptr;
  CHECK(dev->CreateQueue(q));
  int bad = copy(dev, q, 64, 8, CM_SURFACE_FORMAT_A8R8G8B8, 64 * 8 * 4, "A8R8G8B8");
  bad += copy(dev, q, 32, 16, CM_SURFACE_FORMAT_NV12, 32 * 16 * 3 / 2, "NV12");

  CmSurface2D *small = nullptr, *big = nullptr;
  CHECK(dev->CreateSurface2D(16, 8, CM_SURFACE_FORMAT_A8R8G8B8, small));
  CHECK(dev->CreateSurface2D(32, 8, CM_SURFACE_FORMAT_A8R8G8B8, big));
  CmEvent *e = nullptr;
  std::printf("other size: %s\n",
              GetCmErrorString(q->EnqueueCopyGPUToGPU(big, small, 0, e)));

  unsigned char from[100], to[100] = {};
  for (int i = 0; i < 100; ++i)
    from[i] = (unsigned char)(200 - i);
  CHECK(q->EnqueueCopyCPUToCPU(to, from, sizeof from, CM_FASTCOPY_OPTION_NONBLOCKING, e));
  UINT64 ns = 1;
  CHECK(e->GetExecutionTime(ns));
  const bool same = std::memcmp(from, to, sizeof from) == 0;
  std::printf("host to host: %s\n", same ? "PASSED" : "FAILED");
  CHECK(DestroyCmDevice(dev));
  return bad || !same;
}
