#include "kernels.h"

void kernels::scale_all(std::vector<int> &values, int by) {
  concurrency::array_view<int, 1> v(int(values.size()), values);
  concurrency::parallel_for_each(v.extent, [=](concurrency::index<1> i) restrict(amp) {
    v[i] *= by;
  });
  v.synchronize();
}
