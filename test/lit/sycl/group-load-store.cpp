// sycl_ext_oneapi_group_load_store, as HeCBench's blockAccess and DPC++'s
// own tests use it: group_load/group_store of spans, vecs and single
// values, blocked (the default) and striped, by work-groups and
// sub-groups, from USM pointers, group-local memory and accessors'
// pointers, with the properties programs pass (contiguous_memory,
// full_group) and a conversion on the way (float to unsigned char). A
// group_store to group-local memory is complete for the whole group after
// it, as DPC++'s general path gives. Results checked on the CPU fallback.
// RUN: %slmcxx -O2 %s -o %t
// RUN: %t | FileCheck %s
// RUN: %slmcxx -O2 -fslmc-check %s -o %t.check
// RUN: %t.check | FileCheck %s
// RUN: %slmcxx -O2 --emit=spirv %s -o %t.spv
// RUN: %spirv-val %t.spv
// RUN: not %slmcxx -fsyntax-only -DRULES %s 2>&1 | FileCheck %s --check-prefix=RULES
// RUN: %slmcxx -fsyntax-only -DDIVERGENT %s 2>&1 | FileCheck %s --check-prefix=DIVERGENT
// CHECK: blocked: PASSED
// CHECK: striped: PASSED
// CHECK: vec: PASSED
// CHECK: scalar: PASSED
// CHECK: local: PASSED
// CHECK: sub-group: PASSED
// CHECK: accessor: PASSED

#include <sycl/sycl.hpp>
#include <sycl/ext/oneapi/experimental/group_load_store.hpp>

#include <cstdio>

namespace sycl_exp = sycl::ext::oneapi::experimental;

#ifdef RULES
void rules(sycl::nd_item<1> it, int *p) {
  int *dynamic = p;
  sycl::span<int> unsized(dynamic, 4);
  // RULES: error: static assertion failed{{.*}}group_load: the span needs a fixed extent
  sycl_exp::group_load(it.get_group(), p, unsized);
  struct opaque {} o[2];
  // RULES: error: static assertion failed{{.*}}group_store: the values do not convert to the memory's elements
  sycl_exp::group_store(it.get_group(), sycl::span{o}, p);
}
#endif
#ifdef DIVERGENT
void launch(sycl::queue &q, int *p) {
  q.parallel_for(sycl::nd_range<1>(64, 32), [=](sycl::nd_item<1> it) {
    int v[2];
    // A group function: every work-item of the group calls it.
    // DIVERGENT: warning: call to 'group_load{{.*}}', which waits on a work-group barrier, is under work-item-dependent control flow
    if (it.get_local_id(0) < 4)
      sycl_exp::group_load(it.get_group(), p, sycl::span{v});
    p[it.get_global_id(0)] = v[0];
  });
}
#endif

static int bad = 0;
static void report(const char *what, int errors) {
  bad += errors;
  std::printf("%s: %s\n", what, errors ? "FAILED" : "PASSED");
}

int main() {
  sycl::queue q;
  constexpr int WG = 32, GROUPS = 4, N = 4, TOTAL = WG * GROUPS * N;
  float *in = sycl::malloc_shared<float>(TOTAL, q);
  unsigned char *out = sycl::malloc_shared<unsigned char>(TOTAL, q);
  int *ints = sycl::malloc_shared<int>(TOTAL, q);
  int *check = sycl::malloc_shared<int>(TOTAL, q);
  for (int i = 0; i < TOTAL; ++i) {
    in[i] = float(i % 251) + 0.25f;
    ints[i] = i;
  }

  // blocked: work-item i of a group takes elements i*N .. i*N+N-1.
  q.parallel_for(sycl::nd_range<1>(WG * GROUPS, WG), [=](sycl::nd_item<1> it) {
     auto g = it.get_group();
     float vals[N];
     unsigned char q8[N];
     auto props = sycl_exp::properties{sycl_exp::data_placement_blocked,
                                       sycl_exp::contiguous_memory, sycl_exp::full_group};
     const size_t base = g.get_group_id(0) * WG * N;
     sycl_exp::group_load(g, in + base, sycl::span{vals}, props);
     for (int j = 0; j < N; ++j)
       q8[j] = (unsigned char)vals[j];
     sycl_exp::group_store(g, sycl::span{q8}, out + base, props);
     // Which work-item got each element: blocked means index / N.
     int who[N];
     for (int j = 0; j < N; ++j)
       who[j] = int(it.get_local_id(0));
     sycl_exp::group_store(g, sycl::span{who}, check + base);
   }).wait();
  int e = 0;
  for (int i = 0; i < TOTAL; ++i)
    e += out[i] != (unsigned char)(i % 251) || check[i] != (i % (WG * N)) / N;
  report("blocked", e);

  // striped: element k of work-item i is at i + WG*k.
  q.parallel_for(sycl::nd_range<1>(WG * GROUPS, WG), [=](sycl::nd_item<1> it) {
     auto g = it.get_group();
     int vals[N];
     const size_t base = g.get_group_id(0) * WG * N;
     auto striped = sycl_exp::properties{sycl_exp::data_placement_striped};
     sycl_exp::group_load(g, ints + base, sycl::span{vals}, striped);
     for (int j = 0; j < N; ++j)
       vals[j] = vals[j] * 10 + j;
     sycl_exp::group_store(g, sycl::span{vals}, check + base, striped);
   }).wait();
  e = 0;
  for (int i = 0; i < TOTAL; ++i)
    e += check[i] != i * 10 + (i % (WG * N)) / WG;
  report("striped", e);

  // vec: a sycl::vec<int, 4> per work-item, blocked.
  q.parallel_for(sycl::nd_range<1>(WG * GROUPS, WG), [=](sycl::nd_item<1> it) {
     auto g = it.get_group();
     sycl::vec<int, N> v;
     const size_t base = g.get_group_id(0) * WG * N;
     sycl_exp::group_load(g, ints + base, v);
     v += sycl::vec<int, N>(1000);
     sycl_exp::group_store(g, v, check + base);
   }).wait();
  e = 0;
  for (int i = 0; i < TOTAL; ++i)
    e += check[i] != i + 1000;
  report("vec", e);

  // scalar: one value each.
  q.parallel_for(sycl::nd_range<1>(WG * GROUPS, WG), [=](sycl::nd_item<1> it) {
     auto g = it.get_group();
     int x;
     const size_t base = g.get_group_id(0) * WG;
     sycl_exp::group_load(g, ints + base, x);
     sycl_exp::group_store(g, -x, check + base);
   }).wait();
  e = 0;
  for (int i = 0; i < WG * GROUPS; ++i)
    e += check[i] != -i;
  report("scalar", e);

  // local: a group stores into group-local memory and reads it back
  // reversed; the store's closing barrier makes it complete for all.
  q.parallel_for(sycl::nd_range<1>(WG * GROUPS, WG), [=](sycl::nd_item<1> it) {
     auto g = it.get_group();
     auto tile = sycl::ext::oneapi::group_local_memory_for_overwrite<int[WG * N]>(g);
     int vals[N];
     const size_t base = g.get_group_id(0) * WG * N;
     sycl_exp::group_load(g, ints + base, sycl::span{vals});
     sycl_exp::group_store(g, sycl::span{vals}, &(*tile)[0]);
     const size_t me = it.get_local_id(0);
     for (int j = 0; j < N; ++j)
       check[base + me * N + j] = (*tile)[WG * N - 1 - (me * N + j)];
   }).wait();
  e = 0;
  for (int i = 0; i < TOTAL; ++i) {
    const int group = i / (WG * N), within = i % (WG * N);
    e += check[i] != group * WG * N + (WG * N - 1 - within);
  }
  report("local", e);

  // sub-group: each sub-group of a group loads its own run of elements.
  q.parallel_for(sycl::nd_range<1>(WG * GROUPS, WG), [=](sycl::nd_item<1> it) {
     auto sg = it.get_sub_group();
     int vals[2];
     const size_t first =
         (it.get_global_id(0) - sg.get_local_linear_id()) * 2; // the sub-group's start
     sycl_exp::group_load(sg, ints + first, sycl::span{vals});
     vals[0] += 7;
     vals[1] += 7;
     sycl_exp::group_store(sg, sycl::span{vals}, check + first);
   }).wait();
  e = 0;
  for (int i = 0; i < WG * GROUPS * 2; ++i)
    e += check[i] != i + 7;
  report("sub-group", e);

  // accessor: a buffer's multi_ptr, blocked.
  {
    sycl::buffer<int, 1> buf(ints, sycl::range<1>(TOTAL));
    sycl::buffer<int, 1> res(check, sycl::range<1>(TOTAL));
    q.submit([&](sycl::handler &h) {
      sycl::accessor a(buf, h, sycl::read_only);
      sycl::accessor r(res, h, sycl::write_only);
      h.parallel_for(sycl::nd_range<1>(WG * GROUPS, WG), [=](sycl::nd_item<1> it) {
        auto g = it.get_group();
        int vals[N];
        const size_t base = g.get_group_id(0) * WG * N;
        auto src = a.get_multi_ptr<sycl::access::decorated::no>() + base;
        sycl_exp::group_load(g, src, sycl::span{vals});
        for (int j = 0; j < N; ++j)
          vals[j] *= 3;
        sycl_exp::group_store(g, sycl::span{vals}, r.get_pointer() + base);
      });
    });
  }
  e = 0;
  for (int i = 0; i < TOTAL; ++i)
    e += check[i] != 3 * i;
  report("accessor", e);

  sycl::free(in, q);
  sycl::free(out, q);
  sycl::free(ints, q);
  sycl::free(check, q);
  return bad != 0;
}
