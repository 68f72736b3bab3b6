// C++ AMP v1.2 §2.3.2: operators overloaded on their restriction (members,
// out-of-line members, free operator templates) run the cpu overload in host
// code and the amp one in kernels, also when the CPU fallback runs the
// kernel on the host, and restrict(cpu, amp) code gets the one of the
// context it runs in. Each pass keeps one overload under the operator's
// name: the device passes the amp one, the host pass the cpu one, which
// calls the amp one inside a work-item.
// REQUIRES: spirv-tools
// RUN: %slmcxx -O1 %s -o %t
// RUN: %t | FileCheck %s
// RUN: %slmcxx --emit=offload-cpp %s -o - | FileCheck %s --check-prefix=LOWER
// RUN: %slmcxx --emit=spirv %s -o %t.spv
// RUN: %spirv-val %t.spv
// RUN: %slmcxx --emit=ptx %s -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// CHECK: host: 11 -1 15 7
// CHECK: kernel: 12 1 30 8
// PTX: .entry

#include <amp.h>
#include <cstdio>
using namespace concurrency;

struct Meters {
  int v;
  // LOWER: Meters SLMC_CPU_OPERATOR(operator+, slmc_cpu_operator_[[PLUS:[0-9]+]])(const Meters &o) const SLMC_RESTRICT_CPU { SLMC_AMP_DISPATCH(slmc_amp_operator_[[PLUS]](static_cast<decltype(o) &&>(o)))
  Meters operator+(const Meters &o) const restrict(cpu) { return {v + o.v + 1}; }
  // LOWER: Meters SLMC_AMP_OPERATOR(operator+, slmc_amp_operator_[[PLUS]])(const Meters &o) const SLMC_RESTRICT_AMP {
  Meters operator+(const Meters &o) const restrict(amp) { return {v + o.v + 2}; }
  int operator[](int i) const restrict(cpu);
  int operator[](int i) const restrict(amp);
};
// LOWER: int Meters::SLMC_CPU_OPERATOR(operator[], slmc_cpu_operator_{{[0-9]+}})(int i) const
int Meters::operator[](int i) const restrict(cpu) { return -i; }
int Meters::operator[](int i) const restrict(amp) { return i; }

// The cpu overload calls the amp one on the CPU fallback, so it comes second.
template <class T> T operator*(T a, Meters m) restrict(amp) { return a * m.v * 2; }
template <class T> T operator*(T a, Meters m) restrict(cpu) { return a * m.v; }

// Runs as cpu code on the host and as amp code in a kernel.
int twice(Meters m) restrict(cpu, amp) { return (m + m).v; }

int main() {
  Meters m{5}, three{3};
  std::printf("host: %d %d %d %d\n", (m + m).v, m[1], 3 * m, twice(three));
  std::vector<int> out(4, -100);
  array_view<int, 1> av(4, out);
  parallel_for_each(extent<1>(1), [=](index<1>) restrict(amp) {
    Meters k{5}, t{3};
    av[0] = (k + k).v;
    av[1] = k[1];
    av[2] = 3 * k;
    av[3] = twice(t);
  });
  av.synchronize();
  std::printf("kernel: %d %d %d %d\n", out[0], out[1], out[2], out[3]);
  return 0;
}
