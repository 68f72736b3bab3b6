// The tiled, work-efficient exclusive scan of scan.cpp (and of
// benchmarks/amp/scan_bench.cpp): tiles of 256 threads scan blocks of 512
// elements in tile_static memory, the block sums are scanned recursively,
// then every element adds its block's offset.
#ifndef SLMC_EXAMPLES_AMP_SCAN_KERNEL_H
#define SLMC_EXAMPLES_AMP_SCAN_KERNEL_H

#include <amp.h>
#include <memory>
#include <vector>

using namespace concurrency;

static const int TS = 256;        // threads per tile
static const int BLOCK = 2 * TS;  // elements per tile

// Block sums and scanned block offsets of every level of the recursion,
// allocated before the scan (an array's destructor waits for the kernels, so
// a benchmark allocates them once, outside the timed loop).
struct ScanScratch {
  std::vector<std::unique_ptr<array<int, 1>>> sums, offsets;
  explicit ScanScratch(int n) {
    for (int blocks = (n + BLOCK - 1) / BLOCK;; blocks = (blocks + BLOCK - 1) / BLOCK) {
      sums.emplace_back(new array<int, 1>(blocks));
      offsets.emplace_back(new array<int, 1>(blocks));
      if (blocks == 1) break;
    }
  }
};

void ScanExclusive(array_view<const int, 1> input, array_view<int, 1> output,
                   ScanScratch &scratch, int level = 0) {
  const int n = input.extent[0];
  const int blocks = (n + BLOCK - 1) / BLOCK;
  array_view<int, 1> sums(*scratch.sums[level]);
  output.discard_data();

  parallel_for_each(extent<1>(blocks * TS).tile<TS>(),
                    [=](tiled_index<TS> t_idx) restrict(amp) {
    tile_static int temp[BLOCK];
    const int tid = t_idx.local[0];
    const int base = t_idx.tile[0] * BLOCK;
    temp[2 * tid] = base + 2 * tid < n ? input[base + 2 * tid] : 0;
    temp[2 * tid + 1] = base + 2 * tid + 1 < n ? input[base + 2 * tid + 1] : 0;

    // Up-sweep: after the level with step d, temp[k*2d - 1] holds the sum
    // of the 2d elements ending there.
    int offset = 1;
    for (int d = BLOCK / 2; d > 0; d /= 2) {
      t_idx.barrier.wait();
      if (tid < d) {
        int ai = offset * (2 * tid + 1) - 1;
        int bi = offset * (2 * tid + 2) - 1;
        temp[bi] += temp[ai];
      }
      offset *= 2;
    }
    // The root holds the block's total; the scan starts from zero.
    if (tid == 0) {
      sums[t_idx.tile[0]] = temp[BLOCK - 1];
      temp[BLOCK - 1] = 0;
    }
    // Down-sweep: push the prefix of each subtree down to its children.
    for (int d = 1; d < BLOCK; d *= 2) {
      offset /= 2;
      t_idx.barrier.wait();
      if (tid < d) {
        int ai = offset * (2 * tid + 1) - 1;
        int bi = offset * (2 * tid + 2) - 1;
        int left = temp[ai];
        temp[ai] = temp[bi];
        temp[bi] += left;
      }
    }
    t_idx.barrier.wait();
    if (base + 2 * tid < n) output[base + 2 * tid] = temp[2 * tid];
    if (base + 2 * tid + 1 < n) output[base + 2 * tid + 1] = temp[2 * tid + 1];
  });

  if (blocks == 1)
    return;

  // Scan the block sums, then add each block's offset to its elements.
  array_view<int, 1> offsets(*scratch.offsets[level]);
  ScanExclusive(sums, offsets, scratch, level + 1);
  parallel_for_each(output.extent, [=](index<1> idx) restrict(amp) {
    output[idx] += offsets[idx[0] / BLOCK];
  });
}

#endif
