// RUN: gpu-translate --emit=mlir %s | FileCheck %s

// Host code: func, arith, cf and the llvm subset.

module {
  // CHECK-LABEL: func.func @arith(
  func.func @arith(%a: i32, %b: i32, %i: index) -> i64 {
    // CHECK: arith.addi %{{.*}}, %{{.*}} : i32
    %0 = arith.addi %a, %b : i32
    // CHECK: arith.muli
    %1 = arith.muli %0, %b : i32
    %2 = arith.subi %1, %a : i32
    %3 = arith.divsi %2, %b : i32
    %4 = arith.remui %3, %b : i32
    %5 = arith.andi %4, %a : i32
    %6 = arith.ori %5, %a : i32
    %7 = arith.xori %6, %a : i32
    %8 = arith.shli %7, %a : i32
    // CHECK: arith.cmpi slt, %{{.*}}, %{{.*}} : i32
    %c = arith.cmpi slt, %8, %a : i32
    // CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : i32
    %s = arith.select %c, %8, %a : i32
    // CHECK: arith.extsi %{{.*}} : i32 to i64
    %w = arith.extsi %s : i32 to i64
    // CHECK: arith.index_cast %{{.*}} : index to i64
    %x = arith.index_cast %i : index to i64
    %y = arith.addi %w, %x : i64
    // CHECK: arith.constant true
    %t = arith.constant true
    // CHECK: arith.constant -7 : i64
    %m = arith.constant -7 : i64
    // CHECK: arith.constant 1.500000e+00 : f32
    %f = arith.constant 1.5 : f32
    // CHECK: cf.cond_br %{{.*}}, ^bb1(%{{.*}} : i64), ^bb2
    cf.cond_br %t, ^bb1(%y : i64), ^bb2
  // CHECK: ^bb1(%[[A:.*]]: i64):
  ^bb1(%arg: i64):
    // CHECK: cf.br ^bb2
    cf.br ^bb2
  ^bb2:
    // CHECK: return %{{.*}} : i64
    return %m : i64
  }

  // CHECK-LABEL: func.func @forward(
  func.func @forward(%n: i64) -> i64 {
    cf.br ^bb2
  ^bb1:
    // A use of a value that a later block defines.
    return %x : i64
  ^bb2:
    %x = arith.addi %n, %n : i64
    cf.br ^bb1
  }

  // CHECK: llvm.func @malloc(i64) -> !llvm.ptr
  llvm.func @malloc(i64) -> !llvm.ptr
  // CHECK: llvm.func internal @helper(%{{.*}}: i64) -> i64
  llvm.func internal @helper(%v: i64) -> i64 {
    llvm.return %v : i64
  }

  // CHECK-LABEL: llvm.func @llvm_ops(
  llvm.func @llvm_ops(%p: !llvm.ptr, %n: i64) -> i32 {
    // CHECK: llvm.mlir.constant(42 : i32) : i32
    %c = llvm.mlir.constant(42 : i32) : i32
    // CHECK: llvm.mlir.zero : !llvm.ptr
    %z = llvm.mlir.zero : !llvm.ptr
    // CHECK: llvm.alloca %{{.*}} x i32 {alignment = 4 : i64} : (i64) -> !llvm.ptr
    %a = llvm.alloca %n x i32 {alignment = 4 : i64} : (i64) -> !llvm.ptr
    // CHECK: llvm.store %{{.*}}, %{{.*}} : i32, !llvm.ptr
    llvm.store %c, %a : i32, !llvm.ptr
    // CHECK: llvm.load %{{.*}} : !llvm.ptr -> i32
    %l = llvm.load %a : !llvm.ptr -> i32
    // CHECK: llvm.getelementptr inbounds %{{.*}}[%{{.*}}, 1] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.struct<(i32, f32)>
    %g = llvm.getelementptr inbounds %p[%n, 1] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.struct<(i32, f32)>
    // CHECK: llvm.getelementptr %{{.*}}[2] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<4 x i8>
    %g2 = llvm.getelementptr %p[2] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<4 x i8>
    // CHECK: llvm.call @malloc(%{{.*}}) : (i64) -> !llvm.ptr
    %m = llvm.call @malloc(%n) : (i64) -> !llvm.ptr
    %h = llvm.call @helper(%n) : (i64) -> i64
    // CHECK: llvm.icmp "eq" %{{.*}}, %{{.*}} : !llvm.ptr
    %q = llvm.icmp "eq" %m, %z : !llvm.ptr
    %sum = llvm.add %l, %c : i32
    %d = llvm.sdiv %sum, %c : i32
    %e = llvm.sext %d : i32 to i64
    // CHECK: llvm.cond_br %{{.*}}, ^bb1, ^bb2(%{{.*}} : i32)
    llvm.cond_br %q, ^bb1, ^bb2(%d : i32)
  ^bb1:
    llvm.br ^bb2(%c : i32)
  ^bb2(%r: i32):
    llvm.return %r : i32
  }
}
