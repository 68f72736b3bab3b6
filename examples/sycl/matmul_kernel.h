// The tiled SYCL matrix multiply of matmul.cpp (and of
// benchmarks/sycl/matmul_bench.cpp): each 16x16 block of C is computed by one
// work-group, which stages 16x16 tiles of A and B in group-local memory made
// by group_local_memory_for_overwrite (two calls of the same type: each call
// site has its own storage). Buffers and 2-D accessors.
#ifndef SLMC_EXAMPLES_SYCL_MATMUL_KERNEL_H
#define SLMC_EXAMPLES_SYCL_MATMUL_KERNEL_H

#include <sycl/sycl.hpp>

#include <cstddef>

using namespace sycl;

static constexpr size_t TS = 16;
using tile_t = float[TS][TS];

// c = a * b, where a is M x W and b is W x N (all multiples of TS).
void MultiplyTiled(queue &q, buffer<float, 2> &a, buffer<float, 2> &b, buffer<float, 2> &c,
                   size_t M, size_t N, size_t W) {
  q.submit([&](handler &h) {
    accessor ra(a, h, read_only);
    accessor rb(b, h, read_only);
    accessor wc(c, h, write_only, no_init);
    h.parallel_for<class tiled_matmul>(
        nd_range<2>(range<2>(M, N), range<2>(TS, TS)), [=](nd_item<2> it) {
          group<2> g = it.get_group();
          auto tileA = ext::oneapi::group_local_memory_for_overwrite<tile_t>(g);
          auto tileB = ext::oneapi::group_local_memory_for_overwrite<tile_t>(g);
          const size_t row = it.get_local_id(0), col = it.get_local_id(1);
          const size_t gr = it.get_global_id(0), gc = it.get_global_id(1);
          float sum = 0.0f;
          for (size_t k0 = 0; k0 < W; k0 += TS) {
            (*tileA)[row][col] = ra[gr][k0 + col];
            (*tileB)[row][col] = rb[k0 + row][gc];
            group_barrier(g);
            for (size_t k = 0; k < TS; ++k)
              sum += (*tileA)[row][k] * (*tileB)[k][col];
            group_barrier(g);
          }
          wc[id<2>(gr, gc)] = sum;
        });
  });
}

#endif
