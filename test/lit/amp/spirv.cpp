// Device code: tile_static data becomes a Workgroup OpVariable and a tile
// barrier an OpControlBarrier with Workgroup scopes that orders group and
// global memory; the module validates and honours --spirv-version.
// REQUIRES: spirv-tools
// RUN: %slmcxx --emit=spirv %s -o %t.spv
// RUN: %spirv-val %t.spv
// RUN: %spirv-dis %t.spv | FileCheck %s
// RUN: %spirv-dis %t.spv | FileCheck %s --check-prefix=SPACES
// RUN: %slmcxx --emit=spirv --spirv-version=1.2 %s -o %t12.spv
// RUN: %spirv-dis %t12.spv | FileCheck %s --check-prefix=V12
// RUN: not %slmcxx --emit=spirv --spirv-version=1.5 %s -o %t15.spv 2>&1 | FileCheck %s --check-prefix=V15

#include <amp.h>
using namespace concurrency;

void reverse(array_view<int, 1> av) {
  parallel_for_each(av.extent.tile<128>(), [=](tiled_index<128> t) restrict(amp) {
    tile_static int buffer[128];
    buffer[t.local[0]] = av[t.global];
    t.barrier.wait();
    av[t.global] = buffer[127 - t.local[0]];
  });
}

// CHECK: ; Version: 1.4
// CHECK: OpEntryPoint Kernel %[[K:[^ ]+]] "_ZN4slmc12kernel_entry
// CHECK-DAG: %[[ARR:[^ ]+]] = OpTypeArray %uint %uint_128
// CHECK-DAG: %[[PTR:[^ ]+]] = OpTypePointer Workgroup %[[ARR]]
// CHECK-DAG: OpVariable %[[PTR]] Workgroup
// Scope 2 = Workgroup; 776 = 0x308 = AcquireRelease | WorkgroupMemory | CrossWorkgroupMemory.
// CHECK: OpControlBarrier %uint_2 %uint_2 %uint_776
// Address spaces are inferred: tile_static data is reached through
// Workgroup pointers, not generic ones.
// SPACES-NOT: OpPtrCastToGeneric
// SPACES: OpTypePointer Workgroup %uint
// SPACES-NOT: OpPtrCastToGeneric
// V12: ; Version: 1.2
// V15: error: unsupported SPIR-V version '1.5' (Level Zero accepts 1.0 to 1.4)
