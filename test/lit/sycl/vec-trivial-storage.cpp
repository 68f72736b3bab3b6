// sycl::vec of more than one element is trivially default constructible,
// as DPC++'s is (default construction leaves the elements uninitialised;
// one element starts at zero, as there): a union of per-phase layouts with
// vec words, as CUB-style temporary storage is written, is then trivial and
// group_local_memory_for_overwrite can place it. Run on the CPU fallback;
// the SPIR-V validates.
// RUN: %slmcxx -O2 %s -o %t
// RUN: %t | FileCheck %s
// CHECK: union of vec words: PASSED
// RUN: %slmcxx --emit=spirv %s -o %t.spv
// RUN: %spirv-val %t.spv
#include <sycl/sycl.hpp>

#include <cstdio>
#include <type_traits>

static_assert(std::is_trivially_default_constructible_v<sycl::int4>, "int4");
static_assert(std::is_trivially_default_constructible_v<sycl::vec<double, 16>>, "double16");
static_assert(std::is_trivially_copyable_v<sycl::float3>, "float3");
static_assert(std::is_trivial_v<sycl::ulong2>, "ulong2");
static_assert(sizeof(sycl::float3) == 16 && alignof(sycl::float3) == 16, "float3 as float4");
static_assert(sizeof(sycl::half8) == 16 && alignof(sycl::int2) == 8, "layout");
static_assert(sycl::vec<int, 1>()[0] == 0, "one element starts at zero");

// Words of 16 bytes, or the same bytes as ints.
union TempStorage {
  sycl::int4 words[16];
  int scalars[64];
};
static_assert(std::is_trivial_v<TempStorage>, "the union is trivial");

int main() {
  sycl::queue q;
  int *out = sycl::malloc_shared<int>(64, q);
  q.parallel_for(sycl::nd_range<1>(64, 64), [=](sycl::nd_item<1> it) {
     TempStorage &ts =
         *sycl::ext::oneapi::group_local_memory_for_overwrite<TempStorage>(it.get_group());
     const size_t l = it.get_local_id(0);
     ts.scalars[l] = int(l) * 3;
     sycl::group_barrier(it.get_group());
     sycl::int4 w = ts.words[l / 4];
     out[l] = w[l % 4];
   }).wait();
  int bad = 0;
  for (int i = 0; i < 64; ++i)
    bad += out[i] != i * 3;
  std::printf("union of vec words: %s\n", bad ? "FAILED" : "PASSED");
  sycl::free(out, q);
  return bad != 0;
}
