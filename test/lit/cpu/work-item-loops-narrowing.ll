; The work-item loops pass on its own (opt -passes=slmc-work-item-loops): a
; region whose start sends the items failing a test of their x id against a
; group-invariant bound to a barrier or the end loops over the passing items
; only; a start that stores, or a bound read from memory the items write,
; keeps the loop over every item.
; RUN: %opt -load-pass-plugin=%slmc-libdir/slmcWorkItemLoops.so -passes=slmc-work-item-loops -S %s -o %t.ll
; RUN: FileCheck %s --check-prefix=TREE < %t.ll
; RUN: FileCheck %s --check-prefix=STORES < %t.ll
; RUN: FileCheck %s --check-prefix=BOUND < %t.ll

@sums = internal thread_local global [256 x i32] zeroinitializer, align 16

declare i32 @slmc_cpu_work_item_loops(ptr)
declare ptr @slmc_cpu_current_item()
declare void @slmc_cpu_barrier() convergent
declare ptr @llvm.threadlocal.address.p0(ptr)

; sums[tid] = tid; barrier; if (tid < 64) sums[tid] += sums[tid + 64];
; barrier; if (tid == 0) *out = sums[0];
; TREE-LABEL: define i32 @tree(
; The region after the first barrier: items [0, min(64, lx)).
; TREE: r1.pre:
; TREE: [[HI:%.*]] = call i64 @llvm.umin.i64(i64 %{{.*}}, i64 64)
; TREE: icmp {{.*}}i64 %x.next{{.*}}, [[HI]]
; The last: item 0 alone, so no loop over x is left, only the rows'.
; TREE: r2.pre:
; TREE-NOT: %x.next
; TREE: store i32 %total
; TREE-NOT: %x.next
; TREE: {{^[}]$}}
define i32 @tree(ptr %args) {
entry:
  %go = call i32 @slmc_cpu_work_item_loops(ptr null)
  %fibers = icmp eq i32 %go, 0
  br i1 %fibers, label %no, label %kernel
no:
  ret i32 0
kernel:
  %item = call ptr @slmc_cpu_current_item()
  %sums = call ptr @llvm.threadlocal.address.p0(ptr @sums)
  %lid = load i32, ptr %item
  %lid.64 = zext i32 %lid to i64
  %mine = getelementptr i32, ptr %sums, i64 %lid.64
  store i32 %lid, ptr %mine
  call void @slmc_cpu_barrier()
  %lid1 = load i32, ptr %item
  %low = icmp slt i32 %lid1, 64
  br i1 %low, label %add, label %wait
add:
  %i1 = zext i32 %lid1 to i64
  %other.i = add i64 %i1, 64
  %p = getelementptr i32, ptr %sums, i64 %i1
  %q = getelementptr i32, ptr %sums, i64 %other.i
  %a = load i32, ptr %p
  %b = load i32, ptr %q
  %s = add i32 %a, %b
  store i32 %s, ptr %p
  br label %wait
wait:
  call void @slmc_cpu_barrier()
  %lid2 = load i32, ptr %item
  %first = icmp eq i32 %lid2, 0
  br i1 %first, label %write, label %done
write:
  %out.p = load ptr, ptr %args
  %total = load i32, ptr %sums
  store i32 %total, ptr %out.p
  br label %done
done:
  ret i32 1
}

; The region's start stores for every item: no narrowing.
; STORES-LABEL: define i32 @stores_first(
; STORES-NOT: @llvm.umin.i64
; STORES: {{^[}]$}}
define i32 @stores_first(ptr %args) {
entry:
  %go = call i32 @slmc_cpu_work_item_loops(ptr null)
  %fibers = icmp eq i32 %go, 0
  br i1 %fibers, label %no, label %kernel
no:
  ret i32 0
kernel:
  %item = call ptr @slmc_cpu_current_item()
  %sums = call ptr @llvm.threadlocal.address.p0(ptr @sums)
  call void @slmc_cpu_barrier()
  %lid = load i32, ptr %item
  %i = zext i32 %lid to i64
  %p = getelementptr i32, ptr %sums, i64 %i
  store i32 1, ptr %p
  %low = icmp slt i32 %lid, 64
  br i1 %low, label %add, label %done
add:
  store i32 2, ptr %p
  br label %done
done:
  ret i32 1
}

; The bound is group-local memory the items write: it may change while the
; loop runs, so it is no bound for the loop.
; BOUND-LABEL: define i32 @bound_in_memory(
; BOUND-NOT: @llvm.umin.i64
; BOUND: {{^[}]$}}
define i32 @bound_in_memory(ptr %args) {
entry:
  %go = call i32 @slmc_cpu_work_item_loops(ptr null)
  %fibers = icmp eq i32 %go, 0
  br i1 %fibers, label %no, label %kernel
no:
  ret i32 0
kernel:
  %item = call ptr @slmc_cpu_current_item()
  %sums = call ptr @llvm.threadlocal.address.p0(ptr @sums)
  call void @slmc_cpu_barrier()
  %lid = load i32, ptr %item
  %n = load i32, ptr %sums
  %low = icmp slt i32 %lid, %n
  br i1 %low, label %add, label %done
add:
  %i = zext i32 %lid to i64
  %p = getelementptr i32, ptr %sums, i64 %i
  store i32 2, ptr %p
  br label %done
done:
  ret i32 1
}
