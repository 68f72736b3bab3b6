//===- RaceDetector.h - Group-local data races of one work-group ----------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// SLMC_CHECK=races on the CPU fallback: the shadow state of the group-local
// memory of the work-group a thread runs, fed by the hooks that code built
// with slmc++ -fslmc-check calls (slmc_check_load, ...).
//
// Every byte of a registered range has a shadow cell holding its last write
// and up to two reads by distinct work-items, each stamped with the group's
// barrier epoch (and the work-item's sub-group epoch). Two accesses to a
// byte by different work-items, at least one a write, race when they are in
// the same epoch: no barrier separates them. A sub-group barrier separates
// the accesses of work-items of one sub-group only. An atomic access is a
// write that races only with plain accesses, and a write that leaves memory
// as it was (every work-item storing the same value) is never reported.
//
// Stamps make the state of earlier groups and epochs stale without clearing
// it: a thread keeps its ranges and shadow from group to group.
//
//===----------------------------------------------------------------------===//
#ifndef SLMC_RT_RACEDETECTOR_H
#define SLMC_RT_RACEDETECTOR_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace slmc::rt {

class RaceDetector {
public:
  /// One access as the shadow remembers it.
  struct Access {
    const char *Where = nullptr; // "file:line", or null
    uint32_t Epoch = 0;          // 0: none
    uint32_t SubEpoch = 0;
    uint16_t Item = 0;           // linear local id
    bool Atomic = false;         // an atomic read-modify-write, load or store
  };

  /// A conflicting pair: `Earlier` by another work-item, `Later` the
  /// access that found it.
  struct Race {
    std::string Variable;
    size_t Offset = 0;      // bytes from the start of the variable
    size_t VariableBytes = 0;
    size_t Bytes = 0;       // size of the later access
    bool EarlierWrite = false, LaterWrite = false;
    Access Earlier, Later;
  };

  /// A new work-group of `Items` work-items in sub-groups of `SubGroupSize`.
  void beginGroup(uint32_t Items, uint32_t SubGroupSize);
  /// Every work-item of the group passed a barrier.
  void groupBarrier();
  /// Every work-item of sub-group `SubGroup` passed a sub-group barrier.
  void subGroupBarrier(uint32_t SubGroup);

  /// Group-local memory at [Base, Base + Bytes) named `Name`. A range that
  /// overlaps earlier ones replaces them (memory reused for something else).
  void addRange(const void *Base, size_t Bytes, const char *Name);
  /// Whether [Base, Base + Bytes) is a registered range already.
  bool hasRange(const void *Base, size_t Bytes) const {
    for (const Range &R : Ranges)
      if (R.Base == reinterpret_cast<uintptr_t>(Base))
        return R.Bytes == Bytes;
    return false;
  }

  /// Records an access by work-item `Item`; returns true and fills `Found`
  /// when it races with an earlier one. `Value`, when not null, is the
  /// value being written (Bytes <= 8): a write of what memory holds already
  /// races with nothing. An atomic access is a write that races only with
  /// non-atomic accesses.
  bool access(uint32_t Item, const void *Address, size_t Bytes, bool IsWrite,
              const char *Where, const uint64_t *Value, Race &Found,
              bool IsAtomic = false);

private:
  struct Cell {
    Access Write;
    Access Read[2];
  };
  struct Range {
    uintptr_t Base = 0;
    size_t Bytes = 0;
    std::string Name;
    std::vector<Cell> Shadow;
  };

  bool ordered(const Access &Earlier, uint32_t Item) const;
  Access stamp(uint32_t Item, const char *Where) const;

  std::vector<Range> Ranges;
  size_t LastRange = 0;
  uint32_t Epoch = 0;
  uint32_t SubGroupSize = 1;
  std::vector<uint32_t> SubEpochs; // by sub-group
};

} // namespace slmc::rt

#endif // SLMC_RT_RACEDETECTOR_H
