; The work-item loops pass on its own: a loop that waits at a barrier on
; every iteration and whose trip count is the group's (its counter starts
; from the local size and steps the same for everyone) gets barriers where
; it is entered, at its latch and where it is left. Its counting then runs
; once per group, the counter lives in one slot for the group instead of one
; per work-item, and the work after the loop's barrier (`if (lid < s)`) loops
; over the passing items only. Loops whose trip count is not known to be the
; group's, whose barrier is conditional, or that leave from more than one
; place, or that also carry a value of each work-item's, keep the counter per
; work-item.
; RUN: %opt -load-pass-plugin=%slmc-libdir/slmcWorkItemLoops.so -passes=slmc-work-item-loops -S %s -o %t.ll
; RUN: FileCheck %s --check-prefix=TREE < %t.ll
; RUN: FileCheck %s --check-prefix=MEMORY < %t.ll
; RUN: FileCheck %s --check-prefix=COND < %t.ll
; RUN: FileCheck %s --check-prefix=EXITS < %t.ll
; RUN: FileCheck %s --check-prefix=CARRIED < %t.ll
; RUN: %opt -load-pass-plugin=%slmc-libdir/slmcWorkItemLoops.so -passes=slmc-work-item-loops -slmc-cut-barrier-loops=0 -S %s -o %t.off.ll
; RUN: FileCheck %s --check-prefix=OFF < %t.off.ll

@sums = internal thread_local global [256 x i32] zeroinitializer, align 16

declare i32 @slmc_cpu_work_item_loops(ptr)
declare ptr @slmc_cpu_current_item()
declare void @slmc_cpu_barrier() convergent
declare ptr @llvm.threadlocal.address.p0(ptr)

; sums[lid] = lid; for (s = lsize / 2; s > 0; s /= 2) { barrier;
; if (lid < s) sums[lid] += sums[lid + s]; } barrier; if (lid == 0) *out = sums[0];
; (in the rotated form the optimiser leaves).
; TREE-LABEL: define i32 @tree(
; No per-work-item storage: the counter is the group's.
; TREE-NOT: @slmc_cpu_work_item_storage
; The loop's entry (region 1) and its counting (region 3) run once: no
; loop over work-items is left of them.
; TREE-NOT: {{^r[13]\.(x|y|z):}}
; The sums' region (2) loops over [0, min(s, lx)), s read once.
; TREE: r2.pre:
; TREE: [[HI:%.*]] = call i32 @llvm.umin.i32(
; TREE: [[HI64:%.*]] = zext i32 [[HI]] to i64
; TREE: r2.x:
; TREE: icmp {{.*}}i64 %x.next{{.*}}, [[HI64]]
; TREE-NOT: {{^r[13]\.(x|y|z):}}
; TREE-NOT: @slmc_cpu_work_item_storage
; TREE: {{^[}]$}}
; Without the cuts: the counter is saved for every item, the sums' region
; loops over them all.
; OFF-LABEL: define i32 @tree(
; OFF: @slmc_cpu_work_item_storage
; OFF-NOT: @llvm.umin.i64
; OFF: {{^[}]$}}
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
  %i = zext i32 %lid to i64
  %mine = getelementptr i32, ptr %sums, i64 %i
  store i32 %lid, ptr %mine
  %lsize.p = getelementptr i8, ptr %item, i64 24
  %lsize = load i32, ptr %lsize.p
  %s0 = lshr i32 %lsize, 1
  %none = icmp eq i32 %s0, 0
  br i1 %none, label %after, label %loop
loop:
  %s = phi i32 [ %s0, %kernel ], [ %s1, %latch ]
  call void @slmc_cpu_barrier()
  %lid1 = load i32, ptr %item
  %low = icmp ult i32 %lid1, %s
  br i1 %low, label %add, label %latch
add:
  %j = zext i32 %lid1 to i64
  %other = add i32 %lid1, %s
  %k = zext i32 %other to i64
  %p = getelementptr i32, ptr %sums, i64 %j
  %q = getelementptr i32, ptr %sums, i64 %k
  %a = load i32, ptr %p
  %b = load i32, ptr %q
  %sum = add i32 %a, %b
  store i32 %sum, ptr %p
  br label %latch
latch:
  %s1 = lshr i32 %s, 1
  %more = icmp ne i32 %s1, 0
  br i1 %more, label %loop, label %after
after:
  call void @slmc_cpu_barrier()
  %lid2 = load i32, ptr %item
  %first = icmp eq i32 %lid2, 0
  br i1 %first, label %write, label %done
write:
  %out = load ptr, ptr %args
  %total = load i32, ptr %sums
  store i32 %total, ptr %out
  br label %done
done:
  ret i32 1
}

; The first stride read from group-local memory: the same for every item,
; but nothing shows it, so the counter stays each item's.
; MEMORY-LABEL: define i32 @from_memory(
; MEMORY: @slmc_cpu_work_item_storage
; MEMORY: {{^[}]$}}
define i32 @from_memory(ptr %args) {
entry:
  %go = call i32 @slmc_cpu_work_item_loops(ptr null)
  %fibers = icmp eq i32 %go, 0
  br i1 %fibers, label %no, label %kernel
no:
  ret i32 0
kernel:
  %item = call ptr @slmc_cpu_current_item()
  %sums = call ptr @llvm.threadlocal.address.p0(ptr @sums)
  %s0 = load i32, ptr %sums
  %none = icmp eq i32 %s0, 0
  br i1 %none, label %after, label %loop
loop:
  %s = phi i32 [ %s0, %kernel ], [ %s1, %latch ]
  call void @slmc_cpu_barrier()
  %lid1 = load i32, ptr %item
  %low = icmp ult i32 %lid1, %s
  br i1 %low, label %add, label %latch
add:
  %j = zext i32 %lid1 to i64
  %p = getelementptr i32, ptr %sums, i64 %j
  store i32 %s, ptr %p
  br label %latch
latch:
  %s1 = lshr i32 %s, 1
  %more = icmp ne i32 %s1, 0
  br i1 %more, label %loop, label %after
after:
  ret i32 1
}

; The barrier only on some iterations (under a test of the counter): a
; work-item that enters the loop need not wait in it, so no barrier may be
; added around it.
; COND-LABEL: define i32 @conditional_barrier(
; COND: @slmc_cpu_work_item_storage
; COND: {{^[}]$}}
define i32 @conditional_barrier(ptr %args) {
entry:
  %go = call i32 @slmc_cpu_work_item_loops(ptr null)
  %fibers = icmp eq i32 %go, 0
  br i1 %fibers, label %no, label %kernel
no:
  ret i32 0
kernel:
  %item = call ptr @slmc_cpu_current_item()
  %sums = call ptr @llvm.threadlocal.address.p0(ptr @sums)
  %lsize.p = getelementptr i8, ptr %item, i64 24
  %lsize = load i32, ptr %lsize.p
  br label %loop
loop:
  %s = phi i32 [ %lsize, %kernel ], [ %s1, %latch ]
  %odd.bit = and i32 %s, 1
  %odd = icmp ne i32 %odd.bit, 0
  br i1 %odd, label %wait, label %latch
wait:
  call void @slmc_cpu_barrier()
  %lid1 = load i32, ptr %item
  %j = zext i32 %lid1 to i64
  %p = getelementptr i32, ptr %sums, i64 %j
  store i32 %s, ptr %p
  br label %latch
latch:
  %s1 = lshr i32 %s, 1
  %more = icmp ne i32 %s1, 0
  br i1 %more, label %loop, label %after
after:
  ret i32 1
}

; A second way out (`if (s == stop) break;` after the barrier): the loop is
; left from two places, so no barrier is added where it is left.
; EXITS-LABEL: define i32 @two_exits(
; EXITS: @slmc_cpu_work_item_storage
; EXITS: {{^[}]$}}
define i32 @two_exits(ptr %args) {
entry:
  %go = call i32 @slmc_cpu_work_item_loops(ptr null)
  %fibers = icmp eq i32 %go, 0
  br i1 %fibers, label %no, label %kernel
no:
  ret i32 0
kernel:
  %item = call ptr @slmc_cpu_current_item()
  %sums = call ptr @llvm.threadlocal.address.p0(ptr @sums)
  %lsize.p = getelementptr i8, ptr %item, i64 24
  %lsize = load i32, ptr %lsize.p
  br label %loop
loop:
  %s = phi i32 [ %lsize, %kernel ], [ %s1, %latch ]
  call void @slmc_cpu_barrier()
  %stop = icmp eq i32 %s, 4
  br i1 %stop, label %after, label %work
work:
  %lid1 = load i32, ptr %item
  %j = zext i32 %lid1 to i64
  %p = getelementptr i32, ptr %sums, i64 %j
  store i32 %s, ptr %p
  br label %latch
latch:
  %s1 = lshr i32 %s, 1
  %more = icmp ne i32 %s1, 0
  br i1 %more, label %loop, label %after
after:
  ret i32 1
}

; The loop also carries a value of each work-item's (acc += sums[lid]): no
; barrier is added (the loop's own regions would copy it every iteration;
; C for Metal's n-body step, whose force sums are such values, ran 20 times
; slower). Two regions, as written.
; CARRIED-LABEL: define i32 @carries_per_item(
; CARRIED-NOT: {{^r2\.}}
; CARRIED: {{^[}]$}}
define i32 @carries_per_item(ptr %args) {
entry:
  %go = call i32 @slmc_cpu_work_item_loops(ptr null)
  %fibers = icmp eq i32 %go, 0
  br i1 %fibers, label %no, label %kernel
no:
  ret i32 0
kernel:
  %item = call ptr @slmc_cpu_current_item()
  %sums = call ptr @llvm.threadlocal.address.p0(ptr @sums)
  %lsize.p = getelementptr i8, ptr %item, i64 24
  %lsize = load i32, ptr %lsize.p
  %s0 = lshr i32 %lsize, 1
  %none = icmp eq i32 %s0, 0
  br i1 %none, label %after, label %loop
loop:
  %s = phi i32 [ %s0, %kernel ], [ %s1, %loop ]
  %acc = phi i32 [ 0, %kernel ], [ %acc1, %loop ]
  call void @slmc_cpu_barrier()
  %lid1 = load i32, ptr %item
  %j = zext i32 %lid1 to i64
  %p = getelementptr i32, ptr %sums, i64 %j
  %v = load i32, ptr %p
  %acc1 = add i32 %acc, %v
  %s1 = lshr i32 %s, 1
  %more = icmp ne i32 %s1, 0
  br i1 %more, label %loop, label %after
after:
  %res = phi i32 [ 0, %kernel ], [ %acc1, %loop ]
  %out = load ptr, ptr %args
  store i32 %res, ptr %out
  ret i32 1
}
