// Missing work-group barriers over group_local_memory: a read of an element
// another work-item wrote since the last barrier, and writes by several
// work-items to one element, are reported where the nd_range's local range
// and the index expressions prove them; everything else is left alone.
// RUN: %slmcxx -fsyntax-only -Xclang -verify %s
// RUN: %clangxx -std=c++17 %plugin -fsyntax-only -Xclang -verify %s
// RUN: %slmcxx -fsyntax-only -Wno-slmc-group-local-race -Xclang -verify=off %s
// RUN: %slmcxx -fsyntax-only -fdiagnostics-parseable-fixits %s 2>&1 | FileCheck %s
// off-no-diagnostics

#include <sycl/sycl.hpp>
using namespace sycl;
namespace syclex = sycl::ext::oneapi;

int opaque(int x) { return x * 3; }

void races(queue &q, int *out, float *m, int n) {
  // Read-after-write through a pointer to the data, and a scalar everyone
  // writes.
  q.parallel_for(nd_range<1>(range<1>(128), range<1>(64)), [=](nd_item<1> it) {
    int *s = *syclex::group_local_memory_for_overwrite<int[64]>(it.get_group());
    auto &total = *syclex::group_local_memory_for_overwrite<int>(it.get_group());
    const size_t lid = it.get_local_id(0);
    s[lid] = out[it.get_global_id(0)]; // expected-note {{work-item (1) writes s[1] here}}
    // CHECK: fix-it:"{{.*}}group-local-race.cpp":{[[@LINE+1]]:5-[[@LINE+1]]:5}:"sycl::group_barrier(it.get_group());\n    "
    int right = s[(lid + 1) % 64]; // expected-warning {{read of group-local s[1] by work-item (0) races with a write by work-item (1); no barrier separates them}} expected-note {{a barrier before this statement would order the accesses}}
    group_barrier(it.get_group());
    total = int(lid); // expected-warning {{write of group-local total by work-item (0) races with a write by work-item (1)}}
    out[it.get_global_id(0)] = right + s[63 - lid];
  });

  // Write-write across statements through the multi_ptr, a single writer
  // read by everyone, and the kernel's own barrier spelling in the fix-it.
  q.parallel_for(nd_range<1>{128, 8}, [=](nd_item<1> item) {
    auto s = syclex::group_local_memory_for_overwrite<int[8]>(item.get_group());
    auto h = syclex::group_local_memory<int[4]>(item.get_group());
    auto flag = syclex::group_local_memory<int>(item.get_group());
    size_t lid = item.get_local_id(0);
    (*s)[lid] = 0;                       // expected-note {{work-item (1) writes (*s)[1] here}}
    // CHECK: fix-it:"{{.*}}group-local-race.cpp":{[[@LINE+1]]:5-[[@LINE+1]]:5}:"item.barrier(access::fence_space::local_space);\n    "
    (*s)[(lid + 1) % 8] = 1;             // expected-warning {{write of group-local (*s)[1] by work-item (0) races with a write by work-item (1)}} expected-note {{a barrier before this statement}}
    (*h)[lid / 2] = 2;                   // expected-warning {{write of group-local (*h)[0] by work-item (0) races with a write by work-item (1)}}
    if (item.get_local_linear_id() == 0)
      *flag = out[item.get_global_id(0)]; // expected-note {{work-item (0) writes *flag here}}
    out[item.get_global_id(0)] = *flag;   // expected-warning {{read of group-local *flag by work-item (1) races with a write by work-item (0)}} expected-note {{a barrier before this statement}}
    item.barrier(access::fence_space::local_space);
  });

  // 2-D groups: the neighbour in the slower dimension, through a reference
  // to the array; the linear id runs over the last dimension fastest.
  q.parallel_for(nd_range<2>(range<2>(8, 32), range<2>(4, 16)), [=](nd_item<2> it) {
    group<2> g = it.get_group();
    auto &a = *syclex::group_local_memory_for_overwrite<float[4][16]>(g);
    auto &l = *syclex::group_local_memory_for_overwrite<float[64]>(g);
    a[it.get_local_id(0)][it.get_local_id(1)] = 1.0f; // expected-note {{work-item (1, 0) writes a[1][0] here}}
    m[it.get_global_linear_id()] = a[(it.get_local_id(0) + 1) & 3][it.get_local_id(1)]; // expected-warning {{read of group-local a[1][0] by work-item (0, 0) races with a write by work-item (1, 0)}} expected-note {{a barrier before this statement}}
    l[it.get_local_linear_id()] = 2.0f; // expected-note {{work-item (0, 1) writes l[1] here}}
    m[it.get_global_linear_id()] = l[g.get_local_linear_id() ^ 1]; // expected-warning {{read of group-local l[1] by work-item (0, 0) races with a write by work-item (0, 1)}} expected-note {{a barrier before this statement}}
  });
}

struct Functor {
  int *out;
  void operator()(nd_item<1> it) const {
    int *s = *syclex::group_local_memory_for_overwrite<int[32]>(it.get_group());
    s[it.get_local_id(0)] = 1;     // expected-note {{work-item (1) writes s[1] here}}
    out[it.get_global_id(0)] = s[(it.get_local_id(0) + 1) % 32]; // expected-warning {{read of group-local s[1] by work-item (0) races with a write by work-item (1)}} expected-note {{a barrier before this statement}}
  }
};

void functor(queue &q, int *out) {
  q.parallel_for(nd_range<1>(range<1>(64), range<1>(32)), Functor{out});
}

void fine(queue &q, int *out, int n, size_t local) {
  q.parallel_for(nd_range<1>(range<1>(128), range<1>(64)), [=](nd_item<1> it) {
    int *s = *syclex::group_local_memory_for_overwrite<int[64]>(it.get_group());
    auto &one = *syclex::group_local_memory_for_overwrite<int>(it.get_group());
    size_t lid = it.get_local_id(0);
    s[lid] = out[it.get_global_id(0)];
    out[it.get_global_id(0)] = s[lid] + s[it.get_local_id(0)]; // each work-item reads its own element
    group_barrier(it.get_group());
    out[it.get_global_id(0)] = s[(lid + 1) % 64]; // after a barrier
    it.barrier();
    if (lid == 0)
      one = 7;                           // one writer
    if (it.get_local_id(0) == 0)
      out[it.get_global_id(0)] = one;    // read by the writer only
    group_barrier(it.get_group());
    s[lid] = one;
    if (n > 2) // uniform, but not known: the barrier may or may not run
      group_barrier(it.get_group());
    out[it.get_global_id(0)] = s[(lid + 1) % 64];
    s[opaque(int(lid))] = 1;             // index not analysable
    out[it.get_global_id(0)] = s[lid * 2 % 64] + s[n]; // n: not known
    for (int i = 0; i < 64; ++i)         // loops are not looked at
      s[i] = i;
    size_t k = lid;
    k += 1;                              // k is not read-only
    out[it.get_global_id(0)] = s[k % 64];
    int *p = s;
    p = p + 1;                           // p is not read-only
    out[it.get_global_id(0)] = p[lid];
    if (lid - 1 < 4)                     // wraps around for work-item 0
      s[0] = 1;
    out[it.get_global_id(0)] = s[it.get_global_id(0) % 64]; // a global id: not analysable
    s[lid] = reduce_over_group(it.get_group(), int(lid), plus<int>()); // waits on a barrier
    out[it.get_global_id(0)] = s[(lid + 1) % 64];
    s[lid] = 2;
    auto &later = *syclex::group_local_memory<int>(it.get_group()); // may wait on a barrier
    out[it.get_global_id(0)] = s[(lid + 1) % 64] + later;
  });

  // The local range is not known at compile time: nothing is provable.
  q.parallel_for(nd_range<1>(range<1>(128), range<1>(local)), [=](nd_item<1> it) {
    int *s = *syclex::group_local_memory_for_overwrite<int[64]>(it.get_group());
    s[it.get_local_id(0)] = 1;
    out[it.get_global_id(0)] = s[(it.get_local_id(0) + 1) % 64];
  });
}
