// REQUIRES: mlir-opt-22
// RUN: gpu-translate --emit=mlir %s | FileCheck %s
// RUN: gpu-translate --emit=mlir %s | mlir-opt-22 > /dev/null

// An scf.for or scf.if without results may have empty bodies, as upstream writes them: each gets its
// block (the loop's with the induction variable) and the implicit scf.yield.

gpu.module @k {
  gpu.func @f(%n: index, %c: i1) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
    // CHECK-NEXT: scf.yield
    // CHECK-NEXT: }
    scf.for %i = %c0 to %n step %c1 {
    }
    // CHECK: scf.if %{{.*}} {
    // CHECK-NEXT: scf.yield
    // CHECK-NEXT: } else {
    // CHECK-NEXT: scf.yield
    // CHECK-NEXT: }
    scf.if %c {
    } else {
    }
    gpu.return
  }
}
