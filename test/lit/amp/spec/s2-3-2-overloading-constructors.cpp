// C++ AMP v1.2 §2.3.2: constructors overloaded on their restriction (default
// and with parameters, default arguments, one defined out of its class)
// construct with the cpu overload in host code and the amp one in kernels,
// the CPU fallback included: a variable with or without an initializer, a
// temporary, braces, and a member initializer of an amp constructor. Each
// pass tells the two apart by a tag parameter, which the overload it does
// not keep under the plain signature takes, and amp code passes the amp tag
// in the host pass.
// REQUIRES: spirv-tools
// RUN: %slmcxx -O1 %s -o %t
// RUN: %t | FileCheck %s
// RUN: %slmcxx --emit=offload-cpp %s -o - | FileCheck %s --check-prefix=LOWER
// RUN: %slmcxx --emit=spirv %s -o %t.spv
// RUN: %spirv-val %t.spv
// RUN: %if ocloc %{ %ocloc compile -q -spirv_input -file %t.spv -device tgllp --format zebin -output_no_suffix -output %t.tgllp %}
// RUN: %if ocloc %{ %ocloc compile -q -spirv_input -file %t.spv -device dg2 --format zebin -output_no_suffix -output %t.dg2 %}
// RUN: %slmcxx --emit=ptx %s -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %clangxx %plugin -fsyntax-only %s
// CHECK: host: 1 12 9 17
// CHECK: kernel: 2 20 20 70 30 2
// PTX: .entry

#include <amp.h>
#include <cstdio>
using namespace concurrency;

struct Acc {
  int v;
  // LOWER: Acc( SLMC_CPU_CONSTRUCTOR ) SLMC_RESTRICT_CPU : v(1) {}
  Acc() restrict(cpu) : v(1) {}
  // LOWER: Acc( SLMC_AMP_CONSTRUCTOR ) SLMC_RESTRICT_AMP : v(2) {}
  Acc() restrict(amp) : v(2) {}
  Acc(int a, int b = 10) restrict(cpu) : v(a + b) {}
  // LOWER: Acc( SLMC_AMP_CONSTRUCTOR_FIRST int a, int b = 10) SLMC_RESTRICT_AMP;
  Acc(int a, int b = 10) restrict(amp);
};
// LOWER: Acc::Acc( SLMC_AMP_CONSTRUCTOR_FIRST int a, int b) SLMC_RESTRICT_AMP : v(a * b) {}
Acc::Acc(int a, int b) restrict(amp) : v(a * b) {}

struct Holder {
  Acc a;
  // LOWER: Holder() SLMC_RESTRICT_AMP : a( SLMC_AMP_CONSTRUCT_FIRST 3) {}
  Holder() restrict(amp) : a(3) {}
};

int main() {
  array_view<int, 1> out(6);
  parallel_for_each(out.extent, [=](index<1> i) restrict(amp) {
    // LOWER: Acc a{SLMC_AMP_CONSTRUCT};
    Acc a;
    // LOWER: Acc b( SLMC_AMP_CONSTRUCT_FIRST 2);
    Acc b(2);
    Acc c{4, 5};
    Holder h;
    out[i] = i[0] == 0   ? a.v
             : i[0] == 1 ? b.v
             : i[0] == 2 ? c.v
             : i[0] == 3 ? Acc(7).v
             : i[0] == 4 ? h.a.v
                         : Acc().v;
  });
  // LOWER: Acc hv, k(2), m{4, 5};
  Acc hv, k(2), m{4, 5};
  std::printf("host: %d %d %d %d\n", hv.v, k.v, m.v, Acc(7).v);
  std::printf("kernel: %d %d %d %d %d %d\n", out[0], out[1], out[2], out[3], out[4], out[5]);
  return 0;
}
