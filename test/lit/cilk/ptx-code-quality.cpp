// What the NVIDIA code of a Cilk Plus thread-group nest is made of, so that
// it cannot silently regress (docs/gpu.md, "Cilk Plus matrix multiply").
// The example's SLM matrix multiply: 64x64 supertiles, 256 threads, 4x4
// register tiles.
// RUN: %slmcxx -O3 --emit=ptx -DMATMUL_N=256 -include %examples/cilk/matmul_kernel.h %s -o - | FileCheck %s
// With --cilk-group-size the constant follows the option.
// RUN: %slmcxx -O3 --emit=ptx --cilk-group-size=128 -DMATMUL_N=256 -include %examples/cilk/matmul_kernel.h %s -o - | FileCheck %s --check-prefix=G128

// CHECK-LABEL: .entry
// The group size is the lowering's constant on NVIDIA GPUs (thread_groups<256>):
// no work-item reads it to deal out a second-level nest.
// CHECK-NOT: %ntid.x
// The copies into SLM are unrolled: each thread's four loads of A's
// supertile, then four of B's, all in flight before their stores.
// CHECK-COUNT-4: ld.global.{{[a-z0-9]+}}
// CHECK-NOT: st.shared
// CHECK: st.shared
// CHECK-COUNT-4: ld.global.{{[a-z0-9]+}}
// The 4x4 register tile's inner product is unrolled completely (16 steps of
// 16 fma) and reads the group-local tiles 16 bytes at a time.
// CHECK: ld.shared.v4.b32
// CHECK-COUNT-256: fma.rn.f32
// CHECK: barrier.sync

// G128-LABEL: .entry
// G128-NOT: %ntid.x
// G128-COUNT-8: ld.global.{{[a-z0-9]+}}
// G128: ld.shared.v4.b32

int main() { return 0; }
