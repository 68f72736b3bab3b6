//===- CudaBackend.cpp - libslmrt on the CUDA driver API ------------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Runs the PTX image that slmc++ embeds on an NVIDIA GPU through the CUDA
// driver API. libcuda.so.1 is opened with dlopen, so neither building nor
// running the runtime requires CUDA; without a driver or a device the factory
// returns null and says why.
//
// Design:
//  * One device (ordinal 0, or $SLMC_CUDA_DEVICE), its primary context, made
//    current on the calling thread at the start of every entry point (the
//    runtime may be called from any thread).
//  * One stream: launches are asynchronous and in order; memcpy and memset
//    first wait for the stream, so they observe every earlier launch, and
//    complete before returning.
//  * A module per FatBinary, JIT-compiled from PTX on first use; the result
//    (module or build failure) and every looked-up function are cached. A
//    failure that is not the image's fault (out of memory, a lost context)
//    is not cached: the next use compiles again.
//  * The driver library is libcuda.so.1, or $SLMC_CUDA_DRIVER when set (a
//    path; the tests load a fake driver that way).
//  * Group-local memory: static .shared of the function plus the launch's
//    dynamic bytes, checked against the opt-in per-block limit; above the
//    default 48 KiB window the function is opted in with
//    CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES.
//
//===----------------------------------------------------------------------===//

#include "Backend.h"
#include "LaunchLimits.h"

#include <dlfcn.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <utility>

namespace slmc::rt {
namespace {

// ---- The subset of the CUDA driver API used here ---------------------------
// Types, constants and signatures as the public driver API documents them.

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
struct CUctx_st;
struct CUmod_st;
struct CUfunc_st;
struct CUstream_st;
using CUcontext = CUctx_st *;
using CUmodule = CUmod_st *;
using CUfunction = CUfunc_st *;
using CUstream = CUstream_st *;

constexpr CUresult CUDA_SUCCESS = 0;
constexpr CUresult CUDA_ERROR_INVALID_VALUE = 1;
constexpr CUresult CUDA_ERROR_OUT_OF_MEMORY = 2;
constexpr CUresult CUDA_ERROR_INVALID_IMAGE = 200;
constexpr CUresult CUDA_ERROR_NO_BINARY_FOR_GPU = 209;
constexpr CUresult CUDA_ERROR_INVALID_PTX = 218;
constexpr CUresult CUDA_ERROR_UNSUPPORTED_PTX_VERSION = 222;
constexpr CUresult CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES = 701;

// CUdevice_attribute
constexpr int CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1;
constexpr int CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X = 2;
constexpr int CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y = 3;
constexpr int CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z = 4;
constexpr int CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X = 5;
constexpr int CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y = 6;
constexpr int CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z = 7;
constexpr int CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK = 8;
constexpr int CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16;
constexpr int CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING = 41;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
constexpr int CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY = 83;
constexpr int CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97;

// CUfunction_attribute
constexpr int CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0;
constexpr int CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1;
constexpr int CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8;

// CUjit_option
constexpr int CU_JIT_INFO_LOG_BUFFER = 3;
constexpr int CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4;
constexpr int CU_JIT_ERROR_LOG_BUFFER = 5;
constexpr int CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6;

// CUpointer_attribute
constexpr int CU_POINTER_ATTRIBUTE_MEMORY_TYPE = 2;

constexpr unsigned CU_MEM_ATTACH_GLOBAL = 1;
constexpr unsigned CU_STREAM_DEFAULT = 0;

/// Entry points, resolved by their ABI-versioned symbol names.
struct DriverApi {
  CUresult (*cuInit)(unsigned) = nullptr;
  CUresult (*cuDriverGetVersion)(int *) = nullptr;
  CUresult (*cuGetErrorName)(CUresult, const char **) = nullptr;
  CUresult (*cuGetErrorString)(CUresult, const char **) = nullptr;
  CUresult (*cuDeviceGetCount)(int *) = nullptr;
  CUresult (*cuDeviceGet)(CUdevice *, int) = nullptr;
  CUresult (*cuDeviceGetName)(char *, int, CUdevice) = nullptr;
  CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice) = nullptr;
  CUresult (*cuDeviceTotalMem)(size_t *, CUdevice) = nullptr;
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice) = nullptr;
  CUresult (*cuDevicePrimaryCtxRelease)(CUdevice) = nullptr;
  CUresult (*cuCtxSetCurrent)(CUcontext) = nullptr;
  CUresult (*cuStreamCreate)(CUstream *, unsigned) = nullptr;
  CUresult (*cuStreamDestroy)(CUstream) = nullptr;
  CUresult (*cuStreamSynchronize)(CUstream) = nullptr;
  CUresult (*cuModuleLoadDataEx)(CUmodule *, const void *, unsigned, int *,
                                 void **) = nullptr;
  CUresult (*cuModuleUnload)(CUmodule) = nullptr;
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule,
                                  const char *) = nullptr;
  CUresult (*cuFuncGetAttribute)(int *, int, CUfunction) = nullptr;
  CUresult (*cuFuncSetAttribute)(CUfunction, int, int) = nullptr;
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, unsigned, CUstream,
                             void **, void **) = nullptr;
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t) = nullptr;
  CUresult (*cuMemAllocManaged)(CUdeviceptr *, size_t, unsigned) = nullptr;
  CUresult (*cuMemFree)(CUdeviceptr) = nullptr;
  CUresult (*cuMemcpyAsync)(CUdeviceptr, CUdeviceptr, size_t,
                            CUstream) = nullptr;
  CUresult (*cuMemsetD8Async)(CUdeviceptr, unsigned char, size_t,
                              CUstream) = nullptr;
  CUresult (*cuPointerGetAttribute)(void *, int, CUdeviceptr) = nullptr;

  int Version = 0; // cuDriverGetVersion: 1000 * major + 10 * minor

  /// Loads libcuda.so.1 ($SLMC_CUDA_DRIVER if set) and resolves every entry
  /// point; false with a reason otherwise. The library stays loaded for the
  /// life of the process.
  bool load(std::string &WhyNot);

  std::string errorName(CUresult R) const;
  /// "13.0"
  std::string versionString() const {
    return std::to_string(Version / 1000) + "." +
           std::to_string(Version % 1000 / 10);
  }
  /// "cuXxx failed: CUDA_ERROR_NAME: description".
  std::string describe(const char *Call, CUresult R) const;
};

template <typename Fn>
bool resolve(void *Lib, const char *Symbol, Fn &Out, std::string &Missing) {
  Out = reinterpret_cast<Fn>(dlsym(Lib, Symbol));
  if (!Out) {
    if (!Missing.empty())
      Missing += ", ";
    Missing += Symbol;
  }
  return Out != nullptr;
}

bool DriverApi::load(std::string &WhyNot) {
  const char *Override = std::getenv("SLMC_CUDA_DRIVER");
  const std::string Path = Override && *Override ? Override : "libcuda.so.1";
  void *Lib = dlopen(Path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!Lib) {
    const char *Err = dlerror();
    WhyNot = Path + " not found";
    if (Err && *Err)
      WhyNot += std::string(" (") + Err + ")";
    return false;
  }
  std::string Missing;
  resolve(Lib, "cuInit", cuInit, Missing);
  resolve(Lib, "cuDriverGetVersion", cuDriverGetVersion, Missing);
  resolve(Lib, "cuGetErrorName", cuGetErrorName, Missing);
  resolve(Lib, "cuGetErrorString", cuGetErrorString, Missing);
  resolve(Lib, "cuDeviceGetCount", cuDeviceGetCount, Missing);
  resolve(Lib, "cuDeviceGet", cuDeviceGet, Missing);
  resolve(Lib, "cuDeviceGetName", cuDeviceGetName, Missing);
  resolve(Lib, "cuDeviceGetAttribute", cuDeviceGetAttribute, Missing);
  resolve(Lib, "cuDeviceTotalMem_v2", cuDeviceTotalMem, Missing);
  resolve(Lib, "cuDevicePrimaryCtxRetain", cuDevicePrimaryCtxRetain, Missing);
  std::string Ignored;
  if (!resolve(Lib, "cuDevicePrimaryCtxRelease_v2", cuDevicePrimaryCtxRelease,
               Ignored)) // drivers older than CUDA 11
    resolve(Lib, "cuDevicePrimaryCtxRelease", cuDevicePrimaryCtxRelease,
            Missing);
  resolve(Lib, "cuCtxSetCurrent", cuCtxSetCurrent, Missing);
  resolve(Lib, "cuStreamCreate", cuStreamCreate, Missing);
  resolve(Lib, "cuStreamDestroy_v2", cuStreamDestroy, Missing);
  resolve(Lib, "cuStreamSynchronize", cuStreamSynchronize, Missing);
  resolve(Lib, "cuModuleLoadDataEx", cuModuleLoadDataEx, Missing);
  resolve(Lib, "cuModuleUnload", cuModuleUnload, Missing);
  resolve(Lib, "cuModuleGetFunction", cuModuleGetFunction, Missing);
  resolve(Lib, "cuFuncGetAttribute", cuFuncGetAttribute, Missing);
  resolve(Lib, "cuFuncSetAttribute", cuFuncSetAttribute, Missing);
  resolve(Lib, "cuLaunchKernel", cuLaunchKernel, Missing);
  resolve(Lib, "cuMemAlloc_v2", cuMemAlloc, Missing);
  resolve(Lib, "cuMemAllocManaged", cuMemAllocManaged, Missing);
  resolve(Lib, "cuMemFree_v2", cuMemFree, Missing);
  resolve(Lib, "cuMemcpyAsync", cuMemcpyAsync, Missing);
  resolve(Lib, "cuMemsetD8Async", cuMemsetD8Async, Missing);
  resolve(Lib, "cuPointerGetAttribute", cuPointerGetAttribute, Missing);
  if (!Missing.empty()) {
    WhyNot = Path + " lacks " + Missing + " (driver too old)";
    return false;
  }
  return true;
}

std::string DriverApi::errorName(CUresult R) const {
  const char *Name = nullptr;
  if (cuGetErrorName && cuGetErrorName(R, &Name) == CUDA_SUCCESS && Name)
    return Name;
  return "CUDA error " + std::to_string(R);
}

std::string DriverApi::describe(const char *Call, CUresult R) const {
  std::string Msg = std::string(Call) + " failed: " + errorName(R);
  const char *Text = nullptr;
  if (cuGetErrorString && cuGetErrorString(R, &Text) == CUDA_SUCCESS && Text)
    Msg += std::string(": ") + Text;
  return Msg;
}

/// Whether a failed cuModuleLoadDataEx rejected the PTX itself, so that
/// trying again can only fail the same way.
bool rejectsImage(CUresult R) {
  return R == CUDA_ERROR_INVALID_PTX || R == CUDA_ERROR_INVALID_IMAGE ||
         R == CUDA_ERROR_NO_BINARY_FOR_GPU ||
         R == CUDA_ERROR_UNSUPPORTED_PTX_VERSION;
}

/// The process-wide driver table: loaded and initialised once.
const DriverApi *driver(std::string &WhyNot) {
  static DriverApi Api;
  static std::string Failure;
  static bool Ok = [] {
    if (!Api.load(Failure))
      return false;
    if (CUresult R = Api.cuInit(0); R != CUDA_SUCCESS) {
      Failure = Api.describe("cuInit", R);
      return false;
    }
    if (Api.cuDriverGetVersion(&Api.Version) != CUDA_SUCCESS)
      Api.Version = 0;
    return true;
  }();
  if (!Ok) {
    WhyNot = Failure;
    return nullptr;
  }
  return &Api;
}


class CudaBackend final : public Backend {
public:
  CudaBackend(const DriverApi &Api, CUdevice Dev, CUcontext Ctx)
      : Cu(Api), Device(Dev), Context(Ctx) {}
  ~CudaBackend() override;

  /// Fills the device description and creates the stream.
  Status init();

  slmc_backend kind() const override { return SLMC_BACKEND_CUDA; }
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
  struct Function {
    CUfunction Handle = nullptr;
    size_t StaticShared = 0;     // CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES
    size_t MaxThreads = 0;       // CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK
    size_t DynamicSharedMax = 0; // CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
  };
  struct Module {
    CUmodule Handle = nullptr;
    Status Failure; // the cached build failure, if any
  };

  Status check(CUresult R, const char *Call,
               slmc_status Code = SLMC_ERROR_BACKEND) const {
    if (R == CUDA_SUCCESS)
      return Status::ok();
    return Status::error(Code, Cu.describe(Call, R));
  }
  Status makeCurrent() const {
    return check(Cu.cuCtxSetCurrent(Context), "cuCtxSetCurrent");
  }
  Status attribute(int Attr, const char *Name, int &Value) const;
  Status waitForStream(const char *Op) const;
  /// The module of `Images`, JIT-compiled on first use. Caller holds Lock.
  Status module(const KernelRecord &Kernel, CUmodule &Out);
  /// The function of `Kernel`, looked up and described on first use.
  Status function(const KernelRecord &Kernel, Function *&Out);

  const DriverApi &Cu;
  CUdevice Device;
  CUcontext Context;
  CUstream Stream = nullptr;
  slmc_device_info Info{};
  size_t DefaultSharedPerBlock = 0; // without opting in (48 KiB)
  size_t OptinSharedPerBlock = 0;   // the most a function can opt in to
  slmc_dim3 MaxGridDims{};

  std::mutex Lock; // guards the caches and function attribute changes
  std::map<const FatBinary *, Module> Modules;
  std::map<std::pair<const FatBinary *, std::string>, Function> Functions;
};

CudaBackend::~CudaBackend() {
  // Errors are ignored: at process exit the driver may already be gone.
  if (Cu.cuCtxSetCurrent(Context) == CUDA_SUCCESS) {
    if (Stream) {
      Cu.cuStreamSynchronize(Stream);
      Cu.cuStreamDestroy(Stream);
    }
    for (auto &[Images, M] : Modules)
      if (M.Handle)
        Cu.cuModuleUnload(M.Handle);
  }
  Cu.cuDevicePrimaryCtxRelease(Device);
}

Status CudaBackend::attribute(int Attr, const char *Name, int &Value) const {
  Value = 0;
  CUresult R = Cu.cuDeviceGetAttribute(&Value, Attr, Device);
  if (R != CUDA_SUCCESS)
    return Status::error(SLMC_ERROR_BACKEND,
                         Cu.describe("cuDeviceGetAttribute", R) + " (" + Name +
                             ")");
  return Status::ok();
}

Status CudaBackend::init() {
  if (auto S = makeCurrent())
    return S;
  Info.backend = SLMC_BACKEND_CUDA;
  if (auto S = check(Cu.cuDeviceGetName(Info.name, sizeof(Info.name), Device),
                     "cuDeviceGetName"))
    return S;
  Info.name[sizeof(Info.name) - 1] = '\0';

  struct {
    int Attr;
    const char *Name;
    int Value;
  } Attrs[] = {
      {CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, "max threads per block", 0},
      {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, "max block dim x", 0},
      {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y, "max block dim y", 0},
      {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z, "max block dim z", 0},
      {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, "max grid dim x", 0},
      {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y, "max grid dim y", 0},
      {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z, "max grid dim z", 0},
      {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, "shared per block", 0},
      {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
       "opt-in shared per block", 0},
      {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, "multiprocessor count", 0},
      {CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING, "unified addressing", 0},
      {CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY, "managed memory", 0},
  };
  for (auto &A : Attrs)
    if (auto S = attribute(A.Attr, A.Name, A.Value))
      return S;
  auto U = [](int V) { return static_cast<uint32_t>(V < 0 ? 0 : V); };
  Info.max_group_size = U(Attrs[0].Value);
  Info.max_group_dims = {U(Attrs[1].Value), U(Attrs[2].Value),
                         U(Attrs[3].Value)};
  MaxGridDims = {U(Attrs[4].Value), U(Attrs[5].Value), U(Attrs[6].Value)};
  DefaultSharedPerBlock = U(Attrs[7].Value);
  // The opt-in limit is what a launch can actually get (launch() opts in as
  // needed); devices without opt-in report 0 and keep the default.
  OptinSharedPerBlock = std::max<size_t>(U(Attrs[8].Value),
                                         DefaultSharedPerBlock);
  Info.max_group_local_memory = OptinSharedPerBlock;
  Info.compute_units = U(Attrs[9].Value);
  Info.sub_group_sizes[0] = 32; // the warp
  Info.num_sub_group_sizes = 1;
  if (Attrs[10].Value == 0)
    return Status::error(SLMC_ERROR_NO_DEVICE,
                         std::string("CUDA device '") + Info.name +
                             "' lacks unified addressing");
  (void)Attrs[11]; // checked when managed memory is requested

  size_t Total = 0;
  if (auto S = check(Cu.cuDeviceTotalMem(&Total, Device), "cuDeviceTotalMem_v2"))
    return S;
  Info.global_memory = Total;

  return check(Cu.cuStreamCreate(&Stream, CU_STREAM_DEFAULT), "cuStreamCreate");
}

Status CudaBackend::waitForStream(const char *Op) const {
  CUresult R = Cu.cuStreamSynchronize(Stream);
  if (R == CUDA_SUCCESS)
    return Status::ok();
  return Status::error(SLMC_ERROR_LAUNCH_FAILURE,
                       std::string("a kernel failed on CUDA device '") +
                           Info.name + "' (reported by " + Op +
                           "): " + Cu.describe("cuStreamSynchronize", R));
}

Status CudaBackend::allocShared(void **Ptr, size_t Bytes) {
  if (!Ptr || Bytes == 0)
    return Status::error(SLMC_ERROR_INVALID_VALUE,
                         "allocShared: null result pointer or zero size");
  *Ptr = nullptr;
  if (auto S = makeCurrent())
    return S;
  int Managed = 0;
  if (auto S = attribute(CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY, "managed memory",
                         Managed))
    return S;
  if (!Managed)
    return Status::error(SLMC_ERROR_BACKEND,
                         std::string("CUDA device '") + Info.name +
                             "' does not support managed memory");
  CUdeviceptr P = 0;
  CUresult R = Cu.cuMemAllocManaged(&P, Bytes, CU_MEM_ATTACH_GLOBAL);
  if (R != CUDA_SUCCESS)
    return check(R, "cuMemAllocManaged",
                 R == CUDA_ERROR_OUT_OF_MEMORY ? SLMC_ERROR_OUT_OF_MEMORY
                                               : SLMC_ERROR_BACKEND);
  *Ptr = reinterpret_cast<void *>(static_cast<uintptr_t>(P));
  return Status::ok();
}

Status CudaBackend::allocDevice(void **Ptr, size_t Bytes) {
  if (!Ptr || Bytes == 0)
    return Status::error(SLMC_ERROR_INVALID_VALUE,
                         "allocDevice: null result pointer or zero size");
  *Ptr = nullptr;
  if (auto S = makeCurrent())
    return S;
  CUdeviceptr P = 0;
  CUresult R = Cu.cuMemAlloc(&P, Bytes);
  if (R != CUDA_SUCCESS)
    return check(R, "cuMemAlloc_v2",
                 R == CUDA_ERROR_OUT_OF_MEMORY ? SLMC_ERROR_OUT_OF_MEMORY
                                               : SLMC_ERROR_BACKEND);
  *Ptr = reinterpret_cast<void *>(static_cast<uintptr_t>(P));
  return Status::ok();
}

Status CudaBackend::free(void *Ptr) {
  if (!Ptr)
    return Status::ok();
  if (auto S = makeCurrent())
    return S;
  CUresult R = Cu.cuMemFree(static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(Ptr)));
  if (R == CUDA_ERROR_INVALID_VALUE)
    return check(R, "cuMemFree_v2", SLMC_ERROR_INVALID_VALUE);
  return check(R, "cuMemFree_v2");
}

Status CudaBackend::memcpy(void *Dst, const void *Src, size_t Bytes) {
  if (Bytes == 0)
    return Status::ok();
  if (!Dst || !Src)
    return Status::error(SLMC_ERROR_INVALID_VALUE, "memcpy: null pointer");
  if (auto S = makeCurrent())
    return S;
  if (auto S = waitForStream("memcpy"))
    return S;
  // Unified addressing: the driver infers the direction from the pointers
  // (host, managed, device, including host to host).
  if (auto S = check(
          Cu.cuMemcpyAsync(
              static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(Dst)),
              static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(Src)),
              Bytes, Stream),
          "cuMemcpyAsync"))
    return S;
  return check(Cu.cuStreamSynchronize(Stream), "cuStreamSynchronize");
}

Status CudaBackend::memset(void *Dst, int Value, size_t Bytes) {
  if (Bytes == 0)
    return Status::ok();
  if (!Dst)
    return Status::error(SLMC_ERROR_INVALID_VALUE, "memset: null pointer");
  if (auto S = makeCurrent())
    return S;
  if (auto S = waitForStream("memset"))
    return S;
  auto P = static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(Dst));
  unsigned MemoryType = 0;
  CUresult R =
      Cu.cuPointerGetAttribute(&MemoryType, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, P);
  if (R == CUDA_ERROR_INVALID_VALUE) {
    // Plain host memory, unknown to the driver.
    std::memset(Dst, Value, Bytes);
    return Status::ok();
  }
  // Any other failure says nothing about the pointer: filling device memory
  // from the host would crash.
  if (auto S = check(R, "cuPointerGetAttribute"))
    return S;
  if (auto S = check(Cu.cuMemsetD8Async(P, static_cast<unsigned char>(Value),
                                        Bytes, Stream),
                     "cuMemsetD8Async"))
    return S;
  return check(Cu.cuStreamSynchronize(Stream), "cuStreamSynchronize");
}

Status CudaBackend::synchronize() {
  if (auto S = makeCurrent())
    return S;
  return waitForStream("synchronize");
}

Status CudaBackend::module(const KernelRecord &Kernel, CUmodule &Out) {
  auto [It, Inserted] = Modules.try_emplace(Kernel.Images);
  Module &M = It->second;
  if (!Inserted) {
    Out = M.Handle;
    return M.Failure;
  }

  const DeviceImage *Ptx = Kernel.Images->find(ImageKind::PTX);
  if (!Ptx || !Ptx->Data || Ptx->Size == 0) {
    M.Failure = Status::error(
        SLMC_ERROR_INVALID_IMAGE,
        "no PTX image for kernel '" + Kernel.Name + "' (among " +
            std::to_string(Kernel.Images->Images.size()) +
            " device images); build the program with the CUDA target");
    return M.Failure;
  }

  // The JIT reads a NUL-terminated string; the image need not carry one.
  std::string Text(reinterpret_cast<const char *>(Ptx->Data), Ptx->Size);
  char ErrorLog[16384] = {};
  char InfoLog[8192] = {};
  int Options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                   CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES};
  void *Values[] = {ErrorLog, reinterpret_cast<void *>(sizeof(ErrorLog)),
                    InfoLog, reinterpret_cast<void *>(sizeof(InfoLog))};
  CUresult R = Cu.cuModuleLoadDataEx(&M.Handle, Text.c_str(),
                                     sizeof(Options) / sizeof(Options[0]),
                                     Options, Values);
  if (R != CUDA_SUCCESS && !rejectsImage(R)) {
    // Not the image's fault: the next launch compiles again.
    Modules.erase(It);
    return Status::error(R == CUDA_ERROR_OUT_OF_MEMORY ? SLMC_ERROR_OUT_OF_MEMORY
                                                      : SLMC_ERROR_BACKEND,
                         "kernel '" + Kernel.Name + "': " +
                             Cu.describe("cuModuleLoadDataEx", R) +
                             " (device '" + Info.name + "')");
  }
  if (R != CUDA_SUCCESS) {
    M.Handle = nullptr;
    ErrorLog[sizeof(ErrorLog) - 1] = '\0';
    InfoLog[sizeof(InfoLog) - 1] = '\0';
    std::string Log = ErrorLog;
    if (InfoLog[0])
      Log += (Log.empty() ? "" : "\n") + std::string(InfoLog);
    while (!Log.empty() && (Log.back() == '\n' || Log.back() == '\r'))
      Log.pop_back();
    std::string Arch(Ptx->arch());
    M.Failure = Status::error(
        SLMC_ERROR_BUILD_FAILURE,
        "CUDA PTX JIT failed: " + Cu.errorName(R) + " (PTX for " +
            (Arch.empty() ? std::string("unknown arch") : Arch) +
            ", device '" + Info.name + "', CUDA driver " + Cu.versionString() +
            ")" + (Log.empty() ? "" : ":\n" + Log));
    return M.Failure;
  }
  Out = M.Handle;
  return Status::ok();
}

Status CudaBackend::function(const KernelRecord &Kernel, Function *&Out) {
  if (!Kernel.Images)
    return Status::error(SLMC_ERROR_INVALID_VALUE,
                         "kernel '" + Kernel.Name + "' has no device images");
  auto Key = std::make_pair(Kernel.Images, Kernel.Name);
  if (auto It = Functions.find(Key); It != Functions.end()) {
    Out = &It->second;
    return Status::ok();
  }
  CUmodule Mod = nullptr;
  if (auto S = module(Kernel, Mod))
    return S;

  Function F;
  CUresult R = Cu.cuModuleGetFunction(&F.Handle, Mod, Kernel.Name.c_str());
  if (R != CUDA_SUCCESS)
    return Status::error(SLMC_ERROR_KERNEL_NOT_FOUND,
                         "kernel '" + Kernel.Name +
                             "' is not in the PTX image (" +
                             Cu.describe("cuModuleGetFunction", R) + ")");
  int StaticShared = 0, MaxThreads = 0, DynamicMax = 0;
  if (auto S = check(Cu.cuFuncGetAttribute(&StaticShared,
                                           CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES,
                                           F.Handle),
                     "cuFuncGetAttribute"))
    return S;
  if (auto S = check(Cu.cuFuncGetAttribute(
                         &MaxThreads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                         F.Handle),
                     "cuFuncGetAttribute"))
    return S;
  if (auto S = check(Cu.cuFuncGetAttribute(
                         &DynamicMax,
                         CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                         F.Handle),
                     "cuFuncGetAttribute"))
    return S;
  F.StaticShared = static_cast<size_t>(StaticShared < 0 ? 0 : StaticShared);
  F.MaxThreads = static_cast<size_t>(MaxThreads < 0 ? 0 : MaxThreads);
  F.DynamicSharedMax = static_cast<size_t>(DynamicMax < 0 ? 0 : DynamicMax);
  Out = &Functions.emplace(std::move(Key), F).first->second;
  return Status::ok();
}

Status CudaBackend::kernelGroupMemory(const KernelRecord &Kernel,
                                      size_t &Bytes) {
  if (auto S = makeCurrent())
    return S;
  std::lock_guard<std::mutex> Guard(Lock);
  Function *F = nullptr;
  if (auto S = function(Kernel, F))
    return S;
  Bytes = F->StaticShared;
  return Status::ok();
}

Status CudaBackend::launch(const LaunchRequest &Request) {
  const slmc_launch_params &P = Request.Params;
  const std::string &Name = Request.Kernel.Name;
  const slmc_dim3 &G = P.group_count, &B = P.group_size;
  if (auto S = checkLaunchRequest(Name, P, /*NeedSizes=*/false))
    return S;
  if (auto S = makeCurrent())
    return S;

  std::unique_lock<std::mutex> Guard(Lock);
  Function *F = nullptr;
  if (auto S = function(Request.Kernel, F))
    return S;

  LaunchLimits L;
  L.Device = std::string("CUDA device '") + Info.name + "'";
  L.MaxGroupDims = Info.max_group_dims;
  L.MaxGroupSize = Info.max_group_size;
  L.KernelMaxGroupSize = F->MaxThreads;
  L.MaxGroupCount = MaxGridDims;
  L.MaxGroupMemory = OptinSharedPerBlock;
  L.GroupMemoryNote = " (" + std::to_string(DefaultSharedPerBlock) + " without opt-in)";
  size_t Dynamic = P.dynamic_group_memory;
  if (auto S = checkLaunchLimits(Name, G, B, F->StaticShared, Dynamic, L))
    return S;
  if (Dynamic > F->DynamicSharedMax) {
    // Above the default window: opt this function in to the larger carve-out.
    if (auto S = check(Cu.cuFuncSetAttribute(
                           F->Handle,
                           CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                           static_cast<int>(Dynamic)),
                       "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)",
                       SLMC_ERROR_RESOURCE_LIMIT))
      return S;
    F->DynamicSharedMax = Dynamic;
  }
  CUfunction Handle = F->Handle;
  Guard.unlock();

  CUresult R = Cu.cuLaunchKernel(Handle, G.x, G.y, G.z, B.x, B.y, B.z,
                                 static_cast<unsigned>(Dynamic), Stream,
                                 P.num_args ? P.args : nullptr, nullptr);
  if (R == CUDA_SUCCESS)
    return Status::ok();
  slmc_status Code = R == CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES
                         ? SLMC_ERROR_RESOURCE_LIMIT
                         : SLMC_ERROR_LAUNCH_FAILURE;
  return Status::error(Code, "kernel '" + Name + "' (" + dim3Str(G) +
                                 " groups of " + dim3Str(B) + ", " +
                                 std::to_string(Dynamic) +
                                 " dynamic bytes): " +
                                 Cu.describe("cuLaunchKernel", R));
}

} // namespace

std::unique_ptr<Backend> createCudaBackend(std::string &WhyNot) {
  const DriverApi *Cu = driver(WhyNot);
  if (!Cu)
    return nullptr;

  int Count = 0;
  if (CUresult R = Cu->cuDeviceGetCount(&Count); R != CUDA_SUCCESS) {
    WhyNot = Cu->describe("cuDeviceGetCount", R);
    return nullptr;
  }
  if (Count <= 0) {
    WhyNot = "no CUDA device (the driver reports 0 devices)";
    return nullptr;
  }

  int Ordinal = 0;
  if (const char *Env = std::getenv("SLMC_CUDA_DEVICE"); Env && *Env) {
    char *End = nullptr;
    errno = 0;
    long V = std::strtol(Env, &End, 10);
    if (errno || *End || V < 0 || V >= Count) {
      WhyNot = std::string("SLMC_CUDA_DEVICE=") + Env +
               " is not a device ordinal (the driver reports " +
               std::to_string(Count) + " CUDA device" +
               (Count == 1 ? "" : "s") + ")";
      return nullptr;
    }
    Ordinal = static_cast<int>(V);
  }

  CUdevice Device = 0;
  if (CUresult R = Cu->cuDeviceGet(&Device, Ordinal); R != CUDA_SUCCESS) {
    WhyNot = Cu->describe("cuDeviceGet", R);
    return nullptr;
  }
  CUcontext Context = nullptr;
  if (CUresult R = Cu->cuDevicePrimaryCtxRetain(&Context, Device);
      R != CUDA_SUCCESS) {
    WhyNot = Cu->describe("cuDevicePrimaryCtxRetain", R);
    return nullptr;
  }
  auto B = std::make_unique<CudaBackend>(*Cu, Device, Context);
  if (Status S = B->init()) {
    WhyNot = "CUDA device " + std::to_string(Ordinal) + ": " + S.Message;
    return nullptr;
  }
  return B;
}

} // namespace slmc::rt
