// C++ AMP v1.2 §2.3.2: conversion functions overloaded on their restriction
// (explicit or not, in a class template too, to a type spelled in several
// tokens) run the cpu overload in host code and the amp one in kernels, also
// when the CPU fallback runs the kernel on the host, and restrict(cpu, amp)
// code gets the one of the context it runs in. As for operators, each pass
// keeps one overload under the conversion's name and the other becomes a
// member function, whose return type a member alias declared before the
// first of the two gives.
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
// CHECK: host: 2 3 6 512
// CHECK: kernel: 1002 274.15 550.3 7
// PTX: .entry

#include <amp.h>
#include <cstdio>
using namespace concurrency;

template <class T> struct Fixed {
  T raw;
  // LOWER: using slmc_conversion_type_[[F:[0-9]+]] = float; SLMC_AMP_EXPLICIT SLMC_AMP_CONVERSION(slmc_conversion_type_[[F]], slmc_amp_conversion_[[F]])() const SLMC_RESTRICT_AMP {
  explicit operator float() const restrict(amp) { return float(raw) / 256.0f + 1000.0f; }
  // LOWER: SLMC_CPU_EXPLICIT SLMC_CPU_CONVERSION(slmc_conversion_type_[[F]], slmc_cpu_conversion_[[F]])() const SLMC_RESTRICT_CPU { SLMC_AMP_DISPATCH(slmc_amp_conversion_[[F]]())
  explicit operator float() const restrict(cpu) { return float(raw) / 256.0f; }
  // Not overloaded: left alone.
  // LOWER: operator unsigned long long() const SLMC_RESTRICT_AMP_CPU
  operator unsigned long long() const restrict(cpu, amp) { return (unsigned long long)raw + 7; }
};

struct Celsius {
  float deg;
  operator float() const restrict(cpu) { return deg; }
  operator float() const restrict(amp) { return deg + 273.15f; }
};

// Runs where it is called: the conversion of that context.
float twice(const Celsius &c) restrict(cpu, amp) { return 2.0f * c; }

int main() {
  array_view<float, 1> out(4);
  parallel_for_each(out.extent, [=](index<1> i) restrict(amp) {
    Fixed<int> f{512};
    Celsius c{float(i[0])};
    out[i] = i[0] == 0   ? float(f)
             : i[0] == 1 ? float(c)
             : i[0] == 2 ? twice(c)
                         : float((unsigned long long)Fixed<int>{0});
  });
  Fixed<int> f{512};
  Celsius c{3.0f};
  std::printf("host: %g %g %g %d\n", float(f), float(c), twice(c), f.raw);
  std::printf("kernel: %g %g %g %g\n", out[0], out[1], out[2], out[3]);
  return 0;
}
