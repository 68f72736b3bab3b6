; Group-local memory and the memory a kernel reaches through its captures
; are different address spaces in every dialect: the work-item loops tell
; the optimiser so with an alias scope (opt -passes=slmc-work-item-loops).
; Accesses to group-local variables are in the scope; accesses through
; pointers loaded from the functor (at any depth) are outside it; a pointer
; of unknown origin gets neither.
; RUN: %opt -load-pass-plugin=%slmc-libdir/slmcWorkItemLoops.so -passes=slmc-work-item-loops -slmc-cpu-isa-versions=0 -S %s -o %t.ll
; RUN: FileCheck %s < %t.ll

@tile = internal thread_local global [64 x float] zeroinitializer, align 16

declare i32 @slmc_cpu_work_item_loops(ptr)
declare ptr @slmc_cpu_current_item()
declare void @slmc_cpu_barrier() convergent
declare ptr @somewhere()
declare ptr @llvm.threadlocal.address.p0(ptr)

; tile[x] = in[x]; barrier; out[x] = tile[63 - x] + *somewhere();
; CHECK-LABEL: define i32 @scopes(
; CHECK: %[[IN:[a-z0-9.]+]] = load float, ptr %{{.*}}, !noalias ![[SCOPES:[0-9]+]]
; CHECK: store float %[[IN]], ptr %{{.*}}, !alias.scope ![[SCOPES]]
; CHECK: load float, ptr %{{.*}}, !alias.scope ![[SCOPES]]
; CHECK: load float, ptr %{{.*}}, align 4{{$}}
; CHECK: store float %{{.*}}, ptr %{{.*}}, !noalias ![[SCOPES]]
; CHECK: ![[SCOPES]] = !{![[SCOPE:[0-9]+]]}
; CHECK: ![[SCOPE]] = distinct !{![[SCOPE]], ![[DOMAIN:[0-9]+]], !"slmc.group-local.memory"}
; CHECK: ![[DOMAIN]] = distinct !{![[DOMAIN]], !"slmc.group-local"}
define i32 @scopes(ptr %args) {
entry:
  %go = call i32 @slmc_cpu_work_item_loops(ptr null)
  %fibers = icmp eq i32 %go, 0
  br i1 %fibers, label %no, label %kernel
no:
  ret i32 0
kernel:
  %item = call ptr @slmc_cpu_current_item()
  %tile = call ptr @llvm.threadlocal.address.p0(ptr @tile)
  %functor = load ptr, ptr %args
  %in.field = getelementptr i8, ptr %functor, i64 8
  %in = load ptr, ptr %in.field
  %out = load ptr, ptr %functor
  %x = load i32, ptr %item
  %i = zext i32 %x to i64
  %src = getelementptr float, ptr %in, i64 %i
  %v = load float, ptr %src, align 4
  %t = getelementptr float, ptr %tile, i64 %i
  store float %v, ptr %t, align 4
  call void @slmc_cpu_barrier()
  %j = sub i64 63, %i
  %u = getelementptr float, ptr %tile, i64 %j
  %w = load float, ptr %u, align 4
  %p = call ptr @somewhere()
  %k = load float, ptr %p, align 4
  %s = fadd float %w, %k
  %dst = getelementptr float, ptr %out, i64 %i
  store float %s, ptr %dst, align 4
  ret i32 1
}
