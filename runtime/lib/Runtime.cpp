//===- Runtime.cpp - The C API of libslmrt --------------------------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The runtime core: error strings, the kernel registry fed by Clang's HIP
// registration calls, the choice of device and the forwarding of every call
// to the one backend in use.
//
// Lifetime: the registry and the backends live in heap objects that are never
// destroyed. Programs unregister their images from an atexit handler that may
// run after ordinary static destructors, and a backend may own threads that
// must not be joined while the process is going down; leaking both means no
// object is ever used after (or destroyed twice at) exit.
//
//===----------------------------------------------------------------------===//
#include "Backend.h"
#include "DeviceSelector.h"
#include "FatBinary.h"
#include "Offload.h"
#include "Program.h"

#include <link.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace slmc::rt {
namespace {

// ---- Errors --------------------------------------------------------------

// The thread's last error. API calls can come from atexit handlers, after the
// thread's TLS objects were destroyed; the trivially destructible flag tells.
thread_local bool LastErrorGone = false;
struct LastErrorStore {
  std::string Text;
  slmc_status Code = SLMC_SUCCESS;
  // The first failure while a task of the offload queue runs (Offload.cpp).
  bool Capturing = false, Captured = false;
  slmc_status CapturedCode = SLMC_SUCCESS;
  std::string CapturedText;
  uint64_t Failures = 0;   // recorded on this thread so far
  uint64_t CapturedAt = 0; // the captured one's number
  ~LastErrorStore() { LastErrorGone = true; }
};
thread_local LastErrorStore LastError;

/// Records `Message` as this thread's last error and returns `Code`. Every
/// message the API hands out starts with "slmc: ".
slmc_status fail(slmc_status Code, std::string Message) {
  if (Message.compare(0, 6, "slmc: ") != 0)
    Message.insert(0, "slmc: ");
  if (!LastErrorGone) {
    ++LastError.Failures;
    if (LastError.Capturing && !LastError.Captured) {
      LastError.Captured = true;
      LastError.CapturedAt = LastError.Failures;
      LastError.CapturedCode = Code;
      LastError.CapturedText = Message;
    }
    LastError.Code = Code;
    LastError.Text = std::move(Message);
  }
  return Code;
}

slmc_status report(const Status &S) {
  return S ? fail(S.Code, S.Message) : SLMC_SUCCESS;
}

std::string pointerString(const void *P) {
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "%p", P);
  return Buf;
}

std::string dimString(slmc_dim3 D) {
  return std::to_string(D.x) + "x" + std::to_string(D.y) + "x" +
         std::to_string(D.z);
}

// ---- Kernel registry -----------------------------------------------------

constexpr int32_t kHipFatMagic = 0x48495046; // "HIPF"
constexpr int32_t kHipFatVersion = 1;

/// The wrapper Clang emits around the embedded container.
struct HipFatBinaryWrapper {
  int32_t Magic;
  int32_t Version;
  const void *Data;
  void *Unused;
};

/// One __hipRegisterFatBinary call. The `void **` handle given back to the
/// program points at `Cookie`, so even code that dereferences it reads valid
/// memory.
struct Module {
  void *Cookie = nullptr;
  bool Registered = true; // until __hipUnregisterFatBinary
  bool Ok = false;
  std::string Error; // why the images are unusable when !Ok
  FatBinary Images;
};

struct Registration {
  Module *Owner;
  KernelRecord Record;
};

/// Modules and kernel records are never freed, not even when unregistered: a
/// backend may cache built device modules by `KernelRecord::Images`, and a
/// freed address coming back for another image would alias that cache.
class Registry {
public:
  void **addModule(Module *M) {
    std::lock_guard<std::mutex> L(Mutex);
    Modules.emplace(&M->Cookie, M);
    return &M->Cookie;
  }

  /// The module behind a handle from addModule, or null.
  Module *module(void **Handle) {
    std::lock_guard<std::mutex> L(Mutex);
    auto It = Modules.find(Handle);
    return It == Modules.end() ? nullptr : It->second;
  }

  void addKernel(Module *M, const void *Handle, std::string Name) {
    auto *R = new Registration{M, KernelRecord{Handle, &M->Images, std::move(Name)}};
    std::lock_guard<std::mutex> L(Mutex);
    if (!M->Registered) {
      Retired.push_back(R);
      return;
    }
    // An inline kernel (every template instance) is registered once by each
    // translation unit that uses it, all under the same host address.
    Kernels[Handle].push_back(R);
  }

  void removeModule(Module *M) {
    std::lock_guard<std::mutex> L(Mutex);
    M->Registered = false;
    for (auto It = Kernels.begin(); It != Kernels.end();) {
      auto &V = It->second;
      for (size_t I = 0; I < V.size();)
        if (V[I]->Owner == M) {
          Retired.push_back(V[I]);
          V.erase(V.begin() + I);
        } else {
          ++I;
        }
      It = V.empty() ? Kernels.erase(It) : std::next(It);
    }
  }

  /// The registration to launch `Handle` with: one whose images parsed, else
  /// the first (so that the caller can report its error); null if none.
  const Registration *find(const void *Handle) {
    std::lock_guard<std::mutex> L(Mutex);
    auto It = Kernels.find(Handle);
    if (It == Kernels.end())
      return nullptr;
    for (const Registration *R : It->second)
      if (R->Owner->Ok)
        return R;
    return It->second.front();
  }

  /// Empties the images of an unregistered module whose bytes are about to
  /// be freed (a released program): the record stays, as above, but keeps
  /// neither pointers into freed memory nor the images' strings, so that a
  /// program loaded and released in a loop does not grow the process.
  void dropImages(Module *M) {
    std::lock_guard<std::mutex> L(Mutex);
    M->Images = FatBinary();
  }

private:
  std::mutex Mutex;
  std::unordered_map<void **, Module *> Modules;
  std::unordered_map<const void *, std::vector<Registration *>> Kernels;
  std::vector<Registration *> Retired; // unregistered, kept (see above)
};

Registry &registry() {
  static Registry *R = new Registry;
  return *R;
}

struct SegmentQuery {
  uintptr_t Address;
  size_t Limit;
  bool Found;
};

int findSegment(dl_phdr_info *Info, size_t, void *Arg) {
  auto *Q = static_cast<SegmentQuery *>(Arg);
  for (ElfW(Half) I = 0; I < Info->dlpi_phnum; ++I) {
    const ElfW(Phdr) &P = Info->dlpi_phdr[I];
    if (P.p_type != PT_LOAD || !(P.p_flags & PF_R))
      continue;
    uintptr_t Start = Info->dlpi_addr + P.p_vaddr;
    uintptr_t End = Start + P.p_memsz;
    if (Q->Address >= Start && Q->Address < End) {
      Q->Limit = End - Q->Address;
      Q->Found = true;
      return 1;
    }
  }
  return 0;
}

/// Parses the container at `Data`, never reading past the end of the loaded
/// segment that holds it, whatever sizes the container claims.
void parseModule(Module &M, const void *Data) {
  SegmentQuery Q{reinterpret_cast<uintptr_t>(Data), 0, false};
  dl_iterate_phdr(findSegment, &Q);
  if (!Q.Found) {
    M.Error = "device images at " + pointerString(Data) +
              " are not inside a loaded ELF segment";
    return;
  }
  std::string Error;
  if (!parseEmbeddedFatBinary(Data, M.Images, Error, Q.Limit)) {
    M.Error = Error;
    return;
  }
  if (!verifyChecksums(M.Images, Error)) {
    M.Error = "offload container: " + Error;
    M.Images = FatBinary(); // nothing of it reaches a driver
    return;
  }
  M.Ok = true;
}

const KernelRecord &hostOnlyKernel() {
  static const FatBinary *Empty = new FatBinary;
  static const KernelRecord *R = new KernelRecord{nullptr, Empty, "<host-only kernel>"};
  return *R;
}

/// Finds a registered kernel; on failure records the error and returns null.
const KernelRecord *lookupKernel(const void *Handle, slmc_status &Code) {
  const Registration *R = registry().find(Handle);
  if (!R) {
    Code = fail(SLMC_ERROR_KERNEL_NOT_FOUND,
                "kernel " + pointerString(Handle) +
                    " is not registered (was its translation unit compiled "
                    "by slmc++, and is it still loaded?)");
    return nullptr;
  }
  if (!R->Owner->Ok) {
    Code = fail(SLMC_ERROR_INVALID_IMAGE,
                "kernel '" + R->Record.Name +
                    "': the embedded device images are corrupt: " +
                    R->Owner->Error);
    return nullptr;
  }
  return &R->Record;
}

// ---- Devices ---------------------------------------------------------------

const char *displayName(slmc_backend K) {
  switch (K) {
  case SLMC_BACKEND_LEVEL_ZERO: return "Level Zero";
  case SLMC_BACKEND_CUDA: return "CUDA";
  case SLMC_BACKEND_CPU: return "CPU";
  case SLMC_BACKEND_AUTO: break;
  }
  return "auto";
}

bool validKind(slmc_backend K) {
  return K == SLMC_BACKEND_AUTO || K == SLMC_BACKEND_LEVEL_ZERO ||
         K == SLMC_BACKEND_CUDA || K == SLMC_BACKEND_CPU;
}

/// Owns at most one instance of each backend, created on first need and kept
/// for the life of the process, and the pointer to the one in use.
class Devices {
public:
  /// The backend in use, choosing it on first call (SLMC_DEVICE, else the
  /// best present that ONEAPI_DEVICE_SELECTOR allows). On failure records
  /// the error and returns null.
  Backend *current(slmc_status &Code) {
    if (Backend *B = Current.load(std::memory_order_acquire))
      return B;
    std::lock_guard<std::mutex> L(Mutex);
    if (Backend *B = Current.load(std::memory_order_relaxed))
      return B;
    slmc_backend Kind = SLMC_BACKEND_AUTO;
    const char *Env = std::getenv("SLMC_DEVICE");
    if (Env && *Env) {
      std::string V = Env;
      if (V == "level_zero")
        Kind = SLMC_BACKEND_LEVEL_ZERO;
      else if (V == "cuda")
        Kind = SLMC_BACKEND_CUDA;
      else if (V == "cpu")
        Kind = SLMC_BACKEND_CPU;
      else if (V != "auto") {
        Code = fail(SLMC_ERROR_INVALID_VALUE,
                    "SLMC_DEVICE='" + V +
                        "' is not a device; use level_zero, cuda or cpu");
        return nullptr;
      }
    } else if (const char *Selector = std::getenv("ONEAPI_DEVICE_SELECTOR");
               Selector && *Selector) {
      BackendFilter F = parseDeviceSelector(Selector);
      if (!F.Error.empty()) {
        Code = fail(SLMC_ERROR_INVALID_VALUE, F.Error);
        return nullptr;
      }
      Backend *B = chooseAmong(F, Code);
      if (B)
        use(B);
      return B;
    }
    Backend *B = choose(Kind, Code);
    if (B)
      use(B);
    return B;
  }

  slmc_status select(slmc_backend Kind) {
    if (!validKind(Kind))
      return fail(SLMC_ERROR_INVALID_VALUE,
                  "slmc_select_backend: unknown backend " +
                      std::to_string(int(Kind)));
    std::lock_guard<std::mutex> L(Mutex);
    slmc_status Code = SLMC_SUCCESS;
    Backend *B = choose(Kind, Code);
    if (!B)
      return Code; // the current choice stays as it was
    use(B);
    return SLMC_SUCCESS;
  }

  bool available(slmc_backend Kind) {
    if (!validKind(Kind))
      return false;
    std::lock_guard<std::mutex> L(Mutex);
    if (Kind != SLMC_BACKEND_AUTO)
      return instance(Kind) != nullptr;
    for (slmc_backend K : kPreference)
      if (instance(K))
        return true;
    return false;
  }

  /// One backend's instance, not selected; null with the reason recorded.
  Backend *probe(slmc_backend Kind, slmc_status &Code) {
    std::lock_guard<std::mutex> L(Mutex);
    return choose(Kind, Code);
  }

  /// The CPU fallback, whichever backend is in use (for host-only kernels).
  Backend *cpu(slmc_status &Code) {
    std::lock_guard<std::mutex> L(Mutex);
    return choose(SLMC_BACKEND_CPU, Code);
  }

private:
  static constexpr slmc_backend kPreference[] = {
      SLMC_BACKEND_LEVEL_ZERO, SLMC_BACKEND_CUDA, SLMC_BACKEND_CPU};

  struct Slot {
    bool Tried = false;
    std::unique_ptr<Backend> Instance;
    std::string WhyNot;
  };

  // Called with Mutex held.
  Backend *instance(slmc_backend Kind) {
    Slot &S = Slots[Kind];
    if (!S.Tried) {
      S.Tried = true;
      std::string Why;
      switch (Kind) {
      case SLMC_BACKEND_LEVEL_ZERO: S.Instance = createLevelZeroBackend(Why); break;
      case SLMC_BACKEND_CUDA: S.Instance = createCudaBackend(Why); break;
      case SLMC_BACKEND_CPU: S.Instance = createCpuBackend(Why); break;
      case SLMC_BACKEND_AUTO: break;
      }
      if (!S.Instance)
        S.WhyNot = Why.empty() ? "unknown reason" : Why;
    }
    return S.Instance.get();
  }

  // Called with Mutex held.
  Backend *choose(slmc_backend Kind, slmc_status &Code) {
    if (Kind != SLMC_BACKEND_AUTO) {
      if (Backend *B = instance(Kind))
        return B;
      Code = fail(SLMC_ERROR_NO_DEVICE, std::string("no ") + displayName(Kind) +
                                            " device: " + Slots[Kind].WhyNot);
      return nullptr;
    }
    return chooseAmong(BackendFilter{~0u, {}}, Code);
  }

  // Called with Mutex held.
  Backend *chooseAmong(const BackendFilter &Filter, slmc_status &Code) {
    std::string Reasons;
    for (slmc_backend K : kPreference) {
      if (!Filter.allows(K))
        continue;
      if (Backend *B = instance(K))
        return B;
      Reasons += std::string(Reasons.empty() ? "" : "; ") + displayName(K) +
                 ": " + Slots[K].WhyNot;
    }
    Code = fail(SLMC_ERROR_NO_DEVICE, "no device: " + Reasons);
    return nullptr;
  }

  // Called with Mutex held.
  void use(Backend *B) {
    Current.store(B, std::memory_order_release);
    if (B == Announced)
      return;
    Announced = B;
    const char *Verbose = std::getenv("SLMC_VERBOSE");
    if (Verbose && *Verbose && std::strcmp(Verbose, "0") != 0)
      std::fprintf(stderr, "slmc: using %s device: %s\n",
                   slmc_backend_name(B->kind()), B->info().name);
  }

  std::mutex Mutex;
  std::atomic<Backend *> Current{nullptr};
  Backend *Announced = nullptr;
  Slot Slots[4]; // indexed by slmc_backend
};

Devices &devices() {
  static Devices *D = new Devices;
  return *D;
}

Backend *currentBackend(slmc_status &Code) { return devices().current(Code); }

slmc_status checkDims(const char *What, slmc_dim3 D) {
  if (D.x == 0 || D.y == 0 || D.z == 0)
    return fail(SLMC_ERROR_INVALID_VALUE, std::string("slmc_launch: ") + What +
                                              " " + dimString(D) +
                                              " has a zero dimension");
  return SLMC_SUCCESS;
}

// ---- HIP launch configuration (<<<...>>> in host code) ---------------------

struct CallConfig {
  slmc_dim3 Grid, Block;
  size_t Shared;
  void *Stream;
};
thread_local std::vector<CallConfig> CallConfigs;

} // namespace
} // namespace slmc::rt

using namespace slmc::rt;

// ---- Errors ----------------------------------------------------------------

extern "C" const char *slmc_status_string(slmc_status S) {
  switch (S) {
  case SLMC_SUCCESS: return "SLMC_SUCCESS";
  case SLMC_ERROR_INVALID_VALUE: return "SLMC_ERROR_INVALID_VALUE";
  case SLMC_ERROR_NO_DEVICE: return "SLMC_ERROR_NO_DEVICE";
  case SLMC_ERROR_OUT_OF_MEMORY: return "SLMC_ERROR_OUT_OF_MEMORY";
  case SLMC_ERROR_INVALID_IMAGE: return "SLMC_ERROR_INVALID_IMAGE";
  case SLMC_ERROR_BUILD_FAILURE: return "SLMC_ERROR_BUILD_FAILURE";
  case SLMC_ERROR_KERNEL_NOT_FOUND: return "SLMC_ERROR_KERNEL_NOT_FOUND";
  case SLMC_ERROR_RESOURCE_LIMIT: return "SLMC_ERROR_RESOURCE_LIMIT";
  case SLMC_ERROR_LAUNCH_FAILURE: return "SLMC_ERROR_LAUNCH_FAILURE";
  case SLMC_ERROR_BARRIER_DIVERGENCE: return "SLMC_ERROR_BARRIER_DIVERGENCE";
  case SLMC_ERROR_BACKEND: return "SLMC_ERROR_BACKEND";
  case SLMC_ERROR_TASK_NOT_FOUND: return "SLMC_ERROR_TASK_NOT_FOUND";
  case SLMC_ERROR_TIMEOUT: return "SLMC_ERROR_TIMEOUT";
  case SLMC_ERROR_UNSUPPORTED: return "SLMC_ERROR_UNSUPPORTED";
  case SLMC_ERROR_DATA_RACE: return "SLMC_ERROR_DATA_RACE";
  case SLMC_ERROR_GROUP_LOCAL_BOUNDS: return "SLMC_ERROR_GROUP_LOCAL_BOUNDS";
  }
  return "SLMC_ERROR_UNKNOWN";
}

extern "C" const char *slmc_last_error(void) {
  return LastErrorGone ? "" : LastError.Text.c_str();
}

extern "C" slmc_status slmc_last_status(void) {
  return LastErrorGone ? SLMC_SUCCESS : LastError.Code;
}

extern "C" slmc_status slmc_report_error(slmc_status Code, const char *Message) {
  if (Code == SLMC_SUCCESS)
    return fail(SLMC_ERROR_INVALID_VALUE,
                "slmc_report_error: SLMC_SUCCESS is not a failure");
  return fail(Code, Message && *Message ? Message : slmc_status_string(Code));
}

// ---- Device selection ------------------------------------------------------

extern "C" slmc_status slmc_select_backend(slmc_backend Kind) {
  return devices().select(Kind);
}

extern "C" slmc_status slmc_get_backend(slmc_backend *Kind) {
  if (!Kind)
    return fail(SLMC_ERROR_INVALID_VALUE, "slmc_get_backend: null pointer");
  slmc_status Code = SLMC_SUCCESS;
  Backend *B = currentBackend(Code);
  if (!B)
    return Code;
  *Kind = B->kind();
  return SLMC_SUCCESS;
}

extern "C" int slmc_backend_available(slmc_backend Kind) {
  return devices().available(Kind) ? 1 : 0;
}

extern "C" const char *slmc_backend_name(slmc_backend Kind) {
  switch (Kind) {
  case SLMC_BACKEND_AUTO: return "auto";
  case SLMC_BACKEND_LEVEL_ZERO: return "level_zero";
  case SLMC_BACKEND_CUDA: return "cuda";
  case SLMC_BACKEND_CPU: return "cpu";
  }
  return "unknown";
}

extern "C" slmc_status slmc_get_device_info(slmc_device_info *Info) {
  if (!Info)
    return fail(SLMC_ERROR_INVALID_VALUE, "slmc_get_device_info: null pointer");
  slmc_status Code = SLMC_SUCCESS;
  Backend *B = currentBackend(Code);
  if (!B)
    return Code;
  *Info = B->info();
  return SLMC_SUCCESS;
}

extern "C" slmc_status slmc_get_backend_device_info(slmc_backend Kind,
                                                    slmc_device_info *Info) {
  if (!Info)
    return fail(SLMC_ERROR_INVALID_VALUE, "slmc_get_backend_device_info: null pointer");
  if (!validKind(Kind) || Kind == SLMC_BACKEND_AUTO)
    return fail(SLMC_ERROR_INVALID_VALUE,
                "slmc_get_backend_device_info: not a backend: " + std::to_string(int(Kind)));
  slmc_status Code = SLMC_SUCCESS;
  Backend *B = devices().probe(Kind, Code);
  if (!B)
    return Code;
  *Info = B->info();
  return SLMC_SUCCESS;
}

// ---- Memory ----------------------------------------------------------------

static slmc_status allocate(void **Ptr, size_t Bytes, bool Shared) {
  const char *Fn = Shared ? "slmc_malloc_shared" : "slmc_malloc_device";
  if (!Ptr)
    return fail(SLMC_ERROR_INVALID_VALUE, std::string(Fn) + ": null pointer");
  *Ptr = nullptr;
  if (Bytes == 0)
    return fail(SLMC_ERROR_INVALID_VALUE, std::string(Fn) + ": zero size");
  slmc_status Code = SLMC_SUCCESS;
  Backend *B = currentBackend(Code);
  if (!B)
    return Code;
  if (slmc_status S = report(Shared ? B->allocShared(Ptr, Bytes)
                                    : B->allocDevice(Ptr, Bytes)))
    return S;
  offloadNoteAllocation(*Ptr, Bytes); // never mirrored by slmc_device_pointer
  return SLMC_SUCCESS;
}

extern "C" slmc_status slmc_malloc_shared(void **Ptr, size_t Bytes) {
  return allocate(Ptr, Bytes, /*Shared=*/true);
}

extern "C" slmc_status slmc_malloc_device(void **Ptr, size_t Bytes) {
  return allocate(Ptr, Bytes, /*Shared=*/false);
}

extern "C" slmc_status slmc_free(void *Ptr) {
  if (!Ptr)
    return SLMC_SUCCESS; // like free(NULL)
  slmc_status Code = SLMC_SUCCESS;
  Backend *B = currentBackend(Code);
  if (!B)
    return Code;
  offloadNoteFree(Ptr);
  return report(B->free(Ptr));
}

extern "C" slmc_status slmc_memcpy(void *Dst, const void *Src, size_t Bytes) {
  if (Bytes == 0)
    return SLMC_SUCCESS;
  if (!Dst || !Src)
    return fail(SLMC_ERROR_INVALID_VALUE, "slmc_memcpy: null pointer");
  slmc_status Code = SLMC_SUCCESS;
  Backend *B = currentBackend(Code);
  if (!B)
    return Code;
  return report(B->memcpy(Dst, Src, Bytes));
}

extern "C" slmc_status slmc_memset(void *Dst, int Value, size_t Bytes) {
  if (Bytes == 0)
    return SLMC_SUCCESS;
  if (!Dst)
    return fail(SLMC_ERROR_INVALID_VALUE, "slmc_memset: null pointer");
  slmc_status Code = SLMC_SUCCESS;
  Backend *B = currentBackend(Code);
  if (!B)
    return Code;
  return report(B->memset(Dst, Value, Bytes));
}

extern "C" slmc_status slmc_synchronize(void) {
  slmc_status Code = SLMC_SUCCESS;
  Backend *B = currentBackend(Code);
  if (!B)
    return Code;
  return report(B->synchronize());
}

// ---- Kernels ---------------------------------------------------------------

/// A kernel compiled to require a sub-group size runs only on a device that
/// has it (SYCL: errc::kernel_not_supported otherwise).
static slmc_status checkSubGroupSize(const Backend &B, const slmc_launch_params &P) {
  if (P.sub_group_size == 0)
    return SLMC_SUCCESS;
  const slmc_device_info &I = B.info();
  std::string Sizes;
  for (uint32_t K = 0; K < I.num_sub_group_sizes && K < 8; ++K) {
    if (I.sub_group_sizes[K] == P.sub_group_size)
      return SLMC_SUCCESS;
    Sizes += (K ? ", " : "") + std::to_string(I.sub_group_sizes[K]);
  }
  return fail(SLMC_ERROR_UNSUPPORTED,
              "the kernel requires sub-group size " + std::to_string(P.sub_group_size) +
                  ", which " + std::string(slmc_backend_name(B.kind())) + " device '" +
                  I.name + "' does not have (its sizes: " + Sizes + ")");
}

extern "C" slmc_status slmc_launch(const void *Kernel, slmc_cpu_kernel_fn Cpu,
                                   const slmc_launch_params *P) {
  if (!P)
    return fail(SLMC_ERROR_INVALID_VALUE, "slmc_launch: null parameters");
  if (slmc_status S = checkDims("group_count", P->group_count))
    return S;
  if (slmc_status S = checkDims("group_size", P->group_size))
    return S;
  if (P->num_args != 0 && (!P->args || !P->arg_sizes))
    return fail(SLMC_ERROR_INVALID_VALUE,
                "slmc_launch: " + std::to_string(P->num_args) +
                    " arguments but " + (P->args ? "arg_sizes" : "args") +
                    " is null");
  for (uint32_t I = 0; I < P->num_args; ++I)
    if (!P->args[I])
      return fail(SLMC_ERROR_INVALID_VALUE,
                  "slmc_launch: argument " + std::to_string(I) + " is null");

  slmc_status Code = SLMC_SUCCESS;
  if (!Kernel) {
    // Built without device images (the plugin on a plain clang++ command):
    // such kernels exist only for the host and always run on the CPU
    // fallback, after the device in use has finished its work. Their memory
    // must be host-accessible (host or shared allocations).
    if (!Cpu)
      return fail(SLMC_ERROR_INVALID_VALUE,
                  "slmc_launch: null kernel handle and no host version");
    Backend *B = currentBackend(Code);
    if (!B)
      return Code;
    Backend *Cpus = B->kind() == SLMC_BACKEND_CPU ? B : devices().cpu(Code);
    if (!Cpus)
      return Code;
    if (slmc_status S = checkSubGroupSize(*Cpus, *P))
      return S;
    if (Cpus != B)
      if (slmc_status S = report(B->synchronize()))
        return S;
    return report(Cpus->launch(LaunchRequest{hostOnlyKernel(), Cpu, *P}));
  }

  const KernelRecord *K = lookupKernel(Kernel, Code);
  if (!K)
    return Code;
  Backend *B = currentBackend(Code);
  if (!B)
    return Code;
  if (slmc_status S = checkSubGroupSize(*B, *P))
    return S;
  return report(B->launch(LaunchRequest{*K, Cpu, *P}));
}

extern "C" slmc_status slmc_kernel_group_memory(const void *Kernel,
                                                size_t *Bytes) {
  if (!Bytes)
    return fail(SLMC_ERROR_INVALID_VALUE, "slmc_kernel_group_memory: null pointer");
  *Bytes = 0;
  if (!Kernel)
    return SLMC_SUCCESS; // host-only kernels keep group-local data in TLS
  slmc_status Code = SLMC_SUCCESS;
  const KernelRecord *K = lookupKernel(Kernel, Code);
  if (!K)
    return Code;
  Backend *B = currentBackend(Code);
  if (!B)
    return Code;
  return report(B->kernelGroupMemory(*K, *Bytes));
}

// ---- Compiler ABI ----------------------------------------------------------
// A corrupt executable must not abort at startup: registration records what
// is wrong and every launch of an affected kernel reports it.

extern "C" void **__hipRegisterFatBinary(const void *Wrapper) {
  auto *M = new Module;
  HipFatBinaryWrapper W;
  if (!Wrapper) {
    M->Error = "null fat binary wrapper";
  } else {
    std::memcpy(&W, Wrapper, sizeof(W));
    if (W.Magic != kHipFatMagic)
      M->Error = "fat binary wrapper has bad magic " + std::to_string(W.Magic);
    else if (W.Version != kHipFatVersion)
      M->Error = "fat binary wrapper has unsupported version " +
                 std::to_string(W.Version);
    else if (!W.Data)
      M->Error = "fat binary wrapper has no data";
    else
      parseModule(*M, W.Data);
  }
  return registry().addModule(M);
}

extern "C" void __hipUnregisterFatBinary(void **Handle) {
  if (!Handle)
    return;
  if (Module *M = registry().module(Handle))
    registry().removeModule(M);
}

extern "C" void __hipRegisterFunction(void **Handle, const void *Kernel,
                                      char *DeviceFunction,
                                      const char *DeviceName, unsigned int,
                                      void *, void *, slmc_dim3 *, slmc_dim3 *,
                                      int *) {
  if (!Handle || !Kernel)
    return;
  Module *M = registry().module(Handle);
  if (!M)
    return;
  const char *Name = DeviceName ? DeviceName : DeviceFunction;
  registry().addKernel(M, Kernel, Name ? Name : "");
}

// Clang's kernel stubs (the host side of a __global__ function) pop the
// configuration that `<<<...>>>` pushed and call hipLaunchKernel. slmc never
// launches that way (slmc::launch calls slmc_launch), but the stubs are still
// emitted, so these must exist. Results are slmc_status values.

extern "C" SLMC_RT_API int __hipPushCallConfiguration(slmc_dim3 Grid,
                                                      slmc_dim3 Block,
                                                      size_t Shared,
                                                      void *Stream) {
  CallConfigs.push_back(CallConfig{Grid, Block, Shared, Stream});
  return SLMC_SUCCESS;
}

extern "C" SLMC_RT_API int __hipPopCallConfiguration(slmc_dim3 *Grid,
                                                     slmc_dim3 *Block,
                                                     size_t *Shared,
                                                     void **Stream) {
  if (CallConfigs.empty())
    return fail(SLMC_ERROR_INVALID_VALUE,
                "__hipPopCallConfiguration: no pending launch configuration");
  CallConfig C = CallConfigs.back();
  CallConfigs.pop_back();
  if (Grid) *Grid = C.Grid;
  if (Block) *Block = C.Block;
  if (Shared) *Shared = C.Shared;
  if (Stream) *Stream = C.Stream;
  return SLMC_SUCCESS;
}

// A stub passes neither the argument sizes (which Level Zero needs to set
// kernel arguments, and the CUDA backend to pack them) nor the host version
// of the kernel (which the CPU fallback runs), so no backend can honour it.
// The kernel is still looked up so that the error names the real problem.
extern "C" SLMC_RT_API int hipLaunchKernel(const void *Kernel, slmc_dim3,
                                           slmc_dim3, void **, size_t, void *) {
  slmc_status Code = SLMC_SUCCESS;
  const KernelRecord *K = lookupKernel(Kernel, Code);
  if (!K)
    return Code;
  return fail(SLMC_ERROR_LAUNCH_FAILURE,
              "hipLaunchKernel: kernel '" + K->Name +
                  "' cannot be launched with <<<...>>>: a kernel stub carries "
                  "neither argument sizes nor a host version; launch it "
                  "through slmc_launch (slmc::launch)");
}

// ---- Program files ---------------------------------------------------------
// Program.cpp loads program files (slmc_program_load); their kernels join the
// same registry as compiled ones, in a module of their own.

namespace slmc::rt {

void **registerProgramModule(const FatBinary &Images) {
  auto *M = new Module;
  M->Ok = true;
  M->Images = Images;
  return registry().addModule(M);
}

void registerProgramKernel(void **Handle, const void *Kernel,
                           const std::string &Name) {
  if (Module *M = registry().module(Handle))
    registry().addKernel(M, Kernel, Name);
}

void unregisterProgramModule(void **Handle) {
  if (Module *M = registry().module(Handle)) {
    registry().removeModule(M);
    registry().dropImages(M);
  }
}

slmc_status recordError(slmc_status Code, std::string Message) {
  return fail(Code, std::move(Message));
}

// ---- Offload (Offload.cpp) -------------------------------------------------

Backend *backendForOffload(slmc_status &Code) { return currentBackend(Code); }

slmc_status recordOffloadError(slmc_status Code, std::string Message) {
  return fail(Code, std::move(Message));
}

void beginFailureCapture() {
  if (LastErrorGone)
    return;
  LastError.Capturing = true;
  LastError.Captured = false;
  LastError.CapturedText.clear();
}

uint64_t failuresSoFar() { return LastErrorGone ? 0 : LastError.Failures; }

void forgiveFailuresSince(uint64_t Mark) {
  // A data race or an access outside a group-local variable is a bug in
  // the program that the host version does not fix.
  if (!LastErrorGone && LastError.Captured && LastError.CapturedAt > Mark &&
      LastError.CapturedCode != SLMC_ERROR_DATA_RACE &&
      LastError.CapturedCode != SLMC_ERROR_GROUP_LOCAL_BOUNDS)
    LastError.Captured = false;
}

bool endFailureCapture(slmc_status &Code, std::string &Message) {
  if (LastErrorGone)
    return false;
  LastError.Capturing = false;
  if (!LastError.Captured)
    return false;
  LastError.Captured = false;
  Code = LastError.CapturedCode;
  Message = std::move(LastError.CapturedText);
  return true;
}

} // namespace slmc::rt
