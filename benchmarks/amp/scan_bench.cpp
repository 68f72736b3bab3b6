// Benchmark: the C++ AMP exclusive scan of examples/amp/scan.cpp (tiles of 256
// threads scanning 512 elements in tile_static memory with the Blelloch up-
// and down-sweeps, the block sums scanned recursively, then one add per
// element), timed on whatever device slmc's runtime picks: kernel launches
// only, after a warm-up. The example allocates the block-sum arrays inside
// the recursion; here they are allocated once before timing (an array's
// destructor waits for the kernels), the kernels are the example's.
// Prints one line: "amp scan N=<n> <ms> ms <G elements/s> Gelem/s verified".
// Usage: scan_bench [N=33554432] [repetitions=100]
#include <amp.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

using namespace concurrency;

static const int TS = 256;        // threads per tile
static const int BLOCK = 2 * TS;  // elements per tile

// Block sums and scanned block offsets of every level of the recursion.
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
    if (tid == 0) {
      sums[t_idx.tile[0]] = temp[BLOCK - 1];
      temp[BLOCK - 1] = 0;
    }
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

  array_view<int, 1> offsets(*scratch.offsets[level]);
  ScanExclusive(sums, offsets, scratch, level + 1);
  parallel_for_each(output.extent, [=](index<1> idx) restrict(amp) {
    output[idx] += offsets[idx[0] / BLOCK];
  });
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 1 << 25;
  int reps = argc > 2 ? std::atoi(argv[2]) : 100;
  if (n <= 0 || reps <= 0) {
    std::fprintf(stderr, "usage: scan_bench [N] [repetitions]\n");
    return 2;
  }
  std::vector<int> in(n), out(n, -1);
  for (int i = 0; i < n; ++i) in[i] = (i * 7 + 3) % 10;

  accelerator acc;
  ScanScratch scratch(n);
  array_view<const int, 1> input(n, in);
  array_view<int, 1> output(n, out);

  ScanExclusive(input, output, scratch); // warm-up: module build / JIT
  acc.default_view.wait();
  auto t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < reps; ++r)
    ScanExclusive(input, output, scratch);
  acc.default_view.wait();
  auto t1 = std::chrono::steady_clock::now();
  double ms = std::chrono::duration<double, std::milli>(t1 - t0).count() / reps;
  output.synchronize();

  long bad = 0;
  long long running = 0;
  for (int i = 0; i < n; ++i) {
    bad += out[i] != running;
    running += in[i];
  }
  std::printf("amp scan N=%d %.4f ms %.2f Gelem/s %s\n", n, ms, double(n) / (ms * 1e6),
              bad ? "WRONG" : "verified");
  return bad ? 1 : 0;
}
