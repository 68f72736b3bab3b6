// sycl_ext_oneapi_local_memory called again and again in a loop, as code
// migrated from CUDA has it (a __device__ helper with a __shared__ tile,
// called in the k-loop of a tiled matrix multiply; a __shared__ array
// declared inside a loop's body): each call path is one allocation, as
// DPC++ gives after inlining, so every iteration gets the same object.
// group_local_memory constructs it again each time; the _for_overwrite
// form keeps what the last iteration wrote. Results are checked on the CPU
// fallback (optimised, unoptimised, and with the run-time checks), and the
// device code has one group-local variable per call path.
// RUN: %slmcxx -O2 %s -o %t
// RUN: %t | FileCheck %s
// RUN: %slmcxx -O0 %s -o %t.O0
// RUN: %t.O0 | FileCheck %s
// RUN: %slmcxx -O2 -fslmc-check %s -o %t.check
// RUN: %t.check | FileCheck %s
// CHECK: matmul: PASSED
// CHECK: kept: PASSED
// CHECK: constructed: PASSED
// RUN: %slmcxx -O2 --emit=spirv %s -o %t.spv
// RUN: %spirv-val %t.spv
// RUN: %spirv-dis %t.spv | FileCheck %s --check-prefix=SPIRV
// SPIRV-COUNT-4: OpVariable %{{.*}} Workgroup
// SPIRV-NOT: OpVariable %{{.*}} Workgroup
// RUN: %slmcxx -fsyntax-only -Xclang -verify %s
// RUN: %clangxx -std=c++17 %plugin -fsyntax-only -Xclang -verify %s
// expected-no-diagnostics
#include <sycl/sycl.hpp>
#include <sycl/ext/oneapi/group_local_memory.hpp>
#include <cstdio>
#include <vector>
using namespace sycl;
namespace oneapi = sycl::ext::oneapi;

constexpr int T = 8; // tile side and work-group side

// The migrated helper: its tile was a __shared__ array.
inline float *load_tile(const float *src, int ld, int row0, int col0, nd_item<2> it) {
  auto &tile = *oneapi::group_local_memory_for_overwrite<float[T][T]>(it.get_group());
  int r = int(it.get_local_id(0)), c = int(it.get_local_id(1));
  tile[r][c] = src[(row0 + r) * ld + col0 + c];
  group_barrier(it.get_group());
  return &tile[0][0];
}

int main() {
  queue q;
  const int n = 32;
  std::vector<float> a(n * n), b(n * n), c(n * n), want(n * n, 0.0f);
  for (int i = 0; i < n * n; ++i) {
    a[i] = float(i % 7) - 3.0f;
    b[i] = float(i % 5) * 0.5f;
  }
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < n; ++k)
      for (int j = 0; j < n; ++j)
        want[i * n + j] += a[i * n + k] * b[k * n + j];
  {
    buffer<float, 1> A(a.data(), range<1>(n * n)), B(b.data(), range<1>(n * n)),
        C(c.data(), range<1>(n * n));
    q.submit([&](handler &h) {
      accessor pa(A, h, read_only), pb(B, h, read_only);
      accessor pc(C, h, write_only);
      h.parallel_for(nd_range<2>(range<2>(n, n), range<2>(T, T)), [=](nd_item<2> it) {
        int row = int(it.get_global_id(0)), col = int(it.get_global_id(1));
        int r = int(it.get_local_id(0)), cl = int(it.get_local_id(1));
        int row0 = int(it.get_group(0)) * T, col0 = int(it.get_group(1)) * T;
        float acc = 0.0f;
        for (int k0 = 0; k0 < n; k0 += T) {
          const float *ta = load_tile(pa.get_pointer(), n, row0, k0, it);
          const float *tb = load_tile(pb.get_pointer(), n, k0, col0, it);
          for (int k = 0; k < T; ++k)
            acc += ta[r * T + k] * tb[k * T + cl];
          group_barrier(it.get_group());
        }
        pc[row * n + col] = acc;
      });
    });
  }
  int bad = 0;
  for (int i = 0; i < n * n; ++i)
    if (c[i] != want[i] && bad++ < 5)
      std::printf("c[%d] = %g, expected %g\n", i, c[i], want[i]);
  std::printf("matmul: %s\n", bad ? "FAILED" : "PASSED");

  // Declared in a loop's body: one object for all iterations.
  std::vector<int> kept(64), built(64);
  {
    buffer<int, 1> K(kept.data(), range<1>(64)), V(built.data(), range<1>(64));
    q.submit([&](handler &h) {
      accessor pk(K, h, write_only), pv(V, h, write_only);
      h.parallel_for(nd_range<1>(range<1>(64), range<1>(32)), [=](nd_item<1> it) {
        int lid = int(it.get_local_id(0));
        int seen = 0;
        for (int i = 0; i < 3; ++i) {
          auto &sum = *oneapi::group_local_memory_for_overwrite<int[32]>(it.get_group());
          if (i == 0)
            sum[lid] = 0;
          sum[lid] += lid * (i + 1); // 0 + lid + 2 lid + 3 lid
          group_barrier(it.get_group());
          seen = sum[31 - lid];
          group_barrier(it.get_group());
        }
        pk[it.get_global_id(0)] = seen;
        int last = 0;
        for (int i = 1; i <= 3; ++i) {
          auto &fresh = *oneapi::group_local_memory<int[32]>(it.get_group()); // zero again
          fresh[lid] += i;
          group_barrier(it.get_group());
          last = fresh[31 - lid];
          group_barrier(it.get_group());
        }
        pv[it.get_global_id(0)] = last;
      });
    });
  }
  int bad2 = 0, bad3 = 0;
  for (int i = 0; i < 64; ++i) {
    int other = 31 - i % 32;
    if (kept[i] != 6 * other && bad2++ < 5)
      std::printf("kept[%d] = %d, expected %d\n", i, kept[i], 6 * other);
    if (built[i] != 3 && bad3++ < 5)
      std::printf("built[%d] = %d, expected 3\n", i, built[i]);
  }
  std::printf("kept: %s\n", bad2 ? "FAILED" : "PASSED");
  std::printf("constructed: %s\n", bad3 ? "FAILED" : "PASSED");
  return bad || bad2 || bad3;
}
