// The second translation unit of the multi-file test: reverses each tile.
#include <amp.h>
#include <vector>
using namespace concurrency;

int reverse_tiles(std::vector<int> &v) {
  std::vector<int> before = v;
  array_view<int, 1> av(int(v.size()), v);
  parallel_for_each(av.extent.tile<32>(), [=](tiled_index<32> t) restrict(amp) {
    tile_static int tmp[32];
    tmp[t.local[0]] = av[t.global];
    t.barrier.wait();
    av[t.global] = tmp[31 - t.local[0]];
  });
  av.synchronize();
  for (size_t i = 0; i < v.size(); ++i)
    if (v[i] != before[i / 32 * 32 + 31 - i % 32])
      return 1;
  return 0;
}
