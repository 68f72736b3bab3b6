#include "kernels.h"

void run_other(std::vector<float> &data, std::vector<int> &lines) {
  concurrency::array_view<float, 1> v(int(data.size()), data);
  reverse_tiles<32>(v);
  v.synchronize();
  concurrency::array_view<int, 1> l(int(lines.size()), lines);
  concurrency::parallel_for_each(l.extent, stamp_lines{l});
  l.synchronize();
}
