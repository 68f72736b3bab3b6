; The first step of the CPU fallback's host pipeline
; (opt -passes=slmc-convergent-callers): every function that calls a
; convergent one, directly or through others, becomes convergent, so that
; no later pass copies a call of it into both sides of a branch (the
; work-items would then wait at two barriers: test/lit/cpu/barrier-copies.cpp).
; A function that only takes another's address, and one that calls nothing
; convergent, stay as they are.
; RUN: %opt -load-pass-plugin=%slmc-libdir/slmcWorkItemLoops.so -passes=slmc-convergent-callers -S %s | FileCheck %s

; CHECK: define void @wait_for_tile() [[CONV:#[0-9]+]]
; CHECK: define void @kernel(i1 %c) [[CONV]]
; CHECK: define void @launcher() [[CONV]]
; CHECK: define ptr @address_only() {
; CHECK: define void @host_only() {
; CHECK: attributes [[CONV]] = { convergent }

declare void @slmc_cpu_barrier() convergent
declare i32 @puts(ptr)

define void @wait_for_tile() {
  call void @slmc_cpu_barrier()
  ret void
}

define void @kernel(i1 %c) {
  br i1 %c, label %a, label %b
a:
  call void @wait_for_tile()
  br label %b
b:
  ret void
}

define void @launcher() {
  call void @kernel(i1 true)
  ret void
}

define ptr @address_only() {
  ret ptr @wait_for_tile
}

@msg = private constant [3 x i8] c"hi\00"
define void @host_only() {
  %r = call i32 @puts(ptr @msg)
  ret void
}
