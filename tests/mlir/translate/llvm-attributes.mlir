// RUN: gpu-translate %s | FileCheck %s

// What llvm.func, llvm.load, llvm.store and llvm.cond_br state reaches LLVM; nothing is dropped.

// CHECK: target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
// CHECK: target triple = "x86_64-unknown-linux-gnu"
module attributes {llvm.target_triple = "x86_64-unknown-linux-gnu",
    llvm.data_layout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"} {
  // CHECK: define hidden fastcc void @attrs(ptr noalias nonnull align 16 %0) unnamed_addr #[[A:[0-9]+]] section ".text.hot" align 64 gc "shadow-stack" !prof ![[P:[0-9]+]]
  llvm.func hidden unnamed_addr fastcc @attrs(%p: !llvm.ptr {llvm.noalias, llvm.nonnull, llvm.align = 16 : i64})
      attributes {section = ".text.hot", alignment = 64 : i64, always_inline,
      passthrough = ["nounwind", ["probe-stack", "inline-asm"]], garbageCollector = "shadow-stack",
      function_entry_count = 42 : i64} {
    // CHECK: %[[V:.*]] = load volatile i32, ptr %0, align 4
    %v = llvm.load volatile %p {alignment = 4 : i64} : !llvm.ptr -> i32
    // CHECK-NEXT: load atomic i32, ptr %0 monotonic, align 4
    %w = llvm.load %p atomic monotonic {alignment = 4 : i64} : !llvm.ptr -> i32
    // CHECK-NEXT: load i32, ptr %0, align 4, !invariant.load ![[EMPTY:[0-9]+]]
    %x = llvm.load %p invariant {alignment = 4 : i64} : !llvm.ptr -> i32
    // CHECK-NEXT: store i32 %[[V]], ptr %0, align 4, !nontemporal ![[NT:[0-9]+]]
    llvm.store %v, %p {alignment = 4 : i64, nontemporal} : i32, !llvm.ptr
    // CHECK-NEXT: store atomic volatile i32 %[[V]], ptr %0 release, align 4
    llvm.store volatile %v, %p atomic release {alignment = 4 : i64} : i32, !llvm.ptr
    %c = llvm.icmp "eq" %v, %w : i32
    // CHECK: br i1 %{{.*}}, label %{{.*}}, label %{{.*}}, !prof ![[W:[0-9]+]]
    llvm.cond_br %c weights([3, 5]), ^a, ^b
  ^a:
    llvm.return
  ^b:
    llvm.return
  }
}
// CHECK: attributes #[[A]] = { alwaysinline nounwind "probe-stack"="inline-asm" }
// CHECK-DAG: ![[P]] = !{!"function_entry_count", i64 42}
// CHECK-DAG: ![[EMPTY]] = !{}
// CHECK-DAG: ![[NT]] = !{i32 1}
// CHECK-DAG: ![[W]] = !{!"branch_weights", i32 3, i32 5}
