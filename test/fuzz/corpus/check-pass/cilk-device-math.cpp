3// <math.h> functions in offloaded code: device versions for SPIR-V (OpenCL
// extended instructions, transcendental ones included) and for PTX (the
// functions NVPTX has instructions for). Runs on the CPU fallback.
// RUN: %slmcxx -O2 %s -o %t
// RUN: %t | FileCheck %s
// CHECK: PASSED
// RUN: %slmcxx --emit=spirv -DTRANSCENDENTAL %s -o %t.spv
// RUN: %spirv-val %t.spv
// RUN: %spirv-dis %t.spv | FileCheck %s --check-prefix=SPIRV
// SPIRV-DAG: OpExtInst %float %{{[0-9]+}} sqrt
// SPIRV-DAG: OpExtInst %double %{{[0-9]+}} sqrt
// SPIRV-DAG: OpExtInst %float %{{[0-9]+}} exp
// SPIRV-DAG: OpExtInst %float %{{[0-9]+}} pow
// SPIRV-DAG: OpExtInst %float %{{[0-9]+}} fma
// RUN: %slmcxx --emit=ptx %s -o - | FileCheck %s --check-prefix=PTX
// PTX-DAG: sqrt.rn.f32
// PTX-DAG: sqrt.rn.f64
// PTX-DAG: abs.f32
// REQUIRES: spirv-tools

#include <math.h>
#include <stdio.h>

__declspec(target(gfx)) float f(float v) {
  float r = sqrtf(v) + (float)sqrt((double)v) + fabsf(-v) + fmaf(v, 2.0f, 1.0f) +
            floorf(v * 0.5f) + fminf(v, 3.0f);
#ifdef TRANSCENDENTAL
  r += expf(v * 0.01f) + powf(v, 0.5f);
#endif
  return r;
}

int main() {
  static float a[64];
  float *p = a;
#pragma offload target(gfx) pin(p : length(64))
  _Cilk_for (int i = 0; i < 64; i++)
    p[i] = f((float)i);
  int bad = 0;
  for (int i = 0; i < 64; i++)
    bad += a[i] != f((float)i);
  printf("%s\n", bad ? "FAILED" : "PASSED");
  return bad;
}
