//===- OffloadTable.cpp - Shared regions, scopes and device mirrors -------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A region is *live* in a scope from the first translation of a pointer into
// it until that scope ends. Becoming live while no scope (of any thread)
// holds it copies it in; the end of each scope holding it copies it back.
// One mutex guards everything, copies included: they are rare (once per
// region and scope) and this keeps a region from being copied in by one
// thread while another copies it back.
//
//===----------------------------------------------------------------------===//
#include "Offload.h"

#include <cstdio>
#include <iterator>

namespace slmc::rt {
namespace {

std::string hex(uintptr_t P) {
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "%#llx", static_cast<unsigned long long>(P));
  return Buf;
}

std::string rangeString(uintptr_t Start, size_t Bytes) {
  return "[" + hex(Start) + ", +" + std::to_string(Bytes) + ")";
}

std::string describe(const Region &R) {
  return std::string(R.Shared ? "shared range " : "mapped range ") +
         rangeString(R.Start, R.Bytes);
}

unsigned kindFlags(slmc_map_kind Kind) {
  switch (Kind) {
  case SLMC_MAP_IN: return kCopyIn;
  case SLMC_MAP_OUT: return kCopyOut;
  case SLMC_MAP_INOUT:
  case SLMC_MAP_PIN: return kCopyIn | kCopyOut;
  }
  return 0;
}

} // namespace

// ---- Shared regions ----------------------------------------------------------

Status OffloadTable::share(void *Host, size_t Bytes) {
  if (!Host)
    return Status::error(SLMC_ERROR_INVALID_VALUE, "slmc_share: null pointer");
  if (Bytes == 0)
    return Status::error(SLMC_ERROR_INVALID_VALUE, "slmc_share: zero size");
  uintptr_t S = reinterpret_cast<uintptr_t>(Host);
  if (S + Bytes < S)
    return Status::error(SLMC_ERROR_INVALID_VALUE,
                         "slmc_share: range wraps around the address space");
  std::lock_guard<std::mutex> L(Mutex);
  auto It = Shared.lower_bound(S);
  if (It != Shared.end() && It->first == S && It->second->Bytes == Bytes) {
    ++It->second->ShareCount;
    return Status::ok();
  }
  const Region *Clash = nullptr;
  if (It != Shared.end() && It->second->overlaps(S, Bytes))
    Clash = It->second.get();
  else if (It != Shared.begin() && std::prev(It)->second->overlaps(S, Bytes))
    Clash = std::prev(It)->second.get();
  if (Clash)
    return Status::error(SLMC_ERROR_INVALID_VALUE,
                         "slmc_share: " + rangeString(S, Bytes) +
                             " overlaps the " + describe(*Clash) +
                             " (share disjoint ranges, or the same one again)");
  auto R = std::make_shared<Region>();
  R->Start = S;
  R->Bytes = Bytes;
  R->Flags = kCopyIn | kCopyOut;
  R->Shared = true;
  R->ShareCount = 1;
  Shared.emplace(S, std::move(R));
  return Status::ok();
}

Status OffloadTable::unshare(void *Host, MirrorMemory &Mem) {
  uintptr_t S = reinterpret_cast<uintptr_t>(Host);
  std::lock_guard<std::mutex> L(Mutex);
  auto It = Shared.find(S);
  if (!Host || It == Shared.end())
    return Status::error(SLMC_ERROR_INVALID_VALUE,
                         "slmc_unshare: " + hex(S) +
                             " is not the start of a shared range");
  RegionRef R = It->second;
  if (--R->ShareCount > 0)
    return Status::ok();
  Shared.erase(It);
  if (R->Holders > 0) {
    R->Retired = true; // the last scope holding it frees the mirror
    return Status::ok();
  }
  if (R->Mirror) {
    void *M = R->Mirror;
    R->Mirror = nullptr;
    return Mem.release(M);
  }
  return Status::ok();
}

size_t OffloadTable::sharedCount() {
  std::lock_guard<std::mutex> L(Mutex);
  return Shared.size();
}

// ---- Runtime allocations ---------------------------------------------------------

void OffloadTable::noteAllocation(void *Ptr, size_t Bytes) {
  if (!Ptr)
    return;
  std::lock_guard<std::mutex> L(Mutex);
  Allocations[reinterpret_cast<uintptr_t>(Ptr)] = Bytes;
}

void OffloadTable::noteFree(void *Ptr) {
  std::lock_guard<std::mutex> L(Mutex);
  Allocations.erase(reinterpret_cast<uintptr_t>(Ptr));
}

bool OffloadTable::inAllocation(uintptr_t P, size_t Bytes) const {
  auto It = Allocations.upper_bound(P);
  if (It == Allocations.begin())
    return false;
  --It;
  // One past the end counts as inside, as for regions.
  return P - It->first <= It->second && Bytes <= It->second - (P - It->first);
}

// ---- Lookup ----------------------------------------------------------------------

RegionRef OffloadTable::findShared(uintptr_t P) const {
  auto It = Shared.upper_bound(P);
  if (It == Shared.begin())
    return nullptr;
  --It;
  const Region &R = *It->second;
  if (R.contains(P))
    return It->second;
  return nullptr;
}

RegionRef OffloadTable::findVisible(const ScopeStack &S, uintptr_t P) const {
  // Innermost scope first. An address one past the end of a region is in no
  // region: it may as well be the start of the next object in memory, one
  // the device cannot reach.
  for (auto Sc = S.Scopes.rbegin(); Sc != S.Scopes.rend(); ++Sc)
    for (const RegionRef &R : Sc->Maps)
      if (R->contains(P))
        return R;
  // Shared regions this thread holds stay usable when unshared meanwhile.
  for (auto Sc = S.Scopes.rbegin(); Sc != S.Scopes.rend(); ++Sc)
    for (const RegionRef &R : Sc->Held)
      if (R->Retired && R->contains(P))
        return R;
  return findShared(P);
}

bool OffloadTable::heldBy(const ScopeStack &S, const Region *R) {
  for (const Scope &Sc : S.Scopes)
    for (const RegionRef &H : Sc.Held)
      if (H.get() == R)
        return true;
  return false;
}

// ---- Scopes ----------------------------------------------------------------------

void OffloadTable::begin(ScopeStack &S) { S.Scopes.emplace_back(); }

Status OffloadTable::map(ScopeStack &S, void *Host, size_t Bytes,
                         slmc_map_kind Kind) {
  if (S.Scopes.empty())
    return Status::error(SLMC_ERROR_INVALID_VALUE,
                         "slmc_offload_map: no offload scope on this thread "
                         "(call slmc_offload_begin first)");
  unsigned Flags = kindFlags(Kind);
  if (!Flags)
    return Status::error(SLMC_ERROR_INVALID_VALUE,
                         "slmc_offload_map: unknown map kind " +
                             std::to_string(int(Kind)));
  if (Bytes == 0)
    return Status::ok();
  if (!Host)
    return Status::error(SLMC_ERROR_INVALID_VALUE,
                         "slmc_offload_map: null pointer");
  uintptr_t P = reinterpret_cast<uintptr_t>(Host);
  if (P + Bytes < P)
    return Status::error(SLMC_ERROR_INVALID_VALUE,
                         "slmc_offload_map: range wraps around the address space");

  std::lock_guard<std::mutex> L(Mutex);
  if (inAllocation(P, Bytes))
    return Status::ok(); // device-visible already

  // Every region this thread can see: its maps, then the shared ones.
  std::vector<RegionRef> Visible;
  for (auto Sc = S.Scopes.rbegin(); Sc != S.Scopes.rend(); ++Sc)
    Visible.insert(Visible.end(), Sc->Maps.begin(), Sc->Maps.end());
  for (auto It = Shared.upper_bound(P); It != Shared.begin();) {
    --It; // the shared region starting at or before P, if any
    Visible.push_back(It->second);
    break;
  }
  for (auto It = Shared.lower_bound(P); It != Shared.end() && It->first < P + Bytes; ++It)
    Visible.push_back(It->second);

  for (const RegionRef &R : Visible)
    if (R->encloses(P, Bytes)) {
      R->Flags |= Flags; // shared regions have both already
      return Status::ok();
    }
  for (const RegionRef &R : Visible)
    if (R->overlaps(P, Bytes))
      return Status::error(SLMC_ERROR_INVALID_VALUE,
                           "slmc_offload_map: " + rangeString(P, Bytes) +
                               " partly overlaps the " + describe(*R));
  auto R = std::make_shared<Region>();
  R->Start = P;
  R->Bytes = Bytes;
  R->Flags = Flags;
  S.Scopes.back().Maps.push_back(std::move(R));
  return Status::ok();
}

Status OffloadTable::end(ScopeStack &S, MirrorMemory &Mem) {
  if (S.Scopes.empty())
    return Status::error(SLMC_ERROR_INVALID_VALUE,
                         "slmc_offload_end: no offload scope on this thread");
  Scope Ending = std::move(S.Scopes.back());
  S.Scopes.pop_back();

  Status First;
  auto note = [&](Status St) {
    if (St && !First)
      First = std::move(St);
  };
  std::lock_guard<std::mutex> L(Mutex);
  for (const RegionRef &R : Ending.Held) {
    if ((R->Flags & kCopyOut) && R->Mirror) {
      Status St = Mem.copy(reinterpret_cast<void *>(R->Start), R->Mirror, R->Bytes);
      if (St)
        St.Message = "copying back the " + describe(*R) + ": " + St.Message;
      note(std::move(St));
    }
    if (--R->Holders == 0 && (!R->Shared || R->Retired) && R->Mirror) {
      note(Mem.release(R->Mirror));
      R->Mirror = nullptr;
    }
  }
  return First;
}

void *OffloadTable::devicePointer(ScopeStack &S, void *Host, MirrorMemory &Mem,
                                  Status &Error) {
  if (S.Scopes.empty() || !Host)
    return Host;
  if (Mem.identity())
    return Host;
  uintptr_t P = reinterpret_cast<uintptr_t>(Host);
  std::lock_guard<std::mutex> L(Mutex);
  if (inAllocation(P, 0))
    return Host;
  RegionRef R = findVisible(S, P);
  if (!R) {
    // Translating it to itself would hand the device a host address: the
    // kernel would read and write memory it cannot see (a wrong answer, not
    // a fault, on some devices).
    Error = Status::error(SLMC_ERROR_INVALID_VALUE,
                          "host address " + hex(P) +
                              " is in no shared or mapped range, so the device cannot "
                              "reach it (share it with _GFX_share, or name it in an "
                              "in/out/inout/pin clause of the #pragma offload)");
    return nullptr;
  }
  if (!heldBy(S, R.get())) {
    if (R->Holders == 0) {
      bool Fresh = !R->Mirror;
      if (Fresh)
        if (Status St = Mem.allocate(&R->Mirror, R->Bytes)) {
          R->Mirror = nullptr;
          St.Message = "allocating the device copy of the " + describe(*R) +
                       ": " + St.Message;
          Error = std::move(St);
          return nullptr;
        }
      if (R->Flags & kCopyIn)
        if (Status St = Mem.copy(R->Mirror, reinterpret_cast<void *>(R->Start),
                                 R->Bytes)) {
          if (Fresh && !R->Shared) {
            Mem.release(R->Mirror);
            R->Mirror = nullptr;
          }
          St.Message = "copying the " + describe(*R) + " to the device: " +
                       St.Message;
          Error = std::move(St);
          return nullptr;
        }
    }
    ++R->Holders;
    S.Scopes.back().Held.push_back(R);
  }
  return static_cast<char *>(R->Mirror) + (P - R->Start);
}

Status OffloadTable::refresh(ScopeStack &S, MirrorMemory &Mem) {
  if (Mem.identity())
    return Status::ok();
  std::lock_guard<std::mutex> L(Mutex);
  for (const Scope &Sc : S.Scopes)
    for (const RegionRef &R : Sc.Held)
      if (R->Mirror)
        if (Status St = Mem.copy(R->Mirror, reinterpret_cast<void *>(R->Start), R->Bytes)) {
          St.Message = "copying the " + describe(*R) + " to the device: " + St.Message;
          return St;
        }
  return Status::ok();
}

} // namespace slmc::rt
