// What the device code of a C for Metal kernel is made of, so that it
// cannot silently regress (docs/intel.md, "C for Metal vectors in
// scratch"). Intel's CM compiler inlines every function and makes each
// vector operation one SIMD instruction; slmc runs a CM thread as one
// work-item, so its headers inline every function and unroll every element
// loop, and the optimiser keeps vectors in registers:
//  - no calls are left in the kernel (operators, _GENX_ helpers, the body);
//  - no vector or matrix object stays in private memory (Function storage):
//    the only private arrays are the element-by-element copies of block
//    accesses that reach outside their surface (the rare path);
//  - the surfaces are kernel parameters of their own (global pointers with
//    a binding table entry on Intel GPUs), not by-value objects;
//  - surface and SLM offsets are 32-bit, as the hardware's: no 64-bit
//    multiplies (Gen12 emulates them; what 64-bit adds are left are the
//    counters loop strength reduction gives the rare paths' loops).
// What these kernels compute is checked by the examples' run tests
// (examples/cm/language*.cpp: block reads past the end of a surface, a
// block write half past it, DWALIGNED reads, SLM channel access; the
// N-body against a host computation) on the CPU fallback and on CUDA.
// REQUIRES: spirv-tools
// RUN: %slmcxx -O3 --emit=spirv %s -o %t.spv
// RUN: %spirv-val %t.spv
// RUN: %spirv-dis %t.spv | FileCheck %s
// The same holds for the N-body example (a kernel file written as Intel's
// CM tutorials write them); its SLM batch is indexed by a loop variable and
// stays an array.
// RUN: %slmcxx -O3 --emit=spirv %examples/cm/nbody_genx.cpp -o %t.nbody.spv
// RUN: %spirv-dis %t.nbody.spv | FileCheck %s --check-prefix=NBODY
// On NVIDIA GPUs too, everything is inlined into the entry point.
// RUN: %slmcxx -O3 --emit=ptx %examples/cm/nbody_genx.cpp -o - | FileCheck %s --check-prefix=PTX
#include <cm/cm.h>

_GENX_ void scale_rows(matrix_ref<float, 4, 8> m, vector_ref<float, 8> factors) {
  for (int r = 0; r < 4; ++r)
    m.row(r) = m.row(r) * factors + cm_rsqrt(factors);
}

extern "C" _GENX_MAIN_ void quality(SurfaceIndex in, SurfaceIndex out, uint n) {
  cm_slm_init(4096);
  uint slm = cm_slm_alloc(4096);
  const uint first = cm_linear_global_id() * 32 * sizeof(float);
  matrix<float, 4, 8> m;
  read(in, first, m);
  vector<float, 8> factors = m.row(0) + 1.0f;
  scale_rows(m, factors);
  vector<float, 32> flat = m;
  cm_slm_block_write(slm, cm_linear_local_id() * 128, flat);
  cm_barrier();
  vector<uint, 8> addr;
  for (int i = 0; i < 8; ++i)
    addr(i) = (cm_linear_local_id() * 32 + i * 4) % 1024;
  vector<float, 32> channels;
  cm_slm_read4(slm, addr, channels, SLM_ABGR_ENABLE);
  write(out, first, channels + flat);
}

// CHECK: OpEntryPoint Kernel %[[K:[a-z0-9_]+]] "quality"
// CHECK: %[[K]] = OpFunction
// CHECK-NEXT: OpFunctionParameter %_ptr_CrossWorkgroup_uchar
// CHECK-NEXT: OpFunctionParameter %uint
// CHECK-NEXT: OpFunctionParameter %_ptr_CrossWorkgroup_uchar
// CHECK-NEXT: OpFunctionParameter %uint
// CHECK-NOT: OpVariable %_ptr_Function_class_slmc__cm__
// CHECK-NOT: OpFunctionCall
// CHECK-NOT: OpIMul %ulong
// CHECK: OpFunctionEnd

// NBODY: OpEntryPoint Kernel %[[K:[a-z0-9_]+]] "nbody"
// NBODY: %[[K]] = OpFunction
// NBODY-NEXT: OpFunctionParameter %_ptr_CrossWorkgroup_uchar
// NBODY-NOT: OpVariable %_ptr_Function_class_slmc__cm__matrix
// NBODY-NOT: OpFunctionCall
// NBODY: OpFunctionEnd

// PTX: .entry nbody
// PTX-NOT: call
// PTX: fma.rn.f32
// PTX-NOT: call
// PTX: ret;

