// Loops that wait at a barrier every iteration with a trip count known only
// at run time (`for (s = local_range / 2; s > 0; s /= 2) { barrier; if (lid
// < s) ... }`, the tree reduction of the oneAPI and CUDA samples): the CPU
// fallback gives their counting regions that run once per group and
// narrows the work between to the items that pass (lib/CpuFallback/
// WorkItemLoops.cpp, BarrierLoopCuts). Every shape here is checked against
// a serial run of the same algorithm, on the loops, on fibers and
// unoptimised: the barrier first or last in the body, group sizes that are
// not powers of two, 2-D groups, a barrier loop inside a loop over a
// captured count, a count read from memory, an early exit, the counter
// used after the loop, and a loop whose trip count differs between
// work-items (which must still be reported as barrier divergence).
// RUN: %slmcxx -O2 %s -o %t
// RUN: env SLMC_VERBOSE=1 %t 2>&1 | FileCheck %s --check-prefixes=CHECK,LOOPS
// RUN: env SLMC_CPU_WORK_ITEM_LOOPS=0 %t 2>&1 | FileCheck %s --check-prefixes=CHECK,FIBERS
// RUN: %slmcxx -O0 %s -o %t.O0
// RUN: %t.O0 2>&1 | FileCheck %s --check-prefixes=CHECK,FIBERS
// LOOPS-NOT: runs as fibers
// LOOPS: runs as work-item loops
// CHECK: barrier first: ok
// CHECK: barrier last: ok
// CHECK: 2-D groups: ok
// CHECK: nested in a counted loop: ok
// CHECK: count from memory: ok
// CHECK: early exit: ok
// CHECK: counter after the loop: ok
// LOOPS: divergent trip counts: reported
// FIBERS: divergent trip counts: {{reported|not reported}}
// CHECK: all passed

#include <sycl/sycl.hpp>
#include <cstdio>
#include <functional>
#include <vector>

namespace syclex = sycl::ext::oneapi;

static int failures = 0;
static void report(const char *what, bool ok) {
  std::printf("%s: %s\n", what, ok ? "ok" : "FAILED");
  failures += !ok;
}

// Group sizes: powers of two and others (the tree then drops elements,
// the same way in the serial run).
static const size_t sizes[] = {1, 2, 7, 64, 96, 256};
static const size_t GROUPS = 5;

static int input(size_t i) { return int((i * 7919) % 1000) - 300; }

// The serial run of one group's tree: level by level, `a[l] += a[l + s]`
// for l < s.
static long tree(std::vector<long> a, size_t first_stride) {
  for (size_t s = first_stride; s > 0; s /= 2)
    for (size_t l = 0; l < s; ++l)
      a[l] += a[l + s];
  return a[0];
}

static std::vector<long> group_values(size_t g, size_t n) {
  std::vector<long> a(n);
  for (size_t l = 0; l < n; ++l)
    a[l] = input(g * n + l);
  return a;
}

static bool barrier_first(sycl::queue &q, size_t n) {
  long *out = sycl::malloc_shared<long>(GROUPS, q);
  q.parallel_for(sycl::nd_range<1>{GROUPS * n, n}, [=](sycl::nd_item<1> it) {
     long *a = *syclex::group_local_memory_for_overwrite<long[256]>(it.get_group());
     const size_t lid = it.get_local_id(0);
     a[lid] = input(it.get_global_id(0));
     for (size_t s = it.get_local_range(0) / 2; s > 0; s /= 2) {
       sycl::group_barrier(it.get_group());
       if (lid < s)
         a[lid] += a[lid + s];
     }
     if (lid == 0)
       out[it.get_group(0)] = a[0];
   }).wait();
  bool ok = true;
  for (size_t g = 0; g < GROUPS; ++g)
    ok &= out[g] == tree(group_values(g, n), n / 2);
  sycl::free(out, q);
  return ok;
}

static bool barrier_last(sycl::queue &q, size_t n) {
  long *out = sycl::malloc_shared<long>(GROUPS, q);
  q.parallel_for(sycl::nd_range<1>{GROUPS * n, n}, [=](sycl::nd_item<1> it) {
     long *a = *syclex::group_local_memory_for_overwrite<long[256]>(it.get_group());
     const unsigned lid = it.get_local_id(0);
     a[lid] = input(it.get_global_id(0));
     sycl::group_barrier(it.get_group());
     for (unsigned s = it.get_local_range(0) / 2; s > 0; s >>= 1) {
       if (lid < s)
         a[lid] += a[lid + s];
       it.barrier(sycl::access::fence_space::local_space);
     }
     if (lid == 0)
       out[it.get_group(0)] = a[0];
   }).wait();
  bool ok = true;
  for (size_t g = 0; g < GROUPS; ++g)
    ok &= out[g] == tree(group_values(g, n), n / 2);
  sycl::free(out, q);
  return ok;
}

// Groups of rows x cols; the tree runs over the linear ids.
static bool two_d(sycl::queue &q, size_t rows, size_t cols) {
  const size_t n = rows * cols;
  long *out = sycl::malloc_shared<long>(GROUPS, q);
  q.parallel_for(sycl::nd_range<2>{{rows, GROUPS * cols}, {rows, cols}},
                 [=](sycl::nd_item<2> it) {
                   long *a = *syclex::group_local_memory_for_overwrite<long[256]>(
                       it.get_group());
                   const size_t lid = it.get_local_linear_id();
                   const size_t g = it.get_group(1);
                   a[lid] = input(g * rows * cols + lid);
                   const size_t m = it.get_local_range(0) * it.get_local_range(1);
                   for (size_t s = m / 2; s > 0; s /= 2) {
                     sycl::group_barrier(it.get_group());
                     if (lid < s)
                       a[lid] += a[lid + s];
                   }
                   if (lid == 0)
                     out[g] = a[0];
                 })
      .wait();
  bool ok = true;
  for (size_t g = 0; g < GROUPS; ++g)
    ok &= out[g] == tree(group_values(g, n), n / 2);
  sycl::free(out, q);
  return ok;
}

// The tree `reps` times (a count the kernel captures), each time over
// fresh values, summed by the first item.
static bool nested(sycl::queue &q, size_t n, int reps) {
  long *out = sycl::malloc_shared<long>(GROUPS, q);
  q.parallel_for(sycl::nd_range<1>{GROUPS * n, n}, [=](sycl::nd_item<1> it) {
     long *a = *syclex::group_local_memory_for_overwrite<long[256]>(it.get_group());
     const size_t lid = it.get_local_id(0);
     long total = 0;
     for (int r = 0; r < reps; ++r) {
       a[lid] = input(it.get_global_id(0)) + r;
       for (size_t s = it.get_local_range(0) / 2; s > 0; s /= 2) {
         sycl::group_barrier(it.get_group());
         if (lid < s)
           a[lid] += a[lid + s];
       }
       sycl::group_barrier(it.get_group());
       total += a[0];
       sycl::group_barrier(it.get_group());
     }
     if (lid == 0)
       out[it.get_group(0)] = total;
   }).wait();
  bool ok = true;
  for (size_t g = 0; g < GROUPS; ++g) {
    long want = 0;
    for (int r = 0; r < reps; ++r) {
      std::vector<long> a = group_values(g, n);
      for (long &v : a)
        v += r;
      want += tree(a, n / 2);
    }
    ok &= out[g] == want;
  }
  sycl::free(out, q);
  return ok;
}

// The first stride read from memory: the same for every item, but not
// something the compiler can tell.
static bool from_memory(sycl::queue &q, size_t n) {
  long *out = sycl::malloc_shared<long>(GROUPS, q);
  size_t *first = sycl::malloc_shared<size_t>(1, q);
  *first = n / 4;
  q.parallel_for(sycl::nd_range<1>{GROUPS * n, n}, [=](sycl::nd_item<1> it) {
     long *a = *syclex::group_local_memory_for_overwrite<long[256]>(it.get_group());
     const size_t lid = it.get_local_id(0);
     a[lid] = input(it.get_global_id(0));
     for (size_t s = *first; s > 0; s /= 2) {
       sycl::group_barrier(it.get_group());
       if (lid < s)
         a[lid] += a[lid + s];
     }
     if (lid == 0)
       out[it.get_group(0)] = a[0];
   }).wait();
  bool ok = true;
  for (size_t g = 0; g < GROUPS; ++g)
    ok &= out[g] == tree(group_values(g, n), n / 4);
  sycl::free(out, q);
  sycl::free(first, q);
  return ok;
}

// Leaves the tree when the stride reaches `stop` (a second exit).
static bool early_exit(sycl::queue &q, size_t n, size_t stop) {
  long *out = sycl::malloc_shared<long>(GROUPS, q);
  q.parallel_for(sycl::nd_range<1>{GROUPS * n, n}, [=](sycl::nd_item<1> it) {
     long *a = *syclex::group_local_memory_for_overwrite<long[256]>(it.get_group());
     const size_t lid = it.get_local_id(0);
     a[lid] = input(it.get_global_id(0));
     for (size_t s = it.get_local_range(0) / 2; s > 0; s /= 2) {
       sycl::group_barrier(it.get_group());
       if (s == stop)
         break;
       if (lid < s)
         a[lid] += a[lid + s];
     }
     sycl::group_barrier(it.get_group());
     if (lid == 0)
       out[it.get_group(0)] = a[0];
   }).wait();
  bool ok = true;
  for (size_t g = 0; g < GROUPS; ++g) {
    std::vector<long> a = group_values(g, n);
    for (size_t s = n / 2; s > 0 && s != stop; s /= 2)
      for (size_t l = 0; l < s; ++l)
        a[l] += a[l + s];
    ok &= out[g] == a[0];
  }
  sycl::free(out, q);
  return ok;
}

// The loop's counter read after it: how many levels ran.
static bool counter_after(sycl::queue &q, size_t n) {
  long *out = sycl::malloc_shared<long>(GROUPS * n, q);
  q.parallel_for(sycl::nd_range<1>{GROUPS * n, n}, [=](sycl::nd_item<1> it) {
     long *a = *syclex::group_local_memory_for_overwrite<long[256]>(it.get_group());
     const size_t lid = it.get_local_id(0);
     a[lid] = input(it.get_global_id(0));
     size_t s = it.get_local_range(0), levels = 0;
     for (; s > 1; s /= 2, ++levels) {
       sycl::group_barrier(it.get_group());
       if (lid < s / 2)
         a[lid] += a[lid + s / 2];
     }
     sycl::group_barrier(it.get_group());
     out[it.get_global_id(0)] = a[0] * 100 + long(levels * 10 + s) + long(lid);
   }).wait();
  bool ok = true;
  for (size_t g = 0; g < GROUPS; ++g) {
    size_t levels = 0, s = n;
    for (; s > 1; s /= 2)
      ++levels;
    long sum = tree(group_values(g, n), n / 2);
    for (size_t l = 0; l < n; ++l)
      ok &= out[g * n + l] == sum * 100 + long(levels * 10 + s) + long(l);
  }
  sycl::free(out, q);
  return ok;
}

// Item l waits (l % 3) + 1 times: barrier divergence, which the loops
// report (fibers without -fslmc-check cannot tell).
static bool divergent(sycl::queue &q) {
  int *out = sycl::malloc_shared<int>(64, q);
  bool reported = false;
  try {
    q.parallel_for(sycl::nd_range<1>{64, 64}, [=](sycl::nd_item<1> it) {
       const size_t lid = it.get_local_id(0);
       int k = 0;
       for (size_t t = lid % 3 + 1; t > 0; --t) {
         sycl::group_barrier(it.get_group());
         ++k;
       }
       out[lid] = k;
     }).wait();
  } catch (const sycl::exception &) {
    reported = true;
  }
  sycl::free(out, q);
  return reported;
}

int main() {
  sycl::queue q{sycl::cpu_selector_v};
  bool first = true, last = true, nest = true, memory = true, early = true,
       after = true;
  for (size_t n : sizes) {
    first &= barrier_first(q, n);
    last &= barrier_last(q, n);
    nest &= nested(q, n, 3) && nested(q, n, 0);
    memory &= from_memory(q, n);
    early &= early_exit(q, n, 4) && early_exit(q, n, 1000);
    after &= counter_after(q, n);
  }
  report("barrier first", first);
  report("barrier last", last);
  report("2-D groups", two_d(q, 8, 12) && two_d(q, 4, 4) && two_d(q, 1, 3) && two_d(q, 16, 16));
  report("nested in a counted loop", nest);
  report("count from memory", memory);
  report("early exit", early);
  report("counter after the loop", after);
  std::printf("divergent trip counts: %s\n", divergent(q) ? "reported" : "not reported");
  if (failures == 0)
    std::printf("all passed\n");
  return failures != 0;
}
