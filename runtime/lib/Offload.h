//===- Offload.h - Shared regions, offload scopes and device mirrors ------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The bookkeeping behind slmc_share, slmc_offload_* and slmc_device_pointer
// (see slmc/runtime.h for the semantics). OffloadTable knows nothing of
// backends: it moves data through a MirrorMemory, which Offload.cpp
// implements over the backend in use and the unit tests implement with a
// recording fake. OffloadTable.cpp has no other dependency, so the tests
// compile their own copy of it.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_RUNTIME_OFFLOAD_H
#define SLMC_RUNTIME_OFFLOAD_H

#include "Backend.h"

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace slmc::rt {

/// Device memory for mirrors of host regions.
class MirrorMemory {
public:
  virtual ~MirrorMemory() = default;
  /// Host memory is what kernels see (the CPU fallback): no mirrors.
  virtual bool identity() = 0;
  virtual Status allocate(void **Mirror, size_t Bytes) = 0;
  /// Host to device or device to host; waits for launched work first.
  virtual Status copy(void *Dst, const void *Src, size_t Bytes) = 0;
  virtual Status release(void *Mirror) = 0;
};

/// Directions of a region.
enum : unsigned { kCopyIn = 1u, kCopyOut = 2u };

/// A host range that kernels may see: one slmc_share range or one map of a
/// scope.
struct Region {
  uintptr_t Start = 0;
  size_t Bytes = 0;
  unsigned Flags = 0; // kCopyIn | kCopyOut
  bool Shared = false;
  unsigned ShareCount = 0; // shared: slmc_share calls not yet undone
  bool Retired = false;    // shared: unshared while a scope held it
  void *Mirror = nullptr;  // device copy, allocated at first use
  unsigned Holders = 0;    // scopes (of any thread) in which it is live

  uintptr_t end() const { return Start + Bytes; }
  bool contains(uintptr_t P) const { return P >= Start && P - Start < Bytes; }
  bool encloses(uintptr_t S, size_t B) const {
    return S >= Start && S - Start <= Bytes && B <= Bytes - (S - Start);
  }
  bool overlaps(uintptr_t S, size_t B) const {
    return S < end() && Start < S + B;
  }
};
using RegionRef = std::shared_ptr<Region>;

struct Scope {
  std::vector<RegionRef> Maps; // made by slmc_offload_map in this scope
  std::vector<RegionRef> Held; // became live in this scope
};

/// The scopes of one thread, innermost last.
struct ScopeStack {
  std::vector<Scope> Scopes;
};

class OffloadTable {
public:
  Status share(void *Host, size_t Bytes);
  Status unshare(void *Host, MirrorMemory &Mem);

  /// Memory from slmc_malloc_shared/slmc_malloc_device: never mirrored.
  void noteAllocation(void *Ptr, size_t Bytes);
  void noteFree(void *Ptr);

  void begin(ScopeStack &S);
  Status map(ScopeStack &S, void *Host, size_t Bytes, slmc_map_kind Kind);
  Status end(ScopeStack &S, MirrorMemory &Mem);
  /// Null with `Error` set when a mirror cannot be made or filled, or when
  /// `Host` lies in no range the device can reach.
  void *devicePointer(ScopeStack &S, void *Host, MirrorMemory &Mem,
                      Status &Error);
  /// Copies every region live in `S` host -> device: host code wrote them
  /// after their mirrors were filled (a nest that ran its host version).
  Status refresh(ScopeStack &S, MirrorMemory &Mem);

  size_t sharedCount();

private:
  // All called with Mutex held.
  bool inAllocation(uintptr_t P, size_t Bytes) const;
  RegionRef findShared(uintptr_t P) const;
  RegionRef findVisible(const ScopeStack &S, uintptr_t P) const;
  static bool heldBy(const ScopeStack &S, const Region *R);

  std::mutex Mutex;
  std::map<uintptr_t, RegionRef> Shared;       // by start, disjoint
  std::map<uintptr_t, size_t> Allocations;     // start -> bytes
};

// ---- What Offload.cpp needs from the runtime core (Runtime.cpp) ----------

/// The backend in use (chosen on first call); null with the error recorded.
Backend *backendForOffload(slmc_status &Code);
/// Records `Message` as this thread's last error and returns `Code`.
slmc_status recordOffloadError(slmc_status Code, std::string Message);
/// Starts collecting the first failure recorded on this thread.
void beginFailureCapture();
/// How many failures this thread has recorded so far.
uint64_t failuresSoFar();
/// A captured failure recorded after `Mark` (a failuresSoFar() value) was
/// dealt with: it no longer fails the task.
void forgiveFailuresSince(uint64_t Mark);
/// Stops collecting; true with the first failure since beginFailureCapture.
bool endFailureCapture(slmc_status &Code, std::string &Message);

// ---- What the runtime core needs from Offload.cpp -------------------------

void offloadNoteAllocation(void *Ptr, size_t Bytes);
void offloadNoteFree(void *Ptr);

} // namespace slmc::rt

#endif // SLMC_RUNTIME_OFFLOAD_H
