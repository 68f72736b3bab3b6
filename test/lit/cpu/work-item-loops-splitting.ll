; Index-set splitting of the work-item loops (opt -passes=slmc-work-item-loops):
; a row whose items test x + offset against points and row-invariant bounds
; runs its middle range through a copy of the body without those tests
; (`.mid` blocks), computed once per row; the items before and after it run
; the full body.
; RUN: %opt -load-pass-plugin=%slmc-libdir/slmcWorkItemLoops.so -passes=slmc-work-item-loops -S %s -o %t.ll
; RUN: FileCheck %s --check-prefix=EDGES < %t.ll
; RUN: FileCheck %s --check-prefix=HALO < %t.ll
; RUN: FileCheck %s --check-prefix=ROWS < %t.ll
; RUN: FileCheck %s --check-prefix=GROW < %t.ll
; RUN: FileCheck %s --check-prefix=UNIFORM < %t.ll
; RUN: FileCheck %s --check-prefix=ALLCASES < %t.ll

@sums = internal thread_local global [256 x i32] zeroinitializer, align 16

declare i32 @slmc_cpu_work_item_loops(ptr)
declare ptr @slmc_cpu_current_item()
declare void @slmc_cpu_barrier() convergent
declare ptr @llvm.threadlocal.address.p0(ptr)
declare i32 @llvm.smin.i32(i32, i32)

; g = group * 16 + x; sums[x] = min(g, n - 1); if (x == 0) sums[16] = g;
; (n: a capture). The middle: x > 0 (not the point 0) and g <= n - 1 (the
; clamp's bound varies: below it); there the clamp is g itself and the
; store to sums[16] is gone.
; EDGES-LABEL: define i32 @edges(
; (The range is the group's: it is computed before the loops.)
; EDGES: %mid.lo = select
; EDGES: r0.x.mid{{[.a-z]*}}:
; EDGES-NOT: smin
; EDGES-NOT: icmp eq
; EDGES: store i32 %g.r0.mid
; EDGES-NOT: smin
; EDGES-NOT: icmp eq
; EDGES: br i1 %{{.*}}, label %r0.x.mid{{[.a-z]*}}, label
; EDGES: {{^[}]$}}
define i32 @edges(ptr %args) {
entry:
  %go = call i32 @slmc_cpu_work_item_loops(ptr null)
  %fibers = icmp eq i32 %go, 0
  br i1 %fibers, label %no, label %kernel
no:
  ret i32 0
kernel:
  %item = call ptr @slmc_cpu_current_item()
  %sums = call ptr @llvm.threadlocal.address.p0(ptr @sums)
  %f = load ptr, ptr %args
  %n = load i32, ptr %f
  %group.p = getelementptr i8, ptr %item, i64 12
  %group = load i32, ptr %group.p
  %base = shl nsw i32 %group, 4
  %x = load i32, ptr %item
  %g = add nsw i32 %base, %x
  %last = add nsw i32 %n, -1
  %gc = call i32 @llvm.smin.i32(i32 %g, i32 %last)
  %i = zext i32 %x to i64
  %p = getelementptr i32, ptr %sums, i64 %i
  store i32 %gc, ptr %p
  %first = icmp eq i32 %x, 0
  br i1 %first, label %edge, label %done
edge:
  %q = getelementptr i32, ptr %sums, i64 16
  store i32 %g, ptr %q
  br label %done
done:
  ret i32 1
}

; if (x < 2) sums[x + 32] = 1: the bare local id against a constant (a
; halo's first items, or most of a tile: no telling) is not split.
; HALO-LABEL: define i32 @halo(
; HALO-NOT: .mid
; HALO: {{^[}]$}}
define i32 @halo(ptr %args) {
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
  store i32 0, ptr %p
  %low = icmp ult i32 %x, 2
  br i1 %low, label %halo, label %done
halo:
  %j = add i64 %i, 32
  %q = getelementptr i32, ptr %sums, i64 %j
  store i32 1, ptr %q
  br label %done
done:
  ret i32 1
}

; A switch on the local row (`r == 0`, `r == 3`: a tile's halo rows) and one
; on x (cases 0 and 7) in the body: the middle copy takes both defaults;
; rows 0 and 3 get middle copies of their own (`.mid1`, `.mid2`, picked by
; the row's kind) in which the halo store is unconditional; every row's
; middle skips x = 0 and x = 7's side.
; ROWS-LABEL: define i32 @rows(
; ROWS: r0.y:
; ROWS-DAG: icmp eq i32 %[[ROW:[0-9a-z.]+]], 0
; ROWS-DAG: icmp eq i32 %[[ROW]], 3
; ROWS: r0.x.mid.pre{{[.a-z]*}}:
; ROWS-NEXT: switch i32 %{{.*}}, label %r0.x.mid{{[.a-z]*}} [
; ROWS-NEXT: i32 1, label %r0.x.mid1
; ROWS-NEXT: i32 2, label %r0.x.mid2
; ROWS: r0.x.mid2{{[.a-z]*}}:
; ROWS-NOT: switch
; ROWS: store i32 1,
; ROWS-NOT: switch
; ROWS: store i32 2,
; ROWS: r0.x.mid1{{[.a-z]*}}:
; ROWS-NOT: switch
; ROWS: store i32 1,
; ROWS-NOT: switch
; ROWS: store i32 2,
; ROWS: r0.x.mid{{[.a-z]*}}:
; ROWS-NOT: switch
; ROWS-NOT: store i32 1,
; ROWS: store i32 2,
; ROWS: {{^[}]$}}
define i32 @rows(ptr %args) {
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
  %y.p = getelementptr i8, ptr %item, i64 4
  %y = load i32, ptr %y.p
  %row = mul nsw i32 %y, 16
  %cell = add nsw i32 %row, %x
  %i = zext i32 %cell to i64
  %p = getelementptr i32, ptr %sums, i64 %i
  switch i32 %y, label %cols [
    i32 0, label %top
    i32 3, label %top
  ]
top:
  %halo = getelementptr i32, ptr %p, i64 512
  store i32 1, ptr %halo
  br label %cols
cols:
  switch i32 %x, label %plain [
    i32 0, label %edge
    i32 7, label %edge
  ]
edge:
  store i32 3, ptr %p
  br label %done
plain:
  store i32 2, ptr %p
  br label %done
done:
  ret i32 1
}

; The same test of the row through the group's id (`gy * 8 + r == 0`: the
; grid's first row, in one group of a column only): no copy for it; that
; row has no middle range (the select).
; GROW-LABEL: define i32 @grid_row(
; GROW: r0.y:
; GROW: %mid.hi = select i1 %{{.*}}, i64 %{{.*}}, i64 %{{.*}}
; GROW-NOT: .mid1
; GROW: r0.x.mid{{[.a-z]*}}:
; GROW-NOT: store i32 1,
; GROW: store i32 2,
; GROW: {{^[}]$}}
define i32 @grid_row(ptr %args) {
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
  %y.p = getelementptr i8, ptr %item, i64 4
  %y = load i32, ptr %y.p
  %gy.p = getelementptr i8, ptr %item, i64 16
  %gy = load i32, ptr %gy.p
  %gy8 = mul nsw i32 %gy, 8
  %gr = add nsw i32 %gy8, %y
  %row = mul nsw i32 %y, 16
  %cell = add nsw i32 %row, %x
  %i = zext i32 %cell to i64
  %p = getelementptr i32, ptr %sums, i64 %i
  %first = icmp eq i32 %gr, 0
  br i1 %first, label %top, label %cols
top:
  %halo = getelementptr i32, ptr %p, i64 512
  store i32 1, ptr %halo
  br label %cols
cols:
  %edge = icmp eq i32 %x, 7
  br i1 %edge, label %e, label %plain
e:
  store i32 3, ptr %p
  br label %done
plain:
  store i32 2, ptr %p
  br label %done
done:
  ret i32 1
}

; if (n == 0) sums[x] = 1; else sums[x] = 2; (n: a capture): the same for
; the whole group, which the optimiser's unswitching handles: no split.
; UNIFORM-LABEL: define i32 @uniform(
; UNIFORM-NOT: .mid
; UNIFORM: {{^[}]$}}
define i32 @uniform(ptr %args) {
entry:
  %go = call i32 @slmc_cpu_work_item_loops(ptr null)
  %fibers = icmp eq i32 %go, 0
  br i1 %fibers, label %no, label %kernel
no:
  ret i32 0
kernel:
  %item = call ptr @slmc_cpu_current_item()
  %sums = call ptr @llvm.threadlocal.address.p0(ptr @sums)
  %f = load ptr, ptr %args
  %n = load i32, ptr %f
  %x = load i32, ptr %item
  %i = zext i32 %x to i64
  %p = getelementptr i32, ptr %sums, i64 %i
  %none = icmp eq i32 %n, 0
  br i1 %none, label %one, label %two
one:
  store i32 1, ptr %p
  br label %done
two:
  store i32 2, ptr %p
  br label %done
done:
  ret i32 1
}

; A switch on the row whose cases name every value of its type (here an
; i1, from the row's parity): no middle value to give it, so no split.
; ALLCASES-LABEL: define i32 @all_cases(
; ALLCASES-NOT: .mid
; ALLCASES: {{^[}]$}}
define i32 @all_cases(ptr %args) {
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
  %y.p = getelementptr i8, ptr %item, i64 4
  %y = load i32, ptr %y.p
  %odd = trunc i32 %y to i1
  %i = zext i32 %x to i64
  %p = getelementptr i32, ptr %sums, i64 %i
  switch i1 %odd, label %done [
    i1 false, label %even.row
    i1 true, label %odd.row
  ]
even.row:
  store i32 1, ptr %p
  br label %done
odd.row:
  store i32 2, ptr %p
  br label %done
done:
  ret i32 1
}
