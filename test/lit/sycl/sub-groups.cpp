// Sub-groups: the queries, select/shift/permute, group_barrier and the group
// functions over sub-groups. Each work-item reports its sub-group layout and
// results; the host regroups work-items by the reported layout and checks
// every result (the CPU fallback's sub-groups have one work-item unless the
// kernel requires a size; the layout rule, sub-group id * max size + lane =
// local linear id, is checked too). The joint algorithms run over the
// work-group's inputs in every sub-group. With -DSG=N the kernel requires
// sub-group size N ([[sycl::reqd_sub_group_size(SG)]]), which the CPU
// fallback honours (local sizes 40 and 36 leave a partial last sub-group).
// The SPIR-V validates and uses OpGroupNonUniformShuffle (and the
// SubgroupSize execution mode with -DSG), the PTX uses shfl.sync.
// RUN: %slmcxx -O2 %s -o %t
// RUN: %t 64 | FileCheck %s --check-prefix=L64
// RUN: %t 40 | FileCheck %s --check-prefix=L40
// L64: sub-groups of size 1, local size 64: PASSED
// L40: sub-groups of size 1, local size 40: PASSED
// RUN: %slmcxx -O2 -DSG=8 %s -o %t8
// RUN: %t8 64 | FileCheck %s --check-prefix=S8-64
// RUN: %t8 36 | FileCheck %s --check-prefix=S8-36
// S8-64: sub-groups of size 8, local size 64: PASSED
// S8-36: sub-groups of size 8, local size 36: PASSED
// RUN: %slmcxx -O2 -DSG=32 %s -o %t32
// RUN: %t32 64 | FileCheck %s --check-prefix=S32-64
// RUN: %t32 40 | FileCheck %s --check-prefix=S32-40
// S32-64: sub-groups of size 32, local size 64: PASSED
// S32-40: sub-groups of size 32, local size 40: PASSED
// RUN: %slmcxx --emit=spirv -DSG=16 %s -o %t16.spv
// RUN: %spirv-val %t16.spv
// RUN: %spirv-dis %t16.spv | FileCheck %s --check-prefix=SPIRV16
// SPIRV16: OpExecutionMode {{.*}} SubgroupSize 16
// RUN: %slmcxx --emit=spirv %s -o %t.spv
// RUN: %spirv-val %t.spv
// RUN: %spirv-dis %t.spv | FileCheck %s --check-prefix=SPIRV
// SPIRV-DAG: OpDecorate {{.*}} BuiltIn SubgroupLocalInvocationId
// SPIRV-DAG: OpDecorate {{.*}} BuiltIn SubgroupSize
// SPIRV-DAG: OpGroupNonUniformShuffle %uint %uint_3
// RUN: %slmcxx --emit=ptx %s -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// PTX: shfl.sync.idx.b32
// RUN: %clangxx -std=c++17 %plugin -fsyntax-only %s

#include <sycl/sycl.hpp>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <vector>

enum {
  kSize, kLane, kId, kCount, kMax, kSum, kIncl, kExcl, kExclInit, kInclInit, kBcast,
  kSelect, kLeft, kRight, kXor, kAny, kAll, kFree, kJointSum, kJointAny, kJointAll, kFields
};

static int value(size_t i) { return int((i * 29 + 3) % 53) - 20; }

int main(int argc, char **argv) {
  const size_t L = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 64;
  const size_t n = 2 * L;
  sycl::queue q;
  int *in = sycl::malloc_shared<int>(n, q);
  long long *out = sycl::malloc_shared<long long>(n * kFields, q);
  // joint_exclusive_scan's output: one row of L per sub-group (at most n).
  long long *scans = sycl::malloc_shared<long long>(n * L, q);
  for (size_t i = 0; i < n; ++i) in[i] = value(i);

  q.parallel_for(sycl::nd_range<1>{n, L}, [=](sycl::nd_item<1> it)
#ifdef SG
     [[sycl::reqd_sub_group_size(SG)]]
#endif
     {
     sycl::sub_group sg = it.get_sub_group();
     const int x = in[it.get_global_id(0)];
     long long *o = out + it.get_global_id(0) * kFields;
     const uint32_t lane = sg.get_local_linear_id(), size = sg.get_local_linear_range();
     o[kSize] = size;
     o[kLane] = lane;
     o[kId] = sg.get_group_linear_id();
     o[kCount] = sg.get_group_range()[0];
     o[kMax] = sg.get_max_local_range()[0];
     o[kSum] = sycl::reduce_over_group(sg, x, sycl::plus<>());
     o[kIncl] = sycl::inclusive_scan_over_group(sg, x, sycl::maximum<int>());
     o[kExcl] = sycl::exclusive_scan_over_group(sg, x, sycl::plus<int>());
     o[kExclInit] = sycl::exclusive_scan_over_group(sg, x, 100, sycl::plus<>());
     o[kInclInit] = sycl::inclusive_scan_over_group(sg, x, sycl::plus<>(), -3);
     o[kBcast] = sycl::group_broadcast(sg, x);
     o[kSelect] = sycl::select_from_group(sg, x, sycl::id<1>((lane ^ 1) < size ? lane ^ 1 : lane));
     o[kLeft] = sycl::shift_group_left(sg, x, 1);
     o[kRight] = sycl::shift_group_right(sg, x, 1);
     o[kXor] = sycl::permute_group_by_xor(sg, x, 1);
     o[kAny] = sycl::any_of_group(sg, x > 30);
     o[kAll] = sycl::all_of_group(sg, x, [](int v) { return v > -21; });
     sycl::group_barrier(sg);
     o[kFree] = sycl::ext::oneapi::this_work_item::get_sub_group().get_local_linear_id() == lane &&
                sycl::ext::oneapi::experimental::this_sub_group().get_group_linear_id() ==
                    sg.get_group_linear_id();
     // The joint algorithms over the work-group's inputs, in each sub-group.
     const int *first = in + it.get_group(0) * L, *last = first + L;
     o[kJointSum] = sycl::joint_reduce(sg, first, last, sycl::plus<>());
     o[kJointAny] = sycl::joint_any_of(sg, first, last, [](int v) { return v == 32; });
     o[kJointAll] = sycl::joint_all_of(sg, first, last, [](int v) { return v < 33; });
     long long *row = scans + (it.get_group(0) * sg.get_group_linear_range() +
                               sg.get_group_linear_id()) * L;
     sycl::joint_exclusive_scan(sg, first, last, row, sycl::plus<long long>());
   }).wait();

  size_t bad = 0;
  auto check = [&](const char *what, size_t i, long long got, long long want) {
    if (got != want && bad++ < 10)
      std::printf("mismatch: %s at %zu: got %lld, want %lld\n", what, i, got, want);
  };
  long long sgsize = out[kSize];
  // Work-items by (work-group, sub-group), in lane order.
  std::map<std::pair<size_t, long long>, std::vector<size_t>> groups;
  for (size_t i = 0; i < n; ++i) {
    const long long *o = out + i * kFields;
    check("layout", i, o[kId] * o[kMax] + o[kLane], (long long)(i % L));
    check("count", i, o[kCount], (long long)((L + o[kMax] - 1) / o[kMax]));
    check("free-function sub_group", i, o[kFree], 1);
    groups[{i / L, o[kId]}].push_back(i);
    long long sum = 0, any = 0, all = 1;
    for (size_t k = i / L * L; k < i / L * L + L; ++k) {
      sum += in[k];
      any |= in[k] == 32;
      all &= in[k] < 33;
    }
    check("joint_reduce", i, o[kJointSum], sum);
    check("joint_any_of", i, o[kJointAny], any);
    check("joint_all_of", i, o[kJointAll], all);
  }
  for (size_t row = 0; row < n / L * size_t(out[kCount]); ++row) {
    const size_t group = row / size_t(out[kCount]);
    long long run = 0;
    for (size_t k = 0; k < L; ++k) {
      check("joint_exclusive_scan", row * L + k, scans[row * L + k], run);
      run += in[group * L + k];
    }
  }
  for (auto &[key, items] : groups) {
    const size_t m = items.size();
    long long sum = 0, any = 0, all = 1;
    for (size_t i : items) { sum += in[i]; any |= in[i] > 30; all &= in[i] > -21; }
    long long run = 0, runmax = in[items[0]];
    for (size_t l = 0; l < m; ++l) {
      const size_t i = items[l];
      const long long *o = out + i * kFields;
      check("size", i, o[kSize], (long long)m);
      check("lane", i, o[kLane], (long long)l);
      check("reduce", i, o[kSum], sum);
      check("exclusive", i, o[kExcl], run);
      check("exclusive+init", i, o[kExclInit], 100 + run);
      run += in[i];
      runmax = std::max<long long>(runmax, in[i]);
      check("inclusive max", i, o[kIncl], runmax);
      check("inclusive+init", i, o[kInclInit], run - 3);
      check("broadcast", i, o[kBcast], in[items[0]]);
      check("select", i, o[kSelect], in[items[(l ^ 1) < m ? l ^ 1 : l]]);
      check("shift left", i, o[kLeft], in[items[l + 1 < m ? l + 1 : l]]);
      check("shift right", i, o[kRight], in[items[l >= 1 ? l - 1 : l]]);
      check("permute xor", i, o[kXor], in[items[(l ^ 1) < m ? l ^ 1 : l]]);
      check("any", i, o[kAny], any);
      check("all", i, o[kAll], all);
    }
  }
  std::printf("sub-groups of size %lld, local size %zu: %s\n", sgsize, L, bad ? "FAILED" : "PASSED");
  sycl::free(in, q);
  sycl::free(out, q);
  sycl::free(scans, q);
  return bad ? 1 : 0;
}
