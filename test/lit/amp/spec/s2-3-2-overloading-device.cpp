// C++ AMP v1.2 §2.3.2 in device code: a kernel calls the amp overloads, and
// so does restrict(cpu, amp) code compiled for the device; the cpu overloads
// are not in the device images. The SPIR-V validates and IGC builds it.
// REQUIRES: spirv-tools, ocloc
// RUN: rm -rf %t && mkdir -p %t
// RUN: %slmcxx --emit=spirv %s -o %t/k.spv
// RUN: %spirv-val %t/k.spv
// RUN: %spirv-dis %t/k.spv | FileCheck %s --check-prefix=SPIRV
// RUN: %ocloc compile -q -spirv_input -file %t/k.spv -device tgllp --format zebin -output_no_suffix -output tgllp -out_dir %t
// RUN: %ocloc compile -q -spirv_input -file %t/k.spv -device dg2 --format zebin -output_no_suffix -output dg2 -out_dir %t
// RUN: %slmcxx --emit=ptx %s -o - | FileCheck %s --check-prefix=PTX
// RUN: %slmcxx --emit=offload-cpp %s -o - | FileCheck %s --check-prefix=LOWERED
// SPIRV-DAG: OpConstant %{{.*}} 2222222
// SPIRV-DAG: OpConstant %{{.*}} 5555555
// SPIRV-NOT: 1111111
// SPIRV-NOT: 3333333
// PTX-DAG: 2222222
// PTX-DAG: 5555555
// PTX-NOT: 1111111
// PTX-NOT: 3333333
// LOWERED: int pick() SLMC_RESTRICT_CPU { return 1111111; }
// LOWERED: int pick_slmc_amp() SLMC_RESTRICT_AMP { return 2222222; }
// LOWERED: int deep_slmc_amp() SLMC_RESTRICT_AMP { return 5555555; }
// LOWERED: return SLMC_AMP_OVERLOAD_FN(deep, deep_slmc_amp)();
// LOWERED: av[2 * i[0]] = pick_slmc_amp();

#include <amp.h>
using namespace concurrency;

int pick() restrict(cpu) { return 1111111; }
int pick() restrict(amp) { return 2222222; }
int deep() restrict(cpu) { return 3333333; }
int deep() restrict(amp) { return 5555555; }
int via() restrict(cpu, amp) {
  return deep();
}

void run(array_view<int, 1> av) {
  parallel_for_each(av.extent, [=](index<1> i) restrict(amp) {
    av[2 * i[0]] = pick();
    av[2 * i[0] + 1] = via();
  });
}
