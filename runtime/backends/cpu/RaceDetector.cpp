//===- RaceDetector.cpp - Group-local data races of one work-group --------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
#include "RaceDetector.h"

#include <algorithm>
#include <cstring>

namespace slmc::rt {

void RaceDetector::beginGroup(uint32_t Items, uint32_t SubGroup) {
  SubGroupSize = SubGroup ? SubGroup : 1;
  SubEpochs.assign((Items + SubGroupSize - 1) / SubGroupSize, 0);
  groupBarrier();
}

void RaceDetector::groupBarrier() {
  if (++Epoch == 0) {
    // After 2^32 epochs old stamps could look current: forget them all.
    for (Range &R : Ranges)
      std::fill(R.Shadow.begin(), R.Shadow.end(), Cell{});
    Epoch = 1;
  }
}

void RaceDetector::subGroupBarrier(uint32_t SubGroup) {
  if (SubGroup < SubEpochs.size())
    ++SubEpochs[SubGroup];
}

void RaceDetector::addRange(const void *BasePtr, size_t Bytes, const char *Name) {
  uintptr_t Base = reinterpret_cast<uintptr_t>(BasePtr);
  Ranges.erase(std::remove_if(Ranges.begin(), Ranges.end(),
                              [&](const Range &R) {
                                return R.Base < Base + Bytes && Base < R.Base + R.Bytes;
                              }),
               Ranges.end());
  Range R;
  R.Base = Base;
  R.Bytes = Bytes;
  R.Name = Name ? Name : "";
  R.Shadow.resize(Bytes);
  Ranges.push_back(std::move(R));
  LastRange = Ranges.size() - 1;
}

RaceDetector::Access RaceDetector::stamp(uint32_t Item, const char *Where) const {
  Access A;
  A.Where = Where;
  A.Epoch = Epoch;
  uint32_t Sub = Item / SubGroupSize;
  A.SubEpoch = Sub < SubEpochs.size() ? SubEpochs[Sub] : 0;
  A.Item = uint16_t(Item);
  return A;
}

/// Whether `Earlier` happens before an access of `Item` now: another epoch,
/// the same work-item, or a sub-group barrier of their common sub-group
/// since.
bool RaceDetector::ordered(const Access &Earlier, uint32_t Item) const {
  if (Earlier.Epoch != Epoch || Earlier.Item == Item)
    return true;
  uint32_t Sub = Item / SubGroupSize;
  return Earlier.Item / SubGroupSize == Sub && Sub < SubEpochs.size() &&
         Earlier.SubEpoch != SubEpochs[Sub];
}

bool RaceDetector::access(uint32_t Item, const void *AddressPtr, size_t Bytes,
                          bool IsWrite, const char *Where, const uint64_t *Value,
                          Race &Found, bool IsAtomic) {
  IsWrite |= IsAtomic;
  uintptr_t Address = reinterpret_cast<uintptr_t>(AddressPtr);
  Range *R = nullptr;
  if (LastRange < Ranges.size()) {
    Range &L = Ranges[LastRange];
    if (Address - L.Base < L.Bytes)
      R = &L;
  }
  if (!R) {
    for (size_t I = 0; I < Ranges.size() && !R; ++I)
      if (Address - Ranges[I].Base < Ranges[I].Bytes) {
        R = &Ranges[I];
        LastRange = I;
      }
    if (!R)
      return false; // not group-local
  }
  // A write of what memory holds already (every work-item storing the same
  // value) conflicts with nothing, and is still this work-item's write.
  const bool Unchanged = IsWrite && Value && Bytes <= sizeof(uint64_t) &&
                         std::memcmp(AddressPtr, Value, Bytes) == 0;
  Access Now = stamp(Item, Where);
  Now.Atomic = IsAtomic;
  size_t First = Address - R->Base;
  size_t Last = std::min(R->Bytes, First + Bytes);
  for (size_t B = First; B < Last; ++B) {
    Cell &C = R->Shadow[B];
    const Access *Conflict = nullptr;
    bool ConflictWrite = false;
    if (!Unchanged) {
      if (!ordered(C.Write, Item) && !(IsAtomic && C.Write.Atomic)) {
        Conflict = &C.Write;
        ConflictWrite = true;
      } else if (IsWrite) {
        for (const Access &Rd : C.Read)
          if (!ordered(Rd, Item) && !(IsAtomic && Rd.Atomic)) {
            Conflict = &Rd;
            break;
          }
      }
    }
    if (Conflict) {
      Found.Variable = R->Name;
      Found.Offset = B;
      Found.VariableBytes = R->Bytes;
      Found.Bytes = Bytes;
      Found.EarlierWrite = ConflictWrite;
      Found.LaterWrite = IsWrite;
      Found.Earlier = *Conflict;
      Found.Later = Now;
      return true;
    }
    if (IsWrite) {
      // An atomic does not hide a non-atomic write of this epoch that a
      // later access would still race with.
      if (!IsAtomic || !(C.Write.Epoch == Epoch && !C.Write.Atomic))
        C.Write = Now;
      continue;
    }
    // Two readers of distinct work-items are enough: a later writer is
    // another work-item than at least one of them.
    if (C.Read[0].Epoch != Epoch || C.Read[0].Item == Item)
      C.Read[0] = Now;
    else if (C.Read[1].Epoch != Epoch || C.Read[1].Item == Item)
      C.Read[1] = Now;
  }
  return false;
}

} // namespace slmc::rt
