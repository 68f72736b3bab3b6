// Exclusive prefix sum (scan) in C++ AMP, work-efficient and tiled.
//
//  1. Every tile of 256 threads scans a block of 512 elements in tile_static
//     memory with the two sweeps of the work-efficient (Blelloch) scan: an
//     up-sweep that builds partial sums in a balanced tree (n - 1 additions)
//     and a down-sweep that turns them into the exclusive prefix sums (another
//     n - 1 additions), a barrier between levels. The block's total goes to an
//     array of block sums.
//  2. The block sums are scanned the same way (recursively, if there are more
//     than 512 of them).
//  3. Every element adds the scanned sum of the blocks before its own.
//
// Checks the result against a host scan.
#include <amp.h>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace concurrency;

static const int TS = 256;        // threads per tile
static const int BLOCK = 2 * TS;  // elements per tile

void ScanExclusive(array_view<const int, 1> input, array_view<int, 1> output) {
  const int n = input.extent[0];
  const int blocks = (n + BLOCK - 1) / BLOCK;
  array<int, 1> block_sums(blocks);
  array_view<int, 1> sums(block_sums);
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
  array<int, 1> block_offsets(blocks);
  array_view<int, 1> offsets(block_offsets);
  ScanExclusive(sums, offsets);
  parallel_for_each(output.extent, [=](index<1> idx) restrict(amp) {
    output[idx] += offsets[idx[0] / BLOCK];
  });
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 1 << 19;
  if (n <= 0) {
    std::fprintf(stderr, "scan: size must be positive\n");
    return 2;
  }
  std::vector<int> in(n), out(n, -1);
  for (int i = 0; i < n; ++i) in[i] = (i * 7 + 3) % 10;

  try {
    array_view<const int, 1> input(n, in);
    array_view<int, 1> output(n, out);
    ScanExclusive(input, output);
    output.synchronize();
  } catch (const runtime_exception &e) {
    std::fprintf(stderr, "scan: %s\n", e.what());
    return 1;
  }

  int errors = 0;
  long long running = 0;
  for (int i = 0; i < n; ++i) {
    if (out[i] != running) {
      if (errors < 5)
        std::printf("mismatch at %d: got %d, expected %lld\n", i, out[i], running);
      ++errors;
    }
    running += in[i];
  }
  std::printf("scan %d: %s (%d mismatches)\n", n, errors ? "FAILED" : "PASSED", errors);
  return errors ? 1 : 0;
}
