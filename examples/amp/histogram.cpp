// 256-bin histogram of a byte stream in C++ AMP. The bytes are packed four to
// an unsigned int (C++ AMP has no 8-bit element type). A fixed number of tiles
// of 256 threads stride over the data; each tile first counts into its own
// tile_static histogram with atomic increments on tile_static memory (cheap,
// contended only within the tile), then, after the barrier, each thread adds
// one bin of the tile's histogram to the global histogram with one global
// atomic add. Checks the counts against a host histogram.
#include <amp.h>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace concurrency;

static const int BINS = 256;
static const int TS = 256;
static const int TILES = 64;

void Histogram(const std::vector<unsigned int> &packed, std::vector<unsigned int> &hist) {
  const int words = int(packed.size());
  array_view<const unsigned int, 1> data(words, packed);
  array<unsigned int, 1> bins(BINS); // zero-initialised
  array_view<unsigned int, 1> global_hist(bins);

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
  copy(bins, hist.begin());
}

int main(int argc, char **argv) {
  int bytes = argc > 1 ? std::atoi(argv[1]) : 1 << 23;
  if (bytes <= 0 || bytes % 4 != 0) {
    std::fprintf(stderr, "histogram: the byte count must be a positive multiple of 4\n");
    return 2;
  }
  // Bytes with an uneven distribution: the sum of two pseudo-random bytes,
  // halved (a triangle peaking at 127).
  std::vector<unsigned int> packed(bytes / 4);
  std::vector<unsigned int> ref(BINS, 0), hist(BINS, 0);
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

  try {
    Histogram(packed, hist);
  } catch (const runtime_exception &e) {
    std::fprintf(stderr, "histogram: %s\n", e.what());
    return 1;
  }

  int errors = 0;
  unsigned long long total = 0;
  for (int b = 0; b < BINS; ++b) {
    total += hist[b];
    if (hist[b] != ref[b]) {
      if (errors < 5)
        std::printf("mismatch in bin %d: got %u, expected %u\n", b, hist[b], ref[b]);
      ++errors;
    }
  }
  std::printf("histogram %d bytes: %s (%d mismatched bins, %llu counted)\n", bytes,
              errors ? "FAILED" : "PASSED", errors, total);
  return errors ? 1 : 0;
}
