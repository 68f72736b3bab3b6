//===- RaceDetectorTest.cpp - SLMC_CHECK=races' shadow memory -------------===//
//
// Part of the slmc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The race detector's rules, driven directly: which pairs of accesses of
// one work-group race, what a barrier or a sub-group barrier orders, and
// what a report holds.
//
//===----------------------------------------------------------------------===//
#include "RaceDetector.h"

#include <gtest/gtest.h>

#include <cstring>

using slmc::rt::RaceDetector;

namespace {

class RaceDetectorTest : public ::testing::Test {
protected:
  void SetUp() override {
    D.beginGroup(8, 1);
    D.addRange(Tile, sizeof(Tile), "tile");
  }
  bool read(uint32_t Item, int Index, const char *Where = "r") {
    return D.access(Item, &Tile[Index], sizeof(int), false, Where, nullptr, Found);
  }
  bool write(uint32_t Item, int Index, int Value, const char *Where = "w") {
    uint64_t V = uint32_t(Value);
    bool Raced = D.access(Item, &Tile[Index], sizeof(int), true, Where, &V, Found);
    Tile[Index] = Value;
    return Raced;
  }

  RaceDetector D;
  RaceDetector::Race Found;
  int Tile[16] = {};
};

TEST_F(RaceDetectorTest, ReadOfAnotherWorkItemsWriteRaces) {
  EXPECT_FALSE(write(1, 1, 5, "a.cpp:3"));
  EXPECT_TRUE(read(0, 1, "a.cpp:4"));
  EXPECT_EQ(Found.Variable, "tile");
  EXPECT_EQ(Found.Offset, 4u);
  EXPECT_EQ(Found.VariableBytes, sizeof(Tile));
  EXPECT_EQ(Found.Bytes, 4u);
  EXPECT_TRUE(Found.EarlierWrite);
  EXPECT_FALSE(Found.LaterWrite);
  EXPECT_EQ(Found.Earlier.Item, 1);
  EXPECT_STREQ(Found.Earlier.Where, "a.cpp:3");
  EXPECT_EQ(Found.Later.Item, 0);
  EXPECT_STREQ(Found.Later.Where, "a.cpp:4");
}

TEST_F(RaceDetectorTest, ABarrierOrdersAccesses) {
  EXPECT_FALSE(write(1, 1, 5));
  D.groupBarrier();
  EXPECT_FALSE(read(0, 1));
  EXPECT_FALSE(read(2, 1));
  D.groupBarrier();
  EXPECT_FALSE(write(3, 1, 6));
}

TEST_F(RaceDetectorTest, OwnAccessesNeverRace) {
  EXPECT_FALSE(write(2, 3, 1));
  EXPECT_FALSE(read(2, 3));
  EXPECT_FALSE(write(2, 3, 2));
  EXPECT_FALSE(read(4, 4)); // another element
}

TEST_F(RaceDetectorTest, WriteWriteRaces) {
  EXPECT_FALSE(write(0, 0, 1));
  EXPECT_TRUE(write(1, 0, 2));
  EXPECT_TRUE(Found.EarlierWrite);
  EXPECT_TRUE(Found.LaterWrite);
}

TEST_F(RaceDetectorTest, WriteAfterReadsOfOthersRaces) {
  EXPECT_FALSE(read(0, 5));
  EXPECT_FALSE(read(1, 5));
  EXPECT_FALSE(read(2, 5));
  // Work-item 0 writes: work-item 1's read is still remembered.
  EXPECT_TRUE(write(0, 5, 9));
  EXPECT_FALSE(Found.EarlierWrite);
  EXPECT_EQ(Found.Earlier.Item, 1);
}

TEST_F(RaceDetectorTest, ReadsAloneNeverRace) {
  for (uint32_t I = 0; I < 8; ++I)
    EXPECT_FALSE(read(I, 7));
}

TEST_F(RaceDetectorTest, WritingTheSameValueIsNotReported) {
  EXPECT_FALSE(write(0, 2, 42));
  EXPECT_FALSE(write(1, 2, 42)); // every work-item stores the same value
  EXPECT_TRUE(write(2, 2, 43));
}

TEST_F(RaceDetectorTest, PartialOverlapIsFoundAtTheFirstSharedByte) {
  EXPECT_FALSE(write(0, 2, 7));
  // Eight bytes from element 1: elements 1 and 2.
  EXPECT_TRUE(D.access(1, &Tile[1], 8, false, "x", nullptr, Found));
  EXPECT_EQ(Found.Offset, 8u);
}

TEST_F(RaceDetectorTest, MemoryOutsideTheRangesIsIgnored) {
  int Other = 0;
  EXPECT_FALSE(D.access(0, &Other, 4, true, "x", nullptr, Found));
  EXPECT_FALSE(D.access(1, &Other, 4, true, "x", nullptr, Found));
}

TEST_F(RaceDetectorTest, ANewGroupStartsClean) {
  EXPECT_FALSE(write(1, 1, 5));
  D.beginGroup(8, 1);
  EXPECT_FALSE(read(0, 1));
}

TEST_F(RaceDetectorTest, ARangeOverlappingAnOldOneReplacesIt) {
  EXPECT_FALSE(write(1, 1, 5));
  D.addRange(&Tile[0], 8, "block");
  EXPECT_TRUE(D.hasRange(&Tile[0], 8));
  EXPECT_FALSE(D.hasRange(Tile, sizeof(Tile)));
  EXPECT_FALSE(read(0, 1)); // fresh shadow
  EXPECT_FALSE(read(0, 5)); // no longer group-local
}

TEST(RaceDetectorSubGroups, ASubGroupBarrierOrdersItsOwnWorkItemsOnly) {
  RaceDetector D;
  RaceDetector::Race Found;
  int Data[4] = {};
  D.beginGroup(8, 4); // sub-groups {0..3}, {4..7}
  D.addRange(Data, sizeof(Data), "data");
  uint64_t V = 1;
  EXPECT_FALSE(D.access(0, &Data[0], 4, true, "w", &V, Found));
  Data[0] = 1;
  D.subGroupBarrier(0);
  EXPECT_FALSE(D.access(3, &Data[0], 4, false, "r", nullptr, Found)); // same sub-group
  EXPECT_TRUE(D.access(4, &Data[0], 4, false, "r", nullptr, Found));  // another one
  EXPECT_EQ(Found.Earlier.Item, 0);
}

} // namespace

namespace {

TEST_F(RaceDetectorTest, AtomicsRaceOnlyWithPlainAccesses) {
  uint64_t One = 1;
  EXPECT_FALSE(D.access(0, &Tile[0], 4, true, "a", nullptr, Found, /*IsAtomic=*/true));
  EXPECT_FALSE(D.access(1, &Tile[0], 4, true, "a", nullptr, Found, true));
  EXPECT_TRUE(read(2, 0)); // a plain read of what others add to atomically
  EXPECT_TRUE(Found.Earlier.Atomic);
  D.groupBarrier();
  EXPECT_FALSE(write(3, 1, 0));
  EXPECT_TRUE(D.access(4, &Tile[1], 4, true, "a", &One, Found, true));
  EXPECT_TRUE(Found.Later.Atomic);
  EXPECT_FALSE(Found.Earlier.Atomic);
}

} // namespace
