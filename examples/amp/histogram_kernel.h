// The C++ AMP 256-bin byte histogram of histogram.cpp (and of
// benchmarks/amp/histogram_bench.cpp): 64 tiles of 256 threads striding over
// the data, each counting into a tile_static histogram with atomic
// increments, then one global atomic add per bin and tile. Also the bytes
// both programs count.
#ifndef SLMC_EXAMPLES_AMP_HISTOGRAM_KERNEL_H
#define SLMC_EXAMPLES_AMP_HISTOGRAM_KERNEL_H

#include <amp.h>
#include <cstddef>
#include <vector>

using namespace concurrency;

static const int BINS = 256;
static const int TS = 256;
static const int TILES = 64;

// Adds the byte counts of `data` to `global_hist` (BINS bins).
void Histogram(array_view<const unsigned int, 1> data, array_view<unsigned int, 1> global_hist) {
  const int words = data.extent[0];
  parallel_for_each(extent<1>(TILES * TS).tile<TS>(), [=](tiled_index<TS> t_idx) restrict(amp) {
    tile_static unsigned int local_hist[BINS];
    const int tid = t_idx.local[0];
    local_hist[tid] = 0;
    t_idx.barrier.wait();

    for (int i = t_idx.global[0]; i < words; i += TILES * TS) {
      unsigned int w = data[i];
      atomic_fetch_inc(&local_hist[w & 0xFF]);
      atomic_fetch_inc(&local_hist[(w >> 8) & 0xFF]);
      atomic_fetch_inc(&local_hist[(w >> 16) & 0xFF]);
      atomic_fetch_inc(&local_hist[w >> 24]);
    }
    t_idx.barrier.wait();

    if (local_hist[tid] != 0)
      atomic_fetch_add(&global_hist[tid], local_hist[tid]);
  });
}

// The input of both programs: `bytes` bytes with an uneven distribution (the
// sum of two pseudo-random bytes, halved: a triangle peaking at 127), packed
// four to a word. `ref` gets their counts.
std::vector<unsigned int> HistogramInput(int bytes, std::vector<unsigned int> &ref) {
  std::vector<unsigned int> packed(bytes / 4);
  ref.assign(BINS, 0);
  unsigned int seed = 2024;
  for (size_t i = 0; i < packed.size(); ++i) {
    unsigned int w = 0;
    for (int k = 0; k < 4; ++k) {
      seed = seed * 1103515245u + 12345u;
      unsigned int b = (((seed >> 16) & 0xFF) + ((seed >> 24) & 0xFF)) / 2;
      w |= b << (8 * k);
      ++ref[b];
    }
    packed[i] = w;
  }
  return packed;
}

#endif
