; A work-item loop whose items each run a grid-stride loop is interchanged
; with it (opt -passes=slmc-work-item-loops): step k runs iteration k of
; the items still in their loops, a prefix of the row [lo, k.hi), so that
; consecutive items read consecutive words.
; RUN: %opt -load-pass-plugin=%slmc-libdir/slmcWorkItemLoops.so -passes=slmc-work-item-loops -slmc-cpu-isa-versions=0 -S %s -o %t.ll
; RUN: FileCheck %s --check-prefix=STRIDED < %t.ll
; RUN: FileCheck %s --check-prefix=CARRIED < %t.ll
; RUN: FileCheck %s --check-prefix=INNER < %t.ll

@bins = internal thread_local global [64 x i32] zeroinitializer, align 16

declare i32 @slmc_cpu_work_item_loops(ptr)
declare ptr @slmc_cpu_current_item()
declare void @slmc_cpu_barrier() convergent
declare void @slmc_cpu_fixed_group_shape(i32, i32, i32)
declare ptr @llvm.threadlocal.address.p0(ptr)

; i = group * 64 + x; do ++bins[data[i] & 63]; while ((i += 256) < n);
; (what the narrowing makes of a `for` whose first test fails for some
; items: those items are not in the row's loop)
; STRIDED-LABEL: define i32 @strided(
; STRIDED: k.head:
; STRIDED-NEXT: %k = phi i64 [ 0, %{{.*}} ], [ %k.next, %k.latch ]
; STRIDED-NEXT: %[[SCALED:[0-9]+]] = mul i64 %k, 256
; STRIDED-NEXT: %k.offset = add i64 %{{.*}}, %[[SCALED]]
; STRIDED: %k.hi = add i64
; The items' loop of one step: one iteration each, at i = offset + x - lo.
; STRIDED: [[BODY:[a-z0-9.]+]].k:
; STRIDED: %i.k = add i64 %k.offset, %{{.*}}
; STRIDED: getelementptr inbounds i32, ptr %{{.*}}, i64 %i.k
; STRIDED: br label %[[LATCH:[a-z0-9.]+]].k
; STRIDED: [[LATCH]].k:
; STRIDED: icmp ult i64 %{{.*}}, %k.hi
; STRIDED-NEXT: br i1 %{{.*}}, label %{{.*}}, label %k.latch, !slmc.work-item-loop
; STRIDED: k.done:
; STRIDED: {{^[}]$}}
define i32 @strided(ptr %args) {
entry:
  %go = call i32 @slmc_cpu_work_item_loops(ptr null)
  %fibers = icmp eq i32 %go, 0
  br i1 %fibers, label %no, label %kernel
no:
  ret i32 0
kernel:
  call void @slmc_cpu_fixed_group_shape(i32 64, i32 1, i32 1)
  %item = call ptr @slmc_cpu_current_item()
  %bins = call ptr @llvm.threadlocal.address.p0(ptr @bins)
  %f = load ptr, ptr %args
  %data = load ptr, ptr %f
  %n.p = getelementptr i8, ptr %f, i64 8
  %n32 = load i32, ptr %n.p
  %n = sext i32 %n32 to i64
  %x = load i32, ptr %item
  %g.p = getelementptr i8, ptr %item, i64 12
  %g = load i32, ptr %g.p
  %base = shl nsw i32 %g, 6
  %gid = add nsw i32 %base, %x
  %gid64 = sext i32 %gid to i64
  call void @slmc_cpu_barrier()
  br label %loop
loop:
  %i = phi i64 [ %gid64, %kernel ], [ %i.next, %body ]
  br label %body
body:
  %p = getelementptr inbounds i32, ptr %data, i64 %i
  %w = load i32, ptr %p
  %b = and i32 %w, 63
  %b64 = zext i32 %b to i64
  %bp = getelementptr inbounds i32, ptr %bins, i64 %b64
  %old = load i32, ptr %bp
  %new = add i32 %old, 1
  store i32 %new, ptr %bp
  %i.next = add nsw i64 %i, 256
  %more = icmp slt i64 %i.next, %n
  br i1 %more, label %loop, label %done
done:
  ret i32 1
}

; A value carried from one iteration to the next (a sum) and used after the
; loop (sums[x] = sum): kept per item in a slot across the steps; the code
; after the loop runs after the last step, item by item, reading the slot.
; CARRIED-LABEL: define i32 @carried(
; CARRIED: %sum.r1.items = alloca [1024 x i32]
; CARRIED: k.head:
; The step: the sum from the slot (step 0: its start), back into it.
; CARRIED: [[LOOP:[a-z0-9.]+]].k:
; CARRIED: %[[SLOT:[0-9]+]] = getelementptr inbounds [1024 x i32], ptr %sum.r1.items, i64 0, i64 %{{.*}}
; CARRIED: %[[OLD:[0-9]+]] = load i32, ptr %[[SLOT]]
; CARRIED: %[[SUM:[0-9]+]] = select i1 %{{.*}}, i32 0, i32 %[[OLD]]
; CARRIED: %[[NEXT:[a-z0-9.]+]] = add i32 %[[SUM]], %{{.*}}
; CARRIED: store i32 %[[NEXT]], ptr %[[SLOT]]
; CARRIED-NOT: store i32 %{{.*}}, ptr %bp
; CARRIED: br i1 %{{.*}}, label %{{.*}}, label %k.latch, !slmc.work-item-loop
; After the steps: sums[x] = the slot.
; CARRIED: [[DONE:[a-z0-9.]+]].after:
; CARRIED: %[[TOTAL:[0-9]+]] = load i32, ptr %{{.*}}
; CARRIED: store i32 %[[TOTAL]], ptr %bp
; CARRIED: k.done:
; CARRIED-NEXT: br label %{{.*}}.after
; CARRIED: {{^[}]$}}
define i32 @carried(ptr %args) {
entry:
  %go = call i32 @slmc_cpu_work_item_loops(ptr null)
  %fibers = icmp eq i32 %go, 0
  br i1 %fibers, label %no, label %kernel
no:
  ret i32 0
kernel:
  call void @slmc_cpu_fixed_group_shape(i32 64, i32 1, i32 1)
  %item = call ptr @slmc_cpu_current_item()
  %bins = call ptr @llvm.threadlocal.address.p0(ptr @bins)
  %f = load ptr, ptr %args
  %data = load ptr, ptr %f
  %n.p = getelementptr i8, ptr %f, i64 8
  %n = load i64, ptr %n.p
  %x = load i32, ptr %item
  %x64 = zext i32 %x to i64
  call void @slmc_cpu_barrier()
  br label %loop
loop:
  %i = phi i64 [ %x64, %kernel ], [ %i.next, %loop ]
  %sum = phi i32 [ 0, %kernel ], [ %sum.next, %loop ]
  %p = getelementptr inbounds i32, ptr %data, i64 %i
  %w = load i32, ptr %p
  %sum.next = add i32 %sum, %w
  %i.next = add nsw i64 %i, 64
  %more = icmp slt i64 %i.next, %n
  br i1 %more, label %loop, label %done
done:
  %bp = getelementptr inbounds i32, ptr %bins, i64 %x64
  store i32 %sum.next, ptr %bp
  ret i32 1
}

; Loops inside one item (for (a = 0; a < 4; ++a) for (i = a; i < n; i += 4))
; are the item's order: never interchanged.
; INNER-LABEL: define i32 @inner(
; INNER-NOT: k.head
; INNER: {{^[}]$}}
define i32 @inner(ptr %args) {
entry:
  %go = call i32 @slmc_cpu_work_item_loops(ptr null)
  %fibers = icmp eq i32 %go, 0
  br i1 %fibers, label %no, label %kernel
no:
  ret i32 0
kernel:
  %item = call ptr @slmc_cpu_current_item()
  %f = load ptr, ptr %args
  %data = load ptr, ptr %f
  %n.p = getelementptr i8, ptr %f, i64 8
  %n = load i64, ptr %n.p
  %x = load i32, ptr %item
  %x64 = zext i32 %x to i64
  %row = mul nuw nsw i64 %x64, 1024
  br label %outer
outer:
  %a = phi i64 [ 0, %kernel ], [ %a.next, %outer.latch ]
  %start = add nuw nsw i64 %row, %a
  %any = icmp slt i64 %start, %n
  br i1 %any, label %loop, label %outer.latch
loop:
  %i = phi i64 [ %start, %outer ], [ %i.next, %loop ]
  %p = getelementptr inbounds i32, ptr %data, i64 %i
  store i32 1, ptr %p
  %i.next = add nsw i64 %i, 4
  %more = icmp slt i64 %i.next, %n
  br i1 %more, label %loop, label %outer.latch
outer.latch:
  %a.next = add nuw nsw i64 %a, 1
  %again = icmp ult i64 %a.next, 4
  br i1 %again, label %outer, label %done
done:
  ret i32 1
}
