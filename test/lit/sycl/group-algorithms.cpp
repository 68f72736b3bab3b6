// SYCL 2020 group functions (§4.17.3-4) over work-groups: every algorithm
// and function object, run on the CPU fallback for power-of-two,
// odd and one-item groups and checked against the host's results; the
// SPIR-V validates and the PTX builds.
// RUN: %slmcxx -O2 %s -o %t
// RUN: %t 64 | FileCheck %s --check-prefix=L64
// RUN: %t 48 | FileCheck %s --check-prefix=L48
// RUN: %t 1 | FileCheck %s --check-prefix=L1
// RUN: %t 1024 | FileCheck %s --check-prefix=L1024
// L64: group algorithms, local size 64: PASSED
// L48: group algorithms, local size 48: PASSED
// L1: group algorithms, local size 1: PASSED
// L1024: group algorithms, local size 1024: PASSED
// RUN: %slmcxx --emit=spirv %s -o %t.spv
// RUN: %spirv-val %t.spv
// RUN: %slmcxx --emit=ptx %s -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// PTX: .shared .align {{[0-9]+}} .b8 {{.*}}group_scratch_site{{.*}}[4096];
// RUN: %clangxx -std=c++17 %plugin -fsyntax-only %s

#include <sycl/sycl.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

// Per work-item results, in this order.
enum {
  kSum, kMax, kMinInit, kMul, kXor, kAnd, kOr, kExcl, kExclInit, kIncl, kInclInit,
  kInclMax, kBcast0, kBcastLast, kAny, kAll, kNone, kAnyPred, kAllPred, kNonePred,
  kLogicalAnd, kLogicalOr, kFloatSum, kJointReduce, kJointReduceInit, kJointAny,
  kJointAll, kJointNone, kCount
};

static int value(size_t i) { return int((i * 37 + 11) % 101) - 40; }

int main(int argc, char **argv) {
  const size_t L = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 64;
  const size_t G = 3, n = G * L;
  const size_t M = 3 * L + 5; // joint range per group: not a multiple of L

  std::vector<int> in(n), joint(G * M);
  for (size_t i = 0; i < n; ++i) in[i] = value(i);
  for (size_t i = 0; i < G * M; ++i) joint[i] = value(i * 3 + 1);

  sycl::queue q;
  int *d_in = sycl::malloc_shared<int>(n, q);
  int *d_joint = sycl::malloc_shared<int>(G * M, q);
  long long *out = sycl::malloc_shared<long long>(n * kCount, q);
  int *incl = sycl::malloc_shared<int>(G * M, q);
  int *excl = sycl::malloc_shared<int>(G * M, q);
  long long *ends = sycl::malloc_shared<long long>(2 * G, q);
  std::copy(in.begin(), in.end(), d_in);
  std::copy(joint.begin(), joint.end(), d_joint);

  q.parallel_for(sycl::nd_range<1>{n, L}, [=](sycl::nd_item<1> it) {
     sycl::group<1> g = it.get_group();
     const size_t gid = it.get_global_id(0);
     const int x = d_in[gid];
     const unsigned u = unsigned(x) * 2654435761u;
     long long *o = out + gid * kCount;
     o[kSum] = sycl::reduce_over_group(g, x, sycl::plus<>());
     o[kMax] = sycl::reduce_over_group(g, x, sycl::maximum<int>());
     o[kMinInit] = sycl::reduce_over_group(g, x, -7, sycl::minimum<>());
     o[kMul] = sycl::reduce_over_group(g, unsigned(x & 3) + 1u, sycl::multiplies<unsigned>());
     o[kXor] = sycl::reduce_over_group(g, u, sycl::bit_xor<unsigned>());
     o[kAnd] = sycl::reduce_over_group(g, u | 0x80000001u, sycl::bit_and<>());
     o[kOr] = sycl::reduce_over_group(g, u & 0x00f0f0f0u, sycl::bit_or<unsigned>());
     o[kExcl] = sycl::exclusive_scan_over_group(g, x, sycl::plus<>());
     o[kExclInit] = sycl::exclusive_scan_over_group(g, x, 5, sycl::plus<int>());
     o[kIncl] = sycl::inclusive_scan_over_group(g, x, sycl::plus<int>());
     o[kInclInit] = sycl::inclusive_scan_over_group(g, x, sycl::plus<>(), 7);
     o[kInclMax] = sycl::inclusive_scan_over_group(g, x, sycl::maximum<>());
     o[kBcast0] = sycl::group_broadcast(g, x);
     o[kBcastLast] = sycl::group_broadcast(g, x, g.get_local_linear_range() - 1);
     o[kAny] = sycl::any_of_group(g, x > 55);
     o[kAll] = sycl::all_of_group(g, x > -40);
     o[kNone] = sycl::none_of_group(g, x == 13);
     o[kAnyPred] = sycl::any_of_group(g, x, [](int v) { return v == -40; });
     o[kAllPred] = sycl::all_of_group(g, x, [](int v) { return v < 61; });
     o[kNonePred] = sycl::none_of_group(g, x, [](int v) { return v > 60; });
     o[kLogicalAnd] = sycl::reduce_over_group(g, x != 0, sycl::logical_and<bool>());
     o[kLogicalOr] = sycl::reduce_over_group(g, x == 60, sycl::logical_or<>());
     o[kFloatSum] = (long long)sycl::reduce_over_group(g, float(x) * 0.5f, sycl::plus<float>());
     const int *first = d_joint + g.get_group_linear_id() * M, *last = first + M;
     o[kJointReduce] = sycl::joint_reduce(g, first, last, sycl::plus<>());
     o[kJointReduceInit] = sycl::joint_reduce(g, first, last, 100, sycl::maximum<>());
     o[kJointAny] = sycl::joint_any_of(g, first, last, [](int v) { return v == 0; });
     o[kJointAll] = sycl::joint_all_of(g, first, last, [](int v) { return v >= -40; });
     o[kJointNone] = sycl::joint_none_of(g, first, last, [](int v) { return v > 60; });
     int *ri = incl + g.get_group_linear_id() * M, *re = excl + g.get_group_linear_id() * M;
     int *ei = sycl::joint_inclusive_scan(g, first, last, ri, sycl::plus<>());
     int *ee = sycl::joint_exclusive_scan(g, first, last, re, 3, sycl::plus<>());
     if (g.leader()) {
       ends[2 * g.get_group_linear_id()] = ei - ri;
       ends[2 * g.get_group_linear_id() + 1] = ee - re;
     }
   }).wait();

  size_t bad = 0;
  auto check = [&](const char *what, size_t i, long long got, long long want) {
    if (got != want && bad++ < 10)
      std::printf("mismatch: %s at %zu: got %lld, want %lld\n", what, i, got, want);
  };
  static const char *names[kCount] = {
      "sum", "max", "min+init", "mul", "xor", "and", "or", "excl", "excl+init", "incl",
      "incl+init", "incl max", "bcast0", "bcast last", "any", "all", "none", "any pred",
      "all pred", "none pred", "logical_and", "logical_or", "float sum", "joint_reduce",
      "joint_reduce+init", "joint_any_of", "joint_all_of", "joint_none_of"};
  for (size_t gr = 0; gr < G; ++gr) {
    const int *x = in.data() + gr * L;
    long long want[kCount];
    long long sum = 0, mx = x[0], mn = -7, dsum2 = 0;
    unsigned mul = 1, xr = 0, an = ~0u, orr = 0;
    bool any = false, all = true, none = true, anyp = false, allp = true, nonep = true,
         land = true, lor = false;
    for (size_t i = 0; i < L; ++i) {
      unsigned u = unsigned(x[i]) * 2654435761u;
      sum += x[i]; mx = std::max<long long>(mx, x[i]); mn = std::min<long long>(mn, x[i]);
      mul *= unsigned(x[i] & 3) + 1u; xr ^= u; an &= u | 0x80000001u; orr |= u & 0x00f0f0f0u;
      any |= x[i] > 55; all &= x[i] > -40; none &= !(x[i] == 13);
      anyp |= x[i] == -40; allp &= x[i] < 61; nonep &= !(x[i] > 60);
      land &= x[i] != 0; lor |= x[i] == 60; dsum2 += x[i];
    }
    const int *j = joint.data() + gr * M;
    long long jsum = 0, jmax = 100;
    bool jany = false, jall = true, jnone = true;
    for (size_t i = 0; i < M; ++i) {
      jsum += j[i]; jmax = std::max<long long>(jmax, j[i]);
      jany |= j[i] == 0; jall &= j[i] >= -40; jnone &= !(j[i] > 60);
    }
    long long run = 0, runmax = x[0];
    for (size_t i = 0; i < L; ++i) {
      want[kSum] = sum; want[kMax] = mx; want[kMinInit] = mn; want[kMul] = mul;
      want[kXor] = xr; want[kAnd] = an; want[kOr] = orr;
      want[kExcl] = run; want[kExclInit] = 5 + run;
      run += x[i];
      runmax = std::max<long long>(runmax, x[i]);
      want[kIncl] = run; want[kInclInit] = 7 + run; want[kInclMax] = runmax;
      want[kBcast0] = x[0]; want[kBcastLast] = x[L - 1];
      want[kAny] = any; want[kAll] = all; want[kNone] = none;
      want[kAnyPred] = anyp; want[kAllPred] = allp; want[kNonePred] = nonep;
      want[kLogicalAnd] = land; want[kLogicalOr] = lor;
      want[kFloatSum] = (long long)(float(dsum2) * 0.5f);
      want[kJointReduce] = jsum; want[kJointReduceInit] = jmax;
      want[kJointAny] = jany; want[kJointAll] = jall; want[kJointNone] = jnone;
      for (int k = 0; k < kCount; ++k)
        check(names[k], gr * L + i, out[(gr * L + i) * kCount + k], want[k]);
    }
    long long ji = 0, je = 3;
    for (size_t i = 0; i < M; ++i) {
      check("joint_exclusive_scan", i, excl[gr * M + i], je);
      ji += j[i]; je += j[i];
      check("joint_inclusive_scan", i, incl[gr * M + i], ji);
    }
    check("joint_inclusive_scan end", gr, ends[2 * gr], (long long)M);
    check("joint_exclusive_scan end", gr, ends[2 * gr + 1], (long long)M);
  }
  std::printf("group algorithms, local size %zu: %s\n", L, bad ? "FAILED" : "PASSED");
  sycl::free(d_in, q); sycl::free(d_joint, q); sycl::free(out, q);
  sycl::free(incl, q); sycl::free(excl, q); sycl::free(ends, q);
  return bad ? 1 : 0;
}
