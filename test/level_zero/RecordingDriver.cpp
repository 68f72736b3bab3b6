//===- RecordingDriver.cpp - A Level Zero driver that records its calls ---===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A Level Zero *driver* (what the loader, libze_loader.so.1, loads in place
// of a GPU driver such as libze_intel_gpu.so.1) for the contract test of the
// Level Zero backend. It exports the ze/zet/zes "Get...ProcAddrTable"
// functions of ze_ddi.h, zet_ddi.h and zes_ddi.h, as every driver does; the
// loader requires all of them, so the tracing and sysman tables are handed
// out empty.
//
// The driver reports one GPU device, executes nothing on it (a kernel launch
// is a no-op; copies and fills are done on the host, where every allocation
// lives), and appends one line per call to the file $SLMC_ZE_RECORD:
//
//   <entry point> key=value ...
//
// e.g. "zeKernelSetArgumentValue kernel=vadd index=3 size=0 value=null".
// Everything is configured by environment variables, read at every call, so
// a test may change them between calls (device limits are read when the
// properties are queried, i.e. when the runtime creates its backend):
//
//   SLMC_ZE_DEVICE_TYPE      gpu (default) | cpu | none (no device at all)
//   SLMC_ZE_DEVICE_NAME      device name
//   SLMC_ZE_MAX_GROUP_SIZE   maxTotalGroupSize (1024)
//   SLMC_ZE_MAX_GROUP_DIMS   maxGroupSizeX,Y,Z (1024,1024,64)
//   SLMC_ZE_MAX_GROUP_COUNT  maxGroupCountX,Y,Z (2147483647,65535,65535)
//   SLMC_ZE_MAX_SLM          maxSharedLocalMemory (65536)
//   SLMC_ZE_MEMORIES         totalSize of each memory region (8589934592)
//   SLMC_ZE_EU_LAYOUT        numSlices,numSubslicesPerSlice,numEUsPerSubslice
//                            (1,8,16)
//   SLMC_ZE_SPIRV_VERSION    spirvVersionSupported, "major.minor" (1.2)
//   SLMC_ZE_QUEUE_GROUPS     queue groups in ordinal order, each a set of
//                            flags joined by '+': compute, copy
//                            (compute+copy)
//   SLMC_ZE_KERNELS          the kernels of every module, comma-separated,
//                            each name:numKernelArgs:localMemSize with an
//                            optional :X.Y.Z required group size; unset:
//                            any name, 0 arguments, 0 bytes
//   SLMC_ZE_BUILD_LOG        if set, zeModuleCreate fails with
//                            ZE_RESULT_ERROR_MODULE_BUILD_FAILURE and this
//                            build log
//   SLMC_ZE_FAIL             entry points that fail, comma-separated, each
//                            name[=result][@N] (default result
//                            ZE_RESULT_ERROR_UNKNOWN); with @N only the N-th
//                            call of that entry point in the process fails.
//                            A failing call has no other effect.
//   SLMC_ZE_HANG             if set, queue synchronization never completes:
//                            a finite timeout elapses (ZE_RESULT_NOT_READY
//                            after min(timeout, 200 ms)); an infinite one is
//                            refused with ZE_RESULT_ERROR_DEVICE_LOST rather
//                            than hanging the test
//
// For fault injection the driver also counts the calls of every entry point
// and the objects alive (contexts, queues, lists, modules, build logs,
// kernels, allocations); the test reads both through the exported functions
// slmcFakeZeCalls and slmcFakeZeLiveObjects (dlopen the driver with
// RTLD_NOLOAD once the runtime has loaded it).
//
//===----------------------------------------------------------------------===//

#include <level_zero/ze_api.h>
#include <level_zero/ze_ddi.h>
#include <level_zero/zes_ddi.h>
#include <level_zero/zet_ddi.h>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

// ---- Environment -----------------------------------------------------------

std::string env(const char *Name, const char *Default = "") {
  const char *V = std::getenv(Name);
  return V ? V : Default;
}

std::vector<std::string> split(const std::string &S, char Sep) {
  std::vector<std::string> Out;
  if (S.empty())
    return Out;
  size_t Pos = 0;
  for (;;) {
    size_t Next = S.find(Sep, Pos);
    Out.push_back(S.substr(Pos, Next == std::string::npos ? Next : Next - Pos));
    if (Next == std::string::npos)
      return Out;
    Pos = Next + 1;
  }
}

uint64_t number(const std::string &S, uint64_t Default) {
  if (S.empty())
    return Default;
  char *End = nullptr;
  unsigned long long V = std::strtoull(S.c_str(), &End, 0);
  return *End ? Default : V;
}

uint64_t envNumber(const char *Name, uint64_t Default) {
  return number(env(Name), Default);
}

/// "a,b,c" into three numbers.
void envTriple(const char *Name, const char *Default, uint32_t Out[3]) {
  std::vector<std::string> Parts = split(env(Name, Default), ',');
  std::vector<std::string> Defaults = split(Default, ',');
  for (int I = 0; I < 3; ++I)
    Out[I] = static_cast<uint32_t>(
        number(I < int(Parts.size()) ? Parts[I] : "",
               number(Defaults[I], 0)));
}

// ---- Recording -------------------------------------------------------------

std::mutex Mutex; // one call at a time

void record(const std::string &Line) {
  std::string Path = env("SLMC_ZE_RECORD");
  if (Path.empty())
    return;
  int Fd = ::open(Path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (Fd < 0)
    return;
  std::string Text = Line + "\n";
  const char *P = Text.data();
  size_t Left = Text.size();
  while (Left > 0) {
    ssize_t N = ::write(Fd, P, Left);
    if (N <= 0)
      break;
    P += N;
    Left -= size_t(N);
  }
  ::close(Fd);
}

std::string hex(const void *Data, size_t Size) {
  static const char Digits[] = "0123456789abcdef";
  std::string S;
  auto *B = static_cast<const unsigned char *>(Data);
  for (size_t I = 0; I < Size; ++I) {
    S += Digits[B[I] >> 4];
    S += Digits[B[I] & 15];
  }
  return S;
}

std::string resultHex(ze_result_t R) {
  char Buf[16];
  std::snprintf(Buf, sizeof(Buf), "0x%08x", unsigned(R));
  return Buf;
}

/// Calls so far of every entry point, by name (every entry point passes
/// through `injected` once per call).
std::map<std::string, uint64_t> CallCounts;

/// Counts the call and tells whether $SLMC_ZE_FAIL names it; if so, records
/// it and sets `R`.
bool injected(const char *Call, ze_result_t &R) {
  const uint64_t Occurrence = ++CallCounts[Call];
  for (std::string Item : split(env("SLMC_ZE_FAIL"), ',')) {
    uint64_t Only = 0; // 0: every call
    if (size_t At = Item.find('@'); At != std::string::npos) {
      Only = number(Item.substr(At + 1), 0);
      Item.resize(At);
    }
    size_t Eq = Item.find('=');
    if (Item.substr(0, Eq) != Call || (Only && Only != Occurrence))
      continue;
    R = Eq == std::string::npos
            ? ZE_RESULT_ERROR_UNKNOWN
            : static_cast<ze_result_t>(number(Item.substr(Eq + 1),
                                              ZE_RESULT_ERROR_UNKNOWN));
    record(std::string(Call) + " injected=" + resultHex(R));
    return true;
  }
  return false;
}

#define SLMC_INJECT(Call)                                                      \
  do {                                                                         \
    ze_result_t Injected_;                                                     \
    if (injected(Call, Injected_))                                             \
      return Injected_;                                                        \
  } while (0)

// ---- Objects ---------------------------------------------------------------

struct DriverObj {
  int Unused = 0;
};
struct DeviceObj {
  int Unused = 0;
};
struct ContextObj {
  int Unused = 0;
};
struct QueueObj {
  uint32_t Ordinal = 0;
};

struct Command {
  enum Kind { Launch, Copy, Fill } K = Launch;
  std::string Kernel;
  void *Dst = nullptr;
  const void *Src = nullptr;
  size_t Size = 0;
  std::vector<unsigned char> Pattern;
};

struct ListObj {
  bool Immediate = false;
  bool Closed = false;
  std::vector<Command> Commands;
};

struct ModuleObj {
  unsigned Id = 0;
};
struct BuildLogObj {
  std::string Text;
};
struct KernelObj {
  std::string Name;
  uint32_t NumArgs = 0;
  uint32_t LocalMem = 0;
  uint32_t Required[3] = {0, 0, 0};
};

struct Allocation {
  size_t Size;
  ze_memory_type_t Type;
};

DriverObj TheDriver;
DeviceObj TheDevice;
unsigned NextModuleId = 1;
std::map<uintptr_t, Allocation> Allocations;

/// Objects created and not yet destroyed, by kind (allocations are counted
/// by `Allocations`).
struct LiveCounts {
  int64_t Contexts = 0, Queues = 0, Lists = 0, Modules = 0, BuildLogs = 0,
          Kernels = 0;
} Live;

template <class T, class H> T *obj(H Handle) {
  return reinterpret_cast<T *>(Handle);
}
template <class H, class T> H handle(T *Obj) { return reinterpret_cast<H>(Obj); }

bool deviceHidden() { return env("SLMC_ZE_DEVICE_TYPE") == "none"; }

/// The kernel description of `Name` in $SLMC_ZE_KERNELS; false if absent.
bool findKernel(const std::string &Name, KernelObj &Out) {
  std::string Spec = env("SLMC_ZE_KERNELS");
  Out = KernelObj();
  Out.Name = Name;
  if (Spec.empty())
    return true;
  for (const std::string &Item : split(Spec, ',')) {
    std::vector<std::string> F = split(Item, ':');
    if (F.empty() || F[0] != Name)
      continue;
    Out.NumArgs = uint32_t(number(F.size() > 1 ? F[1] : "", 0));
    Out.LocalMem = uint32_t(number(F.size() > 2 ? F[2] : "", 0));
    if (F.size() > 3) {
      std::vector<std::string> R = split(F[3], '.');
      for (int I = 0; I < 3 && I < int(R.size()); ++I)
        Out.Required[I] = uint32_t(number(R[I], 0));
    }
    return true;
  }
  return false;
}

const Allocation *findAllocation(const void *P, uintptr_t *Base = nullptr) {
  auto Addr = reinterpret_cast<uintptr_t>(P);
  auto It = Allocations.upper_bound(Addr);
  if (It == Allocations.begin())
    return nullptr;
  --It;
  if (Addr >= It->first + It->second.Size)
    return nullptr;
  if (Base)
    *Base = It->first;
  return &It->second;
}

const char *typeName(ze_memory_type_t T) {
  switch (T) {
  case ZE_MEMORY_TYPE_HOST: return "host";
  case ZE_MEMORY_TYPE_DEVICE: return "device";
  case ZE_MEMORY_TYPE_SHARED: return "shared";
  default: return "unknown";
  }
}

void run(const Command &C) {
  switch (C.K) {
  case Command::Launch:
    break; // nothing runs on this device
  case Command::Copy:
    std::memmove(C.Dst, C.Src, C.Size);
    break;
  case Command::Fill: {
    auto *D = static_cast<unsigned char *>(C.Dst);
    for (size_t I = 0; I < C.Size; ++I)
      D[I] = C.Pattern[I % C.Pattern.size()];
    break;
  }
  }
}

// ---- Driver and device -----------------------------------------------------

ze_result_t ZE_APICALL drvInit(ze_init_flags_t Flags) {
  std::lock_guard<std::mutex> L(Mutex);
  record("zeInit flags=" + std::to_string(Flags));
  SLMC_INJECT("zeInit");
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL drvDriverGet(uint32_t *Count, ze_driver_handle_t *Drivers) {
  std::lock_guard<std::mutex> L(Mutex);
  SLMC_INJECT("zeDriverGet");
  if (!Count)
    return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (*Count == 0 || !Drivers) {
    *Count = 1;
    return ZE_RESULT_SUCCESS;
  }
  Drivers[0] = handle<ze_driver_handle_t>(&TheDriver);
  *Count = 1;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL drvDriverGetApiVersion(ze_driver_handle_t,
                                              ze_api_version_t *Version) {
  std::lock_guard<std::mutex> L(Mutex);
  SLMC_INJECT("zeDriverGetApiVersion");
  if (!Version)
    return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  *Version = ZE_API_VERSION_CURRENT;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL drvDriverGetProperties(ze_driver_handle_t,
                                              ze_driver_properties_t *Props) {
  std::lock_guard<std::mutex> L(Mutex);
  SLMC_INJECT("zeDriverGetProperties");
  if (!Props)
    return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  std::memset(Props->uuid.id, 0x5a, sizeof(Props->uuid.id));
  Props->driverVersion = 1;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL drvDriverGetIpcProperties(ze_driver_handle_t,
                                                 ze_driver_ipc_properties_t *P) {
  std::lock_guard<std::mutex> L(Mutex);
  SLMC_INJECT("zeDriverGetIpcProperties");
  if (!P)
    return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  P->flags = 0;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL drvDriverGetExtensionProperties(
    ze_driver_handle_t, uint32_t *Count, ze_driver_extension_properties_t *) {
  std::lock_guard<std::mutex> L(Mutex);
  SLMC_INJECT("zeDriverGetExtensionProperties");
  if (!Count)
    return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  *Count = 0;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL drvDeviceGet(ze_driver_handle_t Driver, uint32_t *Count,
                                    ze_device_handle_t *Devices) {
  std::lock_guard<std::mutex> L(Mutex);
  SLMC_INJECT("zeDeviceGet");
  if (!Driver)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!Count)
    return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  uint32_t Have = deviceHidden() ? 0 : 1;
  if (*Count == 0 || !Devices) {
    *Count = Have;
    return ZE_RESULT_SUCCESS;
  }
  if (Have)
    Devices[0] = handle<ze_device_handle_t>(&TheDevice);
  *Count = Have;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL drvDeviceGetSubDevices(ze_device_handle_t, uint32_t *Count,
                                              ze_device_handle_t *) {
  std::lock_guard<std::mutex> L(Mutex);
  SLMC_INJECT("zeDeviceGetSubDevices");
  if (!Count)
    return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  *Count = 0;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL drvDeviceGetProperties(ze_device_handle_t Device,
                                              ze_device_properties_t *P) {
  std::lock_guard<std::mutex> L(Mutex);
  record("zeDeviceGetProperties");
  SLMC_INJECT("zeDeviceGetProperties");
  if (!Device)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!P)
    return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  std::string Type = env("SLMC_ZE_DEVICE_TYPE", "gpu");
  P->type = Type == "cpu" ? ZE_DEVICE_TYPE_CPU : ZE_DEVICE_TYPE_GPU;
  P->vendorId = 0x8086;
  P->deviceId = 0x5a5a;
  P->flags = 0;
  P->subdeviceId = 0;
  P->coreClockRate = 1000;
  P->maxMemAllocSize = uint64_t(4) << 30;
  P->maxHardwareContexts = 64;
  P->maxCommandQueuePriority = 0;
  P->numThreadsPerEU = 8;
  P->physicalEUSimdWidth = 8;
  uint32_t Layout[3];
  envTriple("SLMC_ZE_EU_LAYOUT", "1,8,16", Layout);
  P->numSlices = Layout[0];
  P->numSubslicesPerSlice = Layout[1];
  P->numEUsPerSubslice = Layout[2];
  P->timerResolution = 1;
  P->timestampValidBits = 64;
  P->kernelTimestampValidBits = 32;
  std::memset(P->uuid.id, 0xa5, sizeof(P->uuid.id));
  std::snprintf(P->name, sizeof(P->name), "%s",
                env("SLMC_ZE_DEVICE_NAME", "slmc recording GPU").c_str());
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL drvDeviceGetComputeProperties(
    ze_device_handle_t Device, ze_device_compute_properties_t *P) {
  std::lock_guard<std::mutex> L(Mutex);
  record("zeDeviceGetComputeProperties");
  SLMC_INJECT("zeDeviceGetComputeProperties");
  if (!Device)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!P)
    return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  P->maxTotalGroupSize = uint32_t(envNumber("SLMC_ZE_MAX_GROUP_SIZE", 1024));
  uint32_t Dims[3], Counts[3];
  envTriple("SLMC_ZE_MAX_GROUP_DIMS", "1024,1024,64", Dims);
  envTriple("SLMC_ZE_MAX_GROUP_COUNT", "2147483647,65535,65535", Counts);
  P->maxGroupSizeX = Dims[0];
  P->maxGroupSizeY = Dims[1];
  P->maxGroupSizeZ = Dims[2];
  P->maxGroupCountX = Counts[0];
  P->maxGroupCountY = Counts[1];
  P->maxGroupCountZ = Counts[2];
  P->maxSharedLocalMemory = uint32_t(envNumber("SLMC_ZE_MAX_SLM", 65536));
  P->numSubGroupSizes = 2;
  P->subGroupSizes[0] = 16;
  P->subGroupSizes[1] = 32;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL drvDeviceGetModuleProperties(
    ze_device_handle_t Device, ze_device_module_properties_t *P) {
  std::lock_guard<std::mutex> L(Mutex);
  record("zeDeviceGetModuleProperties");
  SLMC_INJECT("zeDeviceGetModuleProperties");
  if (!Device)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!P)
    return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  std::vector<std::string> V = split(env("SLMC_ZE_SPIRV_VERSION", "1.2"), '.');
  uint32_t Major = uint32_t(number(V.size() > 0 ? V[0] : "", 1));
  uint32_t Minor = uint32_t(number(V.size() > 1 ? V[1] : "", 0));
  P->spirvVersionSupported = ZE_MAKE_VERSION(Major, Minor);
  P->flags = 0;
  P->fp16flags = 0;
  P->fp32flags = ZE_DEVICE_FP_FLAG_ROUND_TO_NEAREST | ZE_DEVICE_FP_FLAG_FMA;
  P->fp64flags = 0;
  P->maxArgumentsSize = 2048;
  P->printfBufferSize = 4 << 20;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL drvDeviceGetCommandQueueGroupProperties(
    ze_device_handle_t Device, uint32_t *Count,
    ze_command_queue_group_properties_t *Props) {
  std::lock_guard<std::mutex> L(Mutex);
  record("zeDeviceGetCommandQueueGroupProperties");
  SLMC_INJECT("zeDeviceGetCommandQueueGroupProperties");
  if (!Device)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!Count)
    return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  std::vector<std::string> Groups =
      split(env("SLMC_ZE_QUEUE_GROUPS", "compute+copy"), ',');
  if (*Count == 0 || !Props) {
    *Count = uint32_t(Groups.size());
    return ZE_RESULT_SUCCESS;
  }
  uint32_t N = std::min<uint32_t>(*Count, uint32_t(Groups.size()));
  for (uint32_t I = 0; I < N; ++I) {
    ze_command_queue_group_property_flags_t Flags = 0;
    for (const std::string &F : split(Groups[I], '+')) {
      if (F == "compute")
        Flags |= ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE;
      else if (F == "copy")
        Flags |= ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COPY;
    }
    Props[I].flags = Flags;
    Props[I].maxMemoryFillPatternSize = 128;
    Props[I].numQueues = 1;
  }
  *Count = N;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL drvDeviceGetMemoryProperties(
    ze_device_handle_t Device, uint32_t *Count,
    ze_device_memory_properties_t *Props) {
  std::lock_guard<std::mutex> L(Mutex);
  record("zeDeviceGetMemoryProperties");
  SLMC_INJECT("zeDeviceGetMemoryProperties");
  if (!Device)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!Count)
    return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  std::vector<std::string> Sizes =
      split(env("SLMC_ZE_MEMORIES", "8589934592"), ',');
  if (*Count == 0 || !Props) {
    *Count = uint32_t(Sizes.size());
    return ZE_RESULT_SUCCESS;
  }
  uint32_t N = std::min<uint32_t>(*Count, uint32_t(Sizes.size()));
  for (uint32_t I = 0; I < N; ++I) {
    Props[I].flags = 0;
    Props[I].maxClockRate = 1000;
    Props[I].maxBusWidth = 64;
    Props[I].totalSize = number(Sizes[I], 0);
    std::snprintf(Props[I].name, sizeof(Props[I].name), "region%u", I);
  }
  *Count = N;
  return ZE_RESULT_SUCCESS;
}

// ---- Context, queue and command lists --------------------------------------

ze_result_t ZE_APICALL drvContextCreate(ze_driver_handle_t Driver,
                                        const ze_context_desc_t *Desc,
                                        ze_context_handle_t *Out) {
  std::lock_guard<std::mutex> L(Mutex);
  record("zeContextCreate");
  SLMC_INJECT("zeContextCreate");
  if (!Driver)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!Desc || !Out)
    return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  *Out = handle<ze_context_handle_t>(new ContextObj);
  ++Live.Contexts;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL drvContextDestroy(ze_context_handle_t Context) {
  std::lock_guard<std::mutex> L(Mutex);
  record("zeContextDestroy");
  SLMC_INJECT("zeContextDestroy");
  if (!Context)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  delete obj<ContextObj>(Context);
  --Live.Contexts;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL drvCommandQueueCreate(ze_context_handle_t Context,
                                             ze_device_handle_t Device,
                                             const ze_command_queue_desc_t *Desc,
                                             ze_command_queue_handle_t *Out) {
  std::lock_guard<std::mutex> L(Mutex);
  if (Desc)
    record("zeCommandQueueCreate ordinal=" + std::to_string(Desc->ordinal) +
           " index=" + std::to_string(Desc->index) +
           " mode=" + std::to_string(int(Desc->mode)));
  SLMC_INJECT("zeCommandQueueCreate");
  if (!Context || !Device)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!Desc || !Out)
    return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  auto *Q = new QueueObj;
  Q->Ordinal = Desc->ordinal;
  *Out = handle<ze_command_queue_handle_t>(Q);
  ++Live.Queues;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL drvCommandQueueDestroy(ze_command_queue_handle_t Queue) {
  std::lock_guard<std::mutex> L(Mutex);
  record("zeCommandQueueDestroy");
  SLMC_INJECT("zeCommandQueueDestroy");
  if (!Queue)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  delete obj<QueueObj>(Queue);
  --Live.Queues;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL drvCommandQueueExecuteCommandLists(
    ze_command_queue_handle_t Queue, uint32_t Count,
    ze_command_list_handle_t *Lists, ze_fence_handle_t) {
  std::lock_guard<std::mutex> L(Mutex);
  record("zeCommandQueueExecuteCommandLists count=" + std::to_string(Count));
  SLMC_INJECT("zeCommandQueueExecuteCommandLists");
  if (!Queue)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!Lists)
    return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  for (uint32_t I = 0; I < Count; ++I) {
    ListObj *List = obj<ListObj>(Lists[I]);
    if (!List)
      return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    if (!List->Closed || List->Immediate) {
      record("zeCommandQueueExecuteCommandLists error=list-not-closed");
      return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    }
    for (const Command &C : List->Commands)
      run(C);
  }
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL drvCommandQueueSynchronize(ze_command_queue_handle_t Queue,
                                                  uint64_t Timeout) {
  std::unique_lock<std::mutex> L(Mutex);
  record("zeCommandQueueSynchronize timeout=" + std::to_string(Timeout));
  SLMC_INJECT("zeCommandQueueSynchronize");
  if (!Queue)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!env("SLMC_ZE_HANG").empty()) {
    if (Timeout == UINT64_MAX) {
      record("zeCommandQueueSynchronize hang=refused");
      return ZE_RESULT_ERROR_DEVICE_LOST;
    }
    L.unlock();
    std::this_thread::sleep_for(
        std::chrono::nanoseconds(std::min<uint64_t>(Timeout, 200000000)));
    return ZE_RESULT_NOT_READY;
  }
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL drvCommandListCreate(ze_context_handle_t Context,
                                            ze_device_handle_t Device,
                                            const ze_command_list_desc_t *Desc,
                                            ze_command_list_handle_t *Out) {
  std::lock_guard<std::mutex> L(Mutex);
  if (Desc)
    record("zeCommandListCreate ordinal=" +
           std::to_string(Desc->commandQueueGroupOrdinal));
  SLMC_INJECT("zeCommandListCreate");
  if (!Context || !Device)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!Desc || !Out)
    return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  *Out = handle<ze_command_list_handle_t>(new ListObj);
  ++Live.Lists;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL drvCommandListCreateImmediate(
    ze_context_handle_t Context, ze_device_handle_t Device,
    const ze_command_queue_desc_t *Desc, ze_command_list_handle_t *Out) {
  std::lock_guard<std::mutex> L(Mutex);
  if (Desc)
    record("zeCommandListCreateImmediate ordinal=" +
           std::to_string(Desc->ordinal));
  SLMC_INJECT("zeCommandListCreateImmediate");
  if (!Context || !Device)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!Desc || !Out)
    return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  auto *List = new ListObj;
  List->Immediate = true;
  *Out = handle<ze_command_list_handle_t>(List);
  ++Live.Lists;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL drvCommandListDestroy(ze_command_list_handle_t List) {
  std::lock_guard<std::mutex> L(Mutex);
  record("zeCommandListDestroy");
  SLMC_INJECT("zeCommandListDestroy");
  if (!List)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  delete obj<ListObj>(List);
  --Live.Lists;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL drvCommandListClose(ze_command_list_handle_t List) {
  std::lock_guard<std::mutex> L(Mutex);
  record("zeCommandListClose");
  SLMC_INJECT("zeCommandListClose");
  if (!List)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  obj<ListObj>(List)->Closed = true;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL drvCommandListReset(ze_command_list_handle_t List) {
  std::lock_guard<std::mutex> L(Mutex);
  record("zeCommandListReset");
  SLMC_INJECT("zeCommandListReset");
  if (!List)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  obj<ListObj>(List)->Closed = false;
  obj<ListObj>(List)->Commands.clear();
  return ZE_RESULT_SUCCESS;
}

/// Appends `C` to a regular list or runs it on an immediate one.
ze_result_t append(ze_command_list_handle_t Handle, Command C) {
  ListObj *List = obj<ListObj>(Handle);
  if (List->Immediate) {
    run(C);
    return ZE_RESULT_SUCCESS;
  }
  if (List->Closed) {
    record("append error=list-closed");
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  }
  List->Commands.push_back(std::move(C));
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL drvCommandListAppendLaunchKernel(
    ze_command_list_handle_t List, ze_kernel_handle_t Kernel,
    const ze_group_count_t *Groups, ze_event_handle_t, uint32_t,
    ze_event_handle_t *) {
  std::lock_guard<std::mutex> L(Mutex);
  if (Kernel && Groups)
    record("zeCommandListAppendLaunchKernel kernel=" +
           obj<KernelObj>(Kernel)->Name +
           " groups=" + std::to_string(Groups->groupCountX) + "x" +
           std::to_string(Groups->groupCountY) + "x" +
           std::to_string(Groups->groupCountZ));
  SLMC_INJECT("zeCommandListAppendLaunchKernel");
  if (!List || !Kernel)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!Groups)
    return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  Command C;
  C.K = Command::Launch;
  C.Kernel = obj<KernelObj>(Kernel)->Name;
  return append(List, std::move(C));
}

ze_result_t ZE_APICALL drvCommandListAppendMemoryCopy(
    ze_command_list_handle_t List, void *Dst, const void *Src, size_t Size,
    ze_event_handle_t, uint32_t, ze_event_handle_t *) {
  std::lock_guard<std::mutex> L(Mutex);
  const Allocation *D = findAllocation(Dst), *S = findAllocation(Src);
  record("zeCommandListAppendMemoryCopy size=" + std::to_string(Size) +
         " dst=" + typeName(D ? D->Type : ZE_MEMORY_TYPE_UNKNOWN) +
         " src=" + typeName(S ? S->Type : ZE_MEMORY_TYPE_UNKNOWN));
  SLMC_INJECT("zeCommandListAppendMemoryCopy");
  if (!List)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!Dst || !Src)
    return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  Command C;
  C.K = Command::Copy;
  C.Dst = Dst;
  C.Src = Src;
  C.Size = Size;
  return append(List, std::move(C));
}

ze_result_t ZE_APICALL drvCommandListAppendMemoryFill(
    ze_command_list_handle_t List, void *Dst, const void *Pattern,
    size_t PatternSize, size_t Size, ze_event_handle_t, uint32_t,
    ze_event_handle_t *) {
  std::lock_guard<std::mutex> L(Mutex);
  record("zeCommandListAppendMemoryFill size=" + std::to_string(Size) +
         " pattern=" + (Pattern ? hex(Pattern, PatternSize) : "null"));
  SLMC_INJECT("zeCommandListAppendMemoryFill");
  if (!List)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!Dst || !Pattern)
    return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (PatternSize == 0 || PatternSize > 128)
    return ZE_RESULT_ERROR_INVALID_SIZE;
  Command C;
  C.K = Command::Fill;
  C.Dst = Dst;
  C.Size = Size;
  auto *P = static_cast<const unsigned char *>(Pattern);
  C.Pattern.assign(P, P + PatternSize);
  return append(List, std::move(C));
}

ze_result_t ZE_APICALL drvCommandListAppendBarrier(ze_command_list_handle_t List,
                                                   ze_event_handle_t, uint32_t,
                                                   ze_event_handle_t *) {
  std::lock_guard<std::mutex> L(Mutex);
  record("zeCommandListAppendBarrier");
  SLMC_INJECT("zeCommandListAppendBarrier");
  return List ? ZE_RESULT_SUCCESS : ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
}

// ---- Memory ----------------------------------------------------------------

ze_result_t allocate(const char *Call, ze_memory_type_t Type, size_t Size,
                     size_t Alignment, void **Out) {
  record(std::string(Call) + " size=" + std::to_string(Size) +
         " alignment=" + std::to_string(Alignment));
  SLMC_INJECT(Call);
  if (!Out)
    return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (Size == 0)
    return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
  if (Alignment & (Alignment - 1))
    return ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT;
  size_t Align = std::max<size_t>(Alignment, 64);
  size_t Rounded = (Size + Align - 1) / Align * Align;
  void *P = std::aligned_alloc(Align, Rounded);
  if (!P)
    return ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
  Allocations[reinterpret_cast<uintptr_t>(P)] = Allocation{Size, Type};
  *Out = P;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL drvMemAllocShared(ze_context_handle_t Context,
                                         const ze_device_mem_alloc_desc_t *,
                                         const ze_host_mem_alloc_desc_t *,
                                         size_t Size, size_t Alignment,
                                         ze_device_handle_t, void **Out) {
  std::lock_guard<std::mutex> L(Mutex);
  if (!Context)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return allocate("zeMemAllocShared", ZE_MEMORY_TYPE_SHARED, Size, Alignment,
                  Out);
}

ze_result_t ZE_APICALL drvMemAllocDevice(ze_context_handle_t Context,
                                         const ze_device_mem_alloc_desc_t *,
                                         size_t Size, size_t Alignment,
                                         ze_device_handle_t Device, void **Out) {
  std::lock_guard<std::mutex> L(Mutex);
  if (!Context || !Device)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return allocate("zeMemAllocDevice", ZE_MEMORY_TYPE_DEVICE, Size, Alignment,
                  Out);
}

ze_result_t ZE_APICALL drvMemAllocHost(ze_context_handle_t Context,
                                       const ze_host_mem_alloc_desc_t *,
                                       size_t Size, size_t Alignment,
                                       void **Out) {
  std::lock_guard<std::mutex> L(Mutex);
  if (!Context)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  return allocate("zeMemAllocHost", ZE_MEMORY_TYPE_HOST, Size, Alignment, Out);
}

ze_result_t ZE_APICALL drvMemFree(ze_context_handle_t Context, void *Ptr) {
  std::lock_guard<std::mutex> L(Mutex);
  record("zeMemFree");
  SLMC_INJECT("zeMemFree");
  if (!Context)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  auto It = Allocations.find(reinterpret_cast<uintptr_t>(Ptr));
  if (It == Allocations.end())
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  Allocations.erase(It);
  std::free(Ptr);
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL drvMemGetAllocProperties(
    ze_context_handle_t Context, const void *Ptr,
    ze_memory_allocation_properties_t *Props, ze_device_handle_t *Device) {
  std::lock_guard<std::mutex> L(Mutex);
  SLMC_INJECT("zeMemGetAllocProperties");
  if (!Context)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!Props)
    return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  uintptr_t Base = 0;
  const Allocation *A = findAllocation(Ptr, &Base);
  Props->type = A ? A->Type : ZE_MEMORY_TYPE_UNKNOWN;
  Props->id = A ? Base : 0;
  Props->pageSize = A ? 4096 : 0;
  if (Device)
    *Device = A ? handle<ze_device_handle_t>(&TheDevice) : nullptr;
  return ZE_RESULT_SUCCESS;
}

// ---- Modules and kernels ---------------------------------------------------

ze_result_t ZE_APICALL drvModuleCreate(ze_context_handle_t Context,
                                       ze_device_handle_t Device,
                                       const ze_module_desc_t *Desc,
                                       ze_module_handle_t *Out,
                                       ze_module_build_log_handle_t *Log) {
  std::lock_guard<std::mutex> L(Mutex);
  if (Desc) {
    const char *Format =
        Desc->format == ZE_MODULE_FORMAT_IL_SPIRV ? "il_spirv" : "native";
    record(std::string("zeModuleCreate format=") + Format +
           " size=" + std::to_string(Desc->inputSize) + " bytes=" +
           (Desc->pInputModule && Desc->inputSize <= 4096
                ? hex(Desc->pInputModule, Desc->inputSize)
                : std::string("-")) +
           " flags=\"" + (Desc->pBuildFlags ? Desc->pBuildFlags : "") + "\"" +
           " buildLog=" + (Log ? "requested" : "none"));
  }
  if (Log)
    *Log = nullptr;
  SLMC_INJECT("zeModuleCreate");
  if (!Context || !Device)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!Desc || !Out || !Desc->pInputModule)
    return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (Desc->inputSize == 0)
    return ZE_RESULT_ERROR_INVALID_SIZE;
  const char *Failure = std::getenv("SLMC_ZE_BUILD_LOG");
  if (Log) {
    *Log = handle<ze_module_build_log_handle_t>(
        new BuildLogObj{Failure ? Failure : ""});
    ++Live.BuildLogs;
  }
  if (Failure) {
    *Out = nullptr;
    return ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
  }
  auto *M = new ModuleObj;
  M->Id = NextModuleId++;
  *Out = handle<ze_module_handle_t>(M);
  ++Live.Modules;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL drvModuleDestroy(ze_module_handle_t Module) {
  std::lock_guard<std::mutex> L(Mutex);
  record("zeModuleDestroy");
  SLMC_INJECT("zeModuleDestroy");
  if (!Module)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  delete obj<ModuleObj>(Module);
  --Live.Modules;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL drvModuleBuildLogGetString(
    ze_module_build_log_handle_t Log, size_t *Size, char *Text) {
  std::lock_guard<std::mutex> L(Mutex);
  record(std::string("zeModuleBuildLogGetString buffer=") +
         (Text ? std::to_string(Size ? *Size : 0) : std::string("null")));
  SLMC_INJECT("zeModuleBuildLogGetString");
  if (!Log)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!Size)
    return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  const std::string &S = obj<BuildLogObj>(Log)->Text;
  if (!Text) {
    *Size = S.size() + 1;
    return ZE_RESULT_SUCCESS;
  }
  if (*Size == 0)
    return ZE_RESULT_ERROR_INVALID_SIZE;
  size_t N = std::min(*Size - 1, S.size());
  std::memcpy(Text, S.data(), N);
  Text[N] = '\0';
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL drvModuleBuildLogDestroy(ze_module_build_log_handle_t Log) {
  std::lock_guard<std::mutex> L(Mutex);
  record("zeModuleBuildLogDestroy");
  SLMC_INJECT("zeModuleBuildLogDestroy");
  if (!Log)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  delete obj<BuildLogObj>(Log);
  --Live.BuildLogs;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL drvKernelCreate(ze_module_handle_t Module,
                                       const ze_kernel_desc_t *Desc,
                                       ze_kernel_handle_t *Out) {
  std::lock_guard<std::mutex> L(Mutex);
  std::string Name = Desc && Desc->pKernelName ? Desc->pKernelName : "";
  record("zeKernelCreate name=" + Name);
  SLMC_INJECT("zeKernelCreate");
  if (!Module)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (!Desc || !Desc->pKernelName || !Out)
    return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  KernelObj K;
  if (!findKernel(Name, K))
    return ZE_RESULT_ERROR_INVALID_KERNEL_NAME;
  *Out = handle<ze_kernel_handle_t>(new KernelObj(K));
  ++Live.Kernels;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL drvKernelDestroy(ze_kernel_handle_t Kernel) {
  std::lock_guard<std::mutex> L(Mutex);
  if (!Kernel)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  record("zeKernelDestroy kernel=" + obj<KernelObj>(Kernel)->Name);
  SLMC_INJECT("zeKernelDestroy");
  delete obj<KernelObj>(Kernel);
  --Live.Kernels;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL drvKernelGetProperties(ze_kernel_handle_t Kernel,
                                              ze_kernel_properties_t *P) {
  std::lock_guard<std::mutex> L(Mutex);
  if (!Kernel)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  const KernelObj &K = *obj<KernelObj>(Kernel);
  record("zeKernelGetProperties kernel=" + K.Name +
         " numKernelArgs=" + std::to_string(K.NumArgs) +
         " localMemSize=" + std::to_string(K.LocalMem));
  SLMC_INJECT("zeKernelGetProperties");
  if (!P)
    return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  P->numKernelArgs = K.NumArgs;
  P->requiredGroupSizeX = K.Required[0];
  P->requiredGroupSizeY = K.Required[1];
  P->requiredGroupSizeZ = K.Required[2];
  P->requiredNumSubGroups = 0;
  P->requiredSubgroupSize = 0;
  P->maxSubgroupSize = 32;
  P->maxNumSubgroups = 64;
  P->localMemSize = K.LocalMem;
  P->privateMemSize = 0;
  P->spillMemSize = 0;
  std::memset(P->uuid.kid, 0, sizeof(P->uuid.kid));
  std::memset(P->uuid.mid, 0, sizeof(P->uuid.mid));
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL drvKernelSetGroupSize(ze_kernel_handle_t Kernel,
                                             uint32_t X, uint32_t Y,
                                             uint32_t Z) {
  std::lock_guard<std::mutex> L(Mutex);
  if (!Kernel)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  record("zeKernelSetGroupSize kernel=" + obj<KernelObj>(Kernel)->Name +
         " size=" + std::to_string(X) + "x" + std::to_string(Y) + "x" +
         std::to_string(Z));
  SLMC_INJECT("zeKernelSetGroupSize");
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL drvKernelSetArgumentValue(ze_kernel_handle_t Kernel,
                                                 uint32_t Index, size_t Size,
                                                 const void *Value) {
  std::lock_guard<std::mutex> L(Mutex);
  if (!Kernel)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  const KernelObj &K = *obj<KernelObj>(Kernel);
  record("zeKernelSetArgumentValue kernel=" + K.Name +
         " index=" + std::to_string(Index) + " size=" + std::to_string(Size) +
         " value=" +
         (Value ? hex(Value, std::min<size_t>(Size, 64)) : std::string("null")));
  SLMC_INJECT("zeKernelSetArgumentValue");
  if (!std::getenv("SLMC_ZE_KERNELS"))
    return ZE_RESULT_SUCCESS;
  if (Index >= K.NumArgs)
    return ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX;
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL drvKernelSetIndirectAccess(
    ze_kernel_handle_t Kernel, ze_kernel_indirect_access_flags_t Flags) {
  std::lock_guard<std::mutex> L(Mutex);
  if (!Kernel)
    return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  record("zeKernelSetIndirectAccess kernel=" + obj<KernelObj>(Kernel)->Name +
         " flags=" + std::to_string(Flags));
  SLMC_INJECT("zeKernelSetIndirectAccess");
  return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL drvKernelSuggestGroupSize(ze_kernel_handle_t, uint32_t,
                                                 uint32_t, uint32_t,
                                                 uint32_t *X, uint32_t *Y,
                                                 uint32_t *Z) {
  std::lock_guard<std::mutex> L(Mutex);
  SLMC_INJECT("zeKernelSuggestGroupSize");
  if (!X || !Y || !Z)
    return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  *X = 64;
  *Y = *Z = 1;
  return ZE_RESULT_SUCCESS;
}

// ---- Tables ----------------------------------------------------------------

// The entry points this driver implements; every other table stays empty
// (null entries, which the loader reports as unsupported).
template <class Table> void fill(Table *) {}

void fill(ze_global_dditable_t *T) { T->pfnInit = drvInit; }

void fill(ze_driver_dditable_t *T) {
  T->pfnGet = drvDriverGet;
  T->pfnGetApiVersion = drvDriverGetApiVersion;
  T->pfnGetProperties = drvDriverGetProperties;
  T->pfnGetIpcProperties = drvDriverGetIpcProperties;
  T->pfnGetExtensionProperties = drvDriverGetExtensionProperties;
}

void fill(ze_device_dditable_t *T) {
  T->pfnGet = drvDeviceGet;
  T->pfnGetSubDevices = drvDeviceGetSubDevices;
  T->pfnGetProperties = drvDeviceGetProperties;
  T->pfnGetComputeProperties = drvDeviceGetComputeProperties;
  T->pfnGetModuleProperties = drvDeviceGetModuleProperties;
  T->pfnGetCommandQueueGroupProperties = drvDeviceGetCommandQueueGroupProperties;
  T->pfnGetMemoryProperties = drvDeviceGetMemoryProperties;
}

void fill(ze_context_dditable_t *T) {
  T->pfnCreate = drvContextCreate;
  T->pfnDestroy = drvContextDestroy;
}

void fill(ze_command_queue_dditable_t *T) {
  T->pfnCreate = drvCommandQueueCreate;
  T->pfnDestroy = drvCommandQueueDestroy;
  T->pfnExecuteCommandLists = drvCommandQueueExecuteCommandLists;
  T->pfnSynchronize = drvCommandQueueSynchronize;
}

void fill(ze_command_list_dditable_t *T) {
  T->pfnCreate = drvCommandListCreate;
  T->pfnCreateImmediate = drvCommandListCreateImmediate;
  T->pfnDestroy = drvCommandListDestroy;
  T->pfnClose = drvCommandListClose;
  T->pfnReset = drvCommandListReset;
  T->pfnAppendBarrier = drvCommandListAppendBarrier;
  T->pfnAppendMemoryCopy = drvCommandListAppendMemoryCopy;
  T->pfnAppendMemoryFill = drvCommandListAppendMemoryFill;
  T->pfnAppendLaunchKernel = drvCommandListAppendLaunchKernel;
}

void fill(ze_mem_dditable_t *T) {
  T->pfnAllocShared = drvMemAllocShared;
  T->pfnAllocDevice = drvMemAllocDevice;
  T->pfnAllocHost = drvMemAllocHost;
  T->pfnFree = drvMemFree;
  T->pfnGetAllocProperties = drvMemGetAllocProperties;
}

void fill(ze_module_dditable_t *T) {
  T->pfnCreate = drvModuleCreate;
  T->pfnDestroy = drvModuleDestroy;
}

void fill(ze_module_build_log_dditable_t *T) {
  T->pfnDestroy = drvModuleBuildLogDestroy;
  T->pfnGetString = drvModuleBuildLogGetString;
}

void fill(ze_kernel_dditable_t *T) {
  T->pfnCreate = drvKernelCreate;
  T->pfnDestroy = drvKernelDestroy;
  T->pfnSetGroupSize = drvKernelSetGroupSize;
  T->pfnSuggestGroupSize = drvKernelSuggestGroupSize;
  T->pfnSetArgumentValue = drvKernelSetArgumentValue;
  T->pfnSetIndirectAccess = drvKernelSetIndirectAccess;
  T->pfnGetProperties = drvKernelGetProperties;
}

template <class Table> ze_result_t table(ze_api_version_t V, Table *T) {
  if (!T)
    return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (ZE_MAJOR_VERSION(V) != ZE_MAJOR_VERSION(ZE_API_VERSION_CURRENT))
    return ZE_RESULT_ERROR_UNSUPPORTED_VERSION;
  *T = Table{};
  fill(T);
  return ZE_RESULT_SUCCESS;
}

} // namespace

// ---- Queries for fault-injection tests -------------------------------------

/// Copies `Text` into `Buf` (NUL-terminated, truncated to `Size`) and returns
/// its full length, like snprintf.
static size_t copyOut(const std::string &Text, char *Buf, size_t Size) {
  if (Buf && Size)
    std::snprintf(Buf, Size, "%s", Text.c_str());
  return Text.size();
}

/// "name=count,..." for every entry point called so far, in name order.
extern "C" ZE_DLLEXPORT size_t slmcFakeZeCalls(char *Buf, size_t Size) {
  std::lock_guard<std::mutex> L(Mutex);
  std::string Text;
  for (const auto &[Name, Count] : CallCounts)
    Text += (Text.empty() ? "" : ",") + Name + "=" + std::to_string(Count);
  return copyOut(Text, Buf, Size);
}

/// "contexts=N queues=N lists=N modules=N buildlogs=N kernels=N
/// allocations=N": the objects created and not destroyed.
extern "C" ZE_DLLEXPORT size_t slmcFakeZeLiveObjects(char *Buf, size_t Size) {
  std::lock_guard<std::mutex> L(Mutex);
  std::string Text = "contexts=" + std::to_string(Live.Contexts) +
                     " queues=" + std::to_string(Live.Queues) +
                     " lists=" + std::to_string(Live.Lists) +
                     " modules=" + std::to_string(Live.Modules) +
                     " buildlogs=" + std::to_string(Live.BuildLogs) +
                     " kernels=" + std::to_string(Live.Kernels) +
                     " allocations=" + std::to_string(Allocations.size());
  return copyOut(Text, Buf, Size);
}

// Every table getter the loader (1.8) asks a driver for, ze, zet and zes.
#define SLMC_TABLE(Getter, Table)                                              \
  extern "C" ZE_DLLEXPORT ze_result_t ZE_APICALL Getter(ze_api_version_t V,    \
                                                        Table *T) {            \
    return table(V, T);                                                        \
  }

SLMC_TABLE(zeGetGlobalProcAddrTable, ze_global_dditable_t)
SLMC_TABLE(zeGetDriverProcAddrTable, ze_driver_dditable_t)
SLMC_TABLE(zeGetDeviceProcAddrTable, ze_device_dditable_t)
SLMC_TABLE(zeGetContextProcAddrTable, ze_context_dditable_t)
SLMC_TABLE(zeGetCommandQueueProcAddrTable, ze_command_queue_dditable_t)
SLMC_TABLE(zeGetCommandListProcAddrTable, ze_command_list_dditable_t)
SLMC_TABLE(zeGetMemProcAddrTable, ze_mem_dditable_t)
SLMC_TABLE(zeGetModuleProcAddrTable, ze_module_dditable_t)
SLMC_TABLE(zeGetModuleBuildLogProcAddrTable, ze_module_build_log_dditable_t)
SLMC_TABLE(zeGetKernelProcAddrTable, ze_kernel_dditable_t)
SLMC_TABLE(zeGetDeviceExpProcAddrTable, ze_device_exp_dditable_t)
SLMC_TABLE(zeGetImageProcAddrTable, ze_image_dditable_t)
SLMC_TABLE(zeGetImageExpProcAddrTable, ze_image_exp_dditable_t)
SLMC_TABLE(zeGetFenceProcAddrTable, ze_fence_dditable_t)
SLMC_TABLE(zeGetEventPoolProcAddrTable, ze_event_pool_dditable_t)
SLMC_TABLE(zeGetEventProcAddrTable, ze_event_dditable_t)
SLMC_TABLE(zeGetEventExpProcAddrTable, ze_event_exp_dditable_t)
SLMC_TABLE(zeGetKernelExpProcAddrTable, ze_kernel_exp_dditable_t)
SLMC_TABLE(zeGetSamplerProcAddrTable, ze_sampler_dditable_t)
SLMC_TABLE(zeGetPhysicalMemProcAddrTable, ze_physical_mem_dditable_t)
SLMC_TABLE(zeGetVirtualMemProcAddrTable, ze_virtual_mem_dditable_t)
SLMC_TABLE(zeGetFabricVertexExpProcAddrTable, ze_fabric_vertex_exp_dditable_t)
SLMC_TABLE(zeGetFabricEdgeExpProcAddrTable, ze_fabric_edge_exp_dditable_t)
SLMC_TABLE(zetGetDeviceProcAddrTable, zet_device_dditable_t)
SLMC_TABLE(zetGetContextProcAddrTable, zet_context_dditable_t)
SLMC_TABLE(zetGetCommandListProcAddrTable, zet_command_list_dditable_t)
SLMC_TABLE(zetGetModuleProcAddrTable, zet_module_dditable_t)
SLMC_TABLE(zetGetKernelProcAddrTable, zet_kernel_dditable_t)
SLMC_TABLE(zetGetMetricGroupProcAddrTable, zet_metric_group_dditable_t)
SLMC_TABLE(zetGetMetricGroupExpProcAddrTable, zet_metric_group_exp_dditable_t)
SLMC_TABLE(zetGetMetricProcAddrTable, zet_metric_dditable_t)
SLMC_TABLE(zetGetMetricStreamerProcAddrTable, zet_metric_streamer_dditable_t)
SLMC_TABLE(zetGetMetricQueryPoolProcAddrTable, zet_metric_query_pool_dditable_t)
SLMC_TABLE(zetGetMetricQueryProcAddrTable, zet_metric_query_dditable_t)
SLMC_TABLE(zetGetTracerExpProcAddrTable, zet_tracer_exp_dditable_t)
SLMC_TABLE(zetGetDebugProcAddrTable, zet_debug_dditable_t)
SLMC_TABLE(zesGetDriverProcAddrTable, zes_driver_dditable_t)
SLMC_TABLE(zesGetDeviceProcAddrTable, zes_device_dditable_t)
SLMC_TABLE(zesGetSchedulerProcAddrTable, zes_scheduler_dditable_t)
SLMC_TABLE(zesGetPerformanceFactorProcAddrTable, zes_performance_factor_dditable_t)
SLMC_TABLE(zesGetPowerProcAddrTable, zes_power_dditable_t)
SLMC_TABLE(zesGetFrequencyProcAddrTable, zes_frequency_dditable_t)
SLMC_TABLE(zesGetEngineProcAddrTable, zes_engine_dditable_t)
SLMC_TABLE(zesGetStandbyProcAddrTable, zes_standby_dditable_t)
SLMC_TABLE(zesGetFirmwareProcAddrTable, zes_firmware_dditable_t)
SLMC_TABLE(zesGetMemoryProcAddrTable, zes_memory_dditable_t)
SLMC_TABLE(zesGetFabricPortProcAddrTable, zes_fabric_port_dditable_t)
SLMC_TABLE(zesGetTemperatureProcAddrTable, zes_temperature_dditable_t)
SLMC_TABLE(zesGetPsuProcAddrTable, zes_psu_dditable_t)
SLMC_TABLE(zesGetFanProcAddrTable, zes_fan_dditable_t)
SLMC_TABLE(zesGetLedProcAddrTable, zes_led_dditable_t)
SLMC_TABLE(zesGetRasProcAddrTable, zes_ras_dditable_t)
SLMC_TABLE(zesGetDiagnosticsProcAddrTable, zes_diagnostics_dditable_t)
