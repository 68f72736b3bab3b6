; x86-64 work-group entries built for the baseline (what distributions build)
; get a version per micro-architecture level with wider vectors (x86-64-v3:
; AVX2 and FMA; x86-64-v4: AVX-512), and the entry becomes a dispatcher that
; runs the one slmc_cpu_isa_level names (opt -passes=slmc-work-item-loops).
; RUN: %opt -load-pass-plugin=%slmc-libdir/slmcWorkItemLoops.so -passes=slmc-work-item-loops -S %s -o %t.ll
; RUN: FileCheck %s < %t.ll
; RUN: FileCheck %s --check-prefix=VERSIONS < %t.ll
; RUN: FileCheck %s --check-prefix=LOOPS < %t.ll
; RUN: FileCheck %s --check-prefix=MARCH < %t.ll
; RUN: FileCheck %s --check-prefix=DECLINED < %t.ll
; With -slmc-cpu-isa-versions=0 only the baseline is made.
; RUN: %opt -load-pass-plugin=%slmc-libdir/slmcWorkItemLoops.so -passes=slmc-work-item-loops -slmc-cpu-isa-versions=0 -S %s -o %t.off.ll
; RUN: FileCheck %s --check-prefix=OFF < %t.off.ll

target triple = "x86_64-pc-linux-gnu"

@sums = internal thread_local global [256 x i32] zeroinitializer, align 16

declare i32 @slmc_cpu_work_item_loops(ptr)
declare ptr @slmc_cpu_current_item()
declare void @slmc_cpu_barrier() convergent
declare void @opaque()
declare ptr @llvm.threadlocal.address.p0(ptr)

; The dispatcher keeps the entry's name (the runtime has its address); the
; entry's transformed body is the baseline version.
; CHECK-LABEL: define i32 @baseline(ptr %0)
; CHECK-NEXT: entry:
; CHECK-NEXT: %[[LEVEL:[0-9]+]] = call i32 @slmc_cpu_isa_level()
; CHECK-NEXT: switch i32 %[[LEVEL]], label %x86_64 [
; CHECK-NEXT: i32 4, label %x86_64_v4
; CHECK-NEXT: i32 3, label %x86_64_v3
; CHECK: x86_64:
; CHECK-NEXT: %[[B:[0-9]+]] = tail call i32 @baseline.x86_64(ptr %0)
; CHECK-NEXT: ret i32 %[[B]]
; CHECK: x86_64_v4:
; CHECK-NEXT: %[[V4:[0-9]+]] = tail call i32 @baseline.x86_64_v4(ptr %0)
; CHECK-NEXT: ret i32 %[[V4]]
; CHECK: x86_64_v3:
; CHECK-NEXT: %[[V3:[0-9]+]] = tail call i32 @baseline.x86_64_v3(ptr %0)
; CHECK-NEXT: ret i32 %[[V3]]
; Each version is the work-item loops, with the level's target.
; VERSIONS-DAG: define internal i32 @baseline.x86_64(ptr %args) #[[BASE:[0-9]+]] {
; VERSIONS-DAG: define internal i32 @baseline.x86_64_v4(ptr %args) #[[ATTR4:[0-9]+]] {
; VERSIONS-DAG: define internal i32 @baseline.x86_64_v3(ptr %args) #[[ATTR3:[0-9]+]] {
; VERSIONS: declare i32 @slmc_cpu_isa_level() #[[NOUNWIND:[0-9]+]]
; VERSIONS-DAG: attributes #[[BASE]] = { "target-cpu"="x86-64" "target-features"="+cmov,
; VERSIONS-DAG: attributes #[[ATTR4]] = { "target-cpu"="x86-64-v4" "target-features"="+cmov,
; VERSIONS-DAG: attributes #[[ATTR3]] = { "target-cpu"="x86-64-v3" "target-features"="+cmov,
; VERSIONS-DAG: attributes #[[NOUNWIND]] = { nounwind }
; LOOPS-LABEL: define internal i32 @baseline.x86_64(
; LOOPS: r0.x:
; LOOPS-LABEL: define internal i32 @baseline.x86_64_v4(
; LOOPS: r0.x:
; LOOPS-LABEL: define internal i32 @baseline.x86_64_v3(
; LOOPS: r0.x:
define i32 @baseline(ptr %args) #0 {
entry:
  %go = call i32 @slmc_cpu_work_item_loops(ptr null)
  %fibers = icmp eq i32 %go, 0
  br i1 %fibers, label %no, label %kernel
no:
  ret i32 0
kernel:
  %item = call ptr @slmc_cpu_current_item()
  %sums = call ptr @llvm.threadlocal.address.p0(ptr @sums)
  %x = load i32, ptr %item
  %i = zext i32 %x to i64
  %p = getelementptr i32, ptr %sums, i64 %i
  store i32 1, ptr %p
  call void @slmc_cpu_barrier()
  ret i32 1
}

; Built for a chosen CPU (-march): that is what runs, one version.
; MARCH-LABEL: define i32 @chosen(ptr %args)
; MARCH-NOT: slmc_cpu_isa_level
; MARCH: r0.x:
; MARCH-NOT: define {{.*}}@chosen.
define i32 @chosen(ptr %args) #1 {
entry:
  %go = call i32 @slmc_cpu_work_item_loops(ptr null)
  %fibers = icmp eq i32 %go, 0
  br i1 %fibers, label %no, label %kernel
no:
  ret i32 0
kernel:
  %item = call ptr @slmc_cpu_current_item()
  %sums = call ptr @llvm.threadlocal.address.p0(ptr @sums)
  %x = load i32, ptr %item
  %i = zext i32 %x to i64
  %p = getelementptr i32, ptr %sums, i64 %i
  store i32 2, ptr %p
  ret i32 1
}

; An entry left to fibers (a barrier behind an indirect call) runs no loops
; worth versions: it stays as it is.
; DECLINED-LABEL: define i32 @declined(ptr %args, ptr %f)
; DECLINED-NOT: slmc_cpu_isa_level
; DECLINED: call i32 @slmc_cpu_work_item_loops(ptr @slmc.wi.why
; DECLINED-NOT: define {{.*}}@declined.
define i32 @declined(ptr %args, ptr %f) #0 {
entry:
  %go = call i32 @slmc_cpu_work_item_loops(ptr null)
  %fibers = icmp eq i32 %go, 0
  br i1 %fibers, label %no, label %kernel
no:
  ret i32 0
kernel:
  call void %f()
  ret i32 1
}

; OFF-LABEL: define i32 @baseline(ptr %args)
; OFF-NOT: slmc_cpu_isa_level
; OFF: r0.x:
; OFF-NOT: x86_64_v
; OFF: {{^[}]$}}

attributes #0 = { "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" }
attributes #1 = { "target-cpu"="znver4" }
