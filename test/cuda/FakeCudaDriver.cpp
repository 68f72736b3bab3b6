//===- FakeCudaDriver.cpp - A CUDA driver without a GPU, for fault tests --===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The entry points of libcuda.so.1 that the CUDA backend resolves, built as
// a library of that name and loaded through SLMC_CUDA_DRIVER. One small
// device; every allocation is host memory; any PTX loads as a module with
// any function in it; a launch runs nothing; copies and fills are done on
// the host at once.
//
//   SLMC_CUDA_FAIL  entry points that fail, comma-separated, each
//                   name[=CUresult][@N] (default result 999,
//                   CUDA_ERROR_UNKNOWN); with @N only the N-th call of that
//                   entry point in the process fails. Names are the symbol
//                   names (cuMemAlloc_v2). A failing call has no other effect.
//
// Fault-injection tests read the calls made and the objects alive (primary
// context retains, streams, modules, allocations) through slmcFakeCuCalls
// and slmcFakeCuLiveObjects.
//
//===----------------------------------------------------------------------===//

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>

#define SLMC_CU_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

using CUresult = int;
using CUdeviceptr = unsigned long long;

constexpr CUresult CUDA_SUCCESS = 0;
constexpr CUresult CUDA_ERROR_INVALID_VALUE = 1;
constexpr CUresult CUDA_ERROR_NOT_INITIALIZED = 3;
constexpr CUresult CUDA_ERROR_INVALID_DEVICE = 101;
constexpr CUresult CUDA_ERROR_INVALID_HANDLE = 400;
constexpr CUresult CUDA_ERROR_UNKNOWN = 999;

std::mutex Mutex; // one call at a time
bool Initialised = false;
std::map<std::string, uint64_t> CallCounts;
std::map<uintptr_t, size_t> Allocations; // base -> bytes
struct Live {
  int64_t ContextRetains = 0, Streams = 0, Modules = 0;
} Objects;

struct Stream {
  int Unused = 0;
};
struct Module {
  int Unused = 0;
};
struct Function {
  std::string Name;
};
char PrimaryContext; // its address is the one context handle

/// Counts the call and tells whether $SLMC_CUDA_FAIL names it; if so, sets
/// `R`. Caller holds Mutex.
bool injected(const char *Call, CUresult &R) {
  const uint64_t Occurrence = ++CallCounts[Call];
  const char *Env = std::getenv("SLMC_CUDA_FAIL");
  std::string List = Env ? Env : "";
  size_t Pos = 0;
  while (Pos < List.size()) {
    size_t End = List.find(',', Pos);
    std::string Item = List.substr(Pos, End == std::string::npos ? End : End - Pos);
    Pos = End == std::string::npos ? List.size() : End + 1;
    uint64_t Only = 0; // 0: every call
    if (size_t At = Item.find('@'); At != std::string::npos) {
      Only = std::strtoull(Item.c_str() + At + 1, nullptr, 0);
      Item.resize(At);
    }
    size_t Eq = Item.find('=');
    if (Item.substr(0, Eq) != Call || (Only && Only != Occurrence))
      continue;
    R = Eq == std::string::npos
            ? CUDA_ERROR_UNKNOWN
            : CUresult(std::strtol(Item.c_str() + Eq + 1, nullptr, 0));
    return true;
  }
  return false;
}

#define SLMC_CU_ENTRY(Call)                                                    \
  std::lock_guard<std::mutex> Lock_(Mutex);                                    \
  if (CUresult Injected_; injected(Call, Injected_))                          \
    return Injected_;                                                          \
  if (!Initialised && std::strcmp(Call, "cuInit") != 0 &&                      \
      std::strcmp(Call, "cuDriverGetVersion") != 0 &&                          \
      std::strcmp(Call, "cuGetErrorName") != 0 &&                              \
      std::strcmp(Call, "cuGetErrorString") != 0)                              \
  return CUDA_ERROR_NOT_INITIALIZED

/// The allocation holding `P`; false for memory the driver does not know.
bool known(CUdeviceptr P) {
  auto It = Allocations.upper_bound(uintptr_t(P));
  if (It == Allocations.begin())
    return false;
  --It;
  return uintptr_t(P) < It->first + It->second;
}

CUresult allocate(CUdeviceptr *Out, size_t Bytes) {
  if (!Out || Bytes == 0)
    return CUDA_ERROR_INVALID_VALUE;
  void *P = std::calloc(1, Bytes);
  if (!P)
    return 2; // CUDA_ERROR_OUT_OF_MEMORY
  Allocations[uintptr_t(P)] = Bytes;
  *Out = CUdeviceptr(uintptr_t(P));
  return CUDA_SUCCESS;
}

size_t copyOut(const std::string &Text, char *Buf, size_t Size) {
  if (Buf && Size)
    std::snprintf(Buf, Size, "%s", Text.c_str());
  return Text.size();
}

} // namespace

// ---- Initialisation and errors ---------------------------------------------

SLMC_CU_EXPORT CUresult cuInit(unsigned) {
  SLMC_CU_ENTRY("cuInit");
  Initialised = true;
  return CUDA_SUCCESS;
}

SLMC_CU_EXPORT CUresult cuDriverGetVersion(int *Version) {
  SLMC_CU_ENTRY("cuDriverGetVersion");
  if (!Version)
    return CUDA_ERROR_INVALID_VALUE;
  *Version = 12040;
  return CUDA_SUCCESS;
}

SLMC_CU_EXPORT CUresult cuGetErrorName(CUresult R, const char **Name) {
  SLMC_CU_ENTRY("cuGetErrorName");
  if (!Name)
    return CUDA_ERROR_INVALID_VALUE;
  switch (R) {
  case 0: *Name = "CUDA_SUCCESS"; break;
  case 1: *Name = "CUDA_ERROR_INVALID_VALUE"; break;
  case 2: *Name = "CUDA_ERROR_OUT_OF_MEMORY"; break;
  case 3: *Name = "CUDA_ERROR_NOT_INITIALIZED"; break;
  case 218: *Name = "CUDA_ERROR_INVALID_PTX"; break;
  case 400: *Name = "CUDA_ERROR_INVALID_HANDLE"; break;
  case 999: *Name = "CUDA_ERROR_UNKNOWN"; break;
  default: *Name = nullptr; return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}

SLMC_CU_EXPORT CUresult cuGetErrorString(CUresult R, const char **Text) {
  SLMC_CU_ENTRY("cuGetErrorString");
  if (!Text)
    return CUDA_ERROR_INVALID_VALUE;
  *Text = R == CUDA_SUCCESS ? "no error" : "fake driver error";
  return CUDA_SUCCESS;
}

// ---- Device and context ----------------------------------------------------

SLMC_CU_EXPORT CUresult cuDeviceGetCount(int *Count) {
  SLMC_CU_ENTRY("cuDeviceGetCount");
  if (!Count)
    return CUDA_ERROR_INVALID_VALUE;
  *Count = 1;
  return CUDA_SUCCESS;
}

SLMC_CU_EXPORT CUresult cuDeviceGet(int *Device, int Ordinal) {
  SLMC_CU_ENTRY("cuDeviceGet");
  if (!Device)
    return CUDA_ERROR_INVALID_VALUE;
  if (Ordinal != 0)
    return CUDA_ERROR_INVALID_DEVICE;
  *Device = 0;
  return CUDA_SUCCESS;
}

SLMC_CU_EXPORT CUresult cuDeviceGetName(char *Name, int Size, int Device) {
  SLMC_CU_ENTRY("cuDeviceGetName");
  if (!Name || Size <= 0)
    return CUDA_ERROR_INVALID_VALUE;
  if (Device != 0)
    return CUDA_ERROR_INVALID_DEVICE;
  std::snprintf(Name, size_t(Size), "slmc fake CUDA GPU");
  return CUDA_SUCCESS;
}

SLMC_CU_EXPORT CUresult cuDeviceGetAttribute(int *Value, int Attribute,
                                             int Device) {
  SLMC_CU_ENTRY("cuDeviceGetAttribute");
  if (!Value)
    return CUDA_ERROR_INVALID_VALUE;
  if (Device != 0)
    return CUDA_ERROR_INVALID_DEVICE;
  switch (Attribute) {
  case 1: *Value = 1024; break;         // max threads per block
  case 2: case 3: *Value = 1024; break; // max block dim x, y
  case 4: *Value = 64; break;           // max block dim z
  case 5: *Value = 2147483647; break;   // max grid dim x
  case 6: case 7: *Value = 65535; break;
  case 8: *Value = 49152; break;        // shared per block
  case 97: *Value = 101376; break;      // opt-in shared per block
  case 16: *Value = 4; break;           // multiprocessors
  case 41: case 83: *Value = 1; break;  // unified addressing, managed memory
  case 75: *Value = 8; break;           // compute capability 8.0
  case 76: *Value = 0; break;
  default: *Value = 0; break;
  }
  return CUDA_SUCCESS;
}

SLMC_CU_EXPORT CUresult cuDeviceTotalMem_v2(size_t *Bytes, int Device) {
  SLMC_CU_ENTRY("cuDeviceTotalMem_v2");
  if (!Bytes)
    return CUDA_ERROR_INVALID_VALUE;
  if (Device != 0)
    return CUDA_ERROR_INVALID_DEVICE;
  *Bytes = size_t(1) << 30;
  return CUDA_SUCCESS;
}

SLMC_CU_EXPORT CUresult cuDevicePrimaryCtxRetain(void **Context, int Device) {
  SLMC_CU_ENTRY("cuDevicePrimaryCtxRetain");
  if (!Context)
    return CUDA_ERROR_INVALID_VALUE;
  if (Device != 0)
    return CUDA_ERROR_INVALID_DEVICE;
  *Context = &PrimaryContext;
  ++Objects.ContextRetains;
  return CUDA_SUCCESS;
}

SLMC_CU_EXPORT CUresult cuDevicePrimaryCtxRelease_v2(int Device) {
  SLMC_CU_ENTRY("cuDevicePrimaryCtxRelease_v2");
  if (Device != 0)
    return CUDA_ERROR_INVALID_DEVICE;
  if (Objects.ContextRetains == 0)
    return CUDA_ERROR_INVALID_VALUE;
  --Objects.ContextRetains;
  return CUDA_SUCCESS;
}

SLMC_CU_EXPORT CUresult cuCtxSetCurrent(void *Context) {
  SLMC_CU_ENTRY("cuCtxSetCurrent");
  return Context == &PrimaryContext || !Context ? CUDA_SUCCESS
                                                : CUDA_ERROR_INVALID_HANDLE;
}

// ---- Streams -----------------------------------------------------------------

SLMC_CU_EXPORT CUresult cuStreamCreate(void **Out, unsigned) {
  SLMC_CU_ENTRY("cuStreamCreate");
  if (!Out)
    return CUDA_ERROR_INVALID_VALUE;
  *Out = new Stream;
  ++Objects.Streams;
  return CUDA_SUCCESS;
}

SLMC_CU_EXPORT CUresult cuStreamDestroy_v2(void *S) {
  SLMC_CU_ENTRY("cuStreamDestroy_v2");
  if (!S)
    return CUDA_ERROR_INVALID_HANDLE;
  delete static_cast<Stream *>(S);
  --Objects.Streams;
  return CUDA_SUCCESS;
}

SLMC_CU_EXPORT CUresult cuStreamSynchronize(void *) {
  SLMC_CU_ENTRY("cuStreamSynchronize");
  return CUDA_SUCCESS; // everything completes at once
}

// ---- Modules and launches ----------------------------------------------------

SLMC_CU_EXPORT CUresult cuModuleLoadDataEx(void **Out, const void *Image,
                                           unsigned, int *, void **) {
  SLMC_CU_ENTRY("cuModuleLoadDataEx");
  if (!Out || !Image)
    return CUDA_ERROR_INVALID_VALUE;
  *Out = new Module;
  ++Objects.Modules;
  return CUDA_SUCCESS;
}

SLMC_CU_EXPORT CUresult cuModuleUnload(void *M) {
  SLMC_CU_ENTRY("cuModuleUnload");
  if (!M)
    return CUDA_ERROR_INVALID_HANDLE;
  delete static_cast<Module *>(M);
  --Objects.Modules;
  return CUDA_SUCCESS;
}

SLMC_CU_EXPORT CUresult cuModuleGetFunction(void **Out, void *M,
                                            const char *Name) {
  SLMC_CU_ENTRY("cuModuleGetFunction");
  if (!Out || !Name)
    return CUDA_ERROR_INVALID_VALUE;
  if (!M)
    return CUDA_ERROR_INVALID_HANDLE;
  // Functions live as long as their module would; the backend never unloads
  // one while the process runs, so they are not counted.
  static std::map<std::pair<void *, std::string>, Function> Functions;
  Function &F = Functions[{M, Name}];
  F.Name = Name;
  *Out = &F;
  return CUDA_SUCCESS;
}

SLMC_CU_EXPORT CUresult cuFuncGetAttribute(int *Value, int Attribute, void *F) {
  SLMC_CU_ENTRY("cuFuncGetAttribute");
  if (!Value)
    return CUDA_ERROR_INVALID_VALUE;
  if (!F)
    return CUDA_ERROR_INVALID_HANDLE;
  *Value = Attribute == 0 ? 1024 : Attribute == 8 ? 49152 : 0;
  return CUDA_SUCCESS;
}

SLMC_CU_EXPORT CUresult cuFuncSetAttribute(void *F, int, int) {
  SLMC_CU_ENTRY("cuFuncSetAttribute");
  return F ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

SLMC_CU_EXPORT CUresult cuLaunchKernel(void *F, unsigned, unsigned, unsigned,
                                       unsigned, unsigned, unsigned, unsigned,
                                       void *, void **, void **) {
  SLMC_CU_ENTRY("cuLaunchKernel");
  return F ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE; // nothing runs
}

// ---- Memory ------------------------------------------------------------------

SLMC_CU_EXPORT CUresult cuMemAlloc_v2(CUdeviceptr *Out, size_t Bytes) {
  SLMC_CU_ENTRY("cuMemAlloc_v2");
  return allocate(Out, Bytes);
}

SLMC_CU_EXPORT CUresult cuMemAllocManaged(CUdeviceptr *Out, size_t Bytes,
                                          unsigned) {
  SLMC_CU_ENTRY("cuMemAllocManaged");
  return allocate(Out, Bytes);
}

SLMC_CU_EXPORT CUresult cuMemFree_v2(CUdeviceptr P) {
  SLMC_CU_ENTRY("cuMemFree_v2");
  auto It = Allocations.find(uintptr_t(P));
  if (It == Allocations.end())
    return CUDA_ERROR_INVALID_VALUE;
  std::free(reinterpret_cast<void *>(It->first));
  Allocations.erase(It);
  return CUDA_SUCCESS;
}

SLMC_CU_EXPORT CUresult cuMemcpyAsync(CUdeviceptr Dst, CUdeviceptr Src,
                                      size_t Bytes, void *) {
  SLMC_CU_ENTRY("cuMemcpyAsync");
  if (!Dst || !Src)
    return CUDA_ERROR_INVALID_VALUE;
  std::memmove(reinterpret_cast<void *>(uintptr_t(Dst)),
               reinterpret_cast<const void *>(uintptr_t(Src)), Bytes);
  return CUDA_SUCCESS;
}

SLMC_CU_EXPORT CUresult cuMemsetD8Async(CUdeviceptr Dst, unsigned char Value,
                                        size_t Bytes, void *) {
  SLMC_CU_ENTRY("cuMemsetD8Async");
  if (!known(Dst))
    return CUDA_ERROR_INVALID_VALUE;
  std::memset(reinterpret_cast<void *>(uintptr_t(Dst)), Value, Bytes);
  return CUDA_SUCCESS;
}

SLMC_CU_EXPORT CUresult cuPointerGetAttribute(void *Data, int Attribute,
                                              CUdeviceptr P) {
  SLMC_CU_ENTRY("cuPointerGetAttribute");
  if (!Data || Attribute != 2 /* CU_POINTER_ATTRIBUTE_MEMORY_TYPE */)
    return CUDA_ERROR_INVALID_VALUE;
  if (!known(P))
    return CUDA_ERROR_INVALID_VALUE; // as for plain host memory
  *static_cast<unsigned *>(Data) = 2; // CU_MEMORYTYPE_DEVICE
  return CUDA_SUCCESS;
}

// ---- Queries for fault-injection tests -----------------------------------------

/// "name=count,..." for every entry point called so far, in name order.
SLMC_CU_EXPORT size_t slmcFakeCuCalls(char *Buf, size_t Size) {
  std::lock_guard<std::mutex> L(Mutex);
  std::string Text;
  for (const auto &[Name, Count] : CallCounts)
    Text += (Text.empty() ? "" : ",") + Name + "=" + std::to_string(Count);
  return copyOut(Text, Buf, Size);
}

/// "contexts=N streams=N modules=N allocations=N": primary-context retains
/// not released, and the objects created and not destroyed.
SLMC_CU_EXPORT size_t slmcFakeCuLiveObjects(char *Buf, size_t Size) {
  std::lock_guard<std::mutex> L(Mutex);
  std::string Text = "contexts=" + std::to_string(Objects.ContextRetains) +
                     " streams=" + std::to_string(Objects.Streams) +
                     " modules=" + std::to_string(Objects.Modules) +
                     " allocations=" + std::to_string(Allocations.size());
  return copyOut(Text, Buf, Size);
}
