; The work-item loops pass on its own (opt -passes=slmc-work-item-loops): a
; region whose start sends the items failing tests (of the row's ids, or of
; the x id against a bound that is the same for the whole row) to a barrier
; or to the end loops over the passing items only, the range computed once
; per row; a start that stores, or a bound read from memory the items
; write, keeps the loop over every item.
; RUN: %opt -load-pass-plugin=%slmc-libdir/slmcWorkItemLoops.so -passes=slmc-work-item-loops -S %s -o %t.ll
; RUN: FileCheck %s --check-prefix=TREE < %t.ll
; RUN: FileCheck %s --check-prefix=STORES < %t.ll
; RUN: FileCheck %s --check-prefix=BOUND < %t.ll
; RUN: FileCheck %s --check-prefix=CHAIN < %t.ll
; RUN: FileCheck %s --check-prefix=AND < %t.ll
; RUN: FileCheck %s --check-prefix=OR < %t.ll
; RUN: FileCheck %s --check-prefix=SHAPE < %t.ll

@sums = internal thread_local global [256 x i32] zeroinitializer, align 16

declare i32 @slmc_cpu_work_item_loops(ptr)
declare ptr @slmc_cpu_current_item()
declare void @slmc_cpu_barrier() convergent
declare void @slmc_cpu_fixed_group_shape(i32, i32, i32)
declare ptr @llvm.threadlocal.address.p0(ptr)

; sums[tid] = tid; barrier; if (tid < 64) sums[tid] += sums[tid + 64];
; barrier; if (tid == 0) *out = sums[0];
; TREE-LABEL: define i32 @tree(
; The region after the first barrier: items [0, min(64, lx)).
; TREE: [[HI:%.*]] = call i64 @llvm.umin.i64(i64 %{{.*}}, i64 64)
; TREE: icmp {{.*}}i64 %x.next{{.*}}, [[HI]]
; The last: item 0 alone, so no loop over x is left, only the rows'.
; TREE: r2.z{{.*}}:
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
; Group-local memory is written while the loops run: no invariant load.
; BOUND: load i32, ptr %sums{{[^!]*(!alias.scope ![0-9]+)?$}}
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

; if (y < n && x + y < m) sums[x] = 1; (n, m: the kernel's captures): a test
; of the row and one of x against a bound that depends on the row, both
; evaluated once per row, before its loop over x.
; CHAIN-LABEL: define i32 @chain(
; The captures are read once, before the loops: the functor is not written
; while they run.
; CHAIN: %n{{.*}} = load i32, ptr %f{{.*}}, !invariant.load
; CHAIN: r1.y:
; CHAIN: icmp sgt i32 %n{{.*}}, %{{.*}}
; CHAIN: [[ROW:%.*]] = freeze i1
; CHAIN: [[LIMIT:%.*]] = sub nsw i64 %{{.*}}, %{{.*}}
; CHAIN: [[POS:%.*]] = call i64 @llvm.smax.i64(i64 [[LIMIT]], i64 0)
; CHAIN: [[HI:%.*]] = call i64 @llvm.umin.i64(i64 [[POS]], i64 %{{.*}})
; CHAIN: select i1 [[ROW]]
; CHAIN: r1.x:
; CHAIN-NOT: icmp slt
; CHAIN: icmp {{.*}}i64 %x.next{{.*}}, [[HI]]
; CHAIN: {{^[}]$}}
define i32 @chain(ptr %args) {
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
  %f = load ptr, ptr %args
  %n = load i32, ptr %f
  %m.p = getelementptr i8, ptr %f, i64 4
  %m = load i32, ptr %m.p
  %y.p = getelementptr i8, ptr %item, i64 4
  %y = load i32, ptr %y.p
  %row.ok = icmp slt i32 %y, %n
  br i1 %row.ok, label %second, label %done
second:
  %x = load i32, ptr %item
  %sum = add nsw i32 %x, %y
  %ok = icmp slt i32 %sum, %m
  br i1 %ok, label %work, label %done
work:
  %i = zext i32 %x to i64
  %p = getelementptr i32, ptr %sums, i64 %i
  store i32 1, ptr %p
  br label %done
done:
  ret i32 1
}

; The same test as one condition, `y < n && x + y < m` (the short-circuit
; form, a select): each operand is a guard, frozen (the second may be poison
; where the first fails).
; AND-LABEL: define i32 @logical_and(
; AND: r1.y:
; AND: [[ROW:%.*]] = freeze i1
; AND: [[HI:%.*]] = call i64 @llvm.umin.i64(
; AND: select i1 [[ROW]]
; AND: r1.x:
; AND-NOT: icmp slt
; AND: icmp {{.*}}i64 %x.next{{.*}}, [[HI]]
; AND: {{^[}]$}}
define i32 @logical_and(ptr %args) {
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
  %f = load ptr, ptr %args
  %n = load i32, ptr %f
  %m.p = getelementptr i8, ptr %f, i64 4
  %m = load i32, ptr %m.p
  %y.p = getelementptr i8, ptr %item, i64 4
  %y = load i32, ptr %y.p
  %x = load i32, ptr %item
  %row.ok = icmp slt i32 %y, %n
  %sum = add nsw i32 %x, %y
  %ok = icmp slt i32 %sum, %m
  %both = select i1 %row.ok, i1 %ok, i1 false
  br i1 %both, label %work, label %done
work:
  %i = zext i32 %x to i64
  %p = getelementptr i32, ptr %sums, i64 %i
  store i32 1, ptr %p
  br label %done
done:
  ret i32 1
}

; `if (x >= m || y >= n) return;` (the stencil's bounds test): the items
; pass where the condition is false, so each operand's inverse is a guard.
; OR-LABEL: define i32 @logical_or(
; OR: r1.y:
; OR: [[HI:%.*]] = call i64 @llvm.umin.i64(
; OR: r1.x:
; OR-NOT: icmp s{{ge|lt}} i32
; OR: icmp {{.*}}i64 %x.next{{.*}}, [[HI]]
; OR: {{^[}]$}}
define i32 @logical_or(ptr %args) {
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
  %f = load ptr, ptr %args
  %n = load i32, ptr %f
  %m.p = getelementptr i8, ptr %f, i64 4
  %m = load i32, ptr %m.p
  %y.p = getelementptr i8, ptr %item, i64 4
  %y = load i32, ptr %y.p
  %x = load i32, ptr %item
  %x.out = icmp sge i32 %x, %m
  %y.out = icmp sge i32 %y, %n
  %out = or i1 %x.out, %y.out
  br i1 %out, label %done, label %work
work:
  %i = zext i32 %x to i64
  %p = getelementptr i32, ptr %sums, i64 %i
  store i32 1, ptr %p
  br label %done
done:
  ret i32 1
}

; An entry that promises its groups' shape (16x4x1, a C++ AMP tile): the
; loops run to constants, and a group of another shape goes to fibers
; (returns 0, saying why).
; SHAPE: @slmc.wi.shape = {{.*}} c"its work-groups are not of the shape it requires (16x4x1)\00"
; SHAPE-LABEL: define i32 @fixed_shape(
; SHAPE-NOT: @slmc_cpu_fixed_group_shape
; SHAPE-DAG: icmp ne i32 %lx, 16
; SHAPE-DAG: icmp ne i32 %ly, 4
; SHAPE-DAG: icmp ne i32 %lz, 1
; SHAPE: phi i32 [ 0, %wi.other_shape ]
; SHAPE: wi.other_shape:
; SHAPE-NEXT: call i32 @slmc_cpu_work_item_loops(ptr nonnull @slmc.wi.shape)
; SHAPE: r0.x:
; SHAPE: icmp {{.*}}i64 %x, 15
; SHAPE: icmp {{.*}}i64 %y, 3
; SHAPE-NOT: @slmc_cpu_fixed_group_shape
; SHAPE: {{^[}]$}}
define i32 @fixed_shape(ptr %args) {
entry:
  %go = call i32 @slmc_cpu_work_item_loops(ptr null)
  %fibers = icmp eq i32 %go, 0
  br i1 %fibers, label %no, label %kernel
no:
  ret i32 0
kernel:
  call void @slmc_cpu_fixed_group_shape(i32 16, i32 4, i32 1)
  %item = call ptr @slmc_cpu_current_item()
  %sums = call ptr @llvm.threadlocal.address.p0(ptr @sums)
  %lid = load i32, ptr %item
  %i = zext i32 %lid to i64
  %p = getelementptr i32, ptr %sums, i64 %i
  store i32 %lid, ptr %p
  ret i32 1
}
