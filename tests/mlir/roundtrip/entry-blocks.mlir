// REQUIRES: mlir-opt-22
// RUN: gpu-translate --emit=mlir %s | FileCheck %s
// RUN: gpu-translate --emit=mlir %s | mlir-opt-22 > /dev/null

// Where the op gives its entry block no arguments, the region may name that block and give it its own, as
// upstream's parser takes them: a function whose signature lists types only (upstream's arith tests are
// written so), a function without arguments, and an scf.if region.

// CHECK-LABEL: func.func @types_only(%arg0: f32, %arg1: i1) -> f32 {
// CHECK-NEXT:    %0 = arith.negf %arg0 : f32
// CHECK-NEXT:    cf.cond_br %arg1, ^bb1, ^bb2
// CHECK-NEXT:  ^bb1:
// CHECK-NEXT:    return %0 : f32
// CHECK-NEXT:  ^bb2:
// CHECK-NEXT:    return %arg0 : f32
func.func @types_only(f32, i1) -> f32 {
^entry(%x: f32, %flip: i1):
  %neg = arith.negf %x : f32
  cf.cond_br %flip, ^negated, ^kept
^negated:
  return %neg : f32
^kept:
  return %x : f32
}

// CHECK-LABEL: llvm.func @lowered(%arg0: i64) -> i64 {
// CHECK-NEXT:    llvm.return %arg0 : i64
llvm.func @lowered(i64) -> i64 {
^bb0(%v: i64):
  llvm.return %v : i64
}

// CHECK-LABEL: func.func @no_arguments() {
// CHECK-NEXT:    return
func.func @no_arguments() {
^start:
  return
}

// CHECK-LABEL: func.func @labelled_then(%arg0: i1) {
// CHECK-NEXT:    scf.if %arg0 {
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    }
func.func @labelled_then(%c: i1) {
  scf.if %c {
  ^then:
    scf.yield
  }
  return
}
