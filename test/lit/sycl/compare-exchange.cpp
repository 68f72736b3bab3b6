// atomic_ref::compare_exchange_strong/weak in SPIR-V: one
// OpAtomicCompareExchange whose old value is the result (no second atomic
// to re-read the object after a failure, which could report a value the
// exchange never saw), in a retry loop and in a one-shot election; 64-bit
// and floating-point objects too. Results on the CPU: the election has one
// winner and every loser saw the winner's id; a compare-exchange loop
// multiplies a device-wide product of 2s; a float loop adds 0.5s.
// REQUIRES: spirv-tools
// RUN: %slmcxx -O3 --emit=spirv %s -o %t.spv
// RUN: %spirv-val %t.spv
// RUN: %spirv-dis %t.spv | FileCheck %s --check-prefix=SPIRV
// RUN: %slmcxx -O2 %s -o %t && %t | FileCheck %s

// SPIRV-NOT: OpAtomicOr
// SPIRV: OpAtomicCompareExchange %uint
// SPIRV-NOT: OpAtomicOr
// SPIRV: OpAtomicCompareExchange %ulong
// SPIRV-NOT: OpAtomicOr
// CHECK: election: PASSED
// CHECK: loops: PASSED

#include <sycl/sycl.hpp>

#include <cstdio>

using namespace sycl;

template <typename T>
using device_atomic = atomic_ref<T, memory_order::relaxed, memory_scope::device,
                                 access::address_space::global_space>;

int main() {
  queue q;
  constexpr size_t n = 256;
  int *winner = malloc_shared<int>(1, q);
  int *seen = malloc_shared<int>(n, q);
  unsigned long long *product = malloc_shared<unsigned long long>(1, q);
  float *sum = malloc_shared<float>(1, q);
  *winner = -1;
  *product = 1;
  *sum = 0.0f;
  q.parallel_for(nd_range<1>(range<1>(n), range<1>(64)), [=](nd_item<1> it) {
     const int id = int(it.get_global_id(0));
     int expected = -1;
     // One work-item wins; the others get the value that made them lose.
     seen[id] = device_atomic<int>(*winner).compare_exchange_strong(expected, id) ? id
                                                                                  : expected;
     if (id < 40) {
       device_atomic<unsigned long long> p(*product);
       unsigned long long old = 1; // a guess: a failure tells the truth
       while (!p.compare_exchange_weak(old, old * 2)) {
       }
     }
     device_atomic<float> s(*sum);
     float f = 0.0f;
     while (!s.compare_exchange_strong(f, f + 0.5f)) {
     }
   }).wait();
  int bad = *winner < 0 || *winner >= int(n);
  for (size_t i = 0; i < n; ++i) bad += seen[i] != *winner;
  std::printf("election: %s\n", bad ? "FAILED" : "PASSED");
  const bool loops = *product == (1ull << 40) && *sum == 0.5f * n;
  std::printf("loops: %s\n", loops ? "PASSED" : "FAILED");
  free(winner, q);
  free(seen, q);
  free(product, q);
  free(sum, q);
  return bad || !loops;
}
