//===- LevelZeroBackend.cpp - libslmrt on oneAPI Level Zero ---------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Runs the SPIR-V image that slmc++ embeds on a GPU through the Level Zero
// loader. libze_loader.so.1 is opened with dlopen, so running the runtime
// never requires it; the Level Zero headers are only needed to build this
// file (without them the factory reports why the backend is missing).
//
// Design:
//  * The first driver that has a GPU device, and the first such device.
//  * One context, one command queue on the first queue group with the
//    COMPUTE flag, one regular command list that is reset and reused.
//  * Launches are asynchronous, with at most one submission in flight: the
//    next launch, copy, fill, free or synchronize first waits for the previous
//    submission (zeCommandQueueSynchronize). This keeps the in-order
//    semantics of the C API without relying on ordering between separately
//    submitted command lists, and lets the kernel run while the host carries
//    on. A failure of the in-flight work is reported by whichever call waits
//    for it (SLMC_ERROR_LAUNCH_FAILURE, naming the kernel).
//  * Every wait is bounded by $SLMC_TIMEOUT_MS (default: no limit). When it
//    elapses the call fails; the work stays in flight and the next call waits
//    for it again, so the runtime never hangs and never reuses a busy list.
//  * A module per FatBinary, built from its SPIR-V image on first use; the
//    result (module or build failure with the build log) is cached, and so is
//    every kernel created from it. A failure that is not the image's fault
//    (out of memory, a lost device) is not cached: the next use builds
//    again. Kernels are allowed indirect access to
//    host, device and shared allocations, since kernel functors carry
//    pointers inside by-value arguments.
//
// Group-local memory and the kernel ABI:
//  * Static group-local memory is what zeKernelGetProperties reports as
//    localMemSize; static + dynamic bytes must fit in the device's
//    maxSharedLocalMemory (SLMC_ERROR_RESOURCE_LIMIT otherwise).
//  * Dynamic group-local memory: a kernel that uses it has ONE MORE parameter
//    than the launch passes in slmc_launch_params::args - a trailing pointer
//    to local (Workgroup) memory. The runtime sets it with
//    zeKernelSetArgumentValue(kernel, num_args, dynamic_group_memory, nullptr),
//    which is how Level Zero sizes a local-memory argument. It is set on every
//    launch of such a kernel, with 0 bytes when the launch asks for none, so
//    a size never leaks from one launch into the next. A launch with dynamic
//    bytes of a kernel without that parameter fails (SLMC_ERROR_INVALID_VALUE).
//  * Every other argument i is set with
//    zeKernelSetArgumentValue(kernel, i, arg_sizes[i], args[i]): args[i]
//    points at the value (for a buffer, at the device pointer).
//  * Unless the image lists the kernel's parameters as pieces of the
//    launch's arguments (string "slmc.args.<kernel>", FatBinary.h): slmc++
//    splits a kernel's by-value argument object into the fields it reads,
//    so that IGC sees pointer parameters. Parameter j is then bytes
//    [offset, offset + size) of argument a, and the trailing local-memory
//    parameter, if any, follows the pieces.
//
//===----------------------------------------------------------------------===//

#include "Backend.h"
#include "LaunchLimits.h"

#if __has_include(<level_zero/ze_api.h>)
#define SLMC_HAVE_LEVEL_ZERO_HEADERS 1
#include <level_zero/loader/ze_loader.h>
#include <level_zero/ze_api.h>
#else
#define SLMC_HAVE_LEVEL_ZERO_HEADERS 0
#endif

#if SLMC_HAVE_LEVEL_ZERO_HEADERS

#include <dlfcn.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace slmc::rt {
namespace {

/// Entry points of the loader, resolved by name.
struct LoaderApi {
  ze_result_t (*zeInit)(ze_init_flags_t) = nullptr;
  ze_result_t (*zeDriverGet)(uint32_t *, ze_driver_handle_t *) = nullptr;
  ze_result_t (*zeDeviceGet)(ze_driver_handle_t, uint32_t *,
                             ze_device_handle_t *) = nullptr;
  ze_result_t (*zeDeviceGetProperties)(ze_device_handle_t,
                                       ze_device_properties_t *) = nullptr;
  ze_result_t (*zeDeviceGetComputeProperties)(
      ze_device_handle_t, ze_device_compute_properties_t *) = nullptr;
  ze_result_t (*zeDeviceGetModuleProperties)(
      ze_device_handle_t, ze_device_module_properties_t *) = nullptr;
  ze_result_t (*zeDeviceGetMemoryProperties)(
      ze_device_handle_t, uint32_t *, ze_device_memory_properties_t *) = nullptr;
  ze_result_t (*zeDeviceGetCommandQueueGroupProperties)(
      ze_device_handle_t, uint32_t *,
      ze_command_queue_group_properties_t *) = nullptr;
  ze_result_t (*zeContextCreate)(ze_driver_handle_t, const ze_context_desc_t *,
                                 ze_context_handle_t *) = nullptr;
  ze_result_t (*zeContextDestroy)(ze_context_handle_t) = nullptr;
  ze_result_t (*zeCommandQueueCreate)(ze_context_handle_t, ze_device_handle_t,
                                      const ze_command_queue_desc_t *,
                                      ze_command_queue_handle_t *) = nullptr;
  ze_result_t (*zeCommandQueueDestroy)(ze_command_queue_handle_t) = nullptr;
  ze_result_t (*zeCommandQueueExecuteCommandLists)(
      ze_command_queue_handle_t, uint32_t, ze_command_list_handle_t *,
      ze_fence_handle_t) = nullptr;
  ze_result_t (*zeCommandQueueSynchronize)(ze_command_queue_handle_t,
                                           uint64_t) = nullptr;
  ze_result_t (*zeCommandListCreate)(ze_context_handle_t, ze_device_handle_t,
                                     const ze_command_list_desc_t *,
                                     ze_command_list_handle_t *) = nullptr;
  ze_result_t (*zeCommandListDestroy)(ze_command_list_handle_t) = nullptr;
  ze_result_t (*zeCommandListClose)(ze_command_list_handle_t) = nullptr;
  ze_result_t (*zeCommandListReset)(ze_command_list_handle_t) = nullptr;
  ze_result_t (*zeCommandListAppendLaunchKernel)(
      ze_command_list_handle_t, ze_kernel_handle_t, const ze_group_count_t *,
      ze_event_handle_t, uint32_t, ze_event_handle_t *) = nullptr;
  ze_result_t (*zeCommandListAppendMemoryCopy)(ze_command_list_handle_t,
                                               void *, const void *, size_t,
                                               ze_event_handle_t, uint32_t,
                                               ze_event_handle_t *) = nullptr;
  ze_result_t (*zeCommandListAppendMemoryFill)(ze_command_list_handle_t,
                                               void *, const void *, size_t,
                                               size_t, ze_event_handle_t,
                                               uint32_t,
                                               ze_event_handle_t *) = nullptr;
  ze_result_t (*zeMemAllocShared)(ze_context_handle_t,
                                  const ze_device_mem_alloc_desc_t *,
                                  const ze_host_mem_alloc_desc_t *, size_t,
                                  size_t, ze_device_handle_t,
                                  void **) = nullptr;
  ze_result_t (*zeMemAllocDevice)(ze_context_handle_t,
                                  const ze_device_mem_alloc_desc_t *, size_t,
                                  size_t, ze_device_handle_t,
                                  void **) = nullptr;
  ze_result_t (*zeMemFree)(ze_context_handle_t, void *) = nullptr;
  ze_result_t (*zeMemGetAllocProperties)(ze_context_handle_t, const void *,
                                         ze_memory_allocation_properties_t *,
                                         ze_device_handle_t *) = nullptr;
  ze_result_t (*zeModuleCreate)(ze_context_handle_t, ze_device_handle_t,
                                const ze_module_desc_t *, ze_module_handle_t *,
                                ze_module_build_log_handle_t *) = nullptr;
  ze_result_t (*zeModuleDestroy)(ze_module_handle_t) = nullptr;
  ze_result_t (*zeModuleBuildLogGetString)(ze_module_build_log_handle_t,
                                           size_t *, char *) = nullptr;
  ze_result_t (*zeModuleBuildLogDestroy)(ze_module_build_log_handle_t) = nullptr;
  ze_result_t (*zeKernelCreate)(ze_module_handle_t, const ze_kernel_desc_t *,
                                ze_kernel_handle_t *) = nullptr;
  ze_result_t (*zeKernelDestroy)(ze_kernel_handle_t) = nullptr;
  ze_result_t (*zeKernelGetProperties)(ze_kernel_handle_t,
                                       ze_kernel_properties_t *) = nullptr;
  ze_result_t (*zeKernelSetIndirectAccess)(
      ze_kernel_handle_t, ze_kernel_indirect_access_flags_t) = nullptr;
  ze_result_t (*zeKernelSetGroupSize)(ze_kernel_handle_t, uint32_t, uint32_t,
                                      uint32_t) = nullptr;
  ze_result_t (*zeKernelSetArgumentValue)(ze_kernel_handle_t, uint32_t, size_t,
                                          const void *) = nullptr;
  // Optional (loader 1.6 and later).
  ze_result_t (*zelLoaderTranslateHandle)(zel_handle_type_t, void *,
                                          void **) = nullptr;

  bool load(std::string &WhyNot);
};

template <typename Fn>
void resolve(void *Lib, const char *Symbol, Fn &Out, std::string &Missing) {
  Out = reinterpret_cast<Fn>(dlsym(Lib, Symbol));
  if (!Out) {
    if (!Missing.empty())
      Missing += ", ";
    Missing += Symbol;
  }
}

bool LoaderApi::load(std::string &WhyNot) {
  void *Lib = dlopen("libze_loader.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!Lib) {
    const char *Err = dlerror();
    WhyNot = "libze_loader.so.1 not found";
    if (Err && *Err)
      WhyNot += std::string(" (") + Err + ")";
    return false;
  }
  std::string Missing;
#define SLMC_ZE_RESOLVE(Name) resolve(Lib, #Name, Name, Missing)
  SLMC_ZE_RESOLVE(zeInit);
  SLMC_ZE_RESOLVE(zeDriverGet);
  SLMC_ZE_RESOLVE(zeDeviceGet);
  SLMC_ZE_RESOLVE(zeDeviceGetProperties);
  SLMC_ZE_RESOLVE(zeDeviceGetComputeProperties);
  SLMC_ZE_RESOLVE(zeDeviceGetModuleProperties);
  SLMC_ZE_RESOLVE(zeDeviceGetMemoryProperties);
  SLMC_ZE_RESOLVE(zeDeviceGetCommandQueueGroupProperties);
  SLMC_ZE_RESOLVE(zeContextCreate);
  SLMC_ZE_RESOLVE(zeContextDestroy);
  SLMC_ZE_RESOLVE(zeCommandQueueCreate);
  SLMC_ZE_RESOLVE(zeCommandQueueDestroy);
  SLMC_ZE_RESOLVE(zeCommandQueueExecuteCommandLists);
  SLMC_ZE_RESOLVE(zeCommandQueueSynchronize);
  SLMC_ZE_RESOLVE(zeCommandListCreate);
  SLMC_ZE_RESOLVE(zeCommandListDestroy);
  SLMC_ZE_RESOLVE(zeCommandListClose);
  SLMC_ZE_RESOLVE(zeCommandListReset);
  SLMC_ZE_RESOLVE(zeCommandListAppendLaunchKernel);
  SLMC_ZE_RESOLVE(zeCommandListAppendMemoryCopy);
  SLMC_ZE_RESOLVE(zeCommandListAppendMemoryFill);
  SLMC_ZE_RESOLVE(zeMemAllocShared);
  SLMC_ZE_RESOLVE(zeMemAllocDevice);
  SLMC_ZE_RESOLVE(zeMemFree);
  SLMC_ZE_RESOLVE(zeMemGetAllocProperties);
  SLMC_ZE_RESOLVE(zeModuleCreate);
  SLMC_ZE_RESOLVE(zeModuleDestroy);
  SLMC_ZE_RESOLVE(zeModuleBuildLogGetString);
  SLMC_ZE_RESOLVE(zeModuleBuildLogDestroy);
  SLMC_ZE_RESOLVE(zeKernelCreate);
  SLMC_ZE_RESOLVE(zeKernelDestroy);
  SLMC_ZE_RESOLVE(zeKernelGetProperties);
  SLMC_ZE_RESOLVE(zeKernelSetIndirectAccess);
  SLMC_ZE_RESOLVE(zeKernelSetGroupSize);
  SLMC_ZE_RESOLVE(zeKernelSetArgumentValue);
#undef SLMC_ZE_RESOLVE
  std::string Optional;
  resolve(Lib, "zelLoaderTranslateHandle", zelLoaderTranslateHandle, Optional);
  if (!Missing.empty()) {
    WhyNot = "libze_loader.so.1 lacks " + Missing;
    return false;
  }
  return true;
}

/// "ZE_RESULT_ERROR_DEVICE_LOST", or the value in hex for codes this file
/// does not know.
std::string resultName(ze_result_t R) {
  switch (R) {
#define SLMC_ZE_CASE(Name)                                                     \
  case Name:                                                                   \
    return #Name;
    SLMC_ZE_CASE(ZE_RESULT_SUCCESS)
    SLMC_ZE_CASE(ZE_RESULT_NOT_READY)
    SLMC_ZE_CASE(ZE_RESULT_ERROR_DEVICE_LOST)
    SLMC_ZE_CASE(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY)
    SLMC_ZE_CASE(ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY)
    SLMC_ZE_CASE(ZE_RESULT_ERROR_MODULE_BUILD_FAILURE)
    SLMC_ZE_CASE(ZE_RESULT_ERROR_MODULE_LINK_FAILURE)
    SLMC_ZE_CASE(ZE_RESULT_ERROR_DEVICE_REQUIRES_RESET)
    SLMC_ZE_CASE(ZE_RESULT_ERROR_DEVICE_IN_LOW_POWER_STATE)
    SLMC_ZE_CASE(ZE_RESULT_ERROR_INSUFFICIENT_PERMISSIONS)
    SLMC_ZE_CASE(ZE_RESULT_ERROR_NOT_AVAILABLE)
    SLMC_ZE_CASE(ZE_RESULT_ERROR_DEPENDENCY_UNAVAILABLE)
    SLMC_ZE_CASE(ZE_RESULT_ERROR_UNINITIALIZED)
    SLMC_ZE_CASE(ZE_RESULT_ERROR_UNSUPPORTED_VERSION)
    SLMC_ZE_CASE(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE)
    SLMC_ZE_CASE(ZE_RESULT_ERROR_INVALID_ARGUMENT)
    SLMC_ZE_CASE(ZE_RESULT_ERROR_INVALID_NULL_HANDLE)
    SLMC_ZE_CASE(ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE)
    SLMC_ZE_CASE(ZE_RESULT_ERROR_INVALID_NULL_POINTER)
    SLMC_ZE_CASE(ZE_RESULT_ERROR_INVALID_SIZE)
    SLMC_ZE_CASE(ZE_RESULT_ERROR_UNSUPPORTED_SIZE)
    SLMC_ZE_CASE(ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT)
    SLMC_ZE_CASE(ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT)
    SLMC_ZE_CASE(ZE_RESULT_ERROR_INVALID_ENUMERATION)
    SLMC_ZE_CASE(ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION)
    SLMC_ZE_CASE(ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT)
    SLMC_ZE_CASE(ZE_RESULT_ERROR_INVALID_NATIVE_BINARY)
    SLMC_ZE_CASE(ZE_RESULT_ERROR_INVALID_GLOBAL_NAME)
    SLMC_ZE_CASE(ZE_RESULT_ERROR_INVALID_KERNEL_NAME)
    SLMC_ZE_CASE(ZE_RESULT_ERROR_INVALID_FUNCTION_NAME)
    SLMC_ZE_CASE(ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION)
    SLMC_ZE_CASE(ZE_RESULT_ERROR_INVALID_GLOBAL_WIDTH_DIMENSION)
    SLMC_ZE_CASE(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX)
    SLMC_ZE_CASE(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE)
    SLMC_ZE_CASE(ZE_RESULT_ERROR_INVALID_KERNEL_ATTRIBUTE_VALUE)
    SLMC_ZE_CASE(ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED)
    SLMC_ZE_CASE(ZE_RESULT_ERROR_INVALID_COMMAND_LIST_TYPE)
    SLMC_ZE_CASE(ZE_RESULT_ERROR_OVERLAPPING_REGIONS)
    SLMC_ZE_CASE(ZE_RESULT_ERROR_UNKNOWN)
#undef SLMC_ZE_CASE
  default:
    break;
  }
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "0x%08x", static_cast<unsigned>(R));
  return Buf;
}

/// "zeXxx failed: ZE_RESULT_..."
std::string describe(const char *Call, ze_result_t R) {
  return std::string(Call) + " failed: " + resultName(R);
}

bool isOutOfMemory(ze_result_t R) {
  return R == ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY ||
         R == ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
}

/// Whether a failed zeModuleCreate rejected the image itself, so that trying
/// again can only fail the same way. Anything else (out of memory, a lost
/// device, an unknown error) may pass and is not remembered.
bool rejectsImage(ze_result_t R) {
  return R == ZE_RESULT_ERROR_MODULE_BUILD_FAILURE ||
         R == ZE_RESULT_ERROR_MODULE_LINK_FAILURE ||
         R == ZE_RESULT_ERROR_INVALID_NATIVE_BINARY ||
         R == ZE_RESULT_ERROR_UNSUPPORTED_VERSION ||
         R == ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
}

/// The process-wide loader table: loaded and initialised once.
const LoaderApi *loader(std::string &WhyNot) {
  static LoaderApi Api;
  static std::string Failure;
  static bool Ok = [] {
    if (!Api.load(Failure))
      return false;
    if (ze_result_t R = Api.zeInit(ZE_INIT_FLAG_GPU_ONLY);
        R != ZE_RESULT_SUCCESS) {
      Failure = describe("zeInit", R) +
                (R == ZE_RESULT_ERROR_UNINITIALIZED
                     ? " (no Level Zero driver could be loaded or initialised)"
                     : "");
      return false;
    }
    return true;
  }();
  if (!Ok) {
    WhyNot = Failure;
    return nullptr;
  }
  return &Api;
}


/// "1.4" from a ze_api_version_t-style packed version.
std::string versionStr(uint32_t V) {
  return std::to_string(ZE_MAJOR_VERSION(V)) + "." +
         std::to_string(ZE_MINOR_VERSION(V));
}

/// Reads $SLMC_TIMEOUT_MS. Unset or empty: wait without limit.
bool readTimeout(uint64_t &Nanoseconds, uint64_t &Milliseconds,
                 std::string &WhyNot) {
  Nanoseconds = std::numeric_limits<uint64_t>::max();
  Milliseconds = 0;
  const char *Env = std::getenv("SLMC_TIMEOUT_MS");
  if (!Env || !*Env)
    return true;
  char *End = nullptr;
  errno = 0;
  unsigned long long V = std::strtoull(Env, &End, 10);
  if (errno || *End || V == 0 || Env[0] == '-') {
    WhyNot = std::string("SLMC_TIMEOUT_MS=") + Env +
             " is not a positive number of milliseconds";
    return false;
  }
  Milliseconds = V;
  constexpr uint64_t PerMs = 1000000;
  Nanoseconds = V > std::numeric_limits<uint64_t>::max() / PerMs
                    ? std::numeric_limits<uint64_t>::max()
                    : V * PerMs;
  return true;
}

class LevelZeroBackend final : public Backend {
public:
  LevelZeroBackend(const LoaderApi &Api, ze_driver_handle_t Drv,
                   ze_device_handle_t Dev)
      : Ze(Api), Driver(Drv), Device(Dev) {}
  ~LevelZeroBackend() override;

  /// Fills the device description and creates context, queue and list.
  Status init(uint64_t TimeoutNs, uint64_t TimeoutMs);

  slmc_backend kind() const override { return SLMC_BACKEND_LEVEL_ZERO; }
  const slmc_device_info &info() const override { return Info; }

  Status allocShared(void **Ptr, size_t Bytes) override;
  Status allocDevice(void **Ptr, size_t Bytes) override;
  Status free(void *Ptr) override;
  Status memcpy(void *Dst, const void *Src, size_t Bytes) override;
  Status memset(void *Dst, int Value, size_t Bytes) override;
  Status synchronize() override;
  Status launch(const LaunchRequest &Request) override;
  Status kernelGroupMemory(const KernelRecord &Kernel, size_t &Bytes) override;

private:
  struct Kernel {
    ze_kernel_handle_t Handle = nullptr;
    size_t StaticLocal = 0;      // ze_kernel_properties_t::localMemSize
    uint32_t NumParams = 0;      // ze_kernel_properties_t::numKernelArgs
    slmc_dim3 RequiredGroup{};   // reqd_work_group_size, 0 if none
    // The kernel's parameters as pieces of the launch's arguments (its
    // argument object split into fields by slmc++), when the image says so.
    bool Split = false;
    std::vector<ArgumentPiece> Pieces;
  };
  struct Module {
    ze_module_handle_t Handle = nullptr;
    Status Failure; // the cached build failure, if any
  };
  /// A FatBinary is identified by its address and its SPIR-V bytes, so a
  /// container registered again at the address of an unregistered one is
  /// not confused with it.
  using ModuleKey = std::tuple<const FatBinary *, const unsigned char *, size_t>;

  Status check(ze_result_t R, const char *Call,
               slmc_status Code = SLMC_ERROR_BACKEND) const {
    if (R == ZE_RESULT_SUCCESS)
      return Status::ok();
    return Status::error(Code, describe(Call, R));
  }

  /// Waits for the submission in flight, if any, and makes the command list
  /// reusable. `Op` names the waiting operation in messages. Caller holds Lock.
  Status waitIdle(const char *Op);
  /// Closes the command list, submits it and marks it in flight. When `Wait`
  /// is set, also waits for it. Caller holds Lock.
  Status submit(const std::string &What, bool Wait);
  /// The memory type of `Ptr` as the driver knows it (UNKNOWN for plain host
  /// memory). A failed query is an error, not UNKNOWN: taking device memory
  /// for host memory would make the host touch it. Caller holds Lock.
  Status memoryType(const void *Ptr, ze_memory_type_t &Type) const;
  /// Resets the command list; after a failure the list is reset again before
  /// its next use, so one failed reset never leaves it closed for good.
  /// Caller holds Lock.
  Status resetList();

  static ModuleKey moduleKey(const KernelRecord &K);
  /// The module of `Kernel.Images`, built on first use. Caller holds Lock.
  Status module(const KernelRecord &K, ze_module_handle_t &Out);
  /// The kernel, created and described on first use. Caller holds Lock.
  Status kernel(const KernelRecord &K, Kernel *&Out);

  const LoaderApi &Ze;
  ze_driver_handle_t Driver;
  ze_device_handle_t Device;
  ze_context_handle_t Context = nullptr;
  ze_command_queue_handle_t Queue = nullptr;
  ze_command_list_handle_t List = nullptr;
  uint32_t QueueOrdinal = 0;
  slmc_device_info Info{};
  slmc_dim3 MaxGroupCount{};
  uint32_t SpirvVersion = 0; // ze_device_module_properties_t
  uint64_t TimeoutNs = std::numeric_limits<uint64_t>::max();
  uint64_t TimeoutMs = 0; // 0: no limit
  /// The loader hands out its own objects instead of the driver's handles
  /// (it does so when several drivers are installed, or when asked to with
  /// ZE_ENABLE_LOADER_INTERCEPT). In that mode the loader (1.8, and still
  /// 1.32) returns the build log of a failed zeModuleCreate unwrapped, and
  /// any use of it through the loader crashes; so no build log is requested.
  bool LoaderWrapsHandles = true;

  std::mutex Lock; // guards everything below and the command list
  bool InFlight = false;     // List was submitted and not yet waited for
  bool ListNeedsReset = false; // a reset of List failed; retried before use
  std::string InFlightWhat;  // "kernel 'k'", "memcpy of N bytes", ...
  std::map<ModuleKey, Module> Modules;
  std::map<std::pair<ModuleKey, std::string>, Kernel> Kernels;
};

LevelZeroBackend::~LevelZeroBackend() {
  // Errors are ignored: at process exit the driver may be in any state. The
  // wait is bounded by the timeout; a list that is still busy is not freed.
  bool Idle = true;
  if (Queue && InFlight)
    Idle = Ze.zeCommandQueueSynchronize(Queue, TimeoutNs) == ZE_RESULT_SUCCESS;
  if (!Idle)
    return;
  for (auto &[Key, K] : Kernels)
    if (K.Handle)
      Ze.zeKernelDestroy(K.Handle);
  for (auto &[Key, M] : Modules)
    if (M.Handle)
      Ze.zeModuleDestroy(M.Handle);
  if (List)
    Ze.zeCommandListDestroy(List);
  if (Queue)
    Ze.zeCommandQueueDestroy(Queue);
  if (Context)
    Ze.zeContextDestroy(Context);
}

Status LevelZeroBackend::init(uint64_t TimeoutNanoseconds,
                              uint64_t TimeoutMilliseconds) {
  TimeoutNs = TimeoutNanoseconds;
  TimeoutMs = TimeoutMilliseconds;
  Info.backend = SLMC_BACKEND_LEVEL_ZERO;

  ze_device_properties_t Props{};
  Props.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES;
  if (auto S = check(Ze.zeDeviceGetProperties(Device, &Props),
                     "zeDeviceGetProperties"))
    return S;
  static_assert(sizeof(Info.name) >= 2, "device name buffer");
  std::snprintf(Info.name, sizeof(Info.name), "%.*s",
                static_cast<int>(sizeof(Props.name)), Props.name);
  Info.compute_units =
      Props.numSlices * Props.numSubslicesPerSlice * Props.numEUsPerSubslice;

  ze_device_compute_properties_t Compute{};
  Compute.stype = ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES;
  if (auto S = check(Ze.zeDeviceGetComputeProperties(Device, &Compute),
                     "zeDeviceGetComputeProperties"))
    return S;
  Info.max_group_size = Compute.maxTotalGroupSize;
  Info.max_group_dims = {Compute.maxGroupSizeX, Compute.maxGroupSizeY,
                         Compute.maxGroupSizeZ};
  Info.max_group_local_memory = Compute.maxSharedLocalMemory;
  Info.num_sub_group_sizes = std::min<uint32_t>(Compute.numSubGroupSizes, 8);
  for (uint32_t K = 0; K < Info.num_sub_group_sizes; ++K)
    Info.sub_group_sizes[K] = Compute.subGroupSizes[K];
  MaxGroupCount = {Compute.maxGroupCountX, Compute.maxGroupCountY,
                   Compute.maxGroupCountZ};

  ze_device_module_properties_t ModuleProps{};
  ModuleProps.stype = ZE_STRUCTURE_TYPE_DEVICE_MODULE_PROPERTIES;
  if (auto S = check(Ze.zeDeviceGetModuleProperties(Device, &ModuleProps),
                     "zeDeviceGetModuleProperties"))
    return S;
  SpirvVersion = ModuleProps.spirvVersionSupported;

  uint32_t NumMemories = 0;
  if (auto S = check(Ze.zeDeviceGetMemoryProperties(Device, &NumMemories,
                                                    nullptr),
                     "zeDeviceGetMemoryProperties"))
    return S;
  std::vector<ze_device_memory_properties_t> Memories(NumMemories);
  for (auto &M : Memories)
    M.stype = ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES;
  if (NumMemories) {
    if (auto S = check(Ze.zeDeviceGetMemoryProperties(Device, &NumMemories,
                                                      Memories.data()),
                       "zeDeviceGetMemoryProperties"))
      return S;
    Memories.resize(std::min<size_t>(NumMemories, Memories.size()));
  }
  Info.global_memory = 0;
  for (const auto &M : Memories)
    Info.global_memory += M.totalSize;

  uint32_t NumGroups = 0;
  if (auto S = check(Ze.zeDeviceGetCommandQueueGroupProperties(
                         Device, &NumGroups, nullptr),
                     "zeDeviceGetCommandQueueGroupProperties"))
    return S;
  std::vector<ze_command_queue_group_properties_t> Groups(NumGroups);
  for (auto &G : Groups)
    G.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_GROUP_PROPERTIES;
  if (NumGroups) {
    if (auto S = check(Ze.zeDeviceGetCommandQueueGroupProperties(
                           Device, &NumGroups, Groups.data()),
                       "zeDeviceGetCommandQueueGroupProperties"))
      return S;
    Groups.resize(std::min<size_t>(NumGroups, Groups.size()));
  }
  bool Found = false;
  for (uint32_t I = 0; I < Groups.size() && !Found; ++I)
    if (Groups[I].flags & ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE) {
      QueueOrdinal = I;
      Found = true;
    }
  if (!Found)
    return Status::error(SLMC_ERROR_NO_DEVICE,
                         std::string("device '") + Info.name +
                             "' has no compute command queue group (among " +
                             std::to_string(Groups.size()) + ")");

  ze_context_desc_t ContextDesc{};
  ContextDesc.stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC;
  if (auto S = check(Ze.zeContextCreate(Driver, &ContextDesc, &Context),
                     "zeContextCreate")) {
    Context = nullptr;
    return S;
  }
  void *DriverContext = nullptr;
  LoaderWrapsHandles =
      !Ze.zelLoaderTranslateHandle ||
      Ze.zelLoaderTranslateHandle(ZEL_HANDLE_CONTEXT, Context,
                                  &DriverContext) != ZE_RESULT_SUCCESS ||
      DriverContext != Context;

  ze_command_queue_desc_t QueueDesc{};
  QueueDesc.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC;
  QueueDesc.ordinal = QueueOrdinal;
  QueueDesc.index = 0;
  QueueDesc.mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS;
  QueueDesc.priority = ZE_COMMAND_QUEUE_PRIORITY_NORMAL;
  if (auto S = check(Ze.zeCommandQueueCreate(Context, Device, &QueueDesc,
                                             &Queue),
                     "zeCommandQueueCreate")) {
    Queue = nullptr;
    return S;
  }

  ze_command_list_desc_t ListDesc{};
  ListDesc.stype = ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC;
  ListDesc.commandQueueGroupOrdinal = QueueOrdinal;
  if (auto S = check(Ze.zeCommandListCreate(Context, Device, &ListDesc, &List),
                     "zeCommandListCreate")) {
    List = nullptr;
    return S;
  }
  return Status::ok();
}

Status LevelZeroBackend::resetList() {
  ze_result_t R = Ze.zeCommandListReset(List);
  ListNeedsReset = R != ZE_RESULT_SUCCESS;
  return check(R, "zeCommandListReset");
}

Status LevelZeroBackend::waitIdle(const char *Op) {
  if (!InFlight)
    return ListNeedsReset ? resetList() : Status::ok();
  ze_result_t R = Ze.zeCommandQueueSynchronize(Queue, TimeoutNs);
  if (R == ZE_RESULT_NOT_READY)
    // Still running: it stays in flight and the next call waits again.
    return Status::error(
        SLMC_ERROR_BACKEND,
        std::string(Op) + ": " + InFlightWhat + " did not complete within " +
            std::to_string(TimeoutMs) + " ms (SLMC_TIMEOUT_MS) on device '" +
            Info.name + "' (zeCommandQueueSynchronize returned " +
            resultName(R) + ")");
  // Completed or failed: either way the device is done with the list.
  InFlight = false;
  std::string What = std::move(InFlightWhat);
  InFlightWhat.clear();
  Status Reset = resetList();
  if (R != ZE_RESULT_SUCCESS)
    return Status::error(SLMC_ERROR_LAUNCH_FAILURE,
                         What + " failed on device '" + Info.name +
                             "' (reported by " + Op +
                             "): " + describe("zeCommandQueueSynchronize", R));
  return Reset;
}

Status LevelZeroBackend::submit(const std::string &What, bool Wait) {
  if (ze_result_t R = Ze.zeCommandListClose(List); R != ZE_RESULT_SUCCESS) {
    resetList(); // the failure reported is the one above
    return Status::error(SLMC_ERROR_BACKEND,
                         What + ": " + describe("zeCommandListClose", R));
  }
  ze_command_list_handle_t Lists[] = {List};
  ze_result_t R =
      Ze.zeCommandQueueExecuteCommandLists(Queue, 1, Lists, nullptr);
  if (R != ZE_RESULT_SUCCESS) {
    resetList(); // the failure reported is the one above
    return Status::error(isOutOfMemory(R) ? SLMC_ERROR_OUT_OF_MEMORY
                                          : SLMC_ERROR_LAUNCH_FAILURE,
                         What + ": " +
                             describe("zeCommandQueueExecuteCommandLists", R));
  }
  InFlight = true;
  InFlightWhat = What;
  return Wait ? waitIdle(What.c_str()) : Status::ok();
}

Status LevelZeroBackend::memoryType(const void *Ptr,
                                    ze_memory_type_t &Type) const {
  ze_memory_allocation_properties_t Props{};
  Props.stype = ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES;
  Type = ZE_MEMORY_TYPE_UNKNOWN;
  if (auto S = check(Ze.zeMemGetAllocProperties(Context, Ptr, &Props, nullptr),
                     "zeMemGetAllocProperties"))
    return S;
  Type = Props.type;
  return Status::ok();
}

Status LevelZeroBackend::allocShared(void **Ptr, size_t Bytes) {
  if (!Ptr || Bytes == 0)
    return Status::error(SLMC_ERROR_INVALID_VALUE,
                         "allocShared: null result pointer or zero size");
  *Ptr = nullptr;
  ze_device_mem_alloc_desc_t DeviceDesc{};
  DeviceDesc.stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC;
  ze_host_mem_alloc_desc_t HostDesc{};
  HostDesc.stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC;
  void *P = nullptr; // allocation is thread-safe in Level Zero: no lock
  ze_result_t R =
      Ze.zeMemAllocShared(Context, &DeviceDesc, &HostDesc, Bytes, 64, Device, &P);
  if (R != ZE_RESULT_SUCCESS)
    return Status::error(isOutOfMemory(R) || R == ZE_RESULT_ERROR_UNSUPPORTED_SIZE
                             ? SLMC_ERROR_OUT_OF_MEMORY
                             : SLMC_ERROR_BACKEND,
                         describe("zeMemAllocShared", R) + " (" +
                             std::to_string(Bytes) + " bytes)");
  *Ptr = P;
  return Status::ok();
}

Status LevelZeroBackend::allocDevice(void **Ptr, size_t Bytes) {
  if (!Ptr || Bytes == 0)
    return Status::error(SLMC_ERROR_INVALID_VALUE,
                         "allocDevice: null result pointer or zero size");
  *Ptr = nullptr;
  ze_device_mem_alloc_desc_t DeviceDesc{};
  DeviceDesc.stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC;
  void *P = nullptr; // allocation is thread-safe in Level Zero: no lock
  ze_result_t R = Ze.zeMemAllocDevice(Context, &DeviceDesc, Bytes, 64, Device, &P);
  if (R != ZE_RESULT_SUCCESS)
    return Status::error(isOutOfMemory(R) || R == ZE_RESULT_ERROR_UNSUPPORTED_SIZE
                             ? SLMC_ERROR_OUT_OF_MEMORY
                             : SLMC_ERROR_BACKEND,
                         describe("zeMemAllocDevice", R) + " (" +
                             std::to_string(Bytes) + " bytes)");
  *Ptr = P;
  return Status::ok();
}

Status LevelZeroBackend::free(void *Ptr) {
  if (!Ptr)
    return Status::ok();
  std::lock_guard<std::mutex> Guard(Lock);
  // A kernel in flight may still use the memory.
  if (auto S = waitIdle("free"))
    return S;
  ze_memory_type_t Type;
  if (auto S = memoryType(Ptr, Type))
    return Status::error(S.Code, "free: " + S.Message);
  if (Type == ZE_MEMORY_TYPE_UNKNOWN)
    return Status::error(SLMC_ERROR_INVALID_VALUE,
                         "free: pointer was not allocated on Level Zero "
                         "device '" + std::string(Info.name) + "'");
  ze_result_t R = Ze.zeMemFree(Context, Ptr);
  return check(R, "zeMemFree",
               R == ZE_RESULT_ERROR_INVALID_ARGUMENT ? SLMC_ERROR_INVALID_VALUE
                                                     : SLMC_ERROR_BACKEND);
}

Status LevelZeroBackend::memcpy(void *Dst, const void *Src, size_t Bytes) {
  if (Bytes == 0)
    return Status::ok();
  if (!Dst || !Src)
    return Status::error(SLMC_ERROR_INVALID_VALUE, "memcpy: null pointer");
  std::lock_guard<std::mutex> Guard(Lock);
  if (auto S = waitIdle("memcpy"))
    return S;
  std::string What = "memcpy of " + std::to_string(Bytes) + " bytes";
  ze_memory_type_t DstType, SrcType;
  if (auto S = memoryType(Dst, DstType))
    return Status::error(S.Code, What + ": " + S.Message);
  if (auto S = memoryType(Src, SrcType))
    return Status::error(S.Code, What + ": " + S.Message);
  if (DstType == ZE_MEMORY_TYPE_UNKNOWN && SrcType == ZE_MEMORY_TYPE_UNKNOWN) {
    // Host to host: nothing for the device to do.
    std::memmove(Dst, Src, Bytes);
    return Status::ok();
  }
  if (ze_result_t R = Ze.zeCommandListAppendMemoryCopy(List, Dst, Src, Bytes,
                                                       nullptr, 0, nullptr);
      R != ZE_RESULT_SUCCESS) {
    resetList(); // the failure reported is the one above
    return Status::error(SLMC_ERROR_BACKEND,
                         What + ": " +
                             describe("zeCommandListAppendMemoryCopy", R));
  }
  return submit(What, /*Wait=*/true);
}

Status LevelZeroBackend::memset(void *Dst, int Value, size_t Bytes) {
  if (Bytes == 0)
    return Status::ok();
  if (!Dst)
    return Status::error(SLMC_ERROR_INVALID_VALUE, "memset: null pointer");
  std::lock_guard<std::mutex> Guard(Lock);
  if (auto S = waitIdle("memset"))
    return S;
  std::string What = "memset of " + std::to_string(Bytes) + " bytes";
  ze_memory_type_t Type;
  if (auto S = memoryType(Dst, Type))
    return Status::error(S.Code, What + ": " + S.Message);
  if (Type == ZE_MEMORY_TYPE_UNKNOWN) {
    // Plain host memory, unknown to the driver.
    std::memset(Dst, Value, Bytes);
    return Status::ok();
  }
  const unsigned char Pattern = static_cast<unsigned char>(Value);
  if (ze_result_t R = Ze.zeCommandListAppendMemoryFill(
          List, Dst, &Pattern, sizeof(Pattern), Bytes, nullptr, 0, nullptr);
      R != ZE_RESULT_SUCCESS) {
    resetList(); // the failure reported is the one above
    return Status::error(SLMC_ERROR_BACKEND,
                         What + ": " +
                             describe("zeCommandListAppendMemoryFill", R));
  }
  return submit(What, /*Wait=*/true);
}

Status LevelZeroBackend::synchronize() {
  std::lock_guard<std::mutex> Guard(Lock);
  return waitIdle("synchronize");
}

LevelZeroBackend::ModuleKey LevelZeroBackend::moduleKey(const KernelRecord &K) {
  const DeviceImage *Spirv = K.Images->find(ImageKind::SPIRV);
  return {K.Images, Spirv ? Spirv->Data : nullptr, Spirv ? Spirv->Size : 0};
}

Status LevelZeroBackend::module(const KernelRecord &K,
                                ze_module_handle_t &Out) {
  ModuleKey Key = moduleKey(K);
  auto [It, Inserted] = Modules.try_emplace(Key);
  Module &M = It->second;
  if (!Inserted) {
    Out = M.Handle;
    return M.Failure;
  }

  const DeviceImage *Spirv = K.Images->find(ImageKind::SPIRV);
  if (!Spirv || !Spirv->Data || Spirv->Size == 0) {
    M.Failure = Status::error(
        SLMC_ERROR_INVALID_IMAGE,
        "no SPIR-V image for kernel '" + K.Name + "' (among " +
            std::to_string(K.Images->Images.size()) +
            " device images); build the program with the SPIR-V target");
    return M.Failure;
  }

  ze_module_desc_t Desc{};
  Desc.stype = ZE_STRUCTURE_TYPE_MODULE_DESC;
  Desc.format = ZE_MODULE_FORMAT_IL_SPIRV;
  Desc.inputSize = Spirv->Size;
  Desc.pInputModule = Spirv->Data;
  Desc.pBuildFlags = "";
  Desc.pConstants = nullptr;
  ze_module_build_log_handle_t BuildLog = nullptr;
  ze_result_t R = Ze.zeModuleCreate(Context, Device, &Desc, &M.Handle,
                                    LoaderWrapsHandles ? nullptr : &BuildLog);

  std::string Log;
  if (BuildLog) {
    if (R != ZE_RESULT_SUCCESS) {
      size_t Size = 0;
      if (Ze.zeModuleBuildLogGetString(BuildLog, &Size, nullptr) ==
              ZE_RESULT_SUCCESS &&
          Size > 0) {
        std::vector<char> Text(Size + 1, '\0');
        if (Ze.zeModuleBuildLogGetString(BuildLog, &Size, Text.data()) ==
            ZE_RESULT_SUCCESS)
          Log.assign(Text.data(), strnlen(Text.data(), Text.size()));
      }
    }
    Ze.zeModuleBuildLogDestroy(BuildLog);
  }
  if (R == ZE_RESULT_SUCCESS) {
    Out = M.Handle;
    return Status::ok();
  }

  M.Handle = nullptr;
  if (!rejectsImage(R)) {
    // Not the image's fault: the next launch builds again.
    Modules.erase(It);
    return Status::error(isOutOfMemory(R) ? SLMC_ERROR_OUT_OF_MEMORY
                                          : SLMC_ERROR_BACKEND,
                         "kernel '" + K.Name + "': " +
                             describe("zeModuleCreate", R) + " (device '" +
                             Info.name + "')");
  }
  while (!Log.empty() && (Log.back() == '\n' || Log.back() == '\r'))
    Log.pop_back();
  // The SPIR-V header carries the version in word 1 (0x00MMmm00).
  std::string Versions;
  if (Spirv->Size >= 8) {
    uint32_t Words[2];
    std::memcpy(Words, Spirv->Data, sizeof(Words));
    if (Words[0] == 0x07230203u) {
      uint32_t Major = (Words[1] >> 16) & 0xff, Minor = (Words[1] >> 8) & 0xff;
      Versions = "SPIR-V " + std::to_string(Major) + "." +
                 std::to_string(Minor) + " image, ";
    }
  }
  Versions += "device supports SPIR-V up to " + versionStr(SpirvVersion);
  if (Log.empty())
    Log = LoaderWrapsHandles
              ? "(no build log: the Level Zero loader wraps driver handles, "
                "as it does when several drivers are installed, and cannot "
                "return the log of a failed build; set "
                "ZE_ENABLE_ALT_DRIVERS to the GPU driver library to see it)"
              : "(the driver gave no build log)";
  M.Failure = Status::error(
      SLMC_ERROR_BUILD_FAILURE,
      "Level Zero module build failed:\n" + Log +
          "\n(" + describe("zeModuleCreate", R) + "; kernel '" + K.Name +
          "', " + Versions + ", device '" + Info.name + "')");
  return M.Failure;
}

Status LevelZeroBackend::kernel(const KernelRecord &K, Kernel *&Out) {
  if (!K.Images)
    return Status::error(SLMC_ERROR_INVALID_VALUE,
                         "kernel '" + K.Name + "' has no device images");
  auto Key = std::make_pair(moduleKey(K), K.Name);
  if (auto It = Kernels.find(Key); It != Kernels.end()) {
    Out = &It->second;
    return Status::ok();
  }
  ze_module_handle_t Mod = nullptr;
  if (auto S = module(K, Mod))
    return S;

  Kernel Kn;
  std::string LayoutError;
  const DeviceImage *Spirv = K.Images->find(ImageKind::SPIRV);
  if (Spirv && !argumentLayout(*Spirv, K.Name, Kn.Split, Kn.Pieces, LayoutError))
    return Status::error(SLMC_ERROR_INVALID_IMAGE, LayoutError);
  ze_kernel_desc_t Desc{};
  Desc.stype = ZE_STRUCTURE_TYPE_KERNEL_DESC;
  Desc.pKernelName = K.Name.c_str();
  if (ze_result_t R = Ze.zeKernelCreate(Mod, &Desc, &Kn.Handle);
      R != ZE_RESULT_SUCCESS)
    return Status::error(SLMC_ERROR_KERNEL_NOT_FOUND,
                         "kernel '" + K.Name + "' is not in the SPIR-V image (" +
                             describe("zeKernelCreate", R) + ")");

  // Kernels reach memory through pointers inside by-value arguments (the
  // captures of a functor), not only through pointer arguments; the driver
  // keeps such allocations resident only when told so.
  if (ze_result_t R = Ze.zeKernelSetIndirectAccess(
          Kn.Handle, ZE_KERNEL_INDIRECT_ACCESS_FLAG_HOST |
                         ZE_KERNEL_INDIRECT_ACCESS_FLAG_DEVICE |
                         ZE_KERNEL_INDIRECT_ACCESS_FLAG_SHARED);
      R != ZE_RESULT_SUCCESS) {
    Ze.zeKernelDestroy(Kn.Handle);
    return Status::error(SLMC_ERROR_BACKEND,
                         "kernel '" + K.Name +
                             "': " + describe("zeKernelSetIndirectAccess", R));
  }

  ze_kernel_properties_t Props{};
  Props.stype = ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES;
  if (ze_result_t R = Ze.zeKernelGetProperties(Kn.Handle, &Props);
      R != ZE_RESULT_SUCCESS) {
    Ze.zeKernelDestroy(Kn.Handle);
    return Status::error(SLMC_ERROR_BACKEND,
                         "kernel '" + K.Name +
                             "': " + describe("zeKernelGetProperties", R));
  }
  // Queried once, before any argument is set: Intel's driver reports the
  // static size plus the local-memory arguments set so far.
  Kn.StaticLocal = Props.localMemSize;
  Kn.NumParams = Props.numKernelArgs;
  Kn.RequiredGroup = {Props.requiredGroupSizeX, Props.requiredGroupSizeY,
                      Props.requiredGroupSizeZ};
  Out = &Kernels.emplace(std::move(Key), Kn).first->second;
  return Status::ok();
}

Status LevelZeroBackend::kernelGroupMemory(const KernelRecord &K,
                                           size_t &Bytes) {
  std::lock_guard<std::mutex> Guard(Lock);
  Kernel *Kn = nullptr;
  if (auto S = kernel(K, Kn))
    return S;
  Bytes = Kn->StaticLocal;
  return Status::ok();
}

Status LevelZeroBackend::launch(const LaunchRequest &Request) {
  const slmc_launch_params &P = Request.Params;
  const std::string &Name = Request.Kernel.Name;
  const slmc_dim3 &G = P.group_count, &B = P.group_size;
  if (auto S = checkLaunchRequest(Name, P, /*NeedSizes=*/true))
    return S;

  std::lock_guard<std::mutex> Guard(Lock);
  Kernel *Kn = nullptr;
  if (auto S = kernel(Request.Kernel, Kn))
    return S;

  const slmc_dim3 &Req = Kn->RequiredGroup;
  if ((Req.x || Req.y || Req.z) &&
      (Req.x != B.x || Req.y != B.y || Req.z != B.z))
    return Status::error(SLMC_ERROR_INVALID_VALUE,
                         "kernel '" + Name + "' requires group size " +
                             dim3Str(Req) + "; launched with " + dim3Str(B));
  LaunchLimits L;
  L.Device = std::string("Level Zero device '") + Info.name + "'";
  L.MaxGroupDims = Info.max_group_dims;
  L.MaxGroupSize = Info.max_group_size;
  L.MaxGroupCount = MaxGroupCount;
  L.MaxGroupMemory = Info.max_group_local_memory;
  const size_t Static = Kn->StaticLocal, Dynamic = P.dynamic_group_memory;
  const size_t Limit = L.MaxGroupMemory;
  if (auto S = checkLaunchLimits(Name, G, B, Static, Dynamic, L))
    return S;

  // Parameters: the launch's arguments (or the pieces of them the image
  // lists), plus the trailing local-memory parameter of kernels that use
  // dynamic group-local memory.
  const uint32_t Passed = Kn->Split ? uint32_t(Kn->Pieces.size()) : P.num_args;
  const bool HasDynamicParam = Kn->NumParams == uint64_t(Passed) + 1;
  if (Kn->NumParams != Passed && !HasDynamicParam)
    return Status::error(SLMC_ERROR_INVALID_VALUE,
                         "kernel '" + Name + "' takes " +
                             std::to_string(Kn->NumParams) + " parameters; the launch passes " +
                             (Kn->Split ? std::to_string(Passed) + " (pieces of " +
                                              std::to_string(P.num_args) + " arguments)"
                                        : std::to_string(P.num_args) + " arguments"));
  for (const ArgumentPiece &Piece : Kn->Pieces)
    if (Piece.Arg >= P.num_args ||
        (Piece.Size && (Piece.Offset > P.arg_sizes[Piece.Arg] ||
                        Piece.Size > P.arg_sizes[Piece.Arg] - Piece.Offset)))
      return Status::error(
          SLMC_ERROR_INVALID_VALUE,
          "kernel '" + Name + "' reads bytes " + std::to_string(Piece.Offset) + " to " +
              std::to_string(Piece.Offset + Piece.Size) + " of argument " +
              std::to_string(Piece.Arg) + ", which the launch " +
              (Piece.Arg >= P.num_args
                   ? std::string("does not pass")
                   : "passes with " + std::to_string(P.arg_sizes[Piece.Arg]) + " bytes") +
              " (a launch of another program's kernel of the same name?)");
  if (Dynamic > 0 && !HasDynamicParam)
    return Status::error(
        SLMC_ERROR_INVALID_VALUE,
        "kernel '" + Name + "': the launch asks for " +
            std::to_string(Dynamic) +
            " bytes of dynamic group-local memory, but the kernel has no "
            "trailing local-memory parameter to receive them (it takes " +
            std::to_string(Kn->NumParams) + " parameters, all passed)");

  // The command list is reused: wait for the previous submission first.
  if (auto S = waitIdle("launch"))
    return S;

  if (ze_result_t R = Ze.zeKernelSetGroupSize(Kn->Handle, B.x, B.y, B.z);
      R != ZE_RESULT_SUCCESS)
    return Status::error(R == ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION
                             ? SLMC_ERROR_RESOURCE_LIMIT
                             : SLMC_ERROR_BACKEND,
                         "kernel '" + Name + "': group size " + dim3Str(B) +
                             ": " + describe("zeKernelSetGroupSize", R));
  for (uint32_t I = 0; I < Passed; ++I) {
    ArgumentPiece Piece = Kn->Split ? Kn->Pieces[I] : ArgumentPiece{I, 0, 0};
    size_t Size = Piece.Size ? Piece.Size : P.arg_sizes[Piece.Arg];
    const void *Value = static_cast<const char *>(P.args[Piece.Arg]) + Piece.Offset;
    ze_result_t R = Ze.zeKernelSetArgumentValue(Kn->Handle, I, Size, Value);
    if (R != ZE_RESULT_SUCCESS)
      return Status::error(
          R == ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE ||
                  R == ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX
              ? SLMC_ERROR_INVALID_VALUE
              : SLMC_ERROR_BACKEND,
          "kernel '" + Name + "' argument " + std::to_string(I) + " (" +
              std::to_string(Size) + " bytes" +
              (Kn->Split ? " of launch argument " + std::to_string(Piece.Arg) : "") +
              "): " + describe("zeKernelSetArgumentValue", R));
  }
  if (HasDynamicParam) {
    // A local-memory argument: its size is the allocation, its value null.
    ze_result_t R =
        Ze.zeKernelSetArgumentValue(Kn->Handle, Passed, Dynamic, nullptr);
    if (R != ZE_RESULT_SUCCESS)
      return Status::error(
          R == ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE ||
                  R == ZE_RESULT_ERROR_INVALID_ARGUMENT
              ? SLMC_ERROR_INVALID_VALUE
              : SLMC_ERROR_BACKEND,
          "kernel '" + Name + "' dynamic group-local memory argument " +
              std::to_string(Passed) + " (" + std::to_string(Dynamic) +
              " bytes): " + describe("zeKernelSetArgumentValue", R) +
              " (the kernel takes one parameter more than the launch passes; "
              "it must be a pointer to local memory)");
  }

  std::string What = "kernel '" + Name + "' (" + dim3Str(G) + " groups of " +
                     dim3Str(B) + ", " + std::to_string(Dynamic) +
                     " dynamic bytes)";
  ze_group_count_t Count{G.x, G.y, G.z};
  if (ze_result_t R = Ze.zeCommandListAppendLaunchKernel(List, Kn->Handle,
                                                         &Count, nullptr, 0,
                                                         nullptr);
      R != ZE_RESULT_SUCCESS) {
    resetList(); // the failure reported is the one above
    // The driver rounds local-memory arguments up (to 1 KiB on Intel GPUs),
    // so a launch just under the limit can still be refused here.
    std::string Hint =
        R == ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY && (Static || Dynamic)
            ? " (" + std::to_string(Static) + " static + " +
                  std::to_string(Dynamic) +
                  " dynamic bytes of group-local memory, before the driver's "
                  "rounding; limit " + std::to_string(Limit) + ")"
            : std::string();
    return Status::error(
        R == ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION ||
                R == ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY
            ? SLMC_ERROR_RESOURCE_LIMIT
            : SLMC_ERROR_LAUNCH_FAILURE,
        What + ": " + describe("zeCommandListAppendLaunchKernel", R) + Hint);
  }
  return submit(What, /*Wait=*/false);
}

} // namespace

std::unique_ptr<Backend> createLevelZeroBackend(std::string &WhyNot) {
  const LoaderApi *Ze = loader(WhyNot);
  if (!Ze)
    return nullptr;

  uint64_t TimeoutNs = 0, TimeoutMs = 0;
  if (!readTimeout(TimeoutNs, TimeoutMs, WhyNot))
    return nullptr;

  uint32_t NumDrivers = 0;
  if (ze_result_t R = Ze->zeDriverGet(&NumDrivers, nullptr);
      R != ZE_RESULT_SUCCESS) {
    WhyNot = describe("zeDriverGet", R);
    return nullptr;
  }
  std::vector<ze_driver_handle_t> Drivers(NumDrivers);
  if (NumDrivers) {
    if (ze_result_t R = Ze->zeDriverGet(&NumDrivers, Drivers.data());
        R != ZE_RESULT_SUCCESS) {
      WhyNot = describe("zeDriverGet", R);
      return nullptr;
    }
    Drivers.resize(std::min<size_t>(NumDrivers, Drivers.size()));
  }

  size_t NumDevices = 0;
  for (ze_driver_handle_t Driver : Drivers) {
    uint32_t Count = 0;
    if (ze_result_t R = Ze->zeDeviceGet(Driver, &Count, nullptr);
        R != ZE_RESULT_SUCCESS) {
      WhyNot = describe("zeDeviceGet", R);
      return nullptr;
    }
    std::vector<ze_device_handle_t> Devices(Count);
    if (Count) {
      if (ze_result_t R = Ze->zeDeviceGet(Driver, &Count, Devices.data());
          R != ZE_RESULT_SUCCESS) {
        WhyNot = describe("zeDeviceGet", R);
        return nullptr;
      }
      Devices.resize(std::min<size_t>(Count, Devices.size()));
    }
    NumDevices += Devices.size();
    for (ze_device_handle_t Device : Devices) {
      ze_device_properties_t Props{};
      Props.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES;
      if (ze_result_t R = Ze->zeDeviceGetProperties(Device, &Props);
          R != ZE_RESULT_SUCCESS) {
        WhyNot = describe("zeDeviceGetProperties", R);
        return nullptr;
      }
      if (Props.type != ZE_DEVICE_TYPE_GPU)
        continue;
      auto B = std::make_unique<LevelZeroBackend>(*Ze, Driver, Device);
      if (Status S = B->init(TimeoutNs, TimeoutMs)) {
        WhyNot = "Level Zero device '" + std::string(Props.name, strnlen(Props.name, sizeof(Props.name))) +
                 "': " + S.Message;
        return nullptr;
      }
      return B;
    }
  }
  WhyNot = "no Level Zero GPU device (" + std::to_string(Drivers.size()) +
           " driver" + (Drivers.size() == 1 ? "" : "s") + ", " +
           std::to_string(NumDevices) + " device" +
           (NumDevices == 1 ? "" : "s") + " of other types)";
  return nullptr;
}

} // namespace slmc::rt

#else // !SLMC_HAVE_LEVEL_ZERO_HEADERS

namespace slmc::rt {
std::unique_ptr<Backend> createLevelZeroBackend(std::string &WhyNot) {
  WhyNot = "libslmrt was built without the Level Zero headers "
           "(<level_zero/ze_api.h>)";
  return nullptr;
}
} // namespace slmc::rt

#endif // SLMC_HAVE_LEVEL_ZERO_HEADERS
